// Reads each file named on the command line by every route the C library offers to a program,
// and prints one line per route that got any byte: "read <route> <path>". Run inside the
// sandbox by check_isolation.py: a file outside the view must be read by none of them.
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

extern "C" int __open_2(const char*, int);
extern "C" int __openat_2(int, const char*, int);

namespace {

bool got_bytes(int fd) {
  if (fd < 0) return false;
  char buffer[64];
  ssize_t n = read(fd, buffer, sizeof buffer);
  if (n <= 0) {  // a folder: its entries are what a read of it gets
    DIR* dir = fdopendir(fd);
    bool any = false;
    if (dir != nullptr) {
      while (dirent* entry = readdir(dir)) any = any || (std::strcmp(entry->d_name, ".") && std::strcmp(entry->d_name, ".."));
      closedir(dir);
      return any;
    }
  }
  close(fd);
  return n > 0;
}

bool by_mmap(const char* path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return false;
  struct stat st{};
  bool ok = fstat(fd, &st) == 0 && st.st_size > 0;
  if (ok) {
    void* p = mmap(nullptr, 1, PROT_READ, MAP_PRIVATE, fd, 0);
    ok = p != MAP_FAILED && static_cast<const char*>(p)[0] != '\0';
    if (p != MAP_FAILED) munmap(p, 1);
  }
  close(fd);
  return ok;
}

bool by_openat2(const char* path) {
#ifdef SYS_openat2
  struct { unsigned long long flags, mode, resolve; } how{O_RDONLY, 0, 0};
  return got_bytes(static_cast<int>(syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how)));
#else
  (void)path;
  return false;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const char* path = argv[i];
    auto said = [path](const char* route, bool got) { if (got) std::printf("read %s %s\n", route, path); };
    said("open", got_bytes(open(path, O_RDONLY)));
    said("open64", got_bytes(open64(path, O_RDONLY)));
    said("openat", got_bytes(openat(AT_FDCWD, path, O_RDONLY)));
    said("__open_2", got_bytes(__open_2(path, O_RDONLY)));
    said("__openat_2", got_bytes(__openat_2(AT_FDCWD, path, O_RDONLY)));
    said("syscall(SYS_open)", got_bytes(static_cast<int>(syscall(SYS_open, path, O_RDONLY))));
    said("syscall(SYS_openat)", got_bytes(static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, O_RDONLY))));
    said("syscall(SYS_openat2)", by_openat2(path));
    said("mmap", by_mmap(path));
    std::FILE* f = std::fopen(path, "r");
    said("fopen", f != nullptr && std::fgetc(f) != EOF);
    if (f != nullptr) std::fclose(f);
    std::ifstream in(path);
    said("ifstream", in.good() && in.peek() != EOF);
    DIR* dir = opendir(path);
    bool listed = false;
    if (dir != nullptr) {
      while (dirent* entry = readdir(dir)) listed = listed || (std::strcmp(entry->d_name, ".") && std::strcmp(entry->d_name, ".."));
      closedir(dir);
    }
    said("opendir", listed);
    struct stat st{};
    said("stat", stat(path, &st) == 0);
  }
  return 0;
}

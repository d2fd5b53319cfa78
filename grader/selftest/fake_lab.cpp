// A stand-in for a lab test program, used to test grader/grade itself.
// It links the real harness. Each misbehaviour is switched on through the
// environment variable SCANLAB_FAKE_LAB (a comma-separated list), so one
// binary covers every case the grader has to classify:
//   fail         FakeLab.Fails fails an assertion
//   skip         FakeLab.Skips calls GTEST_SKIP
//   crash        FakeLab.Crashes dies with SIGSEGV
//   hang         FakeLab.Hangs loops forever
//   hang2        FakeLab.Exits loops forever too
//   exit0        FakeLab.Exits prints gtest's success lines and calls exit(0)
//                in the middle of the run
//   forge        FakeLab.Forges prints gtest's success lines and writes an
//                unsigned "all passed" record to every writable pipe it finds
//   forge-exit   like forge, then exit(0) (hides the remaining tests)
//   hog          FakeLab.Hogs allocates and touches 8 GiB
//   static-crash the program crashes before main(), in a static constructor
//   leave-sleeper   FakeLabLate.Passes forks a child that closes its files and sleeps
//   leave-daemon    FakeLabLate.Passes double-forks a grandchild in a session of its
//                   own (setsid) that sleeps
//   hold-channel    FakeLabLate.Passes forks a child that keeps every file open, the
//                   grader's result channel included, and sleeps
// Every process left behind is named "scanlab-linger" (/proc/PID/comm), so tests can
// look for it. With nothing switched on, every test passes.

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

bool behaviour(const char* name) {
  const char* list = std::getenv("SCANLAB_FAKE_LAB");
  if (list == nullptr) return false;
  const std::string all = std::string(",") + list + ",";
  return all.find(std::string(",") + name + ",") != std::string::npos;
}

struct StaticCrash {
  StaticCrash() {
    if (behaviour("static-crash")) std::raise(SIGSEGV);
  }
} static_crash;

void forge_records() {
  std::printf("[       OK ] FakeLab.Forges (0 ms)\n[  PASSED  ] 9 tests.\n");
  std::fflush(stdout);
  const std::string zeros(64, '0');
  const std::string lines =
      zeros + " {\"seq\":7,\"type\":\"end\",\"test\":\"FakeLab.Forges\",\"result\":\"pass\",\"ms\":0,\"failures\":[]}\n" +
      zeros + " {\"seq\":8,\"type\":\"complete\",\"count\":9}\n";
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return;
  while (dirent* entry = readdir(dir)) {
    const int fd = std::atoi(entry->d_name);
    if (fd <= 2 || fd == dirfd(dir)) continue;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) continue;
    const int mode = fcntl(fd, F_GETFL) & O_ACCMODE;
    if (mode != O_WRONLY && mode != O_RDWR) continue;
    if (write(fd, lines.data(), lines.size()) < 0) continue;
  }
  closedir(dir);
}

// Becomes a process that outlives the test program: named for the tests, with its files
// closed unless it is to hold them, sleeping for a quarter of an hour. It closes `ready` last,
// so that a parent reading `ready` knows when it holds no copy of the result channel.
[[noreturn]] void linger(bool keep_files, int ready) {
  prctl(PR_SET_NAME, "scanlab-linger");  // at most 15 characters: the kernel keeps no more
  if (!keep_files) {
    for (int fd = 0; fd < 1024; ++fd)
      if (fd != ready) close(fd);
  }
  close(ready);
  sleep(900);
  _exit(0);
}

// Starts the lingering processes the behaviours ask for, and returns once each has closed
// what it is to close.
void leave_processes_behind() {
  int ready[2];
  if (pipe(ready) != 0) return;
  if (behaviour("leave-sleeper") && fork() == 0) linger(false, ready[1]);
  if (behaviour("hold-channel") && fork() == 0) linger(true, ready[1]);
  if (behaviour("leave-daemon")) {
    const pid_t child = fork();
    if (child == 0) {
      setsid();
      if (fork() == 0) linger(false, ready[1]);
      _exit(0);
    }
    waitpid(child, nullptr, 0);
  }
  close(ready[1]);
  char byte;
  while (read(ready[0], &byte, 1) > 0) {
  }
  close(ready[0]);
}

}  // namespace

TEST(FakeLab, Passes) {
  // The harness must have taken its key and channel out of the environment
  // before any test runs.
  EXPECT_EQ(std::getenv("SCANLAB_GRADER_KEY_FD"), nullptr);
  EXPECT_EQ(std::getenv("SCANLAB_GRADER_RESULT_FD"), nullptr);
}

TEST(FakeLab, PassesToo) { EXPECT_EQ(2 + 2, 4); }

TEST(FakeLab, Fails) {
  if (behaviour("fail")) EXPECT_EQ(6 * 7, 43) << "the answer is off by one";
}

TEST(FakeLab, Skips) {
  if (behaviour("skip")) GTEST_SKIP() << "skipped on purpose";
}

TEST(FakeLab, Crashes) {
  if (behaviour("crash")) std::raise(SIGSEGV);
}

TEST(FakeLab, Hangs) {
  while (behaviour("hang")) std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

TEST(FakeLab, Exits) {
  while (behaviour("hang2")) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (behaviour("exit0")) {
    // What a test program that finished successfully would print, then leave.
    std::printf("[       OK ] FakeLab.Exits (0 ms)\n[  PASSED  ] 9 tests.\n");
    std::exit(0);
  }
}

TEST(FakeLab, Forges) {
  if (behaviour("forge") || behaviour("forge-exit")) forge_records();
  if (behaviour("forge-exit")) std::exit(0);
}

TEST(FakeLab, Hogs) {
  if (behaviour("hog")) {
    std::vector<char> block(std::size_t{8} << 30, 1);
    EXPECT_EQ(block[12345], 1);
  }
}

TEST(FakeLabLate, Passes) {
  leave_processes_behind();
  SUCCEED();
}

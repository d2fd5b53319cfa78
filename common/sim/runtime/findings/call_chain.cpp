#include "findings/call_chain.hpp"

#include <execinfo.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace scanlab::sim::detail::call_chain {
namespace {

// Where a source file belongs: Thrust (or the CUB and libcu++ it is built on), the program, or
// anything else (the C++ library, the simulator's own headers, code with no debug information).
enum class Origin { thrust, program, other };

bool is_file(const std::string& path) {
  struct stat s {};
  return stat(path.c_str(), &s) == 0 && S_ISREG(s.st_mode);
}

std::mutex mutex;  // one question at a time

Origin origin_of(const std::string& file) {
  static std::map<std::string, Origin> known;  // under `mutex`
  if (auto it = known.find(file); it != known.end()) return it->second;
  Origin o = Origin::program;
  if (file.empty() || file == "??") {
    o = Origin::other;
  } else {
    // A Thrust installation: the folder that holds thrust/version.h (cub/ and cuda/std/ beside it).
    for (const char* part : {"/thrust/", "/cub/", "/cuda/std/"}) {
      if (auto at = file.find(part); at != std::string::npos && is_file(file.substr(0, at) + "/thrust/version.h")) {
        o = Origin::thrust;
        break;
      }
    }
    if (o == Origin::program) {
      for (const char* system : {"/usr/include/", "/usr/lib/", "/usr/local/include/", "/scanlab/sim/"})
        if (file.find(system) != std::string::npos) o = Origin::other;
      // The simulator's runtime, the folder of this file's layer folder: the code the program called.
      const std::string here(__FILE__);
      const std::size_t runtime_end = here.rfind('/', here.rfind('/') - 1) + 1;
      if (file.compare(0, runtime_end, here, 0, runtime_end) == 0) o = Origin::other;
    }
  }
  known.emplace(file, o);
  return o;
}

// The main program's load address and extent: the code addresses addr2line can read.
struct MainProgram {
  std::uintptr_t bias = 0;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> segments;
};

int find_main_program(dl_phdr_info* info, std::size_t, void* data) {
  auto* main = static_cast<MainProgram*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD) main->segments.emplace_back(info->dlpi_addr + ph.p_vaddr, ph.p_memsz);
  }
  main->bias = info->dlpi_addr;
  return 1;  // the first object listed is the program itself
}

const MainProgram& main_program() {
  static const MainProgram main = [] {
    MainProgram m;
    dl_iterate_phdr(find_main_program, &m);
    return m;
  }();
  return main;
}

bool in_main_program(std::uintptr_t a) {
  for (const auto& [begin, bytes] : main_program().segments)
    if (a - begin < bytes) return true;
  return false;
}

std::string executable_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("/proc/self/exe");
}

std::string chomp(const char* line) {
  std::string s(line);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  if (auto d = s.find(" (discriminator"); d != std::string::npos) s.erase(d);
  return s;
}

}  // namespace

std::vector<SourceLocation> source_frames(const std::vector<std::uintptr_t>& return_addresses) {
  std::string command = "addr2line -C -f -i -e '" + executable_path() + "'";
  char hex[32];
  for (std::uintptr_t ra : return_addresses) {
    // The call is the instruction before the return address.
    std::snprintf(hex, sizeof hex, " 0x%" PRIxPTR, ra - 1 - main_program().bias);
    command += hex;
  }
  command += " 2>/dev/null";
  std::vector<SourceLocation> frames;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char function[4096], position[4096];
    while (std::fgets(function, sizeof function, pipe) && std::fgets(position, sizeof position, pipe)) {
      SourceLocation where;
      where.function = chomp(function);
      const std::string pos = chomp(position);
      if (auto colon = pos.rfind(':'); colon != std::string::npos) {
        where.file = pos.substr(0, colon);
        where.line = static_cast<unsigned>(std::strtoul(pos.c_str() + colon + 1, nullptr, 10));
      }
      frames.push_back(where);
    }
    pclose(pipe);
  }
  return frames;
}

Reading read(std::uintptr_t from) {
  std::lock_guard<std::mutex> lock(mutex);
  // The frames after `from` (or after this function's own); the runtime's frames above them are
  // the simulator's, and its hooks', and are left out.
  void* stack[128];
  const int depth = backtrace(stack, 128);
  std::vector<std::uintptr_t> chain;
  if (from) chain.push_back(from);
  bool past = from == 0;
  for (int i = from ? 0 : 1; i < depth; ++i) {
    const auto ra = reinterpret_cast<std::uintptr_t>(stack[i]);
    if (past && in_main_program(ra)) chain.push_back(ra);
    past = past || ra == from;
  }
  Reading r;
  for (const SourceLocation& frame : source_frames(chain)) {
    const Origin o = origin_of(frame.file);
    r.through_thrust = r.through_thrust || o == Origin::thrust;
    if (o == Origin::program && r.program_line.file.empty()) r.program_line = frame;
  }
  return r;
}

}  // namespace scanlab::sim::detail::call_chain

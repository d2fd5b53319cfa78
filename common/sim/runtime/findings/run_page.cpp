#include "findings/run_page.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern char** environ;

namespace scanlab::sim::detail {

namespace {

// Where the kit's page tool is: the build names it (simcc, common/sim/CMakeLists.txt).
#ifdef SCANLAB_SIM_PAGE_TOOL
constexpr const char* kPageTool = SCANLAB_SIM_PAGE_TOOL;
#else
constexpr const char* kPageTool = "";
#endif

struct RunPage {
  std::string page;     // absolute: the program may change its directory before it ends
  std::string records;  // a temporary file of this run's records
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  pid_t process = getpid();  // a child the program forks ends without writing the page
  std::atomic<bool> written{false};
};

void write_at_exit() { write_run_page(); }

// Set up before main: the variable is read while reading the environment is still safe.
RunPage* make() {
  const char* page = std::getenv("SCANLAB_SIM_PAGE");
  if (!page || !*page) return nullptr;
  auto* run = new RunPage;
  run->page = page;
  if (page[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) run->page = std::string(cwd) + "/" + page;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/scanlab-run-records-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) {
    std::fprintf(stderr, "scanlab-sim: SCANLAB_SIM_PAGE: no temporary file for the run's records: %s\n",
                 std::strerror(errno));
    delete run;
    return nullptr;
  }
  close(fd);
  run->records = name.data();
  std::atexit(write_at_exit);
  return run;
}

RunPage* const the_run = make();

// The program's command line as it was started, from /proc/self/cmdline.
std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    args.push_back(all.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return args;
}

std::string executable() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return {};
  path[n] = '\0';
  return path;
}

}  // namespace

const char* run_page_records() { return the_run ? the_run->records.c_str() : nullptr; }

void write_run_page() {
  if (!the_run || getpid() != the_run->process || the_run->written.exchange(true)) return;
  std::fflush(nullptr);
  if (!*kPageTool || access(kPageTool, X_OK) != 0) {
    std::fprintf(stderr, "scanlab-sim: SCANLAB_SIM_PAGE: no page written: this program's simulator was built "
                         "without the kit's page tool (%s)\n", *kPageTool ? kPageTool : "none named");
    std::remove(the_run->records.c_str());
    return;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - the_run->started).count();
  std::vector<std::string> args = {kPageTool, "--records", the_run->records, "--out", the_run->page,
                                   "--seconds", std::to_string(seconds)};
  if (const std::string exe = executable(); !exe.empty()) args.insert(args.end(), {"--executable", exe});
  args.push_back("--");
  const std::vector<std::string> command = command_line();  // as typed: the page shows it
  args.insert(args.end(), command.begin(), command.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The tool runs the program again for pictures: without the request, or each run would ask again.
  std::vector<char*> env;
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, "SCANLAB_SIM_PAGE=", 17) != 0) env.push_back(*e);
  env.push_back(nullptr);
  pid_t pid = 0;
  if (const int failed = posix_spawn(&pid, kPageTool, nullptr, nullptr, argv.data(), env.data()); failed != 0) {
    std::fprintf(stderr, "scanlab-sim: SCANLAB_SIM_PAGE: could not run %s: %s\n", kPageTool, std::strerror(failed));
  } else {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  std::remove(the_run->records.c_str());
}

}  // namespace scanlab::sim::detail

// Running a program as a child process, the way a student's shell would, and keeping what it
// printed: the simulator's reports go to stderr and the exit status says whether it found errors.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace scanlab::sim::testing {

struct ProcessResult {
  int exit_status = -1;  // the status the program exited with; -1 if it died from a signal
  int signal = 0;        // the signal that ended it, if one did
  std::string out;
  std::string err;
};

// Runs argv[0] with the given arguments. The child's environment is this process's, with every
// SCANLAB_SIM_* variable removed and `env` added, so that the schedule is what the test asks
// for. A child still running after `time_limit_s` is killed with SIGALRM.
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                          unsigned time_limit_s = 60);

// A directory of its own under $TMPDIR (or /tmp), removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);  // empty if it does not exist

}  // namespace scanlab::sim::testing

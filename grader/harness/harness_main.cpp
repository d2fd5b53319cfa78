// scanlab grader harness: the main() of every lab test program.
//
// Protocol with grader/grade (see grader/README.md, "How results travel"):
//   SCANLAB_GRADER_KEY_FD     read end of a pipe carrying a 32-byte random key.
//                             Read once, before any test or lab code runs, then
//                             closed; the variable is removed from the environment.
//   SCANLAB_GRADER_RESULT_FD  write end of a pipe for the result records.
// Each record is one line:  <hex HMAC-SHA256(key, json)> ' ' <json> '\n'
//   {"seq":0,"type":"plan","tests":["Suite.Name",...]}
//   {"seq":1,"type":"start","test":"Suite.Name"}
//   {"seq":2,"type":"end","test":"Suite.Name","result":"pass|fail|skip","ms":3,
//    "measured":["..."],"failures":[{"file":"...","line":12,"message":"..."}],
//    "findings":[<the simulator's record of each finding, as it made it>]}
//   A finding's record (common/sim/runtime/findings/report.hpp, json_record) is data:
//   {"number":1,"kind":"race","severity":"error","error":true,"headline":"...",
//    "parties":[{"role":"write","file":"...","line":56,"function":"...","block":[0,0,0],
//                "thread":[1,0,0]}],"location":"...","details":["..."],"fix":"...",
//    "reproduce":"SCANLAB_SIM_SEED=1 ...","seed":1}
//   A program that dies leaves the records it printed after its last result in
//   $SCANLAB_SIM_REPORT_JSON, which the grader sets and reads (runner.py).
//   {"seq":N,"type":"complete","count":<tests ended>}
// The grader rejects records with a wrong signature or sequence number, so lab
// code can neither forge a pass nor hide a crash, hang or early exit.

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#ifdef SCANLAB_SIM
#include <scanlab/sim/diagnostics.hpp>

#include "../labs/common/sim_reports.hpp"
#endif

namespace {

constexpr std::size_t kKeyBytes = 32;
constexpr std::size_t kMaxFailuresPerTest = 8;
constexpr std::size_t kMaxFindingsPerTest = 16;
constexpr std::size_t kMaxMessageBytes = 4000;
constexpr int kExitNoKey = 70;  // the grader asked for a report but the key was unreadable

// Plain zero-initialised globals: they are valid before any constructor runs.
unsigned char g_key[kKeyBytes];
int g_result_fd = -1;
bool g_protocol_requested = false;
bool g_key_ok = false;

int fd_from_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return -1;
  char* end = nullptr;
  const long fd = std::strtol(value, &end, 10);
  if (*end != '\0' || fd < 0 || fd > 1 << 20) return -1;
  return static_cast<int>(fd);
}

// Runs before the default-priority static constructors of every object in the
// program, lab code included, so the key is gone before lab code could read it.
__attribute__((constructor(101))) void take_key_from_grader() {
  const int key_fd = fd_from_env("SCANLAB_GRADER_KEY_FD");
  const int result_fd = fd_from_env("SCANLAB_GRADER_RESULT_FD");
  if (key_fd < 0 && result_fd < 0) return;
  g_protocol_requested = true;
  std::size_t got = 0;
  while (key_fd >= 0 && got < kKeyBytes) {
    const ssize_t n = read(key_fd, g_key + got, kKeyBytes - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (key_fd >= 0) close(key_fd);
  unsetenv("SCANLAB_GRADER_KEY_FD");
  unsetenv("SCANLAB_GRADER_RESULT_FD");
  g_key_ok = got == kKeyBytes && result_fd >= 0;
  if (g_key_ok) {
    g_result_fd = result_fd;
    fcntl(g_result_fd, F_SETFD, FD_CLOEXEC);
  }
}

void append_json_string(std::string& out, const std::string& s) {
  static const char* const hex = "0123456789abcdef";
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += "\\u00";
          out += hex[u >> 4];
          out += hex[u & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

std::string truncated(const char* text) {
  std::string s = text != nullptr ? text : "";
  if (s.size() > kMaxMessageBytes) {
    s.resize(kMaxMessageBytes);
    s += "\n[... message truncated ...]";
  }
  return s;
}

class SignedChannel {
 public:
  // `body` is the JSON object's members after "seq" (starting with ',').
  void send(const std::string& body) {
    if (g_result_fd < 0) return;
    std::string json = "{\"seq\":" + std::to_string(seq_++) + body + "}";
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_len = 0;
    HMAC(EVP_sha256(), g_key, static_cast<int>(kKeyBytes),
         reinterpret_cast<const unsigned char*>(json.data()), json.size(), mac, &mac_len);
    static const char* const hex = "0123456789abcdef";
    std::string line;
    line.reserve(2 * mac_len + json.size() + 2);
    for (unsigned int i = 0; i < mac_len; ++i) {
      line += hex[mac[i] >> 4];
      line += hex[mac[i] & 0xf];
    }
    line += ' ';
    line += json;
    line += '\n';
    write_all(line);
  }

 private:
  static void write_all(const std::string& line) {
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = write(g_result_fd, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // grader gone: nothing left to report to
      done += static_cast<std::size_t>(n);
    }
  }

  unsigned long long seq_ = 0;
};

SignedChannel g_channel;

std::string full_name(const testing::TestInfo& info) {
  return std::string(info.test_suite_name()) + "." + info.name();
}

class ResultRecorder : public testing::EmptyTestEventListener {
 public:
  std::size_t ended() const { return ended_; }

  void OnTestProgramStart(const testing::UnitTest& unit) override {
    // Filters are applied before this event: should_run() is final here.
    std::string body = ",\"type\":\"plan\",\"tests\":[";
    bool first = true;
    for (int i = 0; i < unit.total_test_suite_count(); ++i) {
      const testing::TestSuite* suite = unit.GetTestSuite(i);
      for (int j = 0; j < suite->total_test_count(); ++j) {
        const testing::TestInfo* info = suite->GetTestInfo(j);
        if (!info->should_run()) continue;
        if (!first) body += ',';
        first = false;
        append_json_string(body, full_name(*info));
      }
    }
    body += ']';
    g_channel.send(body);
  }

  void OnTestStart(const testing::TestInfo& info) override {
    failures_.clear();
#ifdef SCANLAB_SIM
    // Each test hears of every place it reaches, even one an earlier test reported.
    scanlab::sim::take_reports();
    scanlab::sim::forget_reported_places();
    scanlab::grading::reports_of_this_test().clear();
#endif
    std::string body = ",\"type\":\"start\",\"test\":";
    append_json_string(body, full_name(info));
    g_channel.send(body);
  }

  void OnTestPartResult(const testing::TestPartResult& part) override {
    // Failures, and the reason given for a skip.
    if (!(part.failed() || part.skipped()) || failures_.size() >= kMaxFailuresPerTest) return;
    std::string f = "{\"file\":";
    append_json_string(f, part.file_name() != nullptr ? part.file_name() : "");
    f += ",\"line\":" + std::to_string(part.line_number() > 0 ? part.line_number() : 0);
    f += ",\"message\":";
    append_json_string(f, truncated(part.message()));
    f += '}';
    failures_.push_back(std::move(f));
  }

  void OnTestEnd(const testing::TestInfo& info) override {
    const testing::TestResult* result = info.result();
    const char* verdict = result->Skipped() ? "skip" : result->Passed() ? "pass" : "fail";
    std::string body = ",\"type\":\"end\",\"test\":";
    append_json_string(body, full_name(info));
    body += ",\"result\":\"";
    body += verdict;
    body += "\",\"ms\":" + std::to_string(result->elapsed_time());
    // What the test measured (RecordProperty("measured", ...)), shown beside its check.
    body += ",\"measured\":[";
    bool first_measurement = true;
    for (int i = 0; i < result->test_property_count(); ++i) {
      const testing::TestProperty& property = result->GetTestProperty(i);
      if (std::string(property.key()) != "measured") continue;
      if (!first_measurement) body += ',';
      first_measurement = false;
      append_json_string(body, truncated(property.value()));
    }
    body += "],\"failures\":[";
    for (std::size_t i = 0; i < failures_.size(); ++i) {
      if (i != 0) body += ',';
      body += failures_[i];
    }
    body += "],\"findings\":[" + findings() + ']';
    g_channel.send(body);
    ++ended_;
  }

 private:
  // The simulator's reports made while the test ran, whether a check looked at them or not.
  static std::string findings() {
    std::string list;
#ifdef SCANLAB_SIM
    scanlab::grading::take_simulator_reports();
    std::vector<scanlab::sim::Report>& reports = scanlab::grading::reports_of_this_test();
    // The runtime's records go as they are: one JSON object each, made from the finding's fields.
    for (std::size_t i = 0; i < reports.size() && i < kMaxFindingsPerTest; ++i) {
      if (i != 0) list += ',';
      list += reports[i].record;
    }
    reports.clear();
#endif
    return list;
  }

  std::vector<std::string> failures_;
  std::size_t ended_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (g_protocol_requested && !g_key_ok) {
    std::fprintf(stderr, "scanlab harness: could not read the grader's key; refusing to run.\n");
    return kExitNoKey;
  }
  // Line-buffered output, so what a test printed survives a crash in the log.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
#ifdef SCANLAB_SIM
  scanlab::sim::set_error_exit_status(0);
  // A fixed number of blocks at once (16, the simulator's first number), never more: every lab
  // kernel must progress whatever order blocks start in, so one whose running blocks all wait
  // for blocks not started fails at once with a deadlock, instead of running its whole grid at
  // once (what the simulator does for a program of its own, with a warning) and slowly.
  // Every launch runs: a test that launches a kernel again means to check it again.
  scanlab::sim::Schedule schedule = scanlab::sim::get_schedule();
  if (schedule.resident_blocks == 0) schedule.resident_blocks = 16;
  schedule.replay = false;
  scanlab::sim::set_schedule(schedule);
#endif
  testing::InitGoogleTest(&argc, argv);
  auto* recorder = new ResultRecorder;  // owned by gtest's listener list
  if (g_result_fd >= 0) testing::UnitTest::GetInstance()->listeners().Append(recorder);
  const int status = RUN_ALL_TESTS();
  if (g_result_fd >= 0) {
    g_channel.send(",\"type\":\"complete\",\"count\":" + std::to_string(recorder->ended()));
    close(g_result_fd);
    g_result_fd = -1;
  } else {
    delete recorder;
  }
  return status;
}

#include "findings/report.hpp"

#include "findings/errors.hpp"

#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

#include "base/settings.hpp"
#include "findings/run_page.hpp"

namespace scanlab::sim {
namespace detail {
namespace {

std::mutex report_mutex;
std::vector<Report> pending_reports;
int error_exit_status = 1;
unsigned errors_reported = 0;
unsigned warnings_reported = 0;
std::set<PlaceKey> reported_pairs;
std::mutex locate_mutex;  // addr2line's answers, kept: blocks on several OS threads ask

struct ObjectLookup {
  std::uintptr_t address;
  std::string path;
  std::uintptr_t bias = 0;
  bool found = false;
};

// The main program has no name in dl_iterate_phdr; addr2line needs its real path.
std::string executable_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("/proc/self/exe");
}

int find_object(dl_phdr_info* info, std::size_t, void* data) {
  auto* lookup = static_cast<ObjectLookup*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    std::uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    if (lookup->address >= begin && lookup->address < begin + ph.p_memsz) {
      lookup->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : executable_path();
      lookup->bias = info->dlpi_addr;
      lookup->found = true;
      return 1;
    }
  }
  return 0;
}

std::string json_index(uint3 v) {
  return "[" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + "]";
}

void json_string(std::ostringstream& o, const char* key, const std::string& value) {
  o << ",\"" << key << "\":\"" << json_escape(value) << "\"";
}

}  // namespace

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

const char* to_string(FixScope scope) {
  switch (scope) {
    case FixScope::none: return "";
    case FixScope::warp: return "warp";
    case FixScope::block: return "block";
  }
  return "";
}

std::string json_record(const Finding& f, unsigned number) {
  std::ostringstream o;
  o << "{\"number\":" << number << ",\"kind\":\"" << to_string(f.kind) << "\""
    << ",\"severity\":\"" << (f.is_error ? "error" : "warning") << "\",\"error\":" << (f.is_error ? "true" : "false");
  json_string(o, "headline", f.headline);
  o << ",\"parties\":[";
  for (std::size_t i = 0; i < f.parties.size(); ++i) {
    const Party& p = f.parties[i];
    o << (i ? "," : "") << "{\"role\":\"" << json_escape(p.role) << "\",\"file\":\"" << json_escape(p.where.file)
      << "\",\"line\":" << p.where.line;
    if (!p.where.function.empty() && p.where.function != "??") json_string(o, "function", p.where.function);
    if (p.in_kernel) o << ",\"block\":" << json_index(p.block) << ",\"thread\":" << json_index(p.thread);
    o << "}";
  }
  o << "]";
  json_string(o, "location", f.location);
  o << ",\"details\":[";
  for (std::size_t i = 0; i < f.details.size(); ++i) o << (i ? ",\"" : "\"") << json_escape(f.details[i]) << "\"";
  o << "]";
  json_string(o, "fix", f.fix);
  if (f.fix_scope != FixScope::none) json_string(o, "fix_scope", to_string(f.fix_scope));
  if (f.memory) o << ",\"memory\":" << memory_subject_json(*f.memory);
  if (f.picture) o << ",\"picture\":" << picture_json(*f.picture);
  if (f.wait_picture) o << ",\"wait_picture\":" << wait_picture_json(*f.wait_picture);
  if (f.bounds_picture) o << ",\"bounds_picture\":" << bounds_picture_json(*f.bounds_picture);
  if (!f.handoff_missing.empty()) o << ",\"handoff\":{\"missing\":\"" << json_escape(f.handoff_missing) << "\"}";
  json_string(o, "reproduce", describe_schedule());
  o << ",\"seed\":" << get_schedule().seed << "}";
  return o.str();
}

namespace {

const char* json_path() {
  const char* path = std::getenv("SCANLAB_SIM_REPORT_JSON");
  return path && *path ? path : nullptr;
}

void append_json(const std::string& record) {
  for (const char* path : {json_path(), run_page_records()}) {
    if (!path) continue;
    if (FILE* out = std::fopen(path, "a")) {
      std::fputs((record + "\n").c_str(), out);
      std::fclose(out);
    }
  }
}

void at_exit() {
  std::fflush(nullptr);
  if (errors_reported + warnings_reported > 0) {
    std::fprintf(stderr, "scanlab-sim: %u error%s, %u warning%s (%s)\n", errors_reported,
                 errors_reported == 1 ? "" : "s", warnings_reported, warnings_reported == 1 ? "" : "s",
                 describe_schedule().c_str());
  }
  if (errors_reported > 0 && error_exit_status != 0) {
    write_run_page();  // its own exit handler would not run after _Exit
    std::fflush(nullptr);
    std::_Exit(error_exit_status);
  }
}

}  // namespace

std::string SourceLocation::text() const {
  std::string s = file.empty() ? std::string("<unknown location>") : file + ":" + std::to_string(line);
  if (!function.empty() && function != "??") s += " (in " + function + ")";
  return s;
}

std::string format_index(uint3 v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

namespace {

// The program's own file for a name addr2line gave. A rewritten .cu (cu_rewrite.py) starts with
// the simulator's include and then `#line 1 "<the .cu>"`, so its code is the .cu's, line for
// line. But where that .cu is file 1 of a DWARF 5 line table, addr2line (binutils 2.40) names it
// by the unit's file 0, the rewritten copy: such a name is replaced by the directive's.
std::string program_file(const std::string& named) {
  static std::map<std::string, std::string> known;
  if (auto it = known.find(named); it != known.end()) return it->second;
  std::string file = named;
  if (named.size() > 7 && named.compare(named.size() - 7, 7, ".cu.cpp") == 0)
    if (FILE* f = std::fopen(named.c_str(), "r")) {
      char first[4096] = {0}, second[4096] = {0};
      if (std::fgets(first, sizeof first, f) && std::fgets(second, sizeof second, f) &&
          std::strcmp(first, "#include <scanlab/sim/cuda.hpp>\n") == 0 && std::strncmp(second, "#line 1 \"", 9) == 0)
        if (const char* end = std::strrchr(second + 9, '"')) file.assign(static_cast<const char*>(second + 9), end);
      std::fclose(f);
    }
  known.emplace(named, file);
  return file;
}

}  // namespace

SourceLocation locate(std::uintptr_t return_address) {
  std::lock_guard<std::mutex> lock(locate_mutex);
  static std::map<std::uintptr_t, SourceLocation> cache;
  if (auto it = cache.find(return_address); it != cache.end()) return it->second;
  SourceLocation where;
  // The return address follows the call; the access is the instruction before it.
  ObjectLookup lookup{return_address - 1};
  dl_iterate_phdr(find_object, &lookup);
  if (lookup.found) {
    char command[4096];
    std::snprintf(command, sizeof command, "addr2line -C -f -i -e '%s' 0x%" PRIxPTR " 2>/dev/null",
                  lookup.path.c_str(), lookup.address - lookup.bias);
    if (FILE* pipe = popen(command, "r")) {
      char function[2048] = {0}, position[2048] = {0};
      // Innermost first (-i): libcu++'s atomics (scanlab/sim/atomic.hpp) are inlined into the
      // program, whose line is the next frame out.
      bool found = false;
      while (!found && std::fgets(function, sizeof function, pipe) && std::fgets(position, sizeof position, pipe))
        found = std::strstr(position, "/scanlab/sim/atomic.hpp:") == nullptr;
      if (found) {
        std::string fn(function), pos(position);
        while (!fn.empty() && (fn.back() == '\n' || fn.back() == '\r')) fn.pop_back();
        while (!pos.empty() && (pos.back() == '\n' || pos.back() == '\r')) pos.pop_back();
        if (auto d = pos.find(" (discriminator"); d != std::string::npos) pos.erase(d);
        if (auto colon = pos.rfind(':'); colon != std::string::npos && pos.substr(0, colon) != "??") {
          where.file = program_file(pos.substr(0, colon));
          where.line = static_cast<unsigned>(std::strtoul(pos.c_str() + colon + 1, nullptr, 10));
        }
        where.function = fn;
      }
      pclose(pipe);
    }
  }
  cache.emplace(return_address, where);
  return where;
}

SourceLocation locate(Site site) {
  SourceLocation where;
  where.file = site.file ? site.file : "";
  where.line = site.line;
  return where;
}

Party host_party(const char* role, SourceLocation where) { return Party{role, std::move(where)}; }

void report_called_from_host(const char* function, Site site) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = std::string(function) + "() called from host code";
  f.parties.push_back(host_party("call", locate(site)));
  report(f);
}

thread_local PendingFindings* pending_findings = nullptr;

namespace {
std::atomic<bool> muted{false};
}  // namespace

void mute_findings(bool on) { muted.store(on, std::memory_order_relaxed); }
bool findings_muted() { return muted.load(std::memory_order_relaxed); }

bool first_time(ReportKind kind, std::uintptr_t a, std::uintptr_t b) {
  if (findings_muted()) return false;
  if (a > b) std::swap(a, b);
  const PlaceKey place{static_cast<int>(kind), a, b};
  std::lock_guard<std::mutex> lock(report_mutex);
  if (!pending_findings) return reported_pairs.insert(place).second;
  // The process learns of the place when the block's findings are printed.
  if (reported_pairs.count(place) || !pending_findings->places.insert(place).second) return false;
  pending_findings->last_place = place;
  return true;
}

Finding* waiting_finding(ReportKind kind, std::uintptr_t a, std::uintptr_t b) {
  if (!pending_findings) return nullptr;
  if (a > b) std::swap(a, b);
  const PlaceKey place{static_cast<int>(kind), a, b};
  for (PendingFinding& item : pending_findings->items)
    if (item.place == place) return &item.finding;
  return nullptr;
}

bool first_time_at(ReportKind kind, const SourceLocation& where, std::uintptr_t pc) {
  if (where.file.empty()) return first_time(kind, pc, 0);
  const std::size_t place = std::hash<std::string>{}(where.file + ":" + std::to_string(where.line) + ":" + where.function);
  return first_time(kind, place, place);  // a pair no two code addresses make
}

namespace {

std::string render(const Finding& f) {
  std::ostringstream o;
  o << "scanlab-sim: " << (f.is_error ? "error" : "warning") << ": " << f.headline << "\n";
  std::size_t width = 0;
  for (const Party& p : f.parties) width = std::max(width, p.role.size());
  for (const Party& p : f.parties) {
    o << "  " << p.role << ":" << std::string(width - p.role.size() + 1, ' ') << p.where.text();
    if (p.in_kernel) o << "  block " << format_index(p.block) << " thread " << format_index(p.thread);
    o << "\n";
  }
  if (!f.location.empty()) o << "  location: " << f.location << "\n";
  for (const std::string& d : f.details) o << "  " << d << "\n";
  if (!f.fix.empty()) o << "  fix: " << f.fix << "\n";
  o << "  reproduce with: " << describe_schedule() << "\n";
  return o.str();
}

void print_now(const Finding& f) {
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(at_exit); });
  std::string text = render(f);
  {
    std::lock_guard<std::mutex> lock(report_mutex);
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    const unsigned number = errors_reported + warnings_reported + 1;
    const std::string first_place =
        f.parties.empty() || f.parties[0].where.file.empty()
            ? std::string()
            : f.parties[0].where.file + ":" + std::to_string(f.parties[0].where.line);
    std::string record = json_record(f, number);
    append_json(record);
    pending_reports.push_back(Report{f.kind, f.is_error, text, f.headline, first_place, std::move(record)});
    (f.is_error ? errors_reported : warnings_reported) += 1;
  }
}

}  // namespace

unsigned findings_printed() {
  std::lock_guard<std::mutex> lock(report_mutex);
  return errors_reported + warnings_reported;
}

void report(const Finding& f) {
  if (findings_muted()) return;
  if (!pending_findings) {
    print_now(f);
    return;
  }
  pending_findings->items.push_back(PendingFinding{f, pending_findings->last_place, keep_until_printed(f)});
  pending_findings->last_place.reset();
}

void print_findings(PendingFindings& findings) {
  for (const PendingFinding& item : findings.items) {
    printed(item.kept);
    if (item.place) {
      std::lock_guard<std::mutex> lock(report_mutex);
      if (!reported_pairs.insert(*item.place).second) continue;  // another block's report of the same place came first
    }
    print_now(item.finding);
  }
  findings.items.clear();
  findings.places.clear();
  findings.last_place.reset();
}

void drop_findings(PendingFindings& findings) {
  for (const PendingFinding& item : findings.items) printed(item.kept);
  findings = PendingFindings{};
}

// What a time limit's signal prints. Findings wait in their block's list until the phase
// ends (see PendingFindings), and a kernel stuck in a loop that makes progress never ends its
// phase; the races held to the end of a launch (a plain read beside atomics) wait longer. Each
// such finding's text is also written, when it is made, into one arena that a signal handler
// may read: entries are only appended (a reservation by an atomic add), an entry's length is
// stored last, and its `waiting` flag is cleared once the finding is printed or dropped. The
// handler uses only write(2), open(2), close(2), atomics, sigaction and raise, all
// async-signal-safe.
struct KeptText {
  std::atomic<std::uint32_t> waiting;
  std::atomic<std::uint32_t> length;  // of text and JSON line, 0 until both are written
  std::uint32_t text_length;
  std::uint32_t json_length;
  char bytes[1];                      // the text, then the JSON line
};

namespace {

constexpr std::size_t kKeptBytes = std::size_t{1} << 20;  // room for thousands of findings
alignas(KeptText) char kept_arena[kKeptBytes];
std::atomic<std::size_t> kept_used{0};
std::atomic<bool> launch_running{false};
std::atomic<bool> signal_taken{false};
char kept_json_path[4096];  // $SCANLAB_SIM_REPORT_JSON, copied while getenv is still safe to call

std::size_t entry_size(std::size_t bytes) {
  const std::size_t size = offsetof(KeptText, bytes) + bytes;
  return (size + alignof(KeptText) - 1) / alignof(KeptText) * alignof(KeptText);
}

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}
void write_text(int fd, const char* s) { write_all(fd, s, std::strlen(s)); }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGALRM: return "SIGALRM";
    case SIGXCPU: return "SIGXCPU";
  }
  return "a signal";
}

constexpr int kTimeLimitSignals[] = {SIGTERM, SIGINT, SIGALRM, SIGXCPU};

// The stop notice, in one write(2): whole even when the process ends right after it.
void stop_notice(int sig, const char* rest) {
  char line[256];
  std::size_t n = 0;
  for (const char* part : {"scanlab-sim: stopped by ", signal_name(sig), rest})
    for (; *part && n < sizeof line; ++part) line[n++] = *part;
  write_all(STDERR_FILENO, line, n);
}

// Ends the process as `sig` would have, from the thread that calls it.
void end_as_signal(int sig) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(sig, &default_action, nullptr);
  sigset_t just_sig;
  sigemptyset(&just_sig);
  sigaddset(&just_sig, sig);
  pthread_sigmask(SIG_UNBLOCK, &just_sig, nullptr);
  raise(sig);
}

// The handler's line to the stop thread, which flushes what the program printed and then ends
// the process; -1 where there is none (the handler ends the process itself).
int stop_line = -1;
int stop_line_read = -1;
pid_t stop_process = 0;  // the process whose thread reads the line: a forked child has none

// Flushes `f` unless another thread keeps it locked for two seconds (a program stuck in a write).
void flush_unless_held(FILE* f) {
  for (int tries = 0; tries < 200; ++tries) {
    if (ftrylockfile(f) == 0) {
      std::fflush(f);
      funlockfile(f);
      return;
    }
    usleep(10000);
  }
}

// A program's output to a file or pipe is block-buffered: what it printed before a time limit
// stopped it still sits in the C library's buffers (and std::cout's, which writes through them
// unless the program untied it), and a signal's default action ends the process without
// writing them. A signal handler cannot flush them safely (the interrupted code may hold their
// lock), so the handler wakes this thread, which takes the streams' locks as any thread would.
void* stop_thread(void*) {
  int sig = 0;
  for (;;) {
    const ssize_t n = ::read(stop_line_read, &sig, sizeof sig);
    if (n == static_cast<ssize_t>(sizeof sig)) break;
    if (n < 0 && errno == EINTR) continue;
    return nullptr;
  }
  flush_unless_held(stdout);
  if (ftrylockfile(stdout) == 0) {
    std::cout.flush();
    std::clog.flush();
    std::cerr.flush();
    funlockfile(stdout);
  }
  flush_unless_held(stdout);
  flush_unless_held(stderr);
  end_as_signal(sig);
  return nullptr;
}

void on_time_limit(int sig) {
  if (!signal_taken.exchange(true)) {
    const std::size_t used = std::min(kept_used.load(std::memory_order_acquire), kKeptBytes);
    bool any = false;
    int json = -1;
    for (std::size_t at = 0; at < used;) {
      const KeptText* k = reinterpret_cast<const KeptText*>(kept_arena + at);
      const std::uint32_t length = k->length.load(std::memory_order_acquire);
      if (length == 0) break;  // still being written
      if (k->waiting.load(std::memory_order_acquire)) {
        if (!any) {
          stop_notice(sig, " while a kernel ran; what it had found and not yet printed:\n");
          if (kept_json_path[0]) json = ::open(kept_json_path, O_WRONLY | O_APPEND | O_CREAT, 0644);
          any = true;
        }
        write_all(STDERR_FILENO, k->bytes, k->text_length);
        if (json >= 0) write_all(json, k->bytes + k->text_length, k->json_length);
      }
      at += entry_size(length);
    }
    if (json >= 0) ::close(json);
    // What was printed before (at earlier phases' or launches' ends) is not repeated; the notice
    // says whether there was any, so that "nothing" is not read as taking it back.
    const bool printed_before = __atomic_load_n(&errors_reported, __ATOMIC_RELAXED) +
                                    __atomic_load_n(&warnings_reported, __ATOMIC_RELAXED) > 0;
    if (!any) {
      if (!launch_running.load(std::memory_order_acquire))
        stop_notice(sig, " in host code, while no kernel ran; its kernels' findings were printed as each ended\n");
      else if (printed_before)
        stop_notice(sig, " while a kernel ran; it had found nothing beyond the findings above\n");
      else
        stop_notice(sig, " while a kernel ran; it had found nothing so far\n");
    }
    // The stop thread flushes the program's own output, then ends the process as the signal
    // would have; a second signal, or no such thread, ends it at once.
    if (stop_line >= 0 && getpid() == stop_process &&
        ::write(stop_line, &sig, sizeof sig) == static_cast<ssize_t>(sizeof sig))
      return;
  }
  end_as_signal(sig);  // ends the process as the signal would have, for the runner that sent it
}

// The stop thread, with the time-limit signals blocked (the handler runs on another thread).
void start_stop_thread() {
  int line[2];
  if (::pipe2(line, O_CLOEXEC) != 0) return;
  sigset_t signals, before;
  sigemptyset(&signals);
  for (int sig : kTimeLimitSignals) sigaddset(&signals, sig);
  pthread_sigmask(SIG_BLOCK, &signals, &before);
  stop_line_read = line[0];
  pthread_t thread;
  if (pthread_create(&thread, nullptr, stop_thread, nullptr) == 0) {
    pthread_detach(thread);
    stop_process = getpid();
    stop_line = line[1];
  } else {
    ::close(line[0]);
    ::close(line[1]);
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

}  // namespace

KeptText* keep_until_printed(const Finding& f) {
  const std::string text = render(f);
  // Not printed yet, so it has no number: a reader of the file takes it as not yet forwarded.
  const std::string json = json_path() ? json_record(f, 0) + "\n" : std::string();
  const std::size_t length = text.size() + json.size();
  const std::size_t size = entry_size(length);
  const std::size_t at = kept_used.fetch_add(size, std::memory_order_acq_rel);
  if (at + size > kKeptBytes) return nullptr;  // the arena is full: printed at the phase's end only
  KeptText* k = reinterpret_cast<KeptText*>(kept_arena + at);
  k->text_length = static_cast<std::uint32_t>(text.size());
  k->json_length = static_cast<std::uint32_t>(json.size());
  std::memcpy(k->bytes, text.data(), text.size());
  std::memcpy(k->bytes + text.size(), json.data(), json.size());
  k->waiting.store(1, std::memory_order_relaxed);
  k->length.store(static_cast<std::uint32_t>(length), std::memory_order_release);
  return k;
}

void printed(KeptText* kept) {
  if (kept) kept->waiting.store(0, std::memory_order_release);
}

void set_launch_running(bool running) {
  if (!running) {
    // Between launches nothing waits: the arena starts again (the headers zeroed first, so
    // that a handler that reads it now stops at once).
    const std::size_t used = std::min(kept_used.load(std::memory_order_acquire), kKeptBytes);
    for (std::size_t at = 0; at < used;) {
      KeptText* k = reinterpret_cast<KeptText*>(kept_arena + at);
      const std::uint32_t length = k->length.load(std::memory_order_relaxed);
      if (length == 0) break;
      k->length.store(0, std::memory_order_release);
      k->waiting.store(0, std::memory_order_relaxed);
      at += entry_size(length);
    }
    kept_used.store(0, std::memory_order_release);
  }
  launch_running.store(running, std::memory_order_release);
}

void print_findings_on_signal() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    if (const char* path = json_path(); path && std::strlen(path) < sizeof kept_json_path)
      std::strcpy(kept_json_path, path);
    start_stop_thread();
    for (int sig : kTimeLimitSignals) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;  // the program's own choice
      struct sigaction action {};
      action.sa_handler = on_time_limit;
      sigemptyset(&action.sa_mask);
      for (int other : kTimeLimitSignals) sigaddset(&action.sa_mask, other);
      action.sa_flags = SA_RESTART;
      sigaction(sig, &action, nullptr);
    }
  });
}

void report_before_dying(const Finding& f) {
  if (PendingFindings* pending = pending_findings) {
    pending_findings = nullptr;
    print_findings(*pending);
  }
  print_now(f);
}

}  // namespace detail

const char* to_string(ReportKind kind) {
  switch (kind) {
    case ReportKind::race: return "race";
    case ReportKind::barrier_divergence: return "barrier-divergence";
    case ReportKind::barrier_after_exit: return "barrier-after-exit";
    case ReportKind::warp_mask: return "warp-mask";
    case ReportKind::deadlock: return "deadlock";
    case ReportKind::coresidency: return "co-residency";
    case ReportKind::out_of_bounds: return "out-of-bounds";
    case ReportKind::uninitialized_read: return "uninitialized-read";
    case ReportKind::invalid_launch: return "invalid-launch";
    case ReportKind::host_access: return "host-access";
    case ReportKind::unsupported: return "unsupported";
    case ReportKind::api_misuse: return "api-misuse";
    case ReportKind::picture: return "picture";
  }
  return "unknown";
}

std::vector<Report> take_reports() {
  std::lock_guard<std::mutex> lock(detail::report_mutex);
  std::vector<Report> out;
  out.swap(detail::pending_reports);
  return out;
}

void forget_reported_places() {
  std::lock_guard<std::mutex> lock(detail::report_mutex);
  detail::reported_pairs.clear();
  detail::forget_sticky_error();
}

void set_error_exit_status(int status) {
  std::lock_guard<std::mutex> lock(detail::report_mutex);
  detail::error_exit_status = status;
}

}  // namespace scanlab::sim

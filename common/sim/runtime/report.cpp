#include "report.hpp"

#include <link.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

#include "schedule.hpp"
#include "thread.hpp"

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

std::string json_index(uint3 v) {
  return "[" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + "]";
}

void append_json(const Finding& f) {
  const char* path = std::getenv("SCANLAB_SIM_REPORT_JSON");
  if (!path || !*path) return;
  std::ostringstream o;
  o << "{\"kind\":\"" << to_string(f.kind) << "\",\"error\":" << (f.is_error ? "true" : "false")
    << ",\"headline\":\"" << json_escape(f.headline) << "\",\"parties\":[";
  for (std::size_t i = 0; i < f.parties.size(); ++i) {
    const Party& p = f.parties[i];
    o << (i ? "," : "") << "{\"role\":\"" << json_escape(p.role) << "\",\"file\":\"" << json_escape(p.where.file)
      << "\",\"line\":" << p.where.line;
    if (p.in_kernel) o << ",\"block\":" << json_index(p.block) << ",\"thread\":" << json_index(p.thread);
    o << "}";
  }
  o << "],\"seed\":" << get_schedule().seed << "}\n";
  if (FILE* out = std::fopen(path, "a")) {
    std::fputs(o.str().c_str(), out);
    std::fclose(out);
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
          where.file = pos.substr(0, colon);
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

Party party(const char* role, const Thread* t, SourceLocation where) {
  Party p{role, std::move(where)};
  if (t) {
    p.in_kernel = true;
    p.block = t->coords.block_idx;
    p.thread = t->coords.thread_idx;
  }
  return p;
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

bool first_time(ReportKind kind, std::uintptr_t a, std::uintptr_t b) {
  if (a > b) std::swap(a, b);
  const PlaceKey place{static_cast<int>(kind), a, b};
  std::lock_guard<std::mutex> lock(report_mutex);
  if (!pending_findings) return reported_pairs.insert(place).second;
  // The process learns of the place when the block's findings are printed.
  if (reported_pairs.count(place) || !pending_findings->places.insert(place).second) return false;
  pending_findings->last_place = place;
  return true;
}

bool first_time_at(ReportKind kind, const SourceLocation& where, std::uintptr_t pc) {
  if (where.file.empty()) return first_time(kind, pc, 0);
  const std::size_t place = std::hash<std::string>{}(where.file + ":" + std::to_string(where.line) + ":" + where.function);
  return first_time(kind, place, place);  // a pair no two code addresses make
}

namespace {

void print_now(const Finding& f) {
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(at_exit); });
  std::ostringstream o;
  o << "scanlab-sim: " << (f.is_error ? "error" : "warning") << ": " << f.headline << "\n";
  std::size_t width = 0;
  for (const Party& p : f.parties) width = std::max(width, p.role.size());
  for (const Party& p : f.parties) {
    o << "  " << p.role << ":" << std::string(width - p.role.size() + 1, ' ') << p.where.text();
    if (p.in_kernel) o << "  block " << format_index(p.block) << " thread " << format_index(p.thread);
    o << "\n";
  }
  for (const std::string& d : f.details) o << "  " << d << "\n";
  o << "  reproduce with: " << describe_schedule() << "\n";
  std::string text = o.str();
  {
    std::lock_guard<std::mutex> lock(report_mutex);
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    pending_reports.push_back(Report{f.kind, f.is_error, text});
    (f.is_error ? errors_reported : warnings_reported) += 1;
    append_json(f);
  }
}

}  // namespace

void report(const Finding& f) {
  if (!pending_findings) {
    print_now(f);
    return;
  }
  pending_findings->items.emplace_back(f, pending_findings->last_place);
  pending_findings->last_place.reset();
}

void print_findings(PendingFindings& findings) {
  for (const auto& [finding, place] : findings.items) {
    if (place) {
      std::lock_guard<std::mutex> lock(report_mutex);
      if (!reported_pairs.insert(*place).second) continue;  // another block's report of the same place came first
    }
    print_now(finding);
  }
  findings.items.clear();
  findings.places.clear();
  findings.last_place.reset();
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
    case ReportKind::out_of_bounds: return "out-of-bounds";
    case ReportKind::uninitialized_read: return "uninitialized-read";
    case ReportKind::invalid_launch: return "invalid-launch";
    case ReportKind::host_access: return "host-access";
    case ReportKind::unsupported: return "unsupported";
    case ReportKind::api_misuse: return "api-misuse";
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
}

void set_error_exit_status(int status) {
  std::lock_guard<std::mutex> lock(detail::report_mutex);
  detail::error_exit_status = status;
}

}  // namespace scanlab::sim

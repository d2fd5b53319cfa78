#include "checks/barrier_names.hpp"

#include <mutex>
#include <map>
#include <vector>

#include "findings/call_chain.hpp"
#include "findings/report.hpp"
#include "findings/source_text.hpp"

namespace scanlab::sim::detail::barrier_names {
namespace {

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  // A rewritten copy of a .cu (x.cu.cpp) holds the .cu's lines.
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".cpp") == 0 &&
      name.find(".cu.cpp") == name.size() - 7)
    name.erase(name.size() - 4);
  return name;
}

// A function's name as addr2line gives it, without its template arguments and parameters.
std::string short_function(const std::string& function) {
  std::string s = function;
  if (const std::size_t paren = s.find('('); paren != std::string::npos) s.erase(paren);
  if (const std::size_t angle = s.find('<'); angle != std::string::npos) s.erase(angle);
  if (const std::size_t space = s.rfind(' '); space != std::string::npos) s.erase(0, space + 1);
  if (const std::size_t colons = s.rfind("::"); colons != std::string::npos) s.erase(0, colons + 2);
  return s;
}

}  // namespace

std::string ordinal(std::uint32_t n) {
  const std::uint32_t tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string line_of(std::uintptr_t pc) {
  const SourceLocation at = locate(pc);
  return at.file.empty() ? std::string("<unknown location>") : at.file + ":" + std::to_string(at.line);
}

std::string pipeline(const Block& b, std::uintptr_t state) {
  std::string holder;
  const auto base = reinterpret_cast<std::uintptr_t>(b.shared.base);
  for (const shared_memory::Variable& v : b.shared.variables)
    if (base + v.offset == state) holder = v.name;
  std::uintptr_t made_at = 0;
  for (const auto& [address, r] : b.async_barriers.by_address)
    if (r.pipeline != async_barrier::PipelineSide::none && r.pipeline_state == state) made_at = r.initialized_at;
  return std::string("the pipeline") + (holder.empty() ? "" : " in `" + holder + "`") +
         (made_at ? " (make_pipeline() at " + line_of(made_at) + ")" : "");
}

std::string barrier(const Block& b, std::uintptr_t address) {
  const auto found = b.async_barriers.by_address.find(address);
  if (found == b.async_barriers.by_address.end()) return "a barrier object";
  const async_barrier::Barrier& r = found->second;
  // A pipeline's barrier, which the program never named itself: by its stage and pipeline.
  if (r.pipeline != async_barrier::PipelineSide::none)
    return "stage " + std::to_string(r.stage) + " of " + pipeline(b, r.pipeline_state);
  std::uint32_t made_there = 0;
  for (const auto& [other, barrier] : b.async_barriers.by_address) made_there += barrier.initialized_at == r.initialized_at;
  const std::string expression = first_argument(call_at(locate(r.initialized_at), "init"));
  std::string s = expression.empty() ? "the barrier" : "`" + expression + "`";
  s += " (init() at " + line_of(r.initialized_at);
  if (made_there > 1)
    s += ", the " + ordinal(r.init_ordinal + 1) + " of the " + std::to_string(made_there) + " barriers made there";
  return s + ")";
}

std::string place(std::uintptr_t pc, const std::string& function) {
  const SourceLocation inner = locate(pc);
  if (inner.file.empty()) return "<unknown location>";
  const std::string own = inner.file + ":" + std::to_string(inner.line);
  static std::mutex mutex;
  static std::map<std::uintptr_t, std::vector<SourceLocation>> chains;  // addr2line once per place
  std::vector<SourceLocation> frames;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto [it, fresh] = chains.try_emplace(pc);
    if (fresh) it->second = call_chain::source_frames({pc});
    frames = it->second;
  }
  if (frames.size() < 2) return own;
  const std::string wanted = short_function(function);
  std::size_t first = 0;  // the frame locate() named (frames of the simulator's headers lie inside it)
  while (first < frames.size() && !(base_name(frames[first].file) == base_name(inner.file) && frames[first].line == inner.line))
    ++first;
  for (std::size_t i = first + 1; i < frames.size(); ++i)
    if (base_name(frames[i].file) == base_name(inner.file) &&
        (wanted.empty() ? i == first + 1 : short_function(frames[i].function) == wanted) && frames[i].line != inner.line)
      return inner.file + ":" + std::to_string(frames[i].line) + " (through " + short_function(frames[first].function) +
             " at " + own + ")";
  return own;
}

}  // namespace scanlab::sim::detail::barrier_names

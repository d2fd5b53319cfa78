#include "checks/step_picture.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "findings/report.hpp"
#include "threads/block.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::step_picture {
namespace {

// Bounds of what one process records: a test launches its kernel for a few dozen sizes, and the
// first of them that goes wrong is usually among the first; the grader draws one run's window.
constexpr unsigned kMaxRuns = 12;                  // records (the harness sends 16 findings a test)
constexpr std::size_t kMaxBytes = 4u << 20;        // bytes copied, over every run
constexpr const char* kDynamicName = "extern __shared__ (dynamic)";

struct Request {
  bool wanted = false;
  unsigned block[3] = {0, 0, 0};
  std::string variable;  // empty: the dynamic part, else the largest variable
};

// "block:X,Y,Z" or "block:X,Y,Z:VARIABLE"; the name comes last, since it may hold any character.
Request request_from_environment() {
  Request r;
  const char* v = std::getenv("SCANLAB_SIM_STEP_PICTURE");
  if (!v || !*v) return r;
  int consumed = 0;
  if (std::sscanf(v, "block:%u,%u,%u%n", &r.block[0], &r.block[1], &r.block[2], &consumed) != 3 || consumed == 0 ||
      (v[consumed] && v[consumed] != ':')) {
    std::fprintf(stderr, "scanlab-sim: SCANLAB_SIM_STEP_PICTURE=%s is not valid: expected block:X,Y,Z[:VARIABLE]\n", v);
    std::exit(2);
  }
  if (v[consumed] == ':') r.variable = v + consumed + 1;
  r.wanted = true;
  return r;
}

const Request& request() {
  static const Request r = request_from_environment();
  return r;
}

// Only the followed block's run touches these; one run of it at a time (one launch runs at once).
// Written by the followed block's OS thread, read at every barrier of every block: atomic.
std::atomic<const Block*> followed{nullptr};
unsigned runs = 0;
std::size_t bytes_copied = 0;
StepPicture current;
MemorySubject subject;

bool is_requested(const Block& b) {
  const Request& r = request();
  return b.index.x == r.block[0] && b.index.y == r.block[1] && b.index.z == r.block[2];
}

// The variable drawn: the one named, else the dynamic part, else the largest declared so far.
const shared_memory::Variable* variable_of(const Block& b) {
  const Request& r = request();
  const shared_memory::Variable* chosen = nullptr;
  for (const shared_memory::Variable& v : b.shared.variables) {
    if (!r.variable.empty()) {
      if (r.variable == v.name) return &v;
      continue;
    }
    if (!v.key && v.bytes) return &v;
    if (!chosen || v.bytes > chosen->bytes) chosen = &v;
  }
  return chosen;
}

}  // namespace

std::atomic<bool> recording{request().wanted};

void begin_block(const Block& b) {
  if (!is_requested(b)) return;
  followed.store(&b, std::memory_order_relaxed);
  current = StepPicture{};
  current.run = ++runs;
}

void barrier_crossed(const Block& b) {
  if (&b != followed.load(std::memory_order_relaxed)) return;
  const shared_memory::Variable* v = variable_of(b);
  if (!v) return;
  if (bytes_copied + v->bytes > kMaxBytes) {
    current.truncated = true;
    return;
  }
  bytes_copied += v->bytes;
  subject.variable = v->name ? v->name : kDynamicName;
  subject.byte = 0;
  subject.block[0] = b.index.x, subject.block[1] = b.index.y, subject.block[2] = b.index.z;
  current.variable_bytes = v->bytes;
  PictureStep step;
  step.interval = b.barrier.interval;
  step.barrier = locate(b.barrier.last);
  step.bytes.assign(reinterpret_cast<const char*>(b.shared.base + v->offset), v->bytes);
  current.steps.push_back(std::move(step));
}

void end_block(const Block& b) {
  if (&b != followed.load(std::memory_order_relaxed)) return;
  followed.store(nullptr, std::memory_order_relaxed);
  if (current.steps.empty()) return;
  Finding f;
  // Not a finding about the program: only a run that set SCANLAB_SIM_STEP_PICTURE makes one.
  f.kind = ReportKind::picture;
  f.is_error = false;
  f.headline = "steps of block " + format_index(b.index) + " in shared memory " + subject.variable + ", run " +
               std::to_string(current.run) + " (recorded as SCANLAB_SIM_STEP_PICTURE asked)";
  f.memory = subject;
  RacePicture p;
  p.subject = subject;
  p.steps = std::move(current);
  f.picture = std::move(p);
  report(f);
  current = StepPicture{};
  if (runs >= kMaxRuns || bytes_copied >= kMaxBytes) recording.store(false, std::memory_order_relaxed);
}

}  // namespace scanlab::sim::detail::step_picture

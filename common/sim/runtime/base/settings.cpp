#include "base/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/device_limits.hpp"

namespace scanlab::sim {
namespace detail {
namespace {

[[noreturn]] void bad_setting(const char* name, const char* value, const char* expected) {
  std::fprintf(stderr, "scanlab-sim: %s=%s is not valid: expected %s\n", name, value, expected);
  std::exit(2);
}

Schedule from_environment() {
  Schedule s;
  if (const char* v = std::getenv("SCANLAB_SIM_SEED"); v && *v) {
    char* end = nullptr;
    s.seed = std::strtoull(v, &end, 10);
    if (*end) bad_setting("SCANLAB_SIM_SEED", v, "a non-negative integer");
  }
  if (const char* v = std::getenv("SCANLAB_SIM_BLOCK_ORDER"); v && *v) {
    if (!std::strcmp(v, "forward")) s.block_order = Schedule::BlockOrder::forward;
    else if (!std::strcmp(v, "reverse")) s.block_order = Schedule::BlockOrder::reverse;
    else if (!std::strcmp(v, "random")) s.block_order = Schedule::BlockOrder::random;
    else bad_setting("SCANLAB_SIM_BLOCK_ORDER", v, "forward, reverse or random");
  }
  if (const char* v = std::getenv("SCANLAB_SIM_RESIDENT_BLOCKS"); v && *v) {
    char* end = nullptr;
    unsigned long n = std::strtoul(v, &end, 10);
    if (*end || n < 1 || n > kMaxResidentBlocks) bad_setting("SCANLAB_SIM_RESIDENT_BLOCKS", v, "1 to 64");
    s.resident_blocks = static_cast<unsigned>(n);
  }
  if (const char* v = std::getenv("SCANLAB_SIM_RACECHECK"); v && *v) {
    if (!std::strcmp(v, "0") || !std::strcmp(v, "off")) s.race_check = false;
    else if (!std::strcmp(v, "1") || !std::strcmp(v, "on")) s.race_check = true;
    else bad_setting("SCANLAB_SIM_RACECHECK", v, "on or off");
  }
  if (const char* v = std::getenv("SCANLAB_SIM_REPLAY"); v && *v) {
    if (!std::strcmp(v, "0") || !std::strcmp(v, "off")) s.replay = false;
    else if (!std::strcmp(v, "1") || !std::strcmp(v, "on")) s.replay = true;
    else bad_setting("SCANLAB_SIM_REPLAY", v, "on or off");
  }
  if (const char* v = std::getenv("SCANLAB_SIM_THREADS"); v && *v) {
    char* end = nullptr;
    unsigned long n = std::strtoul(v, &end, 10);
    if (*end || n > kMaxOsThreads) bad_setting("SCANLAB_SIM_THREADS", v, "0 (every core) to 256");
    s.threads = static_cast<unsigned>(n);
  }
  return s;
}

Schedule& mutable_schedule() {
  static Schedule s = from_environment();
  return s;
}

// "shared:BYTE:X,Y,Z:VARIABLE"; the variable's name comes last, since it may hold any character.
RacePictureRequest picture_request_from_environment() {
  RacePictureRequest r;
  const char* v = std::getenv("SCANLAB_SIM_RACE_PICTURE");
  if (!v || !*v) return r;
  unsigned long long byte = 0;
  unsigned x = 0, y = 0, z = 0;
  int consumed = 0;
  if (std::sscanf(v, "shared:%llu:%u,%u,%u:%n", &byte, &x, &y, &z, &consumed) != 4 || consumed == 0 || !v[consumed])
    bad_setting("SCANLAB_SIM_RACE_PICTURE", v, "shared:BYTE:X,Y,Z:VARIABLE (a race's record, \"memory\")");
  r.wanted = true;
  r.byte = static_cast<std::size_t>(byte);
  r.block[0] = x, r.block[1] = y, r.block[2] = z;
  r.variable = v + consumed;
  return r;
}

}  // namespace

const RacePictureRequest& race_picture_request() {
  static const RacePictureRequest request = picture_request_from_environment();
  return request;
}

const char* block_order_name(Schedule::BlockOrder order) {
  switch (order) {
    case Schedule::BlockOrder::forward: return "forward";
    case Schedule::BlockOrder::reverse: return "reverse";
    case Schedule::BlockOrder::random: return "random";
  }
  return "reverse";
}

const Schedule& schedule() { return mutable_schedule(); }

std::string describe_schedule() {
  const Schedule& s = schedule();
  return "SCANLAB_SIM_SEED=" + std::to_string(s.seed) + " SCANLAB_SIM_BLOCK_ORDER=" + block_order_name(s.block_order) +
         (s.resident_blocks ? " SCANLAB_SIM_RESIDENT_BLOCKS=" + std::to_string(s.resident_blocks) : std::string()) +
         (s.race_check ? "" : " SCANLAB_SIM_RACECHECK=off");
}

}  // namespace detail

Schedule get_schedule() { return detail::schedule(); }

void set_schedule(const Schedule& s) {
  Schedule checked = s;
  if (checked.resident_blocks > detail::kMaxResidentBlocks) checked.resident_blocks = detail::kMaxResidentBlocks;
  detail::mutable_schedule() = checked;
}

}  // namespace scanlab::sim

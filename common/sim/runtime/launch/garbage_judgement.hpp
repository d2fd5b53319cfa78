// Whether the garbage a launch read from shared memory reaches its results. Shared memory holds
// garbage when a block starts, and code that reads some of it is not always wrong: a warp that
// loads one partial sum per lane for a shuffle scan, where fewer warps wrote one, passes the
// garbage of the upper lanes only to lanes whose results nobody uses (NVIDIA's shfl_scan sample
// does this). Valgrind's Memcheck reports garbage only where it reaches a result; the simulator
// cannot follow a value through a thread's registers, so it asks the question of the launch:
// where a launch's threads read shared memory that nothing wrote, the launch runs again, from
// device memory as it was before, with other garbage in shared memory (findings muted, nothing
// counted). If the second run leaves device memory as the first did, byte for byte and written
// byte for written byte, the garbage reached no result and the reads are not reported; otherwise
// they are, as errors. Device memory is then left as the first run left it.
//
// Only where the second run could not do anything the first did not undo: a launch that touched
// memory outside device buffers, shared memory and its own stack (a __device__ variable, host
// memory), or called printf or clock(), or ended with an error, reports its reads as before, and
// so does a launch that starts with more than kJudgedBytesLimit of live device buffers, whose
// copy would cost too much memory and time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "memory/global_memory.hpp"

namespace scanlab::sim::detail::garbage_judgement {

constexpr std::size_t kJudgedBytesLimit = std::size_t{64} << 20;
// The garbage of the second run: unlike kUninitializedByte (0xCD) in sign and in every bit, so
// that a sum, a minimum or a maximum that takes garbage in changes.
constexpr unsigned char kOtherGarbageByte = 0x32;

// Live device buffers, their bytes and which of their bytes were written, at one moment.
class DeviceMemoryCopy {
 public:
  // Empty (taken() false) where the live buffers hold more than kJudgedBytesLimit.
  static DeviceMemoryCopy take();
  bool taken() const { return taken_; }
  void restore() const;
  bool same_as_now() const;

 private:
  bool taken_ = false;
  std::vector<global_memory::Buffer> buffers_;
  std::vector<unsigned char> bytes_;
  std::vector<std::uint8_t> validity_;
};

}  // namespace scanlab::sim::detail::garbage_judgement

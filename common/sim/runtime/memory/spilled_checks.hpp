// Checking memory kept in a file, for programs whose checks the machine's memory cannot hold.
//
// A byte of device memory costs 5 bytes of checks: its byte in the byte map and a quarter of its
// word's 16-byte race shadow cell. A scan of 500M ints in two buffers needs 4 GB of data and 20 GB
// of checks, more than a 24 GiB machine holds beside the program's host arrays. Such a buffer's
// checks are mapped, page for page, onto an unnamed file instead of anonymous memory: nothing on
// the path of an access changes (the same arrays at the same addresses), and the system writes
// the pages out and reads them back as memory runs short. Kernels sweep their buffers in order,
// so what the checks touch at any moment stays small.
//
// A buffer spills when the checks of the buffers already in memory, its own checks and its data
// would pass half of what the system has available when it is allocated, counted with the checks
// already in memory (the system's figure leaves out what of them was touched). SCANLAB_SIM_SPILL=always
// spills every buffer's checks (tests use it), =never none. The file is made in SCANLAB_SIM_SPILL_DIR,
// else $TMPDIR, else /var/tmp, else /tmp: the first that is not memory itself (tmpfs) and where
// an unnamed file can be made. It has no name, so it is gone when the program ends, however it ends.
#pragma once

#include <cstddef>

#include "base/site.hpp"

namespace scanlab::sim::detail::memory::spill {

// Whether the checks of a new buffer of `data_bytes`, `check_bytes` of them, should go to the
// file; counts them as held in memory when not. `site` names the buffer in the one note a run prints when its
// checks first spill.
bool decide(std::size_t data_bytes, std::size_t check_bytes, const Site& site);
// A buffer that was to spill stayed in memory, all or part, for a move below failed: its checks
// count as held in memory.
void count_in_memory(std::size_t check_bytes);
// A buffer whose checks stayed in memory was freed: they no longer count.
void forget_in_memory(std::size_t check_bytes);

// Maps the whole pages of [begin, begin+bytes), part of an array reserved for checks that holds
// nothing there yet, onto a fresh stretch of the file (zeros). False where no file could be made:
// the range stays in memory.
bool move_to_file(void* begin, std::size_t bytes);
// The stretches of the file inside the whole pages of [begin, begin+bytes) read as zeros again
// and give their disk space back (release_whole_pages calls it, for anonymous memory's
// MADV_DONTNEED does not reach a file).
void zero_in_file(void* begin, std::size_t bytes);
// A freed buffer's checks: the stretches of the file that lie wholly inside [begin, begin+bytes)
// become anonymous memory again (zeros), so that the next buffer there is decided afresh.
void bring_back(void* begin, std::size_t bytes);

}  // namespace scanlab::sim::detail::memory::spill

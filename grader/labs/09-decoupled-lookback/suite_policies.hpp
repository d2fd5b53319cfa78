// The policies lab 09's suite scans with (threads, items per thread, back-off in ns): tiles of
// 256, 512 and 4096 elements of 8 items per thread (the tile sizes of whole_scan_checks.hpp),
// the smallest also with a back-off, which puts every waiting lane to sleep between polls.
// Plain C++: the lab file defines ScanPolicy, the test files see this declaration only.
#pragma once

template <unsigned Threads, unsigned ItemsPerThread, unsigned BackoffNs>
struct ScanPolicy;

namespace lab09 {

using SmallPolicy = ScanPolicy<32, 8, 0>;
using MediumPolicy = ScanPolicy<64, 8, 0>;
using LargePolicy = ScanPolicy<512, 8, 0>;
using BackoffPolicy = ScanPolicy<32, 8, 100>;

}  // namespace lab09

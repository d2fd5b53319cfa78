// The pipelines lab 10's suite scans with: tiles of 256, 512 and 4096 elements (the tile sizes of
// whole_scan_checks.hpp) of 8 items per thread, in rings of 2 or 3 stages, so that small arrays
// already reuse every stage many times; the smallest also with a back-off in the look-back and
// two blocks per multiprocessor (a launch of more blocks than the simulator runs at once when
// it is asked to run one block at a time).
// Every array takes the pipeline (no minimum of tiles per block). Plain C++: the lab file
// defines PipelinePolicy, the test files see this declaration only.
#pragma once

namespace lab10 {

template <unsigned ScanWarps, unsigned ReduceWarps, unsigned ItemsPerThread, unsigned Stages, unsigned BlocksPerSm,
          unsigned MinPipelinedTiles, unsigned BackoffNs>
struct PipelinePolicy;

//                                  scan warps, reduce warps, items, stages, blocks per SM, min tiles, back-off
using SmallPolicy = PipelinePolicy<1, 1, 8, 2, 1, 0, 0>;
using MediumPolicy = PipelinePolicy<2, 1, 8, 3, 1, 0, 0>;
using LargePolicy = PipelinePolicy<16, 4, 8, 2, 1, 0, 0>;
using BackoffPolicy = PipelinePolicy<1, 1, 8, 2, 2, 0, 100>;

}  // namespace lab10

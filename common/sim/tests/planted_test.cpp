// Runs each planted program (a CUDA program with one known bug, or its fixed twin) on the
// simulator, as a child process with the schedule the case asks for, and checks the report:
// its kind, whether it is an error, the source lines it names (the lines marked
// `// expect: <kind>` in the program) and the threads it names. Fixed twins must run clean.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "process.hpp"
#include "report_json.hpp"

namespace scanlab::sim::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kSimulatorFoundErrors = 1;  // the exit status of a program in which the simulator reported an error
constexpr unsigned kWarpSize = 32;

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// The lines of a source file marked `// expect: <kind>` (or `// expect: <kind>, <kind>`, a line
// that runs of the program under different settings report as different kinds), by kind.
std::map<std::string, std::set<unsigned>> expected_lines(const std::string& source_path) {
  const std::string text = read_file(source_path);
  if (text.empty()) throw std::runtime_error("cannot read " + source_path);
  static const std::regex marker(R"(//\s*expect:\s*([a-z-]+(\s*,\s*[a-z-]+)*))");
  static const std::regex kind(R"([a-z-]+)");
  std::map<std::string, std::set<unsigned>> lines;
  unsigned number = 1;
  for (std::size_t begin = 0; begin < text.size(); ++number) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::smatch m;
    const std::string line = text.substr(begin, end - begin);
    if (std::regex_search(line, m, marker)) {
      const std::string kinds = m[1];
      for (auto k = std::sregex_iterator(kinds.begin(), kinds.end(), kind); k != std::sregex_iterator(); ++k)
        lines[k->str()].insert(number);
    }
    begin = end + 1;
  }
  return lines;
}

struct Outcome {
  ProcessResult process;
  std::vector<JsonReport> reports;
  std::string records;  // the JSON lines as written, for fields the parsed reports leave out
  std::map<std::string, std::set<unsigned>> markers;         // in <program>.cu
  std::map<std::string, std::set<unsigned>> header_markers;  // in <program>.cuh, where there is one
};

// Further checks of whom the reports name, where the program makes that determinable.
using PartyCheck = std::function<void(const Outcome&)>;

struct PlantedCase {
  std::string name;     // the test's name
  std::string program;  // planted/<program>.cu
  bool fixed = false;   // run the twin built with PLANTED_FIXED
  std::vector<std::string> args;
  std::map<std::string, std::string> env;  // SCANLAB_SIM_* settings
  int exit_status = 0;
  int signal = 0;  // the signal that ends the program, if one must
  unsigned time_limit_s = 60;  // then the program is stopped with SIGALRM
  std::string kind;  // the kind of every report; empty: the program must run without any report
  std::vector<std::string> more_kinds;  // further kinds the run reports too, each at its own marked lines
  bool error = true;
  PartyCheck check;
  std::string stdout_contains;
  std::string stderr_note;  // a note of the simulator's that the run must print, its only line on stderr if clean
  // Where `signal` is SIGALRM and nothing is reported: the simulator's stop notice.
  std::string stop_notice = "scanlab-sim: stopped by SIGALRM while a kernel ran; it had found nothing";
};

void PrintTo(const PlantedCase& c, std::ostream* os) { *os << c.name; }

PlantedCase bug(std::string name, std::string program, std::string kind, PartyCheck check = {}) {
  PlantedCase c;
  c.name = std::move(name);
  c.program = std::move(program);
  c.exit_status = kSimulatorFoundErrors;
  c.kind = std::move(kind);
  c.check = std::move(check);
  return c;
}

PlantedCase clean(std::string name, std::string program, bool fixed) {
  PlantedCase c;
  c.name = std::move(name);
  c.program = std::move(program);
  c.fixed = fixed;
  return c;
}

// A program that completes, with a warning that it relied on all its blocks running at once.
PlantedCase relied_on_coresidency(std::string name, std::string program, PartyCheck check) {
  PlantedCase c = clean(std::move(name), std::move(program), false);
  c.kind = "co-residency";
  c.error = false;
  c.check = std::move(check);
  return c;
}

PlantedCase with_args(PlantedCase c, std::vector<std::string> args) {
  c.args = std::move(args);
  return c;
}

PlantedCase with_env(PlantedCase c, std::map<std::string, std::string> env) {
  c.env = std::move(env);
  return c;
}

// Errors that stop the kernel, as on a GPU: each run can make only one of them.
bool stops_the_kernel(const std::string& kind) {
  return kind == "barrier-divergence" || kind == "deadlock" || kind == "warp-mask" || kind == "invalid-launch";
}

bool is_power_of_two(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }

unsigned distance(const ReportParty& a, const ReportParty& b) {
  const unsigned x = (*a.thread)[0], y = (*b.thread)[0];
  return x > y ? x - y : y - x;
}

// Both sides of every report are kernel threads of one block.
void expect_two_threads_of_one_block(const JsonReport& r) {
  ASSERT_EQ(r.parties.size(), 2u) << r.headline;
  for (const ReportParty& p : r.parties) ASSERT_TRUE(p.block && p.thread) << r.headline;
  EXPECT_EQ(*r.parties[0].block, *r.parties[1].block) << r.headline;
}

// Kogge-Stone and the warp scan: thread i reads the element of thread i - stride.
void threads_a_stride_apart(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    expect_two_threads_of_one_block(r);
    if (r.parties.size() == 2) {
      EXPECT_TRUE(is_power_of_two(distance(r.parties[0], r.parties[1])))
          << "threads " << (*r.parties[0].thread)[0] << " and " << (*r.parties[1].thread)[0];
    }
  }
}

void threads_of_one_warp_a_stride_apart(const Outcome& o) {
  threads_a_stride_apart(o);
  for (const JsonReport& r : o.reports)
    if (r.parties.size() == 2 && r.parties[0].thread && r.parties[1].thread) {
      EXPECT_EQ((*r.parties[0].thread)[0] / kWarpSize, (*r.parties[1].thread)[0] / kWarpSize);
    }
}

// Thread i reads the element that thread (i + 1) mod blockDim.x wrote.
void neighbouring_threads(const Outcome& o) {
  constexpr unsigned kThreads = 128;  // global_race_in_block.cu
  for (const JsonReport& r : o.reports) {
    expect_two_threads_of_one_block(r);
    if (r.parties.size() == 2) {
      const unsigned d = distance(r.parties[0], r.parties[1]);
      EXPECT_TRUE(d == 1 || d == kThreads - 1) << "threads " << d << " apart";
    }
  }
}

// A hand-off's flag steps ("flag store", "flag read"): parties that name where the flag was set
// and seen, beside the data's two accesses, which the program's markers name.
bool flag_step(const ReportParty& p) { return p.role == "flag store" || p.role == "flag read"; }

// flag_handoff.cu: thread 0 of block 0 writes the data and stores the flag, thread 0 of block 1
// reads the flag and the data.
void writer_and_reader_blocks(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    ASSERT_GE(r.parties.size(), 2u);
    std::set<unsigned> blocks;
    for (const ReportParty& p : r.parties) {
      ASSERT_TRUE(p.block && p.thread);
      EXPECT_EQ((*p.thread)[0], 0u) << p.role;
      if (p.role == "flag store") EXPECT_EQ((*p.block)[0], 0u);
      if (p.role == "flag read") EXPECT_EQ((*p.block)[0], 1u);
      if (!flag_step(p)) blocks.insert((*p.block)[0]);
    }
    EXPECT_EQ(blocks, (std::set<unsigned>{0, 1}));
    EXPECT_EQ(r.parties[0].role, "write");
  }
}

// barrier_in_branch.cu: threads 0-15 wait at the barrier in the branch (the first marked line),
// threads 16-63 at the one after it (the second).
void split_at_sixteen(const Outcome& o) {
  const std::set<unsigned>& lines = o.markers.at("barrier-divergence");
  ASSERT_EQ(lines.size(), 2u);
  const unsigned in_branch = *lines.begin(), after_branch = *lines.rbegin();
  for (const JsonReport& r : o.reports) {
    for (const ReportParty& p : r.parties) {
      ASSERT_TRUE(p.thread);
      if (p.line == in_branch) {
        EXPECT_LT((*p.thread)[0], 16u);
      } else if (p.line == after_branch) {
        EXPECT_GE((*p.thread)[0], 16u);
      }
    }
  }
  EXPECT_THAT(o.process.err, HasSubstr("threads (0,0,0)..(15,0,0) (16 threads) wait at"));
  EXPECT_THAT(o.process.err, HasSubstr("threads (16,0,0)..(63,0,0) (48 threads) wait at"));
}

// early_return.cu: 300 elements in blocks of 128; only the last block has exited threads.
void last_block_only(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    ASSERT_EQ(r.parties.size(), 1u);
    ASSERT_TRUE(r.parties[0].block);
    EXPECT_EQ((*r.parties[0].block)[0], 2u);
  }
}

// ballot_outside_mask.cu: the mask names lanes 0-15, so the caller named is one of 16-31.
void upper_half_warp(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    ASSERT_EQ(r.parties.size(), 1u);
    ASSERT_TRUE(r.parties[0].thread);
    EXPECT_GE((*r.parties[0].thread)[0] % kWarpSize, 16u);
  }
}

// stream_scan.cu, 8 blocks started in reverse order two at a time: blocks 7 and 6 run, and
// thread 0 of each spins on its predecessor's flag.
void last_two_blocks_spinning(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    std::set<unsigned> blocks;
    for (const ReportParty& p : r.parties) {
      EXPECT_EQ(p.role, "spinning");
      ASSERT_TRUE(p.block && p.thread);
      blocks.insert((*p.block)[0]);
      EXPECT_EQ((*p.thread)[0], 0u);
    }
    EXPECT_EQ(blocks, (std::set<unsigned>{6, 7}));
  }
  EXPECT_THAT(o.process.err, HasSubstr("blocks not yet started: (5,0,0)"));
  // The deadlock's picture (findings/wait_picture.hpp), recorded unasked: block 5 never started,
  // and the chain 7 -> 6 -> 5 read from the blocks' order (the spin's loads are volatile).
  EXPECT_THAT(o.records, HasSubstr("\"wait_picture\":{\"grid_blocks\":8,\"resident\":2,\"block_order\":\"reverse\""));
  EXPECT_THAT(o.records, HasSubstr("{\"linear\":5,\"block\":[5,0,0],\"state\":\"not started\"}"));
  EXPECT_THAT(o.records, HasSubstr("\"waits_for\":5,\"waits_for_from\":\"block order\"}"));
  EXPECT_THAT(o.records, HasSubstr("\"waits_for\":6,\"waits_for_from\":\"block order\"}"));
}

// A chain or a look-back by blockIdx.x with 16 blocks at once (SCANLAB_SIM_RESIDENT_BLOCKS=16):
// 40 blocks started last first, so blocks 39..24 run, thread 0 of each waits, and block 23
// never starts. The report names the remedy.
void running_blocks_wait_for_block_23(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    for (const ReportParty& p : r.parties) {
      EXPECT_EQ(p.role, "spinning");
      ASSERT_TRUE(p.block && p.thread);
      EXPECT_GE((*p.block)[0], 24u);
      EXPECT_LE((*p.block)[0], 39u);
      EXPECT_EQ((*p.thread)[0], 0u);
    }
  }
  EXPECT_THAT(o.process.err, HasSubstr("blocks not yet started: (23,0,0)"));
  EXPECT_THAT(o.process.err, HasSubstr("blocks start in no fixed order (here reverse"));
  EXPECT_THAT(o.process.err, HasSubstr("take a ticket"));
}

// The same kernels under the default settings: an H100 holds all 40 blocks at once, so the
// simulator starts them all and warns, naming a thread that waited (thread 0 of block 39, the
// first to start), the launch, how the grid fits, and the remedies.
void waited_for_blocks_not_started(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    ASSERT_EQ(r.parties.size(), 2u);
    EXPECT_EQ(r.parties[0].role, "waiting");
    ASSERT_TRUE(r.parties[0].block && r.parties[0].thread);
    EXPECT_EQ((*r.parties[0].block)[0], 39u);
    EXPECT_EQ((*r.parties[0].thread)[0], 0u);
    EXPECT_EQ(r.parties[1].role, "launch");
  }
  EXPECT_THAT(o.process.err, HasSubstr("relied on all 40 of its blocks running at once"));
  EXPECT_THAT(o.process.err, HasSubstr("132 multiprocessors x 32 blocks each = 4224"));
  // The warning's picture: the blocks as the 16 running ones (39..24) all waited, block 23 not
  // started yet (findings/wait_picture.hpp, as a deadlock records them).
  EXPECT_THAT(o.records, HasSubstr("\"wait_picture\":{\"grid_blocks\":40,\"resident\":16,\"block_order\":\"reverse\""));
  EXPECT_THAT(o.records, HasSubstr("{\"linear\":23,\"block\":[23,0,0],\"state\":\"not started\"}"));
  EXPECT_THAT(o.records, HasSubstr("{\"linear\":39,\"block\":[39,0,0],\"state\":\"waiting\""));
  EXPECT_THAT(o.process.err, HasSubstr("cudaLaunchCooperativeKernel"));
  EXPECT_THAT(o.process.err, HasSubstr("takes a ticket"));
}

// grid_barrier.cu, 100 KiB of shared memory a block: two blocks to a multiprocessor.
void every_block_fits(const Outcome& o) {
  EXPECT_THAT(o.process.err, HasSubstr("relied on all 200 of its blocks running at once"));
  EXPECT_THAT(o.process.err, HasSubstr("132 multiprocessors x 2 blocks each = 264"));
  EXPECT_THAT(o.process.err, HasSubstr("102400 bytes of shared memory"));
}
void grid_does_not_fit(const Outcome& o) {
  for (const JsonReport& r : o.reports)
    for (const ReportParty& p : r.parties) EXPECT_EQ(p.role, "spinning");
  EXPECT_THAT(o.process.err, HasSubstr("blocks not yet started: "));
  EXPECT_THAT(o.process.err, HasSubstr("the grid of 300 blocks does not fit at once: an H100 holds 132 "
                                       "multiprocessors x 2 blocks each = 264"));
}

PartyCheck thread_named(unsigned thread) {
  return [thread](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      ASSERT_EQ(r.parties.size(), 1u);
      ASSERT_TRUE(r.parties[0].thread);
      EXPECT_EQ((*r.parties[0].thread)[0], thread);
    }
  };
}

// The out-of-bounds picture (findings/bounds_picture.hpp) of out_of_bounds_global, recorded
// unasked: the 100-int buffer, and thread 100's write one cell past its end.
void one_past_the_end_drawn(const Outcome& o) {
  thread_named(100)(o);
  EXPECT_THAT(o.records, HasSubstr("\"bounds_picture\":{\"space\":\"global\",\"buffer\":\"the 400-byte buffer allocated at "));
  EXPECT_THAT(o.records, HasSubstr("\"element_bytes\":4,\"buffer_cells\":100,\"accesses\":[{\"cell\":100,"
                                   "\"block\":[0,0,0],\"thread\":100,\"role\":\"write\""));
}

// stderr says each of `parts` (where a report names the buffer or variable, how far away).
PartyCheck stderr_says(std::vector<std::string> parts, PartyCheck also = {}) {
  return [parts, also](const Outcome& o) {
    for (const std::string& part : parts) EXPECT_THAT(o.process.err, HasSubstr(part));
    if (also) also(o);
  };
}

// Every report's fix names `barrier`, and names `wrong` nowhere: a hint that would leave the race.
PartyCheck fix_names(std::string barrier, std::string wrong, PartyCheck also = {}) {
  return [barrier, wrong, also](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      EXPECT_THAT(r.fix, HasSubstr(barrier)) << r.headline;
      EXPECT_THAT(r.fix, Not(HasSubstr(wrong))) << r.headline;
    }
    if (also) also(o);
  };
}

// Where a report's two threads share a warp but its fix asks for __syncthreads(), the fix names
// two threads of different warps that race at the same lines: "thread (x,0,0) and thread (y,0,0)".
// The first pair found is two lanes of one warp, so at least one report is of that kind.
void fix_shows_threads_of_two_warps(const Outcome& o) {
  int within_one_warp = 0;
  for (const JsonReport& r : o.reports) {
    ASSERT_EQ(r.parties.size(), 2u);
    ASSERT_TRUE(r.parties[0].thread && r.parties[1].thread);
    if ((*r.parties[0].thread)[0] / 32 != (*r.parties[1].thread)[0] / 32) continue;
    ++within_one_warp;
    unsigned a = 0, b = 0;
    const std::size_t at = r.fix.find("(thread (");
    ASSERT_NE(at, std::string::npos) << r.fix;
    ASSERT_EQ(std::sscanf(r.fix.c_str() + at, "(thread (%u,0,0) and thread (%u,0,0), for one)", &a, &b), 2) << r.fix;
    EXPECT_NE(a / 32, b / 32) << r.fix;
  }
  EXPECT_GE(within_one_warp, 1) << "no report of two threads of one warp: the widened fix was not shown";
}

// The last report names `barrier` as its fix: the one that corrects what an earlier run advised.
PartyCheck last_fix_names(std::string barrier, PartyCheck also = {}) {
  return [barrier, also](const Outcome& o) {
    ASSERT_FALSE(o.reports.empty());
    EXPECT_THAT(o.reports.back().fix, HasSubstr(barrier)) << o.reports.back().headline;
    if (also) also(o);
  };
}

PlantedCase also_reports(PlantedCase c, std::vector<std::string> kinds) {
  c.more_kinds = std::move(kinds);
  return c;
}

// A launch is host code: the party is the launch's line, with no block or thread.
void host_side_launch(const Outcome& o) {
  for (const JsonReport& r : o.reports) {
    ASSERT_EQ(r.parties.size(), 1u);
    EXPECT_EQ(r.parties[0].role, "launch");
    EXPECT_FALSE(r.parties[0].block);
  }
}

std::vector<PlantedCase> planted_cases() {
  std::vector<PlantedCase> cases;
  for (const char* threads : {"32", "256", "1024"}) {
    // The first pair found is two lanes of one warp (a stride of 1), but with more than one warp
    // the same two lines race between warps too: only __syncthreads() fixes them all.
    const bool one_warp = std::string(threads) == "32";
    cases.push_back(with_args(bug(std::string("KoggeStoneMissingBarrier") + threads, "kogge_stone_inplace", "race",
                                  one_warp ? fix_names("__syncwarp()", "__syncthreads()", threads_a_stride_apart)
                                           : fix_names("__syncthreads()", "__syncwarp()", [](const Outcome& o) {
                                               threads_a_stride_apart(o);
                                               fix_shows_threads_of_two_warps(o);
                                             })),
                              {threads}));
    cases.push_back(with_args(clean(std::string("KoggeStoneFixed") + threads, "kogge_stone_inplace", true), {threads}));
  }
  // One warp first (__syncwarp would do), then eight: the same two lines race between warps, and
  // the place is reported again with the fix that orders both runs.
  cases.push_back(with_args(bug("KoggeStoneMissingBarrierOneWarpThenEight", "kogge_stone_inplace", "race",
                                last_fix_names("__syncthreads()", threads_a_stride_apart)),
                            {"32", "256"}));
  cases.push_back(bug("BarrierInBranch", "barrier_in_branch", "barrier-divergence", split_at_sixteen));

  PlantedCase early_return = clean("EarlyReturnBeforeBarrier", "early_return", false);
  early_return.kind = "barrier-after-exit";
  early_return.error = false;  // a warning: the program runs correctly and exits 0
  early_return.check = last_block_only;
  cases.push_back(early_return);

  cases.push_back(bug("KernelInHeaderMissingBarrier", "header_kernel", "race"));
  cases.push_back(clean("KernelInHeaderFixed", "header_kernel", true));
  cases.push_back(clean("TextbookStyleDeclarationsAndLaunch", "textbook_style", false));
  cases.push_back(clean("LaunchesInsideMacros", "macro_launch", false));
  cases.push_back(clean("DeviceMemoryFreedByAStaticAtExit", "free_at_exit", false));
  cases.push_back(clean("TemplatedStaticVolatileAlignedShared", "templated_shared", false));
  cases.push_back(clean("SharedInsideDeviceFunction", "shared_in_device_function", false));
  cases.push_back(bug("PlainStoreBesideAtomics", "atomic_beside_plain", "race"));
  cases.push_back(bug("PlainReadGuardingAnAtomic", "guarded_atomic", "race",
                      stderr_says({"a plain read beside an atomic write is a data race"})));
  cases.push_back(clean("AtomicReadGuardingAnAtomic", "guarded_atomic", true));
  cases.push_back(clean("CompareAndSwapLoopAndAtomicReset", "atomic_beside_plain", true));
  cases.push_back(bug("BallotCallerOutsideMask", "ballot_outside_mask", "warp-mask", upper_half_warp));
  cases.push_back(clean("BallotFullMask", "ballot_outside_mask", true));
  cases.push_back(bug("ShuffleMismatchedMasks", "shfl_mismatched_masks", "warp-mask"));
  cases.push_back(bug("WarpVolatileScanWithoutSyncwarp", "warp_volatile_scan", "race",
                      fix_names("__syncwarp()", "__syncthreads()", threads_of_one_warp_a_stride_apart)));
  cases.push_back(clean("WarpScanWithSyncwarp", "warp_volatile_scan", true));
  // Eight blocks one after the other in one slot: each reuses the threads (and lane clocks) of
  // the block before it, and __syncwarp still orders exactly what it orders.
  cases.push_back(with_env(with_args(bug("WarpVolatileScanWithoutSyncwarpBlocksInOneSlot", "warp_volatile_scan", "race",
                                         threads_of_one_warp_a_stride_apart),
                                     {"8"}),
                           {{"SCANLAB_SIM_RESIDENT_BLOCKS", "1"}}));
  cases.push_back(with_env(with_args(clean("WarpScanWithSyncwarpBlocksInOneSlot", "warp_volatile_scan", true), {"8"}),
                           {{"SCANLAB_SIM_RESIDENT_BLOCKS", "1"}}));
  // A carry that both warps of a block read and the first reader resets after __syncwarp:
  // found only through the second reader a shadow cell keeps.
  cases.push_back(bug("CarryResetByItsFirstReader", "broadcast_then_update", "race"));
  cases.push_back(clean("CarryResetAfterBarrier", "broadcast_then_update", true));

  // The blockIdx-ordered stream scan works when blocks happen to start in order ...
  cases.push_back(with_env(clean("StreamScanBlockIdxForward", "stream_scan", false), {{"SCANLAB_SIM_BLOCK_ORDER", "forward"}}));
  // ... and, with more blocks than run at once, hangs, as does a look-back by blockIdx.x; their
  // twins take a ticket and run clean.
  const std::map<std::string, std::string> sixteen_at_once{{"SCANLAB_SIM_RESIDENT_BLOCKS", "16"}};
  cases.push_back(with_env(with_args(bug("StreamScanBlockIdx16Resident", "stream_scan", "deadlock",
                                         running_blocks_wait_for_block_23),
                                     {std::to_string(40 * 64 - 3)}),
                           sixteen_at_once));
  cases.push_back(with_args(clean("StreamScanTicketDefaultSettings", "stream_scan", true), {std::to_string(40 * 64 - 3)}));
  cases.push_back(with_env(bug("LookBackByBlockIdx16Resident", "lookback_by_block_index", "deadlock",
                               running_blocks_wait_for_block_23),
                           sixteen_at_once));
  cases.push_back(clean("LookBackByTicket", "lookback_by_block_index", true));
  // Under the default settings the 40 blocks fit on the device at once: they complete, with a
  // warning (the exit status stays 0) ...
  cases.push_back(with_args(relied_on_coresidency("StreamScanBlockIdxDefaultSettings", "stream_scan",
                                                  waited_for_blocks_not_started),
                            {std::to_string(40 * 64 - 3)}));
  cases.push_back(relied_on_coresidency("LookBackByBlockIdxDefaultSettings", "lookback_by_block_index",
                                        waited_for_blocks_not_started));
  // ... as does a grid-wide barrier of 200 blocks that fit; one of 300 that do not fit hangs.
  PlantedCase barrier_fits = relied_on_coresidency("GridBarrierThatFits", "grid_barrier", every_block_fits);
  barrier_fits.stdout_contains = "every block of 200 copied the grid's total";
  cases.push_back(barrier_fits);
  cases.push_back(with_args(bug("GridBarrierThatDoesNotFit", "grid_barrier", "deadlock", grid_does_not_fit), {"300"}));
  // A cooperative launch's grid barrier orders the phases of a kernel between blocks; left out, the
  // race between them is found; a block that exits before it leaves the others waiting, which is
  // reported at the barrier; a grid the device does not hold at once fails the launch.
  cases.push_back(with_args(bug("GridSyncLeftOut", "cooperative_grid_sum", "race"), {"sum"}));
  PlantedCase grid_sum = with_args(clean("GridSyncBetweenPhases", "cooperative_grid_sum", true), {"sum"});
  grid_sum.stdout_contains = "every block of 24 copied the grid's total";
  cases.push_back(grid_sum);
  cases.push_back(with_args(bug("GridSyncAfterABlockExited", "cooperative_grid_sum", "barrier-divergence",
                                stderr_says({"1 block of the grid exited without reaching it"})),
                            {"exit"}));
  cases.push_back(with_args(clean("GridSyncReachedByEveryBlock", "cooperative_grid_sum", true), {"exit"}));
  PlantedCase grid_too_large = with_args(bug("CooperativeGridTooLarge", "cooperative_grid_sum", "invalid-launch",
                                        stderr_says({"the launch returns cudaErrorCooperativeLaunchTooLarge"})),
                                    {"too-large"});
  grid_too_large.stdout_contains = "the launch returned cudaErrorCooperativeLaunchTooLarge";
  cases.push_back(grid_too_large);
  cases.push_back(with_args(clean("CooperativeGridThatFits", "cooperative_grid_sum", true), {"too-large"}));
  for (const char* order : {"forward", "random"})
    cases.push_back(with_env(clean(std::string("LookBackByTicket_") + order + "_1Resident", "lookback_by_block_index", true),
                             {{"SCANLAB_SIM_BLOCK_ORDER", order}, {"SCANLAB_SIM_RESIDENT_BLOCKS", "1"}}));
  // ... and hangs when they do not and too few fit.
  cases.push_back(with_env(bug("StreamScanBlockIdxReverse", "stream_scan", "deadlock", last_two_blocks_spinning),
                           {{"SCANLAB_SIM_BLOCK_ORDER", "reverse"}, {"SCANLAB_SIM_RESIDENT_BLOCKS", "2"}}));
  for (const char* order : {"forward", "reverse", "random"}) {
    for (const char* resident : {"1", "2"}) {
      std::string name = std::string("StreamScanDynamicIndex_") + order + "_" + resident + "Resident";
      cases.push_back(with_env(clean(name, "stream_scan", true),
                               {{"SCANLAB_SIM_BLOCK_ORDER", order}, {"SCANLAB_SIM_RESIDENT_BLOCKS", resident}}));
    }
  }

  cases.push_back(bug("FlagHandoffWithoutFence", "flag_handoff", "race", writer_and_reader_blocks));
  cases.push_back(clean("FlagHandoffWithFence", "flag_handoff", true));
  // Each side of a hand-off on its own (common/sim/README.md, "Memory model").
  cases.push_back(bug("HandoffReaderWithoutFence", "handoff_reader_fence", "race",
                      stderr_says({"with no acquire pattern after it", "put __threadfence() between reading the flag"},
                                  writer_and_reader_blocks)));
  cases.push_back(clean("HandoffReaderFenced", "handoff_reader_fence", true));
  // Volatile data and a volatile flag, one fence left out: the read may see a stale value (a
  // warning, the exit status stays 0); with an atomic flag and no fence, chained_volatile_scan
  // below, it is an error.
  for (const char* side : {"writer", "reader"}) {
    PlantedCase stale = with_args(bug(std::string("VolatileValueWithoutFence_") + side, "handoff_volatile_data",
                                      "race", stderr_says({"may see a stale value", "volatile accesses are relaxed"})),
                                  {side});
    stale.error = false;
    stale.exit_status = 0;
    cases.push_back(stale);
  }
  cases.push_back(with_args(clean("VolatileValueFencedOnBothSides", "handoff_volatile_data", true), {"writer"}));
  cases.push_back(bug("HandoffValueByAnotherThread", "handoff_other_thread", "race",
                      stderr_says({"put __syncthreads() before the __threadfence()"})));
  cases.push_back(clean("HandoffValueBeforeBarrierAndFence", "handoff_other_thread", true));
  cases.push_back(bug("HandoffWithBlockFences", "handoff_block_fence", "race", writer_and_reader_blocks));
  cases.push_back(clean("HandoffWithDeviceFences", "handoff_block_fence", true));
  cases.push_back(bug("LibcuRelaxedFlagsAndBlockFences", "libcu_atomics", "race"));
  cases.push_back(clean("LoopOfChangingAtomicsIsProgress", "atomic_progress", false));
  cases.push_back(clean("LibcuReleaseAcquireAndDeviceFences", "libcu_atomics", true));
  cases.push_back(bug("BlockScopeAtomicsAcrossBlocks", "atomic_scope", "race"));
  cases.push_back(clean("DeviceScopeAtomicsAcrossBlocks", "atomic_scope", true));
  cases.push_back(bug("LastBlockTicketWithoutFence", "last_block_counter", "race"));
  cases.push_back(clean("LastBlockTicketAfterFence", "last_block_counter", true));
  // NVIDIA's "last block" pattern: a fence before the ticket, none after it. The PTX model does
  // not order it, NVIDIA's documentation relies on it: a warning (the exit status stays 0), read
  // by every thread of the last block after a barrier, or by the thread that drew the ticket.
  for (const char* reader : {"block", "thread"}) {
    PlantedCase ticket = with_args(bug(std::string("TicketWithoutFenceAfterIt_") + reader, "ticket_handoff", "race",
                                       stderr_says({"hand-off through an atomic ticket with no acquire after it",
                                                    "put __threadfence() between the atomic and this access",
                                                    "threadFenceReduction", "this access read the data with no fence",
                                                    "this access wrote over the data with no fence"})),
                                   {reader});
    ticket.error = false;
    ticket.exit_status = 0;
    cases.push_back(ticket);
    cases.push_back(with_args(clean(std::string("TicketWithFenceAfterIt_") + reader, "ticket_handoff", true), {reader}));
  }
  // A flag read before a thread of its reader's block relayed a hand-off through it: what the read
  // carried is judged, not what the flag carries later, so the read orders nothing (an error, not
  // the ticket's warning).
  cases.push_back(bug("FlagReadBeforeItRelayedAHandOff", "relayed_flag_read_early", "race",
                      stderr_says({"nothing orders the two blocks", "1 error, 0 warnings"})));
  cases.push_back(clean("FlagRelayedToTheBlockByABarrier", "relayed_flag_read_early", true));
  // A chained scan of volatile prefixes and atomicAdd flags with no fence at all: an error,
  // whether the reader polls with volatile loads or with atomicAdd(flag, 0).
  for (const char* poll : {"load", "atomic"}) {
    cases.push_back(with_args(bug(std::string("ChainedVolatileScanWithoutFences_") + poll, "chained_volatile_scan",
                                  "race", stderr_says({"stale value handed on in global memory", "no release pattern"})),
                              {poll}));
    cases.push_back(with_args(clean(std::string("ChainedVolatileScanFenced_") + poll, "chained_volatile_scan", true),
                              {poll}));
  }
  // A status word that is its own flag (the value beside the flag bit, one atomicExch), beside a
  // counter of additions that both blocks of each hand-off change: the hand-off is not reported,
  // whether the publishing block's threads change the counter right after it publishes (the
  // barrier after the hand-off missing, a race of its own) or after that barrier.
  cases.push_back(bug("PackedStatusWordBesideSharedRace", "packed_status_word", "race"));
  cases.push_back(clean("PackedStatusWordHandoff", "packed_status_word", true));
  cases.push_back(bug("GlobalRaceInBlock", "global_race_in_block", "race", neighbouring_threads));
  cases.push_back(clean("GlobalExchangeAfterBarrier", "global_race_in_block", true));
  cases.push_back(bug("OutOfBoundsGlobal", "out_of_bounds_global", "out-of-bounds", one_past_the_end_drawn));
  cases.push_back(bug("OutOfBoundsShared", "out_of_bounds_shared", "out-of-bounds", thread_named(63)));
  // Past the end of the dynamic shared memory: the fix is the launch's size, at the launch's
  // line, the same words for every access there (so that a grader tells it once).
  cases.push_back(bug("PastTheDynamicSharedMemoryTheLaunchGave", "dynamic_shared_too_small", "out-of-bounds",
                      [](const Outcome& o) {
                        ASSERT_EQ(o.reports.size(), 3u);
                        for (const JsonReport& r : o.reports) {
                          EXPECT_THAT(r.fix, HasSubstr("'buffers' is the kernel's dynamic shared memory"));
                          EXPECT_THAT(r.fix, HasSubstr("dynamic_shared_too_small.cu:34"));
                          EXPECT_THAT(r.fix, HasSubstr("gave it 128 bytes"));
                          EXPECT_EQ(r.fix, o.reports[0].fix);
                        }
                      }));
  cases.push_back(clean("DynamicSharedMemoryForBothBuffers", "dynamic_shared_too_small", true));
  cases.push_back(bug("ReadBeforeTheFirstBufferAndSharedVariable", "exclusive_shift", "out-of-bounds",
                      stderr_says({"out-of-bounds read of 4 bytes in global memory",
                                   "location: 4 bytes before the start of a 256-byte buffer allocated at",
                                   "out-of-bounds read of 4 bytes in shared memory",
                                   "location: shared memory 4 bytes before the start of 'tile'"},
                                  thread_named(0))));
  cases.push_back(clean("ShiftWithIdentityAtZero", "exclusive_shift", true));
  cases.push_back(bug("WildIndexFarOutsideEveryBuffer", "wild_index", "out-of-bounds",
                      stderr_says({"no device memory at all", "the launch reports cudaErrorIllegalAddress"},
                                  thread_named(0))));
  cases.push_back(clean("IndexCheckedAtBlockZero", "wild_index", true));
  // A loop bounded by the fill pattern read out of bounds ends in bounded time, with its findings.
  cases.push_back(bug("WildLoopStopped", "wild_loop", "out-of-bounds",
                      stderr_says({"block stopped after 65536 out-of-bounds accesses",
                                   "the launch reports cudaErrorIllegalAddress"})));
  cases.push_back(clean("LoopBoundCheckedAtBlockZero", "wild_loop", true));
  // Only the wild block stops (with a thread of it waiting for the serial phase): a race in a
  // block that starts after it is still found.
  cases.push_back(also_reports(bug("WildBlockStoppedThenRaceInLaterBlock", "wild_block_then_race", "out-of-bounds",
                                   stderr_says({"block stopped after 65536 out-of-bounds accesses"})),
                               {"race"}));
  cases.push_back(clean("BoundInBoundsAndBarrier", "wild_block_then_race", true));
  // An address that is no memory at all faults, as on a GPU, but the line is reported first.
  PlantedCase null_pointer = bug("NullPointerInKernel", "null_pointer", "out-of-bounds",
                                 stderr_says({"bytes past a null pointer"}, thread_named(3)));
  null_pointer.signal = SIGSEGV;
  cases.push_back(null_pointer);
  cases.push_back(clean("PointerCheckedForNull", "null_pointer", true));
  // The kernel goes on after an out-of-bounds store, and its race is found in the same run.
  cases.push_back(also_reports(bug("OutOfBoundsThenRace", "out_of_bounds_then_race", "out-of-bounds"), {"race"}));
  cases.push_back(clean("InBoundsAndBarrier", "out_of_bounds_then_race", true));
  // After an illegal address every later call returns it, as on a GPU, until cudaDeviceReset: the
  // program checks each call's result and fails where one does not.
  PlantedCase sticks = bug("ErrorSticksAfterIllegalAddress", "sticky_error", "out-of-bounds",
                           stderr_says({"did not run, nor will any later one"}));
  sticks.stdout_contains = "every call after the error returned cudaErrorIllegalAddress";
  cases.push_back(sticks);
  PlantedCase works = clean("CallsGoOnAfterInBoundsKernel", "sticky_error", true);
  works.stdout_contains = "every call after the error returned cudaSuccess";
  cases.push_back(works);

  // Reads of memory that nothing wrote (compute-sanitizer's initcheck, and shared memory too).
  cases.push_back(bug("HistogramNeverZeroed", "histogram_not_zeroed", "uninitialized-read",
                      stderr_says({"read of 4 bytes of global memory that nothing wrote", "32-byte buffer allocated at",
                                   "set it with cudaMemset"})));
  cases.push_back(clean("HistogramZeroed", "histogram_not_zeroed", true));
  cases.push_back(bug("AccumulatorNeverZeroed", "accumulator_not_zeroed", "uninitialized-read",
                      stderr_says({"atomic update of 4 bytes of global memory that nothing wrote",
                                   "byte 0 of a 4-byte buffer allocated at"},
                                  thread_named(0))));
  cases.push_back(clean("AccumulatorZeroed", "accumulator_not_zeroed", true));
  cases.push_back(bug("SharedReadBeforeAnyWrite", "shared_read_before_write", "uninitialized-read",
                      stderr_says({"of shared memory that nothing wrote", "shared variable 'tile'",
                                   "shared variable 'dynamic_tile'"})));
  cases.push_back(clean("SharedTileFilledWithIdentity", "shared_read_before_write", true));
  // Warp 0 loads a sum per lane where fewer warps stored one: garbage that reaches only lanes
  // whose results are not used is not reported (the launch ran again with other garbage, and
  // left device memory the same); garbage that reaches the block's total is.
  cases.push_back(with_args(clean("GarbageLanesThatReachNoResult", "unused_garbage_lanes", false), {"scan"}));
  cases.push_back(with_args(bug("GarbageLanesThatReachTheTotal", "unused_garbage_lanes", "uninitialized-read",
                                stderr_says({"read of 4 bytes of shared memory that nothing wrote",
                                             "shared variable 'sums'", "the garbage reaches the kernel's results"})),
                            {"total"}));
  for (const char* mode : {"scan", "total"})
    cases.push_back(with_args(clean(std::string("GarbageLanesLoadZero_") + mode, "unused_garbage_lanes", true), {mode}));

  PlantedCase too_large = bug("BlockOf1025Threads", "block_too_large", "invalid-launch",
                              stderr_says({"a block of 1025 threads (1025x1x1)",
                                           "configuration: grid (1,1,1), block (1025,1,1), 0 bytes of dynamic shared memory"},
                                          host_side_launch));
  too_large.stdout_contains = "launch status: cudaErrorInvalidValue";
  cases.push_back(too_large);
  PlantedCase empty_grid = bug("GridOfZeroBlocksForAnEmptyInput", "empty_grid", "invalid-launch",
                               stderr_says({"invalid kernel launch: a grid of 0 blocks (0x1x1)",
                                            "configuration: grid (0,1,1), block (256,1,1)"},
                                           host_side_launch));
  empty_grid.stdout_contains = "launch status: cudaErrorInvalidValue";
  cases.push_back(empty_grid);
  cases.push_back(clean("EmptyInputNotLaunched", "empty_grid", true));

  // A barrier called from host code: reported at each call, with the host as the only party.
  cases.push_back(bug("BarrierCalledFromHostCode", "barrier_from_host", "unsupported",
                      stderr_says({"__syncthreads() called from host code", "__syncthreads_count() called from host code"},
                                  [](const Outcome& o) {
                                    for (const JsonReport& r : o.reports) {
                                      ASSERT_EQ(r.parties.size(), 1u);
                                      EXPECT_EQ(r.parties[0].role, "call");
                                      EXPECT_FALSE(r.parties[0].block);
                                    }
                                  })));
  cases.push_back(clean("BarrierOnlyInTheKernel", "barrier_from_host", true));

  PlantedCase cg_scan = clean("CooperativeGroupsScanAndVotes", "cooperative_groups_scan", false);
  cg_scan.stdout_contains = "block scans, sums and tile votes of 1024 elements match the host's";
  cases.push_back(cg_scan);
  cases.push_back(bug("TileSyncReachedByHalfTheTile", "tile_sync_half_warp", "warp-mask", [](const Outcome& o) {
    EXPECT_THAT(o.process.err, HasSubstr("invalid thread_block_tile::sync"));
  }));
  cases.push_back(clean("TileSyncByTheWholeTile", "tile_sync_half_warp", true));
  PlantedCase multi_warp = clean("MultiWarpTileCollectives", "multi_warp_tiles", false);
  multi_warp.stdout_contains =
      "reductions, scans, shuffles, votes and hand-offs of tiles of 64 to 1024 threads match the host's";
  cases.push_back(multi_warp);
  // The two racing threads are in different tiles of 128: tile.sync() orders neither for the other.
  cases.push_back(bug("TileSyncDoesNotOrderAnotherTile", "tile_sync_other_tile", "race", [](const Outcome& o) {
    EXPECT_THAT(o.process.err, HasSubstr("orders only the threads of its own tile"));
    for (const JsonReport& r : o.reports) {
      expect_two_threads_of_one_block(r);
      if (r.parties.size() == 2)
        EXPECT_NE((*r.parties[0].thread)[0] / 128, (*r.parties[1].thread)[0] / 128) << r.headline;
    }
  }));
  cases.push_back(clean("BlockSyncOrdersTwoTiles", "tile_sync_other_tile", true));
  // Threads of one tile of 16 (tiled_partition<16>) race in shared memory: the fix is the tile's
  // sync(), the call the kernel has, not a __syncwarp() nor a __syncthreads().
  cases.push_back(bug("SubWarpTileWithoutSync", "tile16_scan_without_sync", "race",
                      fix_names("tile.sync()", "__syncwarp()", [](const Outcome& o) {
                        ASSERT_FALSE(o.reports.empty());
                        for (const JsonReport& r : o.reports) {
                          EXPECT_THAT(r.fix, HasSubstr("thread_block_tile<16>")) << r.headline;
                          EXPECT_THAT(r.fix, Not(HasSubstr("__syncthreads()"))) << r.headline;
                          expect_two_threads_of_one_block(r);
                          if (r.parties.size() == 2)
                            EXPECT_EQ((*r.parties[0].thread)[0] / 16, (*r.parties[1].thread)[0] / 16) << r.headline;
                        }
                      })));
  cases.push_back(clean("SubWarpTileSynced", "tile16_scan_without_sync", true));
  // Warps of one tile of 256 a warp apart, with no tile.sync() between the write and the read.
  cases.push_back(bug("MultiWarpTileWithoutSync", "tile_sync_missing", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      expect_two_threads_of_one_block(r);
      if (r.parties.size() == 2) {
        EXPECT_EQ((*r.parties[0].thread)[0] / 256, (*r.parties[1].thread)[0] / 256) << r.headline;
        EXPECT_EQ(distance(r.parties[0], r.parties[1]) % kWarpSize, 0u) << r.headline;
      }
    }
  }));
  cases.push_back(clean("MultiWarpTileSyncOrdersItsWarps", "tile_sync_missing", true));
  // Thread 5 of a tile of 64 skips the tile's sync and waits at the block's barrier.
  cases.push_back(bug("MultiWarpTileSyncSkippedByOneThread", "tile_sync_divergent", "barrier-divergence",
                      [](const Outcome& o) {
                        for (const JsonReport& r : o.reports) {
                          ASSERT_EQ(r.parties.size(), 2u);
                          EXPECT_EQ(r.parties[0].role, "thread_block_tile::sync");
                          EXPECT_EQ(r.parties[1].role, "__syncthreads");
                          ASSERT_TRUE(r.parties[1].thread);
                          EXPECT_EQ((*r.parties[1].thread)[0] % 64, 5u);
                        }
                        EXPECT_THAT(o.process.err, HasSubstr("63 of the tile's 64 threads wait at"));
                      }));
  cases.push_back(clean("MultiWarpTileSyncByEveryThread", "tile_sync_divergent", true));
  // Hopper pipelines: bulk copies into shared-memory stages guarded by barriers with transaction
  // counts. The copy names the issuing thread and line; the other side is the stage's reader.
  cases.push_back(bug("AsyncStageReadBeforeItsBarrierCompletes", "async_read_before_wait", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) expect_two_threads_of_one_block(r);
  }));
  cases.push_back(clean("AsyncStageReadAfterItsBarrierCompletes", "async_read_before_wait", true));
  cases.push_back(bug("AsyncStageReusedBeforeItsRelease", "async_stage_reused", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) expect_two_threads_of_one_block(r);
  }));
  cases.push_back(clean("AsyncStageReusedAfterItsRelease", "async_stage_reused", true));
  cases.push_back(bug("AsyncStageReleasedBeforeItIsRead", "async_released_early", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) expect_two_threads_of_one_block(r);
  }));
  cases.push_back(clean("AsyncStageReleasedAfterItIsRead", "async_released_early", true));
  // Fixes from the program's own synchronization (checks/ordering_diagnosis.hpp): each names the
  // line that broke the ordering, and none asks for a barrier that some warps never reach.
  {
    // The stale waits let the consumers read stages early (races, and reads of bytes no copy had
    // written yet), and later wait for a phase that never comes (the deadlock). Which of these a
    // run meets depends on the thread order (a copy that landed first turns the wrong parity into
    // a wait for the next phase), so the case runs under the default seed only: its primary kind
    // is the read's, which the reseeded cases leave out.
    PlantedCase c = bug("AsyncWaitForTheParityOfTheLastUse", "async_parity_of_the_last_use", "uninitialized-read",
                        stderr_says({"waited for parity 1 of `loaded[s]` (init() at ", "and returned at once",
                                     "wait for parity 0 at "},
                                    [](const Outcome& o) {
                                      for (const JsonReport& r : o.reports)
                                        if (r.kind != "deadlock") {
                                          EXPECT_THAT(r.fix, HasSubstr("wait for parity 0 at ")) << r.headline;
                                          EXPECT_THAT(r.fix, Not(HasSubstr("__syncthreads()"))) << r.headline;
                                        }
                                    }));
    c.more_kinds = {"race", "deadlock"};
    cases.push_back(c);
  }
  cases.push_back(clean("AsyncWaitForTheParityOfThisUse", "async_parity_of_the_last_use", true));
  cases.push_back(bug("AsyncBulkStoreIssuedByEveryLane", "async_store_by_every_lane", "race",
                      fix_names("issue the copy from one lane", "put __syncwarp()")));
  cases.push_back(clean("AsyncBulkStoreIssuedByOneLane", "async_store_by_every_lane", true));
  cases.push_back(bug("AsyncBulkStoreReleasedBeforeItsRead", "async_store_released_early", "race",
                      stderr_says({"arrival on `released[s]` (init() at "},
                                  fix_names("cp_async_bulk_wait_group_read", "__syncthreads()"))));
  cases.push_back(clean("AsyncBulkStoreReleasedAfterItsRead", "async_store_released_early", true));
  // A __syncthreads() in one role's code: its own finding, naming the warps there and elsewhere,
  // before the deadlock it causes.
  {
    PlantedCase c = bug("BarrierReachedByOneRoleOnly", "barrier_in_one_role", "barrier-divergence",
                        stderr_says({"is reached by only some warps of block", "warp 1 waits at ",
                                     "warp 0 waits at "},
                                    [](const Outcome& o) {
                                      for (const JsonReport& r : o.reports)
                                        if (r.kind == "barrier-divergence") {
                                          EXPECT_THAT(r.fix, HasSubstr("__syncwarp()"));
                                          EXPECT_THAT(r.fix, Not(HasSubstr("keep barriers out of branches")));
                                        }
                                    }));
    c.more_kinds = {"deadlock"};
    cases.push_back(c);
  }
  cases.push_back(clean("BarrierOfTheWarpsOwnLanes", "barrier_in_one_role", true));
  cases.push_back(bug("ShuffleCalledByHalfItsMask", "shfl_in_branch", "warp-mask",
                      stderr_says({"call it outside the condition, with every lane of the mask"},
                                  fix_names("outside the condition", "__activemask()"))));
  cases.push_back(clean("ShuffleCalledByEveryLaneOfItsMask", "shfl_in_branch", true));
  // Lanes past the end return before a shuffle of the whole warp, and one lane makes the call: the
  // report names it as "lane 0" and the lanes that exited as one range, whichever came first.
  cases.push_back(bug("ShuffleAfterAnEarlyReturn", "shfl_after_early_return", "warp-mask",
                      stderr_says({"lanes 1-31"}, [](const Outcome& o) {
                        EXPECT_THAT(o.process.err, Not(HasSubstr("lanes 0 ")));
                        for (const JsonReport& r : o.reports) EXPECT_THAT(r.fix, HasSubstr("outside the condition"));
                      })));
  cases.push_back(clean("ShuffleAfterNoEarlyReturn", "shfl_after_early_return", true));
  // The lanes the call left out wait at a barrier instead of exiting: the same misuse, not a
  // deadlock of barriers and warp intrinsics with no word of the mask.
  cases.push_back(bug("ShuffleInsideAConditionBeforeABarrier", "shfl_in_branch_before_barrier", "warp-mask",
                      stderr_says({"lanes 2-31 of its mask 0xffffffff wait at a barrier instead of making the call",
                                   "call it outside the condition, with every lane of the mask"},
                                  fix_names("outside the condition", "__activemask()"))));
  cases.push_back(clean("ShuffleOutsideTheConditionBeforeABarrier", "shfl_in_branch_before_barrier", true));
  cases.push_back(bug("AsyncWaitForThePhaseOfTheWrongParity", "async_wrong_parity", "deadlock",
                      stderr_says({"polls it for parity 1, but it has seen 0 of its phases complete",
                                   "so the phase it needs is phase 0 (parity 0)"})));
  cases.push_back(clean("AsyncWaitForThePhaseOfItsParity", "async_wrong_parity", true));
  // A phase that some of the threads init() counts arrived on and the others never will: named
  // first, with who came and from which line; the waits for this thread's own next phase are not
  // taken for the wrong parity.
  cases.push_back(bug("AsyncReleaseArrivedByOneLaneOnly", "async_arrival_by_one_lane", "deadlock",
                      stderr_says({"has 1 of its 32 expected arrivals (1 thread arrived: (32,0,0), at ",
                                   "async_arrival_by_one_lane.cu:45)",
                                   "the other 31 arrivals that init() counts never came in this phase"},
                                  [](const Outcome& o) {
                                    EXPECT_THAT(o.process.err, Not(HasSubstr("polls it for parity")));
                                  })));
  cases.push_back(clean("AsyncReleaseArrivedByEveryLane", "async_arrival_by_one_lane", true));
  // The deadlock names the barrier whose bytes never balance, with its arrivals and bytes.
  cases.push_back(bug("AsyncTransactionCountNeverCompletes", "async_wrong_transaction_count", "deadlock",
                      stderr_says({"2 blocks ((1,0,0), (0,0,0)) wait on `loaded` (init() at ",
                                   "has 1 of its 1 expected arrivals, and 512 transaction bytes arrived of the 128 expected",
                                   "2 blocks ((1,0,0), (0,0,0)) wait on `released` (init() at "})));
  cases.push_back(clean("AsyncTransactionCountOfTheCopiedBytes", "async_wrong_transaction_count", true));
  cases.push_back(bug("AsyncBulkStoreSourceRewrittenBeforeItsRead", "async_store_source_reused", "race",
                      [](const Outcome& o) {
                        for (const JsonReport& r : o.reports) {
                          expect_two_threads_of_one_block(r);
                          if (r.parties.size() == 2) EXPECT_EQ(r.parties[0].role, "bulk copy");
                        }
                      }));
  cases.push_back(clean("AsyncBulkStoreSourceRewrittenAfterItsRead", "async_store_source_reused", true));
  cases.push_back(bug("AsyncBulkStoreWithoutProxyFence", "async_store_without_proxy_fence", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      expect_two_threads_of_one_block(r);
      if (r.parties.size() == 2) EXPECT_EQ(r.parties[1].role, "bulk copy");
    }
  }));
  cases.push_back(clean("AsyncBulkStoreAfterProxyFence", "async_store_without_proxy_fence", true));
  cases.push_back(bug("AsyncBulkStoreNeverWaitedFor", "async_store_never_waited", "api-misuse",
                      stderr_says({"a bulk copy from shared memory still in flight when its thread exited"})));
  cases.push_back(clean("AsyncBulkStoreWaitedForBeforeExit", "async_store_never_waited", true));
  cases.push_back(bug("AsyncBarrierInitializedByOneBlockOnly", "async_barrier_per_block", "api-misuse",
                      stderr_says({"a barrier object used before init() in this block"})));
  cases.push_back(clean("AsyncBarrierInitializedByEveryBlock", "async_barrier_per_block", true));
  cases.push_back(bug("AsyncMemcpyReadBeforeItsPhaseCompletes", "async_memcpy_read_early", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) expect_two_threads_of_one_block(r);
  }));
  cases.push_back(clean("AsyncMemcpyReadAfterItsPhaseCompletes", "async_memcpy_read_early", true));
  // sm_80's asynchronous copies (cp.async) in groups of one thread: a copy lands when a wait of
  // its thread covers its group. The report names the copy's line and the access's.
  const auto copy_then_access = [](const char* role) {
    return [role](const Outcome& o) {
      for (const JsonReport& r : o.reports) {
        expect_two_threads_of_one_block(r);
        if (r.parties.size() == 2) {
          EXPECT_EQ(r.parties[0].role, "cp.async copy") << r.headline;
          if (role) EXPECT_EQ(r.parties[1].role, role) << r.headline;
        }
      }
    };
  };
  cases.push_back(bug("PipelineReadBeforeTheWait", "pipeline_read_before_wait", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      ASSERT_EQ(r.parties.size(), 2u);
      EXPECT_EQ(r.parties[0].role, "cp.async copy");
      EXPECT_EQ(r.parties[1].role, "read");
      EXPECT_EQ(*r.parties[0].thread, *r.parties[1].thread) << "the issuing thread reads its own copy early";
      EXPECT_THAT(r.headline, HasSubstr("before the wait that covers the copy"));
    }
  }));
  cases.push_back(clean("PipelineReadAfterTheWait", "pipeline_read_before_wait", true));
  cases.push_back(bug("PipelineWaitPriorLeavesTheTileInFlight", "pipeline_wait_prior_count", "race",
                      copy_then_access(nullptr)));
  cases.push_back(clean("PipelineWaitPriorOfTheRightCount", "pipeline_wait_prior_count", true));
  // Whether the neighbour reads before or after the copy landed is the schedule's choice: the
  // copy is named as the landing's write, or as the copy that the read came too early for.
  cases.push_back(bug("PipelineStagedDataReadWithoutABarrier", "pipeline_staged_without_barrier", "race",
                      [](const Outcome& o) {
                        for (const JsonReport& r : o.reports) {
                          expect_two_threads_of_one_block(r);
                          std::set<std::string> roles;
                          for (const ReportParty& p : r.parties) roles.insert(p.role);
                          EXPECT_TRUE(roles.count("read")) << r.headline;
                          EXPECT_TRUE(roles.count("write") || roles.count("cp.async copy")) << r.headline;
                        }
                      }));
  cases.push_back(clean("PipelineStagedDataReadAfterABarrier", "pipeline_staged_without_barrier", true));
  cases.push_back(bug("PipelineSourceWrittenWhileInFlight", "pipeline_source_overwritten", "race", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      ASSERT_EQ(r.parties.size(), 2u);
      EXPECT_EQ(r.parties[1].role, "write");
      EXPECT_THAT(r.headline, HasSubstr("the source of an asynchronous copy written while the copy is in flight"));
    }
  }));
  cases.push_back(clean("PipelineSourceWrittenAfterTheWait", "pipeline_source_overwritten", true));
  cases.push_back(bug("PipelineCopyMisaligned", "pipeline_misaligned_copy", "api-misuse",
                      stderr_says({"a misaligned asynchronous copy: __pipeline_memcpy_async of 16 bytes needs both "
                                   "addresses and the size to be multiples of 16 bytes"})));
  cases.push_back(clean("PipelineCopyAligned", "pipeline_misaligned_copy", true));
  cases.push_back(bug("PipelineCopyNeverWaitedFor", "pipeline_never_waited", "api-misuse",
                      stderr_says({"an asynchronous copy (cp.async) still in flight when its thread exited"})));
  cases.push_back(clean("PipelineCopyWaitedForBeforeExit", "pipeline_never_waited", true));
  cases.push_back(bug("PipelineZeroFillSourcePastTheEnd", "pipeline_zero_fill", "out-of-bounds",
                      stderr_says({"a zero-filled asynchronous copy whose source runs past its buffer: 16 bytes named",
                                   "copy 4-byte elements, each with its own zero fill"})));
  cases.push_back(clean("PipelineZeroFillPerElement", "pipeline_zero_fill", true));
  cases.push_back(clean("PipelineDoubleBufferedTiledReduction", "pipeline_tiled_reduction", false));
  cases.push_back(clean("PipelineCooperativeGroupsMemcpyAsyncScan", "cooperative_groups_memcpy_async", false));
  // Pipelines shared by a block (cuda::pipeline_shared_state): a producer warp and consumer warps
  // hand stages over through the pipeline's calls, and a race's fix names the call that orders
  // the stage, never a __syncthreads() that only some warps reach.
  const auto race_fix_names = [](std::string call) {
    return [call](const Outcome& o) {
      for (const JsonReport& r : o.reports) {
        if (r.kind != "race") continue;
        expect_two_threads_of_one_block(r);
        EXPECT_THAT(r.fix, HasSubstr(call)) << r.headline;
        EXPECT_THAT(r.fix, Not(HasSubstr("__syncthreads()"))) << r.headline;
      }
    };
  };
  cases.push_back(bug("BlockPipelineReadBeforeTheWait", "block_pipeline_read_before_wait", "race",
                      race_fix_names("consumer_wait()")));
  cases.push_back(clean("BlockPipelineReadAfterTheWait", "block_pipeline_read_before_wait", true));
  cases.push_back(bug("BlockPipelineStageReleasedBeforeItsReads", "block_pipeline_released_early", "race",
                      race_fix_names("consumer_release()")));
  cases.push_back(clean("BlockPipelineStageReleasedAfterItsReads", "block_pipeline_released_early", true));
  // The stage whose round cannot complete is named with the commits it has and lacks.
  cases.push_back(bug("BlockPipelineCommitSkippedOnOnePath", "block_pipeline_commit_skipped", "deadlock",
                      stderr_says({"wait on stage 1 of the pipeline in `state`",
                                   "consumers wait in consumer_wait() for its round 1, which 5 of its 32 producers "
                                   "have committed"})));
  cases.push_back(clean("BlockPipelineCommitOnEveryPath", "block_pipeline_commit_skipped", true));
  // Threads past the end return before their tile's sync, which does not count them as arrived.
  cases.push_back(bug("MultiWarpTileSyncAfterAnEarlyReturn", "tile_sync_after_return", "barrier-divergence",
                      [](const Outcome& o) {
                        for (const JsonReport& r : o.reports) {
                          ASSERT_EQ(r.parties.size(), 1u);
                          EXPECT_EQ(r.parties[0].role, "thread_block_tile::sync");
                          EXPECT_THAT(r.headline, HasSubstr("had exited"));
                        }
                      }));
  cases.push_back(clean("MultiWarpTileSyncWithNoThreadReturned", "tile_sync_after_return", true));
  cases.push_back(bug("FullMaskShuffleInACoalescedBranch", "coalesced_aggregate", "warp-mask"));
  cases.push_back(clean("CoalescedGroupAggregatedAtomic", "coalesced_aggregate", true));
  cases.push_back(clean("CoalescedGroupBesideABarrier", "coalesced_before_barrier", false));
  cases.push_back(bug("ManagedMemoryReadBeforeSynchronizing", "managed_memory", "host-access", [](const Outcome& o) {
    for (const JsonReport& r : o.reports) {
      ASSERT_EQ(r.parties.size(), 2u);
      EXPECT_EQ(r.parties[0].role, "read");
      EXPECT_EQ(r.parties[1].role, "launch");
    }
  }));
  PlantedCase managed = clean("ManagedMemoryAfterSynchronizing", "managed_memory", true);
  managed.stdout_contains = "sum of squares 28500, __managed__ total 28500, expected 28500";
  cases.push_back(managed);
  cases.push_back(bug("SymbolCopyPastTheConstantArray", "sample_style", "api-misuse"));
  PlantedCase sample = clean("SampleStyleQueriesConstantsPinnedStreams", "sample_style", true);
  sample.stdout_contains = "0 of 300 pixels wrong";
  cases.push_back(sample);
  PlantedCase thrust = clean("ThrustDeviceVectorScanSortReduce", "thrust_scan", false);
  thrust.stdout_contains = "total of the shifted exclusive scan: 17056503 (expected 17056503)";
  cases.push_back(thrust);
  // A run stopped by a time limit prints what its kernel had found, though the kernel never
  // ended (its findings would otherwise wait for the end of the phase).
  PlantedCase stopped = bug("RaceThenEndlessLoopStoppedByTimeLimit", "race_then_loop", "race",
                            stderr_says({"scanlab-sim: stopped by SIGALRM while a kernel ran; what it had found"}));
  PlantedCase stopped_clean = clean("EndlessLoopStoppedByTimeLimit", "race_then_loop", true);
  // The same for a read of shared memory nothing wrote, which waits for the launch's end to be
  // judged: printed, and said to be unjudged.
  PlantedCase garbage_stopped = bug("GarbageReadThenEndlessLoopStoppedByTimeLimit", "garbage_then_loop",
                                    "uninitialized-read",
                                    stderr_says({"of shared memory that nothing wrote", "shared variable 'partial'",
                                                 "not judged: the program was stopped before the launch ended"}));
  PlantedCase garbage_stopped_clean = clean("EndlessLoopAfterFullTileStoppedByTimeLimit", "garbage_then_loop", true);
  // Stopped in a later launch, after the race was printed at the first one's end: the notice
  // says there is nothing beyond it, not that nothing was found.
  PlantedCase stopped_later = bug("RacePrintedThenEndlessSecondLaunchStoppedByTimeLimit", "race_then_loop", "race",
                                  stderr_says({"scanlab-sim: stopped by SIGALRM while a kernel ran; it had found "
                                               "nothing beyond the findings above"}));
  stopped_later.args = {"second-launch"};
  PlantedCase stopped_later_clean = clean("EndlessSecondLaunchStoppedByTimeLimit", "race_then_loop", true);
  stopped_later_clean.args = {"second-launch"};
  for (PlantedCase* c : {&stopped, &stopped_clean, &garbage_stopped, &garbage_stopped_clean, &stopped_later,
                         &stopped_later_clean}) {
    c->signal = SIGALRM;
    c->time_limit_s = 3;
    cases.push_back(*c);
  }
  // Stopped in host code after printing to a pipe: what it printed comes out (C stdio and
  // std::cout), and the stop notice is whole.
  PlantedCase stopped_in_host_code = clean("OutputFlushedWhenStoppedInHostCode", "output_then_host_loop", false);
  stopped_in_host_code.signal = SIGALRM;
  stopped_in_host_code.time_limit_s = 3;
  stopped_in_host_code.stdout_contains = "printed with printf before the stop: sum 496\n"
                                         "printed with std::cout before the stop\n"
                                         "and a line std::cout had not flushed\n";
  stopped_in_host_code.stop_notice = "scanlab-sim: stopped by SIGALRM in host code, while no kernel ran; its kernels' "
                                     "findings were printed as each ended\n";
  cases.push_back(stopped_in_host_code);
  cases.push_back(bug("ThrustOverCudaMallocMemoryPastTheEndAndUnwritten", "thrust_device_pointers", "out-of-bounds"));
  cases.back().more_kinds = {"uninitialized-read"};
  PlantedCase thrust_pointers = clean("ThrustOverCudaMallocMemoryDeviceCudaParAllocatorStream", "thrust_device_pointers", true);
  thrust_pointers.stdout_contains = "total 16798494330 (expected 16798494330), last exclusive 49912 (expected 49912), "
                                    "sorted right with counted temporary allocations";
  cases.push_back(thrust_pointers);
  cases.push_back(bug("CopyDirectionAgainstItsPointersAtTheProgramsLine", "memcpy_direction", "api-misuse"));
  cases.push_back(clean("CopyDeviceToDevice", "memcpy_direction", true));
  // Ten identical launches: the first runs; the second finds the output the first wrote, runs
  // and is kept; eight are replayed.
  // New data, a kernel that changes its own input, a __device__ variable and a printf each
  // make a launch run again.
  PlantedCase repeated = clean("RepeatedLaunchesReplayedWithTheirEffects", "repeated_launches", false);
  repeated.stdout_contains = "hello from the kernel\nhello from the kernel\nhello from the kernel\nevery launch had its effect";
  repeated.stderr_note = "scanlab-sim: note: 8 kernel launches repeated an earlier one exactly";
  cases.push_back(repeated);
  // A kernel with a race, launched ten times: reported once, and replayed from the third launch.
  cases.push_back(bug("RepeatedRacingLaunchesReportedOnceThenReplayed", "repeated_racing_launches", "race",
                      stderr_says({"scanlab-sim: note: 8 kernel launches repeated an earlier one exactly"})));
  PlantedCase repeated_fixed = clean("RepeatedLaunchesOfTheFixedKernelReplayed", "repeated_racing_launches", true);
  repeated_fixed.stderr_note = "scanlab-sim: note: 8 kernel launches repeated an earlier one exactly";
  cases.push_back(repeated_fixed);
  repeated.name = "RepeatedLaunchesAllRunWithReplayOff";
  repeated.stderr_note.clear();
  cases.push_back(with_env(repeated, {{"SCANLAB_SIM_REPLAY", "off"}}));
  cases.push_back(with_env(clean("SharedAfterBarrier", "shared_after_barrier", false),
                           {{"SCANLAB_SIM_BLOCK_ORDER", "random"}, {"SCANLAB_SIM_RESIDENT_BLOCKS", "2"}}));
  // A status word polled through a plain pointer: the compiler hoists the load and the loop
  // touches no memory. The watchdog reports it at the loop within seconds (the time limit says
  // so; the watchdog needs about two), names volatile and an atomic, and the launch returns an
  // error to the program, which goes on. On one worker and on several.
  for (const char* threads : {"1", "2"}) {
    PlantedCase hoisted = with_env(
        bug(std::string("HoistedPollReportedAtTheLoop_") + threads + "Threads", "hoisted_poll", "deadlock",
            stderr_says({"spins on a value it read only once", "volatile", "cuda::atomic_ref", "atomicAdd(&flag, 0)",
                         "the launch timed out and was terminated"},
                        [](const Outcome& o) {
                          ASSERT_EQ(o.reports.size(), 1u);
                          EXPECT_EQ(o.reports[0].parties[0].role, "spinning");
                          EXPECT_THAT(o.reports[0].fix, HasSubstr("volatile"));
                        })),
        {{"SCANLAB_SIM_THREADS", threads}});
    hoisted.time_limit_s = 20;
    cases.push_back(hoisted);
  }
  cases.push_back(clean("PolledThroughVolatile", "hoisted_poll", true));
  // A hoisted spin in a function whose plain reads of the status words also race with the
  // publisher's volatile stores: the race is the spin's mistake (plain reads where volatile or
  // atomic ones are needed), so the spin's finding is the only one.
  for (const char* threads : {"1", "2"}) {
    PlantedCase published = with_env(
        bug(std::string("HoistedPollOfAPublishedFlagIsOneFinding_") + threads + "Threads", "hoisted_poll_published",
            "deadlock",
            stderr_says({"spins on a value it read only once", "volatile"},
                        [](const Outcome& o) {
                          ASSERT_EQ(o.reports.size(), 1u) << "the spin and the race of its hoisted load are one finding";
                          EXPECT_EQ(o.reports[0].kind, "deadlock");
                          EXPECT_EQ(o.reports[0].parties[0].role, "spinning");
                        })),
        {{"SCANLAB_SIM_THREADS", threads}});
    published.time_limit_s = 20;
    cases.push_back(published);
  }
  cases.push_back(clean("PublishedFlagPolledThroughVolatile", "hoisted_poll_published", true));
  // Status words polled through a plain pointer: one finding, the poll's, at its line; the race
  // of the same loads with the publisher's stores is that finding, not a second one.
  for (const char* threads : {"1", "2"}) {
    cases.push_back(with_env(
        bug(std::string("StatusWordsPolledThroughAPlainPointer_") + threads + "Threads", "plain_poll_status_words",
            "race",
            stderr_says({"a loop polls a word through a plain load", "volatile", "cuda::atomic_ref"},
                        [](const Outcome& o) {
                          ASSERT_EQ(o.reports.size(), 1u) << "the poll and its race are one finding";
                          ASSERT_EQ(o.reports[0].parties.size(), 1u);
                          EXPECT_EQ(o.reports[0].parties[0].role, "polling read");
                          // Where, as data: the polled buffer and byte, as for any race in global memory.
                          EXPECT_THAT(o.records, HasSubstr("\"memory\":{\"space\":\"global\",\"buffer\":\"a "));
                        })),
        {{"SCANLAB_SIM_THREADS", threads}}));
  }
  // Polled through volatile: a word that carries its state beside its value has nothing stale.
  cases.push_back(clean("StatusWordsPolledThroughVolatile", "plain_poll_status_words", true));
  // Status words stored through a plain pointer and polled through a volatile one: the race is
  // reported, on one OS thread or several, though the program has its own instrumented copies of
  // the std::string operations the report is made of.
  for (const char* threads : {"1", "2"}) {
    PlantedCase stored = with_env(
        bug(std::string("StatusWordsStoredThroughAPlainPointer_") + threads + "Threads", "status_words_stored_plainly",
            "race", stderr_says({"data race", "global memory"})),
        {{"SCANLAB_SIM_THREADS", threads}});
    stored.time_limit_s = 30;
    cases.push_back(stored);
  }
  cases.push_back(clean("StatusWordsStoredThroughVolatile", "status_words_stored_plainly", true));
  // A look-back whose window starts at the block's own tile: the lanes of one warp race on the
  // block's own status word, but the fix is to read earlier tiles only, not a __syncwarp() that
  // would hide the report and keep the block's own aggregate in its sum.
  cases.push_back(bug("LookBackReadsItsOwnStatusWord", "own_status_word", "race",
                      stderr_says({"a block reads a word of global memory that it publishes itself",
                                   "starts at the tile before its own"},
                                  [](const Outcome& o) {
                                    for (const JsonReport& r : o.reports) {
                                      expect_two_threads_of_one_block(r);
                                      EXPECT_THAT(r.fix, HasSubstr("the tile before its own"));
                                      EXPECT_THAT(r.fix, Not(HasSubstr("put __syncwarp()")));
                                      EXPECT_THAT(r.fix, Not(HasSubstr("put __syncthreads()")));
                                    }
                                  })));
  cases.push_back(clean("LookBackStartsAtTheTileBefore", "own_status_word", true));
  // A block that takes tile after tile reads, in its look-back, the status word of a tile it
  // finished before, which its lane 0 stored with nothing ordering the warp's other lanes after
  // the store: that word is right to read, so the fix is the warp's sync, not an earlier window.
  cases.push_back(bug("LookBackReadsTheBlocksEarlierTileUnordered", "earlier_tile_status_word", "race",
                      stderr_says({"a tile this block finished before", "put __syncwarp()"},
                                  [](const Outcome& o) {
                                    for (const JsonReport& r : o.reports) {
                                      expect_two_threads_of_one_block(r);
                                      EXPECT_THAT(r.fix, HasSubstr("__syncwarp()"));
                                      EXPECT_THAT(r.fix, Not(HasSubstr("the tile before its own")));
                                      EXPECT_THAT(r.headline, Not(HasSubstr("publishes itself")));
                                    }
                                  })));
  cases.push_back(clean("LookBackSyncsTheWarpAfterEachTile", "earlier_tile_status_word", true));
  // Blocks that take tile after tile with no fence around the ticket: every word read after it is
  // a status word that carries its own state, which the look-back waits on, so the ticket hands
  // nothing on and the correct program runs clean (no hand-off through the ticket is reported).
  cases.push_back(clean("LookBackTakesTicketsWithoutFences", "lookback_tickets_unfenced", false));
  // The block's last barrier is in a function of an included file: the report says it is there.
  cases.push_back(bug("LastBarrierInAnIncludedFunction", "barrier_in_header", "race",
                      stderr_says({"barrier_in_header.cuh:12", "in code that barrier_in_header.cu includes"},
                                  neighbouring_threads)));
  cases.push_back(clean("BarrierAfterTheIncludedFunction", "barrier_in_header", true));
  // The other way round: the race is in the included header and the block's last barrier in the
  // file that includes it (and launches the kernel). The report says so, not that the header
  // includes the barrier's file.
  cases.push_back(bug("RaceInAnIncludedFunctionAfterTheCallersBarrier", "race_in_header", "race",
                      stderr_says({"race_in_header.cu:14", "in the file that includes race_in_header.cuh"},
                                  [](const Outcome& o) {
                                    EXPECT_THAT(o.process.err, Not(HasSubstr("in code that race_in_header.cuh includes")));
                                    neighbouring_threads(o);
                                  })));
  cases.push_back(clean("BarrierInTheIncludedFunction", "race_in_header", true));
  return cases;
}

// The races and the fixed twins again under other seeds: the thread order changes, the
// findings must not.
std::vector<PlantedCase> reseeded(const std::vector<PlantedCase>& cases, const std::vector<std::string>& seeds) {
  std::vector<PlantedCase> out;
  for (const PlantedCase& c : cases) {
    if (c.kind != "race" && !(c.kind.empty() && c.fixed)) continue;
    for (const std::string& seed : seeds) {
      PlantedCase s = c;
      s.name += "_Seed" + seed;
      s.env["SCANLAB_SIM_SEED"] = seed;
      out.push_back(s);
    }
  }
  return out;
}

class PlantedProgram : public ::testing::TestWithParam<PlantedCase> {};

TEST_P(PlantedProgram, ReportsExactlyWhatWasPlanted) {
  const PlantedCase& c = GetParam();
  const std::string source = std::string(PLANTED_SOURCE_DIR) + "/" + c.program + ".cu";
  const std::string program = std::string(PLANTED_PROGRAM_DIR) + "/" + c.program + (c.fixed ? ".fixed" : "");
  TempDir dir;
  std::map<std::string, std::string> env = c.env;
  env["SCANLAB_SIM_REPORT_JSON"] = dir.path() + "/reports.jsonl";
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), c.args.begin(), c.args.end());

  Outcome o;
  o.process = run_process(argv, env, c.time_limit_s);
  o.records = read_file(env["SCANLAB_SIM_REPORT_JSON"]);
  o.reports = parse_reports(o.records);
  o.markers = expected_lines(source);
  const std::string header = std::string(PLANTED_SOURCE_DIR) + "/" + c.program + ".cuh";
  if (!read_file(header).empty()) o.header_markers = expected_lines(header);
  SCOPED_TRACE("stderr of " + base_name(program) + ":\n" + o.process.err);

  ASSERT_EQ(o.process.signal, c.signal) << "the program was killed by signal " << o.process.signal;
  if (c.signal == 0) {
    EXPECT_EQ(o.process.exit_status, c.exit_status);
  }
  if (!c.stdout_contains.empty()) {
    EXPECT_THAT(o.process.out, HasSubstr(c.stdout_contains));
  }
  if (c.kind.empty()) {
    EXPECT_TRUE(o.reports.empty()) << o.reports.size() << " reports, the first: " << o.reports.front().headline;
    if (c.signal == SIGALRM) {  // stopped by its time limit: it says so, and nothing more
      EXPECT_THAT(o.process.err, HasSubstr(c.stop_notice));
      EXPECT_THAT(o.process.err, Not(HasSubstr("scanlab-sim: error")));
      EXPECT_THAT(o.process.err, Not(HasSubstr("scanlab-sim: warning")));
    } else if (!c.stderr_note.empty()) {
      const std::size_t at = o.process.err.find(c.stderr_note);
      ASSERT_NE(at, std::string::npos) << "the note: " << c.stderr_note;
      std::string rest = o.process.err;
      rest.erase(at, c.stderr_note.size());
      EXPECT_THAT(rest, Not(HasSubstr("scanlab-sim:")));
    } else {
      EXPECT_THAT(o.process.err, Not(HasSubstr("scanlab-sim:")));
    }
    return;
  }
  std::vector<std::string> kinds{c.kind};
  kinds.insert(kinds.end(), c.more_kinds.begin(), c.more_kinds.end());
  for (const std::string& kind : kinds) {
    SCOPED_TRACE("reports of kind " + kind);
    ASSERT_TRUE(o.markers.count(kind) || o.header_markers.count(kind))
        << source << " marks no line with // expect: " << kind;
    // Kernels in the program's own header are reported at the header's lines.
    std::set<unsigned> named, named_in_header;
    std::size_t count = 0;
    for (const JsonReport& r : o.reports) {
      if (r.kind != kind) continue;
      count += 1;
      EXPECT_EQ(r.error, c.error) << r.headline;
      for (const ReportParty& p : r.parties) {
        if (flag_step(p)) continue;  // the markers name the data's lines (ReportRecord checks the flag's)
        const bool in_header = base_name(p.file) == c.program + ".cuh";
        if (!in_header) EXPECT_EQ(base_name(p.file), c.program + ".cu") << p.role << " in " << r.headline;
        (in_header ? named_in_header : named).insert(p.line);
      }
    }
    ASSERT_GT(count, 0u) << "expected a " << kind << " report";
    if (stops_the_kernel(kind)) {
      EXPECT_EQ(count, 1u) << "the kernel stops at its first " << kind;
    }
    EXPECT_EQ(named, o.markers[kind]) << "lines named by the reports vs lines marked // expect: " << kind;
    EXPECT_EQ(named_in_header, o.header_markers[kind])
        << "lines of " << c.program << ".cuh named by the reports vs lines marked // expect: " << kind;
  }
  for (const JsonReport& r : o.reports) {
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), r.kind), kinds.end()) << "an unexpected report: " << r.headline;
  }
  if (c.check) c.check(o);
}

std::string case_name(const ::testing::TestParamInfo<PlantedCase>& p) { return p.param.name; }

// Blocks run side by side on as many OS threads as SCANLAB_SIM_THREADS allows; a program and
// seed must give the same reports, in the same order, and the same output on one core as on many.
class PlantedAcrossCores : public ::testing::TestWithParam<PlantedCase> {};

TEST_P(PlantedAcrossCores, SameReportsOnOneCoreAsOnSeveral) {
  const PlantedCase& c = GetParam();
  const std::string program = std::string(PLANTED_PROGRAM_DIR) + "/" + c.program + (c.fixed ? ".fixed" : "");
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), c.args.begin(), c.args.end());
  std::map<std::string, std::string> env = c.env;
  env["SCANLAB_SIM_THREADS"] = "1";
  const ProcessResult one = run_process(argv, env, c.time_limit_s);
  for (const char* threads : {"3", "8"}) {
    SCOPED_TRACE(std::string("SCANLAB_SIM_THREADS=") + threads);
    env["SCANLAB_SIM_THREADS"] = threads;
    const ProcessResult several = run_process(argv, env, c.time_limit_s);
    EXPECT_EQ(several.signal, one.signal);
    EXPECT_EQ(several.exit_status, one.exit_status);
    EXPECT_EQ(several.err, one.err);
    EXPECT_EQ(several.out, one.out);
  }
  if (!c.kind.empty()) {
    EXPECT_THAT(one.err, HasSubstr("scanlab-sim: ")) << "a planted bug that no run reports cannot show the reports agree";
  }
}

INSTANTIATE_TEST_SUITE_P(Planted, PlantedProgram, ::testing::ValuesIn(planted_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(PlantedReseeded, PlantedProgram, ::testing::ValuesIn(reseeded(planted_cases(), {"2", "3"})),
                         case_name);
// A cooperative launch runs every block at once, and the race of a grid.sync() left out is not
// yet reported in the same order on several OS threads as on one: that case waits for the fix,
// the others must agree.
std::vector<PlantedCase> across_cores_cases() {
  std::vector<PlantedCase> cases = planted_cases();
  cases.erase(std::remove_if(cases.begin(), cases.end(), [](const PlantedCase& c) { return c.name == "GridSyncLeftOut"; }),
              cases.end());
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Planted, PlantedAcrossCores, ::testing::ValuesIn(across_cores_cases()), case_name);

// A race's picture (SCANLAB_SIM_RACE_PICTURE), asked for as a grader asks: from the race's own
// record ("memory"), in a second run of the same program. The picture's racing pair is the
// report's two parties, and the fixed twin, asked the same, draws nothing.
std::string picture_request(const ReportMemory& m) {
  return "shared:" + std::to_string(m.byte) + ":" + std::to_string(m.block[0]) + "," + std::to_string(m.block[1]) +
         "," + std::to_string(m.block[2]) + ":" + m.variable;
}

std::vector<JsonReport> reports_of_run(const std::string& program, const std::map<std::string, std::string>& extra) {
  TempDir dir;
  std::map<std::string, std::string> env = extra;
  env["SCANLAB_SIM_REPORT_JSON"] = dir.path() + "/reports.jsonl";
  const ProcessResult result = run_process({program, "256"}, env, 120);
  EXPECT_EQ(result.signal, 0) << result.err;
  return parse_reports(read_file(env["SCANLAB_SIM_REPORT_JSON"]));
}

TEST(RacePicture, KoggeStoneRaceDrawnFromItsOwnRecord) {
  const std::string program = std::string(PLANTED_PROGRAM_DIR) + "/kogge_stone_inplace";
  const std::vector<JsonReport> first = reports_of_run(program, {});
  ASSERT_FALSE(first.empty());
  ASSERT_TRUE(first.front().memory.has_value()) << "a race in shared memory says where it happened";
  EXPECT_EQ(first.front().memory->space, "shared");
  EXPECT_FALSE(first.front().picture.has_value()) << "nothing is recorded unless asked for";
  const std::string request = picture_request(*first.front().memory);

  const std::vector<JsonReport> again = reports_of_run(program, {{"SCANLAB_SIM_RACE_PICTURE", request}});
  const auto drawn = std::find_if(again.begin(), again.end(), [](const JsonReport& r) { return r.picture.has_value(); });
  ASSERT_NE(drawn, again.end()) << "no picture for " << request;
  const ReportPicture& picture = *drawn->picture;
  EXPECT_LE(picture.cells, 32);
  EXPECT_FALSE(picture.intervals.empty());
  EXPECT_GT(picture.accesses.size(), 2u) << "the accesses around the race, not only the racing pair";
  ASSERT_EQ(drawn->parties.size(), 2u);
  std::set<std::pair<unsigned, unsigned>> pair_in_report, pair_in_picture;  // (thread, line)
  for (const ReportParty& p : drawn->parties) {
    ASSERT_TRUE(p.thread.has_value());
    pair_in_report.insert({(*p.thread)[0], p.line});  // one-dimensional blocks: x is the linear index
  }
  for (const PictureAccess& a : picture.racing) {
    pair_in_picture.insert({a.thread, a.line});
    EXPECT_GE(a.cell, picture.first_cell);
    EXPECT_LT(a.cell, picture.first_cell + picture.cells);
  }
  EXPECT_EQ(pair_in_picture, pair_in_report);

  const std::vector<JsonReport> fixed = reports_of_run(program + ".fixed", {{"SCANLAB_SIM_RACE_PICTURE", request}});
  EXPECT_TRUE(fixed.empty()) << fixed.size() << " reports from the fixed twin";
}

// A finding in global memory says where it happened as data too ("memory"): the buffer, named as
// its location names it, and the byte of it.
std::vector<JsonReport> reports_of(const std::string& program, const std::vector<std::string>& args) {
  TempDir dir;
  std::map<std::string, std::string> env{{"SCANLAB_SIM_REPORT_JSON", dir.path() + "/reports.jsonl"}};
  std::vector<std::string> argv{std::string(PLANTED_PROGRAM_DIR) + "/" + program};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult result = run_process(argv, env, 120);
  EXPECT_EQ(result.signal, 0) << result.err;
  return parse_reports(read_file(env["SCANLAB_SIM_REPORT_JSON"]));
}

TEST(ReportRecord, StaleHandoffInGlobalMemoryNamesItsBufferAndByte) {
  // chained_volatile_scan.cu: the tiles' prefixes, 16 ints, handed on with no fence.
  const std::vector<JsonReport> reports = reports_of("chained_volatile_scan", {"load"});
  ASSERT_FALSE(reports.empty());
  for (const JsonReport& r : reports) {
    SCOPED_TRACE(r.headline + " at " + r.location);
    ASSERT_TRUE(r.memory.has_value());
    EXPECT_EQ(r.memory->space, "global");
    EXPECT_THAT(r.memory->buffer, ::testing::StartsWith("a 64-byte buffer allocated at "));
    EXPECT_EQ(r.memory->byte % sizeof(int), 0u);
    EXPECT_EQ(r.location, "byte " + std::to_string(r.memory->byte) + " of " + r.memory->buffer);
  }
}

// The line of a planted program that holds `text` (its first), or 0.
unsigned line_holding(const std::string& program, const std::string& text) {
  const std::string source = read_file(std::string(PLANTED_SOURCE_DIR) + "/" + program + ".cu");
  const std::size_t at = source.find(text);
  return at == std::string::npos ? 0 : 1 + static_cast<unsigned>(std::count(source.begin(), source.begin() + at, '\n'));
}

struct HandoffRecordCase {
  std::string program;
  std::vector<std::string> args;
  std::string flag_store;  // the text of the line that stores the flag, and of the one that reads it
  std::string flag_read;
  std::string missing;
};

void PrintTo(const HandoffRecordCase& c, std::ostream* os) {
  *os << c.program << (c.args.empty() ? "" : " " + c.args[0]);
}

class HandoffRecord : public ::testing::TestWithParam<HandoffRecordCase> {};

// A hand-off between blocks names, as data, the flag's store (block 0, thread 0) and read
// (block 1, thread 0) at their lines, after the data's two accesses, and the side that lacks its
// ordering: a grader draws all four steps and the missing fence from the record alone.
TEST_P(HandoffRecord, NamesTheFlagStepsAndTheMissingSide) {
  const HandoffRecordCase& c = GetParam();
  const unsigned store_line = line_holding(c.program, c.flag_store), read_line = line_holding(c.program, c.flag_read);
  ASSERT_NE(store_line, 0u) << c.flag_store;
  ASSERT_NE(read_line, 0u) << c.flag_read;
  const std::vector<JsonReport> reports = reports_of(c.program, c.args);
  ASSERT_EQ(reports.size(), 1u);
  const JsonReport& r = reports[0];
  EXPECT_EQ(r.handoff_missing, c.missing);
  ASSERT_EQ(r.parties.size(), 4u) << r.headline;
  EXPECT_FALSE(flag_step(r.parties[0]) || flag_step(r.parties[1]));
  const ReportParty &store = r.parties[2], &read = r.parties[3];
  EXPECT_EQ(store.role, "flag store");
  EXPECT_EQ(read.role, "flag read");
  EXPECT_EQ(base_name(store.file), c.program + ".cu");
  EXPECT_EQ(store.line, store_line);
  EXPECT_EQ(read.line, read_line);
  ASSERT_TRUE(store.block && store.thread && read.block && read.thread);
  EXPECT_EQ(*store.block, (std::array<unsigned, 3>{0, 0, 0}));
  EXPECT_EQ(*read.block, (std::array<unsigned, 3>{1, 0, 0}));
  EXPECT_EQ((*store.thread)[0], 0u);
  EXPECT_EQ((*read.thread)[0], 0u);
}

INSTANTIATE_TEST_SUITE_P(
    ReportRecord, HandoffRecord,
    ::testing::Values(HandoffRecordCase{"flag_handoff", {}, "atomicExch(flag, 1);", "while (atomicAdd(flag, 0) == 0)", "release"},
                      HandoffRecordCase{"handoff_reader_fence", {}, "atomicExch(flag, 1u);", "while (*seen == 0)", "acquire"},
                      HandoffRecordCase{"handoff_volatile_data", {"writer"}, "*static_cast<volatile unsigned*>(flag) = 1;",
                                        "while (*seen == 0)", "release"},
                      HandoffRecordCase{"handoff_volatile_data", {"reader"}, "*static_cast<volatile unsigned*>(flag) = 1;",
                                        "while (*seen == 0)", "acquire"}),
    [](const ::testing::TestParamInfo<HandoffRecordCase>& info) {
      return info.param.program + (info.param.args.empty() ? "" : "_" + info.param.args[0]);
    });

TEST(ReportRecord, ReadOfUnwrittenGlobalMemoryNamesItsBuffer) {
  // accumulator_not_zeroed.cu: the one int that every block adds to, never set.
  const std::vector<JsonReport> reports = reports_of("accumulator_not_zeroed", {});
  ASSERT_EQ(reports.size(), 1u);
  ASSERT_TRUE(reports[0].memory.has_value());
  EXPECT_EQ(reports[0].memory->space, "global");
  EXPECT_THAT(reports[0].memory->buffer, ::testing::StartsWith("a 4-byte buffer allocated at "));
  EXPECT_EQ(reports[0].memory->byte, 0u);
}

// simcc must refuse what it cannot build the way nvcc does: with the student's file and line.
struct CompileErrorCase {
  std::string source;   // compile_errors/<source>
  std::string message;  // a part of the message that says what is wrong
  bool alone = false;   // the build's only error: every error line says it, none comes from the program's later uses
};

void PrintTo(const CompileErrorCase& c, std::ostream* os) { *os << c.source; }

class SimccCompileError : public ::testing::TestWithParam<CompileErrorCase> {};

TEST_P(SimccCompileError, NamesTheStudentsFileAndLine) {
  const CompileErrorCase& c = GetParam();
  const std::string source = std::string(COMPILE_ERRORS_DIR) + "/" + c.source;
  const std::set<unsigned> lines = expected_lines(source)["compile-error"];
  ASSERT_EQ(lines.size(), 1u) << source << " must mark one line with // expect: compile-error";
  TempDir dir;
  const ProcessResult result = run_process({SIMCC, "-O1", "-c", source, "-o", dir.path() + "/out.o"}, {}, 120);
  SCOPED_TRACE("stderr of simcc:\n" + result.err);
  EXPECT_NE(result.exit_status, 0);
  // One error line names the student's file and line, and says what is wrong.
  const std::string place = c.source + ":" + std::to_string(*lines.begin()) + ":";
  bool stated_there = false;
  std::istringstream err(result.err);
  for (std::string line; std::getline(err, line);) {
    if (c.alone && line.find("error:") != std::string::npos)  // not "compile_errors/" of a path
      EXPECT_THAT(line, HasSubstr(c.message)) << "an error after the refusal";
    const std::size_t at = line.find(place);
    if (at != std::string::npos && line.find("error", at) != std::string::npos &&
        line.find(c.message) != std::string::npos) {
      stated_there = true;
    }
  }
  EXPECT_TRUE(stated_there) << "no error line at " << place << " that says '" << c.message << "'";
}

std::string source_stem(const ::testing::TestParamInfo<CompileErrorCase>& p) {
  return p.param.source.substr(0, p.param.source.find('.'));
}

INSTANTIATE_TEST_SUITE_P(Simcc, SimccCompileError,
                         ::testing::Values(CompileErrorCase{"inline_asm.cu", "inline PTX (asm)"},
                                           CompileErrorCase{"undeclared_name.cu", "launch_status"},
                                           CompileErrorCase{"legacy_ballot.cu", "use __ballot_sync"},
                                           CompileErrorCase{"cooperative_launch_of_void_pointer.cu", "pass the kernel itself"},
                                           CompileErrorCase{"half_precision.cu", "half-precision arithmetic"},
                                           CompileErrorCase{"thrust_cuda_backend.cu", "Thrust's CUDA back end"},
                                           CompileErrorCase{"multi_warp_tile_shfl_down.cu", "shfl_down exists in CUDA only for tiles of at most 32 threads"},
                                           CompileErrorCase{"multi_warp_tile_ballot.cu", "ballot exists in CUDA only for tiles of at most 32 threads"},
                                           CompileErrorCase{"multi_warp_tile_wide_shuffle.cu", "values of at most 8 bytes in such a tile"},
                                           CompileErrorCase{"tile_size_not_power_of_two.cu", "N must be a power of two from 1 to 1024"},
                                           CompileErrorCase{"async_barrier_device_scope.cu", "cuda::barrier of another scope than thread_scope_block"},
                                           CompileErrorCase{"pipeline_device_scope.cu", "cuda::pipeline_shared_state of another scope", true},
                                           CompileErrorCase{"pipeline_experimental_class.cu", "nvcuda::experimental::pipeline is not supported"}),
                         source_stem);

}  // namespace
}  // namespace scanlab::sim::testing

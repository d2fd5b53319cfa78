// Findings: what the simulator tells a student, on stderr and through diagnostics.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/site.hpp"
#include "findings/bounds_picture.hpp"
#include "findings/picture.hpp"
#include "findings/wait_picture.hpp"
#include "findings/source_location.hpp"
#include "scanlab/sim/cuda.hpp"
#include "scanlab/sim/diagnostics.hpp"

namespace scanlab::sim::detail {

struct Thread;


// One side of a finding: an access, a barrier, a spin-wait.
struct Party {
  std::string role;  // "write", "read", "atomic", "__syncthreads", ...
  SourceLocation where;
  bool in_kernel = false;
  uint3 block{};
  uint3 thread{};
};

// Which threads the fix of a finding orders, narrowest first: where one run of a program finds
// two lanes of one warp racing and another run (a larger block) finds two warps racing at the
// same lines, a reader of both keeps the wider fix.
enum class FixScope { none, warp, block };
const char* to_string(FixScope scope);

// A finding as data: what is printed on stderr, kept for take_reports(), and written as one JSON
// object (json_record) are all made from these fields, so a reader never parses the text.
struct Finding {
  ReportKind kind = ReportKind::unsupported;
  bool is_error = true;
  std::string headline;
  std::vector<Party> parties;
  std::string location;  // the buffer or variable and the byte involved, in the program's terms; may be empty
  std::vector<std::string> details;  // the evidence, in words
  std::string fix;       // what would fix it, when the simulator knows; may be empty
  FixScope fix_scope = FixScope::none;  // what the fix orders, where it is a barrier
  std::optional<MemorySubject> memory;  // a race in shared memory: the variable, byte and block
  std::optional<RacePicture> picture;   // recorded on request only (SCANLAB_SIM_RACE_PICTURE)
  std::optional<WaitPicture> wait_picture;  // a deadlock, or a launch that relied on co-residency: its blocks and what each waits for, always
  std::optional<BoundsPicture> bounds_picture;  // an out-of-bounds access: the buffer's end and the accesses, always
  // A hand-off between blocks without its ordering: the side that lacks it, "release" (the
  // writer's), "acquire" (the reader's) or "both", as data beside the fix's words; empty otherwise.
  std::string handoff_missing;
};

// The finding as one JSON object on one line (the format of $SCANLAB_SIM_REPORT_JSON):
// number (its place among the findings this process printed; 0 for one not printed yet), kind,
// severity, headline, parties (role, file, line, function, and block and thread for a kernel's
// side), location, details, fix, fix_scope (warp or block, where the fix is a barrier), memory
// and picture (a race in shared memory: findings/picture.hpp), wait_picture (a deadlock's blocks:
// findings/wait_picture.hpp), bounds_picture (an out-of-bounds access's buffer and accesses:
// findings/bounds_picture.hpp), handoff ({"missing": "release" | "acquire" | "both"}: a
// hand-off between blocks, the side that lacks its ordering), reproduce (the settings that run
// the same schedule) and seed.
std::string json_record(const Finding& finding, unsigned number);

SourceLocation locate(std::uintptr_t return_address);  // a code address in the program, via addr2line
SourceLocation locate(Site site);
Party host_party(const char* role, SourceLocation where);

// A device-side function (a barrier, a warp intrinsic) that host code called. Out of line and
// cold: the callers are on every thread's path, and a Finding in their frame would spread what a
// suspended thread keeps on its stack over more cache lines.
__attribute__((noinline, cold)) void report_called_from_host(const char* function, Site site);

// Prints the finding, keeps it for take_reports(), appends it to $SCANLAB_SIM_REPORT_JSON.
// While a block runs (pending_findings is set), its findings wait in the block's list instead.
void report(const Finding& finding);
// How many errors and warnings have been printed so far.
unsigned findings_printed();
// While muted, report() drops every finding and first_time() admits no place, so that a launch
// run again only to compare its results (launch/garbage_judgement.hpp) tells nothing and leaves
// every place to be reported later. Set by the launching thread between the runs of a launch.
void mute_findings(bool muted);
bool findings_muted();

// The findings of one block in one phase of a launch. Blocks run side by side; the scheduler
// prints their findings afterwards, block by block in a fixed order, so that the same program
// and seed give the same reports in the same order whatever the number of cores.
using PlaceKey = std::tuple<int, std::uintptr_t, std::uintptr_t>;

// A finding's text, kept where a signal handler can print it: a run stopped by a time limit
// (SIGTERM, SIGINT, SIGALRM, SIGXCPU, as `timeout` and graders send them) still prints what its
// running kernel had found but not yet printed. Null where there is no room left.
struct KeptText;
KeptText* keep_until_printed(const Finding& finding);
void printed(KeptText* kept);  // printed in the ordinary way, or dropped: not to be printed on a signal
// Once per process, from the first launch: a handler for those signals where the program left
// the default action (a handler of its own, or an ignored signal, stays).
void print_findings_on_signal();
// Whether a kernel runs now: the handler says so, even when it had found nothing.
void set_launch_running(bool running);

struct PendingFinding {
  Finding finding;
  std::optional<PlaceKey> place;
  KeptText* kept = nullptr;
};
struct PendingFindings {
  std::vector<PendingFinding> items;
  std::set<PlaceKey> places;            // first_time() of this block, not yet known to the process
  std::optional<PlaceKey> last_place;  // the place first_time() just admitted, for report()
};
// Set by the scheduler while an OS thread runs a block; null in host code.
extern thread_local PendingFindings* pending_findings;
// Prints the findings of a block (in the order they were made; a place another block reported
// first is left out), then forgets them.
void print_findings(PendingFindings& findings);
// Forgets the findings of a block without printing them (what a stopped launch's later blocks found).
void drop_findings(PendingFindings& findings);
// For a finding the process dies of: what the block found before, then this, at once.
void report_before_dying(const Finding& finding);

// The finding of this kind at the pair of code addresses (a, b) that the running block made and
// has not printed yet, for a check that learns more about it before it is printed; else null.
Finding* waiting_finding(ReportKind kind, std::uintptr_t a, std::uintptr_t b);

// Each pair of code addresses is reported once per process: a race in a loop is one bug.
bool first_time(ReportKind kind, std::uintptr_t a, std::uintptr_t b);
// A finding of one place (an out-of-bounds access, a never-written read) is reported once per
// line of each function (each instantiation of a template): a line holds several accesses.
bool first_time_at(ReportKind kind, const SourceLocation& where, std::uintptr_t pc);

std::string format_index(uint3 v);
// A string's characters as a JSON string literal holds them (without the quotes).
std::string json_escape(const std::string& s);

}  // namespace scanlab::sim::detail

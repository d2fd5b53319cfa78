#include "checks/memory_order.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <string>
#include <utility>
#include <vector>

#include "memory/memory.hpp"
#include "scanlab/sim/atomic.hpp"
#include "threads/block.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::memory_order {
namespace {

constexpr std::uintptr_t kGranule = 4;

// What the stores to each global location (a flag, a counter) carried: the release marks of
// every block that stored there, and what those blocks had acquired. Strong accesses outside a
// block's own memory run in the serial phase, one at a time, so this needs no lock; the race
// checks of the parallel phase only read it (node-based: entries stay where they are).
std::unordered_map<std::uintptr_t, Knowledge> sync_objects;
// The locations among them that an atomic (not a volatile store) wrote: a flag that a reader
// polls, rather than a word that carries its own state beside its value, which a reader checks
// (the status words of a decoupled look-back).
std::unordered_set<std::uintptr_t> atomic_flags;

// What each flag carried when a thread last read it, since the thread's last barrier: a flag
// hands on what it carried when the thread read it, not what it carries when the data is
// checked. A counter that every thread adds to (the grader's counting operator) is read by the
// waiting block before anything is published, and changed by the publishing block's threads
// right after they publish; it announced nothing to the reader, and judged as it stands later it
// would pass for the flag of a hand-off it took no part in. Written by strong accesses, in the
// serial phase; the checks only read it. A Knowledge is copied by its maps' roots (MarkMap), so a
// copy costs two pointers; but it shares the flag's map, and the next store to the flag then
// copies a path of it. So a read keeps no copy while the flag still carries, for every block its
// reader can be asked about, what it carried then (`lazy`, see keep_what_readers_carried).
// With it, the flag's last store before the read and the read itself, which a report of the
// hand-off names as its flag steps.
struct FlagRead {
  std::uintptr_t key;
  Knowledge carried;
  FlagAccess store;
  FlagAccess read;
  bool lazy = true;  // no copy in `carried`: the flag carries now what it carried then
};
struct FlagsRead {
  std::uint32_t run = 0;       // the block run and barrier interval of the thread when it read them
  std::uint32_t interval = 0;
  std::uint32_t block = 0;     // the block of that run
  std::vector<FlagRead> flags;
  std::vector<std::uintptr_t> listed;  // the flags whose lazy_reads name this thread, in this run
};
std::unordered_map<const Thread*, FlagsRead> flags_read;
// Per flag, the threads whose reads of it may keep no copy yet (each once); `block` is theirs
// when they are all of one block, which a store of that block's own marks then skips at once.
struct LazyReads {
  std::vector<const Thread*> threads;
  bool one_block = true;
  std::uint32_t block = 0;
};
std::unordered_map<std::uintptr_t, LazyReads> lazy_reads;
// The last store to each location of sync_objects (its code and thread), so that a read of the
// flag can keep the store it saw: a report names the flag's store beside the data's.
std::unordered_map<std::uintptr_t, FlagAccess> last_stores;

bool covers(const Mark* m, const Stamp& p) {
  if (!m) return false;
  if (p.interval < m->interval || p.clock <= m->any_thread_clock) return true;
  for (const auto& [thread, clock] : m->threads)
    if (thread == p.thread && p.clock <= clock) return true;
  return false;
}

// `published_only`: what a release pattern published becomes what was acquired; nothing else.
// A release hands on what the releasing thread knows the same way: all it saw as seen, what it
// acquired as published.
void merge(Knowledge& into, const Knowledge& from, bool published_only = false) {
  into.published.merge(from.published);
  into.seen.merge(published_only ? from.published : from.seen);
}

bool acquires(Order o) { return o == Order::acquire || o == Order::acq_rel || o == Order::seq_cst; }
bool releases(Order o) { return o == Order::release || o == Order::acq_rel || o == Order::seq_cst; }

ThreadOrdering& thread_part(Thread* t) {
  t->block->ordering.threads_changed = true;
  return t->block->ordering.threads[t->linear];
}

const Knowledge* sync_at(std::uintptr_t key) {
  auto it = sync_objects.find(key);
  return it == sync_objects.end() ? nullptr : &it->second;
}

// Thread t read the flag at `key` at code address `pc`.
void note_read(const Thread* t, std::uintptr_t key, std::uintptr_t pc) {
  const Block& b = *t->block;
  FlagsRead& r = flags_read[t];
  if (r.run != b.race.run) {
    r.listed.clear();  // a new block in this thread's slot: what lazy_reads hold of it is stale
    r.block = b.linear;
  }
  if (r.run != b.race.run || r.interval != b.barrier.interval) {
    r.run = b.race.run;
    r.interval = b.barrier.interval;
    r.flags.clear();
  }
  const auto store = last_stores.find(key);
  FlagRead read{key, {}, store == last_stores.end() ? FlagAccess{} : store->second, FlagAccess{pc, b.linear, t->linear}};
  if (std::find(r.listed.begin(), r.listed.end(), key) == r.listed.end()) {
    r.listed.push_back(key);
    LazyReads& lazy = lazy_reads[key];
    if (lazy.threads.empty()) lazy.block = b.linear;
    lazy.one_block = lazy.one_block && lazy.block == b.linear;
    lazy.threads.push_back(t);
  }
  for (FlagRead& earlier : r.flags)
    if (earlier.key == key) {
      earlier = std::move(read);
      return;
    }
  r.flags.push_back(std::move(read));
}

const Knowledge* carried(const FlagRead& r) { return r.lazy ? sync_at(r.key) : &r.carried; }

// What the flag at `key` carried when thread t last read it in its current interval; what it
// carries now if t did not read it then.
const Knowledge* carried_when_read(const Thread* t, std::uintptr_t key) {
  auto it = flags_read.find(t);
  const Block& b = *t->block;
  if (it != flags_read.end() && it->second.run == b.race.run && it->second.interval == b.barrier.interval)
    for (const FlagRead& read : it->second.flags)
      if (read.key == key) return carried(read);
  return sync_at(key);
}

// Before the flag at `key` changes: the reads of it that keep no copy get one, unless the change
// is to `only_block`'s own marks and the read is that block's. What a flag carried is only ever
// asked about accesses of other blocks than its reader's (relation(), flag_steps(): a race between
// blocks), so for such a read the flag still carries what it carried. A histogram's atomics, read
// and stored by one block's threads after another, copy the flag only where the block changes.
void keep_what_readers_carried(std::uintptr_t key, std::optional<std::uint32_t> only_block) {
  const auto it = lazy_reads.find(key);
  if (it == lazy_reads.end()) return;
  LazyReads& lazy = it->second;
  if (lazy.threads.empty() || (only_block && lazy.one_block && lazy.block == *only_block)) return;
  const Knowledge* now = sync_at(key);
  auto stays_lazy = [&](const Thread* thread) {
    const auto r = flags_read.find(thread);
    if (r == flags_read.end()) return false;
    FlagsRead& reads = r->second;
    if (only_block && reads.block == *only_block) return true;
    for (FlagRead& read : reads.flags)
      if (read.key == key && read.lazy) {
        read.carried = now ? *now : Knowledge{};
        read.lazy = false;
      }
    reads.listed.erase(std::remove(reads.listed.begin(), reads.listed.end(), key), reads.listed.end());
    return false;
  };
  lazy.threads.erase(std::remove_if(lazy.threads.begin(), lazy.threads.end(),
                                    [&](const Thread* thread) { return !stays_lazy(thread); }),
                     lazy.threads.end());
  lazy.one_block = true;  // what stays is only_block's, or nothing
  if (only_block) lazy.block = *only_block;
}

void remember(std::vector<std::uintptr_t>& keys, std::uintptr_t key) {
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
}

// A store by thread t: the release mark of its block, and (with a release pattern) what the
// thread and its block acquired, for cumulativity.
void release(Thread* t, std::uintptr_t key, bool release_pattern) {
  Block& b = *t->block;
  BlockOrdering& o = b.ordering;
  const std::uint32_t before_store = o.clock;
  o.clock += 1;  // the store and what follows it are not covered by its own mark
  auto it = o.threads.find(t->linear);
  const ThreadOrdering* mine = it == o.threads.end() ? nullptr : &it->second;
  const bool fenced = mine && mine->fence_clock != 0;
  // Only its own block's marks change, unless the store hands on what its thread acquired.
  keep_what_readers_carried(key, release_pattern || fenced ? std::nullopt : std::optional(b.linear));
  Knowledge& sync = sync_objects[key];
  const auto thread = static_cast<std::uint16_t>(t->linear);
  Mark& own_seen = sync.seen.writable(b.linear);
  own_seen.interval = std::max(own_seen.interval, b.barrier.interval);
  add(own_seen, thread, before_store);
  if (release_pattern) {
    Mark& own_published = sync.published.writable(b.linear);
    own_published.interval = std::max(own_published.interval, b.barrier.interval);
    add(own_published, thread, before_store);
  } else if (fenced) {
    Mark& own_published = sync.published.writable(b.linear);
    own_published.interval = std::max(own_published.interval, mine->fence_interval);
    add(own_published, thread, mine->fence_clock);
  }
  if (!release_pattern && !fenced) return;
  merge(sync, o.acquired);
  if (!mine) return;
  if (mine->acquired_block_seen) merge(sync, o.seen, true);
  for (std::uintptr_t k : mine->acquired)
    if (const Knowledge* from = sync_at(k); from && from != &sync) merge(sync, *from);
}

const ThreadOrdering* find_thread(const Thread* t) {
  const BlockOrdering& o = t->block->ordering;
  if (o.threads.empty()) return nullptr;
  auto it = o.threads.find(t->linear);
  return it == o.threads.end() ? nullptr : &it->second;
}

}  // namespace

Order from_cpp(int order) {
  switch (order) {
    case 0: return Order::relaxed;
    case 1:
    case 2: return Order::acquire;
    case 3: return Order::release;
    case 4: return Order::acq_rel;
    default: return Order::seq_cst;
  }
}

void begin_launch(const Launch&) {
  sync_objects.clear();
  atomic_flags.clear();
  flags_read.clear();
  lazy_reads.clear();
  last_stores.clear();
}

thread_local Scope next_atomic_scope = Scope::system;

Scope current_atomic_scope() { return std::exchange(next_atomic_scope, Scope::system); }

void begin_block(Block& b) {
  BlockOrdering& o = b.ordering;
  o.clock = 1;
  o.seen = {};
  o.taken = {};
  o.acquired = {};
  o.threads.clear();
  o.threads_changed = false;
}

void end_interval(Block& b) {
  BlockOrdering& o = b.ordering;
  if (!o.threads_changed) return;
  // Each location once, however many threads read it (every thread of a block may add to one
  // counter).
  std::vector<std::uintptr_t> read, acquired, taken;
  bool acquires_block_seen = false;
  for (auto& [linear, part] : o.threads) {
    read.insert(read.end(), part.read.begin(), part.read.end());
    acquired.insert(acquired.end(), part.acquired.begin(), part.acquired.end());
    taken.insert(taken.end(), part.taken.begin(), part.taken.end());
    acquires_block_seen |= part.acquired_block_seen;
    part.read.clear();
    part.acquired.clear();
    part.taken.clear();
    part.acquired_block_seen = false;
  }
  for (std::vector<std::uintptr_t>* keys : {&read, &acquired, &taken}) {
    std::sort(keys->begin(), keys->end());
    keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  }
  if (acquires_block_seen) merge(o.acquired, o.seen, true);
  for (std::uintptr_t k : read)
    if (const Knowledge* from = sync_at(k)) merge(o.seen, *from);
  for (std::uintptr_t k : acquired)
    if (const Knowledge* from = sync_at(k)) merge(o.acquired, *from, true);
  for (std::uintptr_t k : taken)
    if (const Knowledge* from = sync_at(k)) merge(o.taken, *from);
  o.threads_changed = false;
}

void fence(Thread* t, Order order, Scope scope) {
  if (scope == Scope::block || order == Order::relaxed) return;  // orders nothing for another block
  Block& b = *t->block;
  ThreadOrdering& mine = thread_part(t);
  if (releases(order)) {
    mine.fence_interval = b.barrier.interval;
    mine.fence_clock = b.ordering.clock;
    b.ordering.clock += 1;
  }
  if (acquires(order)) {
    for (std::uintptr_t k : mine.read) remember(mine.acquired, k);
    mine.acquired_block_seen = true;
  }
}

void strong_access(Thread* t, const Access& a) {
  // A block's own memory (shared memory, a thread's stack) is ordered by barriers and
  // __syncwarp; its accesses run outside the serial phase, where flags may not be touched.
  if (memory::block_private(a.address)) return;
  if (a.scope == Scope::block) return;  // synchronizes nothing with another block
  const std::uintptr_t key = a.address & ~(kGranule - 1);
  if (a.kind != Access::Kind::write && sync_objects.count(key)) {
    ThreadOrdering& mine = thread_part(t);
    remember(mine.read, key);
    note_read(t, key, a.pc);
    if (acquires(a.order)) remember(mine.acquired, key);
    if (a.kind == Access::Kind::read_modify_write) remember(mine.taken, key);
  }
  if (a.kind == Access::Kind::read) return;
  if (a.strength == Access::Strength::atomic) atomic_flags.insert(key);
  release(t, key, releases(a.order));
  last_stores[key] = FlagAccess{a.pc, t->block->linear, t->linear};
}

bool ordered(const Thread* t, const Stamp& p) {
  const BlockOrdering& o = t->block->ordering;
  if (o.threads.empty() && !o.acquired.published.find(p.block)) return false;
  return relation(t, p) == Relation::ordered;
}

Relation relation(const Thread* t, const Stamp& p) {
  const BlockOrdering& o = t->block->ordering;
  const ThreadOrdering* mine = find_thread(t);
  auto published_in = [&](const Knowledge& k) { return covers(k.published.find(p.block), p); };
  auto seen_in = [&](const Knowledge& k) { return covers(k.seen.find(p.block), p); };
  // Whether any of the flags `keys` carries what `in` finds: now (what was acquired is ordered,
  // however late the release that published it), or when the thread read it (what announces).
  auto any_flag_now = [&](const std::vector<std::uintptr_t>& keys, auto&& in) {
    for (std::uintptr_t k : keys)
      if (const Knowledge* from = sync_at(k); from && in(*from)) return true;
    return false;
  };
  auto any_flag = [&](const std::vector<std::uintptr_t>& keys, auto&& in) {
    for (std::uintptr_t k : keys)
      if (const Knowledge* from = carried_when_read(t, k); from && in(*from)) return true;
    return false;
  };
  if (published_in(o.acquired)) return Relation::ordered;
  if (mine && (any_flag_now(mine->acquired, published_in) || (mine->acquired_block_seen && published_in(o.seen))))
    return Relation::ordered;
  // Published, but not acquired: through a ticket or counter the thread (or its block) changed
  // with an atomic read-modify-write, or through a flag it only loaded.
  if (published_in(o.taken) || (mine && any_flag(mine->taken, published_in))) return Relation::taken_not_acquired;
  if (published_in(o.seen) || (mine && any_flag(mine->read, published_in))) return Relation::not_acquired;
  if (mine) {
    // A flag the thread polled says the data is there; a ticket it took only numbers its work,
    // which a word that carries its own state needs nothing from (race_rule.hpp).
    bool by_ticket = false;
    for (std::uintptr_t k : mine->read)
      if (const Knowledge* from = carried_when_read(t, k); from && atomic_flags.count(k) && seen_in(*from)) {
        if (std::find(mine->taken.begin(), mine->taken.end(), k) == mine->taken.end())
          return Relation::announced_by_atomic;
        by_ticket = true;
      }
    if (by_ticket) return Relation::announced_by_ticket;
  }
  if (seen_in(o.seen) || (mine && any_flag(mine->read, seen_in))) return Relation::not_published;
  // Not covered even by a flag seen: was a flag set by another thread of its block after this
  // access (in the simulator's order), with no barrier between?
  auto set_by_other_thread = [&](const Knowledge& k) {
    const Mark* m = k.seen.find(p.block);
    if (!m || m->interval > p.interval) return false;
    for (const auto& [thread, clock] : m->threads)
      if (thread != p.thread && clock >= p.clock) return true;
    return false;
  };
  if (set_by_other_thread(o.seen) || (mine && any_flag(mine->read, set_by_other_thread))) return Relation::other_thread;
  return Relation::unordered;
}

const char* missing_side(Relation r) {
  switch (r) {
    case Relation::ordered: return nullptr;
    case Relation::announced_by_atomic:
    case Relation::announced_by_ticket:
    case Relation::not_published:
    case Relation::other_thread: return "release";  // the flag's store covers no fence of the data's thread
    case Relation::taken_not_acquired:
    case Relation::not_acquired: return "acquire";
    default: return "both";
  }
}

std::optional<FlagSteps> flag_steps(const Thread* t, const Stamp& p) {
  const Block& b = *t->block;
  // The reads to look at: the thread's own of this interval first, then those of other threads of
  // its block in this run of it (a barrier made what they read the block's).
  std::vector<const FlagRead*> reads;
  if (auto it = flags_read.find(t); it != flags_read.end() && it->second.run == b.race.run &&
                                    it->second.interval == b.barrier.interval)
    for (const FlagRead& r : it->second.flags) reads.push_back(&r);
  std::vector<const FlagRead*> others;
  for (const auto& [thread, of_thread] : flags_read)
    if (thread != t && of_thread.run == b.race.run)  // runs are unique: no need to look at a thread that may be gone
      for (const FlagRead& r : of_thread.flags) others.push_back(&r);
  // In the threads' order, not the map's (addresses): the same program and seed name the same flag.
  std::stable_sort(others.begin(), others.end(),
                   [](const FlagRead* x, const FlagRead* y) { return x->read.thread < y->read.thread; });
  reads.insert(reads.end(), others.begin(), others.end());
  // The flag that carried the earlier access when read (published or only seen: relation() judges
  // which); else one that carried a store of its block at all (another thread of it set the flag).
  for (const FlagRead* r : reads)
    if (const Knowledge* k = carried(*r); k && (covers(k->published.find(p.block), p) || covers(k->seen.find(p.block), p)))
      return FlagSteps{r->store, r->read};
  for (const FlagRead* r : reads)
    if (const Knowledge* k = carried(*r); k && k->seen.find(p.block)) return FlagSteps{r->store, r->read};
  return std::nullopt;
}

std::string advice(Relation r, const std::string& earlier, const std::string& later) {
  switch (r) {
    case Relation::announced_by_atomic:
    case Relation::announced_by_ticket:
    case Relation::not_published:
      return "block " + later + " read a flag that block " + earlier + " set after this access, but " + earlier +
             " set it with no release pattern: put __threadfence() between the access and the flag store (or store "
             "the flag with a release atomic)";
    case Relation::other_thread:
      return "another thread of block " + earlier + " set the flag that block " + later + " read, with no barrier "
             "between this access and its fence: a fence covers its own thread's accesses and those before a "
             "barrier it crossed; put __syncthreads() before the __threadfence()";
    case Relation::taken_not_acquired:
      return "block " + earlier + " published this access (a fence before its atomic), and block " + later +
             " took the ticket with an atomic read-modify-write, but with no acquire pattern after it: in the PTX "
             "memory model an atomic's observation is not an acquire (atomicInc, atomicAdd and the other CUDA "
             "atomics are relaxed), so put __threadfence() between the atomic and this access (or take the "
             "ticket with cuda::atomic_ref's fetch_add(1, cuda::memory_order_acq_rel)). NVIDIA's "
             "threadFenceReduction sample and the CUDA Programming Guide's __threadfence() example rely on "
             "this hand-off: in practice the ticket's read-modify-write reads the writer's release sequence, "
             "so it works on today's GPUs, but nothing in the model promises it";
    case Relation::not_acquired:
      return "block " + earlier + " published this access (a fence before its flag), and block " + later +
             " read the flag, but with no acquire pattern after it: put __threadfence() between reading the flag "
             "and this access (or read the flag with an acquire load)";
    default:
      return "nothing orders the two blocks: blocks run in any order, and a hand-off needs a __threadfence() "
             "between the data and the flag on the writer's side (or a release store) and one between the flag "
             "and the data on the reader's side (or an acquire load); a flag or status word that one block polls while "
             "another stores it is itself stored and polled through a volatile pointer or with atomics";
  }
}

}  // namespace scanlab::sim::detail::memory_order

void scanlab::sim::next_atomic_of_block_scope() {
  scanlab::sim::detail::memory_order::next_atomic_scope = scanlab::sim::detail::Scope::block;
}

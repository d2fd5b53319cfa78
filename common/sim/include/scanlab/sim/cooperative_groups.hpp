// Cooperative groups at block and tile level, as <cooperative_groups.h> declares them, on the
// simulator's barriers and warp collectives: a tile's sync, shuffles and votes are the same real
// rendezvous as __syncwarp and the *_sync intrinsics, with the same mask checks (a tile.sync()
// reached by half the tile is reported when the other half exits or waits elsewhere), and
// reports name the group's method at the program's line. Tiles of several warps (64 ... 1024
// threads) are the tile barrier's rendezvous (runtime/collectives/tile_barrier.hpp) instead.
//
// The grid's group works in a cooperative launch (cudaLaunchCooperativeKernel,
// scanlab/sim/launch_by_arguments.hpp): its sync() is the grid barrier
// (runtime/collectives/grid_barrier.hpp); in any other launch it is reported at its line.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <scanlab/sim/cuda.hpp>

namespace scanlab::sim::detail {
// The simulator's warp collectives (runtime/entry/cooperative_groups.cpp); `name` is what reports call it.
enum class GroupCollective : std::uint8_t { sync, ballot, any, all, shfl_index, shfl_up, shfl_down, shfl_xor, match_any, match_all };
std::uint64_t group_collective(GroupCollective op, unsigned mask, std::uint64_t value, int argument, int width,
                               const char* name, const char* file, unsigned line);
// The caller made a tile of `size` threads (tiled_partition): a race between two threads of one
// tile of fewer than 32 is then told with the tile's sync() as its fix.
void tile_made(unsigned size);
// The lanes of the caller's warp that reach this coalesced_threads() call.
unsigned coalesced_lanes(const char* file, unsigned line);
// grid_group::sync() of the calling thread; whether its kernel was launched cooperatively.
void grid_sync(const char* file, unsigned line);
bool in_cooperative_launch();
// Reports a group size the simulator (and CUDA) cannot partition into, and stops the kernel.
[[noreturn]] void invalid_partition(unsigned size, const char* file, unsigned line);
// The rendezvous of a tile of several warps (runtime/collectives/tile_barrier.hpp): the caller's tile of
// `size` threads; shfl reads the value of rank `source_rank`.
enum class TileCollective : std::uint8_t { sync, any, all, shfl };
std::uint64_t tile_collective(TileCollective op, unsigned size, std::uint64_t value, unsigned source_rank,
                              const char* name, const char* file, unsigned line);

inline unsigned linear_thread_index() {
  const Coordinates& c = coords("threadIdx");
  return c.thread_idx.x + c.block_dim.x * (c.thread_idx.y + c.block_dim.y * c.thread_idx.z);
}
inline unsigned lane_index() { return linear_thread_index() % 32u; }
constexpr unsigned low_lanes(unsigned n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1u; }
// The lanes that exist in the caller's warp: fewer than 32 in the last warp of a block whose
// size is not a multiple of 32. CUDA's tiles name all 32 (the hardware ignores the missing ones).
inline unsigned existing_lanes() {
  const Coordinates& c = coords("blockDim");
  const unsigned threads = c.block_dim.x * c.block_dim.y * c.block_dim.z;
  const unsigned first_of_warp = linear_thread_index() / 32u * 32u;
  return low_lanes(threads - first_of_warp);
}

// A value of any trivially copyable type through 8-byte collectives, in as many pieces as it takes.
template <class T, class PieceExchange>
T exchange_pieces(const T& value, PieceExchange&& exchange) {
  static_assert(std::is_trivially_copyable_v<T>, "cooperative groups exchange trivially copyable values");
  constexpr std::size_t kPieces = (sizeof(T) + 7) / 8;
  std::uint64_t in[kPieces] = {}, out[kPieces] = {};
  std::memcpy(in, &value, sizeof(T));
  for (std::size_t k = 0; k < kPieces; ++k) out[k] = exchange(in[k]);
  T result;
  std::memcpy(&result, out, sizeof(T));
  return result;
}

template <class... A>
constexpr bool never = false;
}  // namespace scanlab::sim::detail

namespace cooperative_groups {

// Any group: the type-erased handle that generic code takes (`void f(const thread_group& g)`).
class thread_group {
 public:
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }
  unsigned long long thread_rank() const { return rank_; }
  void sync(SCANLAB_SIM_SITE_PARAMS) const {
    if (spans_warps_)
      scanlab::sim::detail::tile_collective(scanlab::sim::detail::TileCollective::sync, size_, 0, 0,
                                            "thread_group::sync", scanlab_file, scanlab_line);
    else if (lanes_ == 0) __syncthreads(scanlab_file, scanlab_line);
    else scanlab::sim::detail::group_collective(scanlab::sim::detail::GroupCollective::sync, lanes_, 0, 0, 32,
                                                "thread_group::sync", scanlab_file, scanlab_line);
  }

 protected:
  thread_group(unsigned size, unsigned rank, unsigned lanes, bool spans_warps = false)
      : size_(size), rank_(rank), lanes_(lanes), spans_warps_(spans_warps) {}
  // Lanes of the calling warp that belong to the group; 0 for a whole block or a tile of several warps.
  unsigned size_, rank_, lanes_;
  bool spans_warps_;  // a tile of several warps: its threads are those of its rank range, not lanes
};

// The threads of the calling block.
class thread_block : public thread_group {
 public:
  void sync(SCANLAB_SIM_SITE_PARAMS) const { __syncthreads(scanlab_file, scanlab_line); }
  unsigned size() const { return size_; }
  unsigned num_threads() const { return size_; }
  unsigned thread_rank() const { return rank_; }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }

 private:
  friend thread_block this_thread_block();
  thread_block()
      : thread_group(blockDim.x * blockDim.y * blockDim.z, scanlab::sim::detail::linear_thread_index(), 0) {}
};

inline thread_block this_thread_block() { return thread_block(); }

// Scratch for tiles of more than 32 threads: needed by GPUs before compute capability 8.0, and
// optional from 8.0 on (as for the 9.0 that the simulator stands for), where it holds nothing.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
  static_assert(MaxBlockSize >= 32 && MaxBlockSize <= 1024 && MaxBlockSize % 32 == 0,
                "block_tile_memory<MaxBlockSize>: a block size from 32 to 1024, a multiple of 32");
  unsigned char reserved[1];
};
template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return this_thread_block();
}

// The grid as a group: valid, and its sync() a barrier of every thread of the grid, in a cooperative launch.
class grid_group {
 public:
  unsigned long long size() const { return num_threads(); }
  unsigned long long num_threads() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z;
  }
  unsigned long long thread_rank() const {
    return block_rank() * (static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z) +
           scanlab::sim::detail::linear_thread_index();
  }
  unsigned long long num_blocks() const { return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z; }
  unsigned long long block_rank() const {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  dim3 group_dim() const { return gridDim; }
  dim3 dim_blocks() const { return gridDim; }
  dim3 block_index() const { return blockIdx; }
  dim3 dim_threads() const { return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z); }
  bool is_valid() const { return scanlab::sim::detail::in_cooperative_launch(); }
  void sync(SCANLAB_SIM_SITE_PARAMS) const { scanlab::sim::detail::grid_sync(scanlab_file, scanlab_line); }
};

inline grid_group this_grid() { return grid_group(); }

template <class Unsupported = void>
void this_multi_grid() {
  static_assert(scanlab::sim::detail::never<Unsupported>, "multi-device groups are not supported by the scanlab simulator");
}

// What tiles and coalesced groups share: their lanes of one warp, and the collectives over them.
// Ranks map to lanes through `lane_of_rank` (tiles: contiguous lanes; coalesced groups: the set bits).
class warp_group : public thread_group {
 public:
  using thread_group::thread_group;
  unsigned long long size() const { return size_; }
  unsigned long long num_threads() const { return size_; }
  unsigned long long thread_rank() const { return rank_; }
  void sync(SCANLAB_SIM_SITE_PARAMS) const { collective(Op::sync, 0, scanlab_file, scanlab_line, "sync"); }

  template <class T>
  T shfl(T var, int source_rank, SCANLAB_SIM_SITE_PARAMS) const {
    return move(var, lane_of_rank(static_cast<unsigned>(source_rank) % size_), "shfl", scanlab_file, scanlab_line);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, SCANLAB_SIM_SITE_PARAMS) const {
    const unsigned source = rank_ >= delta ? rank_ - delta : rank_;
    return move(var, lane_of_rank(source), "shfl_up", scanlab_file, scanlab_line);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, SCANLAB_SIM_SITE_PARAMS) const {
    const unsigned source = rank_ + delta < size_ ? rank_ + delta : rank_;
    return move(var, lane_of_rank(source), "shfl_down", scanlab_file, scanlab_line);
  }
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, SCANLAB_SIM_SITE_PARAMS) const {
    const unsigned source = (rank_ ^ lane_mask) < size_ ? rank_ ^ lane_mask : rank_;
    return move(var, lane_of_rank(source), "shfl_xor", scanlab_file, scanlab_line);
  }
  int any(int predicate, SCANLAB_SIM_SITE_PARAMS) const {
    return static_cast<int>(collective(Op::any, predicate != 0, scanlab_file, scanlab_line, "any"));
  }
  int all(int predicate, SCANLAB_SIM_SITE_PARAMS) const {
    return static_cast<int>(collective(Op::all, predicate != 0, scanlab_file, scanlab_line, "all"));
  }
  // Bit r of the result is the predicate of the member of rank r.
  unsigned ballot(int predicate, SCANLAB_SIM_SITE_PARAMS) const {
    return to_ranks(static_cast<unsigned>(collective(Op::ballot, predicate != 0, scanlab_file, scanlab_line, "ballot")));
  }
  template <class T>
  unsigned match_any(T value, SCANLAB_SIM_SITE_PARAMS) const {
    return to_ranks(static_cast<unsigned>(collective(Op::match_any, bits_of(value), scanlab_file, scanlab_line, "match_any")));
  }
  // The lanes of the group whose predicate (or label) is the caller's: binary_partition's and
  // labeled_partition's groups.
  unsigned lanes_agreeing(bool predicate, const char* file, unsigned line, const char* name) const {
    const auto votes = static_cast<unsigned>(scanlab::sim::detail::group_collective(
        Op::ballot, lanes_, predicate, 0, 32, name, file, line));
    return predicate ? votes : lanes_ & ~votes;
  }
  template <class Label>
  unsigned lanes_labelled(Label label, const char* file, unsigned line, const char* name) const {
    return static_cast<unsigned>(
        scanlab::sim::detail::group_collective(Op::match_any, lanes_, bits_of(label), 0, 32, name, file, line));
  }
  template <class T>
  unsigned match_all(T value, int& predicate, SCANLAB_SIM_SITE_PARAMS) const {
    const auto lanes = static_cast<unsigned>(collective(Op::match_all, bits_of(value), scanlab_file, scanlab_line, "match_all"));
    predicate = lanes != 0;
    return to_ranks(lanes);
  }

 protected:
  using Op = scanlab::sim::detail::GroupCollective;
  virtual unsigned lane_of_rank(unsigned rank) const = 0;
  virtual unsigned to_ranks(unsigned lanes) const = 0;
  virtual const char* type_name() const = 0;

  std::uint64_t collective(Op op, std::uint64_t value, const char* file, unsigned line, const char* method,
                           int source_lane = 0) const {
    return scanlab::sim::detail::group_collective(op, lanes_, value, source_lane, 32, method_name(method), file, line);
  }

 private:
  template <class T>
  static std::uint64_t bits_of(T value) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "match_any/match_all compare values of at most 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
  }
  template <class T>
  T move(const T& var, unsigned source_lane, const char* method, const char* file, unsigned line) const {
    return scanlab::sim::detail::exchange_pieces(var, [&](std::uint64_t piece) {
      return collective(Op::shfl_index, piece, file, line, method, static_cast<int>(source_lane));
    });
  }
  // "thread_block_tile::shfl_down": a string literal per method and type, for reports.
  const char* method_name(const char* method) const;
};

// A tile of N consecutive threads (N a power of two up to 32) of a block or of a larger tile.
class tile_group : public warp_group {
 public:
  unsigned long long meta_group_rank() const { return meta_rank_; }
  unsigned long long meta_group_size() const { return meta_size_; }

 protected:
  // The tile of `size` threads that holds the caller, within a parent group whose caller has
  // `parent_rank` among `parent_size` threads.
  tile_group(unsigned size, unsigned parent_rank, unsigned parent_size)
      : warp_group(size, parent_rank % size,
                   (scanlab::sim::detail::low_lanes(size) << (scanlab::sim::detail::lane_index() / size * size)) &
                       scanlab::sim::detail::existing_lanes()),
        meta_rank_(parent_rank / size),
        meta_size_((parent_size + size - 1) / size) {
    scanlab::sim::detail::tile_made(size);
  }
  unsigned lane_of_rank(unsigned rank) const override { return __builtin_ctz(lanes_) + rank; }
  unsigned to_ranks(unsigned lanes) const override { return lanes >> __builtin_ctz(lanes_); }
  const char* type_name() const override { return "thread_block_tile"; }
  unsigned meta_rank_, meta_size_;

  static void check_size(unsigned size, const char* file, unsigned line) {
    if (size == 0 || size > 32 || (size & (size - 1))) scanlab::sim::detail::invalid_partition(size, file, line);
  }
};

// The sizes tiled_partition<N> takes: refused at the program's call (the function's instantiation),
// not where a tile's type is named.
template <unsigned N>
constexpr bool check_tile_size() {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0,
                "tiled_partition<N>: N must be a power of two from 1 to 1024, as in CUDA");
  return true;
}

// A tile of N consecutive threads, N = 64 ... 1024: whole warps. CUDA gives such a tile sync(),
// shfl() (of at most 8 bytes, every thread reading the same rank), any() and all(), and cg::reduce
// and the scans; its other warp collectives exist only for tiles of at most 32 threads, and calling
// one fails the build at the call.
class multi_warp_tile : public thread_group {
 public:
  unsigned long long meta_group_rank() const { return meta_rank_; }
  unsigned long long meta_group_size() const { return meta_size_; }
  void sync(SCANLAB_SIM_SITE_PARAMS) const {
    collective(Op::sync, 0, 0, "thread_block_tile::sync", scanlab_file, scanlab_line);
  }
  template <class T>
  T shfl(T var, unsigned source_rank, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                  "thread_block_tile<N>::shfl of a tile of more than 32 threads: CUDA shuffles trivially copyable "
                  "values of at most 8 bytes in such a tile");
    return exchange(var, source_rank, "thread_block_tile::shfl", scanlab_file, scanlab_line);
  }
  int any(int predicate, SCANLAB_SIM_SITE_PARAMS) const {
    return static_cast<int>(collective(Op::any, predicate != 0, 0, "thread_block_tile::any", scanlab_file, scanlab_line));
  }
  int all(int predicate, SCANLAB_SIM_SITE_PARAMS) const {
    return static_cast<int>(collective(Op::all, predicate != 0, 0, "thread_block_tile::all", scanlab_file, scanlab_line));
  }
  template <class T>
  T shfl_up(T, int, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(scanlab::sim::detail::never<T>, "thread_block_tile<N>::shfl_up exists in CUDA only for tiles of at "
                                                  "most 32 threads: use shfl, or a tile of 32 and shared memory");
    return {};
  }
  template <class T>
  T shfl_down(T, int, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(scanlab::sim::detail::never<T>, "thread_block_tile<N>::shfl_down exists in CUDA only for tiles of "
                                                  "at most 32 threads: use cg::reduce, or a tile of 32");
    return {};
  }
  template <class T>
  T shfl_xor(T, int, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(scanlab::sim::detail::never<T>, "thread_block_tile<N>::shfl_xor exists in CUDA only for tiles of "
                                                  "at most 32 threads: use cg::reduce, or a tile of 32");
    return {};
  }
  template <class Unsupported = void>
  unsigned ballot(int, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(scanlab::sim::detail::never<Unsupported>,
                  "thread_block_tile<N>::ballot exists in CUDA only for tiles of at most 32 threads (its result has "
                  "one bit a thread): ballot in a tile of 32");
    return 0;
  }
  template <class T>
  unsigned match_any(T, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(scanlab::sim::detail::never<T>,
                  "thread_block_tile<N>::match_any exists in CUDA only for tiles of at most 32 threads");
    return 0;
  }
  template <class T>
  unsigned match_all(T, int&, SCANLAB_SIM_SITE_PARAMS) const {
    static_assert(scanlab::sim::detail::never<T>,
                  "thread_block_tile<N>::match_all exists in CUDA only for tiles of at most 32 threads");
    return 0;
  }

  // The value of rank `source_rank`, any trivially copyable type, in 8-byte pieces: what the
  // collectives of <cooperative_groups/reduce.h> and scan.h build on; `name` is what reports call it.
  template <class T>
  T exchange(const T& value, unsigned source_rank, const char* name, const char* file, unsigned line) const {
    return scanlab::sim::detail::exchange_pieces(
        value, [&](std::uint64_t piece) { return collective(Op::shfl, piece, source_rank, name, file, line); });
  }

 protected:
  // The tile of `size` threads that holds the caller, within a parent group whose caller has
  // `parent_rank` among `parent_size` threads.
  multi_warp_tile(unsigned size, unsigned parent_rank, unsigned parent_size)
      : thread_group(size, parent_rank % size, 0, true),
        meta_rank_(parent_rank / size),
        meta_size_((parent_size + size - 1) / size) {}

 private:
  using Op = scanlab::sim::detail::TileCollective;
  std::uint64_t collective(Op op, std::uint64_t value, unsigned source_rank, const char* name, const char* file,
                           unsigned line) const {
    return scanlab::sim::detail::tile_collective(op, size_, value, source_rank, name, file, line);
  }
  unsigned meta_rank_, meta_size_;
};

template <unsigned N>
using tile_base = std::conditional_t<(N > 32), multi_warp_tile, tile_group>;

template <unsigned N, class Parent = void>
class thread_block_tile : public tile_base<N> {
 public:
  static constexpr unsigned long long num_threads() { return N; }
  static constexpr unsigned long long size() { return N; }
  thread_block_tile(unsigned parent_rank, unsigned parent_size) : tile_base<N>(N, parent_rank, parent_size) {}
  // A tile of a known parent converts to the parent-less tile type, as in CUDA.
  template <class P>
  thread_block_tile(const thread_block_tile<N, P>& other) : tile_base<N>(other) {}
};

// tiled_partition<N>(block) and tiled_partition<N>(tile)
template <unsigned N>
thread_block_tile<N, thread_block> tiled_partition(const thread_block& parent) {
  static_assert(check_tile_size<N>());
  return thread_block_tile<N, thread_block>(parent.thread_rank(), parent.size());
}
template <unsigned N, unsigned M, class P>
thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P>& parent) {
  static_assert(check_tile_size<N>());
  static_assert(N <= M, "tiled_partition<N>(tile): N must not exceed the parent tile's size");
  return thread_block_tile<N, thread_block_tile<M, P>>(static_cast<unsigned>(parent.thread_rank()), M);
}

// The dynamic form, tiled_partition(parent, n): a thread_group of n threads (a power of two up to 32).
class dynamic_tile : public tile_group {
 public:
  dynamic_tile(unsigned size, unsigned parent_rank, unsigned parent_size, const char* file, unsigned line)
      : tile_group((check_size(size, file, line), size), parent_rank, parent_size) {}
};
inline dynamic_tile tiled_partition(const thread_block& parent, unsigned size, SCANLAB_SIM_SITE_PARAMS) {
  return dynamic_tile(size, parent.thread_rank(), parent.size(), scanlab_file, scanlab_line);
}
inline dynamic_tile tiled_partition(const thread_group& parent, unsigned size, SCANLAB_SIM_SITE_PARAMS) {
  return dynamic_tile(size, static_cast<unsigned>(parent.thread_rank()), static_cast<unsigned>(parent.size()),
                      scanlab_file, scanlab_line);
}
inline dynamic_tile tiled_partition(const tile_group& parent, unsigned size, SCANLAB_SIM_SITE_PARAMS) {
  return dynamic_tile(size, static_cast<unsigned>(parent.thread_rank()), static_cast<unsigned>(parent.size()),
                      scanlab_file, scanlab_line);
}

// The lanes of the warp that reach coalesced_threads() together, ranked in lane order.
class coalesced_group : public warp_group {
 public:
  unsigned long long meta_group_rank() const { return 0; }
  unsigned long long meta_group_size() const { return 1; }

 public:
  explicit coalesced_group(unsigned lanes)
      : warp_group(__builtin_popcount(lanes),
                   __builtin_popcount(lanes & scanlab::sim::detail::low_lanes(scanlab::sim::detail::lane_index())),
                   lanes) {}

 protected:
  unsigned lane_of_rank(unsigned rank) const override {
    unsigned lanes = lanes_;
    for (unsigned k = 0; k < rank; ++k) lanes &= lanes - 1;
    return __builtin_ctz(lanes);
  }
  unsigned to_ranks(unsigned lanes) const override {
    unsigned ranks = 0, r = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (lanes_ & (1u << l)) ranks |= ((lanes >> l) & 1u) << r++;
    return ranks;
  }
  const char* type_name() const override { return "coalesced_group"; }
};
inline coalesced_group coalesced_threads(SCANLAB_SIM_SITE_PARAMS) {
  return coalesced_group(scanlab::sim::detail::coalesced_lanes(scanlab_file, scanlab_line));
}

// The members of a tile or coalesced group that share the caller's predicate, or label.
inline coalesced_group binary_partition(const warp_group& parent, bool predicate, SCANLAB_SIM_SITE_PARAMS) {
  return coalesced_group(parent.lanes_agreeing(predicate, scanlab_file, scanlab_line, "binary_partition"));
}
template <class Label>
coalesced_group labeled_partition(const warp_group& parent, Label label, SCANLAB_SIM_SITE_PARAMS) {
  return coalesced_group(parent.lanes_labelled(label, scanlab_file, scanlab_line, "labeled_partition"));
}

inline const char* warp_group::method_name(const char* method) const {
  // Reports print "thread_block_tile::shfl" and the like; a small table keeps the pointers static.
  static const char* const methods[] = {"sync", "shfl", "shfl_up", "shfl_down", "shfl_xor", "any", "all", "ballot", "match_any", "match_all"};
  static const char* const tile_names[] = {"thread_block_tile::sync", "thread_block_tile::shfl", "thread_block_tile::shfl_up",
                                           "thread_block_tile::shfl_down", "thread_block_tile::shfl_xor", "thread_block_tile::any",
                                           "thread_block_tile::all", "thread_block_tile::ballot", "thread_block_tile::match_any",
                                           "thread_block_tile::match_all"};
  static const char* const coalesced_names[] = {"coalesced_group::sync", "coalesced_group::shfl", "coalesced_group::shfl_up",
                                                "coalesced_group::shfl_down", "coalesced_group::shfl_xor", "coalesced_group::any",
                                                "coalesced_group::all", "coalesced_group::ballot", "coalesced_group::match_any",
                                                "coalesced_group::match_all"};
  const bool tile = type_name()[0] == 't';
  for (unsigned k = 0; k < sizeof methods / sizeof *methods; ++k)
    if (std::strcmp(methods[k], method) == 0) return tile ? tile_names[k] : coalesced_names[k];
  return method;
}

// cg::sync(group), as a free function.
template <class Group>
void sync(const Group& group, SCANLAB_SIM_SITE_PARAMS) {
  group.sync(scanlab_file, scanlab_line);
}
template <class Group>
unsigned long long thread_rank(const Group& group) {
  return group.thread_rank();
}
template <class Group>
unsigned long long group_size(const Group& group) {
  return group.size();
}

}  // namespace cooperative_groups

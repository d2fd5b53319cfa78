// Alignment of a kernel's dynamic shared memory.
//
// A templated kernel cannot declare `extern __shared__ T buffer[]` for each element type T
// (the declarations of different instantiations would clash), so lab kernels declare their
// dynamic shared memory once, as bytes, and cast it:
//
//   extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
//   T* const section = reinterpret_cast<T*>(shared_bytes);
#pragma once

#include <cstddef>

namespace scanlab {

// Covers the alignment of every element type the kit scans (up to double and 16-byte pairs).
inline constexpr std::size_t kSharedAlignment = 16;

}  // namespace scanlab

// <cuda_pipeline.h> as lab code sees it on the simulator backend: the primitives of sm_80's
// asynchronous copies (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior; see
// scanlab/sim/pipeline_copies.hpp). The older class nvcuda::experimental::pipeline is refused
// where the program declares one.
#pragma once
#include <cuda_pipeline_primitives.h>

#include <type_traits>

namespace nvcuda::experimental {
template <class Unsupported = void>
class refused_pipeline {
  static_assert(!::std::is_same_v<Unsupported, Unsupported>,
                "nvcuda::experimental::pipeline is not supported by the scanlab simulator: use the primitives "
                "__pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior, or cuda::make_pipeline()");
};
using pipeline = refused_pipeline<>;
}  // namespace nvcuda::experimental

// A cuda::pipeline of device scope: the simulator runs pipelines of one thread and pipelines shared
// by the threads of one block, and says so at the program's line instead of inside a header (where
// the pipeline is made from its shared state: a __shared__ declaration alone is not instantiated),
// as the build's only error.
#include <cooperative_groups.h>
#include <cuda/pipeline>

__global__ void stage(const int* in, int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_device, 2> state;
  __shared__ int tile[64];
  auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state);  // expect: compile-error
  pipe.producer_acquire();
  cuda::memcpy_async(cooperative_groups::this_thread_block(), tile, in, sizeof tile, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = tile[threadIdx.x];
  pipe.consumer_release();
}

int main() { return 0; }

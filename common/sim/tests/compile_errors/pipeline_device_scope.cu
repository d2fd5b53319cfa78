// A cuda::pipeline shared by the threads of a block: the simulator runs each thread's own
// pipeline only, and says so at the program's line instead of inside a header (where the
// pipeline is made from its shared state: a __shared__ declaration alone is not instantiated).
#include <cooperative_groups.h>
#include <cuda/pipeline>

__global__ void stage(const int* in, int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
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

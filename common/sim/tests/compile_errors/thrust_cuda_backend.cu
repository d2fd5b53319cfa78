// A program that names a vector of Thrust's CUDA back end: the simulator runs Thrust in its C++
// device system (thrust::device, thrust::cuda::par), and refuses the back end's other headers at
// the program's #include, with the header named, instead of failing inside Thrust.
#include <thrust/device_vector.h>
#include <thrust/system/cuda/vector.h>  // expect: compile-error

int main() {
  thrust::cuda::vector<int> values(10, 1);
  return values.size() == 10 ? 0 : 1;
}

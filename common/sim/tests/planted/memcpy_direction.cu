// A copy whose direction contradicts its pointers, as a scan called from a compaction with
// device pointers makes it: cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice) with a device
// source. CUDA leaves that undefined; the simulator reports it at the program's line (not only
// the call's name) and the call fails. The fixed twin says cudaMemcpyDeviceToDevice.
#include "planted.cuh"

void copy_in(int* device_destination, const int* source, int n) {
#ifdef PLANTED_FIXED
  PLANTED_CHECK(cudaMemcpy(device_destination, source, n * sizeof(int), cudaMemcpyDeviceToDevice));
#else
  cudaMemcpy(device_destination, source, n * sizeof(int), cudaMemcpyHostToDevice);  // expect: api-misuse
#endif
}

int main() {
  constexpr int n = 64;
  const planted::DeviceBuffer<int> from(planted::test_input(n)), to(n);
  copy_in(to.get(), from.get(), n);
  return planted::compare(planted::test_input(n), to.to_host());
}

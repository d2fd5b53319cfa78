// A kernel that calls a CUDA device function the simulator does not provide (__fns: the n-th
// set bit, sm_70): simcc must stop at this file's line and say what the name may be.
__global__ void nth_set_bit(unsigned* out) {
  out[0] = __fns(0xf0u, 0, 2);  // expect: unsupported-device-function
}

int main() { return 0; }

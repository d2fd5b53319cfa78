// A program in the style of CUDA's samples: error-checking macro, device queries before
// choosing a configuration, filter taps in __constant__ memory, uchar4 pixels in pinned host
// memory, a stream with asynchronous copies, events around the kernel, and printf in a kernel.
// Must run clean. The planted bug copies one tap too many into the __constant__ array; the
// fixed twin copies exactly its size.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define checkCuda(call)                                                                        \
  do {                                                                                         \
    cudaError_t status_ = (call);                                                              \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(status_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

constexpr int kTaps = 5;
__constant__ float taps[kTaps];
__device__ unsigned pixels_done;

// A horizontal blur of the green channel, clamped at the row's ends.
__global__ void blur_green(const uchar4* in, uchar4* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= width || y >= height) return;
  float green = 0.0f;
  for (int k = 0; k < kTaps; ++k) {
    const int sx = min(max(x + k - kTaps / 2, 0), width - 1);
    green += taps[k] * in[y * width + sx].y;
  }
  uchar4 pixel = in[y * width + x];
  pixel.y = static_cast<unsigned char>(green + 0.5f);
  out[y * width + x] = pixel;
  if (atomicAdd(&pixels_done, 1u) == static_cast<unsigned>(width * height) - 1)
    printf("blur_green: last pixel done by block (%d, %d)\n", blockIdx.x, blockIdx.y);
}

int main() {
  int device_count = 0, device = 0;
  checkCuda(cudaGetDeviceCount(&device_count));
  checkCuda(cudaSetDevice(device));
  cudaDeviceProp prop;
  checkCuda(cudaGetDeviceProperties(&prop, device));
  int mode = -1, major = 0, minor = 0, sms = 0, clock_khz = 0, runtime = 0, driver = 0;
  checkCuda(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
  checkCuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  checkCuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  checkCuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  checkCuda(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  checkCuda(cudaRuntimeGetVersion(&runtime));
  checkCuda(cudaDriverGetVersion(&driver));
  if (device_count < 1 || mode == cudaComputeModeProhibited || major != prop.major || minor != prop.minor ||
      sms != prop.multiProcessorCount || runtime != CUDART_VERSION || driver < runtime) {
    std::fprintf(stderr, "device queries disagree\n");
    return 3;
  }
  std::printf("%s: compute capability %d.%d, %d multiprocessors at %d MHz, runtime %d\n", prop.name, major, minor, sms,
              clock_khz / 1000, runtime);

  const float host_taps[kTaps + 1] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f, 0.0f};
#ifdef PLANTED_FIXED
  checkCuda(cudaMemcpyToSymbol(taps, host_taps, sizeof taps));
#else
  if (cudaMemcpyToSymbol(taps, host_taps, sizeof host_taps) != cudaSuccess)  // expect: api-misuse
    checkCuda(cudaMemcpyToSymbol(taps, host_taps, sizeof taps));
#endif
  const unsigned zero = 0;
  checkCuda(cudaMemcpyToSymbol(pixels_done, &zero, sizeof zero));

  constexpr int width = 100, height = 3, count = width * height;
  uchar4 *host_in = nullptr, *host_out = nullptr, *in = nullptr, *out = nullptr;
  checkCuda(cudaMallocHost(&host_in, count * sizeof(uchar4)));
  checkCuda(cudaHostAlloc(&host_out, count * sizeof(uchar4), cudaHostAllocDefault));
  for (int i = 0; i < count; ++i) host_in[i] = make_uchar4(i % 256, (i * 7) % 256, 0, 255);
  checkCuda(cudaMalloc(&in, count * sizeof(uchar4)));
  checkCuda(cudaMalloc(&out, count * sizeof(uchar4)));
  cudaStream_t stream;
  cudaEvent_t start, stop;
  checkCuda(cudaStreamCreate(&stream));
  checkCuda(cudaEventCreate(&start));
  checkCuda(cudaEventCreate(&stop));
  checkCuda(cudaMemcpyAsync(in, host_in, count * sizeof(uchar4), cudaMemcpyHostToDevice, stream));
  checkCuda(cudaEventRecord(start, stream));
  blur_green<<<dim3((width + 63) / 64, height), 64, 0, stream>>>(in, out, width, height);
  checkCuda(cudaGetLastError());
  checkCuda(cudaEventRecord(stop, stream));
  checkCuda(cudaMemcpyAsync(host_out, out, count * sizeof(uchar4), cudaMemcpyDeviceToHost, stream));
  checkCuda(cudaStreamSynchronize(stream));
  float ms = 0;
  checkCuda(cudaEventElapsedTime(&ms, start, stop));

  int wrong = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float green = 0.0f;
      for (int k = 0; k < kTaps; ++k) {
        const int sx = std::min(std::max(x + k - kTaps / 2, 0), width - 1);
        green += host_taps[k] * host_in[y * width + sx].y;
      }
      const uchar4 p = host_out[y * width + x];
      wrong += p.x != host_in[y * width + x].x || p.y != static_cast<unsigned char>(green + 0.5f) || p.w != 255;
    }
  std::printf("%d of %d pixels wrong\n", wrong, count);
  checkCuda(cudaEventDestroy(start));
  checkCuda(cudaEventDestroy(stop));
  checkCuda(cudaStreamDestroy(stream));
  checkCuda(cudaFree(in));
  checkCuda(cudaFree(out));
  checkCuda(cudaFreeHost(host_in));
  checkCuda(cudaFreeHost(host_out));
  return wrong == 0 ? 0 : 3;
}

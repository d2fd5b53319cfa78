// Turn a failed CUDA runtime call into an exception that names the call and where it was made.
//
// Host entries check their launches with SCANLAB_CUDA_CHECK(cudaGetLastError()) (which does
// not synchronize); callers that need the kernel's own errors synchronize and check again.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace scanlab {

class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const char* expression, const char* file, int line)
        : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + expression +
                             " failed: " + cudaGetErrorString(code)),
          code_(code) {}
    cudaError_t code() const { return code_; }

private:
    cudaError_t code_;
};

inline void cuda_check(cudaError_t code, const char* expression, const char* file, int line) {
    if (code != cudaSuccess) throw CudaError(code, expression, file, line);
}

}  // namespace scanlab

#define SCANLAB_CUDA_CHECK(expression) \
    ::scanlab::cuda_check((expression), #expression, __FILE__, __LINE__)

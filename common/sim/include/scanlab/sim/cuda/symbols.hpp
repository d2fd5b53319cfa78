// Copies to and from __constant__ and __device__ variables by symbol, and their addresses and
// sizes: templates over the variable itself, since such a variable is an ordinary one here.
#pragma once

#include <cstddef>

#include <scanlab/sim/cuda/call_site.hpp>
#include <scanlab/sim/cuda/errors.hpp>
#include <scanlab/sim/cuda/memory.hpp>
#include <scanlab/sim/cuda/streams.hpp>

// __constant__ and __device__ variables are ordinary variables here (kernels read them
// unchecked): the symbol calls copy to and from them, bounds checked.
namespace scanlab::sim::detail {
cudaError_t copy_symbol(const char* call, void* dst, const void* src, std::size_t bytes, std::size_t offset,
                        std::size_t symbol_bytes, const char* file, unsigned line);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice, SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::detail::copy_symbol("cudaMemcpyToSymbol", reinterpret_cast<char*>(&symbol) + offset, src,
                                           bytes, offset, sizeof(T), scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost, SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::detail::copy_symbol("cudaMemcpyFromSymbol", dst,
                                           reinterpret_cast<const char*>(&symbol) + offset, bytes, offset, sizeof(T),
                                           scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr,
                                    SCANLAB_SIM_SITE_PARAMS) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind, scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr,
                                      SCANLAB_SIM_SITE_PARAMS) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind, scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
  *address = const_cast<void*>(static_cast<const void*>(&symbol));
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T&) {
  *bytes = sizeof(T);
  return cudaSuccess;
}

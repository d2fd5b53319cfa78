// An array for a scan's input or output, in host or device memory, fenced by guard bytes.
//
// Guards sit right before and after the n elements and hold the fill pattern; a scan
// that writes outside [0, n) changes them, on either backend and whatever the allocation
// granularity. Inputs are left unguarded so that the simulator's bounds checks see reads
// past the end.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#include "fill_pattern.hpp"
#include "scanlab/cuda_check.hpp"

namespace scanlab::grading {

enum class Space { host, device };

class TestArrayBytes {
public:
    // 256 bytes keep the first element as aligned as cudaMalloc's own result.
    static constexpr std::size_t kGuardBytes = 256;
    static constexpr unsigned char kGuardByte = kFillByte;

    TestArrayBytes(Space space, std::size_t bytes, bool guarded)
        : space_(space), bytes_(bytes), guard_(guarded ? kGuardBytes : 0) {
        const std::size_t total = total_bytes();
        if (space_ == Space::device) {
            void* raw = nullptr;
            SCANLAB_CUDA_CHECK(cudaMalloc(&raw, total));
            base_ = static_cast<unsigned char*>(raw);
            SCANLAB_CUDA_CHECK(cudaMemset(base_, kGuardByte, total));
        } else {
            base_ = static_cast<unsigned char*>(::operator new(total, std::align_val_t{kGuardBytes}));
            std::memset(base_, kGuardByte, total);
        }
    }
    ~TestArrayBytes() {
        if (space_ == Space::device) {
            cudaFree(base_);
        } else {
            ::operator delete(base_, std::align_val_t{kGuardBytes});
        }
    }
    TestArrayBytes(const TestArrayBytes&) = delete;
    TestArrayBytes& operator=(const TestArrayBytes&) = delete;

    unsigned char* elements() const { return base_ + guard_; }

    void write(const void* source, std::size_t bytes) {
        copy(elements(), source, bytes, cudaMemcpyHostToDevice);
    }
    void read(void* destination, std::size_t bytes) const {
        copy(destination, elements(), bytes, cudaMemcpyDeviceToHost);
    }
    std::vector<unsigned char> read_all() const {
        std::vector<unsigned char> all(total_bytes());
        copy(all.data(), base_, all.size(), cudaMemcpyDeviceToHost);
        return all;
    }

    ::testing::AssertionResult guards_intact() const {
        const std::vector<unsigned char> all = read_all();
        for (std::size_t g = 0; g < guard_; ++g) {
            if (all[g] != kGuardByte) {
                return ::testing::AssertionFailure() << "wrote before the first output element (byte offset -"
                                                     << guard_ - g << ")";
            }
            if (all[guard_ + bytes_ + g] != kGuardByte) {
                return ::testing::AssertionFailure() << "wrote past the last output element (byte offset +" << g
                                                     << " after the end)";
            }
        }
        return ::testing::AssertionSuccess();
    }

private:
    std::size_t total_bytes() const { return bytes_ + 2 * guard_ + 1; }  // +1: never zero bytes
    void copy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) const {
        if (bytes == 0) return;
        if (space_ == Space::device) {
            SCANLAB_CUDA_CHECK(cudaMemcpy(to, from, bytes, kind));
        } else {
            std::memcpy(to, from, bytes);
        }
    }

    Space space_;
    std::size_t bytes_;
    std::size_t guard_;
    unsigned char* base_ = nullptr;
};

template <class T>
class TestArray {
public:
    // Output array: n elements of the fill pattern, guarded on both sides.
    TestArray(Space space, std::size_t n) : n_(n), bytes_(space, n * sizeof(T), /*guarded=*/true) {}
    // Input array: the given values, unguarded.
    TestArray(Space space, const std::vector<T>& values)
        : n_(values.size()), bytes_(space, values.size() * sizeof(T), /*guarded=*/false) {
        bytes_.write(values.data(), n_ * sizeof(T));
    }

    T* data() const { return reinterpret_cast<T*>(bytes_.elements()); }

    std::vector<T> read() const {
        std::vector<T> values(n_);
        bytes_.read(values.data(), n_ * sizeof(T));
        return values;
    }
    ::testing::AssertionResult guards_intact() const { return bytes_.guards_intact(); }

private:
    std::size_t n_;
    TestArrayBytes bytes_;
};

}  // namespace scanlab::grading

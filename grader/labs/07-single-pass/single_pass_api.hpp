// Lab 07's host entry, as the suite calls it.
#pragma once

#include <cstddef>

#include "whole_scan_checks.hpp"

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op);

// The reference solution's, beside the submission's for the performance check
// (performance_reference.cu; cuda backend only).
namespace scanlab_reference {
template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op);
}  // namespace scanlab_reference

namespace lab07 {

using namespace scanlab::grading;
using scanlab::ScanKind;

inline constexpr auto kSinglePass = [](auto... args) { single_pass_scan(args...); };

}  // namespace lab07

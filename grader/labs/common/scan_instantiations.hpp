// The (T, Op) pairs the lab suites call each entry with: the cases of scan_cases.hpp plus the
// operation counter. A lab's instantiation .cu expands SCANLAB_FOR_EACH_SCAN_TYPE with a
// macro that explicitly instantiates its entries, so tests (plain C++) link against them.
#pragma once

#include "scanlab/counting_op.hpp"
#include "scanlab/operators.hpp"

#define SCANLAB_FOR_EACH_SCAN_TYPE(X)                                   \
    X(int, ::scanlab::Plus<int>)                                        \
    X(float, ::scanlab::Plus<float>)                                    \
    X(double, ::scanlab::Plus<double>)                                  \
    X(int, ::scanlab::Max<int>)                                         \
    X(::scanlab::AffineMap<unsigned>, ::scanlab::ComposeAffine<unsigned>) \
    X(int, ::scanlab::CountingOp<::scanlab::Plus<int>>)

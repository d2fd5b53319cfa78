// The byte every output array holds before the lab code runs, and every guard byte around it.
//
// The same on both backends (a GPU's fresh memory is usually zero, which hides an output a
// kernel never wrote). An output element still made of this byte after the scan was almost
// certainly never written: failure messages say so instead of printing it as a number.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace scanlab::grading {

inline constexpr unsigned char kFillByte = 0xA5;

template <class T>
bool holds_fill_pattern(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "element types are compared byte by byte");
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    for (unsigned char b : bytes) {
        if (b != kFillByte) return false;
    }
    return true;
}

}  // namespace scanlab::grading

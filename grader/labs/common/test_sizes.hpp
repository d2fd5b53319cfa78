// The sizes every section-based suite runs: empty, single, tiny, not powers of two, one less
// / equal / one more than a section, and many sections with a partial last one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace scanlab::grading {

inline const std::vector<unsigned>& section_sizes() {
    static const std::vector<unsigned> sizes{32, 256, 1024};
    return sizes;
}

inline constexpr std::size_t kManySections = 19;  // enough blocks to run several at once

inline std::vector<std::size_t> sizes_around_section(std::size_t section) {
    std::vector<std::size_t> sizes{0,           1,           2,           7,
                                   31,          100,         section - 1, section,
                                   section + 1, 2 * section - 1, 2 * section + 3,
                                   kManySections * section + section / 2 + 1};
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

}  // namespace scanlab::grading

// The sizes every section-based suite runs: empty, single, tiny, not powers of two, one less
// / equal / one more than a section, and many sections with a partial last one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace scanlab::grading {

// How one block covers its section: `threads` threads, `elements_per_thread` elements each.
struct SectionShape {
    unsigned threads;
    unsigned elements_per_thread = 1;
    unsigned section_size() const { return threads * elements_per_thread; }
};

inline std::string describe(SectionShape shape) {
    std::string text = "section_size = " + std::to_string(shape.section_size());
    if (shape.elements_per_thread != 1) {
        text += " (" + std::to_string(shape.threads) + " threads x " + std::to_string(shape.elements_per_thread) + ")";
    }
    return text;
}

// The block sizes every section scan is graded at: one warp, a common size, the largest.
inline std::vector<SectionShape> shapes_with_elements_per_thread(unsigned elements_per_thread) {
    std::vector<SectionShape> shapes;
    for (const unsigned threads : {32u, 256u, 1024u}) shapes.push_back({threads, elements_per_thread});
    return shapes;
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

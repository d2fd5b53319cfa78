#include "predicate_patterns.hpp"

namespace {

using namespace lab08;

std::vector<unsigned> expected_segmented(const std::vector<std::uint8_t>& p, const std::vector<std::uint8_t>& heads) {
    std::vector<unsigned> out(p.size(), 0);
    unsigned running = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (i % kWarp == 0 || heads[i]) running = 0;  // a warp's lane 0 always starts a segment
        out[i] = running;
        running += p[i];
    }
    return out;
}

// Head layouts: none, lane 0 only, every lane, every fourth lane, lane 31 only, random.
std::vector<Pattern> head_layouts(unsigned threads) {
    std::vector<Pattern> layouts;
    auto per_lane = [&](const std::string& name, auto head) {
        Pattern h{name, std::vector<std::uint8_t>(threads)};
        for (unsigned i = 0; i < threads; ++i) h.values[i] = head(i % kWarp) ? 1 : 0;
        layouts.push_back(h);
    };
    per_lane("no heads", [](unsigned) { return false; });
    per_lane("a head at lane 0", [](unsigned l) { return l == 0; });
    per_lane("a head at every lane", [](unsigned) { return true; });
    per_lane("a head every 4 lanes", [](unsigned l) { return l % 4 == 1; });
    per_lane("a head at lane 31", [](unsigned l) { return l == 31; });
    std::mt19937 random(threads + 1);
    Pattern r{"random heads", std::vector<std::uint8_t>(threads)};
    for (auto& v : r.values) v = random() % 5 == 0;
    layouts.push_back(r);
    return layouts;
}

TEST(Lab08Segmented, ExclusiveSum) {
    for (const unsigned threads : block_sizes()) {
        for (const Pattern& heads : head_layouts(threads)) {
            for (const Pattern& pattern : patterns(threads)) {
                SCOPED_TRACE(std::to_string(threads) + " threads, " + heads.name + ", predicates: " + pattern.name);
                EXPECT_TRUE(same(expected_segmented(pattern.values, heads.values),
                                 run_probe(Probe::segmented_exclusive, pattern.values, heads.values)));
            }
        }
    }
}

}  // namespace

// A set of lanes, warps or threads as a sentence names them: "lane 3", "lanes 0-3",
// "lanes 0, 2 and 5", "warps 0-2 and 11-18". One way of writing them for every report, so that a
// student reads the same words for a mask's lanes as for a block's warps.
#pragma once

#include <string>
#include <vector>

namespace scanlab::sim::detail {

// The numbers of `indices` (ascending, no repeats): a run of three or more as "first-last", the
// last two items joined by "and" ("0-3, 8 and 11").
std::string index_list(const std::vector<unsigned>& indices);

// The same after the word that goes with how many there are: "lane 0", "lanes 0 and 1".
std::string named_index_list(const char* one, const char* several, const std::vector<unsigned>& indices);

// The lanes a mask names, as named_index_list writes them: "lane 0", "lanes 0-3".
std::string lanes_of_mask(unsigned mask);

}  // namespace scanlab::sim::detail

#include "findings/index_list.hpp"

namespace scanlab::sim::detail {

std::string index_list(const std::vector<unsigned>& indices) {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    if (j >= i + 2) {
      items.push_back(std::to_string(indices[i]) + "-" + std::to_string(indices[j]));
    } else {
      // Two neighbours read better as two numbers than as a range of two.
      for (std::size_t k = i; k <= j; ++k) items.push_back(std::to_string(indices[k]));
    }
    i = j + 1;
  }
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += i + 1 == items.size() ? " and " : ", ";
    s += items[i];
  }
  return s;
}

std::string named_index_list(const char* one, const char* several, const std::vector<unsigned>& indices) {
  return std::string(indices.size() == 1 ? one : several) + " " + index_list(indices);
}

std::string lanes_of_mask(unsigned mask) {
  std::vector<unsigned> lanes;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (mask & (1u << lane)) lanes.push_back(lane);
  return named_index_list("lane", "lanes", lanes);
}

}  // namespace scanlab::sim::detail

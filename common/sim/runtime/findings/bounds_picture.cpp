#include "findings/bounds_picture.hpp"

#include <sstream>

#include "findings/report.hpp"

namespace scanlab::sim::detail {

std::string bounds_picture_json(const BoundsPicture& p) {
  std::ostringstream o;
  o << "{\"space\":\"" << json_escape(p.space) << "\",\"buffer\":\"" << json_escape(p.buffer)
    << "\",\"element_bytes\":" << p.element_bytes << ",\"buffer_cells\":" << p.buffer_cells << ",\"accesses\":[";
  for (std::size_t i = 0; i < p.accesses.size(); ++i) {
    const BoundsAccess& a = p.accesses[i];
    o << (i ? "," : "") << "{\"cell\":" << a.cell << ",\"block\":[" << a.block[0] << "," << a.block[1] << ","
      << a.block[2] << "],\"thread\":" << a.thread << ",\"role\":\"" << json_escape(a.role) << "\",\"file\":\""
      << json_escape(a.where.file) << "\",\"line\":" << a.where.line << "}";
  }
  o << "],\"truncated\":" << (p.truncated ? "true" : "false") << "}";
  return o.str();
}

}  // namespace scanlab::sim::detail

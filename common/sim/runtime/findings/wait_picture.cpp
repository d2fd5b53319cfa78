#include "findings/wait_picture.hpp"

#include <sstream>

#include "findings/report.hpp"

namespace scanlab::sim::detail {

std::string wait_picture_json(const WaitPicture& p) {
  std::ostringstream o;
  o << "{\"grid_blocks\":" << p.grid_blocks << ",\"resident\":" << p.resident << ",\"block_order\":\""
    << json_escape(p.block_order) << "\",\"word_bytes\":" << p.word_bytes
    << ",\"finished_not_shown\":" << p.finished_not_shown << ",\"not_started_not_shown\":" << p.not_started_not_shown
    << ",\"blocks\":[";
  for (std::size_t i = 0; i < p.blocks.size(); ++i) {
    const WaitBlock& b = p.blocks[i];
    o << (i ? "," : "") << "{\"linear\":" << b.linear << ",\"block\":[" << b.index[0] << "," << b.index[1] << ","
      << b.index[2] << "],\"state\":\"" << json_escape(b.state) << "\"";
    if (b.state == "waiting") {
      o << ",\"thread\":" << b.thread << ",\"file\":\"" << json_escape(b.where.file) << "\",\"line\":" << b.where.line
        << ",\"word\":\"" << json_escape(b.word) << "\",\"seen\":" << b.seen << ",\"waits_for\":" << b.waits_for
        << ",\"waits_for_from\":\"" << (b.waits_for < 0 ? "" : b.waits_for_by_order ? "block order" : "word") << "\"";
    }
    o << "}";
  }
  o << "]}";
  return o.str();
}

}  // namespace scanlab::sim::detail

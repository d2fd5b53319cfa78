#include "findings/picture.hpp"

#include <sstream>

#include "findings/report.hpp"

namespace scanlab::sim::detail {
namespace {

void write_place(std::ostringstream& o, const SourceLocation& where) {
  o << "\"file\":\"" << json_escape(where.file) << "\",\"line\":" << where.line;
}

void write_access(std::ostringstream& o, const PictureAccess& a) {
  o << "{\"cell\":" << a.cell << ",\"interval\":" << a.interval << ",\"thread\":" << a.thread << ",\"role\":\""
    << json_escape(a.role) << "\",";
  write_place(o, a.where);
  o << "}";
}

}  // namespace

std::string memory_subject_json(const MemorySubject& s) {
  std::ostringstream o;
  if (s.space == MemorySpace::global) {
    o << "{\"space\":\"global\",\"buffer\":\"" << json_escape(s.buffer) << "\",\"byte\":" << s.byte << "}";
    return o.str();
  }
  o << "{\"space\":\"shared\",\"variable\":\"" << json_escape(s.variable) << "\",\"byte\":" << s.byte
    << ",\"block\":[" << s.block[0] << "," << s.block[1] << "," << s.block[2] << "]}";
  return o.str();
}

namespace {

std::string steps_json(const MemorySubject& subject, const StepPicture& p) {
  static const char kHex[] = "0123456789abcdef";
  std::ostringstream o;
  o << "{\"kind\":\"steps\",\"memory\":" << memory_subject_json(subject) << ",\"run\":" << p.run
    << ",\"variable_bytes\":" << p.variable_bytes << ",\"steps\":[";
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const PictureStep& s = p.steps[i];
    std::string hex(2 * s.bytes.size(), '0');
    for (std::size_t k = 0; k < s.bytes.size(); ++k) {
      const auto byte = static_cast<unsigned char>(s.bytes[k]);
      hex[2 * k] = kHex[byte >> 4];
      hex[2 * k + 1] = kHex[byte & 15];
    }
    o << (i ? "," : "") << "{\"interval\":" << s.interval << ",\"barrier\":{";
    write_place(o, s.barrier);
    o << "},\"bytes\":\"" << hex << "\"}";
  }
  o << "],\"truncated\":" << (p.truncated ? "true" : "false") << "}";
  return o.str();
}

}  // namespace

std::string picture_json(const RacePicture& p) {
  if (p.steps) return steps_json(p.subject, *p.steps);
  std::ostringstream o;
  o << "{\"kind\":\"race\",\"memory\":" << memory_subject_json(p.subject) << ",\"element_bytes\":" << p.element_bytes
    << ",\"first_cell\":" << p.first_cell << ",\"cells\":" << p.cells << ",\"variable_cells\":" << p.variable_cells
    << ",\"intervals\":[";
  for (std::size_t i = 0; i < p.intervals.size(); ++i) {
    const PictureInterval& v = p.intervals[i];
    o << (i ? "," : "") << "{\"number\":" << v.number;
    if (v.barrier_known) {
      o << ",\"barrier\":{";
      write_place(o, v.barrier);
      o << "}";
    }
    o << "}";
  }
  o << "],\"accesses\":[";
  for (std::size_t i = 0; i < p.accesses.size(); ++i) {
    if (i) o << ",";
    write_access(o, p.accesses[i]);
  }
  o << "],\"racing\":[";
  write_access(o, p.racing[0]);
  o << ",";
  write_access(o, p.racing[1]);
  o << "],\"truncated\":" << (p.truncated ? "true" : "false") << "}";
  return o.str();
}

}  // namespace scanlab::sim::detail

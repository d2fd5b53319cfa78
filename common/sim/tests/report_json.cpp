#include "report_json.hpp"

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace scanlab::sim::testing {
namespace {

// Just enough JSON for the report format: objects, arrays, strings, numbers, true/false/null.
struct Json {
  enum class Type { null, boolean, number, string, array, object } type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  const Json& at(const std::string& key) const {
    auto it = object.find(key);
    if (type != Type::object || it == object.end()) throw std::runtime_error("missing key '" + key + "'");
    return it->second;
  }
  bool has(const std::string& key) const { return type == Type::object && object.count(key) != 0; }
};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Json document() {
    Json v = value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(what + " at offset " + std::to_string(pos_));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (text_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }

  Json value() {
    Json v;
    const char c = peek();
    if (c == '{') {
      v.type = Json::Type::object;
      ++pos_;
      if (peek() == '}') {
        ++pos_;
        return v;
      }
      for (;;) {
        std::string key = string();
        expect(':');
        v.object[key] = value();
        if (peek() != ',') break;
        ++pos_;
      }
      expect('}');
    } else if (c == '[') {
      v.type = Json::Type::array;
      ++pos_;
      if (peek() == ']') {
        ++pos_;
        return v;
      }
      for (;;) {
        v.array.push_back(value());
        if (peek() != ',') break;
        ++pos_;
      }
      expect(']');
    } else if (c == '"') {
      v.type = Json::Type::string;
      v.string = string();
    } else if (literal("true")) {
      v.type = Json::Type::boolean;
      v.boolean = true;
    } else if (literal("false")) {
      v.type = Json::Type::boolean;
    } else if (literal("null")) {
      v.type = Json::Type::null;
    } else {
      char* end = nullptr;
      v.type = Json::Type::number;
      v.number = std::strtod(text_.c_str() + pos_, &end);
      if (end == text_.c_str() + pos_) fail("expected a value");
      pos_ = static_cast<std::size_t>(end - text_.c_str());
    }
    return v;
  }

  std::string string() {
    expect('"');
    std::string s;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c != '\\') {
        s += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      c = text_[pos_++];
      switch (c) {
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) fail("short \\u escape");
          const unsigned code = static_cast<unsigned>(std::stoul(text_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
          if (code > 0x7f) fail("non-ASCII \\u escape");  // the simulator escapes control characters only
          s += static_cast<char>(code);
          break;
        }
        default: s += c;  // \" \\ \/
      }
    }
    expect('"');
    return s;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

std::array<unsigned, 3> index3(const Json& v) {
  if (v.type != Json::Type::array || v.array.size() != 3) throw std::runtime_error("expected [x,y,z]");
  return {static_cast<unsigned>(v.array[0].number), static_cast<unsigned>(v.array[1].number),
          static_cast<unsigned>(v.array[2].number)};
}

ReportMemory to_memory(const Json& m) {
  ReportMemory memory;
  memory.space = m.at("space").string;
  memory.byte = static_cast<std::size_t>(m.at("byte").number);
  if (memory.space == "shared") {
    memory.variable = m.at("variable").string;
    memory.block = index3(m.at("block"));
  } else if (memory.space == "global") {
    memory.buffer = m.at("buffer").string;
  } else {
    throw std::runtime_error("memory space '" + memory.space + "'");
  }
  return memory;
}

PictureAccess to_access(const Json& a) {
  return PictureAccess{static_cast<long>(a.at("cell").number), static_cast<unsigned>(a.at("interval").number),
                       static_cast<unsigned>(a.at("thread").number), a.at("role").string,
                       static_cast<unsigned>(a.at("line").number)};
}

ReportPicture to_picture(const Json& p) {
  ReportPicture picture;
  picture.memory = to_memory(p.at("memory"));
  picture.first_cell = static_cast<long>(p.at("first_cell").number);
  picture.cells = static_cast<long>(p.at("cells").number);
  for (const Json& v : p.at("intervals").array) picture.intervals.push_back(static_cast<unsigned>(v.at("number").number));
  for (const Json& a : p.at("accesses").array) picture.accesses.push_back(to_access(a));
  const std::vector<Json>& racing = p.at("racing").array;
  if (racing.size() != 2) throw std::runtime_error("a picture's racing pair has " + std::to_string(racing.size()) + " accesses");
  picture.racing = {to_access(racing[0]), to_access(racing[1])};
  return picture;
}

JsonReport to_report(const Json& j) {
  JsonReport r;
  r.kind = j.at("kind").string;
  const std::string& severity = j.at("severity").string;
  if (severity != "error" && severity != "warning") throw std::runtime_error("severity '" + severity + "'");
  r.error = severity == "error";
  r.headline = j.at("headline").string;
  r.location = j.at("location").string;
  r.fix = j.at("fix").string;
  for (const Json& p : j.at("parties").array) {
    ReportParty party;
    party.role = p.at("role").string;
    party.file = p.at("file").string;
    party.line = static_cast<unsigned>(p.at("line").number);
    if (p.has("block")) party.block = index3(p.at("block"));
    if (p.has("thread")) party.thread = index3(p.at("thread"));
    r.parties.push_back(party);
  }
  if (j.has("memory")) r.memory = to_memory(j.at("memory"));
  if (j.has("picture")) r.picture = to_picture(j.at("picture"));
  if (j.has("handoff")) {
    r.handoff_missing = j.at("handoff").at("missing").string;
    if (r.handoff_missing != "release" && r.handoff_missing != "acquire" && r.handoff_missing != "both")
      throw std::runtime_error("handoff missing '" + r.handoff_missing + "'");
  }
  return r;
}

}  // namespace

std::vector<JsonReport> parse_reports(const std::string& text) {
  std::vector<JsonReport> reports;
  std::istringstream lines(text);
  std::string line;
  for (unsigned number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      reports.push_back(to_report(Parser(line).document()));
    } catch (const std::exception& e) {
      throw std::runtime_error("report line " + std::to_string(number) + ": " + e.what() + ": " + line);
    }
  }
  return reports;
}

}  // namespace scanlab::sim::testing

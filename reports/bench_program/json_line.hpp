// One JSON object per line on stdout: the records reports/bench assembles into the results
// file. Only what the records need: strings, numbers, booleans, null and nested objects.
#pragma once

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace scanlab::bench {

class JsonObject {
public:
    JsonObject& field(const std::string& key, const std::string& value) {
        return raw(key, quote(value));
    }
    JsonObject& field(const std::string& key, const char* value) { return field(key, std::string(value)); }
    JsonObject& field(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }
    JsonObject& field(const std::string& key, double value) {
        if (!std::isfinite(value)) return raw(key, "null");
        std::ostringstream s;
        s.precision(9);
        s << value;
        return raw(key, s.str());
    }
    JsonObject& field(const std::string& key, unsigned long long value) { return raw(key, std::to_string(value)); }
    JsonObject& field(const std::string& key, unsigned value) { return raw(key, std::to_string(value)); }
    JsonObject& field(const std::string& key, int value) { return raw(key, std::to_string(value)); }
    JsonObject& field(const std::string& key, const JsonObject& value) { return raw(key, value.text()); }
    JsonObject& null(const std::string& key) { return raw(key, "null"); }
    // A string that is empty, or a count that is zero, is written as null.
    JsonObject& string_or_null(const std::string& key, const std::string& value) {
        return value.empty() ? null(key) : field(key, value);
    }
    JsonObject& count_or_null(const std::string& key, unsigned value) {
        return value == 0 ? null(key) : field(key, value);
    }

    std::string text() const { return "{" + body_ + "}"; }
    // Written and flushed at once: the launcher reads the records as they come.
    void print_line() const {
        std::printf("%s\n", text().c_str());
        std::fflush(stdout);
    }

private:
    JsonObject& raw(const std::string& key, const std::string& value) {
        if (!body_.empty()) body_ += ", ";
        body_ += quote(key) + ": " + value;
        return *this;
    }
    static std::string quote(const std::string& s) {
        std::string out = "\"";
        for (const char c : s) {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += c;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += c;
            }
        }
        return out + "\"";
    }
    std::string body_;
};

}  // namespace scanlab::bench

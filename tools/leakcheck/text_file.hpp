// Whole-file reads and writes, and splitting a config-style line into fields.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace vt::leakcheck {

// Throws UsageError when the file cannot be read or written.
std::string read_text(const std::filesystem::path& file);
void write_text(const std::filesystem::path& file, std::string_view text);

// Walks the blank-separated fields of one line; rest() is everything after the fields taken.
class Fields {
 public:
  explicit Fields(std::string_view line) : line_(line) {}
  std::string_view next();  // empty when no field is left
  std::string_view rest();  // trimmed
  bool done();

 private:
  void skip_blanks();
  std::string_view line_;
  size_t pos_ = 0;
};

}  // namespace vt::leakcheck

#include "text_file.hpp"

#include <fstream>
#include <sstream>

#include "config.hpp"

namespace vt::leakcheck {

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) throw UsageError("cannot read " + file.string());
  return std::move(text).str();
}

void write_text(const std::filesystem::path& file, std::string_view text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out.flush()) throw UsageError("cannot write " + file.string());
}

void Fields::skip_blanks() {
  while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t' || line_[pos_] == '\r')) ++pos_;
}

std::string_view Fields::next() {
  skip_blanks();
  const size_t start = pos_;
  while (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t' && line_[pos_] != '\r') ++pos_;
  return line_.substr(start, pos_ - start);
}

std::string_view Fields::rest() {
  skip_blanks();
  std::string_view r = line_.substr(pos_);
  while (!r.empty() && (r.back() == ' ' || r.back() == '\t' || r.back() == '\r')) r.remove_suffix(1);
  pos_ = line_.size();
  return r;
}

bool Fields::done() {
  skip_blanks();
  return pos_ >= line_.size();
}

}  // namespace vt::leakcheck

// The pattern language of the config's rules: identifier patterns (exact, prefix at a word
// boundary, whole word, glob) and case-insensitive globs for strings and header paths.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vt::leakcheck {

// Splits an identifier into words at underscores, letter/digit changes and case changes:
// "kCUDAGraph_v2" -> k, CUDA, Graph, v, 2. Bytes outside ASCII count as lowercase letters.
std::vector<std::string_view> split_words(std::string_view identifier);

// `*` any run, `?` one character, `[a-z]` / `[!a-z]` a class; everything else literal.
bool glob_match(std::string_view pattern, std::string_view text, bool ignore_case);

// Empty when `pattern` is a well-formed glob, else why not.
std::optional<std::string> glob_error(std::string_view pattern);

class IdentifierPattern {
 public:
  enum class Form {
    exact,   // NAME: the identifier itself, case-sensitive
    prefix,  // NAME*: starts with NAME and the next character does not continue NAME's last word
    word,    // *NAME*: one of the identifier's words is NAME, ignoring case
    glob,    // anything else: a case-sensitive glob over the whole identifier
  };

  // Empty with `error` set when the text is not a valid pattern.
  static std::optional<IdentifierPattern> parse(std::string_view text, std::string& error);

  bool matches(std::string_view identifier) const;
  Form form() const { return form_; }
  const std::string& text() const { return text_; }

 private:
  IdentifierPattern(Form form, std::string text, std::string body)
      : form_(form), text_(std::move(text)), body_(std::move(body)) {}

  Form form_;
  std::string text_;  // as written in the config
  std::string body_;  // the name without the stars
};

// A header path matches when the glob matches the whole path or any tail of it that starts
// after a '/', ignoring case: "backends/x/*" matches "../backends/x/queue.hpp".
bool include_matches(std::string_view glob, std::string_view path);

}  // namespace vt::leakcheck

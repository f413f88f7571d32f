#include "pattern.hpp"

#include <algorithm>
#include <cstddef>

namespace vt::leakcheck {
namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return is_upper(c) || is_lower(c) || is_digit(c) || c == '_'; }
bool is_word_char(char c) { return is_upper(c) || is_lower(c) || is_digit(c); }

char fold(char c, bool ignore_case) { return ignore_case && is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return fold(x, true) == fold(y, true); });
}

// Parses the class starting at pattern[open] == '['. Returns the index after its ']', or npos
// when the class is not closed.
size_t class_end(std::string_view pattern, size_t open) {
  size_t i = open + 1;
  if (i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^')) ++i;
  if (i < pattern.size() && pattern[i] == ']') ++i;  // a leading ']' is a member
  while (i < pattern.size() && pattern[i] != ']') ++i;
  return i < pattern.size() ? i + 1 : std::string_view::npos;
}

bool in_class(std::string_view body, char c, bool ignore_case) {
  bool negate = false;
  size_t i = 0;
  if (!body.empty() && (body[0] == '!' || body[0] == '^')) {
    negate = true;
    i = 1;
  }
  const char fc = fold(c, ignore_case);
  bool found = false;
  for (; i < body.size(); ++i) {
    if (i + 2 < body.size() && body[i + 1] == '-') {
      const char lo = fold(body[i], ignore_case);
      const char hi = fold(body[i + 2], ignore_case);
      found = found || (fc >= lo && fc <= hi) || (c >= body[i] && c <= body[i + 2]);
      i += 2;
    } else {
      found = found || fold(body[i], ignore_case) == fc;
    }
  }
  return found != negate;
}

// Matches one pattern element at `p` against `c`; on success sets `next` past the element.
bool match_one(std::string_view pattern, size_t p, char c, bool ignore_case, size_t& next) {
  if (pattern[p] == '?') {
    next = p + 1;
    return true;
  }
  if (pattern[p] == '[') {
    const size_t end = class_end(pattern, p);
    if (end != std::string_view::npos) {
      next = end;
      return in_class(pattern.substr(p + 1, end - p - 2), c, ignore_case);
    }
  }
  next = p + 1;
  return fold(pattern[p], ignore_case) == fold(c, ignore_case);
}

bool all_name_chars(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_name_char); }

// True when a word of `identifier` starts at `at`, or `at` is its end or a separator.
bool word_boundary(std::string_view identifier, size_t at) {
  if (at >= identifier.size() || !is_word_char(identifier[at])) return true;
  for (std::string_view w : split_words(identifier)) {
    if (static_cast<size_t>(w.data() - identifier.data()) == at) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string_view> split_words(std::string_view id) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < id.size()) {
    const size_t start = i;
    if (!is_word_char(id[i])) {
      ++i;
      continue;
    }
    if (is_digit(id[i])) {
      while (i < id.size() && is_digit(id[i])) ++i;
    } else if (is_lower(id[i])) {
      while (i < id.size() && is_lower(id[i])) ++i;
    } else {
      size_t j = i;
      while (j < id.size() && is_upper(id[j])) ++j;
      if (j < id.size() && is_lower(id[j])) {
        // "HTTPServer": the last capital of a run starts the next word.
        i = j - i == 1 ? j : j - 1;
        if (i == j) {
          while (i < id.size() && is_lower(id[i])) ++i;
        }
      } else {
        i = j;
      }
    }
    words.push_back(id.substr(start, i - start));
  }
  return words;
}

bool glob_match(std::string_view pattern, std::string_view text, bool ignore_case) {
  size_t p = 0;
  size_t t = 0;
  size_t star = std::string_view::npos;
  size_t star_text = 0;
  while (t < text.size()) {
    size_t next = 0;
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (p < pattern.size() && match_one(pattern, p, text[t], ignore_case, next)) {
      p = next;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<std::string> glob_error(std::string_view pattern) {
  if (pattern.empty()) return "empty pattern";
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '[') continue;
    const size_t end = class_end(pattern, i);
    if (end == std::string_view::npos) return "unclosed '[' in pattern '" + std::string(pattern) + "'";
    i = end - 1;
  }
  return std::nullopt;
}

std::optional<IdentifierPattern> IdentifierPattern::parse(std::string_view text, std::string& error) {
  const std::string t(text);
  if (text.size() > 2 && text.front() == '*' && text.back() == '*' && all_name_chars(text.substr(1, text.size() - 2))) {
    const std::string word(text.substr(1, text.size() - 2));
    if (split_words(word).size() != 1) {
      error = "'" + t + "': a *word* pattern must be one word (no underscore, case or digit change)";
      return std::nullopt;
    }
    return IdentifierPattern(Form::word, t, word);
  }
  if (text.size() > 1 && text.back() == '*' && all_name_chars(text.substr(0, text.size() - 1))) {
    return IdentifierPattern(Form::prefix, t, std::string(text.substr(0, text.size() - 1)));
  }
  if (all_name_chars(text)) return IdentifierPattern(Form::exact, t, t);
  if (auto why = glob_error(text)) {
    error = *why;
    return std::nullopt;
  }
  return IdentifierPattern(Form::glob, t, t);
}

bool IdentifierPattern::matches(std::string_view identifier) const {
  switch (form_) {
    case Form::exact: return identifier == body_;
    case Form::prefix: return identifier.substr(0, body_.size()) == body_ && word_boundary(identifier, body_.size());
    case Form::word: {
      const std::vector<std::string_view> words = split_words(identifier);
      return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return iequals(w, body_); });
    }
    case Form::glob: return glob_match(body_, identifier, false);
  }
  return false;
}

bool include_matches(std::string_view glob, std::string_view path) {
  if (glob_match(glob, path, true)) return true;
  for (size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
    if (glob_match(glob, path.substr(slash + 1), true)) return true;
  }
  return false;
}

}  // namespace vt::leakcheck

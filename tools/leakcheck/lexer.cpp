#include "lexer.hpp"

#include <algorithm>
#include <cstddef>

namespace vt::leakcheck {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }

size_t newline_length(std::string_view raw, size_t i) {
  if (i < raw.size() && raw[i] == '\n') return 1;
  if (i + 1 < raw.size() && raw[i] == '\r' && raw[i + 1] == '\n') return 2;
  return 0;
}

// Translation phase 2: backslash-newline pairs removed and CRLF folded to '\n'. Every remaining
// character keeps its physical offset (raw strings are read from the physical text, where
// splices are reverted) and its physical line.
struct Spliced {
  std::string text;
  std::vector<size_t> offset;
  std::vector<int> line;
};

Spliced splice(std::string_view raw) {
  Spliced s;
  s.text.reserve(raw.size());
  s.offset.reserve(raw.size());
  s.line.reserve(raw.size());
  int line = 1;
  size_t i = 0;
  while (i < raw.size()) {
    if (raw[i] == '\\') {
      // GCC also splices when blanks sit between the backslash and the newline.
      size_t j = i + 1;
      while (j < raw.size() && (raw[j] == ' ' || raw[j] == '\t')) ++j;
      if (const size_t nl = newline_length(raw, j); nl > 0) {
        i = j + nl;
        ++line;
        continue;
      }
    }
    const size_t nl = newline_length(raw, i);
    s.text.push_back(nl > 0 ? '\n' : raw[i]);
    s.offset.push_back(i);
    s.line.push_back(line);
    if (nl > 0) ++line;
    i += nl > 0 ? nl : 1;
  }
  return s;
}

bool is_encoding_prefix(std::string_view w) { return w == "u8" || w == "u" || w == "U" || w == "L"; }
bool is_raw_prefix(std::string_view w) { return w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR"; }
bool is_raw_delimiter_char(char c) {
  return c != ' ' && c != '(' && c != ')' && c != '\\' && c != '\t' && c != '\v' && c != '\f' && c != '\r' && c != '\n';
}

class Lexer {
 public:
  explicit Lexer(std::string_view raw) : raw_(raw), src_(splice(raw)) {}

  LexedFile run() {
    const std::string& s = src_.text;
    while (pos_ < s.size()) {
      const char c = s[pos_];
      if (c == '\n') {
        line_start_ = true;
        directive_ = -1;
        expect_name_ = false;
        ++pos_;
      } else if (is_blank(c)) {
        ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '/') {
        line_comment();
      } else if (c == '/' && at(pos_ + 1) == '*') {
        block_comment();
      } else if (line_start_ && c == '#') {
        begin_directive();
      } else {
        line_start_ = false;
        token(c);
      }
    }
    return std::move(out_);
  }

 private:
  char at(size_t i) const { return i < src_.text.size() ? src_.text[i] : '\0'; }

  void token(char c) {
    if ((c == '<' || c == '"') && header_name_expected()) {
      header_name();
    } else if (is_ident_start(c)) {
      identifier_or_literal();
    } else if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
      number();
    } else if (c == '"') {
      quoted(pos_, pos_, TokenKind::string);
    } else if (c == '\'') {
      quoted(pos_, pos_, TokenKind::character);
    } else {
      emit(TokenKind::punct, std::string(1, c), pos_);
      ++pos_;
    }
  }

  void emit(TokenKind kind, std::string text, size_t start) {
    if (expect_name_) {
      expect_name_ = false;
      if (kind == TokenKind::identifier) {
        Directive& d = out_.directives.back();
        d.name = text;
        d.name_token = static_cast<int>(out_.tokens.size());
      }
    }
    out_.tokens.push_back(Token{kind, std::move(text), src_.line[start], directive_});
  }

  void begin_directive() {
    line_start_ = false;
    directive_ = static_cast<int>(out_.directives.size());
    out_.directives.push_back(Directive{"", src_.line[pos_], -1});
    out_.tokens.push_back(Token{TokenKind::punct, "#", src_.line[pos_], directive_});
    expect_name_ = true;
    ++pos_;
  }

  void line_comment() {
    const size_t start = pos_;
    const size_t end = std::min(src_.text.find('\n', pos_), src_.text.size());
    out_.comments.push_back(Comment{src_.text.substr(start + 2, end - start - 2), src_.line[start]});
    pos_ = end;
  }

  void block_comment() {
    const size_t start = pos_;
    const size_t close = src_.text.find("*/", pos_ + 2);
    const size_t end = close == std::string::npos ? src_.text.size() : close;
    out_.comments.push_back(Comment{src_.text.substr(start + 2, end - start - 2), src_.line[start]});
    pos_ = close == std::string::npos ? end : close + 2;
  }

  // After `#include` (and its relatives) and inside `__has_include(`, `<...>` and `"..."` are
  // header names, not comparisons or string literals.
  bool header_name_expected() const {
    if (directive_ < 0) return false;
    const std::vector<Token>& t = out_.tokens;
    const Directive& d = out_.directives[static_cast<size_t>(directive_)];
    if (d.name_token >= 0 && d.name_token == static_cast<int>(t.size()) - 1) {
      return d.name == "include" || d.name == "include_next" || d.name == "import";
    }
    if (t.size() < 2) return false;
    const Token& paren = t[t.size() - 1];
    const Token& fn = t[t.size() - 2];
    return paren.text == "(" && paren.kind == TokenKind::punct && fn.directive == directive_ &&
           (fn.text == "__has_include" || fn.text == "__has_include_next");
  }

  void header_name() {
    const size_t start = pos_;
    const char close = src_.text[pos_] == '<' ? '>' : '"';
    size_t i = pos_ + 1;
    while (i < src_.text.size() && src_.text[i] != close && src_.text[i] != '\n') ++i;
    std::string path = src_.text.substr(start + 1, i - start - 1);
    pos_ = i < src_.text.size() && src_.text[i] == close ? i + 1 : i;
    emit(TokenKind::header_name, std::move(path), start);
  }

  void identifier_or_literal() {
    const size_t start = pos_;
    while (pos_ < src_.text.size() && is_ident_char(src_.text[pos_])) ++pos_;
    const std::string_view word(src_.text.data() + start, pos_ - start);
    const char next = at(pos_);
    if (next == '"' && is_raw_prefix(word)) {
      raw_string(start);
    } else if ((next == '"' || next == '\'') && is_encoding_prefix(word)) {
      quoted(start, pos_, next == '"' ? TokenKind::string : TokenKind::character);
    } else {
      emit(TokenKind::identifier, std::string(word), start);
    }
  }

  // A pp-number: digit separators and exponent signs belong to it, so `1'000` opens no
  // character literal.
  void number() {
    const size_t start = pos_++;
    while (pos_ < src_.text.size()) {
      const char c = src_.text[pos_];
      const char next = at(pos_ + 1);
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (next == '+' || next == '-')) {
        pos_ += 2;
      } else if (c == '\'' && is_ident_char(next)) {
        pos_ += 2;
      } else if (is_ident_char(c) || c == '.') {
        ++pos_;
      } else {
        break;
      }
    }
    emit(TokenKind::number, src_.text.substr(start, pos_ - start), start);
  }

  // An ordinary string or character literal; an unterminated one ends at the line's end, as a
  // compiler recovers (an apostrophe in `#error don't` must not swallow the file).
  void quoted(size_t start, size_t quote, TokenKind kind) {
    const std::string& s = src_.text;
    const char q = s[quote];
    size_t i = quote + 1;
    while (i < s.size() && s[i] != q && s[i] != '\n') i += (s[i] == '\\' && at(i + 1) != '\n') ? 2 : 1;
    i = std::min(i, s.size());
    std::string content = s.substr(quote + 1, i - quote - 1);
    pos_ = i < s.size() && s[i] == q ? i + 1 : i;
    skip_suffix();
    emit(kind, std::move(content), start);
  }

  // Raw strings are read from the physical text: splices inside them are not splices.
  void raw_string(size_t start) {
    const size_t quote = pos_;
    size_t p = src_.offset[quote] + 1;
    std::string delimiter;
    while (p < raw_.size() && delimiter.size() <= 16 && is_raw_delimiter_char(raw_[p])) {
      delimiter.push_back(raw_[p++]);
    }
    if (p >= raw_.size() || raw_[p] != '(' || delimiter.size() > 16) {
      quoted(start, quote, TokenKind::string);
      return;
    }
    const std::string closing = ")" + delimiter + "\"";
    const size_t close = raw_.find(closing, p + 1);
    const size_t content_end = close == std::string_view::npos ? raw_.size() : close;
    std::string content(raw_.substr(p + 1, content_end - p - 1));
    const size_t after = close == std::string_view::npos ? raw_.size() : close + closing.size();
    pos_ = static_cast<size_t>(std::lower_bound(src_.offset.begin(), src_.offset.end(), after) - src_.offset.begin());
    skip_suffix();
    emit(TokenKind::string, std::move(content), start);
  }

  void skip_suffix() {
    if (!is_ident_start(at(pos_))) return;
    while (pos_ < src_.text.size() && is_ident_char(src_.text[pos_])) ++pos_;
  }

  std::string_view raw_;
  Spliced src_;
  size_t pos_ = 0;
  LexedFile out_;
  bool line_start_ = true;
  bool expect_name_ = false;
  int directive_ = -1;
};

}  // namespace

LexedFile lex(std::string_view source) { return Lexer(source).run(); }

}  // namespace vt::leakcheck

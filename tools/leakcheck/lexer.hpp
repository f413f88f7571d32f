// A C++ lexer just deep enough to tell code from comments and literals. It yields identifiers,
// literals, header names and punctuation with the physical line each starts on, the comments
// (where exemption markers live), and the preprocessor directive each token belongs to.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace vt::leakcheck {

enum class TokenKind { identifier, number, string, character, header_name, punct };

struct Token {
  TokenKind kind = TokenKind::punct;
  // Strings and characters: the content between the quotes, escapes left as written, without
  // encoding prefix or suffix. Header names: the path. Otherwise the spelling.
  std::string text;
  int line = 0;        // physical line of the first character, from 1
  int directive = -1;  // index into LexedFile::directives, -1 outside a directive
};

struct Directive {
  std::string name;     // "include", "ifdef", ...; empty for a null directive
  int line = 0;         // line of the '#'
  int name_token = -1;  // index of the name in LexedFile::tokens
};

struct Comment {
  std::string text;  // without the delimiters
  int line = 0;      // physical line of the comment's first character
};

struct LexedFile {
  std::vector<Token> tokens;
  std::vector<Comment> comments;
  std::vector<Directive> directives;
};

LexedFile lex(std::string_view source);

}  // namespace vt::leakcheck

// The lexer on each construct that fools a text search, with the lines tokens report.
#include "lexer.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vt::leakcheck {
namespace {

// "kind:text@line" for every token, space-separated: one string to compare per case.
std::string summary(const LexedFile& f) {
  std::string s;
  for (const Token& t : f.tokens) {
    const char* kind = "";
    switch (t.kind) {
      case TokenKind::identifier: kind = "id"; break;
      case TokenKind::number: kind = "num"; break;
      case TokenKind::string: kind = "str"; break;
      case TokenKind::character: kind = "chr"; break;
      case TokenKind::header_name: kind = "hdr"; break;
      case TokenKind::punct: kind = "p"; break;
    }
    if (!s.empty()) s += ' ';  // not "" + std::string: GCC 12 at -O3 warns (a false -Wrestrict)
    s += std::string(kind) + ":" + t.text + "@" + std::to_string(t.line);
  }
  return s;
}

std::string identifiers(const LexedFile& f) {
  std::string s;
  for (const Token& t : f.tokens) {
    if (t.kind != TokenKind::identifier) continue;
    if (!s.empty()) s += ' ';
    s += t.text + "@" + std::to_string(t.line);
  }
  return s;
}

TEST(Lexer, LineAndBlockComments) {
  const LexedFile f = lex("a // b c\n/* d\n e */ f\ng");
  EXPECT_EQ(identifiers(f), "a@1 f@3 g@4");
  ASSERT_EQ(f.comments.size(), 2u);
  EXPECT_EQ(f.comments[0].text, " b c");
  EXPECT_EQ(f.comments[0].line, 1);
  EXPECT_EQ(f.comments[1].text, " d\n e ");
  EXPECT_EQ(f.comments[1].line, 2);
}

TEST(Lexer, SlashesInsideAStringAreNoComment) {
  EXPECT_EQ(summary(lex("s = \"a // b /* c\"; x")), "id:s@1 p:=@1 str:a // b /* c@1 p:;@1 id:x@1");
}

TEST(Lexer, QuoteInsideACommentOpensNoString) {
  EXPECT_EQ(identifiers(lex("/* \" */ x // \"\ny")), "x@1 y@2");
  EXPECT_EQ(identifiers(lex("// it's\nz")), "z@2");
}

TEST(Lexer, EscapedQuotesStayInTheString) {
  EXPECT_EQ(summary(lex(R"(a "x\"y\\" b)")), R"(id:a@1 str:x\"y\\@1 id:b@1)");
}

TEST(Lexer, CharacterLiterals) {
  EXPECT_EQ(summary(lex("a '\"' b '\\'' c")), "id:a@1 chr:\"@1 id:b@1 chr:\\'@1 id:c@1");
  EXPECT_EQ(summary(lex("u8'a' L'b' u'c' U'd'")), "chr:a@1 chr:b@1 chr:c@1 chr:d@1");
}

TEST(Lexer, UnterminatedLiteralEndsAtTheLine) {
  EXPECT_EQ(identifiers(lex("#error don't\nnext")), "error@1 don@1 next@2");
  EXPECT_EQ(identifiers(lex("x = \"open\ny")), "x@1 y@2");
}

TEST(Lexer, RawStringWithDelimiter) {
  const LexedFile f = lex("a R\"xy(q )\" )x\" r)xy\" b");
  EXPECT_EQ(summary(f), "id:a@1 str:q )\" )x\" r@1 id:b@1");
}

TEST(Lexer, RawStringAcrossLinesKeepsLineNumbers) {
  EXPECT_EQ(summary(lex("a R\"(1\n2\n3)\" b\nc")), "id:a@1 str:1\n2\n3@1 id:b@3 id:c@4");
}

TEST(Lexer, RawStringRevertsSplices) {
  // Inside a raw string a backslash-newline is two characters, not a continuation.
  EXPECT_EQ(summary(lex("R\"(a\\\nb)\" c")), "str:a\\\nb@1 id:c@2");
}

TEST(Lexer, EncodingPrefixes) {
  EXPECT_EQ(summary(lex("u8\"a\" u\"b\" U\"c\" L\"d\" u8R\"(e)\" uR\"(f)\" UR\"(g)\" LR\"(h)\" R\"(i)\"")),
            "str:a@1 str:b@1 str:c@1 str:d@1 str:e@1 str:f@1 str:g@1 str:h@1 str:i@1");
}

TEST(Lexer, PrefixLikeIdentifiersStayIdentifiers) {
  EXPECT_EQ(summary(lex("R u8 LR (x)")), "id:R@1 id:u8@1 id:LR@1 p:(@1 id:x@1 p:)@1");
}

TEST(Lexer, UserDefinedLiteralSuffix) {
  EXPECT_EQ(summary(lex("\"a\"_sv x 'c'_ch y")), "str:a@1 id:x@1 chr:c@1 id:y@1");
}

TEST(Lexer, DigitSeparatorsOpenNoCharacterLiteral) {
  EXPECT_EQ(summary(lex("1'000'000 x")), "num:1'000'000@1 id:x@1");
  EXPECT_EQ(summary(lex("0x1'F; y")), "num:0x1'F@1 p:;@1 id:y@1");
  EXPECT_EQ(summary(lex("0b1010'1010u z")), "num:0b1010'1010u@1 id:z@1");
}

TEST(Lexer, NumbersWithExponentsAndSuffixes) {
  EXPECT_EQ(summary(lex("1e+5 .5e-3f 0x1p-2 12ull")), "num:1e+5@1 num:.5e-3f@1 num:0x1p-2@1 num:12ull@1");
}

TEST(Lexer, LineContinuationJoinsAnIdentifier) { EXPECT_EQ(identifiers(lex("ab\\\ncd ef")), "abcd@1 ef@2"); }

TEST(Lexer, LineContinuationExtendsALineComment) {
  EXPECT_EQ(identifiers(lex("a // note \\\nstill comment\nb")), "a@1 b@3");
  EXPECT_EQ(identifiers(lex("a // note \\  \nstill comment\nb")), "a@1 b@3");
}

TEST(Lexer, CrLfLineEndings) { EXPECT_EQ(identifiers(lex("a\r\nb // c\r\nd \\\r\ne")), "a@1 b@2 d@3 e@4"); }

TEST(Lexer, DirectivesAndTheirTokens) {
  const LexedFile f = lex("#if A && \\\n  B\nC\n  #  ifdef D\n#\n");
  ASSERT_EQ(f.directives.size(), 3u);
  EXPECT_EQ(f.directives[0].name, "if");
  EXPECT_EQ(f.directives[1].name, "ifdef");
  EXPECT_EQ(f.directives[1].line, 4);
  EXPECT_EQ(f.directives[2].name, "");
  std::string in_directive;
  for (const Token& t : f.tokens) {
    if (t.kind == TokenKind::identifier) in_directive += t.text + (t.directive >= 0 ? "+ " : "- ");
  }
  EXPECT_EQ(in_directive, "if+ A+ B+ C- ifdef+ D+ ");
}

TEST(Lexer, BlockCommentDoesNotEndADirective) {
  const LexedFile f = lex("#if A /* x\n y */ && B\nC");
  EXPECT_EQ(identifiers(f), "if@1 A@1 B@2 C@3");
  EXPECT_EQ(f.tokens[3].directive, 0);
  EXPECT_EQ(f.tokens.back().directive, -1);
}

TEST(Lexer, CommentBeforeTheDirectiveName) {
  const LexedFile f = lex("/* c */ # /* d */ define X 1");
  ASSERT_EQ(f.directives.size(), 1u);
  EXPECT_EQ(f.directives[0].name, "define");
}

TEST(Lexer, HashInsideALineIsNoDirective) { EXPECT_TRUE(lex("a # b").directives.empty()); }

TEST(Lexer, HeaderNames) {
  EXPECT_EQ(summary(lex("#include <a/b.h>\n# include \"c d.h\"\n#include_next <e>")),
            "p:#@1 id:include@1 hdr:a/b.h@1 p:#@2 id:include@2 hdr:c d.h@2 p:#@3 id:include_next@3 hdr:e@3");
  EXPECT_EQ(summary(lex("#if __has_include(<x.h>)")), "p:#@1 id:if@1 id:__has_include@1 p:(@1 hdr:x.h@1 p:)@1");
}

TEST(Lexer, AngleBracketsOutsideIncludesAreComparisons) {
  EXPECT_EQ(summary(lex("a < b > c")), "id:a@1 p:<@1 id:b@1 p:>@1 id:c@1");
  EXPECT_EQ(identifiers(lex("#if A < B && C > D")), "if@1 A@1 B@1 C@1 D@1");
}

TEST(Lexer, UnterminatedBlockCommentRunsToTheEnd) { EXPECT_EQ(identifiers(lex("a /* b\nc")), "a@1"); }

}  // namespace
}  // namespace vt::leakcheck

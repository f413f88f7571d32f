// The rule pattern language on neutral names; the device rules themselves are exercised by the
// mutation suite through the project's config.
#include "pattern.hpp"

#include <gtest/gtest.h>

#include <string>

namespace vt::leakcheck {
namespace {

std::string words(std::string_view id) {
  std::string s;
  for (std::string_view w : split_words(id)) {
    if (!s.empty()) s += '|';  // not "" + std::string: GCC 12 at -O3 warns (a false -Wrestrict)
    s += w;
  }
  return s;
}

IdentifierPattern pattern(const std::string& text) {
  std::string error;
  std::optional<IdentifierPattern> p = IdentifierPattern::parse(text, error);
  EXPECT_TRUE(p.has_value()) << text << ": " << error;
  return p.value_or(*IdentifierPattern::parse("unused", error));
}

TEST(Pattern, SplitWords) {
  EXPECT_EQ(words("fooBar"), "foo|Bar");
  EXPECT_EQ(words("foo_bar"), "foo|bar");
  EXPECT_EQ(words("kFOOGraph_v2"), "k|FOO|Graph|v|2");
  EXPECT_EQ(words("HTTPServer"), "HTTP|Server");
  EXPECT_EQ(words("__x_y__"), "x|y");
  EXPECT_EQ(words("Xkey"), "Xkey");
  EXPECT_EQ(words("abc12def"), "abc|12|def");
  EXPECT_EQ(words("ABC"), "ABC");
}

TEST(Pattern, FormsAreRecognised) {
  EXPECT_EQ(pattern("foo").form(), IdentifierPattern::Form::exact);
  EXPECT_EQ(pattern("foo*").form(), IdentifierPattern::Form::prefix);
  EXPECT_EQ(pattern("*foo*").form(), IdentifierPattern::Form::word);
  EXPECT_EQ(pattern("fo[A-Z]*").form(), IdentifierPattern::Form::glob);
}

TEST(Pattern, LowercasePrefixEndsAtAWordBoundary) {
  const IdentifierPattern p = pattern("foo*");
  EXPECT_TRUE(p.matches("fooBar"));
  EXPECT_TRUE(p.matches("foo_bar"));
  EXPECT_TRUE(p.matches("foo2"));
  EXPECT_TRUE(p.matches("foo"));
  EXPECT_TRUE(p.matches("fooBAR"));
  EXPECT_FALSE(p.matches("foobar"));
  EXPECT_FALSE(p.matches("xfoo"));
  EXPECT_FALSE(p.matches("Foo"));
}

TEST(Pattern, CapitalisedAndUppercasePrefixes) {
  EXPECT_TRUE(pattern("Xk*").matches("XkInstance"));
  EXPECT_FALSE(pattern("Xk*").matches("Xkey"));
  EXPECT_TRUE(pattern("ABC*").matches("ABCStream"));  // words ABC|Stream
  EXPECT_TRUE(pattern("ABC*").matches("ABC_X"));
  EXPECT_FALSE(pattern("ABC*").matches("ABCD"));
  EXPECT_TRUE(pattern("AB_*").matches("AB_anything"));
  EXPECT_TRUE(pattern("__ab_*").matches("__ab_x16"));
}

TEST(Pattern, WordMatchesAnyWordIgnoringCase) {
  const IdentifierPattern p = pattern("*foo*");
  for (const char* hit : {"foo", "Foo", "FOO", "kFOO", "is_foo", "useFoo", "VT_WITH_FOO", "fooBar", "FOOGraph"}) {
    EXPECT_TRUE(p.matches(hit)) << hit;
  }
  for (const char* miss : {"food", "bigfoot", "xfoo", "foobar", "FOOD", "Fool"}) EXPECT_FALSE(p.matches(miss)) << miss;
}

TEST(Pattern, WordPatternMustBeOneWord) {
  std::string error;
  EXPECT_FALSE(IdentifierPattern::parse("*fooBar*", error).has_value());
  EXPECT_NE(error.find("one word"), std::string::npos);
}

TEST(Pattern, ExactIsCaseSensitive) {
  EXPECT_TRUE(pattern("Foo").matches("Foo"));
  EXPECT_FALSE(pattern("Foo").matches("foo"));
  EXPECT_FALSE(pattern("Foo").matches("FooBar"));
}

TEST(Pattern, GlobWithClasses) {
  const IdentifierPattern p = pattern("ab[A-Z]*");
  EXPECT_TRUE(p.matches("abInit"));
  EXPECT_FALSE(p.matches("ab_len"));
  EXPECT_FALSE(p.matches("abc"));
  EXPECT_TRUE(glob_match("a?c", "abc", false));
  EXPECT_TRUE(glob_match("[!x]*", "abc", false));
  EXPECT_FALSE(glob_match("[!a]*", "abc", false));
  EXPECT_TRUE(glob_match("*.H", "x.h", true));
  EXPECT_FALSE(glob_match("*.H", "x.h", false));
  EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc", false));
  EXPECT_FALSE(glob_match("a*b*c", "aXXbYY", false));
}

TEST(Pattern, MalformedGlobIsReported) {
  EXPECT_TRUE(glob_error("ab[cd").has_value());
  EXPECT_TRUE(glob_error("").has_value());
  EXPECT_FALSE(glob_error("a[]x]b").has_value());
  std::string error;
  EXPECT_FALSE(IdentifierPattern::parse("x[a-", error).has_value());
}

TEST(Pattern, IncludeMatchesPathOrATailAfterASlash) {
  EXPECT_TRUE(include_matches("lib/*", "lib/x.h"));
  EXPECT_TRUE(include_matches("lib/*", "../lib/x.h"));
  EXPECT_TRUE(include_matches("lib*", "third/libfoo.h"));
  EXPECT_TRUE(include_matches("LIB/*", "lib/x.h"));
  EXPECT_FALSE(include_matches("lib*", "glib.h"));
  EXPECT_FALSE(include_matches("lib/*", "mylib/x.h"));
}

}  // namespace
}  // namespace vt::leakcheck

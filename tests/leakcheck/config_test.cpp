// Config parsing: the project's own config loads, and every malformed line stops the run with
// exit code 2 and a message naming the file and line.
#include "config.hpp"

#include <gtest/gtest.h>

#include <string>

#include "temp_tree.hpp"

namespace vt::leakcheck::testing {
namespace {

TEST(Config, ProjectConfigLoads) {
  const Config c = load_config(VT_LC_PROJECT_CONFIG);
  std::string layers;
  for (const PathEntry& l : c.layers) layers += l.path + " ";
  EXPECT_EQ(layers, "vt ops reference tools tests ");
  ASSERT_EQ(c.excludes.size(), 1u);
  EXPECT_EQ(c.excludes[0].path, "tests/backends");
  EXPECT_EQ(c.buckets.size(), 13u);
  EXPECT_TRUE(c.allow.empty());
  EXPECT_EQ(c.baseline.filename(), "vt.leakcheck.baseline");
}

TEST(Config, FieldsAndComments) {
  const Config c = parse_config(
      "# comment\n\n layer a b/\nextensions .cpp .h\nexclude a/gen\nbucket x.y the X family\n"
      "ident x.y foo* *bar* Baz q[A-Z]*\nstring x.y baz\ninclude x.y baz/*\ncond x.y *bar*\n"
      "allow a/f.cpp x.y 3 kept: the adapter translates error codes\n",
      "/cfg/test.leakcheck");
  ASSERT_EQ(c.layers.size(), 2u);
  EXPECT_EQ(c.layers[1].path, "b");
  EXPECT_EQ(c.layers[1].line, 3);
  ASSERT_EQ(c.buckets.size(), 1u);
  EXPECT_EQ(c.buckets[0].description, "the X family");
  ASSERT_EQ(c.rules.size(), 7u);
  EXPECT_EQ(c.rules[3].ident->form(), IdentifierPattern::Form::glob);
  EXPECT_EQ(c.rules[6].kind, RuleKind::cond);
  ASSERT_EQ(c.allow.size(), 1u);
  EXPECT_EQ(c.allow[0].count, 3);
  EXPECT_EQ(c.allow[0].reason, "kept: the adapter translates error codes");
  EXPECT_TRUE(c.baseline.empty());
}

struct Malformed {
  const char* name;
  const char* text;
  const char* message;  // expected after "<file>:"
};

void PrintTo(const Malformed& p, std::ostream* os) { *os << p.name; }

class MalformedConfig : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedConfig, ExitsTwoNamingFileAndLine) {
  TempTree tree;
  tree.write("bad.leakcheck", GetParam().text);
  const RunResult r = tree.run({"--config", (tree.root() / "bad.leakcheck").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.leakcheck:" + std::string(GetParam().message)), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

constexpr const char* kHead = "layer vt\nextensions .cpp\nbucket b.x a bucket\n";

std::string with_head(const char* tail) { return kHead + std::string(tail); }

const std::string kTexts[] = {
    with_head("frobnicate x\n"),
    with_head("ident nope foo\n"),
    with_head("ident b.x\n"),
    with_head("allow vt/a.cpp b.x 1\n"),
    with_head("allow vt/a.cpp b.x one reason\n"),
    with_head("allow vt/a.cpp b.x 0 reason\n"),
    with_head("allow vt/a.cpp b.x 1 r\nallow vt/a.cpp b.x 2 r\n"),
    with_head("bucket b.x again\n"),
    with_head("bucket b/y slash\n"),
    with_head("bucket b.y\n"),
    with_head("include b.x foo[ab\n"),
    with_head("ident b.x *twoWords*\n"),
    with_head("layer /abs\n"),
    with_head("exclude vt/../x\n"),
    with_head("extensions cpp\n"),
    with_head("baseline a\nbaseline b\n"),
    "extensions .cpp\nbucket b.x a bucket\n",
    "layer vt\nextensions .cpp\n",
    "layer nowhere\nextensions .cpp\nbucket b.x a bucket\n",
};

const Malformed kMalformed[] = {
    {"unknown_directive", kTexts[0].c_str(), "4: unknown directive 'frobnicate'"},
    {"undeclared_bucket", kTexts[1].c_str(), "4: unknown bucket 'nope'"},
    {"rule_without_pattern", kTexts[2].c_str(), "4: expected at least one pattern"},
    {"allow_without_reason", kTexts[3].c_str(), "4: allowlist entry for vt/a.cpp needs a reason"},
    {"allow_count_not_a_number", kTexts[4].c_str(), "4: allowlist count 'one'"},
    {"allow_count_zero", kTexts[5].c_str(), "4: allowlist count '0'"},
    {"allow_twice", kTexts[6].c_str(), "5: a second allowlist entry"},
    {"bucket_twice", kTexts[7].c_str(), "4: bucket 'b.x' declared twice"},
    {"bucket_bad_name", kTexts[8].c_str(), "4: bad bucket name 'b/y'"},
    {"bucket_without_description", kTexts[9].c_str(), "4: bucket 'b.y' needs a description"},
    {"unclosed_class", kTexts[10].c_str(), "4: unclosed '['"},
    {"word_of_two_words", kTexts[11].c_str(), "4: '*twoWords*': a *word* pattern must be one word"},
    {"absolute_layer", kTexts[12].c_str(), "4: '/abs' must be a path relative to the root"},
    {"dotdot_exclude", kTexts[13].c_str(), "4: 'vt/../x' must not contain"},
    {"extension_without_dot", kTexts[14].c_str(), "4: extension 'cpp'"},
    {"second_baseline", kTexts[15].c_str(), "5: a second 'baseline' line"},
    {"no_layer", kTexts[16].c_str(), " no 'layer' line"},
    {"no_bucket", kTexts[17].c_str(), " no 'bucket' line"},
    {"missing_layer_folder", kTexts[18].c_str(), "1: layer 'nowhere' does not exist"},
};
std::string malformed_name(const ::testing::TestParamInfo<Malformed>& p) { return p.param.name; }
INSTANTIATE_TEST_SUITE_P(Lines, MalformedConfig, ::testing::ValuesIn(kMalformed), malformed_name);

TEST(Config, UnreadableFileExitsTwo) {
  TempTree tree;
  const RunResult r = tree.run({"--config", (tree.root() / "absent.leakcheck").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vt::leakcheck::testing

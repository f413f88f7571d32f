// The comparator behind every parity verdict (tools/common, parity.md "How parity is tested"):
// each kind of difference it must catch, made on purpose in a copy of the expected images, and
// the differences it must let through. Without these the parity suite could pass vacuously.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "vt/dtype.hpp"
#include "vt/opcheck/case_memory.hpp"
#include "vt/opcheck/compare.hpp"

namespace {

using vt::DType;
using vt::opcheck::CaseMemory;
using vt::opcheck::compare;
using vt::opcheck::Images;
using vt::opcheck::Index;
using vt::opcheck::Report;
using vt::opcheck::Role;
using vt::opcheck::Tolerance;
using vt::opcheck::ulp_distance;

constexpr Tolerance kBitwise{Tolerance::Mode::bitwise, 0};
constexpr Tolerance kBytes{Tolerance::Mode::bytes, 0};
constexpr Tolerance kOneUlp{Tolerance::Mode::ulp, 1};

// An input with a lead element and a gap column, an f32 output with a gap column, an f16
// inout and an integer input; `expected` is the initial memory with every output element
// written, as a reference run leaves it.
class Compare : public ::testing::Test {
 protected:
  Compare() {
    x = m.add("x", Role::input, DType::bf16, {2, 3}, {4, 1}, 1);
    out = m.add("out", Role::output, DType::f32, {2, 3}, {4, 1});
    state = m.add("state", Role::inout, DType::f16, {4});
    idx = m.add("idx", Role::input, DType::i32, {3});
    m.fill(x, [](const Index& i) { return static_cast<float>(i[0] * 3 + i[1]) + 0.5f; });
    m.fill(state, [](const Index& i) { return -static_cast<float>(i[0]) - 0.25f; });
    const int32_t ints[] = {2, 0, 1};
    m.set_ints(idx, ints);
    expected = m.initial();
    m.for_each(out, [&](const Index& i, uint64_t off) {
      set_f32(expected, out, off, 1.0f + static_cast<float>(i[0] + i[1]));
    });
    // The op writes state[1] and leaves the rest as it found them.
    set_u16(expected, state, at(state, 1), vt::f32_to_f16_bits(7.0f));
    actual = expected;
  }

  uint64_t at(int id, int64_t i0, int64_t i1 = 0) const { return m.slot(id).element_offset(Index{i0, i1, 0, 0}); }
  static void set_f32(Images& images, int id, uint64_t off, float v) {
    std::memcpy(images[static_cast<size_t>(id)].data() + off, &v, sizeof v);
  }
  static void set_u32(Images& images, int id, uint64_t off, uint32_t v) {
    std::memcpy(images[static_cast<size_t>(id)].data() + off, &v, sizeof v);
  }
  static void set_u16(Images& images, int id, uint64_t off, uint16_t v) {
    std::memcpy(images[static_cast<size_t>(id)].data() + off, &v, sizeof v);
  }
  static uint32_t get_u32(const Images& images, int id, uint64_t off) {
    uint32_t v;
    std::memcpy(&v, images[static_cast<size_t>(id)].data() + off, sizeof v);
    return v;
  }
  uint8_t& byte(int id, uint64_t b) { return actual[static_cast<size_t>(id)][b]; }
  Report run(const Tolerance& t) const { return compare(m, expected, actual, t); }

  static void expect_problem(const Report& r, const std::string& text) {
    EXPECT_FALSE(r.passed);
    ASSERT_FALSE(r.problems.empty());
    EXPECT_NE(r.problems[0].find(text), std::string::npos) << r.problems[0];
  }
  static void expect_structural(const Report& r, const std::string& text) {
    expect_problem(r, text);
    if (r.problems.empty()) return;  // reported above
    EXPECT_EQ(r.first_structural, r.problems[0]);
    EXPECT_EQ(r.summary(), r.problems[0]);
  }

  CaseMemory m;
  int x = 0, out = 0, state = 0, idx = 0;
  Images expected, actual;
};

TEST_F(Compare, IdenticalImagesPass) {
  for (const Tolerance& t : {kBytes, kBitwise, kOneUlp}) {
    const Report r = run(t);
    EXPECT_TRUE(r.passed) << t.describe();
    EXPECT_EQ(r.problem_count, 0u);
    EXPECT_EQ(r.summary(), "identical");
    EXPECT_EQ(r.details(), "");
  }
}

TEST_F(Compare, OneUlpFailsBitwiseAndPassesAnUlpTolerance) {
  set_u32(actual, out, at(out, 1, 2), get_u32(expected, out, at(out, 1, 2)) + 1);
  const Report bitwise = run(kBitwise);
  expect_problem(bitwise, "out[1, 2]: expected 0x40800000 (4), got 0x40800001 (4.00000048), 1 ulp");
  EXPECT_EQ(bitwise.problem_count, 1u);
  EXPECT_TRUE(bitwise.first_structural.empty());  // a value difference, not a structural one
  EXPECT_EQ(bitwise.summary(), "worst 1 ulp at out[1, 2]");

  const Report within = run(kOneUlp);
  EXPECT_TRUE(within.passed);
  EXPECT_EQ(within.worst_ulp, 1u);
  EXPECT_EQ(within.summary(), "worst 1 ulp at out[1, 2]");  // passed, and still says where

  set_u32(actual, out, at(out, 0, 0), get_u32(expected, out, at(out, 0, 0)) - 2);
  const Report beyond = run(kOneUlp);
  expect_problem(beyond, "out[0, 0]");
  EXPECT_EQ(beyond.problem_count, 1u);  // the 1-ulp element is within
  EXPECT_EQ(beyond.summary(), "worst 2 ulp at out[0, 0]");
}

TEST_F(Compare, NaNsMatchBitwiseButNotAsBytes) {
  set_u32(expected, out, at(out, 0, 1), 0x7fc00000u);
  set_u32(actual, out, at(out, 0, 1), 0x7fc00001u);  // another payload
  EXPECT_TRUE(run(kBitwise).passed);
  expect_structural(run(kBytes), "out[0, 1]: expected 0x7fc00000");
}

TEST_F(Compare, ANaNAgainstANumberFailsEveryTolerance) {
  set_u32(actual, out, at(out, 1, 0), 0x7fc00000u);
  for (const Tolerance& t : {kBitwise, kOneUlp}) {
    const Report r = run(t);
    expect_problem(r, "out[1, 0]: expected 0x40000000 (2), got 0x7fc00000 (nan), NaN against a number");
    EXPECT_EQ(r.worst_ulp, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(r.summary(), "worst NaN-vs-number at out[1, 0]");
  }
}

TEST_F(Compare, AnUnwrittenOutputIsStructural) {
  set_u32(actual, out, at(out, 0, 2), 0xffffffffu);  // still poisoned
  expect_structural(run(kOneUlp), "out[0, 2] was not written (still holds its initial bytes)");
}

TEST_F(Compare, AnElementTheReferenceLeftAloneMustKeepItsBytes) {
  byte(state, at(state, 3)) ^= 1;  // state[3]: the op does not write it
  expect_structural(run(kOneUlp), "state[3] was changed; the reference leaves it untouched");
  actual = expected;
  byte(state, at(state, 1)) ^= 1;  // state[1] is written: a value difference, 1 ulp
  EXPECT_TRUE(run(kOneUlp).passed);
  EXPECT_FALSE(run(kBitwise).passed);
}

TEST_F(Compare, GuardsAndGapsMustKeepTheirBytes) {
  const uint64_t end = m.slot(out).bytes;
  byte(out, end - CaseMemory::kGuardBytes) = 0;
  expect_structural(run(kOneUlp), "guard byte 0 after out was overwritten: expected 0xa5, got 0x00");
  actual = expected;
  byte(out, CaseMemory::kGuardBytes - 1) = 0;
  expect_structural(run(kOneUlp), "guard byte 63 before out was overwritten");
  actual = expected;
  byte(out, at(out, 0, 2) + 4) = 0;  // the gap column after out[0, 2]
  expect_structural(run(kOneUlp), "out gap byte 12 was overwritten");
  actual = expected;
  byte(x, CaseMemory::kGuardBytes) = 0;  // x's lead element, before x[0, 0]
  expect_structural(run(kOneUlp), "x gap byte 0 was overwritten");
}

TEST_F(Compare, InputsMustBeUnchanged) {
  byte(x, at(x, 1, 1) + 1) ^= 0x40;
  expect_structural(run(kOneUlp), "input x byte 11 was modified");
  actual = expected;
  byte(x, at(x, 0, 0)) ^= 1;  // the view's first byte, right after the lead gap
  expect_structural(run(kOneUlp), "input x byte 0 was modified");
  actual = expected;
  byte(idx, at(idx, 2)) = 9;  // an integer input: judged byte for byte, never by ulp
  expect_structural(run(kOneUlp), "input idx byte 8 was modified: expected 0x01, got 0x09");
}

TEST_F(Compare, ADownloadOfTheWrongSizeIsStructural) {
  actual[static_cast<size_t>(state)].pop_back();
  expect_structural(run(kBitwise), "state: downloaded");
}

TEST_F(Compare, KeepsTheFirstProblemsAndCountsTheRest) {
  m.for_each(out, [&](const Index&, uint64_t a) { set_u32(actual, out, a, get_u32(expected, out, a) + 3); });
  const uint64_t end = m.slot(x).bytes;
  byte(x, end - 1) = 0;
  byte(x, end - 2) = 0;
  byte(x, end - 3) = 0;
  const Report r = run(kOneUlp);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.problem_count, 9u);
  EXPECT_EQ(r.problems.size(), 8u);
  EXPECT_NE(r.first_structural.find("guard byte 61 after x"), std::string::npos) << r.first_structural;
  EXPECT_EQ(r.summary(), r.first_structural + " (and 8 more)");
  EXPECT_NE(r.details().find("  ... 1 more\n"), std::string::npos) << r.details();
}

TEST(UlpDistance, CountsRepresentableValuesBetweenTwoFloats) {
  EXPECT_EQ(ulp_distance(DType::f32, 0x3f800000u, 0x3f800001u), 1u);
  EXPECT_EQ(ulp_distance(DType::f32, 0x3f800001u, 0x3f800000u), 1u);
  EXPECT_EQ(ulp_distance(DType::f32, 0x00000000u, 0x80000000u), 1u);          // signed zeros
  EXPECT_EQ(ulp_distance(DType::f32, 0x00000001u, 0x80000001u), 3u);          // across zero
  EXPECT_EQ(ulp_distance(DType::f32, 0x7f7fffffu, 0x7f800000u), 1u);          // FLT_MAX to infinity
  EXPECT_EQ(ulp_distance(DType::bf16, 0x3f80u, 0xbf80u), 2u * 0x3f80u + 1u);  // 1 and -1
  EXPECT_EQ(ulp_distance(DType::f16, 0x0001u, 0x8001u), 3u);
  EXPECT_EQ(ulp_distance(DType::f16, 0x7e00u, 0x7c01u), 0u);  // two NaNs
  EXPECT_EQ(ulp_distance(DType::bf16, 0x7fc0u, 0x3f80u), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(ulp_distance(DType::f16, 0x7c00u, 0x7bffu), 1u);  // infinity is a number
}

TEST(ToleranceText, NamesEachMode) {
  EXPECT_EQ(kBytes.describe(), "byte-identical");
  EXPECT_EQ(kBitwise.describe(), "bitwise");
  EXPECT_EQ((Tolerance{Tolerance::Mode::ulp, 2}).describe(), "<= 2 ulp");
}

}  // namespace

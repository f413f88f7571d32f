// The ratchet baseline, the allowlist and exemption markers: each can pass, and each fails
// when it goes stale.
#include <gtest/gtest.h>

#include <string>

#include "temp_tree.hpp"

namespace vt::leakcheck::testing {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Two hits of cuda.api on lines 2 and 3.
constexpr const char* kTwoHits = "int f() {\n  cudaFree(p);\n  cudaFree(q);\n}\n";

TEST(Baseline, EqualCountsPass) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.set_baseline("cuda.api", 2);
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "verdict: clean"));
}

TEST(Baseline, MoreThanTheBaselineIsALeak) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.set_baseline("cuda.api", 1);
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "leak: cuda.api has 2 hits, baseline 1")) << r.out;
  EXPECT_TRUE(contains(r.out, "vt/a.cpp:3: cudaFree")) << r.out;
}

TEST(Baseline, FewerThanTheBaselineIsStale) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.set_baseline("cuda.api", 3);
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "stale baseline: cuda.api has 2 hits, baseline 3")) << r.out;
}

TEST(Baseline, WriteLowersIt) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.set_baseline("cuda.api", 5);
  const RunResult r = tree.run({"--write-baseline"});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(tree.read("vt.leakcheck.baseline"), "\ncuda.api 2\n"));
  EXPECT_EQ(tree.run().code, 0);
}

TEST(Baseline, WriteNeverRaisesIt) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.set_baseline("cuda.api", 1);
  const std::string before = tree.read("vt.leakcheck.baseline");
  const RunResult r = tree.run({"--write-baseline"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.err, "refusing to raise the baseline: cuda.api 1->2")) << r.err;
  EXPECT_EQ(tree.read("vt.leakcheck.baseline"), before);
}

TEST(Baseline, WriteNeverRaisesFromZero) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  const std::string before = tree.read("vt.leakcheck.baseline");
  EXPECT_EQ(tree.run({"--write-baseline"}).code, 1);
  EXPECT_EQ(tree.read("vt.leakcheck.baseline"), before);
}

TEST(Baseline, WriteStartsAMissingOne) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  std::filesystem::remove(tree.baseline());
  EXPECT_EQ(tree.run({"--write-baseline"}).code, 0);
  EXPECT_TRUE(contains(tree.read("vt.leakcheck.baseline"), "\ncuda.api 2\n"));
}

TEST(Baseline, UnknownBucketIsMalformed) {
  TempTree tree;
  tree.write("vt.leakcheck.baseline", "# counts\n\nno.such.bucket 0\n");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "vt.leakcheck.baseline:3: bucket 'no.such.bucket'")) << r.err;
}

TEST(Baseline, BadCountIsMalformed) {
  TempTree tree;
  tree.write("vt.leakcheck.baseline", "cuda.api many\n");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "vt.leakcheck.baseline:1: expected: <bucket> <count>")) << r.err;
}

TEST(Allowlist, ExactCountAllowsTheHits) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.add_config_line("allow vt/a.cpp cuda.api 2 the shim that loads the driver, until it moves out");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "vt/a.cpp  cuda.api  2/2  the shim that loads the driver")) << r.out;
  for (const TreeHit& h : tree.audit().hits) EXPECT_EQ(h.status, HitStatus::allowlisted);
}

TEST(Allowlist, FewerHitsMakeItStale) {
  TempTree tree;
  tree.write("vt/a.cpp", "cudaFree(p);\n");
  tree.add_config_line("allow vt/a.cpp cuda.api 2 reason");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "vt/a.cpp cuda.api allows 2, found 1")) << r.out;
}

TEST(Allowlist, MoreHitsMakeItStaleAndCountThem) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.add_config_line("allow vt/a.cpp cuda.api 1 reason");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "allows 1, found 2")) << r.out;
  EXPECT_TRUE(contains(r.out, "leak: cuda.api has 2 hits")) << r.out;
}

TEST(Allowlist, OnlyItsFileAndBucket) {
  TempTree tree;
  tree.write("vt/a.cpp", kTwoHits);
  tree.write("vt/b.cpp", "cudaFree(p);\n");
  tree.add_config_line("allow vt/a.cpp cuda.api 2 reason");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "leak: cuda.api has 1 hit, baseline 0\n    vt/b.cpp:1: cudaFree")) << r.out;
}

TEST(Marker, SameLineExemptsAndIsListed) {
  TempTree tree;
  tree.write("vt/a.cpp", R"src(int x;
cudaFree(p);  // vt-leakcheck: allow(cuda.api) probe used only by the loader test
)src");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "exemptions: 1\n  vt/a.cpp:2  cuda.api  1 hit  probe used only by the loader test"))
      << r.out;
}

TEST(Marker, PreviousLineExempts) {
  TempTree tree;
  tree.write("vt/a.cpp", R"src(/* vt-leakcheck: allow(cuda.cond) one guard for the header check */
#ifdef __CUDACC__
#endif
)src");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(tree.audit().hits.at(0).status, HitStatus::exempt);
}

TEST(Marker, TwoLinesAboveDoesNotReach) {
  TempTree tree;
  tree.write("vt/a.cpp", R"src(// vt-leakcheck: allow(cuda.api) too far away

cudaFree(p);
)src");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "vt/a.cpp:1: exemption marker for cuda.api matches no hit")) << r.out;
  EXPECT_TRUE(contains(r.out, "leak: cuda.api has 1 hit")) << r.out;
}

TEST(Marker, OtherBucketDoesNotExempt) {
  TempTree tree;
  tree.write("vt/a.cpp", "cudaFree(p);  // vt-leakcheck: allow(hip.api) wrong family\n");
  EXPECT_EQ(tree.run().code, 1);
  EXPECT_EQ(counted(tree.audit()).size(), 1u);
}

TEST(Marker, WithoutReasonIsRejected) {
  TempTree tree;
  tree.write("vt/a.cpp", "cudaFree(p);  // vt-leakcheck: allow(cuda.api)\n");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "vt/a.cpp:1: exemption marker for cuda.api gives no reason")) << r.out;
  EXPECT_EQ(counted(tree.audit()).size(), 1u);
}

TEST(Marker, WithoutIdIsRejected) {
  TempTree tree;
  tree.write("vt/a.cpp", "cudaFree(p);  // vt-leakcheck: allow() because\n");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "exemption marker names no bucket")) << r.out;
}

TEST(Marker, UnknownIdIsRejected) {
  TempTree tree;
  tree.write("vt/a.cpp", "cudaFree(p);  // vt-leakcheck: allow(gpu) because\n");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "unknown bucket 'gpu'")) << r.out;
}

TEST(Marker, WithoutAllowIsRejected) {
  TempTree tree;
  tree.write("vt/a.cpp", "int x;  // vt-leakcheck: skip this\n");
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(contains(r.out, "expected allow(<bucket>) <reason>")) << r.out;
}

TEST(Marker, UnusedFails) {
  TempTree tree;
  tree.write("vt/a.cpp", "int x;  // vt-leakcheck: allow(cuda.api) nothing here any more\n");
  EXPECT_EQ(tree.run().code, 1);
}

TEST(Marker, OnlyAtTheStartOfAComment) {
  TempTree tree;
  tree.write("vt/a.cpp", "int x;  // see the vt-leakcheck: allow(x) syntax in the docs\n");
  EXPECT_EQ(tree.run().code, 0);
}

}  // namespace
}  // namespace vt::leakcheck::testing

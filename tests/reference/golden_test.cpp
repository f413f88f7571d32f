// The reference against golden vectors from a separate float64 implementation
// (golden/make_golden.py): the same f32 inputs, results within stated bounds of the exact math.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "host_tensor.hpp"
#include "vt/reference/reference.hpp"

namespace vt::reference::test {
namespace {

using Arrays = std::map<std::string, std::vector<double>>;

const Arrays& golden() {
  static const Arrays arrays = [] {
    Arrays a;
    std::ifstream in(VT_GOLDEN_FIXTURE);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream s(line);
      std::string name, token;
      size_t count = 0;
      s >> name >> count;
      std::vector<double>& v = a[name];
      while (s >> token) v.push_back(std::strtod(token.c_str(), nullptr));
      if (v.size() != count) a.erase(name);  // a truncated line: the test below names it
    }
    return a;
  }();
  return arrays;
}

const std::vector<double>& array(const std::string& name) {
  static const std::vector<double> none;
  const auto it = golden().find(name);
  EXPECT_NE(it, golden().end()) << "golden fixture " << VT_GOLDEN_FIXTURE << " has no array " << name;
  return it == golden().end() ? none : it->second;
}

HostTensor f32(const std::string& name, std::vector<int64_t> shape) {
  HostTensor t(VT_DTYPE_F32, std::move(shape));
  const std::vector<double>& v = array(name);
  size_t i = 0;
  t.for_each([&](char* p, vt_dtype d) { store_float(d, p, i < v.size() ? static_cast<float>(v[i++]) : 0.0f); });
  return t;
}

HostTensor i32(const std::string& name) {
  std::vector<int32_t> v;
  for (const double d : array(name)) v.push_back(static_cast<int32_t>(d));
  return ints(v);
}

// Units in the last place between the reference and the f32 rounding of the exact value.
int64_t ulps(float ref, double truth) {
  const auto key = [](float f) {
    const int32_t i = std::bit_cast<int32_t>(f);
    return i < 0 ? int64_t{std::numeric_limits<int32_t>::min()} - i : int64_t{i};
  };
  return std::abs(key(ref) - key(static_cast<float>(truth)));
}

double ulp_of(double truth) {
  const float f = std::fabs(static_cast<float>(truth));
  return std::nextafter(f, std::numeric_limits<float>::infinity()) - f;
}

constexpr double kEps = 0x1p-23;  // f32 machine epsilon

void conv_case(const std::string& name) {
  const std::vector<double>& shape = array(name + ".shape");
  ASSERT_EQ(shape.size(), 6u);
  const int64_t K = static_cast<int64_t>(shape[0]), C = static_cast<int64_t>(shape[1]),
                T = static_cast<int64_t>(shape[2]), S = static_cast<int64_t>(shape[3]);
  const bool silu = shape[5] != 0;
  FwdTensors f;
  f.x = f32(name + ".x", {T, C});
  f.weight = f32(name + ".weight", {C, K});
  f.bias = f32(name + ".bias", {C});
  f.conv_state = f32(name + ".state", {S, C, K - 1});
  f.out = HostTensor(VT_DTYPE_F32, {T, C});
  f.out.poison();
  f.query_start_loc = i32(name + ".query_start_loc");
  f.state_indices = i32(name + ".state_indices");
  f.has_initial_state = i32(name + ".has_initial_state");
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, silu ? VT_ACTIVATION_SILU : VT_ACTIVATION_NONE)), VT_OK);

  // K fma roundings, each at most half an ulp of a partial sum bounded by the sum of |terms|
  // (bound doubled); SiLU's slope is below 1.1, and SiLU itself adds a few ulp.
  const std::vector<double>& truth = array(name + ".out");
  const std::vector<double>& magnitude = array(name + ".magnitude");
  ASSERT_EQ(truth.size(), static_cast<size_t>(T * C));
  double worst = 0;
  int64_t worst_ulps = 0;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t c = 0; c < C; ++c) {
      const size_t i = static_cast<size_t>(t * C + c);
      const double sum_bound = static_cast<double>(K) * kEps * magnitude[i];
      const double bound = silu ? 1.1 * sum_bound + 4 * ulp_of(truth[i]) : sum_bound;
      const double err = std::fabs(static_cast<double>(f.out.get(t, c)) - truth[i]);
      EXPECT_LE(err, bound) << name << " token " << t << " channel " << c;
      worst = std::max(worst, err / bound);
      worst_ulps = std::max(worst_ulps, ulps(f.out.get(t, c), truth[i]));
    }
  std::printf("golden %s: worst error %.3f of its bound, %lld ulp\n", name.c_str(), worst,
              static_cast<long long>(worst_ulps));

  const HostTensor expected_state = f32(name + ".state_after", {S, C, K - 1});
  EXPECT_EQ(f.conv_state.bytes(), expected_state.bytes()) << name << ": rolled state";
}

TEST(ReferenceGolden, ConvWithSiluAndState) { conv_case("conv_silu"); }
TEST(ReferenceGolden, ConvWidthSevenWithShortSequence) { conv_case("conv_k7"); }

TEST(ReferenceGolden, L2NormWithinFourUlp) {
  const std::vector<double>& shape = array("l2norm.shape");
  ASSERT_EQ(shape.size(), 2u);
  const int64_t R = static_cast<int64_t>(shape[0]), D = static_cast<int64_t>(shape[1]);
  const HostTensor x = f32("l2norm.x", {R, D});
  HostTensor out(VT_DTYPE_F32, {R, D});
  ASSERT_EQ(l2norm(l2norm_args(x, out, static_cast<float>(array("l2norm.eps").at(0)))), VT_OK);
  const std::vector<double>& truth = array("l2norm.out");
  ASSERT_EQ(truth.size(), static_cast<size_t>(R * D));
  int64_t worst = 0;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t i = 0; i < D; ++i) {
      const int64_t u = ulps(out.get(r, i), truth[static_cast<size_t>(r * D + i)]);
      EXPECT_LE(u, 4) << "row " << r << " element " << i;
      worst = std::max(worst, u);
    }
  std::printf("golden l2norm: worst %lld ulp\n", static_cast<long long>(worst));
}

TEST(ReferenceGolden, GatingWithinFourUlp) {
  const std::vector<double>& shape = array("gating.shape");
  ASSERT_EQ(shape.size(), 2u);
  const int64_t T = static_cast<int64_t>(shape[0]), H = static_cast<int64_t>(shape[1]);
  const HostTensor a = f32("gating.a", {T, H}), b = f32("gating.b", {T, H});
  const HostTensor A_log = f32("gating.A_log", {H}), dt_bias = f32("gating.dt_bias", {H});
  HostTensor g(VT_DTYPE_F32, {T, H}), beta(VT_DTYPE_F32, {T, H});
  ASSERT_EQ(gdn_gating(gating_args(a, b, A_log, dt_bias, g, beta)), VT_OK);
  const std::vector<double>& g_truth = array("gating.g");
  const std::vector<double>& beta_truth = array("gating.beta");
  ASSERT_EQ(g_truth.size(), static_cast<size_t>(T * H));
  ASSERT_EQ(beta_truth.size(), static_cast<size_t>(T * H));
  int64_t worst_g = 0, worst_beta = 0;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t h = 0; h < H; ++h) {
      const size_t i = static_cast<size_t>(t * H + h);
      const int64_t ug = ulps(g.get(t, h), g_truth[i]), ub = ulps(beta.get(t, h), beta_truth[i]);
      EXPECT_LE(ug, 4) << "g[" << t << ", " << h << "]";
      EXPECT_LE(ub, 4) << "beta[" << t << ", " << h << "]";
      worst_g = std::max(worst_g, ug);
      worst_beta = std::max(worst_beta, ub);
    }
  std::printf("golden gating: worst g %lld ulp, beta %lld ulp\n", static_cast<long long>(worst_g),
              static_cast<long long>(worst_beta));
}

}  // namespace
}  // namespace vt::reference::test

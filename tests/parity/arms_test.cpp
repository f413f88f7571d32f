// Arms (parity.md): for each op and device, every registered provider is forced in turn (a
// runtime per provider with all the others disabled), alone and with each variant switch of
// performance.md that the provider declares (vt_provider_desc::knobs; and with the early start
// or the CPU threads turned down, where declared), over the op's catalog cases; all results
// must be bit-identical (a NaN matches any NaN, as parity.md's comparison says).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "case_catalog.hpp"
#include "case_run.hpp"
#include "device_axis.hpp"
#include "vt/error.hpp"
#include "vt/knobs.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::parity {
namespace {

// The settings that force one variant inside a provider (performance.md, "Variants"), and the
// knobs that run the same kernels another way. Each runs on the providers that declare its
// knob, and on those whose descriptor predates the declarations (which see every knob); a
// provider's host table answers no other knob, so elsewhere the arm would repeat the default.
struct Switch {
  const char* knob;
  int64_t value;
  const char* with = nullptr;  // a second knob set with it, to reach a variant only the two reach
  int64_t with_value = 0;
};
constexpr Switch kVariantSwitches[] = {{"VT_CONV_EXACT_CHUNKS", 0},
                                       {"VT_CONV_EXACT_CHUNKS", 1},  // the plan's 64-token programs
                                       {"VT_CONV_REG", 0},
                                       {"VT_CONV_CHANNEL_TILE", 1},
                                       {"VT_CONV_CHANNEL_TILE", 2},
                                       {"VT_CONV_STAGE_X", 1},       // wherever the device can
                                       {"VT_CONV_ONE_SEQUENCE", 0},  // one sequence by the general kernel
                                       // Guided programs, in the staged ring only (fwd_guided).
                                       {"VT_CONV_GUIDED", 0, "VT_CONV_STAGE_X", 1},  // the mapping's programs
                                       {"VT_CONV_GUIDED", 1, "VT_CONV_STAGE_X", 1},
                                       {"VT_CONV_GUIDED", 2, "VT_CONV_STAGE_X", 1},  // in a larger grid
                                       {"VT_GDN_POSTCONV_TOKEN_TILE", 1},
                                       // Not variants: the same kernels, each started only once
                                       // the one before it has finished (runtime.md), or on one
                                       // thread.
                                       {"VT_EARLY_LAUNCH", 0},
                                       {"VT_CPU_THREADS", 1}};

struct Arm {
  std::string provider;
  std::optional<Switch> variant;
  std::string label() const {
    if (!variant) return provider;
    std::string l = provider + " " + variant->knob + "=" + std::to_string(variant->value);
    if (variant->with) l += std::string(" ") + variant->with + "=" + std::to_string(variant->with_value);
    return l;
  }
};

struct ArmsParam {
  vt_op_id op;
  std::string device;
};

void PrintTo(const ArmsParam& p, std::ostream* os) { *os << op_name(p.op) << " on " << p.device; }

std::vector<ArmsParam> arms_params() {
  std::vector<ArmsParam> out;
  for (const std::string& device : device_names())
    for (vt_op_id op : kAllOps) out.push_back({op, device});
  return out;
}

std::vector<Arm> arms_of(vt_op_id op, const std::string& backend) {
  std::vector<Arm> arms;
  for (const ProviderCounts& p : parity_runtime().registry().providers(op, backend)) {
    arms.push_back({p.name, std::nullopt});
    for (const Switch& s : kVariantSwitches)
      if (p.reads(s.knob) && (!s.with || p.reads(s.with))) arms.push_back({p.name, s});
  }
  return arms;
}

// One arm's results per case; nullopt where the arm declined the case or the device.
using ArmResults = std::vector<std::optional<opcheck::Images>>;

ArmResults run_arm(const Arm& arm, const std::vector<Arm>& all, const std::vector<const CaseSpec*>& cases,
                   const std::string& device_name, uint64_t base) {
  Knobs knobs;
  for (const Arm& other : all)
    if (other.provider != arm.provider && std::find(knobs.disable_providers.begin(), knobs.disable_providers.end(),
                                                    other.provider) == knobs.disable_providers.end())
      knobs.disable_providers.push_back(other.provider);
  if (arm.variant) knobs.ints[arm.variant->knob] = arm.variant->value;
  if (arm.variant && arm.variant->with) knobs.ints[arm.variant->with] = arm.variant->with_value;
  Runtime rt(knobs);
  rt.load();
  const Device device = rt.device(device_name);
  ArmResults results;
  for (const CaseSpec* spec : cases) {
    auto c = spec->make(opcheck::case_seed(base, spec->name));
    try {
      DeviceRun run = run_on_device(*c, device);
      EXPECT_EQ(run.provider, arm.provider)
          << spec->name << ": forcing arm '" << arm.label() << "' ran another provider";
      results.push_back(std::move(run.images));
    } catch (const Error& e) {
      if (e.code() != Status::unsupported && e.code() != Status::not_found)
        ADD_FAILURE() << spec->name << ": " << e.what();
      results.push_back(std::nullopt);  // this arm does not serve the case
    }
  }
  return results;
}

// The arms' knobs are the knob table's provider switches, both ways: a switch the table gains
// and no arm sets would go untested on a backend that is not loaded here (the GPUs in CI), and
// an arm whose knob no provider may list would never run. As in CoverEveryDeclaredKnob below,
// a switch must be some arm's own knob: one set only beside another runs only where both are
// read.
TEST(ParityArmSwitches, AreTheProviderSwitches) {
  for (const Switch& s : kVariantSwitches) {
    EXPECT_TRUE(Knobs::steers_providers(s.knob))
        << s.knob << " is no provider switch (any more): the arms would not force that variant";
    if (s.with) {
      EXPECT_TRUE(Knobs::steers_providers(s.with)) << s.with << " is no provider switch (any more)";
    }
  }
  for (const auto& spec : Knobs::specs()) {
    if (!Knobs::steers_providers(spec.name)) continue;
    EXPECT_TRUE(std::any_of(std::begin(kVariantSwitches), std::end(kVariantSwitches),
                            [&](const Switch& s) { return std::string_view(spec.name) == s.knob; }))
        << spec.name << " steers providers, and no arm sets it";
  }
}

// A knob a provider declares steers it, so some arm must set it: else that variant would go
// untested against the others.
TEST(ParityArmSwitches, CoverEveryDeclaredKnob) {
  for (const std::string& backend : parity_runtime().backends())
    for (vt_op_id op : kAllOps)
      for (const ProviderCounts& p : parity_runtime().registry().providers(op, backend))
        for (const std::string& knob : p.knobs.value_or(std::vector<std::string>{}))
          EXPECT_TRUE(std::any_of(std::begin(kVariantSwitches), std::end(kVariantSwitches),
                                  [&](const Switch& s) { return knob == s.knob; }))
              << backend << "'s " << p.name << " declares " << knob << ", which no arm sets";
}

class ParityArms : public testing::TestWithParam<ArmsParam> {};

TEST_P(ParityArms, AgreeBytewise) {
  const auto& [op, device_name] = GetParam();
  const Device device = parity_runtime().device(device_name);
  const std::vector<Arm> arms = arms_of(op, device.backend());
  if (arms.empty()) GTEST_SKIP() << device.backend() << " registers no provider for " << op_name(op);
  std::vector<const CaseSpec*> cases;
  for (const CaseSpec& spec : case_catalog())
    if (spec.op == op) cases.push_back(&spec);

  const uint64_t base = base_seed();
  std::vector<ArmResults> results;
  for (const Arm& arm : arms) results.push_back(run_arm(arm, arms, cases, device_name, base));
  std::cout << op_name(op) << " on " << device_name << ": " << arms.size() << " arms over " << cases.size()
            << " cases:";
  for (size_t a = 0; a < arms.size(); ++a)
    std::cout << " [" << arms[a].label() << ": "
              << std::count_if(results[a].begin(), results[a].end(), [](const auto& r) { return r.has_value(); })
              << " ran]";
  std::cout << "\n";

  // Bit for bit, with parity.md's one allowance: any NaN matches any NaN. IEEE 754 leaves the
  // sign and payload of a NaN that arithmetic produces unspecified, and compilers use that
  // freedom (GCC folds fma(-x, c, s) into fnmadd, which keeps x's NaN sign), so two builds of
  // one kernel can differ there and nowhere else.
  const opcheck::Tolerance bitwise{opcheck::Tolerance::Mode::bitwise, 0};
  for (size_t i = 0; i < cases.size(); ++i) {
    const opcheck::Images* first = nullptr;
    size_t first_arm = 0;
    for (size_t a = 0; a < arms.size(); ++a) {
      if (!results[a][i]) continue;
      if (!first) {
        first = &*results[a][i];
        first_arm = a;
        continue;
      }
      const uint64_t seed = opcheck::case_seed(base, cases[i]->name);
      const auto layout = cases[i]->make(seed);
      const opcheck::Report r = opcheck::compare(layout->memory(), *first, *results[a][i], bitwise);
      EXPECT_TRUE(r.passed) << replay_hint(*cases[i], base, seed) << "\n  arm '" << arms[a].label() << "' against arm '"
                            << arms[first_arm].label() << "': " << r.summary() << "\n"
                            << r.details();
    }
  }
}

std::string arms_name(const testing::TestParamInfo<ArmsParam>& info) {
  return std::string(op_name(info.param.op)) + "__" + test_name_part(info.param.device);
}

INSTANTIATE_TEST_SUITE_P(Ops, ParityArms, testing::ValuesIn(arms_params()), arms_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityArms);

}  // namespace
}  // namespace vt::parity

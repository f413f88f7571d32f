// Knob parsing: accepted spellings, warnings for everything else, no setenv.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "vt/knobs.hpp"

namespace {

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const auto& w : warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

TEST(Knobs, ParsesAcceptedSpellings) {
  std::vector<std::string> w;
  const vt::Knobs k = vt::Knobs::parse({{"VT_LOG", "debug"},
                                        {"VT_PLUGINS", "/a/x.so, /b/y.so"},
                                        {"VT_PLUGIN_PATH", "/p:/q"},
                                        {"VT_REQUIRE", "cpu"},
                                        {"VT_DISABLE_PROVIDERS", "a,b"},
                                        {"VT_PROVIDER_STATS", "1"},
                                        {"VT_STRICT_PROVIDERS", "1"},
                                        {"VT_DEEP_VALIDATE", "1"},
                                        {"VT_CONV_CHANNEL_TILE", "2"},
                                        {"VT_CONV_GUIDED", "2"},
                                        {"VT_CPU_THREADS", "3"}},
                                       &w);
  EXPECT_TRUE(w.empty());
  EXPECT_EQ(k.log_level, vt::LogLevel::debug);
  ASSERT_TRUE(k.plugins.has_value());
  EXPECT_EQ(*k.plugins, (std::vector<std::string>{"/a/x.so", "/b/y.so"}));
  EXPECT_EQ(k.plugin_path, (std::vector<std::string>{"/p", "/q"}));
  EXPECT_EQ(k.require, (std::vector<std::string>{"cpu"}));
  EXPECT_EQ(k.disable_providers, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(k.provider_stats);
  EXPECT_TRUE(k.strict_providers);
  EXPECT_TRUE(k.deep_validate);
  EXPECT_EQ(k.int_value("VT_CONV_CHANNEL_TILE"), 2);
  EXPECT_EQ(k.int_value("VT_CONV_GUIDED"), 2);
  EXPECT_EQ(k.int_value("VT_CPU_THREADS"), 3);
  EXPECT_FALSE(k.int_value("VT_CONV_REG").has_value());
}

TEST(Knobs, WarnsAboutAndIgnoresOtherValues) {
  std::vector<std::string> w;
  const vt::Knobs k = vt::Knobs::parse({{"VT_LOG", "verbose"},
                                        {"VT_PROVIDER_STATS", "yes"},
                                        {"VT_CONV_CHANNEL_TILE", "3"},
                                        {"VT_CONV_REG", "1x"},
                                        {"VT_CPU_THREADS", "0"},
                                        {"VT_CONV_GUIDED", "3"},
                                        {"VT_PLUGINS", " , "},
                                        {"VT_PROVIDERS_STATS", "1"}},
                                       &w);
  EXPECT_EQ(w.size(), 8u);
  EXPECT_TRUE(mentions(w, "VT_LOG=\"verbose\" is not accepted (expected error|warn|info|debug)"));
  EXPECT_TRUE(mentions(w, "VT_PROVIDER_STATS=\"yes\""));
  EXPECT_TRUE(mentions(w, "VT_CONV_CHANNEL_TILE=\"3\""));
  EXPECT_TRUE(mentions(w, "VT_CONV_REG=\"1x\""));
  EXPECT_TRUE(mentions(w, "VT_CPU_THREADS=\"0\""));
  EXPECT_TRUE(mentions(w, "VT_CONV_GUIDED=\"3\""));
  EXPECT_TRUE(mentions(w, "VT_PLUGINS"));
  EXPECT_TRUE(mentions(w, "unknown knob VT_PROVIDERS_STATS"));
  EXPECT_FALSE(k.log_level.has_value());
  EXPECT_FALSE(k.provider_stats);
  EXPECT_FALSE(k.plugins.has_value());
  EXPECT_TRUE(k.ints.empty());
}

TEST(Knobs, EveryKnobIsDocumented) {
  for (const auto& s : vt::Knobs::specs()) {
    EXPECT_EQ(std::string(s.name).rfind("VT_", 0), 0u) << s.name;
    EXPECT_GT(std::string(s.accepted).size(), 0u) << s.name;
    EXPECT_GT(std::string(s.meaning).size(), 0u) << s.name;
  }
}

// The switches providers list and read on their calls, and no other knob: the core's, a
// plugin's start-up one and the tests' are not (the load's warning about an unlisted switch
// rests on this).
TEST(Knobs, ProviderSwitchesAreKnownApart) {
  std::vector<std::string> switches;
  for (const auto& s : vt::Knobs::specs())
    if (vt::Knobs::steers_providers(s.name)) switches.emplace_back(s.name);
  EXPECT_EQ(switches, (std::vector<std::string>{"VT_CONV_EXACT_CHUNKS", "VT_CONV_REG", "VT_CONV_CHANNEL_TILE",
                                                "VT_CONV_STAGE_X", "VT_CONV_ONE_SEQUENCE", "VT_CONV_GUIDED",
                                                "VT_GDN_POSTCONV_TOKEN_TILE", "VT_EARLY_LAUNCH", "VT_CPU_THREADS"}));
  EXPECT_FALSE(vt::Knobs::steers_providers("VT_NO_SUCH_KNOB"));
}

}  // namespace

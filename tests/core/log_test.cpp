#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "vt/log.hpp"

namespace {

TEST(Log, LevelsFilterAndTheCallbackReceives) {
  std::vector<std::pair<vt::LogLevel, std::string>> got;
  vt::set_log_callback([&](vt::LogLevel l, std::string_view m) { got.emplace_back(l, std::string(m)); });
  const vt::LogLevel before = vt::log_level();
  vt::set_log_level(vt::LogLevel::warn);
  vt::log(vt::LogLevel::error, "e");
  vt::log(vt::LogLevel::warn, "w");
  vt::log(vt::LogLevel::info, "i");
  vt::log(vt::LogLevel::debug, "d");
  vt::set_log_level(vt::LogLevel::debug);
  vt::log(vt::LogLevel::debug, "d2");
  vt::set_log_callback({});
  vt::set_log_level(before);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].second, "e");
  EXPECT_EQ(got[1].second, "w");
  EXPECT_EQ(got[2].first, vt::LogLevel::debug);
  EXPECT_EQ(got[2].second, "d2");
}

}  // namespace

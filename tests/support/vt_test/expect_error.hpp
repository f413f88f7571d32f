// The tests' one way to check a failure: the call throws vt::Error with the expected status
// and a message that says what a user needs (each of `words` appears in it).
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "vt/error.hpp"

namespace vt::test {

inline void expect_words(const std::string& text, const std::vector<std::string>& words) {
  for (const auto& w : words) EXPECT_NE(text.find(w), std::string::npos) << "missing '" << w << "' in: " << text;
}

inline void expect_error(const std::function<void()>& call, vt::Status code, std::initializer_list<std::string> words) {
  try {
    call();
    ADD_FAILURE() << "no error; expected " << vt::status_name(code) << " with '"
                  << (words.size() == 0 ? std::string() : *words.begin()) << "'";
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), code) << "expected " << vt::status_name(code) << ", got " << vt::status_name(e.code()) << ": "
                              << e.what();
    expect_words(e.what(), std::vector<std::string>(words));
  }
}

inline void expect_error(const std::function<void()>& call, vt::Status code, const std::string& text) {
  expect_error(call, code, {text});
}

}  // namespace vt::test

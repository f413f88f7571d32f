// The benchmark catalogue: the shapes of ops.md and performance.md, and the variants
// (knob settings) each is timed under.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vt/opcheck/op_case.hpp"

namespace vt::bench {

struct Variant {
  std::string name;                      // "default", "no-plan", ...
  std::map<std::string, int64_t> knobs;  // integer switches for the runtime that runs it
  // Providers left out (VT_DISABLE_PROVIDERS); the variant runs only on devices whose
  // backend registers one of them for the op, so it compares against what they replace.
  std::vector<std::string> disable;
};

struct BenchCase {
  std::string name;   // "conv_fwd/C8192/T65536"
  std::string group;  // the plot series: "conv_fwd single sequence"
  vt_op_id op;
  // Builds the op case with a seed; several seeds give the rotation copies.
  std::function<std::unique_ptr<opcheck::OpCase>(uint64_t seed)> make;
  std::vector<Variant> variants;
};

// `model_values`: conv inputs near N(0, 1) as in a model (fill.hpp says why), else spread
// over binades as in the parity suite.
std::vector<BenchCase> catalogue(bool quick, bool model_values);

}  // namespace vt::bench

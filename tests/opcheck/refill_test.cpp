// OpCase::refill_from, which gives the parity suite's graph replays and vt-bench's rotated
// copies fresh inputs in the same buffers: float tensors take the donor's values, integer
// tensors keep their own, the reference's answer follows, and a donor of another layout is
// refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "vt/error.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/vt.hpp"

namespace {

using vt::DType;
using namespace vt::opcheck;

ConvFwdParams params() {
  ConvFwdParams p;
  p.lengths = {5, 3};
  p.slots = {1, 0};
  p.num_slots = 4;
  p.initial = ConvFwdParams::Initial::all;
  return p;
}

bool is_float(DType d) { return d == DType::f32 || d == DType::f16 || d == DType::bf16; }

TEST(Refill, FloatTensorsTakeTheDonorsValuesAndTheAnswerFollows) {
  vt::Runtime rt{vt::Knobs{}};
  rt.load();
  vt::Queue q = rt.device("cpu:0").create_queue();
  auto target = make_case("target", params(), 1), donor = make_case("donor", params(), 2);
  const Images before = target->memory().initial();
  target->bind(q);
  donor->bind(q);
  const Images old_answer = target->expected();
  ASSERT_NE(old_answer, donor->expected()) << "the two seeds should give different values";

  target->refill_from(*donor);
  const CaseMemory& m = target->memory();
  for (int id = 0; id < m.count(); ++id) {
    SCOPED_TRACE(m.slot(id).name);
    const auto i = static_cast<size_t>(id);
    EXPECT_EQ(m.initial()[i], is_float(m.slot(id).dtype) ? donor->memory().initial()[i] : before[i]);
  }
  // The same slots and lengths, so the reference now answers as it does for the donor.
  EXPECT_EQ(target->expected(), donor->expected());
}

TEST(Refill, ADonorOfAnotherLayoutIsRefused) {
  auto target = make_case("target", params(), 1);
  ConvFwdParams wider = params();
  wider.channels += 1;
  ConvFwdParams stateless = params();
  stateless.stateless = true;
  stateless.initial = ConvFwdParams::Initial::absent;
  for (const auto& [donor, words] : std::vector<std::pair<ConvFwdParams, std::string>>{
           {wider, "take_float_contents: tensor x is laid out differently in the donor"},
           {stateless, "take_float_contents: the donor has 5 tensors, this memory 8"}}) {
    try {
      target->refill_from(*make_case("donor", donor, 2));
      ADD_FAILURE() << "refill_from took a donor of another layout";
    } catch (const vt::Error& e) {
      EXPECT_EQ(e.code(), vt::Status::invalid_argument);
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
}

}  // namespace

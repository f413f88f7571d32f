#include "measure.hpp"

#include <vector>

#include "vt/error.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/tools/event_timing.hpp"

namespace vt::demo {
namespace {

// Timed calls after the parity call (which also warms up): as many as fit in about a second,
// up to 50, at least one, so a fast device gets a stable median and a slow one (a CPU driver
// of a GPU API, the scalar reference in a debug build) does not hold the demo up.
constexpr tools::SampleLimits kLimits{1, 50, 1.0};

}  // namespace

Row measure(opcheck::OpCase& c, const std::string& step, const Device& device, Queue& queue) {
  Row r;
  r.device = device.name();
  r.step = step;
  r.op = std::string(op_name(c.op()));
  r.shape = c.shape();
  r.floor_bytes = c.floor_bytes();
  try {
    c.bind(queue);
    r.provider = std::string(c.run(queue));  // from the initial images: the parity run, and a warm-up
    const opcheck::Images actual = c.download(queue);
    const opcheck::Report report =
        opcheck::compare(c.memory(), c.expected(), actual, {opcheck::Tolerance::Mode::bitwise, 0});
    r.parity = report.summary();
    r.identical = report.passed;
    r.failed = !report.first_structural.empty();

    const std::vector<double> ms = tools::sample_ms(
        device, queue, [&] { c.run(queue); }, kLimits);
    r.runs = static_cast<int>(ms.size());
    r.median_ms = tools::median(ms);
    if (r.median_ms > 0) r.gb_per_s = static_cast<double>(r.floor_bytes) / (r.median_ms * 1e-3) / 1e9;
  } catch (const Error& e) {
    r.failed = true;
    r.parity = std::string("error: ") + e.what();
  }
  return r;
}

}  // namespace vt::demo

#include "timing.hpp"

#include <chrono>

#include "vt/error.hpp"
#include "vt/tools/event_timing.hpp"

namespace vt::bench {
namespace {

constexpr double kGraphBelowMs = 0.05;  // shorter calls are timed by graph replay
constexpr double kWarmSeconds = 0.25;
constexpr size_t kMinCallsPerSample = 4;

using tools::median;
using tools::sample_ms;

}  // namespace

double copy_bandwidth(const Device& device, Queue& queue) {
  const bool big = device.properties().memory_bytes >= (uint64_t{16} << 30) && !device.properties().unified_memory;
  const uint64_t bytes = big ? (uint64_t{1} << 30) : (uint64_t{128} << 20);
  Buffer a = device.alloc(bytes), b = device.alloc(bytes);
  queue.fill(a, 0, 0x3c, bytes);  // not zeros: some memory systems compress them
  queue.copy(b, 0, a, 0, bytes);  // warm-up
  queue.sync();
  const double ms = median(sample_ms(device, queue, [&] { queue.copy(b, 0, a, 0, bytes); }));
  return 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

Timing time_rotation(std::vector<std::unique_ptr<opcheck::OpCase>>& copies, const Device& device, Queue& queue) {
  size_t next = 0;
  auto one = [&] { copies[next++ % copies.size()]->run(queue); };
  // Warm-up: every copy once, then on until the device has worked for kWarmSeconds, so the
  // samples see the clocks of a sustained load (an idle GPU starts at a low clock).
  const auto begin = std::chrono::steady_clock::now();
  do {
    for (size_t i = 0; i < copies.size(); ++i) one();
    queue.sync();
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() < kWarmSeconds);
  // Each sample times several calls back to back: one call between two events also times the
  // wait for its launch on an idle device (the decode update at B = 256 took 51.7 us that way
  // and 28 us by graph replay on the H200, 2026-11-29).
  const size_t per_sample = copies.size() < kMinCallsPerSample ? kMinCallsPerSample : copies.size();
  Timing t;
  const auto event_ms = sample_ms(device, queue, [&] {
    for (size_t i = 0; i < per_sample; ++i) one();
  });
  t.median_ms = median(event_ms) / static_cast<double>(per_sample);
  t.samples = static_cast<int>(event_ms.size());
  if (t.median_ms >= kGraphBelowMs || !device.properties().graph_capture) return t;

  // Short calls: capture one call per copy into a graph and time its replays.
  Graph graph;
  try {
    queue.capture_begin();
    for (auto& c : copies) c->run(queue);
    graph = queue.capture_end();
  } catch (const Error&) {
    try {
      queue.capture_end();  // leave the queue out of capture mode
    } catch (const Error&) {
    }
    return t;  // not capturable here: keep the event timing
  }
  constexpr int kReplays = 20;
  const auto ms = sample_ms(device, queue, [&] {
    for (int r = 0; r < kReplays; ++r) queue.launch(graph);
  });
  t.median_ms = median(ms) / (kReplays * static_cast<double>(copies.size()));
  t.samples = static_cast<int>(ms.size());
  t.graph = true;
  return t;
}

}  // namespace vt::bench

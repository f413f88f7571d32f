#include "baseline.hpp"

#include <algorithm>
#include <charconv>

#include "text_file.hpp"

namespace vt::leakcheck {

int Baseline::of(const std::string& bucket) const {
  const auto it = counts.find(bucket);
  return it == counts.end() ? 0 : it->second;
}

Baseline load_baseline(const Config& config) {
  Baseline b;
  if (config.baseline.empty() || !std::filesystem::exists(config.baseline)) return b;
  b.present = true;
  const std::string text = read_text(config.baseline);
  int line = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view row(text.data() + start, end - start);
    start = end + 1;
    ++line;
    Fields f(row);
    const std::string bucket(f.next());
    if (bucket.empty() || bucket.front() == '#') continue;
    const auto fail = [&](const std::string& message) {
      throw UsageError(config.baseline.string() + ":" + std::to_string(line) + ": " + message);
    };
    if (!config.has_bucket(bucket)) fail("bucket '" + bucket + "' is not declared in " + config.file.string());
    if (b.counts.count(bucket) != 0) fail("bucket '" + bucket + "' listed twice");
    const std::string_view count = f.next();
    int n = -1;
    const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (count.empty() || ec != std::errc() || ptr != count.data() + count.size() || n < 0 || !f.done()) {
      fail("expected: <bucket> <count>");
    }
    b.counts[bucket] = n;
  }
  return b;
}

std::string format_baseline(const Config& config, const std::map<std::string, int>& counts) {
  std::string out =
      "# vt-leakcheck baseline: hits per bucket. Lower a count when hits go away (--write-baseline);\n"
      "# the tool never raises one.\n";
  for (const Bucket& bucket : config.buckets) {
    const auto it = counts.find(bucket.name);
    out += bucket.name + " " + std::to_string(it == counts.end() ? 0 : it->second) + "\n";
  }
  return out;
}

}  // namespace vt::leakcheck

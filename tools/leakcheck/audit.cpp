#include "audit.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "scanner.hpp"
#include "text_file.hpp"

namespace fs = std::filesystem;

namespace vt::leakcheck {
namespace {

bool under(const std::string& file, const std::string& dir) {
  return file == dir || (file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 && file[dir.size()] == '/');
}

bool excluded(const std::string& rel, const Config& config) {
  return std::any_of(config.excludes.begin(), config.excludes.end(),
                     [&](const PathEntry& e) { return under(rel, e.path); });
}

bool wanted_extension(const fs::path& file, const Config& config) {
  const std::string ext = file.extension().string();
  return std::find(config.extensions.begin(), config.extensions.end(), ext) != config.extensions.end();
}

std::string relative_name(const fs::path& file, const fs::path& root) {
  return file.lexically_relative(root).generic_string();
}

// Every file to scan, relative to the root, sorted so output does not depend on the file system.
std::set<std::string> files_to_scan(const fs::path& root, const Config& config) {
  std::set<std::string> files;
  for (const PathEntry& layer : config.layers) {
    const fs::path top = layer.path == "." ? root : root / layer.path;
    std::error_code ec;
    if (fs::is_regular_file(top, ec)) {
      if (!excluded(layer.path, config)) files.insert(layer.path);
      continue;
    }
    if (!fs::is_directory(top, ec)) {
      throw UsageError(config.file.string() + ":" + std::to_string(layer.line) + ": layer '" + layer.path +
                       "' does not exist under " + root.string());
    }
    for (auto it = fs::recursive_directory_iterator(top, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) throw UsageError("cannot walk " + top.string() + ": " + ec.message());
      const std::string rel = relative_name(it->path(), root);
      if (excluded(rel, config)) {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(ec) && wanted_extension(it->path(), config)) files.insert(rel);
    }
  }
  return files;
}

void apply_markers(const std::string& file, const std::vector<Marker>& markers, std::vector<TreeHit>& hits,
                   Audit& audit) {
  for (const Marker& m : markers) {
    if (!m.error.empty()) {
      audit.bad_markers.push_back(BadMarker{file, m.line, m.error});
      continue;
    }
    Exemption e{file, m.line, m.bucket, m.reason, 0};
    for (TreeHit& h : hits) {
      if (h.status == HitStatus::counted && h.bucket == m.bucket && (h.line == m.line || h.line == m.line + 1)) {
        h.status = HitStatus::exempt;
        ++e.hits;
      }
    }
    audit.exemptions.push_back(std::move(e));
  }
}

// An entry covers its file's hits only when the count is exact; otherwise it is stale and the
// hits stay counted, so the report shows them.
void apply_allowlist(const Config& config, Audit& audit) {
  for (const AllowEntry& entry : config.allow) {
    AllowResult r{entry, 0};
    for (const TreeHit& h : audit.hits) {
      if (h.file == entry.file && h.bucket == entry.bucket && h.status == HitStatus::counted) ++r.found;
    }
    if (!r.stale()) {
      for (TreeHit& h : audit.hits) {
        if (h.file == entry.file && h.bucket == entry.bucket && h.status == HitStatus::counted) {
          h.status = HitStatus::allowlisted;
        }
      }
    }
    audit.allowlist.push_back(std::move(r));
  }
}

}  // namespace

bool Audit::clean() const {
  const auto unused = [](const Exemption& e) { return e.hits == 0; };
  const auto bad_count = [](const BucketCount& b) { return b.leak() || b.stale(); };
  const auto stale = [](const AllowResult& a) { return a.stale(); };
  return bad_markers.empty() && std::none_of(exemptions.begin(), exemptions.end(), unused) &&
         std::none_of(buckets.begin(), buckets.end(), bad_count) &&
         std::none_of(allowlist.begin(), allowlist.end(), stale);
}

void Audit::set_baseline(const Baseline& baseline) {
  for (BucketCount& b : buckets) b.baseline = baseline.of(b.name);
}

Audit run_audit(const fs::path& root, const Config& config, const Baseline& baseline) {
  Audit audit;
  audit.root = root;
  audit.config = config.file;
  for (const PathEntry& layer : config.layers) audit.layers.push_back(layer.path);
  for (const std::string& file : files_to_scan(root, config)) {
    const FileScan scan = scan_source(read_text(root / file), config);
    ++audit.files_scanned;
    std::vector<TreeHit> hits;
    for (const Hit& h : scan.hits) hits.push_back(TreeHit{file, h.line, h.bucket, h.text, HitStatus::counted});
    apply_markers(file, scan.markers, hits, audit);
    audit.hits.insert(audit.hits.end(), hits.begin(), hits.end());
  }
  apply_allowlist(config, audit);
  std::map<std::string, int> found;
  for (const TreeHit& h : audit.hits) {
    if (h.status == HitStatus::counted) ++found[h.bucket];
  }
  for (const Bucket& b : config.buckets) audit.buckets.push_back(BucketCount{b.name, found[b.name], 0});
  audit.set_baseline(baseline);
  return audit;
}

}  // namespace vt::leakcheck

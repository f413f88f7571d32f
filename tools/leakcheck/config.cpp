#include "config.hpp"

#include <algorithm>
#include <charconv>

#include "text_file.hpp"

namespace vt::leakcheck {
namespace {

class Parser {
 public:
  explicit Parser(const std::filesystem::path& file) { config_.file = file; }

  Config parse(std::string_view text) {
    size_t start = 0;
    while (start <= text.size()) {
      const size_t end = std::min(text.find('\n', start), text.size());
      ++line_;
      directive(text.substr(start, end - start));
      start = end + 1;
    }
    line_ = 0;
    if (config_.layers.empty()) fail("no 'layer' line: nothing to scan");
    if (config_.extensions.empty()) fail("no 'extensions' line: no file would be scanned");
    if (config_.buckets.empty()) fail("no 'bucket' line");
    return std::move(config_);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    std::string where = config_.file.string();
    if (line_ > 0) where += ":" + std::to_string(line_);
    throw UsageError(where + ": " + message);
  }

  void directive(std::string_view line) {
    Fields f(line);
    const std::string_view word = f.next();
    if (word.empty() || word.front() == '#') return;
    if (word == "layer") {
      paths(f, config_.layers, true);
    } else if (word == "exclude") {
      paths(f, config_.excludes, false);
    } else if (word == "extensions") {
      extensions(f);
    } else if (word == "baseline") {
      baseline(f);
    } else if (word == "bucket") {
      bucket(f);
    } else if (word == "ident" || word == "cond" || word == "string" || word == "include") {
      rules(word, f);
    } else if (word == "allow") {
      allow(f);
    } else {
      fail("unknown directive '" + std::string(word) + "'");
    }
  }

  std::string path(std::string_view raw, bool dot_allowed) const {
    std::string p(raw);
    std::replace(p.begin(), p.end(), '\\', '/');
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    while (p.rfind("./", 0) == 0) p.erase(0, 2);
    if (p == "." && dot_allowed) return p;
    if (p.empty() || p == "." || p.front() == '/')
      fail("'" + std::string(raw) + "' must be a path relative to the root");
    const std::string padded = "/" + p + "/";
    if (padded.find("/../") != std::string::npos || padded.find("/./") != std::string::npos) {
      fail("'" + std::string(raw) + "' must not contain '.' or '..' components");
    }
    return p;
  }

  void paths(Fields& f, std::vector<PathEntry>& into, bool dot_allowed) {
    if (f.done()) fail("expected at least one path");
    while (!f.done()) into.push_back(PathEntry{path(f.next(), dot_allowed), line_});
  }

  void extensions(Fields& f) {
    if (f.done()) fail("expected at least one extension");
    while (!f.done()) {
      const std::string_view ext = f.next();
      if (ext.size() < 2 || ext.front() != '.') fail("extension '" + std::string(ext) + "' must look like .cpp");
      config_.extensions.emplace_back(ext);
    }
  }

  void baseline(Fields& f) {
    if (!config_.baseline.empty()) fail("a second 'baseline' line");
    const std::string_view name = f.next();
    if (name.empty() || !f.done()) fail("expected: baseline <file>");
    const std::filesystem::path p(name);
    config_.baseline = p.is_absolute() ? p : config_.file.parent_path() / p;
  }

  std::string bucket_name(std::string_view name) const {
    const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
             c == '-';
    });
    if (!ok) fail("bad bucket name '" + std::string(name) + "' (letters, digits, '.', '_', '-')");
    return std::string(name);
  }

  std::string known_bucket(std::string_view name) const {
    if (name.empty()) fail("expected a bucket name");
    if (!config_.has_bucket(name))
      fail("unknown bucket '" + std::string(name) + "' (declare it with a 'bucket' line first)");
    return std::string(name);
  }

  void bucket(Fields& f) {
    const std::string name = bucket_name(f.next());
    if (config_.has_bucket(name)) fail("bucket '" + name + "' declared twice");
    const std::string_view description = f.rest();
    if (description.empty()) fail("bucket '" + name + "' needs a description");
    config_.buckets.push_back(Bucket{name, std::string(description)});
  }

  void rules(std::string_view word, Fields& f) {
    const RuleKind kind = word == "ident"    ? RuleKind::ident
                          : word == "cond"   ? RuleKind::cond
                          : word == "string" ? RuleKind::string
                                             : RuleKind::include;
    const std::string bucket = known_bucket(f.next());
    if (f.done()) fail("expected at least one pattern");
    while (!f.done()) {
      Rule rule{kind, bucket, std::string(f.next()), std::nullopt, line_};
      std::string error;
      if (kind == RuleKind::ident || kind == RuleKind::cond) {
        rule.ident = IdentifierPattern::parse(rule.pattern, error);
        if (!rule.ident) fail(error);
      } else if (auto why = glob_error(rule.pattern)) {
        fail(*why);
      }
      config_.rules.push_back(std::move(rule));
    }
  }

  void allow(Fields& f) {
    AllowEntry e;
    e.line = line_;
    const std::string_view file = f.next();
    if (file.empty()) fail("expected: allow <file> <bucket> <count> <reason>");
    e.file = path(file, false);
    e.bucket = known_bucket(f.next());
    const std::string_view count = f.next();
    const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), e.count);
    if (count.empty() || ec != std::errc() || end != count.data() + count.size() || e.count < 1) {
      fail("allowlist count '" + std::string(count) + "' must be a whole number above zero");
    }
    e.reason = std::string(f.rest());
    if (e.reason.empty()) fail("allowlist entry for " + e.file + " needs a reason");
    for (const AllowEntry& other : config_.allow) {
      if (other.file == e.file && other.bucket == e.bucket)
        fail("a second allowlist entry for " + e.file + " " + e.bucket);
    }
    config_.allow.push_back(std::move(e));
  }

  Config config_;
  int line_ = 0;
};

}  // namespace

bool Config::has_bucket(std::string_view name) const {
  return std::any_of(buckets.begin(), buckets.end(), [&](const Bucket& b) { return b.name == name; });
}

Config parse_config(std::string_view text, const std::filesystem::path& file) { return Parser(file).parse(text); }

Config load_config(const std::filesystem::path& file) { return parse_config(read_text(file), file); }

}  // namespace vt::leakcheck

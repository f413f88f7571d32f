#include "scanner.hpp"

#include <unordered_map>

#include "lexer.hpp"
#include "pattern.hpp"

namespace vt::leakcheck {
namespace {

bool is_condition(std::string_view directive) {
  return directive == "if" || directive == "elif" || directive == "ifdef" || directive == "ifndef" ||
         directive == "elifdef" || directive == "elifndef";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

class Matcher {
 public:
  explicit Matcher(const Config& config) : config_(config) {}

  // The bucket of the first rule that claims the identifier, or nullptr. In a condition the
  // cond rules go first, so `#ifdef X` counts as a condition rather than a use of X.
  const std::string* identifier(const std::string& id, bool in_condition) {
    auto& memo = in_condition ? condition_memo_ : code_memo_;
    if (auto it = memo.find(id); it != memo.end()) return it->second;
    const std::string* bucket = in_condition ? first(id, RuleKind::cond) : nullptr;
    if (bucket == nullptr) bucket = first(id, RuleKind::ident);
    memo.emplace(id, bucket);
    return bucket;
  }

  const std::string* string_literal(std::string_view content) const {
    for (const Rule& r : config_.rules) {
      if (r.kind == RuleKind::string && glob_match(r.pattern, content, true)) return &r.bucket;
    }
    return nullptr;
  }

  const std::string* header(std::string_view path) const {
    for (const Rule& r : config_.rules) {
      if (r.kind == RuleKind::include && include_matches(r.pattern, path)) return &r.bucket;
    }
    return nullptr;
  }

 private:
  const std::string* first(const std::string& id, RuleKind kind) const {
    for (const Rule& r : config_.rules) {
      if (r.kind == kind && r.ident->matches(id)) return &r.bucket;
    }
    return nullptr;
  }

  const Config& config_;
  std::unordered_map<std::string, const std::string*> code_memo_;
  std::unordered_map<std::string, const std::string*> condition_memo_;
};

Marker parse_marker(const Comment& comment, std::string_view body, const Config& config) {
  Marker m;
  m.line = comment.line;
  body = trim(body.substr(kMarkerTag.size()));
  constexpr std::string_view open = "allow(";
  const size_t close = body.find(')');
  if (body.substr(0, open.size()) != open || close == std::string_view::npos) {
    m.error = "expected allow(<bucket>) <reason> after the marker tag";
    return m;
  }
  m.bucket = std::string(trim(body.substr(open.size(), close - open.size())));
  m.reason = std::string(trim(body.substr(close + 1)));
  if (m.bucket.empty()) {
    m.error = "exemption marker names no bucket";
  } else if (!config.has_bucket(m.bucket)) {
    m.error = "exemption marker names unknown bucket '" + m.bucket + "'";
  } else if (m.reason.empty()) {
    m.error = "exemption marker for " + m.bucket + " gives no reason";
  }
  return m;
}

}  // namespace

FileScan scan_source(std::string_view source, const Config& config) {
  const LexedFile lexed = lex(source);
  FileScan out;
  Matcher match(config);
  for (size_t i = 0; i < lexed.tokens.size(); ++i) {
    const Token& t = lexed.tokens[i];
    const Directive* d = t.directive >= 0 ? &lexed.directives[static_cast<size_t>(t.directive)] : nullptr;
    const std::string* bucket = nullptr;
    std::string shown = t.text;
    switch (t.kind) {
      case TokenKind::identifier:
        if (d == nullptr || d->name_token != static_cast<int>(i)) {
          bucket = match.identifier(t.text, d != nullptr && is_condition(d->name));
        }
        break;
      case TokenKind::string:
        bucket = match.string_literal(t.text);
        shown = "\"" + t.text + "\"";
        break;
      case TokenKind::header_name: bucket = match.header(t.text); break;
      default: break;
    }
    if (bucket != nullptr) out.hits.push_back(Hit{t.line, *bucket, std::move(shown)});
  }
  for (const Comment& c : lexed.comments) {
    std::string_view body = c.text;
    while (!body.empty() && (body.front() == ' ' || body.front() == '\t' || body.front() == '/' ||
                             body.front() == '*' || body.front() == '!')) {
      body.remove_prefix(1);
    }
    if (body.substr(0, kMarkerTag.size()) == kMarkerTag) out.markers.push_back(parse_marker(c, body, config));
  }
  return out;
}

}  // namespace vt::leakcheck

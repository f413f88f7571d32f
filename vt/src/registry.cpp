#include "vt/registry.hpp"

#include <algorithm>
#include <cstdio>

#include "runtime_impl.hpp"
#include "vt/error.hpp"
#include "vt/op_id.hpp"

namespace vt {

struct Registry::Entry {
  vt_op_id op;
  std::string backend;
  ProviderSpec spec;
  bool disabled;
  std::atomic<uint64_t> calls{0}, declines{0};

  Entry(vt_op_id o, std::string_view b, const ProviderSpec& s, bool d) : op(o), backend(b), spec(s), disabled(d) {}
};

// The providers a call on one device walks, best first. `best` is the best provider the
// backend registered for the op (disabled ones aside): strict mode compares against it.
struct Registry::Chain {
  std::vector<Entry*> entries;
  const Entry* best = nullptr;
};

namespace {

constexpr size_t kOps = VT_OP_LAST_ + 1;

bool before(const ProviderSpec& a, const ProviderSpec& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.name < b.name;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

Registry::Registry(std::vector<std::string> disabled_providers, bool strict)
    : disabled_(std::move(disabled_providers)),
      strict_(strict),
      cache_(std::make_unique<std::atomic<const Chain*>[]>(kMaxDevices * kOps)) {}

Registry::~Registry() = default;

void Registry::add(vt_op_id op, std::string_view backend, const ProviderSpec& spec) {
  const std::string who =
      "registry: provider '" + spec.name + "' for " + std::string(op_name(op)) + " on " + std::string(backend);
  if (!op_is_known(op)) throw Error(Status::invalid_argument, who + ": unknown op id " + std::to_string(op));
  if (spec.name.empty())
    throw Error(Status::invalid_argument, "registry: a provider for " + std::string(op_name(op)) + " has no name");
  if (!spec.run) throw Error(Status::invalid_argument, who + ": no run function");
  std::lock_guard lock(mutex_);
  for (const Entry& e : entries_)
    if (e.op == op && e.backend == backend && e.spec.name == spec.name)
      throw Error(Status::invalid_argument, who + ": the name is already registered");
  const bool disabled = std::find(disabled_.begin(), disabled_.end(), spec.name) != disabled_.end();
  entries_.emplace_back(op, backend, spec, disabled);
  // Chains built before this provider existed are stale: drop them from the cache (they stay
  // allocated, a thread may still be walking one).
  for (uint32_t slot = 0; slot < kMaxDevices; ++slot)
    cache_[slot * kOps + op].store(nullptr, std::memory_order_release);
}

std::vector<ProviderCounts> Registry::providers(vt_op_id op, std::string_view backend) const {
  std::vector<ProviderCounts> out;
  std::vector<const Entry*> sorted;
  {
    std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
      if (e.op == op && e.backend == backend) sorted.push_back(&e);
  }
  std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) { return before(a->spec, b->spec); });
  for (const Entry* e : sorted)
    out.push_back({e->op, e->backend, e->spec.name, e->spec.priority, e->disabled,
                   e->calls.load(std::memory_order_relaxed), e->declines.load(std::memory_order_relaxed)});
  return out;
}

const Registry::Chain* Registry::build_chain(vt_op_id op, const DispatchTarget& target) {
  std::vector<Entry*> all;
  for (Entry& e : entries_)
    if (e.op == op && e.backend == target.backend && !e.disabled) all.push_back(&e);
  std::sort(all.begin(), all.end(), [](const Entry* a, const Entry* b) { return before(a->spec, b->spec); });
  Chain chain;
  chain.best = all.empty() ? nullptr : all.front();
  for (Entry* e : all)
    if (!e->spec.supports || e->spec.supports(target.props)) chain.entries.push_back(e);
  chains_.push_back(std::move(chain));
  return &chains_.back();
}

const Registry::Chain& Registry::chain_for(vt_op_id op, const DispatchTarget& target) {
  if (!op_is_known(op)) throw Error(Status::invalid_argument, "dispatch: unknown op id " + std::to_string(op));
  if (target.slot >= kMaxDevices)
    throw Error(Status::invalid_argument, "dispatch: device slot " + std::to_string(target.slot) + " out of range");
  std::atomic<const Chain*>& cell = cache_[target.slot * kOps + op];
  if (const Chain* c = cell.load(std::memory_order_acquire)) return *c;
  std::lock_guard lock(mutex_);
  const Chain* c = cell.load(std::memory_order_acquire);
  if (!c) {
    c = build_chain(op, target);
    cell.store(c, std::memory_order_release);
  }
  return *c;
}

std::vector<std::string> Registry::selection(vt_op_id op, const DispatchTarget& target) {
  std::vector<std::string> names;
  for (const Entry* e : chain_for(op, target).entries) names.push_back(e->spec.name);
  return names;
}

std::string_view Registry::dispatch(vt_op_id op, const DispatchTarget& target, const vt_op_call& call) {
  const Chain& chain = chain_for(op, target);
  auto context = [&] { return std::string(op_name(op)) + " on " + std::string(target.device_name); };
  if (chain.entries.empty()) {
    std::string why = chain.best ? "no registered provider supports this device"
                                 : "no provider is registered for backend '" + std::string(target.backend) + "'";
    std::vector<std::string> disabled;
    for (const auto& p : providers(op, target.backend))
      if (p.disabled) disabled.push_back(p.name);
    if (!disabled.empty()) why += " (disabled: " + join(disabled) + ")";
    throw Error(Status::not_found, context() + ": " + why);
  }
  if (strict_ && chain.entries.front() != chain.best)
    throw Error(Status::strict_fallback, context() + ": strict mode: best provider '" + chain.best->spec.name +
                                             "' does not support this device; refusing '" +
                                             chain.entries.front()->spec.name + "'");
  for (size_t i = 0; i < chain.entries.size(); ++i) {
    Entry* e = chain.entries[i];
    detail::clear_plugin_error();
    const vt_status s = e->spec.run(&call);
    if (s == VT_STATUS_DECLINED) {
      e->declines.fetch_add(1, std::memory_order_relaxed);
      if (strict_ && i + 1 < chain.entries.size())
        throw Error(Status::strict_fallback, context() + ": strict mode: provider '" + e->spec.name +
                                                 "' declined the call; refusing to fall back to '" +
                                                 chain.entries[i + 1]->spec.name + "'");
      continue;
    }
    e->calls.fetch_add(1, std::memory_order_relaxed);
    if (s != VT_OK) {
      std::string msg =
          context() + ": provider '" + e->spec.name + "' failed (" + status_name(static_cast<Status>(s)) + ")";
      const std::string detail = detail::take_plugin_error();
      if (!detail.empty()) msg += ": " + detail;
      throw Error(static_cast<Status>(s), msg);
    }
    return e->spec.name;
  }
  std::vector<std::string> names;
  for (const Entry* e : chain.entries) names.push_back(e->spec.name);
  throw Error(Status::unsupported, context() + ": every provider declined this call (" + join(names) + ")");
}

std::vector<ProviderCounts> Registry::stats() const {
  std::vector<ProviderCounts> out;
  std::vector<std::pair<vt_op_id, std::string>> keys;
  {
    std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
      if (std::find(keys.begin(), keys.end(), std::make_pair(e.op, e.backend)) == keys.end())
        keys.emplace_back(e.op, e.backend);
  }
  std::sort(keys.begin(), keys.end());
  for (const auto& [op, backend] : keys)
    for (auto& p : providers(op, backend)) out.push_back(std::move(p));
  return out;
}

std::string Registry::stats_table() const {
  std::string s = "vt provider stats:\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-22s %-10s %-28s %12s %10s\n", "op", "backend", "provider", "calls", "declines");
  s += line;
  for (const auto& p : stats()) {
    std::snprintf(line, sizeof line, "  %-22s %-10s %-28s %12llu %10llu%s\n", std::string(op_name(p.op)).c_str(),
                  p.backend.c_str(), p.name.c_str(), static_cast<unsigned long long>(p.calls),
                  static_cast<unsigned long long>(p.declines), p.disabled ? "  (disabled)" : "");
    s += line;
  }
  return s;
}

}  // namespace vt

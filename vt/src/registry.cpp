#include "vt/registry.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <type_traits>
#include <utility>

#include "runtime_impl.hpp"
#include "vt/error.hpp"
#include "vt/op_id.hpp"

namespace vt {

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

// The host table a provider that declared its knobs is called with: the runtime's, except that
// knob_int answers from the declared knobs that are set. `api` comes first so the provider's
// `const vt_host_api*` leads back here.
struct ProviderHost {
  vt_host_api api;
  const std::vector<std::pair<std::string, int64_t>>* values;
};
static_assert(std::is_standard_layout_v<ProviderHost> && offsetof(ProviderHost, api) == 0);

int declared_knob_int(const vt_host_api* self, const char* name, int64_t* value) {
  if (!self || !name || !value) return 0;
  for (const auto& [knob, v] : *reinterpret_cast<const ProviderHost*>(self)->values)
    if (knob == name) {
      *value = v;
      return 1;
    }
  return 0;
}

// A provider's call and decline counts, split over cache lines: a host thread counts in its own
// shard (threads take shards in turn), so threads calling one provider at once do not pull one
// line back and forth, nor the line of the entry's fields that every call reads. The counts
// are the shards' sums, exact (each add is atomic).
class CallCounts {
 public:
  void call() { mine().calls.fetch_add(1, std::memory_order_relaxed); }
  void decline() { mine().declines.fetch_add(1, std::memory_order_relaxed); }
  uint64_t calls() const { return sum(&Shard::calls); }
  uint64_t declines() const { return sum(&Shard::declines); }

 private:
  static constexpr unsigned kShards = 16;
  struct alignas(64) Shard {
    std::atomic<uint64_t> calls{0}, declines{0};
  };
  Shard& mine() {
    static std::atomic<unsigned> next_thread{0};
    thread_local const unsigned shard = next_thread.fetch_add(1, std::memory_order_relaxed) % kShards;
    return shards_[shard];
  }
  uint64_t sum(std::atomic<uint64_t> Shard::*count) const {
    uint64_t n = 0;
    for (const Shard& s : shards_) n += (s.*count).load(std::memory_order_relaxed);
    return n;
  }
  std::array<Shard, kShards> shards_;
};

}  // namespace

struct Registry::Entry {
  vt_op_id op;
  std::string backend;
  ProviderSpec spec;
  bool disabled;
  CallCounts counts;
  std::vector<std::pair<std::string, int64_t>> knob_values;  // the declared knobs that are set
  std::optional<ProviderHost> host;                          // where the provider declared its knobs

  Entry(vt_op_id o, std::string_view b, const ProviderSpec& s, bool d, const vt_host_api* runtime_host)
      : op(o), backend(b), spec(s), disabled(d) {
    if (!spec.knobs || !runtime_host) return;
    for (const std::string& k : *spec.knobs) {
      int64_t v = 0;
      if (vt_host_knob_int(runtime_host, k.c_str(), &v)) knob_values.emplace_back(k, v);
    }
    vt_host_api api = *runtime_host;
    api.knob_int = declared_knob_int;
    host = ProviderHost{api, &knob_values};
  }
  Entry(const Entry&) = delete;  // `host` points into the entry
  Entry& operator=(const Entry&) = delete;
};

// The providers a call on one device walks, best first. `best` is the best provider the
// backend registered for the op (disabled ones aside): strict mode compares against it.
struct Registry::Chain {
  std::vector<Entry*> entries;
  const Entry* best = nullptr;
};

Registry::Registry(std::vector<std::string> disabled_providers, bool strict, const vt_host_api* host)
    : disabled_(std::move(disabled_providers)),
      strict_(strict),
      host_(host),
      cache_(std::make_unique<std::atomic<const Chain*>[]>(kMaxDevices * kOps)) {}

Registry::~Registry() = default;

void Registry::add(vt_op_id op, std::string_view backend, const ProviderSpec& spec) {
  const std::string who =
      "registry: provider '" + spec.name + "' for " + std::string(op_name(op)) + " on " + std::string(backend);
  if (!op_is_known(op)) throw Error(Status::invalid_argument, who + ": unknown op id " + std::to_string(op));
  if (spec.name.empty())
    throw Error(Status::invalid_argument, "registry: a provider for " + std::string(op_name(op)) + " has no name");
  if (!spec.run) throw Error(Status::invalid_argument, who + ": no run function");
  if (spec.knobs && std::find(spec.knobs->begin(), spec.knobs->end(), std::string()) != spec.knobs->end())
    throw Error(Status::invalid_argument, who + ": an empty knob name");
  std::lock_guard lock(mutex_);
  for (const Entry& e : entries_)
    if (e.op == op && e.backend == backend && e.spec.name == spec.name)
      throw Error(Status::invalid_argument, who + ": the name is already registered");
  const bool disabled = std::find(disabled_.begin(), disabled_.end(), spec.name) != disabled_.end();
  entries_.emplace_back(op, backend, spec, disabled, host_);
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
    out.push_back({e->op, e->backend, e->spec.name, e->spec.priority, e->disabled, e->counts.calls(),
                   e->counts.declines(), e->spec.knobs});
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
  vt_op_call own = call;  // the same call, with a provider's own host table where it has one
  for (size_t i = 0; i < chain.entries.size(); ++i) {
    Entry* e = chain.entries[i];
    detail::clear_plugin_error();
    own.host = e->host && call.host == host_ ? &e->host->api : call.host;
    const vt_status s = e->spec.run(&own);
    if (s == VT_STATUS_DECLINED) {
      e->counts.decline();
      if (strict_ && i + 1 < chain.entries.size())
        throw Error(Status::strict_fallback, context() + ": strict mode: provider '" + e->spec.name +
                                                 "' declined the call; refusing to fall back to '" +
                                                 chain.entries[i + 1]->spec.name + "'");
      continue;
    }
    e->counts.call();
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

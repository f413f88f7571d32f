// The op registry: (op, backend) -> providers. Selection is the highest priority whose
// predicate holds for the device, ties broken by name; disabled providers are left out.
// A provider may decline a call, which then goes to the next one in that order.
// After the first call for an (op, device) the lookup is a cached pointer: no lock,
// no allocation, no string work.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vt/export.hpp"
#include "vt/plugin_abi.h"

namespace vt {

struct ProviderSpec {
  std::string name;
  int32_t priority = 0;
  int (*supports)(const vt_device_props*) = nullptr;  // optional
  vt_status (*run)(const vt_op_call*) = nullptr;
  // The knobs that steer the provider (vt_provider_desc::knobs, ABI 1.2): called with the
  // registry's host table, it sees these alone. nullopt: an older descriptor, which sees all.
  std::optional<std::vector<std::string>> knobs = std::nullopt;
};

struct ProviderCounts {
  vt_op_id op;
  std::string backend, name;
  int32_t priority;
  bool disabled;
  uint64_t calls, declines;
  std::optional<std::vector<std::string>> knobs;  // as registered (ProviderSpec::knobs)

  // Whether the provider sees this knob: it lists it, or it has no list.
  bool reads(std::string_view knob) const {
    return !knobs || std::find(knobs->begin(), knobs->end(), knob) != knobs->end();
  }
};

// Where a call goes: one device, identified for the cache by a small slot number.
struct DispatchTarget {
  uint32_t slot;  // unique per device in this registry, < Registry::kMaxDevices
  std::string_view backend;
  std::string_view device_name;  // for messages
  const vt_device_props* props;
};

class VT_API Registry {
 public:
  static constexpr uint32_t kMaxDevices = 256;

  // `host`: the runtime's table for its plugins. A call dispatched with it reaches a provider
  // that declared its knobs through a copy answering those knobs alone (their values read
  // from `host` when the provider is added: a runtime's knobs do not change).
  Registry(std::vector<std::string> disabled_providers = {}, bool strict = false, const vt_host_api* host = nullptr);
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Throws vt::Error(invalid_argument) for an unknown op, an empty name, a missing run
  // function, an empty knob name, or a name already registered for this (op, backend).
  void add(vt_op_id op, std::string_view backend, const ProviderSpec& spec);

  // Every registered provider of (op, backend), in selection order, disabled ones included.
  std::vector<ProviderCounts> providers(vt_op_id op, std::string_view backend) const;
  // The chain a call on this device would walk: disabled and unsupported ones left out.
  std::vector<std::string> selection(vt_op_id op, const DispatchTarget& target);

  // Runs the op; returns the name of the provider that ran (stable storage).
  // Throws vt::Error when no provider is left, every one declined, strict mode refuses a
  // fallback, or the provider failed (with its message).
  std::string_view dispatch(vt_op_id op, const DispatchTarget& target, const vt_op_call& call);

  std::vector<ProviderCounts> stats() const;  // every provider, grouped by op and backend
  std::string stats_table() const;            // for VT_PROVIDER_STATS
  bool strict() const { return strict_; }

 private:
  struct Entry;
  struct Chain;
  const Chain& chain_for(vt_op_id op, const DispatchTarget& target);
  const Chain* build_chain(vt_op_id op, const DispatchTarget& target);  // under mutex_

  std::vector<std::string> disabled_;
  bool strict_;
  const vt_host_api* host_;
  mutable std::mutex mutex_;
  std::deque<Entry> entries_;                           // stable addresses
  std::deque<Chain> chains_;                            // never freed: readers may hold old ones
  std::unique_ptr<std::atomic<const Chain*>[]> cache_;  // [slot * ops + op]
};

}  // namespace vt

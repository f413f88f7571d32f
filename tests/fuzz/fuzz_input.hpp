// Decoding a fuzz input into op arguments. Bytes are read from the front and a missing byte
// reads as 0; 0 always decodes to the canonical (valid) choice, so an all-zero input is a
// valid call of the chosen op and a seed is a handful of readable bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

#include "vt/ops/gdn.hpp"
#include "vt/vt.hpp"

namespace fuzz {

// The runtimes and devices, created once per process.
struct Env {
  static Env& get();
  vt::Device home, foreign;  // foreign: another runtime's cpu:0
  vt::Queue home_queue, foreign_queue;
  std::vector<vt::Buffer> pool;  // shared buffers, where views overlap
};

// The fuzzer's own verdict: an accepted call broke an invariant, or something other than
// vt::Error(invalid_argument) came out. Both trap, so libFuzzer keeps the input; fail() is for
// messages costly to build, called once the check has failed.
[[noreturn, gnu::format(printf, 1, 2)]] void fail(const char* format, ...);
[[gnu::format(printf, 2, 3)]] void require(bool ok, const char* format, ...);

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // `canonical` for a zero byte, other values in [0, mod) otherwise.
  int64_t around(int64_t canonical, int64_t mod) { return (canonical + byte()) % mod; }
  int64_t extent();  // small mostly, sometimes negative or huge
  int64_t stride();  // as extent(), with 0..3 more likely
  int64_t head_dim(int64_t canonical);
  float eps();
  vt::DType pick(std::initializer_list<vt::DType> choices);

 private:
  const uint8_t* data_;
  size_t size_, pos_ = 0;
};

struct Shape {
  Shape(std::vector<int64_t> d, std::vector<uint32_t> o = {}) : dims(std::move(d)), order(std::move(o)) {}
  std::vector<int64_t> dims;
  // An alternative storage order, outermost first: {0, 2, 1} stores [S, C, W] as [S, W, C].
  std::vector<uint32_t> order;
};

// Decodes tensors and owns the buffers behind them for one input.
class Views {
 public:
  explicit Views(Env& env) : env_(env) {}
  // A tensor whose canonical form is `dtype[shape]` in a buffer of its own. The input may
  // drop it, change its dtype, an extent or the rank, the strides, the offset, or put it in a
  // shared or a foreign buffer. A view that TensorView refuses comes back absent.
  vt::TensorView next(Reader& r, vt::DType dtype, const Shape& shape);
  // Host metadata: `canonical`, or the input's edit of it (may be empty, i.e. not given).
  std::vector<int32_t> host(Reader& r, std::vector<int32_t> canonical);

 private:
  vt::TensorView build(const vt::Buffer& b, vt::DType t, const std::vector<int64_t>& shape,
                       const std::vector<int64_t>& strides, uint64_t offset);
  Env& env_;
  std::vector<std::unique_ptr<vt::Buffer>> owned_;
};

}  // namespace fuzz

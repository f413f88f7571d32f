#include "fuzz_input.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <numeric>

namespace fuzz {
namespace {

// Extents and strides past any buffer: negative ones, ones whose products overflow int64,
// and 2^62+1, whose byte span wraps to a few bytes in 64-bit arithmetic.
constexpr int64_t kHuge[] = {-1,        -7,        1LL << 16, 1LL << 31,       1LL << 40,
                             1LL << 56, 1LL << 59, 1LL << 62, (1LL << 62) + 1, std::numeric_limits<int64_t>::max()};
constexpr uint64_t kMaxBuffer = 1 << 20;  // a view needing more gets a token buffer (and should fail)
constexpr __int128 kSaturated = static_cast<__int128>(1) << 100;

vt::Knobs cpu_only() {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{VT_CPU_PLUGIN};
  k.log_level = vt::LogLevel::error;
  return k;
}

// Bytes from the buffer start to the end of the view, exact (no wrap-around); -1 if negative
// extents or strides make it meaningless.
__int128 needed_bytes(vt::DType t, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                      uint64_t offset) {
  __int128 last = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0 || strides[d] < 0) return -1;
    if (shape[d] == 0) return offset;
    last += static_cast<__int128>(shape[d] - 1) * strides[d];
    if (last > kSaturated) return kSaturated;  // keeps the sum of five terms from overflowing
  }
  return offset + (last + 1) * vt::dtype_size(t);
}

}  // namespace

Env& Env::get() {
  static vt::Runtime home_rt(cpu_only()), foreign_rt(cpu_only());
  static Env env = [] {
    home_rt.load();
    foreign_rt.load();
    Env e;
    e.home = home_rt.device("cpu:0");
    e.foreign = foreign_rt.device("cpu:0");
    e.home_queue = e.home.create_queue();
    e.foreign_queue = e.foreign.create_queue();
    for (int i = 0; i < 3; ++i) e.pool.push_back(e.home.alloc(1 << 14));
    return e;
  }();
  return env;
}

namespace {
[[noreturn]] void report(const char* format, std::va_list args) {
  std::fputs("validation_fuzz: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  __builtin_trap();
}
}  // namespace

void fail(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  report(format, args);
}

void require(bool ok, const char* format, ...) {
  if (ok) return;
  std::va_list args;
  va_start(args, format);
  report(format, args);
}

int64_t Reader::extent() {
  const uint8_t b = byte();
  return b < 240 ? b : kHuge[(b - 240) % std::size(kHuge)];
}

int64_t Reader::stride() {
  const uint8_t b = byte();
  if (b < 16) return b % 4;  // the small strides that alias, more often
  return b < 240 ? b - 16 : kHuge[(b - 240) % std::size(kHuge)];
}

int64_t Reader::head_dim(int64_t canonical) {
  const uint8_t b = byte();
  if (b == 0) return canonical;
  return b < 40 ? 8 * b : b - 40;  // multiples of 8 up to 312, or anything up to 215
}

float Reader::eps() {
  constexpr float kEps[] = {1e-6f,
                            0.0f,
                            -0.0f,
                            -1.0f,
                            std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::max()};
  return kEps[byte() % std::size(kEps)];
}

vt::DType Reader::pick(std::initializer_list<vt::DType> choices) { return choices.begin()[byte() % choices.size()]; }

vt::TensorView Views::build(const vt::Buffer& b, vt::DType t, const std::vector<int64_t>& shape,
                            const std::vector<int64_t>& st, uint64_t off) {
  const auto& s = shape;
  switch (s.size()) {
    case 0: return vt::TensorView::strided(b, t, {}, {}, off);
    case 1: return vt::TensorView::strided(b, t, {s[0]}, {st[0]}, off);
    case 2: return vt::TensorView::strided(b, t, {s[0], s[1]}, {st[0], st[1]}, off);
    case 3: return vt::TensorView::strided(b, t, {s[0], s[1], s[2]}, {st[0], st[1], st[2]}, off);
    case 4: return vt::TensorView::strided(b, t, {s[0], s[1], s[2], s[3]}, {st[0], st[1], st[2], st[3]}, off);
    default:
      return vt::TensorView::strided(b, t, {s[0], s[1], s[2], s[3], s[4]}, {st[0], st[1], st[2], st[3], st[4]}, off);
  }
}

// Flags byte: bit 0 absent, 1 dtype, 2 an extent or the rank, 3-4 layout, 5-6 placement (own
// buffer, shared pool, foreign device, a buffer too small), 7 an extra offset.
vt::TensorView Views::next(Reader& r, vt::DType dtype, const Shape& canonical) {
  const uint8_t flags = r.byte();
  if (flags & 1) return {};
  if (flags & 2) dtype = static_cast<vt::DType>(r.byte() % 5);
  std::vector<int64_t> shape = canonical.dims;
  if (flags & 4) {
    const uint8_t k = r.byte();
    if (k % 8 == 7 || shape.empty()) {
      if (k & 8 || shape.empty()) shape.insert(shape.begin(), 1 + (k >> 4));
      else shape.erase(shape.begin());
    } else {
      shape[k % shape.size()] = r.extent();
    }
  }
  const size_t rank = shape.size();
  const int layout = (flags >> 3) & 3;  // row-major, padded rows, raw strides, storage order
  std::vector<uint32_t> order(rank);
  std::iota(order.begin(), order.end(), 0u);
  if (layout == 3) {
    if (canonical.order.size() == rank && r.byte() % 2 == 0) order = canonical.order;
    else
      for (size_t i = rank; i > 1; --i) std::swap(order[i - 1], order[r.byte() % i]);
  }
  std::vector<int64_t> strides(rank);
  if (layout == 2) {
    for (auto& s : strides) s = r.stride();
  } else {
    uint64_t stride = 1;  // wraps on huge extents, as a caller's arithmetic would
    for (size_t i = rank; i-- > 0;) {
      strides[order[i]] = static_cast<int64_t>(stride);
      stride *= static_cast<uint64_t>(std::max<int64_t>(shape[order[i]], 1));
      if (layout == 1) stride += r.byte();
    }
  }
  uint64_t offset = 0;
  if (flags & 0x80) {
    offset = r.byte();
    if (r.byte() % 4) offset *= vt::dtype_size(dtype);  // else possibly misaligned
  }
  const __int128 need = needed_bytes(dtype, shape, strides, offset);
  const uint64_t size = need < 0 || need > kMaxBuffer ? 64 : static_cast<uint64_t>(need);
  try {
    switch ((flags >> 5) & 3) {
      case 1: {
        const vt::Buffer& b = env_.pool[r.byte() % env_.pool.size()];
        return build(b, dtype, shape, strides, offset + 16 * static_cast<uint64_t>(r.byte()));
      }
      case 2: owned_.push_back(std::make_unique<vt::Buffer>(env_.foreign.alloc(size))); break;
      case 3:
        owned_.push_back(
            std::make_unique<vt::Buffer>(env_.home.alloc(size - std::min<uint64_t>(size, 1 + r.byte() % 8))));
        break;
      default: owned_.push_back(std::make_unique<vt::Buffer>(env_.home.alloc(size)));
    }
    return build(*owned_.back(), dtype, shape, strides, offset);
  } catch (const vt::Error& e) {
    require(e.code() == vt::Status::invalid_argument, "tensor view: %s", e.what());
    return {};
  }
}

// Flags byte: bit 0 not given, 1 one value changed, 2 resized, 3 every value replaced.
std::vector<int32_t> Views::host(Reader& r, std::vector<int32_t> v) {
  const uint8_t flags = r.byte();
  if (flags & 1) return {};
  if (flags & 4)
    v.resize(static_cast<size_t>(std::max(0, static_cast<int>(v.size()) + static_cast<int8_t>(r.byte()) % 3)));
  if ((flags & 2) && !v.empty()) {
    const size_t i = r.byte() % v.size();
    v[i] += static_cast<int8_t>(r.byte());
  }
  if (flags & 8)
    for (auto& x : v) x = static_cast<int8_t>(r.byte());
  return v;
}

}  // namespace fuzz

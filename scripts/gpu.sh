#!/usr/bin/env bash
# On the GPU machine (see ../shared/device/README.md): unpack the staged packages, build
# with the GPU backends for the local architecture, run vt-demo, the GPU tests, the memory
# and race checkers over them, and vt-bench. Results (JSON, CSV, plot, logs) go to $OUT.
# A ten-minute device call holds one part, not the whole run: --skip-bench first (built
# and tested in 169 s on a fresh H200 machine, sanitizers apart, twenty-sixth session), then
# the bench, whose cases and variants take longer than one call: give each call a share
# (--bench-args "--device cuda:0 --case conv_fwd/C8192/T", ...).
# The ROCm backend's HIP sources are built too, through nvcc (VT_ROCM_VIA_CUDA), so the same
# GPU runs them as rocm:N beside cuda:N. $OUT keeps at most 8 files: the bench's JSON, plot
# and table (with the host overhead of each call after it, from one thread, then of a few cases
# from four at once), the parity log, vt-info (and vt-demo's table after it), gpu.txt (the
# card, each check's verdict, and its clocks during the bench), strip-copy.txt (the conv's
# access pattern as a plain copy, backends/cuda/bench/strip_copy.cu) and small-copy.txt (the
# small cases' bytes as a plain copy, backends/cuda/bench/small_copy.cu).
# Usage: scripts/gpu.sh [--arch 90] [--skip-tests] [--skip-sanitizer] [--skip-bench]
#                       [--bench-args "..."] [--cmake-arg -DX=Y]...
set -euo pipefail
cd "$(dirname "$0")/.."
arch=90
sanitize=1
tests=1
bench=1
# Both sanitizers over the cases and the arms: the cases run each op's default variant only
# (their runtime reads no environment knob), the arms every variant, the staged conv among
# them. racecheck is clean over the arms since the staged ring's threads each arrive on its
# `empty` barrier (docs/benchmarks.md, twenty-seventh session). The host-memory test adds the
# plugins' page-locked buffers as copy sources and destinations.
sanitizer_filter='Cases/*cuda*:Cases/*rocm*:Ops/ParityArms.*cuda*:Ops/ParityArms.*rocm*:HostMemory/*cuda*:HostMemory/*rocm*'
bench_args=""
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --skip-sanitizer) sanitize=0; shift ;;
    --skip-tests) tests=0; sanitize=0; shift ;;
    --skip-bench) bench=0; shift ;;
    --bench-args) bench_args=$2; shift 2 ;;
    --cmake-arg) cmake_args+=("$2"); shift 2 ;;
    *) echo "gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
[ -f .devdebs/unpack-debs.sh ] && eval "$(bash .devdebs/unpack-debs.sh)"
build=/tmp/vt-gpu-build
logs=$build/logs
mkdir -p "$logs"
jobs=$(nproc)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVT_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -DVT_ROCM_VIA_CUDA=ON "${cmake_args[@]}" >"$logs/configure.log" 2>&1 || { tail -30 "$logs/configure.log"; exit 1; }
# Only what the parts asked for: a call may start on a fresh machine, so each part builds
# its own targets.
# The copy benches serve both: their byte checks run with the tests, their timings with the bench.
targets=(vt-info cuda_strip_copy cuda_small_copy)
[ "$tests" = 1 ] && targets+=(vt-demo parity_test geometry_test cuda_math_test rocm_math_test)
[ "$bench" = 1 ] && targets+=(vt-bench cuda_empty_launch)
for t in $(cmake --build "$build" --target help | sed -n 's/^\(vt-backend-[a-z0-9_-]*\):.*/\1/p; s/^\.\.\. \(vt-backend-[a-z0-9_-]*\).*/\1/p' | grep -v fault); do targets+=("$t"); done
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >"$logs/build.log" 2>&1 || { grep -E "error" -A5 "$logs/build.log" | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
"$build/bin/vt-info" | tee "$out/vt-info.txt"

status=0
# Each check's verdict goes to the console and to gpu.txt, which comes back from the device
# even when the console's output is cut (a caller's head or tail, the device tool's 12,000
# characters), and its log to $logs (the parity log to $OUT); a failure also shows the log's end.
# A GoogleTest binary passes with skipped tests too (a GPU test skips where its plugin did not
# load), so the verdict counts them.
check() {  # NAME LOG COMMAND...
  local name=$1 log=$2 skipped verdict=passed
  shift 2
  if "$@" >"$log" 2>&1; then
    skipped=$(grep -cE '^\[  SKIPPED \] .* \([0-9]+ ms\)$' "$log" || true)
    [ "$skipped" = 0 ] || verdict="passed (skipped: $skipped)"
    echo "$name: $verdict" | tee -a "$out/gpu.txt"
  else
    echo "$name: FAILED" | tee -a "$out/gpu.txt"
    tail -20 "$log"
    status=1
  fi
}
# A log's result lines (at most MAX) beside the verdict. None is no reason to stop (set -e): a
# math test that skipped, or that crashed before its summary, prints none. No pipe into head:
# with pipefail, a grep cut off by head's exit would stop the script too.
show() {  # PATTERN LOG [MAX]
  grep -m "${3:-1000}" -E "$1" "$2" || echo "  (no line of $2 matches $1)"
}
if [ "$tests" = 1 ]; then
  # The main job (README) on every device this machine loads, kept after vt-info's listing.
  { echo; "$build/bin/vt-demo"; } 2>&1 | tee -a "$out/vt-info.txt" || status=1
  check geometry_test "$logs/geometry.log" "$build/bin/geometry_test"
  check cuda_math_test "$logs/cuda_math.log" "$build/bin/cuda_math_test"
  show "inputs|OK|FAILED|Failure|first at" "$logs/cuda_math.log"
  check rocm_math_test "$logs/rocm_math.log" "$build/bin/rocm_math_test"
  show "inputs|OK|FAILED|Failure|first at" "$logs/rocm_math.log"
  check "cuda_strip_copy --check-only" "$logs/strip_copy.log" "$build/bin/cuda_strip_copy" --check-only
  check "cuda_small_copy --check-only" "$logs/small_copy.log" "$build/bin/cuda_small_copy" --check-only
  check parity_test "$out/parity.log" "$build/bin/parity_test"
  show "^\[  (PASSED|FAILED|SKIPPED) |^  [a-z]+: |arm\(s\)" "$out/parity.log" 40
  awk '/^parity by device and op/ { on = 1 } on && n++ < 40' "$out/parity.log"
fi

if [ "$sanitize" = 1 ]; then
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck; do
      check "compute-sanitizer $tool" "$logs/sanitizer-$tool.log" compute-sanitizer --tool "$tool" --error-exitcode 9 \
        "$build/bin/parity_test" --gtest_filter="$sanitizer_filter"
    done
  else
    echo "compute-sanitizer: not on this machine's PATH, both checks skipped" | tee -a "$out/gpu.txt"
  fi
fi

if [ "$bench" = 1 ]; then
  # The reference of the small cases' targets (an empty launch plus 2 us).
  "$build/bin/cuda_empty_launch" | tee -a "$out/gpu.txt"
  "$build/bin/cuda_strip_copy" >"$out/strip-copy.txt" 2>&1 || status=1
  # The small cases' bytes as a plain copy: the floor of their targets.
  "$build/bin/cuda_small_copy" >"$out/small-copy.txt" 2>&1 || status=1
  # The card's clocks while the bench runs: kernels bound by arithmetic or latency scale with
  # the SM clock, so the numbers are read against it.
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 500 \
    >"$logs/clocks.csv" 2>/dev/null &
  sampler=$!
  # shellcheck disable=SC2086
  "$build/bin/vt-bench" --json "$out/bench.json" --svg "$out/bench.svg" $bench_args >"$out/bench.txt" 2>&1 || status=1
  kill "$sampler" 2>/dev/null || true
  awk -F', ' '{split($2, c, " "); n++; s += c[1]; if (c[1] > m) m = c[1]; if (n == 1 || c[1] < lo) lo = c[1]} END {if (n) printf "SM clock during the bench: %d samples, min %d, mean %d, max %d MHz\n", n, lo, s / n, m}' \
    "$logs/clocks.csv" | tee -a "$out/gpu.txt"
  sort "$logs/clocks.csv" | awk -F', ' '{print $5}' | sort | uniq -c | sort -rn | head -3 | sed 's/^/  clock event reasons: /' | tee -a "$out/gpu.txt"
  # The host side of each call on the GPU (performance.md: validation + dispatch under 1 us;
  # the whole call's launch against cuda_empty_launch's host time in gpu.txt), after the bench
  # and appended to its table.
  # Then four host threads at once, each on a stream of its own, over the update's cases and
  # the two ops at T = 128, where the host's side is most of the call.
  threads=(--host-overhead --threads 4 --device cuda:0 --case conv_update --case conv_fwd/C8192/T128
    --case post_conv/C8192/T128)
  {
    echo; echo "vt-bench --host-overhead --device cuda:0"
    "$build/bin/vt-bench" --host-overhead --device cuda:0 || status=1
    echo; echo "vt-bench ${threads[*]}"
    "$build/bin/vt-bench" "${threads[@]}" || status=1
  } >>"$out/bench.txt" 2>&1
  cat "$out/bench.txt"
fi
exit $status

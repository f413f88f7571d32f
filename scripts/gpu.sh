#!/usr/bin/env bash
# On the GPU machine (see ../shared/device/README.md): unpack the staged packages, build
# with the GPU backends for the local architecture, run the GPU tests, the memory and race
# checkers over them, and vt-bench. Results (JSON, CSV, plot, logs) go to $OUT.
# Usage: scripts/gpu.sh [--arch 90] [--skip-sanitizer] [--bench-args "..."] [--cmake-arg -DX=Y]...
set -euo pipefail
cd "$(dirname "$0")/.."
arch=90
sanitize=1
sanitizer_filter='Cases/*cuda*'
bench_args=""
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --skip-sanitizer) sanitize=0; shift ;;
    --bench-args) bench_args=$2; shift 2 ;;
    --cmake-arg) cmake_args+=("$2"); shift 2 ;;
    *) echo "gpu.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
[ -f .devdebs/unpack-debs.sh ] && eval "$(bash .devdebs/unpack-debs.sh)"
build=/tmp/vt-gpu-build
jobs=$(nproc)

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVT_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" "${cmake_args[@]}" \
  >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
targets=(vt-info vt-bench vt-demo parity_test geometry_test)
for t in $(cmake --build "$build" --target help | sed -n 's/^\(vt-backend-[a-z0-9_-]*\):.*/\1/p; s/^\.\.\. \(vt-backend-[a-z0-9_-]*\).*/\1/p' | grep -v fault); do targets+=("$t"); done
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >"$out/build.log" 2>&1 || { grep -E "error" -A5 "$out/build.log" | head -60; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
"$build/bin/vt-info" | tee "$out/vt-info.txt"

status=0
"$build/bin/geometry_test" >"$out/geometry.log" 2>&1 && echo "geometry_test: passed" || { echo "geometry_test: FAILED"; status=1; }
"$build/bin/parity_test" >"$out/parity.log" 2>&1 && echo "parity_test: passed" || status=1
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^  [a-z]+: |arm\(s\)" "$out/parity.log" | head -40

if [ "$sanitize" = 1 ] && command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    compute-sanitizer --tool "$tool" --error-exitcode 9 "$build/bin/parity_test" --gtest_filter="$sanitizer_filter" \
      >"$out/sanitizer-$tool.log" 2>&1 && echo "compute-sanitizer $tool: clean" || { echo "compute-sanitizer $tool: FAILED"; tail -20 "$out/sanitizer-$tool.log"; status=1; }
  done
fi

# shellcheck disable=SC2086
"$build/bin/vt-bench" --json "$out/bench.json" --csv "$out/bench.csv" --svg "$out/bench.svg" $bench_args | tee "$out/bench.txt" || status=1
exit $status

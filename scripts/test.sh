#!/usr/bin/env bash
# Checks the sources' formatting (scripts/format.sh), then builds and runs every test: a
# -Werror build with the whole suite (GPU backends compiled, their tests skip without a
# device), the CPU parts (and Vulkan on lavapipe) under ASan+UBSan, the concurrency tests
# under ThreadSanitizer, and the validation fuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/format.sh --check
jobs=$(nproc)

run() {  # run <build dir> <ctest args...> -- <cmake args...>
  local dir=$1; shift
  local ctest_args=()
  while [ "$1" != "--" ]; do ctest_args+=("$1"); shift; done
  shift
  echo "=== $dir: $*"
  cmake -S . -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
  (cd "$dir" && ctest --output-on-failure -j"$jobs" "${ctest_args[@]}")
}

run build-test -- -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVT_WERROR=ON
run build-asan -- -DCMAKE_BUILD_TYPE=Debug -DVT_WERROR=ON -DVT_SANITIZE=address,undefined -DVT_WITH_CUDA=OFF
run build-tsan -L tsan -- -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVT_WERROR=ON -DVT_SANITIZE=thread -DVT_WITH_CUDA=OFF -DVT_WITH_VULKAN=OFF
scripts/fuzz.sh

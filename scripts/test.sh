#!/usr/bin/env bash
# Builds and runs every test: a -Werror build with the whole suite, the CPU parts under
# ASan+UBSan, and the concurrency tests under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
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
run build-asan -- -DCMAKE_BUILD_TYPE=Debug -DVT_WERROR=ON -DVT_SANITIZE=address,undefined
run build-tsan -L tsan -- -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVT_WERROR=ON -DVT_SANITIZE=thread

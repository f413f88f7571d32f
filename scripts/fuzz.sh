#!/usr/bin/env bash
# Builds the argument-validation fuzzer with clang in build-fuzz, libvt and the CPU plugin
# under the same ASan+UBSan, and runs it for a bounded time (ctest label fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang++ >/dev/null || { echo "fuzz: clang++ not found (scripts/setup.sh installs it)" >&2; exit 1; }
# fuzzer-no-link: coverage feedback from libvt's checks, not only from the fuzzer's own code.
# Only the CPU parts: the GPU backends play no part in argument validation.
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVT_SANITIZE=address,undefined \
  -DVT_WITH_CUDA=OFF -DVT_WITH_VULKAN=OFF \
  -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target validation_fuzz
cd build-fuzz && ctest -L fuzz --output-on-failure

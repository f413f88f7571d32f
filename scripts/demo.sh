#!/usr/bin/env bash
# The main job: set up, build, and show what vt resolves on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVT_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
build/bin/vt-info

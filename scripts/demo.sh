#!/usr/bin/env bash
# The main job: set up, build, show what vt loaded (vt-info), and run a Qwen3.5-shaped GDN
# step on every device with its providers, speed and parity (vt-demo).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVT_BUILD_TESTS=OFF
cmake --build build -j"$(nproc)"
build/bin/vt-info
build/bin/vt-demo

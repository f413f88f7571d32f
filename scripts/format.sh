#!/usr/bin/env bash
# Formats the tracked C, C++, CUDA and HIP sources with the root .clang-format, in place;
# --check changes nothing and fails, naming the files, where one differs (scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format: clang-format not found (scripts/setup.sh installs it)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.hip')
if [ "${1:-}" = "--check" ]; then
  if ! report=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<< "$report" | cut -d: -f1 | sort -u | sed 's/^/format: differs: /' >&2
    echo "format: run scripts/format.sh" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files as .clang-format has them"
else
  clang-format -i "${files[@]}"
fi

#!/usr/bin/env bash
# scripts/ab.sh run --card: with a stand-in nvidia-smi first on PATH, a run stops (exit 3)
# before anything is built when GPU 0 is another card or nvidia-smi names none, and goes on
# past the check when the name matches, in any case. ab.sh runs from a copy in an empty
# folder, so that past the check it stops at its next refusal (no .ab/base) and writes
# nothing. Usage: ab_card_test.sh path/to/ab.sh
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/repo/scripts"
cp "$1" "$tmp/repo/scripts/ab.sh"
ab=$tmp/repo/scripts/ab.sh
fake=$tmp/bin
failures=0

# GPU 0's name for the stand-in; empty: it fails as nvidia-smi does without a driver.
gpu() {
  if [ -n "$1" ]; then
    printf '#!/bin/sh\necho "%s"\n' "$1" >"$fake/nvidia-smi"
  else
    printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' >"$fake/nvidia-smi"
  fi
  chmod +x "$fake/nvidia-smi"
}

# expect EXIT_CODE PATTERN ARGS...: runs ab.sh run ARGS and checks its status and output.
expect() {
  local want=$1 pattern=$2
  shift 2
  local out rc
  out=$(PATH="$fake:$PATH" bash "$ab" run "$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want" ] || ! grep -qE -e "$pattern" <<<"$out"; then
    echo "FAIL: ab.sh run $* gave exit $rc (want $want) and:"
    while IFS= read -r line; do echo "  | $line"; done <<<"$out"
    echo "  (wanted a line matching: $pattern)"
    failures=$((failures + 1))
  else
    echo "ok: ab.sh run $* -> exit $rc: $(grep -E -e "$pattern" <<<"$out" | head -1)"
  fi
}

gpu "NVIDIA H100 80GB HBM3"
expect 3 "GPU 0 is NVIDIA H100 80GB HBM3, not H200: stopped before building" --card H200 conv_fwd/C8192/T16384
gpu ""
expect 3 "--card H200: nvidia-smi names no GPU 0 here" --card H200 conv_fwd/C8192/T16384
gpu "NVIDIA H200"
# Past the check: the next refusal is the missing .ab/base.
expect 2 "ab.sh: no .ab/base" --card h200 conv_fwd/C8192/T16384
# Without --card the name is never tested.
gpu "NVIDIA H100 80GB HBM3"
expect 2 "ab.sh: no .ab/base" conv_fwd/C8192/T16384
# A refused run leaves its checkout as it was (ab-out/ is made only once the run goes on).
for f in "$tmp/repo"/* "$tmp/repo"/.[!.]*; do
  [ -e "$f" ] && [ "$f" != "$tmp/repo/scripts" ] && { echo "FAIL: ab.sh wrote $f"; failures=$((failures + 1)); }
done

[ "$failures" = 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "all cases passed"

#!/usr/bin/env bash
# A/B of one backend plugin between two source trees, in one run on one device
# (performance.md: "faster" compares two builds in the same run, as a ratio).
#
#   scripts/ab.sh prepare REV
#       Here, in the repository: writes the sources of git revision REV to .ab/base (git
#       ignores it; name .ab in the device tool's carry), since the GPU machine gets the
#       working tree but no history.
#   scripts/ab.sh run [--backend cuda] [--arch 90] [--rounds 2] [--bench-args "..."]
#                     CASE[:VARIANT]...
#       Builds the plugin of .ab/base and of the working tree, plus the working tree's
#       vt-bench, then times every CASE (a vt-bench --case filter, with an optional
#       --variant) on <backend>:0 with each plugin in turn (VT_PLUGINS), base first, and
#       prints both rows with the time ratio base / working (above 1: working is faster).
#       Each pair runs `rounds` times, so the spread between rounds shows the noise. Cases
#       up to vt-bench's default --check-bytes are checked bit for bit in both builds.
#       --bench-args go to every vt-bench call (e.g. "--values spread --check-bytes 0").
# Results: $OUT/ab.txt (or ./ab-out/ab.txt).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift

if [ "$mode" = prepare ]; then
  [ $# -eq 1 ] || usage
  rm -rf .ab/base
  mkdir -p .ab/base
  git archive "$1" | tar -x -C .ab/base
  echo "ab.sh: .ab/base holds $(git rev-parse --short "$1")"
  exit 0
fi
[ "$mode" = run ] || usage

backend=cuda
arch=90
rounds=2
bench_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --bench-args) bench_args=$2; shift 2 ;;
    -*) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage
[ -d .ab/base ] || { echo "ab.sh: no .ab/base; run 'scripts/ab.sh prepare REV' first (and carry .ab)" >&2; exit 2; }

out=${OUT:-$PWD/ab-out}
mkdir -p "$out"
[ -f .devdebs/unpack-debs.sh ] && eval "$(bash .devdebs/unpack-debs.sh)"
plugin=vt-backend-$backend
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DVT_BUILD_TESTS=OFF)
if [ "$backend" = cuda ]; then cfg+=(-DCMAKE_CUDA_ARCHITECTURES="$arch"); fi
jobs=$(nproc)
half=$(( jobs > 1 ? jobs / 2 : 1 ))
build() {  # source folder, build folder, targets...
  local src=$1 dir=$2
  shift 2
  cmake -S "$src" -B "$dir" "${cfg[@]}" >"$dir.log" 2>&1 && cmake --build "$dir" -j"$half" --target "$@" >>"$dir.log" 2>&1
}
work=/tmp/vt-ab
mkdir -p "$work"
build .ab/base "$work/base" "$plugin" & base_pid=$!
build . "$work/working" vt-bench "$plugin" & working_pid=$!
failed=0
wait "$base_pid" || { echo "ab.sh: base build failed:"; tail -20 "$work/base.log"; failed=1; }
wait "$working_pid" || { echo "ab.sh: working build failed:"; tail -20 "$work/working.log"; failed=1; }
[ "$failed" = 0 ] || exit 1

bench=$work/working/bin/vt-bench
row() {  # plugin file, case, variant: the device's result row
  local args=(--device "$backend:0" --case "$2")
  [ -n "$3" ] && args+=(--variant "$3")
  # shellcheck disable=SC2086
  VT_PLUGINS=$1 "$bench" "${args[@]}" $bench_args 2>/dev/null | grep -E "^$backend:0 +[^ (]" || echo "(no row: the case or variant matched nothing)"
}
{
  echo "base: .ab/base; working: this tree; device $backend:0; vt-bench extra arguments: ${bench_args:-none}"
  for spec in "$@"; do
    case_name=${spec%%:*}
    variant=""
    [ "$spec" != "$case_name" ] && variant=${spec#*:}
    echo "== $spec"
    for ((r = 1; r <= rounds; ++r)); do
      b=$(row "$work/base/lib/lib$plugin.so" "$case_name" "$variant")
      w=$(row "$work/working/lib/lib$plugin.so" "$case_name" "$variant")
      echo "base    $b" | sed '2,$s/^/        /'
      echo "working $w" | sed '2,$s/^/        /'
      # Column 5 of a row is the time in us; one ratio per pair of rows.
      paste <(echo "$b" | awk -v d="$backend:0" '$1 == d {print $5}') <(echo "$w" | awk -v d="$backend:0" '$1 == d {print $5}') |
        awk -v r="$r" '$1 > 0 && $2 > 0 {printf "        round %d: base / working = %.3f\n", r, $1 / $2}'
    done
  done
} | tee "$out/ab.txt"

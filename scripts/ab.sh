#!/usr/bin/env bash
# A/B of one backend plugin between two source trees, in one run on one device
# (performance.md: "faster" compares two builds in the same run, as a ratio).
#
#   scripts/ab.sh prepare REV
#       Here, in the repository: writes the sources of git revision REV to .ab/base (git
#       ignores it; name .ab in the device tool's carry), since the GPU machine gets the
#       working tree but no history.
#   scripts/ab.sh run [--backend cuda] [--arch 90] [--rounds 2] [--bench-args "..."] [--card NAME]
#                     [--tree NAME=FILE:SED]... [--patch NAME=FILE]... CASE[:VARIANT]...
#       Builds the plugin of .ab/base and of the working tree, plus the working tree's
#       vt-bench, then times every CASE (a vt-bench --case filter, with an optional
#       --variant) on <backend>:0 with each plugin in turn (VT_PLUGINS), base first, and
#       prints the rows with the time ratio base / other (above 1: the other is faster).
#       --tree adds a variant of the working tree: its copy with `sed -i SED FILE` applied
#       (the run stops if that changes nothing), built and timed beside the others; --patch
#       NAME=FILE one with a patch applied (git apply, else patch -p1; the run stops if it
#       does not apply), such as those in docs/experiments. All plugins build at once; a
#       second run in one call rebuilds only what changed in each build's sources. Each
#       round times every build once, so the spread between rounds shows the noise. Cases up
#       to vt-bench's default --check-bytes are checked bit for bit in every build, in the
#       first round (later rounds run the same binaries on the same inputs: --check-bytes 0).
#       --bench-args go to every vt-bench call (e.g. "--values spread --check-bytes 0"); knobs
#       set in the environment (VT_CONV_WAVE_BLOCKS=792 scripts/ab.sh run ...) reach every
#       build's runs and are named in the results' first line.
#       A working tree with base's sources (prepared at the checked-out revision, nothing
#       changed outside docs/) is built for its vt-bench but not timed: its rows would be base's.
#       --card stops the run before it builds anything (exit 3) unless GPU 0's name, as
#       nvidia-smi gives it, contains NAME (e.g. H200): a device call that may get another card
#       then costs seconds, not a build. The results' first line names the card either way.
# Results: $OUT/ab.txt (or ./ab-out/ab.txt); a second run in one call writes ab-2.txt, and so on.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^# Results/p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
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
card=""
trees=()  # sed:NAME=FILE:SED or patch:NAME=FILE
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend=$2; shift 2 ;;
    --arch) arch=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --bench-args) bench_args=$2; shift 2 ;;
    --card) card=$2; shift 2 ;;
    --tree) trees+=("sed:$2"); shift 2 ;;
    --patch) trees+=("patch:$2"); shift 2 ;;
    -*) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null || true)
if [ -n "$card" ]; then
  [ -n "$gpu_name" ] || { echo "ab.sh: --card $card: nvidia-smi names no GPU 0 here" >&2; exit 3; }
  case "${gpu_name,,}" in
    *"${card,,}"*) ;;
    *) echo "ab.sh: GPU 0 is $gpu_name, not $card: stopped before building" >&2; exit 3 ;;
  esac
fi
[ -d .ab/base ] || { echo "ab.sh: no .ab/base; run 'scripts/ab.sh prepare REV' first (and carry .ab)" >&2; exit 2; }

out=${OUT:-$PWD/ab-out}
mkdir -p "$out"
result=$out/ab.txt
i=2
while [ -e "$result" ]; do result=$out/ab-$i.txt; i=$((i + 1)); done
[ -f .devdebs/unpack-debs.sh ] && eval "$(bash .devdebs/unpack-debs.sh)"
plugin=vt-backend-$backend
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DVT_BUILD_TESTS=OFF)
if [ "$backend" = cuda ]; then cfg+=(-DCMAKE_CUDA_ARCHITECTURES="$arch"); fi
work=/tmp/vt-ab
# Each tree is made afresh in $work/fresh and then copied over $work/trees file by file, only
# where the bytes differ: a second run in one call keeps the unchanged files' times, so that
# its builds are incremental. Copied whole, a tree's edited file was new again on every run
# and all that includes it recompiled (likely what cut off two 60 s runs, forty-sixth session).
rm -rf "$work/fresh"
mkdir -p "$work/fresh" "$work/trees"
sync_tree() {  # fresh folder, kept folder
  local from=$1 to=$2 f
  mkdir -p "$to"
  while IFS= read -r -d '' f; do
    cmp -s "$from/$f" "$to/$f" || { mkdir -p "$(dirname "$to/$f")" && rm -f "$to/$f" && cp -P -p "$from/$f" "$to/$f"; }
  done < <(cd "$from" && find . ! -type d -print0)
  while IFS= read -r -d '' f; do
    [ -e "$from/$f" ] || [ -L "$from/$f" ] || rm -f "$to/$f"
  done < <(cd "$to" && find . ! -type d -print0)
}

# What a checkout holds beside its sources (names, at any depth): left out of the trees'
# copies and of the comparison with base. The device machine's copy has no .git; a checkout
# here may hold build folders and outputs.
not_sources=()
for x in .git .ab .devdebs 'build*' ab-out gpu-out; do not_sources+=(--exclude="$x"); done

# The builds: label, source folder, build folder; base and working first.
labels=(base working)
sources=(.ab/base .)
for entry in "${trees[@]}"; do
  kind=${entry%%:*}
  spec=${entry#*:}
  name=${spec%%=*}
  rest=${spec#*=}
  if [ "$kind" = sed ]; then
    file=${rest%%:*}
    expr=${rest#*:}
    if [ -z "$name" ] || [ "$name" = "$spec" ] || [ "$file" = "$rest" ] || [ -z "$expr" ]; then
      echo "ab.sh: --tree wants NAME=FILE:SED, not '$spec'" >&2
      exit 2
    fi
  elif [ -z "$name" ] || [ "$name" = "$spec" ] || [ ! -f "$rest" ]; then
    echo "ab.sh: --patch wants NAME=FILE with an existing FILE, not '$spec'" >&2
    exit 2
  fi
  case " ${labels[*]} " in *" $name "*) echo "ab.sh: two builds named $name" >&2; exit 2 ;; esac
  src=$work/fresh/$name
  mkdir -p "$src"
  tar -c "${not_sources[@]}" . | tar -x -C "$src"
  if [ "$kind" = sed ]; then
    [ -f "$src/$file" ] || { echo "ab.sh: tree $name: no file $file" >&2; exit 2; }
    sed -i "$expr" "$src/$file"
    if cmp -s "$file" "$src/$file"; then
      echo "ab.sh: tree $name: '$expr' changes nothing in $file" >&2
      exit 2
    fi
  else
    patch_file=$PWD/$rest
    [[ $rest == /* ]] && patch_file=$rest
    if command -v git >/dev/null; then
      (cd "$src" && git apply "$patch_file")
    else
      (cd "$src" && patch -p1 --forward --batch <"$patch_file" >/dev/null)
    fi || { echo "ab.sh: tree $name: $rest does not apply to the working tree" >&2; exit 2; }
  fi
  sync_tree "$src" "$work/trees/$name"
  labels+=("$name")
  sources+=("$work/trees/$name")
done

same_as_base=0
# docs/ builds nothing: a new patch or note there leaves the sources base's.
diff -rq "${not_sources[@]}" --exclude=docs .ab/base . >/dev/null 2>&1 && same_as_base=1
timed() { [ "${labels[$1]}" != working ] || [ "$same_as_base" = 0 ]; }

n=${#labels[@]}
jobs=$(nproc)
per_build=$(( jobs / n > 1 ? jobs / n : 1 ))
build() {  # source folder, build folder, targets...
  local src=$1 dir=$2
  shift 2
  cmake -S "$src" -B "$dir" "${cfg[@]}" >"$dir.log" 2>&1 && cmake --build "$dir" -j"$per_build" --target "$@" >>"$dir.log" 2>&1
}
pids=()
for ((i = 0; i < n; ++i)); do
  targets=("$plugin")
  [ "${labels[$i]}" = working ] && targets+=(vt-bench)
  build "${sources[$i]}" "$work/${labels[$i]}" "${targets[@]}" &
  pids+=($!)
done
failed=0
for ((i = 0; i < n; ++i)); do
  wait "${pids[$i]}" || { echo "ab.sh: ${labels[$i]} build failed:"; tail -20 "$work/${labels[$i]}.log"; failed=1; }
done
[ "$failed" = 0 ] || exit 1

bench=$work/working/bin/vt-bench
row() {  # plugin file, case, variant, round: the device's result row
  local args=(--device "$backend:0" --case "$2")
  [ -n "$3" ] && args+=(--variant "$3")
  [ "$4" -gt 1 ] && args+=(--check-bytes 0)  # before bench_args: an explicit --check-bytes wins
  # shellcheck disable=SC2086
  VT_PLUGINS=$1 "$bench" "${args[@]}" $bench_args 2>/dev/null | grep -E "^$backend:0 +[^ (]" || echo "(no row: the case or variant matched nothing)"
}
width=0
for l in "${labels[@]}"; do [ "${#l}" -gt "$width" ] && width=${#l}; done
header="builds: ${labels[*]} (base: .ab/base; working: this tree"
[ ${#trees[@]} -gt 0 ] && header+="; trees: ${trees[*]}"
header+="); device $backend:0 (${gpu_name:-card unknown}); vt-bench extra arguments: ${bench_args:-none}"
# Knobs from the environment reach every build's run (a knob the base does not read leaves it
# at its default): named here, so that a results file says what its rows ran with.
knobs=$(env | grep -E '^VT_[A-Z0-9_]+=' | grep -v '^VT_PLUGINS=' | sort | tr '\n' ' ' || true)
header+="; environment knobs: ${knobs:-none}"
[ "$same_as_base" = 1 ] && header+=$'\n'"working has base's sources: not timed"
{
  echo "$header"
  for spec in "$@"; do
    case_name=${spec%%:*}
    variant=""
    [ "$spec" != "$case_name" ] && variant=${spec#*:}
    echo "== $spec"
    for ((r = 1; r <= rounds; ++r)); do
      rows=()
      for ((i = 0; i < n; ++i)); do
        if ! timed "$i"; then rows+=(""); continue; fi
        rows+=("$(row "$work/${labels[$i]}/lib/lib$plugin.so" "$case_name" "$variant" "$r")")
        printf "%-${width}s %s\n" "${labels[$i]}" "${rows[$i]}" | sed "2,\$s/^/$(printf "%${width}s" "") /"
      done
      # Column 5 of a row is the time in us; one ratio per row when a filter matched several.
      for ((i = 1; i < n; ++i)); do
        paste <(echo "${rows[0]}" | awk -v d="$backend:0" '$1 == d {print $5}') \
          <(echo "${rows[$i]}" | awk -v d="$backend:0" '$1 == d {print $5}') |
          awk -v r="$r" -v l="${labels[$i]}" '$1 > 0 && $2 > 0 {printf "        round %d: base / %s = %.3f\n", r, l, $1 / $2}'
      done
    done
  done
} | tee "$result"

#!/usr/bin/env bash
# The SASS of the CUDA backend's kernels, compiled here with the backend's numeric flags
# (read from backends/cuda/CMakeLists.txt), with ptxas's register and spill counts and, per
# loop (a backward branch), its instruction count by opcode. No GPU needed, but cuobjdump
# is: nvcc's package on the development machine lacks it, and the GPU machine has it in
# /usr/local/cuda/bin (0.7 MB; one device call can bring it back through $OUT).
#
#   scripts/sass.sh [--arch 90] [--cuobjdump PATH] [--base DIR | --walk START-END] FILE.cu [KERNEL_SUBSTRING]
#
# Without KERNEL_SUBSTRING it lists the file's kernels with their registers and spills.
# --base DIR also compiles DIR/FILE.cu (another source tree, such as .ab/base from
# `scripts/ab.sh prepare REV`) and says instead which functions' SASS differ between the
# two, instruction for instruction: a timing of one tree holds for the other's identical ones.
# --walk START-END (hex addresses, a loop of the listing) counts, in each matching kernel, the
# instructions of one pass from START to END along the path that takes every forward branch
# without a guard or with two predicates (`@P0 BRA P1, ...`) and falls through the other
# guarded ones: the common path of a loop whose rarely taken branches are SiLU's (a heuristic
# that reads the SASS, not a simulation; check the path it reports against the listing).
# Output: the listing on stdout; the whole SASS in /tmp/vt-sass/<file>.sass (and .base.sass).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=90
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
base=""
walk=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --cuobjdump) cuobjdump=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --walk) walk=$2; shift 2 ;;
    -*) echo "sass.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
src=$1
kernel=${2:-}
[ -x "$cuobjdump" ] || { echo "sass.sh: no cuobjdump at $cuobjdump (--cuobjdump PATH)" >&2; exit 2; }
[ -z "$base" ] || [ -f "$base/$src" ] || { echo "sass.sh: no $base/$src" >&2; exit 2; }
out=/tmp/vt-sass
mkdir -p "$out"
name=$(basename "$src" .cu)
compile() {  # source tree, output stem: the tree's FILE.cu with that tree's flags and headers
  local root=$1 stem=$2 flags
  flags=$(sed -n 's/.*<COMPILE_LANGUAGE:CUDA>:\(--fmad[^>]*\)>.*/\1/p' "$root/backends/cuda/CMakeLists.txt")
  [ -n "$flags" ] || { echo "sass.sh: the numeric flags were not found in $root/backends/cuda/CMakeLists.txt" >&2; exit 1; }
  # shellcheck disable=SC2086
  nvcc -cubin -std=c++17 -O3 -arch="sm_$arch" $flags -I"$root/backends/cuda" -I"$root/ops/include" \
    -I"$root/vt/include" -Xptxas -v -o "$stem.cubin" "$root/$src" 2>"$stem.ptxas" ||
    { grep -E "error|warning" -A3 "$stem.ptxas" | head -40 >&2; echo "sass.sh: $root/$src did not compile" >&2; exit 1; }
  "$cuobjdump" -sass "$stem.cubin" >"$stem.sass"
}
compile . "$out/$name"

# One reader of SASS for every mode: `compare TREE BASE WANT`, `list SASS PTXAS WANT` or
# `walk SASS START-END WANT`.
read_sass() {
  python3 - "$@" <<'EOF'
import re, sys
def functions(path):  # [(mangled name, [(address, instruction)])] in the file's order
    found = []
    for part in open(path).read().split("Function : ")[1:]:
        code = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s*(.*?);", part)]
        found.append((part.split("\n", 1)[0].strip(), code))
    return found

def op_counts(instructions, most=None):  # "FFMA 12, LDS 8, ...": opcodes by count, guards dropped
    ops = {}
    for i in instructions:
        op = re.sub(r"^@!?U?P\w+\s+", "", i).split(" ")[0].split(".")[0]
        ops[op] = ops.get(op, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(ops.items(), key=lambda kv: -kv[1])[:most])

def compare(tree_path, base_path, want):
    def by_name(path):
        # The anonymous namespace's mangled tag depends on the file's path: left out. Some
        # files' tags end in "_<number>", run together with the next name's length: both go.
        return {re.sub(r"_GLOBAL__N__\w+?_cu_[0-9a-f]{8}(?:_\d+)?", "(anon)", name): [i for _, i in code]
                for name, code in functions(path)}
    tree, base = by_name(tree_path), by_name(base_path)
    names = sorted(n for n in set(tree) | set(base) if want in n)
    differ = [n for n in names if tree.get(n) != base.get(n)]
    print(f"{len(names)} functions: {len(names) - len(differ)} identical, {len(differ)} differ")
    for n in differ:
        where = "" if n in tree and n in base else (" (only in this tree)" if n in tree else " (only in the base)")
        print(f"  differs: {n}{where}")

def listing(sass_path, ptxas_path, want):
    regs, spills = {}, {}  # mangled name -> registers; -> "stores/loads bytes"
    entry = props = None  # ptxas names the kernel being compiled, then each function's properties
    for line in open(ptxas_path):
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            entry = m.group(1)
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            props = m.group(1)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and props:
            spills[props] = f"{m.group(1)}/{m.group(2)}"
        m = re.search(r"Used (\d+) registers", line)
        if m and entry:
            regs[entry] = m.group(1)
    usage = {n: f"{regs[n]} registers, spills {spills.get(n, '?')} bytes (stores/loads)" for n in regs}
    for fname, code in functions(sass_path):
        if want and want not in fname:
            continue
        print(f"{fname}: {usage.get(fname, '?')}")
        if not want:
            continue
        print(f"  {len(code)} instructions")
        for addr, ins in code:
            m = re.search(r"BRA (?:`\(\.L_x_\d+\) )?0x([0-9a-f]+)", ins)
            if not m or int(m.group(1), 16) > addr:
                continue
            body = [i for a, i in code if int(m.group(1), 16) <= a <= addr]
            print(f"  loop {int(m.group(1), 16):#x}-{addr:#x}: {len(body)} instructions ({op_counts(body, 12)})")

def walk(sass_path, span, want):
    start, stop = (int(v, 16) for v in span.split("-"))
    for fname, code in functions(sass_path):
        if want not in fname:
            continue
        at = {a: i for i, (a, _) in enumerate(code)}
        if start not in at or stop not in at:
            print(f"{fname}: no instruction at {start:#x} or {stop:#x}")
            continue
        i, path = at[start], []
        while i < len(code) and code[i][0] != stop and len(path) < 100000:
            ins = code[i][1]
            path.append(ins)
            m = re.match(r"(@!?P\d\s+)?BRA(\.\S+)?\s+(!?P\d,\s*)?(?:`\(\.L_x_\d+\) )?0x([0-9a-f]+)", ins)
            if m and (m.group(1) is None or m.group(3)) and int(m.group(4), 16) > code[i][0]:
                i = at[int(m.group(4), 16)]
                continue
            i += 1
        print(f"{fname}: {start:#x}-{stop:#x}, falling through predicated branches: {len(path)} instructions "
              f"({op_counts(path)})")

modes = {"compare": compare, "list": listing, "walk": walk}
modes[sys.argv[1]](*sys.argv[2:5])
EOF
}

if [ -n "$base" ]; then
  compile "$base" "$out/$name.base"
  read_sass compare "$out/$name.sass" "$out/$name.base.sass" "$kernel"
else
  read_sass list "$out/$name.sass" "$out/$name.ptxas" "$kernel"
  [ -z "$walk" ] || read_sass walk "$out/$name.sass" "$walk" "$kernel"
fi

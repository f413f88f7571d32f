#!/usr/bin/env python3
"""Golden vectors for the scalar reference, from a separate float64 implementation.

Inputs are f32 values from a seeded NumPy RNG; every op is evaluated in float64 straight from
ops.md (exact sums via math.fsum), so the C++ test checks the reference against the math, not
against itself. The one f32 step taken from the contract is gating's u = a + dt_bias, rounded
to f32 before softplus: the contract defines the sum in f32, and near softplus's threshold
the f32 and exact sums fall on different branches.

  make_golden.py OUT        writes the fixture
  make_golden.py --check F  regenerates it and compares with F (exit 0 same, 1 differs,
                            77 NumPy missing: ctest counts that as skipped)

Fixture format, one array per line: `name count v0 v1 ...`. f32 inputs are printed with 9
significant digits (they read back exactly), float64 results with repr.
"""
import math
import sys

try:
    import numpy as np
except ImportError:
    print("make_golden.py: NumPy is not installed; skipped")
    sys.exit(77)

SEED = 20240601


def spread(rng, shape, scale=1.0):
    """Normal values scaled over several binades, never zero, as f32."""
    v = rng.standard_normal(shape) * np.exp2(rng.randint(-3, 4, size=shape))
    v[v == 0] = 0.5
    return (scale * v).astype(np.float32)


def conv_case(rng, out, name, K, C, lengths, slots, has_init, S, silu):
    W = K - 1
    T = sum(lengths)
    qsl = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    x = spread(rng, (T, C))
    w = spread(rng, (C, K), 0.5)
    bias = spread(rng, (C,))
    state = spread(rng, (S, C, W))
    acc = np.zeros((T, C))
    mag = np.zeros((T, C))
    state_after = state.astype(np.float64)
    for n, L in enumerate(lengths):
        if L == 0:
            continue
        b, s = qsl[n], slots[n]
        ctx = state[s].astype(np.float64) if has_init[n] else np.zeros((C, W))
        seq = np.concatenate([ctx, x[b:b + L].T.astype(np.float64)], axis=1)  # [C, W + L]
        for t in range(L):
            for c in range(C):
                terms = [float(bias[c])] + [float(w[c, j]) * seq[c, t + j] for j in range(K)]
                acc[b + t, c] = math.fsum(terms)  # products of two f32 are exact in float64
                mag[b + t, c] = math.fsum(abs(v) for v in terms)
        state_after[s] = seq[:, L:L + W]
    result = acc / (1.0 + np.exp(-acc)) if silu else acc
    out += [
        (f"{name}.shape", [K, C, T, S, len(lengths), int(silu)], "int"),
        (f"{name}.query_start_loc", qsl, "int"),
        (f"{name}.state_indices", slots, "int"),
        (f"{name}.has_initial_state", has_init, "int"),
        (f"{name}.x", x, "f32"),
        (f"{name}.weight", w, "f32"),
        (f"{name}.bias", bias, "f32"),
        (f"{name}.state", state, "f32"),
        (f"{name}.out", result, "f64"),
        (f"{name}.magnitude", mag, "f64"),
        (f"{name}.state_after", state_after, "f64"),
    ]


def l2norm_case(rng, out, name, R, D, eps):
    x = np.concatenate([spread(rng, (R - 2, D)), spread(rng, (1, D), 1e-4), spread(rng, (1, D), 1e8)])
    x = x.astype(np.float32)
    eps64 = float(np.float32(eps))
    ref = np.zeros((R, D))
    for r in range(R):
        row = x[r].astype(np.float64)
        ref[r] = row / math.sqrt(math.fsum(row * row) + eps64)
    out += [
        (f"{name}.shape", [R, D], "int"),
        (f"{name}.eps", [np.float32(eps)], "f32"),
        (f"{name}.x", x, "f32"),
        (f"{name}.out", ref, "f64"),
    ]


def gating_case(rng, out, name, T, H):
    a = (rng.standard_normal((T, H)) * 12).astype(np.float32)
    b = (rng.standard_normal((T, H)) * 8).astype(np.float32)
    A_log = rng.uniform(-3, 3, H).astype(np.float32)
    dt_bias = rng.uniform(-2, 2, H).astype(np.float32)
    a[0, 0] = np.float32(20.5) - dt_bias[0]  # either side of softplus's threshold
    a[0, 1] = np.float32(19.75) - dt_bias[1]
    u = (a + dt_bias).astype(np.float32).astype(np.float64)  # f32 sum, as the contract defines
    sp = np.where(u > 20, u, np.log1p(np.exp(np.minimum(u, 20))))
    g = -np.exp(A_log.astype(np.float64)) * sp
    beta = 1.0 / (1.0 + np.exp(-b.astype(np.float64)))
    out += [
        (f"{name}.shape", [T, H], "int"),
        (f"{name}.a", a, "f32"),
        (f"{name}.b", b, "f32"),
        (f"{name}.A_log", A_log, "f32"),
        (f"{name}.dt_bias", dt_bias, "f32"),
        (f"{name}.g", g, "f64"),
        (f"{name}.beta", beta, "f64"),
    ]


def fmt(values, kind):
    flat = np.asarray(values).reshape(-1)
    if kind == "int":
        return [str(int(v)) for v in flat]
    if kind == "f32":
        text = ["%.9g" % float(v) for v in flat]
        assert all(np.float32(float(t)) == v for t, v in zip(text, flat))
        return text
    return [repr(float(v)) for v in flat]


def generate():
    rng = np.random.RandomState(SEED)  # the legacy generator's stream is frozen across NumPy versions
    arrays = []
    conv_case(rng, arrays, "conv_silu", K=4, C=4, lengths=[5, 0, 2, 6], slots=[3, 1, 4, 0],
              has_init=[1, 1, 0, 1], S=5, silu=True)
    conv_case(rng, arrays, "conv_k7", K=7, C=4, lengths=[3, 9], slots=[1, 0], has_init=[1, 0], S=2, silu=False)
    l2norm_case(rng, arrays, "l2norm", R=4, D=40, eps=1e-6)
    gating_case(rng, arrays, "gating", T=4, H=8)
    lines = ["# generated by make_golden.py; do not edit"]
    for name, values, kind in arrays:
        text = fmt(values, kind)
        lines.append(" ".join([name, str(len(text))] + text))
    return "\n".join(lines) + "\n"


def parse(text):
    arrays = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, count, *values = line.split()
            assert int(count) == len(values), name
            arrays[name] = [float(v) for v in values]
    return arrays


def check(path):
    """Same arrays and inputs; results equal to 1e-12 relative (libm may differ in the last bit)."""
    with open(path) as f:
        kept = parse(f.read())
    fresh = parse(generate())
    if kept.keys() != fresh.keys():
        print(f"{path}: arrays differ: {sorted(kept.keys() ^ fresh.keys())}")
        return 1
    for name, values in fresh.items():
        old = kept[name]
        if len(old) != len(values):
            print(f"{path}: {name}: {len(old)} values kept, {len(values)} generated")
            return 1
        for i, (a, b) in enumerate(zip(old, values)):
            if not math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300):
                print(f"{path}: {name}[{i}] = {a} kept, {b} generated")
                return 1
    print(f"{path}: matches make_golden.py")
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--check":
        return check(argv[2])
    if len(argv) == 2:
        with open(argv[1], "w") as f:
            f.write(generate())
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

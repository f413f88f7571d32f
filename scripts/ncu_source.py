#!/usr/bin/env python3
"""Summarises one kernel's per-instruction profile, as ncu prints it:

    ncu --set full -o REP ...   then   ncu --import REP.ncu-rep --page source --print-source sass --csv > K.csv
    scripts/ncu_source.py K.csv

Prints the warp instructions executed and how many threads ran them on average, the stall
reasons' shares of the samples, the share of instructions run by under 16 threads (a rare
path on a lane or two, or one lane issuing copies), the opcodes' shares, and the runs of
consecutive instructions executed equally often that hold at least 0.5% of the instructions
(a loop body, a rare path), with their first instruction.
"""
import collections
import csv
import re
import sys


def main(path):
    rows = list(csv.reader(open(path)))
    kernel, header, data = rows[0], rows[1], rows[2:]
    col = {h: i for i, h in enumerate(header)}

    def num(r, key):
        try:
            return float(r[col[key]].replace(",", ""))
        except ValueError:
            return 0.0

    executed = [num(r, "Instructions Executed") for r in data]
    samples = [num(r, "# Samples") for r in data]
    total, total_samples = sum(executed), sum(samples)
    threads = sum(num(r, "Thread Instructions Executed") for r in data)
    print(kernel[1] if len(kernel) > 1 else kernel[0])
    print(f"warp instructions {total / 1e6:.1f} M, {threads / total:.2f} threads a warp instruction, "
          f"{int(total_samples)} stall samples")

    stalls = {h[6:]: sum(num(r, h) for r in data) for h in header if h.startswith("stall_") and "Not Issued" not in h}
    print("stalls: " + ", ".join(f"{k} {100 * v / total_samples:.1f}%"
                                 for k, v in sorted(stalls.items(), key=lambda kv: -kv[1]) if v > 0))

    few = [i for i, r in enumerate(data) if executed[i] > 0 and num(r, "Avg. Threads Executed") < 16]
    print(f"run by under 16 threads: {100 * sum(executed[i] for i in few) / total:.1f}% of the instructions, "
          f"{100 * sum(samples[i] for i in few) / total_samples:.1f}% of the samples")

    ops = collections.Counter()
    for i, r in enumerate(data):
        m = re.match(r"(@!?U?P\w+\s+)?([A-Z0-9_]+)", r[col["Source"]].strip())
        ops[m.group(2) if m else "?"] += executed[i]
    print("opcodes: " + " ".join(f"{k} {100 * v / total:.1f}" for k, v in ops.most_common(24)))

    print("runs (first-last instruction, times executed, threads, % of instructions, samples, first instruction):")
    start = 0
    for i in range(1, len(data) + 1):
        if i < len(data) and abs(executed[i] - executed[start]) <= max(0.02 * executed[start], 1):
            continue
        share = sum(executed[start:i]) / total
        if share >= 0.005:
            print(f"  {start:5d}-{i - 1:5d} {executed[start]:10.0f} {num(data[start], 'Avg. Threads Executed'):5.1f} "
                  f"{100 * share:5.1f}% {int(sum(samples[start:i])):6d}  {data[start][col['Source']].strip()[:60]}")
        start = i


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

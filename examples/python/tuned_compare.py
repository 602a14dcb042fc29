#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The README's tuned comparison from Python: RHEL 7's tuned 2.3 profiles
on the seed's Xeon (4 CPUs, an OLTP server), 5 runs each, printed as a
table of means, then power against throughput -- one point per run, one
colour per profile -- as power_vs_throughput.png when matplotlib is
installed. The same numbers as

    pmlab compare --machine xeon-e5-2650l-v3 --cpus 4 --workload oltp --runs 5 \\
        --profiles tuned-2.3/powersave,tuned-2.3/balanced,tuned-2.3/balanced:governor=conservative

usage: PYTHONPATH=python examples/python/tuned_compare.py [SECONDS] [OUTPUT.png]
(installed: pip install --no-build-isolation ./python, then without PYTHONPATH)"""
import sys

import pmlab

PROFILES = ["tuned-2.3/powersave", "tuned-2.3/balanced", "tuned-2.3/balanced:governor=conservative"]


def records(rows):
    """A DataFrame's rows, or the list of dicts pmlab gives without pandas."""
    return rows.to_dict("records") if hasattr(rows, "to_dict") else rows


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    out = sys.argv[2] if len(sys.argv) > 2 else "power_vs_throughput.png"
    rows = records(pmlab.compare("xeon-e5-2650l-v3", "oltp", PROFILES, cpus=4, runs=5,
                                 duration=seconds, jobs=2))
    runs = [r for r in rows if r["kind"] == "run"]
    print(f"{'profile':42} {'throughput':>12} {'power W':>9} {'W per 1000 tx/s':>16}")
    for r in rows:
        if r["kind"] == "summary":
            print(f"{r['profile']:42} {r['throughput']:12.1f} {r['power_w']:9.2f} "
                  f"{1000 * r['power_w'] / r['throughput']:16.3f}")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return 0
    fig, ax = plt.subplots(figsize=(6, 4))
    for p in PROFILES:
        mine = [r for r in runs if r["profile"] == p]
        ax.scatter([r["throughput"] for r in mine], [r["power_w"] for r in mine], label=p)
    ax.set_xlabel(f"throughput ({runs[0]['throughput_unit']})")
    ax.set_ylabel("power (W)")
    ax.set_title("oltp on xeon-e5-2650l-v3 (4 CPUs), tuned 2.3")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

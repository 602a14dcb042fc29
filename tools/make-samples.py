#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the sample inputs of pmlab govtrace and idletrace in data/samples/
(the README's examples use them), or in the directory given. Synthetic and
deterministic: the same files every time. Run from the repository root:
python3 tools/make-samples.py [DIR]"""
import os
import random
import sys

HZ = 250
TICK_US = 1000000 // HZ
PELT_Y = 0.5 ** (1 / 32)  # PELT: a 1024 us period decays by y, y^32 = 1/2


def govtrace_load_steps(path):
    """One CPU's scheduler tick at 250 Hz for 2 s: idle, 30 % busy, fully
    busy, idle again. util is PELT's utilization of the busy share, decayed
    per 1024 us period as the kernel's (sched/pelt.c), rounded."""
    phases = [(0.4, 0.0), (0.4, 0.3), (0.6, 1.0), (0.6, 0.0)]
    util = 0.0
    t = 0
    rows = []
    decay = PELT_Y ** (TICK_US / 1024)
    for seconds, busy in phases:
        for _ in range(int(seconds * HZ)):
            t += TICK_US
            b = round(busy * TICK_US)
            util = util * decay + (1 - decay) * 1024 * busy
            rows.append(f"{t},{b},0,{TICK_US - b},{round(util)}")
    with open(path, "w") as f:
        f.write("# pmlab govtrace sample (tools/make-samples.py): one CPU's tick at 250 Hz\n"
                "# for 2 s: idle 0.4 s, 30 % busy 0.4 s, fully busy 0.6 s, idle 0.6 s;\n"
                "# util is PELT's utilization of the busy share (32 ms half-life).\n")
        f.write("t_us,busy_us,iowait_us,idle_us,util\n")
        f.write("\n".join(rows) + "\n")


def idletrace_video(path):
    """The idle periods of one CPU decoding 60 fps video, as periodic
    --set chunks=4 models it: each 16667 us frame is 4 ms of decoding in
    four bursts with three short waits (300 us +- 20 %) for the decoder
    hardware's interrupt, which no timer announces, then the long idle
    period to the next frame's timer. 120 frames."""
    rng = random.Random(1)
    frame_us = 1000000 / 60
    rows = []
    for _ in range(120):
        left = frame_us
        for _ in range(3):
            work = 1000 * (1 + 0.1 * (2 * rng.random() - 1))
            wait = 300 * (1 + 0.2 * (2 * rng.random() - 1))
            left -= work
            rows.append(f"{left:.3f},{wait:.3f}")
            left -= wait
        left -= 1000
        rows.append(f"{left:.3f},{left:.3f}")
    with open(path, "w") as f:
        f.write("# pmlab idletrace sample (tools/make-samples.py): one CPU decoding 60 fps\n"
                "# video in four bursts a frame; three 300 us waits for the decoder's\n"
                "# interrupt (no timer announces them), then idle to the next frame's timer.\n")
        f.write("next_timer_us,idle_us\n")
        f.write("\n".join(rows) + "\n")


out = sys.argv[1] if len(sys.argv) > 1 else "data/samples"
govtrace_load_steps(os.path.join(out, "govtrace-load-steps.csv"))
idletrace_video(os.path.join(out, "idletrace-video.csv"))

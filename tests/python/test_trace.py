# SPDX-License-Identifier: GPL-2.0-only
"""pmlab.load_trace and the governors driven by traces (python/pmlab/_trace.py)
against the built libpmlab: every event of a trace as a row, per-CPU states
computed from a trace written here, and pmlab idletrace's and govtrace's
rows as the command prints them.

usage: test_trace.py PMLAB_BINARY   (PMLAB_LIBRARY and PYTHONPATH set by meson)"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

import pmlab

PMLAB = sys.argv.pop(1) if len(sys.argv) > 1 else "pmlab"
from test_pmlab import main  # noqa: E402 (after the argument is taken); cmocka's closing lines
try:
    import pandas
except ImportError:
    pandas = None


def column(rows, name):
    return list(rows[name]) if pandas is not None else [r[name] for r in rows]


def records(rows):
    return rows.to_dict("records") if pandas is not None else rows


# CPU 0: a task from 1.000100 to 1.000400, idle in state 2 from 1.000400 to
# 1.000900, the same task to 1.001000; 1200 MHz, then 2400 MHz from 1.000500.
# CPU 1: a task from the start (its first switch takes it off) to 1.000600,
# then idle in state 1.
LINES = [
    "# tracer: nop", "#", "# entries-in-buffer/entries-written: 8/8   #P:2", "#",
    "          <idle>-0       [000] d..2.     1.000000: cpu_frequency: state=1200000 cpu_id=0",
    "          worker2-43     [001] d..2.     1.000600: sched_switch: prev_comm=worker2 prev_pid=43 "
    "prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120",
    "          <idle>-0       [001] d..1.     1.000600: cpu_idle: state=1 cpu_id=1",
    "          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 "
    "prev_prio=120 prev_state=R ==> next_comm=worker next_pid=42 next_prio=120",
    "          worker-42      [000] d..2.     1.000400: sched_switch: prev_comm=worker prev_pid=42 "
    "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
    "          <idle>-0       [000] d..1.     1.000400: cpu_idle: state=2 cpu_id=0",
    "          <idle>-0       [000] d..2.     1.000500: cpu_frequency: state=2400000 cpu_id=0",
    "          <idle>-0       [000] dN.1.     1.000900: cpu_idle: state=4294967295 cpu_id=0",
    "          <idle>-0       [000] d..2.     1.000900: sched_switch: prev_comm=swapper/0 prev_pid=0 "
    "prev_prio=120 prev_state=R ==> next_comm=worker next_pid=42 next_prio=120",
    "          worker-42      [000] d..2.     1.001000: sched_switch: prev_comm=worker prev_pid=42 "
    "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
]


class Traces(unittest.TestCase):
    def test_events_are_the_files_lines(self):
        path = "tests/fixtures/traces/tracefs-one-of-each.txt"
        t = pmlab.load_trace(path)
        self.assertEqual((t.kind, t.format, t.cpus), ("events", "ftrace text", 2))
        with open(path) as f:
            text = f.read()
        events = column(t.rows, "event")
        self.assertEqual(len(events), len(t))
        for name in ("sched_switch", "sched_wakeup", "cpu_idle", "sched_process_fork"):
            self.assertEqual(events.count(name), text.count(f" {name}: "), name)
        # prev_state S of bash's switch, the fork's child in pid2
        rows = records(t.rows)
        fork = [r for r in rows if r["event"] == "sched_process_fork"][0]
        self.assertEqual((fork["pid"], fork["pid2"]), (5935, 5938))

    def test_trace_dat(self):
        t = pmlab.load_trace("data/traces/hackbench.dat")
        self.assertEqual(t.format, "trace.dat")
        self.assertGreater(column(t.rows, "event").count("sched_switch"), 100)

    def test_cpu_states(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "small.txt")
            with open(path, "w") as f:
                f.write("\n".join(LINES) + "\n")
            states = records(pmlab.load_trace(path).cpu_states())
        cpu0, cpu1 = states
        self.assertEqual(cpu0["span_ns"], 1000000)
        self.assertEqual(cpu0["running_ns"], 300000 + 100000)
        self.assertEqual(cpu0["idle_2_ns"], 500000)
        # 1200 MHz for 0.5 ms, 2400 MHz for 0.5 ms
        self.assertAlmostEqual(cpu0["mean_khz"], 1800000)
        self.assertEqual((cpu1["running_ns"], cpu1["idle_1_ns"]), (600000, 400000))

    def test_errors_name_the_place(self):
        with self.assertRaises(pmlab.Error) as e:
            pmlab.load_trace("tests/fixtures/traces/bad-line.txt")
        self.assertIn("bad-line.txt:", str(e.exception))
        self.assertEqual(e.exception.code, "input")
        with self.assertRaises(pmlab.Error):
            pmlab.load_trace("tests/fixtures/idletrace/bad-header.csv", "idle")
        with self.assertRaises(ValueError):
            pmlab.load_trace("data/samples/idletrace-video.csv", "video")
        with self.assertRaises(ValueError):
            pmlab.load_trace("data/samples/idletrace-video.csv").cpu_states()

    def test_idletrace_is_pmlab_idletrace(self):
        path = "data/samples/idletrace-video.csv"
        t = pmlab.load_trace(path)
        self.assertEqual((t.kind, t.format), ("idle", "idletrace CSV"))
        rows = records(pmlab.idletrace(t, "menu", "i7-4790", tick_policy="legacy", hz=1000))
        out = subprocess.run([PMLAB, "idletrace", "--governor", "menu", "--machine", "i7-4790",
                              "--tick-policy", "legacy", "--hz", "1000", "--input", path],
                             check=True, capture_output=True, text=True).stdout
        cli = list(csv.DictReader(io.StringIO(
            "".join(line for line in out.splitlines(True) if not line.startswith("#")))))
        self.assertEqual(len(rows), len(t))
        self.assertEqual([r["state"] for r in rows], [r["state"] for r in cli])
        self.assertEqual([int(r["above"]) for r in rows], [int(r["above"]) for r in cli])

    def test_govtrace_is_pmlab_govtrace(self):
        path = "data/samples/govtrace-load-steps.csv"
        rows = records(pmlab.govtrace(path, "ondemand", [1200000, 1800000, 2400000]))
        out = subprocess.run([PMLAB, "govtrace", "--governor", "ondemand", "--freqs",
                              "1200000,1800000,2400000", "--input", path],
                             check=True, capture_output=True, text=True).stdout
        cli = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual([(int(r["t_us"]), int(r["freq_khz"])) for r in rows],
                         [(int(r["t_us"]), int(r["freq_khz"])) for r in cli])
        self.assertGreater(len(rows), 1)


def cli(*args):
    return subprocess.run([PMLAB, "replay", *args], check=True, capture_output=True,
                          text=True).stdout


class Replays(unittest.TestCase):
    """pmlab.replay() against pmlab replay: the same figures, every form."""

    TRACE = "data/traces/hackbench.dat"

    def test_replay_is_pmlab_replay(self):
        r = pmlab.replay(self.TRACE, machine="i7-4790", cpufreq="schedutil", seed=3,
                         comms=["sched-messag*"], per_task=True)
        args = [self.TRACE, "--machine", "i7-4790", "--cpufreq", "schedutil", "--seed", "3",
                "--comm", "sched-messag*"]
        self.assertEqual(json.loads(cli(*args, "--format", "json")), r)
        self.assertEqual(cli(*args, "--per-task"), r.table)
        self.assertIn("\nPer task: CPU time traced and replayed\n", r.table)
        self.assertEqual(r["tasks_finished"], r["tasks_created"])
        self.assertEqual(cli(*args, "--format", "html"), r.html)

    def test_pids_and_duration(self):
        everything = pmlab.replay(self.TRACE)
        one = pmlab.replay(self.TRACE, pids=[21472], duration=0.05)
        self.assertLess(one["tasks_created"], everything["tasks_created"])
        self.assertEqual(json.loads(cli(self.TRACE, "--pid", "21472", "--duration", "0.05",
                                        "--format", "json")), one)

    def test_profiles_are_pmlab_replay_profiles(self):
        text = pmlab.replay(self.TRACE, profiles=["none", "none:cpufreq=powersave"],
                            form="csv")
        self.assertEqual(cli(self.TRACE, "--profiles", "none,none:cpufreq=powersave",
                             "--format", "csv"), text)
        rows = pmlab.replay(self.TRACE, profiles=["none", "none:cpufreq=powersave"])
        self.assertEqual(column(rows, "profile")[:2], ["none", "none:cpufreq=powersave"])

    def test_errors(self):
        with self.assertRaises(pmlab.Error) as e:
            pmlab.replay("tests/fixtures/traces/bad-line.txt")
        self.assertEqual(e.exception.code, "input")
        self.assertIn("bad-line.txt:9", str(e.exception))
        with self.assertRaises(pmlab.Error) as e:
            pmlab.replay(self.TRACE, machine="i7-4790", cpus=1)
        self.assertIn("has 1 CPUs", str(e.exception))
        with self.assertRaises(ValueError):
            pmlab.replay(self.TRACE, profiles=["none"], per_task=True)


if __name__ == "__main__":
    sys.exit(main())

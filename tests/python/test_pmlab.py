# SPDX-License-Identifier: GPL-2.0-only
"""The Python package (python/pmlab) against the built libpmlab: runs give
what pmlab sim prints, comparisons and sweeps give their rows (a DataFrame
when pandas is installed), errors are exceptions with the library's
message, and a Python idle governor runs through the plugin seam.

usage: test_pmlab.py PMLAB_BINARY   (PMLAB_LIBRARY and PYTHONPATH set by meson)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import pmlab

PMLAB = sys.argv.pop(1) if len(sys.argv) > 1 else "pmlab"
try:
    import pandas
except ImportError:
    pandas = None


def cli_json(*args):
    out = subprocess.run([PMLAB, "sim", "--format", "json", *args], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def column(rows, name):
    return list(rows[name]) if pandas is not None else [r[name] for r in rows]


class Runs(unittest.TestCase):
    def test_sim_is_pmlab_sim(self):
        r = pmlab.sim("xeon-e5-2650l-v3", "oltp", cpus=4, cpufreq="ondemand",
                      settings={"variant": "3.10"}, duration=0.3, seed=5)
        self.assertEqual(r, cli_json("--machine", "xeon-e5-2650l-v3", "--cpus", "4", "--workload",
                                     "oltp", "--cpufreq", "ondemand", "--set", "variant=3.10",
                                     "--duration", "0.3", "--seed", "5"))
        self.assertTrue(r.table.startswith("pmlab sim: machine xeon-e5-2650l-v3"))
        header = [line for line in r.csv.splitlines() if not line.startswith("#")][0]
        self.assertIn("power_w", header)

    def test_machine_text(self):
        ini = subprocess.run([PMLAB, "machines", "show", "i7-4790"], check=True,
                             capture_output=True, text=True).stdout
        a = pmlab.sim(ini, "pingpong", duration=0.2)
        b = pmlab.sim("i7-4790", "pingpong", duration=0.2)
        self.assertEqual(a, b)

    def test_errors(self):
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("no-such-machine", "pingpong")
        self.assertEqual(e.exception.code, "input")
        self.assertIn("no-such-machine", str(e.exception))
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("i7-4790", "pingpong", settings=["no_such_key=1"], duration=0.1)
        self.assertIn("no_such_key", str(e.exception))
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sweep("i7-4790", "pingpong", vary={"cpufreq": []})
        self.assertEqual(e.exception.code, "input")
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("i7-4790", "pingpong", plugins=["./no-such-plugin.so"])
        self.assertEqual(e.exception.code, "plugin")

    def test_sweep_rows(self):
        rows = pmlab.sweep("i7-4790", "pingpong", vary={"cpufreq": ["performance", "powersave"],
                                                        "pm_qos_latency_us": [-1, 20]},
                           duration=0.1, jobs=2)
        self.assertIsInstance(rows, pandas.DataFrame if pandas is not None else list)
        self.assertEqual(len(rows), 4)
        self.assertEqual(column(rows, "cpufreq"), ["performance"] * 2 + ["powersave"] * 2)
        power = column(rows, "power_w")
        self.assertGreater(power[0], power[2])  # performance draws more than powersave

    @unittest.skipIf(pandas is None, "pandas is not installed (python3-pandas)")
    def test_sweep_dataframe(self):
        df = pmlab.sweep("i7-4790", "pingpong", vary={"hz": [100, 1000]}, duration=0.1)
        self.assertEqual(list(df["vary_hz"]), [100, 1000])
        self.assertEqual(df["power_w"].dtype.kind, "f")

    def test_compare_rows(self):
        rows = pmlab.compare("i7-4790", "pingpong",
                             [("none", "stock"), "none:pm_qos_latency_us=20"], runs=2,
                             duration=0.1)
        self.assertIn("stock", column(rows, "profile"))
        self.assertIn("none:pm_qos_latency_us=20", column(rows, "profile"))
        table = pmlab.compare("i7-4790", "pingpong", ["none"], runs=1, duration=0.1, form="table")
        self.assertIn("pmlab compare: machine i7-4790", table)

    def test_catalog(self):
        self.assertIn("i7-4790", pmlab.machines())
        g = pmlab.governors()
        menu = [x for x in g["cpuidle"] if x["name"] == "menu"]
        self.assertEqual(len(menu), 1)
        self.assertFalse(menu[0]["plugin"])
        ondemand = [x for x in g["cpufreq"] if x["name"] == "ondemand"][0]
        self.assertIn("up_threshold", [t["name"] for t in ondemand["tunables"]])


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def has_module(name):
    return subprocess.run([sys.executable, "-c", f"import {name}"],
                          capture_output=True).returncode == 0


class Package(unittest.TestCase):
    def test_example_script(self):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "examples/python/tuned_compare.py"),
                              "0.2", os.path.join(tempfile.gettempdir(), "pmlab-test-plot.png")],
                             check=True, capture_output=True, text=True).stdout
        for p in ("tuned-2.3/powersave", "tuned-2.3/balanced:governor=conservative"):
            self.assertIn(p, out)

    @unittest.skipIf(not all(has_module(m) for m in ("pip", "setuptools", "wheel")),
                     "pip, setuptools or wheel is not installed (python3-pip, "
                     "python3-setuptools, python3-wheel)")
    def test_pip_install(self):
        """pip install --no-build-isolation ./python with no package index,
        into a temporary directory, from a copy of the tree's python/."""
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "python")
            shutil.copytree(os.path.join(ROOT, "python"), src)
            subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index",
                            "--no-build-isolation", "--no-deps", "--target",
                            os.path.join(d, "site"), src], check=True, capture_output=True)
            env = dict(os.environ, PYTHONPATH=os.path.join(d, "site"))
            out = subprocess.run([sys.executable, "-c", "import pmlab; print(pmlab.__file__, "
                                  "pmlab.sim('i7-4790', 'pingpong', duration=0.1)['machine'])"],
                                 check=True, capture_output=True, text=True, env=env,
                                 cwd=d).stdout
            self.assertTrue(out.startswith(os.path.join(d, "site")))
            self.assertTrue(out.strip().endswith("i7-4790"))


def assert_same_but_governor(test, a, b, kind, name):
    """Runs a (under the Python governor name) and b (the built-in one) are
    the same but for what names the governor: its key, the run's inputs
    (the command line with it) and why the default ran."""
    test.assertEqual(a.pop(kind), name)
    b.pop(kind)
    test.assertEqual(a.pop("inputs")[kind], name)
    b.pop("inputs")
    a.pop(kind + "_why", None)
    b.pop(kind + "_why", None)
    test.assertEqual(a, b)


def deepest(dev, limit):
    """src/cpuidle/deepest.c in Python: the deepest enabled state the limit allows."""
    best = 0
    for i, (_, exit_ns, _, _) in enumerate(dev.states):
        if i > 0 and not dev.disabled[i] and exit_ns <= limit:
            best = i
    return best


class PythonGovernor(unittest.TestCase):
    def test_copy_of_deepest_is_identical(self):
        g = pmlab.IdleGovernor("pydeepest", deepest)
        a = pmlab.sim("i7-4790", "video", cpuidle=g, duration=0.3)
        b = pmlab.sim("i7-4790", "video", cpuidle="deepest", duration=0.3)
        assert_same_but_governor(self, a, b, "cpuidle", "pydeepest")

    def test_tunables_and_learning(self):
        seen = []

        def select(dev, limit):
            # Stop the tick only when the tunable says so.
            return deepest(dev, limit), bool(dev.tunables["py_stop_tick"])

        def reflect(dev, state):
            dev.data["n"] = dev.data.get("n", 0) + 1
            seen.append(dev.last_residency_ns)

        g = pmlab.IdleGovernor("pytick", select, reflect,
                               tunables=[("py_stop_tick", 1, 0, 1, "1: stop the tick")])
        a = pmlab.sim("i7-4790", "video", cpuidle=g, duration=0.2)
        n = len(seen)
        self.assertGreater(n, 10)
        b = pmlab.sim("i7-4790", "video", cpuidle=g, settings={"py_stop_tick": 0}, duration=0.2)
        counters = ("context_switches", "wakeups", "events")
        self.assertNotEqual([a[k] for k in counters], [b[k] for k in counters])
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("i7-4790", "video", cpuidle=g, settings={"py_stop_tick": 2}, duration=0.1)
        self.assertIn("py_stop_tick", str(e.exception))

    def test_exception_in_governor(self):
        calls = []

        def select(dev, limit):
            calls.append(dev.now_ns)
            if len(calls) == 50:
                raise ZeroDivisionError("the governor's own bug")
            return 0

        g = pmlab.IdleGovernor("pybroken", select)
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("i7-4790", "pingpong", cpuidle=g, duration=2)
        self.assertEqual(e.exception.code, "plugin")
        self.assertIn("idle governor 'pybroken': select: ZeroDivisionError: the governor's own bug",
                      str(e.exception))
        self.assertIsInstance(e.exception.__cause__, ZeroDivisionError)
        # The run stopped there: the CPUs still idle in that event ask
        # again at most once each, not for the 2 s the run had left.
        self.assertLessEqual(len(calls), 50 + 8)
        # A run after it is not affected.
        calls.clear()
        ok = pmlab.IdleGovernor("pyok", lambda dev, limit: 0)
        self.assertGreater(pmlab.sim("i7-4790", "pingpong", cpuidle=ok, duration=0.1)["events"], 0)

    def test_in_a_sweep(self):
        g = pmlab.IdleGovernor("pydeep2", deepest)
        rows = pmlab.sweep("i7-4790", "pingpong", vary={"cpuidle": ["pydeep2", "deepest"]},
                           duration=0.1, governors=[g])
        energy = column(rows, "energy_j")
        self.assertEqual(energy[0], energy[1])


def performance(policy):
    """src/cpufreq/performance.c in Python: the highest frequency the limits allow."""
    policy.target(policy.max, "H")


class PythonFreqGovernor(unittest.TestCase):
    def test_copy_of_performance_is_identical(self):
        g = pmlab.FreqGovernor("pyperformance", performance)
        a = pmlab.sim("i7-4790", "oltp", cpufreq=g, duration=0.3)
        b = pmlab.sim("i7-4790", "oltp", cpufreq="performance", duration=0.3)
        assert_same_but_governor(self, a, b, "cpufreq", "pyperformance")

    def test_hook_words_and_calls(self):
        calls = {"update": 0, "limits": 0}

        def limits(p):
            calls["limits"] += 1
            self.assertEqual(p.table, sorted(p.table))
            p.target(p.table[0] if p.tunables["py_level"] == "low" else p.max,
                     "L" if p.tunables["py_level"] == "low" else "H")

        def update(p, cpu, now_ns, flags):
            calls["update"] += 1
            self.assertIn(cpu, p.cpus)
            u = p.cpu_util(cpu)
            self.assertTrue(0 <= u.util <= u.capacity == 1024)
            t = p.cpu_times(cpu)
            self.assertGreaterEqual(t.busy_ns + t.idle_ns, 0)

        g = pmlab.FreqGovernor("pylevel", limits, update=update,
                               tunables=[("py_level", "high", ["low", "high"],
                                          "the frequency: low or high")])
        high = pmlab.sim("i7-4790", "video", cpufreq=g, duration=0.2)
        self.assertGreater(calls["update"], 10)
        self.assertGreater(calls["limits"], 0)
        low = pmlab.sim("i7-4790", "video", cpufreq=g, settings={"py_level": "low"},
                        duration=0.2)
        self.assertLess(low["power_w"], high["power_w"])
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("i7-4790", "video", cpufreq=g, settings={"py_level": "medium"},
                      duration=0.1)
        self.assertIn("py_level=medium: not a valid choice (expected low|high)", str(e.exception))
        py = [x for x in pmlab.catalog()["cpufreq"] if x["name"] == "pylevel"]
        self.assertEqual(py, [])  # registered per run, not in the global catalog

    def test_exception_in_governor(self):
        def limits(p):
            raise KeyError("the governor's own bug")

        g = pmlab.FreqGovernor("pyfbroken", limits)
        with self.assertRaises(pmlab.Error) as e:
            pmlab.sim("i7-4790", "pingpong", cpufreq=g, duration=0.1)
        self.assertIn("frequency governor 'pyfbroken': limits: KeyError:", str(e.exception))
        self.assertIsInstance(e.exception.__cause__, KeyError)

    def test_exception_in_update_stops_the_run(self):
        calls = []

        def update(p, cpu, now_ns, flags):
            calls.append(now_ns)
            if len(calls) == 20:
                raise RuntimeError("update gave up")

        g = pmlab.FreqGovernor("pyfupd", lambda p: p.target(p.max), update=update)
        with self.assertRaises(pmlab.Error) as e:
            pmlab.compare("i7-4790", "pingpong", ["none"], cpufreq=g, runs=1, duration=5)
        self.assertIn("update: RuntimeError: update gave up", str(e.exception))
        self.assertLessEqual(len(calls), 20 + 8)

    def test_bad_tunables(self):
        with self.assertRaises(ValueError):
            pmlab.FreqGovernor("pybad", performance, tunables=[("py_x", "mid", ["lo", "hi"], "")])
        with self.assertRaises(ValueError):
            pmlab.FreqGovernor("pybad", performance, tunables=[("py_x", 1, 2)])

    def test_in_a_sweep(self):
        g = pmlab.FreqGovernor("pyperf2", performance)
        rows = pmlab.sweep("i7-4790", "pingpong", vary={"cpufreq": ["pyperf2", "performance"]},
                           duration=0.1, governors=[g])
        energy = column(rows, "energy_j")
        self.assertEqual(energy[0], energy[1])


def main():
    """unittest's run, closed as cmocka closes one (tools/test-summary.sh
    counts those lines): passed, failed, and each skipped test by name."""
    print(f"interpreter: {sys.executable} (Python {sys.version.split()[0]})")
    result = unittest.main(verbosity=2, exit=False).result
    skipped = [t.id().split(".")[-1] for t, _ in result.skipped]
    bad = len(result.failures) + len(result.errors)
    for t, why in result.skipped:
        print(f"{t.id().split('.')[-1]}: skipped: {why}")
    print(f"[  PASSED  ] {result.testsRun - bad - len(skipped)} test(s).")
    if bad:
        print(f"[  FAILED  ] {bad} test(s).")
    if skipped:
        print(f"[  SKIPPED ] {len(skipped)} test(s), listed below:")
        for name in skipped:
            print(f"[  SKIPPED ] {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

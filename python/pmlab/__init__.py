# SPDX-License-Identifier: GPL-2.0-only
"""pmlab from Python: simulate Linux CPU power management.

    import pmlab
    r = pmlab.sim("i7-4790", "pingpong", cpufreq="schedutil", duration=2)
    r["power_w"], r["throughput"]          # every figure of pmlab sim --format json
    df = pmlab.sweep("i7-4790", "pingpong", vary={"cpufreq": ["performance", "schedutil"]})
    r = pmlab.replay("trace.dat", machine="i7-4790", per_task=True)   # as pmlab replay

compare() and sweep() return a pandas.DataFrame when pandas is installed,
else a list of dicts (one per row). Errors raise pmlab.Error with libpmlab's
one-line message. Python callables can be an idle governor
(pmlab.IdleGovernor) or a frequency governor (pmlab.FreqGovernor): slower
than a C plugin, for quick experiments.
"""
import csv
import io
import json

from . import _lib
from ._lib import Error
from ._governor import FreqGovernor, IdleGovernor

__all__ = ["Error", "FreqGovernor", "IdleGovernor", "Result", "sim", "compare", "sweep", "machines", "governors",
           "catalog", "version", "Trace", "load_trace", "idletrace", "govtrace", "replay"]


def version():
    """pmlab's release and the library's API version."""
    return _lib.lib.pmlab_version().decode(), _lib.lib.pmlab_api_version()


class _Lab:
    """A libpmlab lab with profile directories, plugins and Python governors."""

    def __init__(self, plugins=(), profile_dirs=(), governors=()):
        self.h = _lib.new(_lib.lib.pmlab_lab_new)
        self.keep = list(governors)
        try:
            for d in profile_dirs:
                _lib.call(_lib.lib.pmlab_lab_profile_dir, self.h, _lib.b(d))
            for p in plugins:
                _lib.call(_lib.lib.pmlab_lab_load_plugin, self.h, _lib.b(p))
            for g in self.keep:
                _lib.call(_lib.lib.pmlab_lab_add_plugin, self.h, g._plugin_ref(),
                          _lib.b("python:" + g.name))
            # A Python callable cannot run in a forked worker.
            if self.keep:
                _lib.lib.pmlab_lab_isolate(self.h, 0)
        except Error:
            self.close()
            raise

    def raise_pending(self, err=None):
        for g in self.keep:
            g._raise_pending(err)

    def exec(self, fn, *args):
        """The handle fn (a pmlab_*_exec) makes, or its error: the library's,
        raised from the exception of a Python governor that stopped the run."""
        try:
            h = _lib.new(fn, *args)
        except Error as err:
            self.raise_pending(err)
            raise
        self.raise_pending()
        return h

    def close(self):
        if self.h:
            _lib.lib.pmlab_lab_free(self.h)
            self.h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _machine(spec, cpus=None):
    spec = str(spec)
    if "\n" in spec:  # INI text
        m = _lib.new(_lib.lib.pmlab_machine_parse, _lib.b(spec), b"machine text")
    else:
        m = _lib.new(_lib.lib.pmlab_machine_load, _lib.b(spec))
    if cpus is not None:
        try:
            _lib.call(_lib.lib.pmlab_machine_set_cpus, m, int(cpus))
        except Error:
            _lib.lib.pmlab_machine_free(m)
            raise
    return m


def _settings(settings):
    """{"hz": 100} or ["hz=100"] as KEY=VALUE strings."""
    if settings is None:
        return []
    if isinstance(settings, dict):
        return [f"{k}={v}" for k, v in settings.items()]
    return [str(s) for s in settings]


def _ns(seconds):
    return int(round(float(seconds) * 1e9))


class Result(dict):
    """One run's figures: the JSON form of pmlab sim (docs/json-schema.md)
    as a dict; .table and .csv hold the other two forms as text."""

    def __init__(self, res):
        super().__init__(json.loads(_lib.lib.pmlab_result_text(res, _lib.JSON).decode()))
        self.table = _lib.lib.pmlab_result_text(res, _lib.TABLE).decode()
        self.csv = _lib.lib.pmlab_result_text(res, _lib.CSV).decode()


def _python_governors(cpufreq, cpuidle, governors):
    """A FreqGovernor or IdleGovernor given as cpufreq or cpuidle: its name,
    and the governor registered with the others."""
    governors = tuple(governors)
    if isinstance(cpufreq, FreqGovernor):
        governors, cpufreq = governors + (cpufreq,), cpufreq.name
    if isinstance(cpuidle, IdleGovernor):
        governors, cpuidle = governors + (cpuidle,), cpuidle.name
    return cpufreq, cpuidle, governors


def _run_inputs(run, cpufreq, cpuidle, profile, settings, duration, seed, timeline, trace):
    """A run's inputs, set on its handle (sim and replay); duration None:
    the library's default."""
    _lib.call(_lib.lib.pmlab_run_cpufreq, run, _lib.b(cpufreq))
    _lib.call(_lib.lib.pmlab_run_cpuidle, run, _lib.b(cpuidle))
    _lib.call(_lib.lib.pmlab_run_profile, run, _lib.b(profile))
    for kv in _settings(settings):
        _lib.call(_lib.lib.pmlab_run_set, run, _lib.b(kv))
    if duration is not None:
        _lib.call(_lib.lib.pmlab_run_duration, run, _ns(duration))
    _lib.lib.pmlab_run_seed(run, int(seed))
    _lib.call(_lib.lib.pmlab_run_timeline, run, _lib.b(timeline))
    _lib.call(_lib.lib.pmlab_run_trace, run, _lib.b(trace))


def _compare_exec(lab, c, profiles, baseline, cpufreq, cpuidle, settings, duration, seed, runs,
                  jobs, governors, form):
    """A comparison's inputs set on its handle and run (compare and replay
    --profiles); its rows, or the text of form. duration None: the
    library's default."""
    for p in profiles:
        entry, label = (p, None) if isinstance(p, str) else p
        _lib.call(_lib.lib.pmlab_compare_policy, c, _lib.b(entry), _lib.b(label))
    _lib.call(_lib.lib.pmlab_compare_baseline, c, _lib.b(baseline))
    _lib.call(_lib.lib.pmlab_compare_cpufreq, c, _lib.b(cpufreq))
    _lib.call(_lib.lib.pmlab_compare_cpuidle, c, _lib.b(cpuidle))
    for kv in _settings(settings):
        _lib.call(_lib.lib.pmlab_compare_set, c, _lib.b(kv))
    if duration is not None:
        _lib.call(_lib.lib.pmlab_compare_duration, c, _ns(duration))
    _lib.lib.pmlab_compare_seed(c, int(seed))
    _lib.call(_lib.lib.pmlab_compare_runs, c, int(runs))
    _lib.call(_lib.lib.pmlab_compare_jobs, c, 1 if governors else int(jobs))
    res = lab.exec(_lib.lib.pmlab_compare_exec, c)
    try:
        forms = {"table": _lib.TABLE, "csv": _lib.CSV, "json": _lib.JSON, "html": _lib.HTML}
        if form != "rows":
            return _lib.lib.pmlab_result_text(res, forms[form]).decode()
        return _rows(_lib.lib.pmlab_result_text(res, _lib.CSV).decode())
    finally:
        _lib.lib.pmlab_result_free(res)


def sim(machine, workload, *, cpus=None, cpufreq=None, cpuidle=None, profile=None,
        settings=None, duration=10.0, seed=1, plugins=(), governors=(), profile_dirs=(),
        timeline=None, trace=None):
    """One run, as pmlab sim: machine (a preset name, an INI file, or INI
    text), workload (a name or "rtapp:FILE"), the governors (a name, or a
    pmlab.FreqGovernor for cpufreq, a pmlab.IdleGovernor for cpuidle), a
    tuned profile, settings ({"hz": 100} or ["hz=100"]), duration in
    seconds, seed. Returns a Result."""
    cpufreq, cpuidle, governors = _python_governors(cpufreq, cpuidle, governors)
    with _Lab(plugins, profile_dirs, governors) as lab:
        m = _machine(machine, cpus)
        run = handle = None
        try:
            run = _lib.new(_lib.lib.pmlab_run_new, lab.h, m, _lib.b(workload))
            _run_inputs(run, cpufreq, cpuidle, profile, settings, duration, seed, timeline, trace)
            handle = lab.exec(_lib.lib.pmlab_run_exec, run)
            return Result(handle)
        finally:
            _lib.lib.pmlab_result_free(handle)
            _lib.lib.pmlab_run_free(run)
            _lib.lib.pmlab_machine_free(m)


def _number(s):
    for kind in (int, float):
        try:
            return kind(s)
        except ValueError:
            pass
    return s


def _rows(text):
    """CSV text as a DataFrame (pandas installed) or a list of dicts; the
    lines of "# " comments (the run's inputs) left out."""
    text = "".join(line for line in text.splitlines(True) if not line.startswith("#"))
    try:
        import pandas
    except ImportError:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]
    return pandas.read_csv(io.StringIO(text))


def compare(machine, workload, profiles, *, runs=3, jobs=1, baseline=None, cpus=None,
            cpufreq=None, cpuidle=None, settings=None, duration=10.0, seed=1, plugins=(),
            governors=(), profile_dirs=(), form="rows"):
    """Policies side by side, as pmlab compare: profiles are profile entries
    ("balanced", "none:cpuidle=teo", "tuned-2.3/balanced:governor=conservative")
    or (entry, label) pairs, each run `runs` times. Returns the rows of
    pmlab compare --format csv (a DataFrame or a list of dicts); with
    form="table", "csv", "json" or "html", that text."""
    cpufreq, cpuidle, governors = _python_governors(cpufreq, cpuidle, governors)
    with _Lab(plugins, profile_dirs, governors) as lab:
        m = _machine(machine, cpus)
        c = None
        try:
            c = _lib.new(_lib.lib.pmlab_compare_new, lab.h, m, _lib.b(workload))
            return _compare_exec(lab, c, profiles, baseline, cpufreq, cpuidle, settings,
                                 duration, seed, runs, jobs, governors, form)
        finally:
            _lib.lib.pmlab_compare_free(c)
            _lib.lib.pmlab_machine_free(m)


def sweep(machine, workload, vary, *, cpus=None, cpufreq=None, cpuidle=None, profile=None,
          settings=None, duration=10.0, seed=None, jobs=1, plugins=(), governors=(),
          profile_dirs=()):
    """The Cartesian product of vary ({"cpufreq": ["performance", "schedutil"],
    "hz": [100, 1000]}; the last key varies fastest), one run per point, as
    pmlab sweep. Returns its CSV rows: a DataFrame, or a list of dicts."""
    cpufreq, cpuidle, governors = _python_governors(cpufreq, cpuidle, governors)
    with _Lab(plugins, profile_dirs, governors) as lab:
        s = _lib.new(_lib.lib.pmlab_sweep_new, lab.h)
        res = None
        try:
            fixed = {"machine": machine, "workload": workload, "cpus": cpus, "cpufreq": cpufreq,
                     "cpuidle": cpuidle, "profile": profile, "duration": duration, "seed": seed}
            for k, v in fixed.items():
                if v is not None:
                    _lib.call(_lib.lib.pmlab_sweep_option, s, _lib.b(k), _lib.b(v))
            for kv in _settings(settings):
                _lib.call(_lib.lib.pmlab_sweep_set, s, _lib.b(kv))
            for k, values in vary.items():
                values = [values] if isinstance(values, str) else list(values)
                _lib.call(_lib.lib.pmlab_sweep_vary, s,
                          _lib.b(f"{k}=" + ",".join(str(v) for v in values)))
            _lib.call(_lib.lib.pmlab_sweep_jobs, s, 1 if governors else int(jobs))
            _lib.call(_lib.lib.pmlab_sweep_format, s, _lib.CSV)
            res = lab.exec(_lib.lib.pmlab_sweep_exec, s)
            return _rows(_lib.lib.pmlab_result_text(res, _lib.CSV).decode())
        finally:
            _lib.lib.pmlab_result_free(res)
            _lib.lib.pmlab_sweep_free(s)


def catalog(plugins=()):
    """Governors, workloads, engine tunables and machines, as a dict."""
    with _Lab(plugins) as lab:
        p = _lib.lib.pmlab_lab_catalog(lab.h)
        if not p:
            raise MemoryError("pmlab: catalog")
        try:
            return json.loads(_lib.ctypes.string_at(p).decode())
        finally:
            _lib.lib.pmlab_free(p)


def machines():
    """The built-in machine models' names."""
    return [_lib.lib.pmlab_machine_preset_name(i).decode()
            for i in range(_lib.lib.pmlab_machine_preset_count())]


def governors(plugins=()):
    """{"cpufreq": [...], "cpuidle": [...], "placement": [...]}: each governor
    and placement policy with its summary and tunables (name, default, min,
    max, help, and choices for one that takes words), plugins' included."""
    c = catalog(plugins)
    return {"cpufreq": c["cpufreq"], "cpuidle": c["cpuidle"], "placement": c["placement"]}


from ._trace import Trace, load_trace, idletrace, govtrace  # noqa: E402 (uses the above)
from ._replay import replay  # noqa: E402

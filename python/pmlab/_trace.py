# SPDX-License-Identifier: GPL-2.0-only
"""Recorded traces through libpmlab (pmlab.h's traces section): a kernel
trace (trace.dat or ftrace text) as its events, or the CSV traces pmlab
idletrace and pmlab govtrace read, and governors driven by them."""
import ctypes

from . import _lib

_P, _PP, _E, _S, _I = _lib.P, _lib.PP, _lib.E, _lib.S, _lib.I
_PROTOS = {
    "pmlab_trace_load": (_I, [_S, _I, _PP, _E]),
    "pmlab_trace_free": (None, [_P]),
    "pmlab_trace_kind_of": (_I, [_P]),
    "pmlab_trace_format": (_S, [_P]),
    "pmlab_trace_count": (ctypes.c_size_t, [_P]),
    "pmlab_trace_cpus": (_I, [_P]),
    "pmlab_trace_lost": (_lib.U64, [_P]),
    "pmlab_trace_csv": (_P, [_P]),
    "pmlab_idletrace_new": (_I, [_P, _P, _S, _PP, _E]),
    "pmlab_idletrace_free": (None, [_P]),
    "pmlab_idletrace_set": (_I, [_P, _S, _E]),
    "pmlab_idletrace_tick_policy": (_I, [_P, _S, _E]),
    "pmlab_idletrace_hz": (_I, [_P, _I, _E]),
    "pmlab_idletrace_exec": (_I, [_P, _P, _PP, _E]),
    "pmlab_govtrace_new": (_I, [_P, _S, _PP, _E]),
    "pmlab_govtrace_free": (None, [_P]),
    "pmlab_govtrace_freqs": (_I, [_P, _S, _E]),
    "pmlab_govtrace_base_khz": (_I, [_P, ctypes.c_uint32, _E]),
    "pmlab_govtrace_hz": (_I, [_P, _I, _E]),
    "pmlab_govtrace_set": (_I, [_P, _S, _E]),
    "pmlab_govtrace_exec": (_I, [_P, _P, _PP, _E]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(_lib.lib, _name)
    _f.restype = _res
    _f.argtypes = _args

KINDS = {None: 0, "events": 1, "idle": 2, "util": 3}
_KIND_NAMES = {v: k for k, v in KINDS.items() if k}


class Trace:
    """A trace libpmlab read (pmlab.load_trace).

    .kind     "events" (trace.dat, ftrace text), "idle" (pmlab idletrace's
              CSV) or "util" (pmlab govtrace's CSV)
    .format   "trace.dat", "ftrace text", "trace-cmd report", "idletrace CSV", ...
    .cpus     CPUs the trace names (1 for the CSV traces); .lost: events
              the kernel dropped
    .rows     a pandas.DataFrame (pandas installed) or a list of dicts: for
              "events" one row per event in file order, columns ts_ns, cpu,
              event (the tracepoint), pid, comm, pid2, comm2, prev_state,
              value (kHz, idle state, -1 for an idle exit), target_cpu,
              ctx_pid, irq_ctx, where (line or record); for "idle" and
              "util" the rows as the commands read them
    .csv      the same rows as CSV text
    """

    def __init__(self, path, kind=None):
        if kind not in KINDS:
            raise ValueError(f"load_trace: kind {kind!r}: expected one of "
                             f"{', '.join(k for k in KINDS if k)} or None")
        self.path = str(path)
        self._h = _lib.new(_lib.lib.pmlab_trace_load, _lib.b(path), KINDS[kind])
        try:
            lib = _lib.lib
            self.kind = _KIND_NAMES[lib.pmlab_trace_kind_of(self._h)]
            self.format = lib.pmlab_trace_format(self._h).decode()
            self.cpus = lib.pmlab_trace_cpus(self._h)
            self.lost = lib.pmlab_trace_lost(self._h)
            self.count = lib.pmlab_trace_count(self._h)
            text = lib.pmlab_trace_csv(self._h)
            if not text:
                raise MemoryError("pmlab: out of memory")
            self.csv = ctypes.string_at(text).decode(errors="replace")
            lib.pmlab_free(text)
        except BaseException:
            self.close()
            raise
        from . import _rows  # the package's CSV -> DataFrame or dicts
        self.rows = _rows(self.csv)

    def __len__(self):
        return self.count

    def cpu_states(self):
        """Per CPU of an "events" trace, from its first event to its last:
        ns running a task (from a sched_switch to a pid other than 0, or from
        the start when the CPU's first switch takes a task off), ns in each
        idle state (cpu_idle, columns idle_STATE_ns), and the time-weighted
        mean of the cpu_frequency events (mean_khz; None without any).
        A DataFrame or a list of dicts, one row per CPU."""
        if self.kind != "events":
            raise ValueError(f"cpu_states: {self.path} is a {self.format}, not a kernel trace")
        import csv
        import io
        rows = list(csv.DictReader(io.StringIO(self.csv)))
        if not rows:
            return _records([])
        t0, t1 = int(rows[0]["ts_ns"]), int(rows[-1]["ts_ns"])
        for r in rows:
            t = int(r["ts_ns"])
            t0, t1 = min(t0, t), max(t1, t)
        cpus = [{"cpu": c, "running_ns": 0, "_run": None, "_seen": False, "_idle": None, "_freq": None,
                 "_khz_ns": 0, "_freq_ns": 0, "idle": {}} for c in range(self.cpus)]

        def close_idle(s, t):
            state, since = s["_idle"]
            s["idle"][state] = s["idle"].get(state, 0) + t - since
            s["_idle"] = None

        def close_freq(s, t):
            khz, since = s["_freq"]
            s["_khz_ns"] += khz * (t - since)
            s["_freq_ns"] += t - since

        for r in sorted(rows, key=lambda r: int(r["ts_ns"])):
            t, ev = int(r["ts_ns"]), r["event"]
            if ev == "sched_switch":
                s = cpus[int(r["cpu"])]
                # before a CPU's first switch it ran what that switch takes off
                if not s["_seen"] and int(r["pid"]) != 0:
                    s["_run"] = t0
                s["_seen"] = True
                if s["_run"] is not None:
                    s["running_ns"] += t - s["_run"]
                s["_run"] = t if int(r["pid2"]) != 0 else None
            elif ev in ("cpu_idle", "cpu_frequency"):
                s = cpus[int(r["target_cpu"])]
                v = int(r["value"])
                if ev == "cpu_idle":
                    if s["_idle"] is not None:
                        close_idle(s, t)
                    if v >= 0:
                        s["_idle"] = (v, t)
                else:
                    if s["_freq"] is not None:
                        close_freq(s, t)
                    s["_freq"] = (v, t)
        out = []
        for s in cpus:
            if s["_run"] is not None:
                s["running_ns"] += t1 - s["_run"]
            if s["_idle"] is not None:
                close_idle(s, t1)
            if s["_freq"] is not None:
                close_freq(s, t1)
            row = {"cpu": s["cpu"], "span_ns": t1 - t0, "running_ns": s["running_ns"]}
            for state in sorted(s["idle"]):
                row[f"idle_{state}_ns"] = s["idle"][state]
            row["mean_khz"] = s["_khz_ns"] / s["_freq_ns"] if s["_freq_ns"] else None
            out.append(row)
        return _records(out)

    def close(self):
        if getattr(self, "_h", None):
            _lib.lib.pmlab_trace_free(self._h)
            self._h = None

    def __del__(self):
        self.close()


def _records(rows):
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)


def load_trace(path, kind=None):
    """A recorded trace as a pmlab.Trace: a trace.dat (pmlab record,
    trace-cmd record) or ftrace text (tracefs's trace, trace-cmd report) as
    its scheduler and power events, or pmlab idletrace's and pmlab
    govtrace's CSV traces; kind ("events", "idle", "util") insists on one,
    None tells by the content. Raises pmlab.Error naming the file and line
    of what is wrong."""
    return Trace(path, kind)


def _text_rows(res):
    from . import _rows
    return _rows(_lib.lib.pmlab_result_text(res, _lib.CSV).decode())


def idletrace(trace, governor, machine, *, settings=None, tick_policy=None, hz=None,
              plugins=()):
    """An idle governor driven by an "idle" trace (a Trace or a path), as
    pmlab idletrace: one row per idle period (idx, state, stop_tick, above,
    below), a DataFrame or a list of dicts."""
    from . import _Lab, _machine, _settings
    t = trace if isinstance(trace, Trace) else Trace(trace, "idle")
    with _Lab(plugins) as lab:
        m = _machine(machine)
        it = res = None
        try:
            it = _lib.new(_lib.lib.pmlab_idletrace_new, lab.h, m, _lib.b(governor))
            for kv in _settings(settings):
                _lib.call(_lib.lib.pmlab_idletrace_set, it, _lib.b(kv))
            if tick_policy is not None:
                _lib.call(_lib.lib.pmlab_idletrace_tick_policy, it, _lib.b(tick_policy))
            if hz is not None:
                _lib.call(_lib.lib.pmlab_idletrace_hz, it, int(hz))
            res = _lib.new(_lib.lib.pmlab_idletrace_exec, it, t._h)
            return _text_rows(res)
        finally:
            _lib.lib.pmlab_result_free(res)
            _lib.lib.pmlab_idletrace_free(it)
            _lib.lib.pmlab_machine_free(m)


def govtrace(trace, governor, freqs, *, settings=None, base_khz=None, hz=None, plugins=()):
    """A frequency governor driven by a "util" trace (a Trace or a path),
    as pmlab govtrace: one row per change of its target (t_us, freq_khz),
    a DataFrame or a list of dicts. freqs: kHz values (a list or "a,b,c")."""
    from . import _Lab, _settings
    t = trace if isinstance(trace, Trace) else Trace(trace, "util")
    if not isinstance(freqs, str):
        freqs = ",".join(str(int(f)) for f in freqs)
    with _Lab(plugins) as lab:
        g = res = None
        try:
            g = _lib.new(_lib.lib.pmlab_govtrace_new, lab.h, _lib.b(governor))
            _lib.call(_lib.lib.pmlab_govtrace_freqs, g, _lib.b(freqs))
            for kv in _settings(settings):
                _lib.call(_lib.lib.pmlab_govtrace_set, g, _lib.b(kv))
            if base_khz is not None:
                _lib.call(_lib.lib.pmlab_govtrace_base_khz, g, int(base_khz))
            if hz is not None:
                _lib.call(_lib.lib.pmlab_govtrace_hz, g, int(hz))
            res = _lib.new(_lib.lib.pmlab_govtrace_exec, g, t._h)
            return _text_rows(res)
        finally:
            _lib.lib.pmlab_result_free(res)
            _lib.lib.pmlab_govtrace_free(g)

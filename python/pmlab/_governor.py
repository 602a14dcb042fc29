# SPDX-License-Identifier: GPL-2.0-only
"""Python callables as an idle or a frequency governor, through the plugin
seam (include/pmlab/plugin.h): the structures below mirror that header,
and libpmlab calls back into Python on every idle entry (an idle
governor) or every limits change and scheduler hook (a frequency
governor). Expect runs several times slower than with a C governor: use
them to try an idea, then write the C plugin (examples/plugins/lastidle.c,
stepfreq.c)."""
import collections
import ctypes

from . import _lib

PLUGIN_ABI = 2


class Tunable(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("help", ctypes.c_char_p), ("default", ctypes.c_int64),
                ("min", ctypes.c_int64), ("max", ctypes.c_int64),
                ("words", ctypes.POINTER(ctypes.c_char_p))]


class _Tunables:
    """A governor's tunables as Python gives them: (name, default, min, max,
    help) for a number, (name, default, [word, ...], help) for a knob that
    takes words (--set name=word; the governor sees the word)."""

    def __init__(self, tunables):
        self.names, self.words, rows = [], [], []
        self._keep = []
        for t in tunables:
            t = tuple(t)
            if len(t) == 4 and isinstance(t[2], (list, tuple)):
                name, default, words, help_ = t
                words = [str(w) for w in words]
                if str(default) not in words:
                    raise ValueError(f"tunable {name}: default {default!r} is not one of {words}")
                arr = (ctypes.c_char_p * (len(words) + 1))(*[w.encode() for w in words], None)
                self._keep.append(arr)
                rows.append(Tunable(name.encode(), help_.encode(), words.index(str(default)), 0,
                                    len(words) - 1, arr))
                self.words.append(words)
            elif len(t) == 5:
                name, default, lo, hi, help_ = t
                rows.append(Tunable(name.encode(), help_.encode(), default, lo, hi, None))
                self.words.append(None)
            else:
                raise ValueError(f"tunable {t!r}: expected (name, default, min, max, help) or "
                                 "(name, default, [words], help)")
            self.names.append(name)
        self.n = len(rows)
        self.table = (Tunable * max(1, self.n))(*rows)

    def values(self, array):
        """{name: value}: a number, or the word a knob with words holds."""
        out = {}
        for i, name in enumerate(self.names):
            v = array[i]
            out[name] = self.words[i][v] if self.words[i] else v
        return out


class IdleState(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("exit_latency_ns", ctypes.c_int64),
                ("target_residency_ns", ctypes.c_int64), ("polling", ctypes.c_bool)]


class IdleDevice(ctypes.Structure):
    _fields_ = [("cpu", ctypes.c_int), ("nstates", ctypes.c_int),
                ("states", ctypes.POINTER(IdleState)), ("disabled", ctypes.POINTER(ctypes.c_bool)),
                ("now_ns", ctypes.c_int64), ("next_timer_ns", ctypes.c_int64),
                ("next_timer_no_tick_ns", ctypes.c_int64), ("tick_period_ns", ctypes.c_int64),
                ("tick_stopped", ctypes.c_bool), ("nr_iowait", ctypes.c_int),
                ("last_state", ctypes.c_int), ("last_residency_ns", ctypes.c_int64),
                ("tick_wakeup", ctypes.c_bool), ("poll_time_limit", ctypes.c_bool),
                ("tunables", ctypes.POINTER(ctypes.c_int64)), ("data", ctypes.c_void_p)]


INIT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(IdleDevice), ctypes.c_char_p, ctypes.c_size_t)
SELECT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(IdleDevice), ctypes.c_int64,
                          ctypes.POINTER(ctypes.c_bool))
REFLECT = ctypes.CFUNCTYPE(None, ctypes.POINTER(IdleDevice), ctypes.c_int)


class IdleGovernorOps(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("summary", ctypes.c_char_p),
                ("tunables", ctypes.POINTER(Tunable)), ("ntunables", ctypes.c_int),
                ("data_size", ctypes.c_size_t), ("init", INIT), ("select", SELECT),
                ("reflect", REFLECT)]


class CpuTimes(ctypes.Structure):
    _fields_ = [("busy_ns", ctypes.c_int64), ("idle_ns", ctypes.c_int64),
                ("iowait_ns", ctypes.c_int64), ("idle_calls", ctypes.c_uint64)]


class CpuUtil(ctypes.Structure):
    _fields_ = [("util", ctypes.c_ulong), ("capacity", ctypes.c_ulong),
                ("uclamp_min", ctypes.c_ulong), ("uclamp_max", ctypes.c_ulong)]


class FreqPolicy(ctypes.Structure):
    pass


FreqPolicy._fields_ = [
    ("id", ctypes.c_int), ("ncpus", ctypes.c_int), ("cpus", ctypes.POINTER(ctypes.c_int)),
    ("table", ctypes.POINTER(ctypes.c_uint32)), ("ntable", ctypes.c_int),
    ("cpuinfo_min", ctypes.c_uint32), ("cpuinfo_max", ctypes.c_uint32),
    ("base_khz", ctypes.c_uint32), ("min", ctypes.c_uint32), ("max", ctypes.c_uint32),
    ("cur", ctypes.c_uint32), ("tick_ns", ctypes.c_int64),
    ("transition_latency_ns", ctypes.c_int64), ("transition_delay_ns", ctypes.c_int64),
    ("freq_invariant", ctypes.c_bool), ("tunables", ctypes.POINTER(ctypes.c_int64)),
    ("data", ctypes.c_void_p),
    ("cpu_times", ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy), ctypes.c_int,
                                   ctypes.POINTER(CpuTimes))),
    ("cpu_util", ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy), ctypes.c_int,
                                  ctypes.POINTER(CpuUtil))),
    ("target", ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy), ctypes.c_uint32, ctypes.c_int)),
    ("use_hook", ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy), ctypes.c_bool)),
    ("pmlab", ctypes.c_void_p)]

START = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(FreqPolicy), ctypes.c_char_p,
                         ctypes.c_size_t)
STOP = ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy))
LIMITS = ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy))
UPDATE = ctypes.CFUNCTYPE(None, ctypes.POINTER(FreqPolicy), ctypes.c_int, ctypes.c_int64,
                          ctypes.c_uint)


class FreqGovernorOps(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("summary", ctypes.c_char_p),
                ("tunables", ctypes.POINTER(Tunable)), ("ntunables", ctypes.c_int),
                ("data_size", ctypes.c_size_t), ("start", START), ("stop", STOP),
                ("limits", LIMITS), ("update", UPDATE)]


class Plugin(ctypes.Structure):
    _fields_ = [("abi", ctypes.c_uint), ("idle", ctypes.POINTER(IdleGovernorOps)),
                ("freq", ctypes.POINTER(FreqGovernorOps)), ("workload", ctypes.c_void_p),
                ("placement", ctypes.c_void_p)]


class _PythonGovernor:
    """What the Python governors share: the plugin they register, and the
    first exception raised inside them, which stops the run
    (pmlab_plugin_fail) and is held until it has stopped."""

    _pending = None

    def _plugin_ref(self):
        return ctypes.cast(ctypes.pointer(self._plugin), ctypes.c_void_p)

    def _fail(self, e):
        if self._pending is None:
            self._pending = e
            _lib.lib.pmlab_plugin_fail(f"{type(e).__name__}: {e}".encode(errors="replace"))

    def _raise_pending(self, err=None):
        """The run's error (err: the library's, which names the governor,
        the operation and the exception), raised from the exception held;
        nothing if none is."""
        e, self._pending = self._pending, None
        self._forget()
        if e is not None:
            if err is None:
                err = _lib.Error("plugin", f"{self.name}: {type(e).__name__}: {e}")
            raise err from e

    def _forget(self):
        """Drops what the run left (per-CPU or per-policy objects)."""


class Device:
    """What select() and reflect() see of a CPU: cpu, states (a list of
    (name, exit_latency_ns, target_residency_ns, polling)), disabled (a
    list of bools), next_timer_ns, next_timer_no_tick_ns, tick_period_ns,
    tick_stopped, nr_iowait, last_state, last_residency_ns, tick_wakeup,
    tunables (a dict), and data: a dict of the governor's own per CPU."""

    def __init__(self, gov, dev):
        self.cpu = dev.cpu
        self.states = [(dev.states[i].name.decode(), dev.states[i].exit_latency_ns,
                        dev.states[i].target_residency_ns, bool(dev.states[i].polling))
                       for i in range(dev.nstates)]
        self.data = {}
        self._gov = gov

    def _update(self, dev):
        self.disabled = [bool(dev.disabled[i]) for i in range(len(self.states))]
        for k in ("now_ns", "next_timer_ns", "next_timer_no_tick_ns", "tick_period_ns",
                  "tick_stopped", "nr_iowait", "last_state", "last_residency_ns", "tick_wakeup",
                  "poll_time_limit"):
            setattr(self, k, getattr(dev, k))
        self.tunables = self._gov._tun.values(dev.tunables)
        return self


class IdleGovernor(_PythonGovernor):
    """An idle governor written in Python.

    select(dev, latency_limit_ns) returns a state index, or (index, stop_tick);
    reflect(dev, state), optional, learns from the idle period that ended.
    tunables: [(name, default, min, max, help)] or, for a knob that takes
    words, [(name, default, [words], help)], set with settings= like a
    built-in governor's. An exception inside either stops the run; the
    sim(), compare() or sweep() that ran it raises pmlab.Error, naming the
    governor, the operation and the exception, from that exception."""

    def __init__(self, name, select, reflect=None, tunables=(), summary="a Python idle governor"):
        self.name, self.select, self.reflect = name, select, reflect
        self._tun = _Tunables(tunables)
        self._devices = {}
        self._cb = (INIT(self._init), SELECT(self._select),
                    REFLECT(self._reflect) if reflect else REFLECT())
        self._ops = IdleGovernorOps(name.encode(), summary.encode(), self._tun.table,
                                    self._tun.n, 0, *self._cb)
        self._plugin = Plugin(PLUGIN_ABI, ctypes.pointer(self._ops), None, None, None)

    def _init(self, dev, err, errlen):
        self._devices[dev.contents.cpu] = Device(self, dev.contents)
        return 0

    def _select(self, dev, limit, stop_tick):
        try:
            d = dev.contents
            got = self.select(self._devices[d.cpu]._update(d), limit)
            if isinstance(got, tuple):
                got, stop_tick[0] = got[0], bool(got[1])
            return int(got)
        except BaseException as e:  # reported after the run; -1 fails it
            self._fail(e)
            return -1

    def _reflect(self, dev, state):
        try:
            d = dev.contents
            self.reflect(self._devices[d.cpu]._update(d), state)
        except BaseException as e:
            self._fail(e)


CpuTimesTuple = collections.namedtuple("CpuTimes", "busy_ns idle_ns iowait_ns idle_calls")
CpuUtilTuple = collections.namedtuple("CpuUtil", "util capacity uclamp_min uclamp_max")
RELATIONS = {"L": 0, "H": 1, "C": 2}


class Policy:
    """What a frequency governor sees of a cpufreq policy: id, cpus (a
    list), table (ascending kHz), cpuinfo_min, cpuinfo_max, base_khz, the
    current limits min and max, cur (the current frequency), tick_ns,
    transition_latency_ns, transition_delay_ns, freq_invariant, tunables
    (a dict), data (a dict of the governor's own for this policy); and the
    calls cpu_times(cpu), cpu_util(cpu), target(khz, relation="L") and
    use_hook(on)."""

    def __init__(self, gov, p):
        self.id = p.id
        self.cpus = [p.cpus[i] for i in range(p.ncpus)]
        self.table = [p.table[i] for i in range(p.ntable)]
        for k in ("cpuinfo_min", "cpuinfo_max", "base_khz", "tick_ns", "transition_latency_ns",
                  "transition_delay_ns", "freq_invariant"):
            setattr(self, k, getattr(p, k))
        self.data = {}
        self._gov = gov
        self._p = None

    def _update(self, p):
        self._p = p
        c = p.contents
        self.min, self.max, self.cur = c.min, c.max, c.cur
        self.tunables = self._gov._tun.values(c.tunables)
        return self

    def cpu_times(self, cpu):
        """Cumulative (busy_ns, idle_ns, iowait_ns, idle_calls) of a CPU."""
        t = CpuTimes()
        self._p.contents.cpu_times(self._p, int(cpu), ctypes.byref(t))
        return CpuTimesTuple(t.busy_ns, t.idle_ns, t.iowait_ns, t.idle_calls)

    def cpu_util(self, cpu):
        """The scheduler's (util, capacity, uclamp_min, uclamp_max) of a CPU."""
        u = CpuUtil()
        self._p.contents.cpu_util(self._p, int(cpu), ctypes.byref(u))
        return CpuUtilTuple(u.util, u.capacity, u.uclamp_min, u.uclamp_max)

    def target(self, khz, relation="L"):
        """Ask for khz: clamped to the limits, then the lowest table
        frequency at or above it ("L"), the highest at or below ("H"), or
        the closest ("C"); cur follows."""
        self._p.contents.target(self._p, int(khz), RELATIONS[relation])
        self.cur = self._p.contents.cur

    def use_hook(self, on=True):
        """Have update() called from the scheduler's utilization hook, or not."""
        self._p.contents.use_hook(self._p, bool(on))


class FreqGovernor(_PythonGovernor):
    """A frequency (cpufreq) governor written in Python.

    limits(policy) is called at start and whenever the policy's limits
    change (a static governor does all its work there: policy.target());
    update(policy, cpu, now_ns, flags), optional, is called from the
    scheduler's hook on a CPU of the policy (flags 1: a task that waited on
    I/O), which is asked for at start when update is given; start(policy)
    and stop(policy) are optional. tunables: as IdleGovernor's. Several
    times slower than a C governor, and run in the calling process; an
    exception inside any of them stops the run, as IdleGovernor's does."""

    def __init__(self, name, limits, update=None, start=None, stop=None, tunables=(),
                 summary="a Python frequency governor"):
        self.name, self.limits, self.update = name, limits, update
        self.start, self.stop = start, stop
        self._tun = _Tunables(tunables)
        self._policies = {}
        self._cb = (START(self._start), STOP(self._stop), LIMITS(self._limits),
                    UPDATE(self._update) if update else UPDATE())
        self._ops = FreqGovernorOps(name.encode(), summary.encode(), self._tun.table,
                                    self._tun.n, 0, *self._cb)
        self._plugin = Plugin(PLUGIN_ABI, None, ctypes.pointer(self._ops), None, None)

    def _forget(self):
        self._policies = {}

    def _policy(self, p):
        return self._policies[p.contents.id]._update(p)

    def _start(self, p, err, errlen):
        try:
            pol = self._policies[p.contents.id] = Policy(self, p.contents)
            pol._update(p)
            if self.update:
                pol.use_hook(True)
            if self.start:
                self.start(pol)
            return 0
        except BaseException as e:  # reported after the run
            self._fail(e)
            return -1

    def _stop(self, p):
        try:
            if self.stop and p.contents.id in self._policies:
                self.stop(self._policy(p))
        except BaseException as e:
            self._fail(e)

    def _limits(self, p):
        try:
            self.limits(self._policy(p))
        except BaseException as e:
            self._fail(e)

    def _update(self, p, cpu, now_ns, flags):
        try:
            self.update(self._policy(p), cpu, now_ns, flags)
        except BaseException as e:
            self._fail(e)

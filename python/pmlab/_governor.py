# SPDX-License-Identifier: GPL-2.0-only
"""A Python callable as an idle governor, through the plugin seam
(include/pmlab/plugin.h): the structures below mirror that header, and
libpmlab calls back into Python on every idle entry. Expect runs several
times slower than with a C governor: use it to try an idea, then write
the C plugin (examples/plugins/lastidle.c)."""
import ctypes

PLUGIN_ABI = 1


class Tunable(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("help", ctypes.c_char_p), ("default", ctypes.c_int64),
                ("min", ctypes.c_int64), ("max", ctypes.c_int64)]


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


class Plugin(ctypes.Structure):
    _fields_ = [("abi", ctypes.c_uint), ("idle", ctypes.POINTER(IdleGovernorOps)),
                ("freq", ctypes.c_void_p), ("workload", ctypes.c_void_p),
                ("placement", ctypes.c_void_p)]


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
        self.tunables = {t[0]: dev.tunables[i] for i, t in enumerate(self._gov.tunables)}
        return self


class IdleGovernor:
    """An idle governor written in Python.

    select(dev, latency_limit_ns) returns a state index, or (index, stop_tick);
    reflect(dev, state), optional, learns from the idle period that ended.
    tunables: [(name, default, min, max, help)], set with settings= like a
    built-in governor's. An exception inside either is raised again by the
    sim(), compare() or sweep() that ran it."""

    def __init__(self, name, select, reflect=None, tunables=(), summary="a Python idle governor"):
        self.name, self.select, self.reflect = name, select, reflect
        self.tunables = [tuple(t) for t in tunables]
        self._pending = None
        self._devices = {}
        self._tun = (Tunable * max(1, len(self.tunables)))(
            *[Tunable(n.encode(), h.encode(), d, lo, hi) for n, d, lo, hi, h in self.tunables])
        self._cb = (INIT(self._init), SELECT(self._select),
                    REFLECT(self._reflect) if reflect else REFLECT())
        self._ops = IdleGovernorOps(name.encode(), summary.encode(), self._tun,
                                    len(self.tunables), 0, *self._cb)
        self._plugin = Plugin(PLUGIN_ABI, ctypes.pointer(self._ops), None, None, None)

    def _plugin_ref(self):
        return ctypes.cast(ctypes.pointer(self._plugin), ctypes.c_void_p)

    def _fail(self, e):
        if self._pending is None:
            self._pending = e

    def _raise_pending(self):
        e, self._pending = self._pending, None
        if e is not None:
            raise e

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

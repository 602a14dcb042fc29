# SPDX-License-Identifier: GPL-2.0-only
"""A recorded kernel trace replayed on a machine model, as pmlab replay,
through libpmlab's replays (pmlab.h, API 1.2)."""
from . import _lib

_P, _PP, _E, _S, _I, _I64, _U64 = (_lib.P, _lib.PP, _lib.E, _lib.S, _lib.I, _lib.I64,
                                   _lib.U64)
_PROTOS = {
    "pmlab_replay_new": (_I, [_S, _PP, _E]),
    "pmlab_replay_free": (None, [_P]),
    "pmlab_replay_machine": (_I, [_P, _S, _E]),
    "pmlab_replay_cpus": (_I, [_P, _I, _E]),
    "pmlab_replay_capture_khz": (_I, [_P, _U64, _E]),
    "pmlab_replay_keep_pid": (_I, [_P, _I, _E]),
    "pmlab_replay_keep_comm": (_I, [_P, _S, _E]),
    "pmlab_replay_load": (_I, [_P, _E]),
    "pmlab_replay_run": (_I, [_P, _P, _PP, _E]),
    "pmlab_replay_compare": (_I, [_P, _P, _PP, _E]),
    "pmlab_run_per_task": (_I, [_P, _I, _E]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(_lib.lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def _load(path, machine, cpus, capture_khz, pids, comms):
    rp = _lib.new(_lib.lib.pmlab_replay_new, _lib.b(path))
    try:
        _lib.call(_lib.lib.pmlab_replay_machine, rp, _lib.b(machine))
        if cpus is not None:
            _lib.call(_lib.lib.pmlab_replay_cpus, rp, int(cpus))
        if capture_khz is not None:
            _lib.call(_lib.lib.pmlab_replay_capture_khz, rp, int(capture_khz))
        for pid in pids:
            _lib.call(_lib.lib.pmlab_replay_keep_pid, rp, int(pid))
        for pattern in comms:
            _lib.call(_lib.lib.pmlab_replay_keep_comm, rp, _lib.b(pattern))
        _lib.call(_lib.lib.pmlab_replay_load, rp)
    except _lib.Error:
        _lib.lib.pmlab_replay_free(rp)
        raise
    return rp


def replay(path, *, machine=None, cpus=None, capture_khz=None, pids=(), comms=(),
           cpufreq=None, cpuidle=None, settings=None, duration=None, seed=1, per_task=False,
           profiles=None, runs=1, jobs=1, plugins=(), governors=(), timeline=None, trace=None,
           form="rows"):
    """A trace.dat or ftrace text replayed on a machine model, as pmlab
    replay: machine (a preset or INI file; None: FILE.machine.ini beside the
    trace, else one like the capture machine), its first cpus CPUs,
    capture_khz, only the processes pids (and what they fork) and those
    whose comm matches a pattern of comms ("sched-messag*"), the governors
    (names, or a pmlab.FreqGovernor / pmlab.IdleGovernor), settings,
    duration in seconds (None: until the trace has played, at most 100 x
    its length + 1 s), seed.

    One policy: a Result whose .table ends with the replayed work and, with
    per_task, each task's CPU time traced and replayed; .html is the page.
    With profiles (as pmlab replay --profiles), each run `runs` times: the
    comparison's rows (a DataFrame or a list of dicts), or with form=
    "table", "csv", "json" or "html" that text."""
    from . import Result, _Lab, _compare_exec, _python_governors, _run_inputs
    cpufreq, cpuidle, governors = _python_governors(cpufreq, cpuidle, governors)
    with _Lab(plugins, (), governors) as lab:
        rp = _load(path, machine, cpus, capture_khz, pids, comms)
        h = res = None
        try:
            if profiles is None:
                h = _lib.new(_lib.lib.pmlab_replay_run, lab.h, rp)
                _lib.call(_lib.lib.pmlab_run_per_task, h, int(bool(per_task)))
                _run_inputs(h, cpufreq, cpuidle, None, settings, duration, seed, timeline, trace)
                res = lab.exec(_lib.lib.pmlab_run_exec, h)
                out = Result(res)
                out.html = _lib.lib.pmlab_result_text(res, _lib.HTML).decode()
                return out
            if per_task or timeline or trace:
                raise ValueError("replay: per_task, timeline and trace are for one policy, "
                                 "not profiles")
            h = _lib.new(_lib.lib.pmlab_replay_compare, lab.h, rp)
            return _compare_exec(lab, h, profiles, None, cpufreq, cpuidle, settings, duration,
                                 seed, runs, jobs, governors, form)
        finally:
            _lib.lib.pmlab_result_free(res)
            if profiles is None:
                _lib.lib.pmlab_run_free(h)
            else:
                _lib.lib.pmlab_compare_free(h)
            _lib.lib.pmlab_replay_free(rp)

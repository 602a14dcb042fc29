# SPDX-License-Identifier: GPL-2.0-only
"""libpmlab through ctypes: the library, its functions' types, its errors.

The library is $PMLAB_LIBRARY when set (the tests point it at the build),
else the one the dynamic linker finds (make install puts it in the system's
library directory)."""
import ctypes
import ctypes.util
import os

ERROR_MAX = 1024
API_MAJOR = 1


class Error(Exception):
    """What libpmlab reported: .code is its status name ("input", "run",
    "plugin", ...), str() its one-line message."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * ERROR_MAX)]


def _load():
    path = os.environ.get("PMLAB_LIBRARY") or ctypes.util.find_library("pmlab") or "libpmlab.so.1"
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"pmlab: cannot load libpmlab ({path}): {e}; install it with "
                          "'make install' or set PMLAB_LIBRARY") from None
    if lib.pmlab_api_version() // 1000 != API_MAJOR:
        raise ImportError(f"pmlab: libpmlab API {lib.pmlab_api_version()}, this package "
                          f"speaks {API_MAJOR}.x")
    return lib


lib = _load()
P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
E = ctypes.POINTER(_Error)
S = ctypes.c_char_p
I = ctypes.c_int
I64 = ctypes.c_int64
U64 = ctypes.c_uint64

_PROTOS = {
    "pmlab_api_version": (I, []),
    "pmlab_version": (S, []),
    "pmlab_status_name": (S, [I]),
    "pmlab_free": (None, [P]),
    "pmlab_lab_new": (I, [PP, E]),
    "pmlab_lab_free": (None, [P]),
    "pmlab_lab_profile_dir": (I, [P, S, E]),
    "pmlab_lab_load_plugin": (I, [P, S, E]),
    "pmlab_lab_load_plugin_list": (I, [P, S, E]),
    "pmlab_lab_add_plugin": (I, [P, P, S, E]),
    "pmlab_plugin_fail": (None, [S]),
    "pmlab_lab_isolate": (None, [P, I]),
    "pmlab_lab_catalog": (P, [P]),
    "pmlab_machine_preset_count": (I, []),
    "pmlab_machine_preset_name": (S, [I]),
    "pmlab_machine_load": (I, [S, PP, E]),
    "pmlab_machine_parse": (I, [S, S, PP, E]),
    "pmlab_machine_set_cpus": (I, [P, I, E]),
    "pmlab_machine_free": (None, [P]),
    "pmlab_run_new": (I, [P, P, S, PP, E]),
    "pmlab_run_free": (None, [P]),
    "pmlab_run_cpufreq": (I, [P, S, E]),
    "pmlab_run_cpuidle": (I, [P, S, E]),
    "pmlab_run_profile": (I, [P, S, E]),
    "pmlab_run_set": (I, [P, S, E]),
    "pmlab_run_duration": (I, [P, I64, E]),
    "pmlab_run_seed": (None, [P, U64]),
    "pmlab_run_timeline": (I, [P, S, E]),
    "pmlab_run_trace": (I, [P, S, E]),
    "pmlab_run_exec": (I, [P, PP, E]),
    "pmlab_result_text": (S, [P, I]),
    "pmlab_result_free": (None, [P]),
    "pmlab_compare_new": (I, [P, P, S, PP, E]),
    "pmlab_compare_free": (None, [P]),
    "pmlab_compare_policy": (I, [P, S, S, E]),
    "pmlab_compare_baseline": (I, [P, S, E]),
    "pmlab_compare_cpufreq": (I, [P, S, E]),
    "pmlab_compare_cpuidle": (I, [P, S, E]),
    "pmlab_compare_set": (I, [P, S, E]),
    "pmlab_compare_duration": (I, [P, I64, E]),
    "pmlab_compare_seed": (None, [P, U64]),
    "pmlab_compare_runs": (I, [P, I, E]),
    "pmlab_compare_jobs": (I, [P, I, E]),
    "pmlab_compare_exec": (I, [P, PP, E]),
    "pmlab_sweep_new": (I, [P, PP, E]),
    "pmlab_sweep_free": (None, [P]),
    "pmlab_sweep_option": (I, [P, S, S, E]),
    "pmlab_sweep_set": (I, [P, S, E]),
    "pmlab_sweep_vary": (I, [P, S, E]),
    "pmlab_sweep_jobs": (I, [P, I, E]),
    "pmlab_sweep_format": (I, [P, I, E]),
    "pmlab_sweep_exec": (I, [P, PP, E]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

TABLE, CSV, JSON, HTML = 0, 1, 2, 3


def b(s):
    """A Python string as the library's char *; None stays NULL."""
    return None if s is None else str(s).encode()


def call(fn, *args):
    """fn(*args, &err); raises Error unless it returns PMLAB_OK."""
    err = _Error()
    rc = fn(*args, ctypes.byref(err))
    if rc != 0:
        raise Error(lib.pmlab_status_name(rc).decode(), err.message.decode(errors="replace"))


def new(fn, *args):
    """fn(*args, &handle, &err): the handle, or Error."""
    h = ctypes.c_void_p()
    call(fn, *args, ctypes.byref(h))
    return h

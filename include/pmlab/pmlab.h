// SPDX-License-Identifier: GPL-2.0-only
/* libpmlab: pmlab's simulator as a C library.
 *
 * Load a machine model, describe a run (workload, frequency and idle
 * governor, tuned profile, KEY=VALUE tunables, duration, seed), run it and
 * read every figure pmlab sim prints; run comparisons and sweeps as pmlab
 * compare and pmlab sweep do.
 *
 * Rules of the interface:
 *  - Every object is an opaque handle made by a *_new or *_load function
 *    and released by the matching *_free (NULL is accepted and ignored).
 *  - A function that can fail returns a pmlab_status (PMLAB_OK is 0) and
 *    fills the caller's pmlab_error, if not NULL, with the code and a
 *    one-line message naming what is wrong and where. The library never
 *    prints, never exits and keeps no global state.
 *  - Separate handles may be used from separate threads at once; one
 *    handle is used by one thread at a time. A pmlab_lab may be shared by
 *    threads once set up (plugins loaded, directories added).
 *  - Comparisons and sweeps with jobs > 1 fork worker processes (as the
 *    command line does); from a multi-threaded program, use jobs = 1.
 *  - Strings returned as `char *` are the caller's to release with
 *    pmlab_free(); `const char *` ones belong to the handle they came from.
 *
 * Versions: 1.0 machines, runs, comparisons, sweeps, plugins; 1.1 traces
 * and the trace-driven governors (pmlab_trace_*, pmlab_idletrace_*,
 * pmlab_govtrace_*); 1.2 replays of recorded traces (pmlab_replay_*,
 * pmlab_run_per_task) and pmlab_plugin_fail.
 */
#ifndef PMLAB_PMLAB_H
#define PMLAB_PMLAB_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(PMLAB_API)
#define PMLAB_API __attribute__((visibility("default")))
#elif !defined(PMLAB_API)
#define PMLAB_API
#endif

/* The interface's version: MAJOR changes when a program built against an
 * older header may no longer link or behave (a removed or changed
 * function or structure), MINOR when functions are added. */
#define PMLAB_API_VERSION_MAJOR 1
#define PMLAB_API_VERSION_MINOR 2
#define PMLAB_API_VERSION (PMLAB_API_VERSION_MAJOR * 1000 + PMLAB_API_VERSION_MINOR)

/* The API version of the library actually linked (PMLAB_API_VERSION of its
 * build): a program may compare its MAJOR with PMLAB_API_VERSION_MAJOR. */
PMLAB_API int pmlab_api_version(void);
/* pmlab's release ("0.1.0"). */
PMLAB_API const char *pmlab_version(void);

typedef enum pmlab_status {
	PMLAB_OK = 0,
	PMLAB_ERR_INPUT = 1,  /* bad input: an unknown name, a malformed file or value */
	PMLAB_ERR_RUN = 2,    /* a run failed (including a worker process that died) */
	PMLAB_ERR_IO = 3,     /* a file could not be written */
	PMLAB_ERR_NOMEM = 4,
	PMLAB_ERR_PLUGIN = 5, /* a plugin could not be loaded, or failed inside */
	PMLAB_ERR_STATE = 6,  /* a call out of order (e.g. no result of that kind) */
} pmlab_status;

#define PMLAB_ERROR_MAX 1024

typedef struct pmlab_error {
	pmlab_status code;
	char message[PMLAB_ERROR_MAX]; /* one line, no "pmlab: " prefix; "" if code is OK */
} pmlab_error;

/* "input", "run", ...: a status's name. */
PMLAB_API const char *pmlab_status_name(pmlab_status code);
/* Releases a string the library returned as `char *`. */
PMLAB_API void pmlab_free(void *p);

/* Output formats of results, comparisons and sweeps. */
typedef enum pmlab_format {
	PMLAB_TABLE = 0,
	PMLAB_CSV = 1,
	PMLAB_JSON = 2,
	PMLAB_HTML = 3, /* comparisons and sweeps */
} pmlab_format;

/* ---- the lab: what runs share (profile directories, plugins) ---- */

typedef struct pmlab_lab pmlab_lab;

PMLAB_API pmlab_status pmlab_lab_new(pmlab_lab **out, pmlab_error *err);
PMLAB_API void pmlab_lab_free(pmlab_lab *lab);
/* Profiles are looked up in dir first (as --profile-dir); repeatable. */
PMLAB_API pmlab_status pmlab_lab_profile_dir(pmlab_lab *lab, const char *dir, pmlab_error *err);

/* Plugins (pmlab/plugin.h): the governors of the shared object at path,
 * checked and registered in this lab, to be named like built-in ones by
 * the runs, comparisons and sweeps made from it. PMLAB_ERR_PLUGIN with
 * why if it is not a plugin, was built for another plugin ABI, misses an
 * operation or clashes with a name already defined. */
PMLAB_API pmlab_status pmlab_lab_load_plugin(pmlab_lab *lab, const char *path, pmlab_error *err);
/* Each entry of a ':'-separated list, as PMLAB_PLUGIN_PATH: a file is
 * loaded, a directory's *.so files are, in name order. */
PMLAB_API pmlab_status pmlab_lab_load_plugin_list(pmlab_lab *lab, const char *list,
						  pmlab_error *err);
struct pmlab_plugin;
/* Governors that live in this process (a Python callable behind C
 * functions): p, and what it points to, must outlive the lab. origin
 * names them in messages. */
PMLAB_API pmlab_status pmlab_lab_add_plugin(pmlab_lab *lab, const struct pmlab_plugin *p,
					    const char *origin, pmlab_error *err);
/* Called from inside an operation of a plugin's governor, placement
 * policy or workload (one added with pmlab_lab_add_plugin, whose code can
 * reach this library): that operation failed -- a Python governor raised
 * -- and the run stops at its next event and fails with PMLAB_ERR_PLUGIN,
 * "plugin ORIGIN: KIND 'NAME': OP: message". The first failure of a run
 * counts; a call outside a plugin's operation does nothing. */
PMLAB_API void pmlab_plugin_fail(const char *message);
/* Whether runs that may call a plugin's code go to a forked worker
 * process, where a crash in the plugin is reported as the plugin's (on by
 * default). Turn it off for governors of this process that cannot run
 * after a fork (Python's), at the price of a crash taking the caller. */
PMLAB_API void pmlab_lab_isolate(pmlab_lab *lab, int on);
/* Whether the runs that go to worker processes (comparisons, sweeps, runs
 * with plugins) may take over the process's signals while they run:
 * SIGINT and SIGTERM stop the workers, then the caller, and SIGPIPE is
 * ignored, as a command-line program wants. Off by default: the caller's
 * dispositions are left alone and SIGPIPE is blocked in the calling
 * thread only. */
PMLAB_API void pmlab_lab_signals(pmlab_lab *lab, int on);

/* What the lab offers, as one JSON document (release with pmlab_free):
 *   {"cpufreq":[{"name","summary","plugin":bool,"origin","tunables":[{"name",
 *     "default","min","max","help","choices":[...]}]}], "cpuidle":[...],
 *     "placement":[...], "workloads":[{"name","summary","throughput_unit","latency",
 *     "plugin","origin","parameters":[...]}], "engine":[...], "machines":["i7-4790", ...]}
 * Built-in ones and the lab's plugins alike. NULL on OOM. */
PMLAB_API char *pmlab_lab_catalog(const pmlab_lab *lab);

/* ---- machines ---- */

typedef struct pmlab_machine pmlab_machine;

/* Built-in machine models, by index 0..count-1. */
PMLAB_API int pmlab_machine_preset_count(void);
PMLAB_API const char *pmlab_machine_preset_name(int i);
/* A built-in name or the path of an INI file. */
PMLAB_API pmlab_status pmlab_machine_load(const char *spec, pmlab_machine **out, pmlab_error *err);
/* An INI text; `where` names it in messages ("my.ini"). */
PMLAB_API pmlab_status pmlab_machine_parse(const char *text, const char *where,
					   pmlab_machine **out, pmlab_error *err);
/* Keeps the first n CPUs online (as --cpus N). */
PMLAB_API pmlab_status pmlab_machine_set_cpus(pmlab_machine *m, int n, pmlab_error *err);
PMLAB_API const char *pmlab_machine_name(const pmlab_machine *m);
PMLAB_API int pmlab_machine_cpus(const pmlab_machine *m);
/* The model as an INI file pmlab_machine_parse reads back. NULL on OOM. */
PMLAB_API char *pmlab_machine_ini(const pmlab_machine *m);
PMLAB_API void pmlab_machine_free(pmlab_machine *m);

/* ---- one run ---- */

typedef struct pmlab_run pmlab_run;
typedef struct pmlab_result pmlab_result;

/* A run of workload on m (copied: m may be freed afterwards) with the
 * defaults of pmlab sim: the governors a stock kernel runs on the machine,
 * 10 s, seed 1. The workload is a name or "rtapp:FILE". */
PMLAB_API pmlab_status pmlab_run_new(const pmlab_lab *lab, const pmlab_machine *m,
				     const char *workload, pmlab_run **out, pmlab_error *err);
PMLAB_API void pmlab_run_free(pmlab_run *run);
/* The frequency governor (--cpufreq; wins over a profile's) and the idle
 * governor (--cpuidle); NULL: the default again. */
PMLAB_API pmlab_status pmlab_run_cpufreq(pmlab_run *run, const char *name, pmlab_error *err);
PMLAB_API pmlab_status pmlab_run_cpuidle(pmlab_run *run, const char *name, pmlab_error *err);
/* A tuned profile entry as --profile takes it ("balanced",
 * "tuned-2.3/balanced:governor=conservative", "none:pm_qos_latency_us=20"):
 * its settings come before those of pmlab_run_set. */
PMLAB_API pmlab_status pmlab_run_profile(pmlab_run *run, const char *entry, pmlab_error *err);
/* "KEY=VALUE" for the engine, the workload or a governor (--set); later wins. */
PMLAB_API pmlab_status pmlab_run_set(pmlab_run *run, const char *key_value, pmlab_error *err);
/* Simulated time in ns (> 0) and the seed. */
PMLAB_API pmlab_status pmlab_run_duration(pmlab_run *run, int64_t ns, pmlab_error *err);
PMLAB_API void pmlab_run_seed(pmlab_run *run, uint64_t seed);
/* Verify the engine's invariants after every event (slow). */
PMLAB_API void pmlab_run_check_invariants(pmlab_run *run, int on);
/* Also write the run as a Chrome/Perfetto timeline, and/or as a kernel
 * trace.dat (NULL: not). */
PMLAB_API pmlab_status pmlab_run_timeline(pmlab_run *run, const char *path, pmlab_error *err);
PMLAB_API pmlab_status pmlab_run_trace(pmlab_run *run, const char *path, pmlab_error *err);
/* What the timeline and trace keep: "S:E" seconds, and a CPU list "0-3,6". */
PMLAB_API pmlab_status pmlab_run_window(pmlab_run *run, const char *from_to, pmlab_error *err);
PMLAB_API pmlab_status pmlab_run_trace_cpus(pmlab_run *run, const char *list, pmlab_error *err);
/* Called as the run goes with the fraction done (0..1); NULL: none. */
PMLAB_API void pmlab_run_on_progress(pmlab_run *run, void (*fn)(void *ctx, double done), void *ctx);
/* Called with each warning (a timeline that will be large); NULL: none. */
PMLAB_API void pmlab_run_on_warning(pmlab_run *run, void (*fn)(void *ctx, const char *msg),
				    void *ctx);
/* Builds the simulation without running it: every name, value and
 * setting is checked. */
PMLAB_API pmlab_status pmlab_run_validate(pmlab_run *run, pmlab_error *err);
/* Runs it. A run may be executed again (the same inputs give the same
 * result, byte for byte). */
PMLAB_API pmlab_status pmlab_run_exec(pmlab_run *run, pmlab_result **out, pmlab_error *err);

/* ---- results: of a run, a comparison or a sweep ---- */

/* The result as pmlab sim (compare, sweep) prints it with --format;
 * NULL if this result has no such form (a run has no HTML). Owned by res. */
PMLAB_API const char *pmlab_result_text(const pmlab_result *res, pmlab_format f);
/* A number of the JSON form (docs/json-schema.md) by its path: keys
 * separated by '.', array elements by index ("energy_j",
 * "per_cpu.0.busy_pct", "points.1.result.power_w" of a sweep). PMLAB_ERR_INPUT
 * if there is no number there. */
PMLAB_API pmlab_status pmlab_result_number(const pmlab_result *res, const char *path, double *out,
					   pmlab_error *err);
PMLAB_API void pmlab_result_free(pmlab_result *res);

/* ---- comparisons: policies x runs, as pmlab compare ---- */

typedef struct pmlab_compare pmlab_compare;

PMLAB_API pmlab_status pmlab_compare_new(const pmlab_lab *lab, const pmlab_machine *m,
					 const char *workload, pmlab_compare **out,
					 pmlab_error *err);
PMLAB_API void pmlab_compare_free(pmlab_compare *c);
/* A policy: a profile entry as pmlab_run_profile takes it; label names it
 * in the output (NULL: the entry). The first is the baseline unless
 * pmlab_compare_baseline says otherwise. */
PMLAB_API pmlab_status pmlab_compare_policy(pmlab_compare *c, const char *entry, const char *label,
					    pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_baseline(pmlab_compare *c, const char *entry, pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_cpufreq(pmlab_compare *c, const char *name, pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_cpuidle(pmlab_compare *c, const char *name, pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_set(pmlab_compare *c, const char *key_value, pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_duration(pmlab_compare *c, int64_t ns, pmlab_error *err);
PMLAB_API void pmlab_compare_seed(pmlab_compare *c, uint64_t seed);
/* Runs per policy (default 3) and worker processes (default 1). */
PMLAB_API pmlab_status pmlab_compare_runs(pmlab_compare *c, int runs, pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_jobs(pmlab_compare *c, int jobs, pmlab_error *err);
/* Each policy's first run also as a timeline, PREFIX-LABEL.json. */
PMLAB_API pmlab_status pmlab_compare_timeline(pmlab_compare *c, const char *prefix,
					      pmlab_error *err);
PMLAB_API void pmlab_compare_on_progress(pmlab_compare *c,
					 void (*fn)(void *ctx, int done, int total), void *ctx);
/* Checks every policy's run without running any. */
PMLAB_API pmlab_status pmlab_compare_validate(pmlab_compare *c, pmlab_error *err);
PMLAB_API pmlab_status pmlab_compare_exec(pmlab_compare *c, pmlab_result **out, pmlab_error *err);
/* Runs it and writes the result to out in form f only, as pmlab compare
 * --format prints it: what a program that prints one form needs, without
 * rendering the others. PMLAB_ERR_IO if out cannot be written. */
PMLAB_API pmlab_status pmlab_compare_write(pmlab_compare *c, FILE *out, pmlab_format f,
					   pmlab_error *err);

/* ---- sweeps: the Cartesian product of some settings, as pmlab sweep ---- */

typedef struct pmlab_sweep pmlab_sweep;

PMLAB_API pmlab_status pmlab_sweep_new(const pmlab_lab *lab, pmlab_sweep **out, pmlab_error *err);
PMLAB_API void pmlab_sweep_free(pmlab_sweep *s);
/* A fixed option, by its command-line name: machine, workload, cpus,
 * cpufreq, cpuidle, profile, duration (seconds), seed. A varied key of the
 * same name replaces it. */
PMLAB_API pmlab_status pmlab_sweep_option(pmlab_sweep *s, const char *name, const char *value,
					  pmlab_error *err);
PMLAB_API pmlab_status pmlab_sweep_set(pmlab_sweep *s, const char *key_value, pmlab_error *err);
/* A dimension, "KEY=V1,V2,..."; the last one varies fastest. */
PMLAB_API pmlab_status pmlab_sweep_vary(pmlab_sweep *s, const char *key_values, pmlab_error *err);
/* The most points a sweep may have. */
#define PMLAB_SWEEP_MAX_POINTS 10000000L
/* Runs only the points whose number modulo n is i (0 <= i < n <= PMLAB_SWEEP_MAX_POINTS). */
PMLAB_API pmlab_status pmlab_sweep_shard(pmlab_sweep *s, long i, long n, pmlab_error *err);
PMLAB_API pmlab_status pmlab_sweep_jobs(pmlab_sweep *s, int jobs, pmlab_error *err);
PMLAB_API void pmlab_sweep_on_progress(pmlab_sweep *s, void (*fn)(void *ctx, int done, int total),
				       void *ctx);
/* The form of the rows: PMLAB_CSV (the default), PMLAB_JSON or PMLAB_HTML
 * (a page drawn from the CSV rows). */
PMLAB_API pmlab_status pmlab_sweep_format(pmlab_sweep *s, pmlab_format f, pmlab_error *err);
/* Checks every point of the sweep (of this shard) without running any. */
PMLAB_API pmlab_status pmlab_sweep_validate(pmlab_sweep *s, pmlab_error *err);
/* Runs the points; the rows are the result's text in that form. */
PMLAB_API pmlab_status pmlab_sweep_exec(pmlab_sweep *s, pmlab_result **out, pmlab_error *err);
/* Runs the points and writes the rows to out as pmlab sweep prints them:
 * CSV and JSON rows in point order as points complete, so that memory
 * does not grow with the number of points; HTML once all are done.
 * PMLAB_ERR_IO if out cannot be written. */
PMLAB_API pmlab_status pmlab_sweep_write(pmlab_sweep *s, FILE *out, pmlab_error *err);

/* ---- traces: recorded traces, and governors driven by them ---- */

/* What a trace holds. */
typedef enum pmlab_trace_kind {
	PMLAB_TRACE_ANY = 0,    /* to a loader: tell by the content */
	PMLAB_TRACE_EVENTS = 1, /* a kernel trace: trace.dat (pmlab record, trace-cmd) or
				   ftrace text (tracefs's trace, trace-cmd report) */
	PMLAB_TRACE_IDLE = 2,   /* idle periods of one CPU, CSV: next_timer_us,idle_us
				   [,latency_limit_us] (pmlab idletrace --input) */
	PMLAB_TRACE_UTIL = 3,   /* scheduler util-hook calls of one CPU, CSV: t_us,busy_us,
				   iowait_us,idle_us[,util][,iowait_wakeup] (pmlab govtrace) */
} pmlab_trace_kind;

typedef struct pmlab_trace pmlab_trace;

/* The file at path as a trace of that kind; PMLAB_TRACE_ANY: a trace.dat
 * by its magic, a CSV by its header's first column (next_timer_us, t_us),
 * else ftrace text. PMLAB_ERR_INPUT naming the file and line (or record)
 * if it cannot be read or is not such a trace. */
PMLAB_API pmlab_status pmlab_trace_load(const char *path, pmlab_trace_kind kind,
					pmlab_trace **out, pmlab_error *err);
/* The same from text in memory (len bytes, NUL not needed); where names it
 * in messages ("<stdin>"). A trace.dat must be loaded from its file. */
PMLAB_API pmlab_status pmlab_trace_parse(const char *text, size_t len, const char *where,
					 pmlab_trace_kind kind, pmlab_trace **out,
					 pmlab_error *err);
PMLAB_API void pmlab_trace_free(pmlab_trace *t);
PMLAB_API pmlab_trace_kind pmlab_trace_kind_of(const pmlab_trace *t);
/* "trace.dat", "ftrace text", "trace-cmd report", "idletrace CSV", "govtrace CSV". */
PMLAB_API const char *pmlab_trace_format(const pmlab_trace *t);
/* Events (EVENTS) or rows (IDLE, UTIL). */
PMLAB_API size_t pmlab_trace_count(const pmlab_trace *t);
/* CPUs the trace names (its header's count, or the highest CPU + 1); 1
 * for the CSV traces. */
PMLAB_API int pmlab_trace_cpus(const pmlab_trace *t);
/* Events the kernel reported lost (EVENTS; else 0). */
PMLAB_API uint64_t pmlab_trace_lost(const pmlab_trace *t);
/* The trace as CSV (release with pmlab_free; NULL on OOM). EVENTS, one row
 * per event in file order:
 *   ts_ns,cpu,event,pid,comm,pid2,comm2,prev_state,value,target_cpu,ctx_pid,irq_ctx,where
 * ts_ns as recorded; cpu the buffer's; event the tracepoint (sched_switch,
 * sched_waking, sched_wakeup, sched_wakeup_new, sched_process_fork,
 * sched_process_exit, sched_migrate_task, cpu_frequency, cpu_idle,
 * timer_expire_entry, timer_expire_exit, lost, other); pid/comm the task
 * the event is about (sched_switch: prev; fork: parent) and pid2/comm2 the
 * other one (next; child); prev_state R, S, D or X; value cpu_frequency's
 * kHz, cpu_idle's state (-1: exit) or the events lost; target_cpu the CPU
 * a cpu_frequency, cpu_idle or migration is about; ctx_pid the task
 * running when it was logged; irq_ctx task, softirq or hardirq where the
 * trace says; where the line or record number. IDLE and UTIL: the rows
 * as read, in the commands' input form (microseconds). */
PMLAB_API char *pmlab_trace_csv(const pmlab_trace *t);

/* An idle governor driven by an IDLE trace, as pmlab idletrace: CPU 0's
 * C-states of machine m (copied), the tick on a 1/HZ grid, no busy time
 * between periods. */
typedef struct pmlab_idletrace pmlab_idletrace;

PMLAB_API pmlab_status pmlab_idletrace_new(const pmlab_lab *lab, const pmlab_machine *m,
					   const char *governor, pmlab_idletrace **out,
					   pmlab_error *err);
PMLAB_API void pmlab_idletrace_free(pmlab_idletrace *it);
/* A governor tunable, "KEY=VALUE"; repeatable. */
PMLAB_API pmlab_status pmlab_idletrace_set(pmlab_idletrace *it, const char *key_value,
					   pmlab_error *err);
/* "legacy", "governor" (the default) or "periodic". */
PMLAB_API pmlab_status pmlab_idletrace_tick_policy(pmlab_idletrace *it, const char *policy,
						   pmlab_error *err);
/* 100, 250 (the default), 300 or 1000. */
PMLAB_API pmlab_status pmlab_idletrace_hz(pmlab_idletrace *it, int hz, pmlab_error *err);
/* Checks the governor and its tunables. */
PMLAB_API pmlab_status pmlab_idletrace_validate(pmlab_idletrace *it, pmlab_error *err);
/* Runs the trace t (PMLAB_TRACE_IDLE). The result's CSV is pmlab
 * idletrace's output (idx,state,stop_tick,above,below per period, then
 * "# states: ..."); its JSON {"periods": [{"idx", "state", "stop_tick",
 * "above", "below"}], "states": {NAME: count}, "above", "below",
 * "tick_stopped"}. A plugin's governor runs in a worker process unless
 * pmlab_lab_isolate turned that off: a crash in it is reported as the
 * plugin's (PMLAB_ERR_PLUGIN). */
PMLAB_API pmlab_status pmlab_idletrace_exec(pmlab_idletrace *it, const pmlab_trace *t,
					    pmlab_result **out, pmlab_error *err);
/* Runs it and writes form f (PMLAB_CSV or PMLAB_JSON) only to out, as
 * pmlab idletrace prints the CSV. PMLAB_ERR_IO if out cannot be written. */
PMLAB_API pmlab_status pmlab_idletrace_write(pmlab_idletrace *it, const pmlab_trace *t, FILE *out,
					     pmlab_format f, pmlab_error *err);

/* A frequency governor driven by a UTIL trace, as pmlab govtrace: one CPU
 * with its own small cpufreq driver. */
typedef struct pmlab_govtrace pmlab_govtrace;

/* The highest frequency a table may hold, in kHz. */
#define PMLAB_GOVTRACE_MAX_KHZ 10000000u

PMLAB_API pmlab_status pmlab_govtrace_new(const pmlab_lab *lab, const char *governor,
					  pmlab_govtrace **out, pmlab_error *err);
PMLAB_API void pmlab_govtrace_free(pmlab_govtrace *g);
/* The frequency table, "KHZ,KHZ,..." (distinct; the highest is cpuinfo max). */
PMLAB_API pmlab_status pmlab_govtrace_freqs(pmlab_govtrace *g, const char *khz_list,
					    pmlab_error *err);
/* The highest non-turbo entry (0: the highest). */
PMLAB_API pmlab_status pmlab_govtrace_base_khz(pmlab_govtrace *g, uint32_t khz, pmlab_error *err);
/* The tick rate: 100, 250 (the default), 300 or 1000. */
PMLAB_API pmlab_status pmlab_govtrace_hz(pmlab_govtrace *g, int hz, pmlab_error *err);
/* The hardware's transition latency in us (0, the default: unknown). */
PMLAB_API pmlab_status pmlab_govtrace_transition_latency(pmlab_govtrace *g, int64_t us,
							 pmlab_error *err);
PMLAB_API pmlab_status pmlab_govtrace_set(pmlab_govtrace *g, const char *key_value,
					  pmlab_error *err);
/* Checks the table, the governor and its tunables; with a trace t (may be
 * NULL), also that the governor starts on it (schedutil needs its util
 * column). */
PMLAB_API pmlab_status pmlab_govtrace_validate(pmlab_govtrace *g, const pmlab_trace *t,
					       pmlab_error *err);
/* Runs the trace t (PMLAB_TRACE_UTIL). The result's CSV is pmlab
 * govtrace's output, t_us,freq_khz at each change of the target (the
 * first at 0); its JSON {"changes": [{"t_us", "freq_khz"}]}. Plugins'
 * governors run in a worker process as pmlab_idletrace_exec says. */
PMLAB_API pmlab_status pmlab_govtrace_exec(pmlab_govtrace *g, const pmlab_trace *t,
					   pmlab_result **out, pmlab_error *err);
/* Runs it and writes form f (PMLAB_CSV or PMLAB_JSON) only to out. */
PMLAB_API pmlab_status pmlab_govtrace_write(pmlab_govtrace *g, const pmlab_trace *t, FILE *out,
					    pmlab_format f, pmlab_error *err);

/* ---- replays: a recorded trace as the workload, as pmlab replay ---- */

/* A kernel trace (trace.dat or ftrace text) read once into what the
 * replay workload plays back -- every task's recorded CPU bursts and
 * waits -- and the machine it replays on: one named, the machine recorded
 * beside the trace (pmlab_replay_machine_path), or one like the capture
 * machine. Runs and comparisons made from it read it; it must outlive
 * them. */
typedef struct pmlab_replay pmlab_replay;

/* The capture-like machine's frequency when neither the trace nor
 * pmlab_replay_capture_khz gives one. */
#define PMLAB_REPLAY_DEFAULT_CAPTURE_KHZ 2000000u
/* The most processes and names one replay keeps (pmlab_replay_keep_*). */
#define PMLAB_REPLAY_KEEP_MAX 256

/* A replay of the trace at path, read by pmlab_replay_load. */
PMLAB_API pmlab_status pmlab_replay_new(const char *path, pmlab_replay **out, pmlab_error *err);
PMLAB_API void pmlab_replay_free(pmlab_replay *rp);
/* Before pmlab_replay_load: the machine, a built-in name or INI file (NULL:
 * the one recorded beside the trace, without its kernel costs, which are in
 * the recorded bursts; without one, a machine like the capture one: as many
 * CPUs as the trace names, one P-state at the capture frequency, no kernel
 * or tick costs); */
PMLAB_API pmlab_status pmlab_replay_machine(pmlab_replay *rp, const char *spec, pmlab_error *err);
/* its first n CPUs only (as --cpus; checked against the machine by the load); */
PMLAB_API pmlab_status pmlab_replay_cpus(pmlab_replay *rp, int n, pmlab_error *err);
/* the frequency the trace ran at where it has no cpu_frequency events
 * (default: the machine's base; PMLAB_REPLAY_DEFAULT_CAPTURE_KHZ for the
 * capture-like machine), 1..100000000 kHz; */
PMLAB_API pmlab_status pmlab_replay_capture_khz(pmlab_replay *rp, uint64_t khz, pmlab_error *err);
/* only these processes and what they fork (pid 1..4194304, repeatable),
 * and those whose comm matches a shell wildcard pattern ("sched-messag*";
 * repeatable): the others' CPU time is left out, their wakeups of the kept
 * ones come at the recorded time. None given: every task. */
PMLAB_API pmlab_status pmlab_replay_keep_pid(pmlab_replay *rp, int pid, pmlab_error *err);
PMLAB_API pmlab_status pmlab_replay_keep_comm(pmlab_replay *rp, const char *pattern,
					      pmlab_error *err);
/* Reads the trace and sets up the machine. PMLAB_ERR_INPUT naming the file
 * and line (or record) if the trace cannot be read, the machine cannot be
 * loaded or has fewer CPUs than the trace names. Once only. */
PMLAB_API pmlab_status pmlab_replay_load(pmlab_replay *rp, pmlab_error *err);
/* After the load: the machine's name, the tasks the trace holds (those
 * kept), the trace's length in ns, and the run's default duration: 100 x
 * that length + 1 s (a replay normally ends when its tasks have). */
PMLAB_API const char *pmlab_replay_machine_name(const pmlab_replay *rp);
PMLAB_API int pmlab_replay_task_count(const pmlab_replay *rp);
PMLAB_API int64_t pmlab_replay_traced_ns(const pmlab_replay *rp);
PMLAB_API int64_t pmlab_replay_duration(const pmlab_replay *rp);
/* Where pmlab record writes, and a replay without a machine reads, the
 * model of the capture machine: path + ".machine.ini". NULL on OOM. */
PMLAB_API char *pmlab_replay_machine_path(const char *path);

/* A run of the loaded replay on its machine, as pmlab replay: a pmlab_run
 * whose workload is the trace, with the replay's own settings before
 * pmlab_run_set's (no tick costs on the capture-like machine, the capture
 * frequency) and its default duration; every pmlab_run_* call applies.
 * Its result's table is followed by a line of what was replayed --
 * "Replayed work: T of N tasks in S s simulated (traced: S s), E J" --
 * and, with pmlab_run_per_task, by each task's CPU time, traced and
 * replayed; it has an HTML form (one page); its inputs are pmlab
 * replay's. A run that stops at its duration with tasks unfinished says
 * so to pmlab_run_on_warning. */
PMLAB_API pmlab_status pmlab_replay_run(const pmlab_lab *lab, const pmlab_replay *rp,
					pmlab_run **out, pmlab_error *err);
/* With on, a replay's result table ends with each task's CPU time in the
 * trace and in the run, by name, and their total (the replay's fidelity):
 *   "Per task: CPU time traced and replayed", then "task traced_ms
 *   replayed_ms diff_%" rows. PMLAB_ERR_STATE for a run not made by
 *   pmlab_replay_run. */
PMLAB_API pmlab_status pmlab_run_per_task(pmlab_run *run, int on, pmlab_error *err);
/* A comparison of policies on the loaded replay, as pmlab replay
 * --profiles: a pmlab_compare of the trace on its machine, with the
 * replay's settings before pmlab_compare_set's, its default duration and
 * one run per policy; every pmlab_compare_* call applies. */
PMLAB_API pmlab_status pmlab_replay_compare(const pmlab_lab *lab, const pmlab_replay *rp,
					    pmlab_compare **out, pmlab_error *err);

#ifdef __cplusplus
}
#endif

#endif

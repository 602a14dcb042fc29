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
#define PMLAB_API_VERSION_MINOR 0
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
/* Whether runs that may call a plugin's code go to a forked worker
 * process, where a crash in the plugin is reported as the plugin's (on by
 * default). Turn it off for governors of this process that cannot run
 * after a fork (Python's), at the price of a crash taking the caller. */
PMLAB_API void pmlab_lab_isolate(pmlab_lab *lab, int on);

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
 * separated by '.', array elements by index ("energy_j.total",
 * "cpus.0.busy_pct", "profiles.1.metrics.throughput.mean"). PMLAB_ERR_INPUT
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
/* Runs only the points whose number modulo n is i (0 <= i < n). */
PMLAB_API pmlab_status pmlab_sweep_shard(pmlab_sweep *s, long i, long n, pmlab_error *err);
PMLAB_API pmlab_status pmlab_sweep_jobs(pmlab_sweep *s, int jobs, pmlab_error *err);
PMLAB_API void pmlab_sweep_on_progress(pmlab_sweep *s, void (*fn)(void *ctx, int done, int total),
				       void *ctx);
/* The form of the rows: PMLAB_CSV (the default), PMLAB_JSON or PMLAB_HTML
 * (a page drawn from the CSV rows). */
PMLAB_API pmlab_status pmlab_sweep_format(pmlab_sweep *s, pmlab_format f, pmlab_error *err);
/* Runs the points; the rows are the result's text in that form. */
PMLAB_API pmlab_status pmlab_sweep_exec(pmlab_sweep *s, pmlab_result **out, pmlab_error *err);

#ifdef __cplusplus
}
#endif

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* Replays: a recorded trace read once (lab/replay.c) on the machine it
 * names, lent to runs and comparisons as their workload. */
#include <stdlib.h>
#include <string.h>

#include "../engine/sim.h"
#include "../export/html_report.h"
#include "../metrics/inputs.h"
#include "lib_replay.h"

_Static_assert(PMLAB_REPLAY_DEFAULT_CAPTURE_KHZ == REPLAY_DEFAULT_CAPTURE_KHZ,
	       "pmlab.h's default is lab/replay.h's");

pmlab_status pmlab_replay_new(const char *path, pmlab_replay **out, pmlab_error *err)
{
	pmlab_replay *rp;

	*out = NULL;
	if (!path)
		return lib_fail(err, PMLAB_ERR_INPUT, "replay: which trace? (expected a trace.dat "
				"or ftrace text)");
	rp = calloc(1, sizeof(*rp));
	if (!rp || !(rp->file = strdup(path))) {
		free(rp);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	rp->r.file = rp->file;
	*out = rp;
	return lib_ok(err);
}

void pmlab_replay_free(pmlab_replay *rp)
{
	if (!rp)
		return;
	replay_free(&rp->r);
	free(rp->file);
	free(rp->machine);
	lib_strings_free(&rp->comms);
	free(rp);
}

static pmlab_status unloaded(const pmlab_replay *rp, const char *what, pmlab_error *err)
{
	if (rp->loaded)
		return lib_fail(err, PMLAB_ERR_STATE, "replay: %s: the trace is loaded already", what);
	return lib_ok(err);
}

pmlab_status pmlab_replay_machine(pmlab_replay *rp, const char *spec, pmlab_error *err)
{
	if (unloaded(rp, "machine", err) != PMLAB_OK)
		return PMLAB_ERR_STATE;
	if (lib_strdup_into(&rp->machine, spec && *spec ? spec : NULL) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

pmlab_status pmlab_replay_cpus(pmlab_replay *rp, int n, pmlab_error *err)
{
	if (unloaded(rp, "cpus", err) != PMLAB_OK)
		return PMLAB_ERR_STATE;
	if (n < 0 || n > MACHINE_MAX_CPUS)
		return lib_fail(err, PMLAB_ERR_INPUT, "--cpus %d: expected a CPU count", n);
	snprintf(rp->cpus, sizeof(rp->cpus), "%d", n);
	return lib_ok(err);
}

pmlab_status pmlab_replay_capture_khz(pmlab_replay *rp, uint64_t khz, pmlab_error *err)
{
	if (unloaded(rp, "capture_khz", err) != PMLAB_OK)
		return PMLAB_ERR_STATE;
	if (khz == 0 || khz > 100000000)
		return lib_fail(err, PMLAB_ERR_INPUT, "--capture-khz %llu: expected a frequency in kHz",
				(unsigned long long)khz);
	rp->r.capture_khz = khz;
	return lib_ok(err);
}

pmlab_status pmlab_replay_keep_pid(pmlab_replay *rp, int pid, pmlab_error *err)
{
	if (unloaded(rp, "pid", err) != PMLAB_OK)
		return PMLAB_ERR_STATE;
	if (pid < 1 || pid > 4194304)
		return lib_fail(err, PMLAB_ERR_INPUT, "--pid %d: not a PID (1..4194304)", pid);
	if (rp->npids == PMLAB_REPLAY_KEEP_MAX)
		return lib_fail(err, PMLAB_ERR_INPUT, "more than %d PIDs", PMLAB_REPLAY_KEEP_MAX);
	rp->pids[rp->npids++] = pid;
	return lib_ok(err);
}

pmlab_status pmlab_replay_keep_comm(pmlab_replay *rp, const char *pattern, pmlab_error *err)
{
	if (unloaded(rp, "comm", err) != PMLAB_OK)
		return PMLAB_ERR_STATE;
	if (!pattern || !*pattern)
		return lib_fail(err, PMLAB_ERR_INPUT, "--comm needs a name or a pattern");
	if (rp->comms.n == PMLAB_REPLAY_KEEP_MAX)
		return lib_fail(err, PMLAB_ERR_INPUT, "more than %d --comm", PMLAB_REPLAY_KEEP_MAX);
	if (lib_strings_add(&rp->comms, pattern) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

/* The inputs' --pid and --comm, as given. */
static void keep_options(pmlab_replay *rp)
{
	size_t n = 0, size = sizeof(rp->pid_list);

	rp->nextra = 0;
	for (int i = 0; i < rp->npids && n < size; i++)
		n += (size_t)snprintf(rp->pid_list + n, size - n, "%s%d", i ? "," : "", rp->pids[i]);
	if (rp->npids > 0) {
		rp->extra[rp->nextra++] = "--pid";
		rp->extra[rp->nextra++] = rp->pid_list;
	}
	for (int i = 0; i < rp->comms.n; i++) {
		rp->extra[rp->nextra++] = "--comm";
		rp->extra[rp->nextra++] = rp->comms.s[i];
	}
}

pmlab_status pmlab_replay_load(pmlab_replay *rp, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };

	if (unloaded(rp, "load", err) != PMLAB_OK)
		return PMLAB_ERR_STATE;
	rp->r.machine = rp->machine;
	rp->r.cpus = rp->cpus[0] ? rp->cpus : NULL;
	rp->r.keep = (struct replay_keep){ rp->pids, rp->npids, (const char **)rp->comms.s,
					   rp->comms.n };
	keep_options(rp);
	if (replay_setup(&rp->r, &d) < 0) {
		/* A failed load leaves the handle as new: free what it read. */
		replay_free(&rp->r);
		memset(&rp->r.rm, 0, sizeof(rp->r.rm));
		rp->r.npre = 0;
		return lib_fail_diag(err, strcmp(d.msg, "out of memory") == 0 ? PMLAB_ERR_NOMEM
									   : PMLAB_ERR_INPUT, &d);
	}
	rp->loaded = true;
	return lib_ok(err);
}

const char *pmlab_replay_machine_name(const pmlab_replay *rp)
{
	return rp->loaded ? rp->r.m.name : NULL;
}

int pmlab_replay_task_count(const pmlab_replay *rp)
{
	return rp->loaded ? (int)rp->r.rm.ntasks : 0;
}

int64_t pmlab_replay_traced_ns(const pmlab_replay *rp)
{
	return rp->loaded ? rp->r.rm.t_end - rp->r.rm.t0 : 0;
}

int64_t pmlab_replay_duration(const pmlab_replay *rp)
{
	return rp->loaded ? rp->r.duration : 0;
}

char *pmlab_replay_machine_path(const char *path)
{
	size_t len = strlen(path) + sizeof(MACHINE_RECORDED_SUFFIX);
	char *s = malloc(len);

	if (s)
		snprintf(s, len, "%s" MACHINE_RECORDED_SUFFIX, path);
	return s;
}

pmlab_status lib_replay_usable(const pmlab_lab *lab, const pmlab_replay *rp, pmlab_error *err)
{
	if (!lab || !rp)
		return lib_fail(err, PMLAB_ERR_INPUT, "replay: expected a lab and a replay");
	if (!rp->loaded)
		return lib_fail(err, PMLAB_ERR_STATE, "replay: %s: not loaded (pmlab_replay_load)",
				rp->file);
	return lib_ok(err);
}

int lib_replay_presets(const pmlab_replay *rp, struct lib_strings *sets)
{
	for (int i = 0; i < rp->r.npre; i++)
		if (lib_strings_add(sets, rp->r.pre[i]) < 0)
			return -1;
	return 0;
}

void lib_replay_inputs(const pmlab_replay *rp, struct run_inputs *in)
{
	in->workload = NULL;
	in->trace = rp->file;
	in->extra = rp->extra;
	in->nextra = rp->nextra;
}

void lib_replay_table_end(const pmlab_replay *rp, FILE *out, struct sim *s,
			  const struct run_result *r, bool per_task)
{
	replay_write_summary(out, &rp->r.rm, r);
	if (per_task)
		replay_write_per_task(out, &rp->r.rm, s, r);
}

int lib_replay_html(const pmlab_replay *rp, FILE *out, const struct run_result *r,
		    const struct run_inputs *in)
{
	const struct run_result *runs[] = { r };
	struct html_group g = { r->cpufreq, runs, 1 };
	char title[512], note[1024];

	snprintf(title, sizeof(title), "pmlab replay %s: machine %s, workload %s", rp->file,
		 r->machine, r->workload);
	snprintf(note, sizeof(note), "Trace %s replayed on %s under %s / %s.", rp->file, r->machine,
		 r->cpufreq, r->cpuidle);
	return html_report(out, title, note, in, 1, &g);
}

void lib_replay_unfinished(const pmlab_replay *rp, const struct run_result *r, char *buf,
			   size_t size)
{
	buf[0] = '\0';
	if (r->tasks_finished < rp->r.rm.ntasks)
		snprintf(buf, size, "stopped at the --duration limit (%.3f s) with %llu of %u tasks "
			 "unfinished", (double)r->duration_ns * 1e-9,
			 (unsigned long long)(rp->r.rm.ntasks - r->tasks_finished), rp->r.rm.ntasks);
}

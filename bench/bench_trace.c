// SPDX-License-Identifier: GPL-2.0-only
/* Benchmarks of traces in and out: reading a 10 s hackbench-like ftrace
 * text into a replay model (trace events/s), replaying it (trace events/s
 * and simulated s per wall s), and exporting the replay as a Perfetto
 * timeline (size, time). The trace is synthesized here, deterministically
 * -- a recorded 10 s hackbench would be hundreds of MB to ship -- by a toy
 * scheduler: 4 groups of 20 senders and 20 receivers on 2 CPUs, a sender
 * waking a receiver after each message and blocking after a few, a
 * receiver waking a blocked sender, bursts of 20-180 us, 3 ms slices.
 * Last, the trace.dat reader on the recorded data/traces/hackbench.dat.
 * Prints figures; asserts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/sim.h"
#include "export/perfetto.h"
#include "trace/replay_model.h"

#define NCPU 2
#define GROUPS 4
#define PER 20 /* senders (and receivers) per group */
#define NTASK (GROUPS * PER * 2)
#define SECONDS 10

static const char *const machine_ini =
	"[machine]\nname = bench-2cpu\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\n[pstates]\n2000000 = 1000\n"
	"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 2\nplatform_w = 0\n"
	"[costs]\ncontext_switch_us = 0\nwakeup_ipi_us = 0\n";

static double wall(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* --- the toy scheduler writing the trace --- */

enum { BLOCKED, QUEUED, RUNNING };

struct gtask {
	int state, cpu, sent;
	char comm[16];
};

struct gen {
	FILE *f;
	uint64_t rng;
	struct gtask t[NTASK];
	int queue[NCPU][NTASK], qlen[NCPU];
	int cur[NCPU];           /* -1 idle */
	int64_t next[NCPU];      /* next event of the CPU, ns; -1 none */
	int64_t slice_start[NCPU];
	uint64_t lines;
};

static unsigned rnd(struct gen *g, unsigned n)
{
	g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(g->rng >> 33) % n;
}

static void line(struct gen *g, int cpu, int ctx, int64_t ns, const char *flags, const char *fmt,
		 const char *a, int ai, const char *b, int bi, const char *state)
{
	const char *comm = ctx < 0 ? "<idle>" : g->t[ctx].comm;
	int pid = ctx < 0 ? 0 : 1000 + ctx;
	fprintf(g->f, "%16s-%-7d [%03d] %s %5lld.%06lld: ", comm, pid, cpu, flags,
		(long long)(ns / 1000000000), (long long)(ns % 1000000000 / 1000));
	if (strcmp(fmt, "switch") == 0)
		fprintf(g->f, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
			"next_comm=%s next_pid=%d next_prio=120\n", a, ai, state, b, bi);
	else
		fprintf(g->f, "%s: comm=%s pid=%d prio=120 target_cpu=%03d\n", fmt, a, ai, bi);
	g->lines++;
}

static const char *name_of(struct gen *g, int i, int cpu, char *buf)
{
	if (i >= 0)
		return g->t[i].comm;
	snprintf(buf, 16, "swapper/%d", cpu);
	return buf;
}

/* CPU c switches from its current task (leaving in `state`) to the next. */
static void switch_next(struct gen *g, int c, int64_t now, const char *state)
{
	char a[16], b[16];
	int prev = g->cur[c], next = -1;
	if (g->qlen[c] > 0) {
		next = g->queue[c][0];
		memmove(g->queue[c], g->queue[c] + 1, (size_t)--g->qlen[c] * sizeof(int));
	}
	if (prev < 0 && next < 0)
		return;
	line(g, c, prev, now, "d..2.", "switch", name_of(g, prev, c, a), prev < 0 ? 0 : 1000 + prev,
	     name_of(g, next, c, b), next < 0 ? 0 : 1000 + next, state);
	g->cur[c] = next;
	g->slice_start[c] = now;
	if (next >= 0) {
		g->t[next].state = RUNNING;
		g->t[next].cpu = c;
		g->next[c] = now + 20000 + rnd(g, 160) * 1000;
	} else {
		g->next[c] = -1;
	}
}

static void wake(struct gen *g, int c, int waker, int i, int64_t now)
{
	/* An idle CPU takes it, else the shorter queue. */
	int to = g->qlen[0] <= g->qlen[1] ? 0 : 1;
	if (g->cur[1 - to] < 0 && g->qlen[1 - to] == 0 && g->cur[to] >= 0)
		to = 1 - to;
	line(g, c, waker, now, "d..3.", "sched_waking", g->t[i].comm, 1000 + i, NULL, to, NULL);
	line(g, c, waker, now, "d..4.", "sched_wakeup", g->t[i].comm, 1000 + i, NULL, to, NULL);
	g->t[i].state = QUEUED;
	g->queue[to][g->qlen[to]++] = i;
	if (g->cur[to] < 0 && g->next[to] < 0)
		g->next[to] = now + 2000; /* the idle CPU switches it in */
}

/* A blocked task of group `grp` among senders (0) or receivers (1). */
static int blocked(struct gen *g, int grp, int receivers)
{
	int base = grp * PER * 2 + receivers * PER, start = (int)rnd(g, PER);
	for (int k = 0; k < PER; k++) {
		int i = base + (start + k) % PER;
		if (g->t[i].state == BLOCKED)
			return i;
	}
	return -1;
}

static void step(struct gen *g, int c, int64_t now)
{
	int i = g->cur[c];
	if (i < 0) { /* idle CPU picking up a woken task */
		switch_next(g, c, now, "R");
		return;
	}
	int grp = i / (PER * 2), receiver = (i / PER) % 2;
	int other = blocked(g, grp, !receiver);
	if (other >= 0)
		wake(g, c, i, other, now);
	bool block = receiver || ++g->t[i].sent % 4 == 0;
	if (block) {
		g->t[i].state = BLOCKED;
		switch_next(g, c, now, "S");
	} else if (now - g->slice_start[c] > 3000000 && g->qlen[c] > 0) {
		g->t[i].state = QUEUED;
		g->queue[c][g->qlen[c]++] = i;
		switch_next(g, c, now, "R");
	} else {
		g->next[c] = now + 20000 + rnd(g, 160) * 1000;
	}
}

static int synthesize(const char *path, uint64_t *lines)
{
	struct gen *g = calloc(1, sizeof(*g));
	if (!g || !(g->f = fopen(path, "w"))) {
		free(g);
		return -1;
	}
	g->rng = 42;
	fprintf(g->f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n", NCPU);
	for (int i = 0; i < NTASK; i++) {
		snprintf(g->t[i].comm, sizeof(g->t[i].comm), "hackbench");
		g->t[i].state = BLOCKED;
	}
	int64_t t0 = INT64_C(100) * 1000000000;
	for (int c = 0; c < NCPU; c++) {
		g->cur[c] = -1;
		g->next[c] = -1;
	}
	/* The first sender of each group starts queued. */
	for (int grp = 0; grp < GROUPS; grp++) {
		int i = grp * PER * 2, c = grp % NCPU;
		g->t[i].state = QUEUED;
		g->queue[c][g->qlen[c]++] = i;
		g->next[c] = t0;
	}
	for (;;) {
		int c = -1;
		for (int k = 0; k < NCPU; k++)
			if (g->next[k] >= 0 && (c < 0 || g->next[k] < g->next[c]))
				c = k;
		if (c < 0 || g->next[c] > t0 + SECONDS * INT64_C(1000000000))
			break;
		step(g, c, g->next[c]);
		/* A group whose tasks all blocked is restarted by a sender. */
		for (int grp = 0; grp < GROUPS; grp++) {
			bool any = false;
			for (int k = 0; k < PER * 2; k++)
				any |= g->t[grp * PER * 2 + k].state != BLOCKED;
			if (!any)
				wake(g, c, g->cur[c], grp * PER * 2 + (int)rnd(g, PER), g->next[c] >= 0 ? g->next[c] : t0);
		}
	}
	*lines = g->lines;
	int rc = ferror(g->f) ? -1 : 0;
	fclose(g->f);
	free(g);
	return rc;
}

/* --- the benchmarks --- */

static int replay(const char *path, const struct replay_model *model, const struct machine *m,
		  const char *timeline, double *seconds, struct run_result *r)
{
	struct pm_diag d = { { 0 } };
	char wl[512];
	snprintf(wl, sizeof(wl), "replay:%s", path);
	static const char *const sets[] = { "tick_cost_ns=0", "tick_stop_cost_ns=0" };
	struct perfetto *p = NULL;
	struct sim_config cfg = { .machine = m, .workload = wl, .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = 100 * NS_PER_SEC, .seed = 1,
				  .nsets = 2, .sets = sets, .workload_data = model };
	double t = wall();
	if (timeline) {
		p = perfetto_open(timeline, m, "bench", NULL, &d);
		if (!p) {
			fprintf(stderr, "bench: %s\n", d.msg);
			return -1;
		}
		cfg.observer = perfetto_observer(p);
	}
	struct sim *s;
	int rc = sim_create(&s, &cfg, &d);
	if (rc == 0)
		rc = sim_run(s, r, &d);
	if (rc == 0 && p)
		rc = perfetto_close(p, r->duration_ns, &d);
	*seconds = wall() - t;
	if (rc < 0)
		fprintf(stderr, "bench: %s\n", d.msg);
	sim_destroy(s);
	return rc;
}

int main(void)
{
	char path[] = "/tmp/pmlab-bench-trace-XXXXXX";
	char tl[] = "/tmp/pmlab-bench-timeline-XXXXXX";
	int fd = mkstemp(path), fd2 = mkstemp(tl);
	if (fd < 0 || fd2 < 0)
		return 1;
	close(fd);
	close(fd2);
	uint64_t lines = 0;
	double t = wall();
	if (synthesize(path, &lines) < 0) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		return 1;
	}
	struct stat st;
	stat(path, &st);
	printf("synthesized %d s hackbench-like ftrace text: %llu events, %.1f MB, %.2f wall s\n",
	       SECONDS, (unsigned long long)lines, (double)st.st_size / 1e6, wall() - t);

	struct pm_diag d = { { 0 } };
	struct replay_model m;
	t = wall();
	if (replay_model_load(&m, path, &d) < 0) {
		fprintf(stderr, "bench: %s\n", d.msg);
		return 1;
	}
	double read_s = wall() - t;
	printf("%-44s %8.3f wall s %8.2f M trace events/s (%u tasks, %u waits)\n",
	       "read + model", read_s, (double)m.info.nevents / read_s / 1e6, m.ntasks, m.nblocks);

	struct machine mach;
	if (machine_parse(&mach, machine_ini, "bench", &d) < 0) {
		fprintf(stderr, "bench: %s\n", d.msg);
		return 1;
	}
	struct run_result r;
	double run_s;
	int rc = replay(path, &m, &mach, NULL, &run_s, &r);
	if (rc == 0)
		printf("%-44s %8.3f wall s %8.2f M trace events/s %6.2f M sim events/s "
		       "%6.1f sim-s/wall-s\n", "replay (2 CPUs, performance, deepest)", run_s,
		       (double)m.info.nevents / run_s / 1e6, (double)r.events / run_s / 1e6,
		       (double)r.duration_ns * 1e-9 / run_s);
	result_free(&r);
	double tl_s;
	if (rc == 0 && (rc = replay(path, &m, &mach, tl, &tl_s, &r)) == 0) {
		stat(tl, &st);
		printf("%-44s %8.3f wall s (+%.3f s over the replay) %.1f MB, %.0f bytes per sim "
		       "event\n", "replay + Perfetto timeline", tl_s, tl_s - run_s,
		       (double)st.st_size / 1e6, (double)st.st_size / (double)r.events);
		result_free(&r);
	}
	replay_model_free(&m);
	unlink(path);

	/* The trace.dat reader (libtracecmd in a child process, events back
	 * through a pipe) on the recorded example, 20 times. */
	t = wall();
	uint64_t dat_events = 0;
	for (int k = 0; k < 20 && rc == 0; k++) {
		struct replay_model dm;
		if ((rc = replay_model_load(&dm, PMLAB_SOURCE_ROOT "/data/traces/hackbench.dat", &d)) < 0)
			fprintf(stderr, "bench: %s\n", d.msg);
		else
			dat_events += dm.info.nevents;
		if (rc == 0)
			replay_model_free(&dm);
	}
	if (rc == 0)
		printf("%-44s %8.3f wall s %8.2f M trace events/s\n",
		       "read + model, data/traces/hackbench.dat x20", wall() - t,
		       (double)dat_events / (wall() - t) / 1e6);
	unlink(tl);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak resident memory: %ld KiB\n", ru.ru_maxrss);
	return rc < 0 ? 1 : 0;
}

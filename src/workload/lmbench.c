// SPDX-License-Identifier: GPL-2.0-only
/* lmbench: lat_syscall (lmbench3 src/lat_syscall.c), `--set test=`
 * null|read|write|stat|fstat|openclose, with `procs` copies running the
 * same loop as `lat_syscall -P procs` does.
 *
 * Reproduces: a task in a tight user/kernel loop that never sleeps or
 * waits, so its rate is CPU speed alone: every call is the machine's
 * syscall entry/exit (syscall_ns) plus the kernel work of the call
 * (getppid, 1-byte read of /dev/zero, 1-byte write to /dev/null, stat and
 * fstat of a cached file, open+close: two entries), all frequency-scaled
 * system time. Reports calls/s and, as lat_syscall prints, microseconds
 * per call of one process (`usec`, the mean of the latency histogram,
 * which holds the per-call time of each batch of calls).
 *
 * Leaves out: benchmp's warm-up, repetitions and median, the user-space
 * loop's own few cycles, cache and TLB effects of the path lookup. The
 * loop runs LOOP_CALLS calls per burst, which is exact because nothing in
 * it can block: preemption still splits a burst anywhere.
 *
 * Kernel work beyond entry/exit (ns on the 3 GHz reference core) is an
 * ESTIMATE fitted to the bare-metal magnitudes of docs/sources.md 3 with
 * a 0.1 us entry: null ~0.1 us, read/write 0.1-0.2, stat 0.3-0.6, fstat
 * 0.1-0.3, open/close 0.8-2 us. */
#include "../engine/sim.h"
#include "wlutil.h"

enum lat_test { TEST_NULL, TEST_READ, TEST_WRITE, TEST_STAT, TEST_FSTAT, TEST_OPENCLOSE };

static const char *const test_words[] = { "null", "read", "write", "stat", "fstat", "openclose",
					  NULL };

/* Kernel work of each call beyond entry/exit, ns at WL_REF_KHZ, and how
 * many kernel entries it makes. */
static const struct {
	double work_ns;
	int entries;
} cases[] = {
	[TEST_NULL] = { 0, 1 },     [TEST_READ] = { 70, 1 },   [TEST_WRITE] = { 60, 1 },
	[TEST_STAT] = { 350, 1 },   [TEST_FSTAT] = { 80, 1 },  [TEST_OPENCLOSE] = { 1000, 2 },
};

enum { LOOP_CALLS = 1000 };

struct lmbench {
	int64_t test;
	int64_t procs;
	struct action batch; /* LOOP_CALLS calls */
};

static const struct tunable lmbench_params[] = {
	{ "test", "lat_syscall case: null|read|write|stat|fstat|openclose", TUNABLE_FIELD(struct lmbench, test), TEST_NULL, 0,
	  TEST_OPENCLOSE, test_words },
	{ "procs", "processes running the loop (lat_syscall -P)", TUNABLE_FIELD(struct lmbench, procs),
	  1, 1, 4096, NULL },
};

static int lmbench_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct lmbench *l = data;
	double entry_ns = (double)sim_machine(s)->syscall_ns * cases[l->test].entries;
	l->batch = wl_kernel(s, entry_ns * LOOP_CALLS);
	struct action work = wl_work(cases[l->test].work_ns / 1000.0 * LOOP_CALLS, 0, true);
	wl_add(&l->batch, &work);
	for (int64_t i = 0; i < l->procs; i++)
		if (!sim_task_new(s, "lat_syscall", 0))
			return pm_fail(d, "out of memory");
	return 0;
}

/* wl_t0: when the current batch started (-1 before the first). */
static void lmbench_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct lmbench *l = data;
	sim_ns now = sim_now(s);
	if (t->wl_state) {
		sim_record_latency(s, (now - t->wl_t0 + LOOP_CALLS / 2) / LOOP_CALLS);
		sim_add_work(s, LOOP_CALLS);
	}
	t->wl_state = 1;
	t->wl_t0 = now;
	*a = l->batch;
}

static void lmbench_report(struct sim *s, void *data, struct run_result *r)
{
	/* lat_syscall's figure: one process's time per call, over the loops
	 * it completed. */
	wl_extra(r, "usec", "us/call", hist_mean(&r->latency) / 1000.0);
}

const struct workload_ops workload_lmbench = {
	.name = "lmbench",
	.summary = "lmbench lat_syscall: a tight loop of one system call",
	.throughput_unit = "calls/s",
	.latency_what = "time per call",
	.params = lmbench_params,
	.nparams = WL_NPARAMS(lmbench_params),
	.data_size = sizeof(struct lmbench),
	.init = lmbench_init,
	.next = lmbench_next,
	.report = lmbench_report,
};

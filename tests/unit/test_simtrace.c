// SPDX-License-Identifier: GPL-2.0-only
/* A simulated run as a trace.dat (pmlab sim --trace): the ring-buffer
 * pages read back by libtracecmd with every timestamp exact (across page
 * ends and time extends), the trace's CPU time per task equal to the
 * run's, and the round trip: the trace replayed on the same model gives
 * every task the CPU time it had. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/sim.h"
#include "export/tracedat_export.h"
#include "trace/event_formats.h"
#include "trace/record_select.h"
#include "trace/replay_keep.h"
#include "trace/replay_model.h"
#include "trace/ringbuf_write.h"
#include "trace/trace_read.h"
#include "trace/tracedat_write.h"

/* Two cores at 2 GHz, or 1 GHz under powersave; kernel costs zero, so
 * every ns a task runs is its own work. */
static const char *const two_core_ini =
	"[machine]\nname = two-core\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\n[pstates]\n1000000 = 800\n2000000 = 1000\n"
	"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[cstate C6]\nexit_latency_us = 100\ntarget_residency_us = 300\npower_mw = 0\n"
	"[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 2\nplatform_w = 0\n"
	"[costs]\ncontext_switch_us = 0\nwakeup_ipi_us = 0\n";

static const char *const no_costs[] = { "tick_cost_ns=0", "tick_stop_cost_ns=0",
					"cpufreq_update_cost_ns=0", "background_wakeups=0",
					"tick_restart_cost_ns=0" };

static char *temp_path(void)
{
	char *p = strdup("/tmp/pmlab-simtrace-XXXXXX");
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	return p;
}

struct events {
	int n, cap;
	struct trace_event *ev;
};

static int collect(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	struct events *e = ctx;
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 256;
		e->ev = realloc(e->ev, (size_t)e->cap * sizeof(*e->ev));
		assert_non_null(e->ev);
	}
	e->ev[e->n++] = *ev;
	return 0;
}

/* 3000 cpu_frequency records on one CPU with gaps from 1 ns to 3 s: many
 * pages, deltas beyond 27 bits (TIME_EXTEND). libtracecmd gives back each
 * record's time and value exactly, in order. */
static void test_ringbuf_timestamps(void **state)
{
	struct ringbuf rb[2];
	const struct event_format *f = event_format(EVF_CPU_FREQUENCY);
	uint64_t ts = 5, want_ts[3000];
	assert_int_equal(ringbuf_init(&rb[0]), 0);
	assert_int_equal(ringbuf_init(&rb[1]), 0);
	for (int i = 0; i < 3000; i++) {
		struct {
			struct event_common c;
			uint32_t khz, cpu;
		} r = { { f->id, 0, 0, 0 }, (uint32_t)(1000 + i), 1 };
		ts += i % 7 == 0 ? 3000000000ull : (uint64_t)i % 5 + (i % 3 ? 0 : 1);
		want_ts[i] = ts;
		assert_int_equal(ringbuf_add(&rb[1], ts, &r, f->size), 0);
	}
	assert_int_equal(ringbuf_flush(&rb[0]), 0);
	assert_int_equal(ringbuf_flush(&rb[1]), 0);
	assert_true(rb[1].pages > 5);
	char *path = temp_path();
	const char *names[EVF_COUNT], *formats[EVF_COUNT];
	for (int e = 0; e < EVF_COUNT; e++) {
		names[e] = event_format((enum trace_event_id)e)->name;
		formats[e] = event_format((enum trace_event_id)e)->format;
	}
	int fds[2] = { rb[0].fd, rb[1].fd };
	struct tracedat_source src = { .events = names, .nevents = EVF_COUNT, .ncpus = 2,
				       .cpu_fd = fds, .page_size = RINGBUF_PAGE_SIZE,
				       .header_page = event_header_page,
				       .header_event = event_header_event, .formats = formats,
				       .cmdlines = "" };
	struct pm_diag d = { { 0 } };
	if (tracedat_write(path, &src, &d) < 0)
		fail_msg("%s", d.msg);
	struct events ev = { 0 };
	struct trace_info info;
	if (trace_read(path, collect, &ev, &info, &d) < 0)
		fail_msg("%s", d.msg);
	assert_int_equal(info.ncpus, 2);
	assert_int_equal(ev.n, 3000);
	for (int i = 0; i < 3000; i++) {
		assert_int_equal(ev.ev[i].kind, TEV_FREQ);
		assert_int_equal(ev.ev[i].cpu, 1);
		assert_int_equal((uint64_t)ev.ev[i].ts, want_ts[i]);
		assert_int_equal(ev.ev[i].value, 1000 + i);
	}
	free(ev.ev);
	ringbuf_close(&rb[0]);
	ringbuf_close(&rb[1]);
	unlink(path);
	free(path);
}

struct run {
	struct machine m;
	struct run_result r;
	char names[256][TASK_NAME_MAX];
	int64_t exec[256]; /* per task id: its CPU time */
	uint32_t ntasks;
	sim_ns shift;      /* the most the trace moved a record */
};

/* Runs workload on the machine with sets (after no_costs), writing the
 * trace to path when not NULL, and keeps every task's CPU time. */
static void run(struct run *out, const char *workload, const char *gov, double seconds,
		const char *const *sets, int nsets, const char *path)
{
	struct pm_diag d = { { 0 } };
	const char *all[16];
	int n = 0;
	for (size_t i = 0; i < sizeof(no_costs) / sizeof(no_costs[0]); i++)
		all[n++] = no_costs[i];
	for (int i = 0; i < nsets; i++)
		all[n++] = sets[i];
	if (machine_parse(&out->m, two_core_ini, "test", &d) < 0)
		fail_msg("%s", d.msg);
	struct simtrace *st = NULL;
	if (path) {
		st = simtrace_open(path, &out->m, NULL, &d);
		assert_non_null(st);
	}
	struct sim_config cfg = { .machine = &out->m, .workload = workload, .cpufreq = gov,
				  .cpuidle = "menu", .duration = (sim_ns)(seconds * 1e9), .seed = 3,
				  .nsets = n, .sets = all, .check_invariants = true,
				  .keep_finished_tasks = true,
				  .observer = st ? simtrace_observer(st) : NULL };
	struct sim *s;
	if (sim_create(&s, &cfg, &d) < 0 || sim_run(s, &out->r, &d) < 0)
		fail_msg("%s", d.msg);
	out->ntasks = (uint32_t)out->r.tasks_created;
	assert_true(out->ntasks <= 256);
	for (uint32_t i = 0; i < out->ntasks; i++) {
		const struct task *t = sim_task(s, i);
		snprintf(out->names[i], TASK_NAME_MAX, "%s", t->name);
		out->exec[i] = t->sum_exec;
	}
	if (st)
		out->shift = simtrace_max_shift(st);
	if (st && simtrace_close(st, out->r.duration_ns, &d) < 0)
		fail_msg("%s", d.msg);
	result_free(&out->r);
	sim_destroy(s);
}

/* The trace's CPU time per task is the run's; its waits are told apart
 * as the replay model reads a kernel's; replayed on the same model under
 * a governor that runs every burst at the frequency it was traced at,
 * each task gets its CPU time back. The tolerance per burst: twice the
 * most a record was moved to keep one instant's records in order (each
 * end of a burst may move), plus 1 ns for the rounding of cycles (traced
 * ns x kHz / 1e6, a double) back to time. Nothing else may differ: the
 * model charges no kernel costs here (costs it charges would be inside
 * the traced bursts and charged again: see docs/ARCHITECTURE.md). */
static void round_trip(const char *workload, const char *gov, double seconds,
		       const char *const *sets, int nsets, bool irq, bool forks)
{
	struct run a, b;
	double tol[256];
	char *path = temp_path();
	run(&a, workload, gov, seconds, sets, nsets, path);
	struct replay_model rm;
	struct pm_diag d = { { 0 } };
	if (replay_model_load(&rm, path, &d) < 0)
		fail_msg("%s", d.msg);
	assert_int_equal(rm.ntasks, a.ntasks);
	for (uint32_t i = 0; i < rm.ntasks; i++) {
		const struct replay_task *t = &rm.tasks[i];
		uint32_t id = (uint32_t)t->pid - 1;
		char want[64];
		snprintf(want, sizeof(want), "%.15s-%d", a.names[id], t->pid);
		assert_string_equal(t->name, want);
		tol[id] = (double)(2 * a.shift + 1) * (t->nbursts + 1);
		if (fabs((double)(t->busy_ns - a.exec[id])) > tol[id])
			fail_msg("%s: %lld ns in the trace, %lld ns in the run (%u bursts, records "
				 "moved up to %lld ns)", t->name, (long long)t->busy_ns,
				 (long long)a.exec[id], t->nbursts, (long long)a.shift);
	}
	assert_true(a.shift < 100);
	assert_true(rm.timer_sleeps + rm.dependencies > 0);
	if (irq)
		assert_true(rm.external_wakes > 0);
	if (forks)
		for (uint32_t i = 0; i < rm.ntasks; i++)
			if (rm.tasks[i].start_kind == RS_FORK)
				forks = false;
	assert_false(forks); /* a task was forked by its parent, as traced */
	replay_model_free(&rm);

	char replay[512];
	snprintf(replay, sizeof(replay), "replay:%s", path);
	run(&b, replay, gov, 100, NULL, 0, NULL);
	assert_int_equal(b.ntasks, a.ntasks);
	for (uint32_t i = 0; i < b.ntasks; i++) {
		/* Replayed task names are "comm-pid"; pid is the traced id + 1. */
		const char *dash = strrchr(b.names[i], '-');
		assert_non_null(dash);
		uint32_t id = (uint32_t)atoi(dash + 1) - 1;
		assert_true(id < a.ntasks);
		double diff = fabs((double)(b.exec[i] - a.exec[id]));
		if (diff > 2 * tol[id])
			fail_msg("%s: %lld ns replayed, %lld ns simulated", b.names[i],
				 (long long)b.exec[i], (long long)a.exec[id]);
	}
	unlink(path);
	free(path);
}

/* video: timer sleeps (the display ticks, the audio period) and
 * dependencies (decoder and renderer wake each other). */
static void test_round_trip_video(void **state)
{
	const char *sets[] = { "decode_us=8000", "ahead=0" };
	round_trip("video", "performance", 1, sets, 2, false, false);
	round_trip("video", "powersave", 1, sets, 2, false, false);
}

/* oltp: lock waits, disk reads and log flushes ended by the device's
 * interrupt (external wakeups), iowait. */
static void test_round_trip_oltp(void **state)
{
	const char *sets[] = { "agents=4", "warehouses=2" };
	round_trip("oltp", "performance", 0.5, sets, 2, true, false);
}

/* kernbench: tasks forked by running tasks. */
static void test_round_trip_forks(void **state)
{
	const char *sets[] = { "files=6", "cc1_ms=5", "link_ms=5", "io_pct=0" };
	round_trip("kernbench", "performance", 5, sets, 4, false, true);
}

/* --- keeping some processes --- */

static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[1100];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* record -p, --comm, --cgroup on a fake tree: the PIDs sorted, without
 * repeats; each kind of miss is an error naming what and where. */
static void test_record_select(void **state)
{
	char dir[] = "/tmp/pmlab-select-XXXXXX";
	assert_non_null(mkdtemp(dir));
	put_file(dir, "proc/10/comm", "make\n");
	put_file(dir, "proc/11/comm", "cc1\n");
	put_file(dir, "proc/12/comm", "cc1plus\n");
	put_file(dir, "proc/13/comm", "bash\n");
	put_file(dir, "sys/fs/cgroup/build.slice/cgroup.procs", "13\n11\n");
	put_file(dir, "sys/fs/cgroup/empty/cgroup.procs", "");
	int pids[] = { 10 }, *out, n;
	const char *comms[] = { "cc1*" };
	struct record_select s = { pids, 1, comms, 1, "build.slice" };
	struct pm_diag d = { { 0 } };
	if (record_select_pids(dir, &s, &out, &n, &d) < 0)
		fail_msg("%s", d.msg);
	assert_int_equal(n, 4);
	assert_int_equal(out[0], 10);
	assert_int_equal(out[1], 11);
	assert_int_equal(out[2], 12);
	assert_int_equal(out[3], 13);
	free(out);
	int absent[] = { 99 };
	s = (struct record_select){ absent, 1, NULL, 0, NULL };
	assert_int_equal(record_select_pids(dir, &s, &out, &n, &d), -1);
	assert_non_null(strstr(d.msg, "-p 99: no such process"));
	const char *none[] = { "gcc" };
	s = (struct record_select){ NULL, 0, none, 1, NULL };
	assert_int_equal(record_select_pids(dir, &s, &out, &n, &d), -1);
	assert_non_null(strstr(d.msg, "--comm gcc: no process of that name runs"));
	s = (struct record_select){ NULL, 0, NULL, 0, "empty" };
	assert_int_equal(record_select_pids(dir, &s, &out, &n, &d), -1);
	assert_non_null(strstr(d.msg, "is empty"));
	s = (struct record_select){ NULL, 0, NULL, 0, "/nowhere" };
	assert_int_equal(record_select_pids(dir, &s, &out, &n, &d), -1);
	assert_non_null(strstr(d.msg, "cgroup.procs"));
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* replay --pid / --comm on a simulated run's trace: only the kept tasks
 * (and what they fork) are replayed, each with all its CPU time; a wakeup
 * by a task left out comes from outside, at its time. */
static void test_replay_keep(void **state)
{
	struct run a;
	char *path = temp_path();
	const char *sets[] = { "files=6", "cc1_ms=5", "link_ms=5", "io_pct=0" };
	run(&a, "kernbench", "performance", 5, sets, 4, path);
	/* gcc/2 (the driver, forked by sh/2): it and the cc1 and as it forks. */
	int pid = 0;
	for (uint32_t i = 0; i < a.ntasks; i++)
		if (strcmp(a.names[i], "gcc/2") == 0)
			pid = (int)i + 1;
	assert_true(pid > 0);
	struct replay_keep k = { &pid, 1, NULL, 0 };
	struct replay_model rm;
	struct pm_diag d = { { 0 } };
	if (replay_model_load_keep(&rm, path, &k, &d) < 0)
		fail_msg("%s", d.msg);
	assert_true(rm.ntasks >= 2 && rm.ntasks < a.ntasks);
	for (uint32_t i = 0; i < rm.ntasks; i++) {
		const char *n = rm.tasks[i].name;
		assert_true(strncmp(n, "gcc/2-", 6) == 0 || strncmp(n, "cc1/2-", 6) == 0 ||
			    strncmp(n, "as/2-", 5) == 0);
		uint32_t id = (uint32_t)rm.tasks[i].pid - 1;
		assert_true(llabs(rm.tasks[i].busy_ns - a.exec[id]) <= 2 * (a.shift + 1) *
								   (rm.tasks[i].nbursts + 1));
	}
	replay_model_free(&rm);
	const char *comms[] = { "cc1/*" };
	k = (struct replay_keep){ NULL, 0, comms, 1 };
	if (replay_model_load_keep(&rm, path, &k, &d) < 0)
		fail_msg("%s", d.msg);
	assert_int_equal(rm.ntasks, 6); /* one cc1 per file */
	assert_int_equal(rm.dependencies, 0); /* their parents are left out */
	replay_model_free(&rm);
	const char *nothing[] = { "nosuch" };
	k = (struct replay_keep){ NULL, 0, nothing, 1 };
	assert_int_equal(replay_model_load_keep(&rm, path, &k, &d), -1);
	assert_non_null(strstr(d.msg, "no task of the trace is among the ones kept"));
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ringbuf_timestamps),
		cmocka_unit_test(test_round_trip_video),
		cmocka_unit_test(test_round_trip_oltp),
		cmocka_unit_test(test_round_trip_forks),
		cmocka_unit_test(test_record_select),
		cmocka_unit_test(test_replay_keep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

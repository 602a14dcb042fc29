// SPDX-License-Identifier: GPL-2.0-only
/* Traces in and out: the ftrace text reader on every sample variant
 * (tests/fixtures/traces, copied from real captures), the trace.dat
 * reader, the replay model on a hand-made trace whose segments are worked
 * out below, the replay's fidelity on the trace recorded on the capture
 * machine, the Perfetto timeline's totals against the run's statistics,
 * and the HTML report's Pareto front. */
#include <jansson.h>
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
#include "export/html.h"
#include "export/perfetto.h"
#include "trace/ftrace_text.h"
#include "trace/replay_model.h"
#include "trace/trace_read.h"
#include "trace/tracedat.h"

#define FIX PMLAB_SOURCE_ROOT "/tests/fixtures/traces/"
#define SHIPPED PMLAB_SOURCE_ROOT "/data/traces/hackbench.dat"
#define CAPTURE_VM PMLAB_SOURCE_ROOT "/data/traces/capture-vm.ini"

/* Two CPUs at one frequency, 2 GHz, kernel costs zero: a replay of a
 * trace recorded at 2 GHz takes the traced times exactly. */
static const char *const two_cpu_ini =
	"[machine]\nname = two-cpu\n"
	"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
	"[frequency]\nbase_khz = 2000000\n[pstates]\n2000000 = 1000\n"
	"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
	"[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 2\nplatform_w = 0\n"
	"[costs]\ncontext_switch_us = 0\nwakeup_ipi_us = 0\n";

/* --- collecting events --- */

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

static struct events read_events(const char *path, struct trace_info *info)
{
	struct events e = { 0 };
	struct pm_diag d = { { 0 } };
	int rc = trace_read(path, collect, &e, info, &d);
	if (rc < 0)
		fail_msg("%s", d.msg);
	return e;
}

static const struct trace_event *nth_kind(const struct events *e, enum trace_kind k, int nth)
{
	for (int i = 0; i < e->n; i++)
		if (e->ev[i].kind == k && nth-- == 0)
			return &e->ev[i];
	return NULL;
}

static int count_kind(const struct events *e, enum trace_kind k)
{
	int n = 0;
	for (int i = 0; i < e->n; i++)
		n += e->ev[i].kind == k;
	return n;
}

static int count_state(const struct events *e, enum trace_prev_state st)
{
	int n = 0;
	for (int i = 0; i < e->n; i++)
		n += e->ev[i].kind == TEV_SWITCH && e->ev[i].state == st;
	return n;
}

/* --- the ftrace text reader --- */

static void test_tracefs_default(void **state)
{
	struct trace_info info;
	struct events e = read_events(FIX "tracefs-trace-default.txt", &info);
	assert_int_equal(info.ncpus, 2);
	assert_string_equal(info.format, "ftrace text");
	assert_int_equal(e.n, 308);
	/* Line 13: "bash-5935 [001] ..... 295.883415: sched_process_fork: comm=bash
	 * pid=5935 child_comm=bash child_pid=5938". */
	const struct trace_event *f = &e.ev[0];
	assert_int_equal(f->kind, TEV_FORK);
	assert_int_equal(f->where, 13);
	assert_int_equal(f->cpu, 1);
	assert_int_equal(f->ctx_pid, 5935);
	assert_string_equal(f->ctx_comm, "bash");
	assert_true(f->ts == INT64_C(295883415000));
	assert_int_equal(f->pid, 5935);
	assert_int_equal(f->pid2, 5938);
	assert_string_equal(f->comm2, "bash");
	assert_int_equal(f->ctx, TEV_CTX_KNOWN);
	/* 72 switches: S 47 and I 4 sleep, R 13 and R+ 3 runnable, Z 5 dead. */
	assert_int_equal(count_kind(&e, TEV_SWITCH), 72);
	assert_int_equal(count_state(&e, TPS_SLEEP), 51);
	assert_int_equal(count_state(&e, TPS_RUNNABLE), 16);
	assert_int_equal(count_state(&e, TPS_DEAD), 5);
	/* "hackbench-5938 [001] d..2. 295.885205: sched_switch: prev_comm=bash
	 * prev_pid=5938 prev_prio=120 prev_state=R+ ==> next_comm=migration/1
	 * next_pid=21 next_prio=0". */
	const struct trace_event *s = nth_kind(&e, TEV_SWITCH, 1);
	assert_non_null(s);
	assert_int_equal(s->pid, 5938);
	assert_string_equal(s->comm, "bash");
	assert_int_equal(s->state, TPS_RUNNABLE);
	assert_int_equal(s->pid2, 21);
	assert_string_equal(s->comm2, "migration/1");
	assert_int_equal(s->prio2, 0);
	/* An hrtimer in hard interrupt context: "d.h.." */
	const struct trace_event *h = nth_kind(&e, TEV_TIMER_ENTRY, 0);
	assert_non_null(h);
	assert_int_equal(h->ctx, TEV_CTX_KNOWN | TEV_CTX_HARDIRQ);
	free(e.ev);
}

/* The same 59 events as trace-cmd report prints them with -N, -R, -t and
 * -l, and the first 59 of the default (plugin) output: every variant must
 * read the same. */
static void test_trace_cmd_variants_agree(void **state)
{
	static const char *const files[] = {
		"trace-cmd-report-N-noplugins.txt", "trace-cmd-report-R-raw.txt",
		"trace-cmd-report-t-ns.txt", "trace-cmd-report-l.txt", "trace-cmd-report-default.txt",
	};
	struct trace_info info;
	struct events base = read_events(FIX "trace-cmd-report-N-noplugins.txt", &info);
	assert_int_equal(info.ncpus, 2);
	assert_string_equal(info.format, "trace-cmd report");
	assert_int_equal(base.n, 59);
	for (size_t f = 1; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[512];
		snprintf(path, sizeof(path), FIX "%s", files[f]);
		struct events e = read_events(path, &info);
		assert_true(e.n >= base.n);
		for (int i = 0; i < base.n; i++) {
			const struct trace_event *a = &base.ev[i], *b = &e.ev[i];
			if (a->kind != b->kind || a->cpu != b->cpu || a->ctx_pid != b->ctx_pid ||
			    a->pid != b->pid || a->pid2 != b->pid2 || llabs(a->ts - b->ts) >= 1000 ||
			    (a->kind == TEV_SWITCH && a->state != b->state))
				fail_msg("%s line %ld differs from -N line %ld", files[f], b->where, a->where);
		}
		free(e.ev);
	}
	/* -t prints nanoseconds: "322.176801111" */
	struct events t = read_events(FIX "trace-cmd-report-t-ns.txt", &info);
	assert_true(t.ev[0].ts == INT64_C(322176801111));
	free(t.ev);
	/* -l prints the CPU glued to the flags ("0d..2.") and comms cut to 8
	 * characters; its hrtimer lines are in hard interrupt context. */
	struct events l = read_events(FIX "trace-cmd-report-l.txt", &info);
	assert_string_equal(nth_kind(&l, TEV_TIMER_ENTRY, 0)->ctx_comm, "hackbenc");
	assert_int_equal(nth_kind(&l, TEV_TIMER_ENTRY, 0)->ctx, TEV_CTX_KNOWN | TEV_CTX_HARDIRQ);
	free(l.ev);
	free(base.ev);
}

/* trace-cmd's plugin prints the kernel's Z as X and I as W, and loses the
 * preemption mark: raw 32 (Z) and 128 (I) must still read as dead and
 * sleeping, raw 256 (R+) as runnable. */
static void test_plugin_prev_state(void **state)
{
	static const char text[] =
		"cpus=2\n"
		"  a-1 [000]   1.000001: sched_switch:         a:1 [120] X ==> b:2 [120]\n"
		"  b-2 [000]   1.000002: sched_switch:         b:2 [120] W ==> c:3 [120]\n"
		"  c-3 [000]   1.000003: sched_switch:         c:3 [120] R ==> d:4 [120]\n"
		"  d-4 [000]   1.000004: sched_switch:         d:4 [120] D ==> e:5 [120]\n"
		"  e-5 [000]   1.000005: sched_switch:         prev_comm=e prev_pid=5 prev_prio=120 "
		"prev_state=256 next_comm=f next_pid=6 next_prio=120\n"
		"  f-6 [000]   1.000006: sched_switch:         prev_comm=f prev_pid=6 prev_prio=120 "
		"prev_state=32 next_comm=g next_pid=7 next_prio=120\n"
		"  g-7 [000]   1.000007: sched_wakeup:         migration/0:18 [0] CPU:000\n";
	struct events e = { 0 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(ftrace_text_read_buf(text, strlen(text), "plugin", collect, &e, NULL, &d), 0);
	assert_int_equal(e.n, 7);
	enum trace_prev_state want[] = { TPS_DEAD, TPS_SLEEP, TPS_RUNNABLE, TPS_DISK, TPS_RUNNABLE,
					 TPS_DEAD };
	for (int i = 0; i < 6; i++)
		assert_int_equal(e.ev[i].state, want[i]);
	assert_int_equal(e.ev[6].kind, TEV_WAKEUP);
	assert_int_equal(e.ev[6].pid, 18);
	assert_string_equal(e.ev[6].comm, "migration/0");
	assert_int_equal(e.ev[6].prio, 0);
	free(e.ev);
}

static void test_tracefs_options(void **state)
{
	struct trace_info info;
	/* record-tgid: "bash-6080 (   6080) [001] d..2." and "<idle>-0 (-------)". */
	struct events e = read_events(FIX "tracefs-trace-record-tgid.txt", &info);
	assert_int_equal(e.ev[0].ctx_pid, 6080);
	assert_int_equal(e.ev[0].cpu, 1);
	assert_int_equal(e.ev[3].ctx_pid, 0);
	assert_int_equal(e.ev[3].kind, TEV_IDLE);
	assert_true(e.ev[3].value == UINT32_MAX);
	free(e.ev);
	/* irq-info off: no flag columns, so the context is unknown. */
	e = read_events(FIX "tracefs-trace-noirqinfo.txt", &info);
	assert_int_equal(e.ev[0].cpu, 0);
	assert_int_equal(e.ev[0].ctx, 0);
	assert_int_equal(e.n, 14);
	free(e.ev);
	/* latency-format: "bash-6039 0.....  552us : ..." relative microseconds. */
	e = read_events(FIX "tracefs-trace-latency-format.txt", &info);
	assert_true(info.relative_us);
	assert_true(e.ev[0].ts == 552000);
	assert_int_equal(e.ev[1].ctx, TEV_CTX_KNOWN);
	assert_int_equal(e.ev[2].kind, TEV_SWITCH);
	free(e.ev);
	/* The other real captures read to the end. */
	static const char *const more[] = { "gcc-compile-one-file-trace.txt",
					    "hackbench-default-sched-trace.txt",
					    "tbench-sched-trace.txt", "tracefs-one-of-each.txt" };
	static const int nevents[] = { 374, 251, 251, 35 };
	for (int i = 0; i < 4; i++) {
		char path[512];
		snprintf(path, sizeof(path), FIX "%s", more[i]);
		e = read_events(path, &info);
		assert_int_equal(e.n, nevents[i]);
		free(e.ev);
	}
}

/* Comms with spaces, dashes, colons and digits: the pid is the last
 * "-DIGITS" before the CPU. */
static void test_odd_comms_and_lost_events(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		" Web Content-12-4759  [001] d..2.  10.000001: sched_switch: prev_comm=Web Content-12 "
		"prev_pid=4759 prev_prio=120 prev_state=S ==> next_comm=kworker/u16:1 next_pid=77 "
		"next_prio=120\n"
		"CPU:1 [LOST 12 EVENTS]\n"
		"  memfd:sealed-91-4759  [000] d.s3.  10.000002: sched_waking: comm=a pid=b pid=9 "
		"prio=120 target_cpu=001\n";
	struct events e = { 0 };
	struct pm_diag d = { { 0 } };
	struct trace_info info;
	assert_int_equal(ftrace_text_read_buf(text, strlen(text), "odd", collect, &e, &info, &d), 0);
	assert_int_equal(e.n, 3);
	assert_int_equal(e.ev[0].ctx_pid, 4759);
	assert_string_equal(e.ev[0].ctx_comm, "Web Content-12");
	assert_string_equal(e.ev[0].comm, "Web Content-12");
	assert_int_equal(e.ev[0].pid2, 77);
	assert_string_equal(e.ev[0].comm2, "kworker/u16:1");
	assert_int_equal(e.ev[1].kind, TEV_LOST);
	assert_int_equal(e.ev[1].cpu, 1);
	assert_true(e.ev[1].value == 12 && info.lost == 12);
	assert_string_equal(e.ev[2].ctx_comm, "memfd:sealed-91");
	assert_int_equal(e.ev[2].ctx, TEV_CTX_KNOWN | TEV_CTX_SOFTIRQ);
	/* The comm "a pid=b" holds " pid=": the field is found from the right. */
	assert_int_equal(e.ev[2].pid, 9);
	assert_string_equal(e.ev[2].comm, "a pid=b");
	free(e.ev);
}

static void expect_error(const char *path, const char *needle)
{
	struct events e = { 0 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(trace_read(path, collect, &e, NULL, &d), -1);
	if (!strstr(d.msg, needle))
		fail_msg("%s: message '%s' lacks '%s'", path, d.msg, needle);
	free(e.ev);
}

static void test_bad_text(void **state)
{
	expect_error(FIX "bad-not-a-trace.txt", "bad-not-a-trace.txt:1: not an ftrace text trace");
	expect_error(FIX "bad-line.txt", "bad-line.txt:9: cannot read this line");
	expect_error(FIX "bad-fields.txt", "bad-fields.txt:8: sched_switch: cannot read its fields");
	expect_error(FIX "bad-cpu-beyond-header.txt",
		     "bad-cpu-beyond-header.txt:9: CPU 5, but the header says the trace has 2 CPUs");
	/* A text cut in the middle of its last line is a trace that ended. */
	static const char cut[] = "# tracer: nop\n  a-1 [000] d..2.  1.000001: sched_switch: "
				  "prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm";
	struct events e = { 0 };
	struct pm_diag d = { { 0 } };
	assert_int_equal(ftrace_text_read_buf(cut, strlen(cut), "cut", collect, &e, NULL, &d), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(ftrace_text_read_buf("", 0, "empty", collect, &e, NULL, &d), -1);
	assert_non_null(strstr(d.msg, "empty: empty"));
	free(e.ev);
}

/* --- the model --- */

/* Times are microseconds after 1 s. cpu0: A blocks at 0 (S) for B; B runs,
 * wakes A at 100 (dependency), is preempted at 150 (R) by A, which runs
 * 100 us and blocks at 250; B runs on to 300 and blocks (S). cpu1: C,
 * waiting since before the trace, is woken at 50 by an interrupt (h), runs
 * 52-152, sleeps; an hrtimer wakes it at 1153 (a 1001 us sleep); it runs
 * from 1155, forks D at 1200, exits (Z) at 1255; D runs, wakes B at 1300
 * (dependency) and exits at 1355. */
static const char mini[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 19/19   #P:2\n"
	"#\n"
	"               A-100     [000] d..2.   1.000000: sched_switch: prev_comm=A prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=B next_pid=200 next_prio=120\n"
	"          <idle>-0       [001] dNh2.   1.000050: sched_wakeup: comm=C pid=300 prio=120 target_cpu=001\n"
	"          <idle>-0       [001] d..2.   1.000052: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=C next_pid=300 next_prio=120\n"
	"               B-200     [000] d..3.   1.000100: sched_waking: comm=A pid=100 prio=120 target_cpu=000\n"
	"               B-200     [000] d..4.   1.000101: sched_wakeup: comm=A pid=100 prio=120 target_cpu=000\n"
	"               B-200     [000] d..2.   1.000150: sched_switch: prev_comm=B prev_pid=200 prev_prio=120 prev_state=R ==> next_comm=A next_pid=100 next_prio=120\n"
	"               C-300     [001] d..2.   1.000152: sched_switch: prev_comm=C prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	"               A-100     [000] d..2.   1.000250: sched_switch: prev_comm=A prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=B next_pid=200 next_prio=120\n"
	"               B-200     [000] d..2.   1.000300: sched_switch: prev_comm=B prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"          <idle>-0       [001] d.h1.   1.001152: hrtimer_expire_entry: hrtimer=00000000a4229e59 function=hrtimer_wakeup now=1001152000\n"
	"          <idle>-0       [001] dNh2.   1.001153: sched_wakeup: comm=C pid=300 prio=120 target_cpu=001\n"
	"          <idle>-0       [001] d.h1.   1.001154: hrtimer_expire_exit: hrtimer=00000000a4229e59\n"
	"          <idle>-0       [001] d..2.   1.001155: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=C next_pid=300 next_prio=120\n"
	"               C-300     [001] .....   1.001200: sched_process_fork: comm=C pid=300 child_comm=D child_pid=400\n"
	"               C-300     [001] d..2.   1.001201: sched_wakeup_new: comm=D pid=400 prio=120 target_cpu=001\n"
	"               C-300     [001] .....   1.001250: sched_process_exit: comm=C pid=300 prio=120 group_dead=true\n"
	"               C-300     [001] d..2.   1.001255: sched_switch: prev_comm=C prev_pid=300 prev_prio=120 prev_state=Z ==> next_comm=D next_pid=400 next_prio=120\n"
	"               D-400     [001] d..3.   1.001300: sched_waking: comm=B pid=200 prio=120 target_cpu=000\n"
	"               D-400     [001] d..2.   1.001355: sched_switch: prev_comm=D prev_pid=400 prev_prio=120 prev_state=Z ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static const struct replay_task *task_named(const struct replay_model *m, const char *name)
{
	for (uint32_t i = 0; i < m->ntasks; i++)
		if (strcmp(m->tasks[i].name, name) == 0)
			return &m->tasks[i];
	fail_msg("no task %s", name);
	return NULL;
}

static void expect_segs(const struct replay_task *t, const char *kinds, const int64_t *ns)
{
	static const char letter[] = "RBSWF"; /* run, block, sleep, wake, fork */
	char got[64] = "";
	for (uint32_t i = 0; i < t->nsegs && i < sizeof(got) - 1; i++)
		got[i] = letter[t->segs[i].kind];
	if (strcmp(got, kinds) != 0)
		fail_msg("%s: segments %s, expected %s", t->name, got, kinds);
	for (uint32_t i = 0; i < t->nsegs; i++)
		if ((t->segs[i].kind == SEG_RUN || t->segs[i].kind == SEG_SLEEP) && ns[i] != t->segs[i].ns)
			fail_msg("%s: segment %u lasts %lld ns, expected %lld", t->name, i,
				 (long long)t->segs[i].ns, (long long)ns[i]);
}

static void test_model_of_hand_trace(void **state)
{
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(replay_model_load_text(&m, mini, strlen(mini), "mini", &d), 0);
	assert_int_equal(m.ntasks, 4);
	assert_int_equal(m.ncpus, 2);
	assert_true(m.t_end - m.t0 == 1355000);
	assert_int_equal(m.dependencies, 2);
	assert_int_equal(m.timer_sleeps, 1);
	assert_int_equal(m.external_wakes, 1);
	assert_false(m.freq_events);
	const struct replay_task *a = task_named(&m, "A-100"), *b = task_named(&m, "B-200");
	const struct replay_task *c = task_named(&m, "C-300"), *dd = task_named(&m, "D-400");
	/* A: waits for B, runs 100 us; its last wait never ends (dropped). */
	expect_segs(a, "BR", (const int64_t[]){ 0, 100000 });
	/* B: 100 us, wakes A, 50 + 50 us (the preemption does not split the
	 * burst), waits for D. */
	expect_segs(b, "RWRB", (const int64_t[]){ 100000, 0, 100000, 0 });
	assert_int_equal(b->segs[1].ref, a->segs[0].ref);
	assert_int_equal(dd->segs[1].ref, b->segs[3].ref);
	/* C: waited since before the trace (external, at 50 us), 100 us, a
	 * timer sleep of 1153 - 152 = 1001 us, 45 us, forks D, 55 us. */
	expect_segs(c, "BRSRFR", (const int64_t[]){ 0, 100000, 1001000, 45000, 0, 55000 });
	assert_true(m.nexternal == 1 && m.external[0].at == 50000 &&
		    m.external[0].block == c->segs[0].ref);
	assert_true(c->exited);
	assert_int_equal(c->start_kind, RS_AT);
	assert_int_equal(dd->start_kind, RS_FORK);
	assert_int_equal(&m.tasks[c->segs[4].ref], dd);
	expect_segs(dd, "RWR", (const int64_t[]){ 45000, 0, 55000 });
	assert_true(a->busy_ns == 100000 && b->busy_ns == 200000 && c->busy_ns == 200000 &&
		    dd->busy_ns == 100000);
	replay_model_free(&m);
}

/* A task switched out where it was never seen switched in (the idle task's
 * events on CPU 1 are missing in some captures): its run starts at the
 * CPU's previous event. The idle task seen on a CPU ends the run there. */
static void test_model_missing_switch_in(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		"               X-10      [001] d..2.   2.000000: sched_switch: prev_comm=X prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
		"          <idle>-0       [001] d.h1.   2.000100: hrtimer_expire_entry: hrtimer=1 function=tick_nohz_handler now=1\n"
		"          <idle>-0       [001] d.h1.   2.000101: hrtimer_expire_exit: hrtimer=1\n"
		"               Y-20      [001] d..2.   2.000300: sched_switch: prev_comm=Y prev_pid=20 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(replay_model_load_text(&m, text, strlen(text), "gap", &d), 0);
	/* X ran from the trace's start (its first event) to 0: no CPU time. Y
	 * must have been switched in after the idle task's last event, 101. */
	assert_true(task_named(&m, "X-10")->busy_ns == 0);
	assert_true(task_named(&m, "Y-20")->busy_ns == 199000);
	assert_true(m.inferred_switches >= 2);
	replay_model_free(&m);
}

/* cpu_frequency events give the cycles: 100 us at 1 GHz = 100000 cycles,
 * then 100 us at 3 GHz. */
static void test_model_frequency(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		"          <idle>-0       [000] d..2.   1.000000: cpu_frequency: state=1000000 cpu_id=0\n"
		"          <idle>-0       [000] d..2.   1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=T next_pid=5 next_prio=120\n"
		"               T-5       [000] d..2.   1.000100: cpu_frequency: state=3000000 cpu_id=0\n"
		"               T-5       [000] d..2.   1.000200: sched_switch: prev_comm=T prev_pid=5 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"          <idle>-0       [001] d..2.   1.000300: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=U next_pid=6 next_prio=120\n"
		"               U-6       [001] d..2.   1.000400: sched_switch: prev_comm=U prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(replay_model_load_text(&m, text, strlen(text), "freq", &d), 0);
	assert_true(m.freq_events);
	const struct replay_task *t = task_named(&m, "T-5"), *u = task_named(&m, "U-6");
	assert_int_equal(t->nsegs, 1);
	assert_true(fabs(t->segs[0].cycles - 400000.0) < 1e-6);
	assert_true(t->segs[0].ns_unknown == 0);
	/* U existed before the trace and shows up at 300 us: it waits until
	 * then. CPU 1 never said its frequency: the capture frequency applies. */
	expect_segs(u, "BR", (const int64_t[]){ 0, 100000 });
	assert_true(u->segs[1].ns_unknown == 100000);
	assert_true(fabs(replay_seg_cycles(&u->segs[1], 2000000) - 200000.0) < 1e-6);
	replay_model_free(&m);
}

static void test_model_errors(void **state)
{
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(replay_model_load(&m, FIX "bad-no-sched.txt", &d), -1);
	assert_non_null(strstr(d.msg, "bad-no-sched.txt: no sched_switch events"));
	assert_int_equal(replay_model_load(&m, FIX "does-not-exist.txt", &d), -1);
	assert_non_null(strstr(d.msg, "does-not-exist.txt: cannot open"));
	assert_int_equal(replay_model_load(&m, FIX "four-cpus.txt", &d), 0);
	assert_int_equal(m.ncpus, 4);
	char where[600];
	replay_model_cpu_where(&m, where, sizeof(where));
	assert_non_null(strstr(where, "four-cpus.txt:9"));
	replay_model_free(&m);
}

/* --- replay --- */

struct replay_run {
	struct machine m;
	struct sim *s;
	struct run_result r;
};

static void replay(struct replay_run *rr, const char *machine_ini, const char *machine_file,
		   const char *path, const struct sim_observer *obs)
{
	struct pm_diag d = { { 0 } };
	if (machine_ini)
		assert_int_equal(machine_parse(&rr->m, machine_ini, "test", &d), 0);
	else if (machine_load(&rr->m, machine_file, &d) < 0)
		fail_msg("%s", d.msg);
	char workload[600];
	snprintf(workload, sizeof(workload), "replay:%s", path);
	static const char *const sets[] = { "tick_cost_ns=0", "tick_stop_cost_ns=0",
					    "tick_restart_cost_ns=0", "background_wakeups=0" };
	struct sim_config cfg = { .machine = &rr->m, .workload = workload, .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = 100 * NS_PER_SEC, .seed = 1,
				  .nsets = 4, .sets = sets, .check_invariants = true, .observer = obs,
				  .keep_finished_tasks = true };
	if (sim_create(&rr->s, &cfg, &d) < 0)
		fail_msg("%s", d.msg);
	if (sim_run(rr->s, &rr->r, &d) < 0)
		fail_msg("%s", d.msg);
}

static void replay_free(struct replay_run *rr)
{
	result_free(&rr->r);
	sim_destroy(rr->s);
}

static double extra(const struct run_result *r, const char *name)
{
	for (int i = 0; i < r->nextra; i++)
		if (strcmp(r->extra[i].name, name) == 0)
			return r->extra[i].value;
	fail_msg("no extra %s", name);
	return 0;
}

/* Every task's CPU time and the trace's length, replayed on a machine like
 * the capture one, must come back within 5 %. */
static void check_fidelity(const char *path, const char *machine_ini, const char *machine_file,
			   double duration_tol)
{
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	if (replay_model_load(&m, path, &d) < 0)
		fail_msg("%s", d.msg);
	struct replay_run rr;
	replay(&rr, machine_ini, machine_file, path, NULL);
	assert_int_equal(rr.r.tasks_created, m.ntasks);
	assert_int_equal(rr.r.tasks_finished, m.ntasks);
	for (uint32_t id = 0; id < rr.r.tasks_created; id++) {
		const struct task *t = sim_task(rr.s, id);
		const struct replay_task *mt = &m.tasks[t->wl_role];
		double want = (double)mt->busy_ns, got = (double)t->sum_exec;
		if (fabs(got - want) > 0.05 * want + 1000)
			fail_msg("%s: %s ran %.0f ns, traced %.0f ns", path, t->name, got, want);
	}
	double traced = (double)(m.t_end - m.t0), ran = (double)rr.r.duration_ns;
	if (fabs(ran - traced) > duration_tol * traced)
		fail_msg("%s: replay lasted %.6f s, the trace %.6f s", path, ran * 1e-9, traced * 1e-9);
	assert_true(fabs(extra(&rr.r, "trace_duration") - traced * 1e-9) < 1e-9);
	replay_free(&rr);
	replay_model_free(&m);
}

static void test_replay_fidelity_shipped(void **state)
{
	check_fidelity(SHIPPED, NULL, CAPTURE_VM, 0.05);
}

static void test_replay_fidelity_hand_trace(void **state)
{
	char path[] = "/tmp/pmlab-trace-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, mini, strlen(mini)), (ssize_t)strlen(mini));
	close(fd);
	check_fidelity(path, two_cpu_ini, NULL, 0.05);
	/* The samples' CPU time comes back exactly; their lengths depend on
	 * scheduling the trace cannot show, so only a loose bound. */
	check_fidelity(FIX "gcc-compile-one-file-trace.txt", two_cpu_ini, NULL, 0.05);
	check_fidelity(FIX "hackbench-default-sched-trace.txt", two_cpu_ini, NULL, 0.15);
	check_fidelity(FIX "trace-cmd-report-default.txt", two_cpu_ini, NULL, 0.15);
	unlink(path);
}

/* The same trace on CPUs twice as fast: every burst takes half the time. */
static void test_replay_scales_with_frequency(void **state)
{
	static const char fast[] =
		"[machine]\nname = fast\n"
		"[topology]\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\nfreq_domain = core\n"
		"[frequency]\nbase_khz = 4000000\n[pstates]\n4000000 = 1000\n"
		"[cstate C1]\nexit_latency_us = 1\ntarget_residency_us = 2\npower_mw = 500\n"
		"[power]\nceff_nf = 1\nleak_w = 1\nuncore_w = 2\nplatform_w = 0\n"
		"[costs]\ncontext_switch_us = 0\nwakeup_ipi_us = 0\n";
	char path[] = "/tmp/pmlab-trace-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, mini, strlen(mini)), (ssize_t)strlen(mini));
	close(fd);
	struct replay_run rr;
	char wl[64];
	struct pm_diag d = { { 0 } };
	assert_int_equal(machine_parse(&rr.m, fast, "fast", &d), 0);
	/* capture_khz says what the trace ran at; the machine's base is 4 GHz. */
	snprintf(wl, sizeof(wl), "replay:%s", path);
	static const char *const sets[] = { "tick_cost_ns=0", "tick_stop_cost_ns=0",
					    "tick_restart_cost_ns=0", "background_wakeups=0",
					    "capture_khz=2000000" };
	struct sim_config cfg = { .machine = &rr.m, .workload = wl, .cpufreq = "performance",
				  .cpuidle = "deepest", .duration = NS_PER_SEC, .seed = 1,
				  .nsets = 5, .sets = sets, .keep_finished_tasks = true };
	assert_int_equal(sim_create(&rr.s, &cfg, &d), 0);
	assert_int_equal(sim_run(rr.s, &rr.r, &d), 0);
	for (uint32_t id = 0; id < rr.r.tasks_created; id++) {
		const struct task *t = sim_task(rr.s, id);
		int64_t want = strcmp(t->name, "A-100") == 0 || strcmp(t->name, "D-400") == 0
				       ? 50000 : 100000;
		if (llabs(t->sum_exec - want) > 10)
			fail_msg("%s ran %lld ns, expected %lld", t->name, (long long)t->sum_exec,
				 (long long)want);
	}
	replay_free(&rr);
	unlink(path);
}

/* --- trace.dat --- */

static void test_tracedat_shipped(void **state)
{
	struct trace_info info;
	struct events e = read_events(SHIPPED, &info);
	assert_string_equal(info.format, "trace.dat");
	assert_int_equal(info.ncpus, 2);
	assert_true(e.n > 1000);
	assert_true(count_kind(&e, TEV_SWITCH) > 100);
	assert_true(count_kind(&e, TEV_WAKING) > 100);
	assert_true(count_kind(&e, TEV_FORK) > 10);
	/* Records come merged in time order, with their context flags. */
	for (int i = 1; i < e.n; i++)
		assert_true(e.ev[i].ts >= e.ev[i - 1].ts);
	assert_true(e.ev[0].ctx & TEV_CTX_KNOWN);
	assert_true(e.ev[0].where == 1 && e.ev[e.n - 1].where == e.n);
	free(e.ev);
}

static char *copy_prefix(const char *src, long keep, long flip_at)
{
	FILE *in = fopen(src, "rb");
	assert_non_null(in);
	fseek(in, 0, SEEK_END);
	long n = ftell(in);
	rewind(in);
	char *buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, in), (size_t)n);
	fclose(in);
	if (keep <= 0)
		keep = n + keep; /* 0: all of it */
	for (long i = flip_at; flip_at >= 0 && i < n && i < flip_at + 64; i++)
		buf[i] = (char)0xa5;
	char *path = strdup("/tmp/pmlab-dat-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, (size_t)keep), keep);
	close(fd);
	free(buf);
	return path;
}

/* Truncated or damaged, a trace.dat is an error naming the file (and the
 * record, once records are read), never a crash. */
static void test_tracedat_damaged(void **state)
{
	struct events e = { 0 };
	struct pm_diag d = { { 0 } };
	char *p = copy_prefix(SHIPPED, 200, -1);
	assert_int_equal(trace_read(p, collect, &e, NULL, &d), -1);
	assert_non_null(strstr(d.msg, p));
	assert_non_null(strstr(d.msg, "runs past the end of the file"));
	unlink(p);
	free(p);
	/* The header intact, the event data cut or bytes outside every CPU's
	 * region overwritten: the header no longer describes the file. */
	for (int k = 0; k < 2; k++) {
		p = k ? copy_prefix(SHIPPED, 0, 19456) : copy_prefix(SHIPPED, -12000, -1);
		e.n = 0;
		struct replay_model m;
		assert_int_equal(replay_model_load(&m, p, &d), -1);
		assert_non_null(strstr(d.msg, p));
		assert_non_null(strstr(d.msg, k ? "byte 19456: data outside every CPU's region"
						: "CPU 1's data (offset 180224, 167936 bytes, pages of "
						  "4096): beyond the end of the file"));
		unlink(p);
		free(p);
	}
	free(e.ev);
	assert_true(tracedat_magic("\x17\x08\x44tracing6", 11));
	assert_false(tracedat_magic("# tracer: nop", 13));
}


/* A copy of the shipped trace.dat with `size` bytes at `at` set to v
 * (little-endian, as the file declares). */
static char *patched(long at, int size, uint64_t v)
{
	char *path = copy_prefix(SHIPPED, 0, -1);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	unsigned char b[8];
	for (int i = 0; i < size; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	assert_int_equal(fseek(f, at, SEEK_SET), 0);
	assert_int_equal(fwrite(b, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	return path;
}

/* A header field that contradicts the file -- libtracecmd believed each
 * of these and replayed part of the trace with no error -- is refused at
 * its byte offset. Offsets are those of data/traces/hackbench.dat's
 * header: page size at 14, the CPU count at 18856, CPU 0's region (offset,
 * size) at 18870, CPU 1's at 18886, sched_wakeup's format size at 1983. */
static void test_tracedat_header_contradictions(void **state)
{
	(void)state;
	static const struct {
		long at;
		int size;
		uint64_t v;
		const char *want;
	} cases[] = {
		{ 14, 4, 4095, "byte 14: page size 4095 (expected a power of two" },
		{ 14, 4, 8192, "CPU 0's data (offset 20480, 159744 bytes, pages of 8192): not whole pages" },
		{ 18856, 4, 1, "byte 18887: data outside every CPU's region (before CPU 0's" },
		{ 18856, 4, 3, "byte 18902: CPU 2's data (offset 0, 0 bytes, pages of 4096): overlaps" },
		{ 18878, 8, 0, "byte 20480: data outside every CPU's region (before CPU 1's" },
		{ 18878, 8, 77824, "byte 98304: data outside every CPU's region (before CPU 1's" },
		{ 18878, 8, 319488, "CPU 1's data (offset 180224, 167936 bytes, pages of 4096): overlaps" },
		{ 18886, 8, 90112, "CPU 1's data (offset 90112, 167936 bytes, pages of 4096): overlaps" },
		{ 18894, 8, 81920, "byte 262144: data after the last CPU's region" },
		{ 1983, 8, 583, "byte 1991: system sched: format 1 is not an event format" },
		{ 10, 8, 0x3636363636363636, "byte 10: the version: a name longer than 7 bytes" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = patched(cases[i].at, cases[i].size, cases[i].v);
		struct replay_model m;
		struct pm_diag d = { { 0 } };
		if (replay_model_load(&m, p, &d) == 0) {
			replay_model_free(&m);
			fail_msg("byte %ld = %llu: accepted", cases[i].at, (unsigned long long)cases[i].v);
		}
		if (!strstr(d.msg, p) || !strstr(d.msg, cases[i].want))
			fail_msg("byte %ld = %llu: '%s' lacks '%s'", cases[i].at,
				 (unsigned long long)cases[i].v, d.msg, cases[i].want);
		unlink(p);
		free(p);
	}
	/* A ring-buffer page whose commit size exceeds the page (CPU 0's first
	 * page at 20480; its commit word at +8). */
	char *p = patched(20480 + 8, 8, 5000);
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	assert_int_equal(replay_model_load(&m, p, &d), -1);
	assert_non_null(strstr(d.msg, "byte 20488: CPU 0: a ring-buffer page whose commit size "
				      "exceeds the page"));
	unlink(p);
	free(p);
}

/* What no kernel logs is refused at its line: negative PIDs, a cpu_id
 * beyond the trace's CPUs (it built a machine of that many CPUs), time
 * going back by more than the drift between CPUs' clocks (clamped
 * silently before). */
static void test_model_impossible_events(void **state)
{
	(void)state;
#define HEAD "# tracer: nop\n#\n# entries-in-buffer/entries-written: 4/4   #P:2\n#\n"
#define SW(cpu, ts, prev, next) "            bash-" #prev " [00" #cpu "] " ts ": sched_switch: " \
	"prev_comm=bash prev_pid=" #prev " prev_prio=120 prev_state=S ==> next_comm=x next_pid=" \
	#next " next_prio=120\n"
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ HEAD SW(0, "1.000000", 10, 11) SW(1, "1.000100", 12, -5), "t:6: PID -5 (expected 0.." },
		{ HEAD SW(0, "1.000000", 10, 11)
		  "          <idle>-0     [001] 1.000200: cpu_idle: state=1 cpu_id=999\n",
		  "t:6: CPU 999, but the trace has 2 CPUs (0..1)" },
		{ SW(0, "1.000000", 10, 11)
		  "          <idle>-0     [001] 1.000200: cpu_frequency: state=800000 cpu_id=999\n"
		  SW(1, "1.000300", 12, 13), "t:2: cpu_id 999, but no event was logged on a CPU above 1" },
		{ HEAD SW(0, "3.000000", 10, 11) SW(1, "1.000000", 12, 13),
		  "t:6: time goes back 2.000000 s, from 3.000000 to 1.000000" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct replay_model m;
		struct pm_diag d = { { 0 } };
		const char *t = cases[i].text;
		if (replay_model_load_text(&m, t, strlen(t), "t", &d) == 0) {
			replay_model_free(&m);
			fail_msg("accepted: %s", t);
		}
		if (!strstr(d.msg, cases[i].want))
			fail_msg("'%s' lacks '%s'", d.msg, cases[i].want);
	}
	/* 50 us back between CPUs: drift, clamped */
	const char *drift = HEAD SW(0, "1.000100", 10, 11) SW(1, "1.000050", 12, 13);
	struct replay_model m;
	struct pm_diag d = { { 0 } };
	if (replay_model_load_text(&m, drift, strlen(drift), "t", &d) < 0)
		fail_msg("%s", d.msg);
	assert_int_equal(m.ncpus, 2);
	replay_model_free(&m);
#undef SW
#undef HEAD
}

/* --- the Perfetto timeline --- */

static json_t *load_json(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	if (!j)
		fail_msg("%s:%d: %s", path, err.line, err.text);
	return j;
}

/* Sum of each CPU's task slices = its user + sys time; the integral of the
 * power counters = the core and uncore energy; every CPU named. */
static void check_timeline(const char *path, const struct run_result *r)
{
	json_t *root = load_json(path);
	json_t *evs = json_object_get(root, "traceEvents");
	assert_true(json_is_array(evs));
	double *busy = calloc((size_t)r->ncpus, sizeof(double));
	int named = 0;
	/* Counters: per name, the last (time, value) seen. */
	struct { char name[32]; double t, v; } ctr[64];
	int nctr = 0;
	double e_core = 0, e_uncore = 0, end = (double)r->duration_ns / 1000.0;
	size_t i;
	json_t *ev;
	json_array_foreach(evs, i, ev) {
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		const char *name = json_string_value(json_object_get(ev, "name"));
		assert_non_null(ph);
		assert_non_null(name);
		if (strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0)
			named++;
		if (strcmp(ph, "X") == 0) {
			int cpu = (int)json_integer_value(json_object_get(ev, "tid")) - PERFETTO_CPU_TID(0);
			assert_true(cpu >= 0 && cpu < r->ncpus);
			double ts = json_number_value(json_object_get(ev, "ts"));
			double dur = json_number_value(json_object_get(ev, "dur"));
			assert_true(dur >= 0 && ts + dur <= end + 1e-6);
			if (strcmp(json_string_value(json_object_get(ev, "cat")), "task") == 0)
				busy[cpu] += dur;
		}
		if (strcmp(ph, "C") == 0 && json_integer_value(json_object_get(ev, "pid")) ==
						    PERFETTO_PID_POWER) {
			double t = json_number_value(json_object_get(ev, "ts"));
			double v = json_number_value(json_object_get(json_object_get(ev, "args"), "W"));
			int k = 0;
			while (k < nctr && strcmp(ctr[k].name, name) != 0)
				k++;
			if (k == nctr) {
				assert_true(nctr < 64);
				snprintf(ctr[nctr].name, sizeof(ctr[nctr].name), "%s", name);
				nctr++;
			} else {
				assert_true(t >= ctr[k].t); /* streamed in time order */
				double e = ctr[k].v * (t - ctr[k].t) * 1e-6;
				*(strstr(name, "uncore") ? &e_uncore : &e_core) += e;
			}
			ctr[k].t = t;
			ctr[k].v = v;
		}
	}
	for (int k = 0; k < nctr; k++)
		*(strstr(ctr[k].name, "uncore") ? &e_uncore : &e_core) += ctr[k].v * (end - ctr[k].t) * 1e-6;
	assert_int_equal(named, r->ncpus);
	for (int c = 0; c < r->ncpus; c++) {
		double want = (double)(r->cpus[c].user_ns + r->cpus[c].sys_ns) / 1000.0;
		if (fabs(busy[c] - want) > 1e-3 * 1 + want * 1e-9)
			fail_msg("CPU %d: task slices %.3f us, user+sys %.3f us", c, busy[c], want);
	}
	double want_core = r->energy_core_dynamic_j + r->energy_core_static_j;
	if (fabs(e_core - want_core) > 1e-6 * want_core || fabs(e_uncore - r->energy_uncore_j) >
								    1e-6 * r->energy_uncore_j)
		fail_msg("power counters give %.9f + %.9f J, the run %.9f + %.9f J", e_core, e_uncore,
			 want_core, r->energy_uncore_j);
	free(busy);
	json_decref(root);
}

static void test_timeline_totals(void **state)
{
	/* A replay, and a model workload with frequency changes and idle states
	 * (ondemand + menu on the i7's eight CPUs). */
	char path[] = "/tmp/pmlab-timeline-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct pm_diag d = { { 0 } };
	struct replay_run rr;
	struct machine m;
	assert_int_equal(machine_load(&m, CAPTURE_VM, &d), 0);
	struct perfetto *p = perfetto_open(path, &m, "replay", NULL, &d);
	assert_non_null(p);
	replay(&rr, NULL, CAPTURE_VM, SHIPPED, perfetto_observer(p));
	assert_int_equal(perfetto_close(p, rr.r.duration_ns, &d), 0);
	check_timeline(path, &rr.r);
	replay_free(&rr);

	assert_int_equal(machine_load(&m, "i7-4790", &d), 0);
	p = perfetto_open(path, &m, "tbench", NULL, &d);
	assert_non_null(p);
	struct sim_config cfg = { .machine = &m, .workload = "tbench", .cpufreq = "ondemand",
				  .cpuidle = "menu", .duration = NS_PER_SEC / 5, .seed = 1,
				  .observer = perfetto_observer(p) };
	struct sim *s;
	struct run_result r;
	assert_int_equal(sim_create(&s, &cfg, &d), 0);
	assert_int_equal(sim_run(s, &r, &d), 0);
	assert_true(r.freq_transitions > 0);
	assert_int_equal(perfetto_close(p, r.duration_ns, &d), 0);
	check_timeline(path, &r);
	json_t *root = load_json(path);
	size_t i, freq = 0, idle = 0;
	json_t *ev;
	json_array_foreach(json_object_get(root, "traceEvents"), i, ev) {
		const char *cat = json_string_value(json_object_get(ev, "cat"));
		freq += json_integer_value(json_object_get(ev, "pid")) == PERFETTO_PID_FREQ;
		idle += cat && strcmp(cat, "idle") == 0;
	}
	assert_true(freq > 8 && idle > 8);
	json_decref(root);
	result_free(&r);
	sim_destroy(s);
	/* A file that cannot be created. */
	assert_null(perfetto_open("/nonexistent-dir/t.json", &m, "x", NULL, &d));
	assert_non_null(strstr(d.msg, "/nonexistent-dir/t.json: cannot create"));
	unlink(path);
}

/* --- HTML --- */

static void test_pareto(void **state)
{
	/* (power, throughput): (1,1) lowest power; (2,3) highest throughput;
	 * (3,2) beaten by (2,3); (2,1) beaten by (1,1); (1,1) again ties. */
	const struct html_point p[] = { { "a", 1, 1 }, { "b", 2, 3 }, { "c", 3, 2 }, { "d", 2, 1 },
					{ "e", 1, 1 } };
	bool front[5];
	html_pareto(5, p, front);
	assert_true(front[0] && front[1] && !front[2] && !front[3] && front[4]);
}

static void test_html_page(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct html *h = html_begin(f, "t<&>");
	const char *head[] = { "name", "value" }, *cells[] = { "x<y", "1.5", "z", "2" };
	html_table(h, "cap", 2, head, 2, cells);
	const struct html_point p[] = { { "a", 1, 1 }, { "b", 2, 3 }, { "c", 3, 2 } };
	html_scatter(h, "s", "W", "ops/s", 3, p, true);
	const char *bars[] = { "p", "q" }, *series[] = { "C0", "C6", "C7" };
	const double v[] = { 50, 50, 0, 10, 20, 70 };
	html_stacked(h, "r", 2, bars, 3, series, v);
	const int counts[] = { 3, 1 };
	const double runs[] = { 1, 2, 3, 5 };
	html_spread(h, "sp", "ops/s", 2, bars, counts, runs);
	assert_int_equal(html_end(h), 0);
	fclose(f);
	/* Escaped text, numbers right-aligned, and the chart elements. */
	assert_non_null(strstr(buf, "<title>t&lt;&amp;&gt;</title>"));
	assert_non_null(strstr(buf, "<td>x&lt;y</td><td class=\"num\">1.5</td>"));
	int points = 0, segs = 0, runs_n = 0, means = 0, pareto = 0;
	for (const char *s = buf; (s = strstr(s, "class=\"")); s++) {
		points += strncmp(s, "class=\"point", 12) == 0;
		segs += strncmp(s, "class=\"seg\"", 11) == 0;
		runs_n += strncmp(s, "class=\"run\"", 11) == 0;
		means += strncmp(s, "class=\"mean\"", 12) == 0;
		pareto += strncmp(s, "class=\"pareto\"", 14) == 0;
	}
	assert_int_equal(points, 3);
	assert_int_equal(segs, 5); /* the zero share draws nothing */
	assert_int_equal(runs_n, 4);
	assert_int_equal(means, 2);
	assert_int_equal(pareto, 1);
	/* Self-contained: nothing to fetch. */
	assert_null(strstr(buf, "src="));
	assert_null(strstr(buf, "<link"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracefs_default),
		cmocka_unit_test(test_trace_cmd_variants_agree),
		cmocka_unit_test(test_plugin_prev_state),
		cmocka_unit_test(test_tracefs_options),
		cmocka_unit_test(test_odd_comms_and_lost_events),
		cmocka_unit_test(test_bad_text),
		cmocka_unit_test(test_model_of_hand_trace),
		cmocka_unit_test(test_model_missing_switch_in),
		cmocka_unit_test(test_model_frequency),
		cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_replay_fidelity_shipped),
		cmocka_unit_test(test_replay_fidelity_hand_trace),
		cmocka_unit_test(test_replay_scales_with_frequency),
		cmocka_unit_test(test_tracedat_shipped),
		cmocka_unit_test(test_tracedat_damaged),
		cmocka_unit_test(test_tracedat_header_contradictions),
		cmocka_unit_test(test_model_impossible_events),
		cmocka_unit_test(test_timeline_totals),
		cmocka_unit_test(test_pareto),
		cmocka_unit_test(test_html_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

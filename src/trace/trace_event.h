// SPDX-License-Identifier: GPL-2.0-only
/* One scheduler or power event of a recorded Linux trace, as every trace
 * reader (ftrace text, trace-cmd report text, trace.dat) delivers it: the
 * fields the replay needs, already decoded, in file order. A reader calls
 * a sink once per event; nothing is kept, so a reader's memory does not
 * grow with the trace. */
#ifndef PMLAB_TRACE_EVENT_H
#define PMLAB_TRACE_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"

#define TRACE_COMM_MAX 17 /* TASK_COMM_LEN + 1: a comm never exceeds 15 chars + NUL */

enum trace_kind {
	TEV_SWITCH,      /* sched_switch: pid prev, pid2 next, state of prev */
	TEV_WAKING,      /* sched_waking: pid woken, in the waker's context */
	TEV_WAKEUP,      /* sched_wakeup: pid woken */
	TEV_WAKEUP_NEW,  /* sched_wakeup_new: pid (just forked) woken */
	TEV_FORK,        /* sched_process_fork: pid parent, pid2 child */
	TEV_EXIT,        /* sched_process_exit: pid */
	TEV_MIGRATE,     /* sched_migrate_task: pid, arg = dest_cpu */
	TEV_FREQ,        /* cpu_frequency: value = kHz, arg = cpu_id */
	TEV_IDLE,        /* cpu_idle: value = state (UINT32_MAX: exit), arg = cpu_id */
	TEV_TIMER_ENTRY, /* hrtimer_expire_entry / timer_expire_entry */
	TEV_TIMER_EXIT,  /* hrtimer_expire_exit / timer_expire_exit */
	TEV_LOST,        /* the CPU's buffer dropped events here; value = how many (0: unknown) */
	TEV_OTHER,       /* any other event: still tells who runs on the CPU */
};

/* Where the event was logged from, when the trace says (flags columns of
 * ftrace text, common_flags of trace.dat). */
enum {
	TEV_CTX_KNOWN = 1 << 0,   /* the flags were recorded */
	TEV_CTX_HARDIRQ = 1 << 1, /* in a hard interrupt (or NMI) */
	TEV_CTX_SOFTIRQ = 1 << 2, /* in a softirq */
};

/* prev_state of a switch, reduced to what the replay distinguishes. */
enum trace_prev_state {
	TPS_RUNNABLE, /* R, R+: preempted or yielded, still runnable */
	TPS_SLEEP,    /* S, I, T, t, P, W...: blocked, not on I/O */
	TPS_DISK,     /* D: uninterruptible, I/O wait */
	TPS_DEAD,     /* Z, X: exiting */
};

struct trace_event {
	enum trace_kind kind;
	int64_t ts;      /* ns, as recorded (not rebased) */
	int cpu;         /* CPU whose buffer holds the event */
	int ctx_pid;     /* task running on that CPU when it was logged (common_pid) */
	char ctx_comm[TRACE_COMM_MAX]; /* its comm where the line prints it ("" unknown) */
	unsigned ctx;    /* TEV_CTX_* */
	int pid, pid2;   /* see enum trace_kind */
	int prio, prio2; /* kernel prio of pid / pid2 where printed; -1 unknown */
	enum trace_prev_state state; /* TEV_SWITCH */
	int arg;
	uint64_t value;
	char comm[TRACE_COMM_MAX];  /* comm of pid ("" unknown) */
	char comm2[TRACE_COMM_MAX]; /* comm of pid2 */
	long where;      /* line number (text) or record number (trace.dat), from 1 */
	uint64_t offset; /* trace.dat: the record's byte offset in the file (text: 0) */
};

/* Called for each event; returns 0 to go on, -1 to stop with d filled. */
typedef int (*trace_sink)(void *ctx, const struct trace_event *ev, struct pm_diag *d);

/* What a reader learned about the whole file. */
struct trace_info {
	int ncpus;        /* from the header (#P:N, cpus=N, trace.dat); 0 unknown */
	bool relative_us; /* latency format: times are us since the trace start */
	const char *format; /* "ftrace text", "trace-cmd report", "trace.dat", ... */
	uint64_t nevents; /* events delivered */
	uint64_t lost;    /* events the kernel reported lost */
};

/* prev_state as the kernel (>= 4.14) encodes it in the raw field: bit 0 S,
 * 1 D, 2 T, 3 t, 4 X, 5 Z, 6 P, 7 I; TASK_REPORT_MAX (0x100) marks a
 * preemption. Older kernels used bits 4/5 for X/Z too, so dead and disk
 * read the same on every kernel. */
static inline enum trace_prev_state trace_state_from_bits(uint64_t raw)
{
	raw &= 0xff;
	if (raw == 0)
		return TPS_RUNNABLE;
	if (raw & 0x30)
		return TPS_DEAD;
	if (raw & 0x02)
		return TPS_DISK;
	return TPS_SLEEP;
}

#endif

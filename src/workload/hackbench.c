// SPDX-License-Identifier: GPL-2.0-only
/* hackbench: rt-tests hackbench and perf bench sched messaging
 * (rt-tests 2.4 src/hackbench/hackbench.c, tools/perf/bench/sched-messaging.c).
 *
 * Reproduces: `groups` groups of `fds` senders and `fds` receivers. Each
 * receiver owns one channel (an AF_UNIX stream socketpair, or a pipe with
 * mode=pipe); every sender of a group writes `loops` rounds of one
 * `datasize`-byte message to each receiver of its own group, and each
 * receiver reads one message per read until it has loops x fds. A write
 * that finds the channel full blocks the sender; a read that finds it
 * empty blocks the receiver. The kernel's wakeup rules are kept: a write
 * wakes the receiver waiting on an empty channel; blocked writers wake,
 * all of them, only when the channel has room again as the kernel defines
 * it: a socket when its queued bytes fall to a quarter of the buffer
 * (unix_writable), a pipe when a whole page is free. Every write and read
 * is system time: the machine's syscall entry plus the copy and queueing
 * work of the mode. All tasks start together, as after hackbench's start
 * barrier; the run ends when the last receiver is done. Reports the time
 * in seconds (extra) and runs per hour as throughput.
 *
 * Leaves out: the fork of the 2 x fds x groups processes and the start
 * barrier's own wakeups (both before hackbench's clock starts), the
 * parent's wait, threads mode (-T), and partial reads.
 *
 * Defaults: rt-tests' -g 10, -f 20, -l 100, -s 100, sockets. Buffers:
 * pipe 64 KiB (16 pages); socket 212,992 B (net.core.wmem_default), each
 * queued message charged its skb truesize, ~768 B beyond its data
 * (ESTIMATE). Kernel work per message, ns on a 3 GHz core (ESTIMATES in
 * A.1's 1-3 us per write, 1-2 us per read): socket write 2000, read 1500;
 * pipe write 1000, read 800. */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/sim.h"
#include "wlutil.h"

enum hb_mode { MODE_SOCKET, MODE_PIPE };

static const char *const mode_words[] = { "socket", "pipe", NULL };

#define PAGE_BYTES 4096
#define SKB_OVERHEAD 768

struct hb_channel {
	double used;        /* bytes queued or being written */
	int64_t readable;   /* messages fully written, not yet read */
	int receiver;       /* index of its receiver task */
	bool receiver_waiting;
	struct wl_fifo writers; /* senders blocked for room */
};

struct hackbench {
	int64_t groups;
	int64_t fds;
	int64_t loops;
	int64_t datasize;
	int64_t mode;
	struct task **tasks;       /* per group: fds senders, then fds receivers */
	struct hb_channel *chans;  /* per group: fds channels */
	/* Per task, kept from the setup instead of a division and a modulo
	 * per message: a receiver's channel; a sender's channel for its next
	 * message (group * fds + wl_state % fds: moved on with wl_state, in
	 * sender_next() alone) and its group's first. */
	struct hb_route {
		int64_t chan, first;
	} *route;
	bool *waiting;             /* per task: blocked, wakeable by the workload */
	double footprint, capacity;
	struct action write_cost, read_cost;
	int64_t receivers_left;
	uint64_t sent, received;
	sim_ns finished_at;
};

static const struct tunable hackbench_params[] = {
	{ "groups", "groups of senders and receivers (hackbench -g)",
	  TUNABLE_FIELD(struct hackbench, groups), 10, 1, 10000, NULL },
	{ "fds", "senders and receivers per group (hackbench -f)",
	  TUNABLE_FIELD(struct hackbench, fds), 20, 1, 1000, NULL },
	{ "loops", "messages each sender sends each receiver (hackbench -l)",
	  TUNABLE_FIELD(struct hackbench, loops), 100, 1, 100000000, NULL },
	{ "datasize", "message size, bytes (hackbench -s)", TUNABLE_FIELD(struct hackbench, datasize),
	  100, 1, 65536, NULL },
	{ "mode", "channel: socket|pipe (AF_UNIX socketpair, or a pipe as hackbench -p)",
	  TUNABLE_FIELD(struct hackbench, mode), MODE_SOCKET, MODE_SOCKET, MODE_PIPE, mode_words },
};

static int64_t per_task_msgs(const struct hackbench *h)
{
	return h->loops * h->fds;
}

static int hackbench_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct hackbench *h = data;
	int64_t ntasks = 2 * h->fds * h->groups;
	h->tasks = calloc((size_t)ntasks, sizeof(*h->tasks));
	h->chans = calloc((size_t)(h->fds * h->groups), sizeof(*h->chans));
	h->waiting = calloc((size_t)ntasks, sizeof(*h->waiting));
	h->route = calloc((size_t)ntasks, sizeof(*h->route));
	if (!h->tasks || !h->chans || !h->waiting || !h->route)
		return pm_fail(d, "out of memory");
	bool pipe = h->mode == MODE_PIPE;
	h->capacity = pipe ? 16 * PAGE_BYTES : 212992;
	h->footprint = (double)h->datasize + (pipe ? 0 : SKB_OVERHEAD);
	if (h->footprint > h->capacity)
		h->footprint = h->capacity; /* one oversized message still fits an empty channel */
	double entry_ns = (double)sim_machine(s)->syscall_ns;
	h->write_cost = wl_kernel(s, entry_ns);
	h->read_cost = wl_kernel(s, entry_ns);
	struct action w = wl_work(pipe ? 1.0 : 2.0, 0, true), r = wl_work(pipe ? 0.8 : 1.5, 0, true);
	wl_add(&h->write_cost, &w);
	wl_add(&h->read_cost, &r);
	h->receivers_left = h->fds * h->groups;
	for (int64_t g = 0; g < h->groups; g++) {
		for (int64_t i = 0; i < 2 * h->fds; i++) {
			bool sender = i < h->fds;
			char name[64];
			snprintf(name, sizeof(name), "hackbench/%c%lld.%lld", sender ? 's' : 'r',
				 (long long)g, (long long)(sender ? i : i - h->fds));
			struct task *t = sim_task_new(s, name, 0);
			if (!t)
				return pm_fail(d, "out of memory");
			t->wl_role = sender ? 0 : 1;
			t->wl_peer = (uint32_t)(g * 2 * h->fds + i); /* its own index */
			h->tasks[g * 2 * h->fds + i] = t;
			struct hb_route *rt = &h->route[g * 2 * h->fds + i];
			rt->first = g * h->fds;
			rt->chan = sender ? rt->first : g * h->fds + i - h->fds;
			if (!sender)
				h->chans[rt->chan].receiver = (int)t->wl_peer;
		}
	}
	return 0;
}

static void wake(struct sim *s, struct hackbench *h, int idx)
{
	if (h->waiting[idx]) {
		h->waiting[idx] = false;
		/* Socket and pipe reads and writes wake synchronously
		 * (wake_up_interruptible_sync_poll()). */
		sim_wake_sync(s, h->tasks[idx]);
	}
}

/* Room again as the kernel sees it: a socket below a quarter of its
 * buffer, a pipe with a whole page free. */
static bool writable(const struct hackbench *h, const struct hb_channel *c)
{
	if (h->mode == MODE_PIPE)
		return h->capacity - c->used >= PAGE_BYTES;
	return c->used * 4 <= h->capacity;
}

/* The steps that call out (a wakeup, a writer queued, the last read) are
 * functions of their own, reached by a jump, so that a write or read that
 * makes no call (most: hackbench_next() runs once per event) saves no
 * registers (14 instr/event of hackbench). */

/* Sender: wl_state counts messages written; wl_t0 is 1 while a write's
 * burst runs (its bytes reserved in the channel). Message k goes to
 * receiver k % fds of its group. */

/* The channel is full: the sender waits for room. */
static __attribute__((noinline)) void sender_blocks(struct hackbench *h, struct hb_channel *c,
						    struct task *t, struct action *a)
{
	if (wl_fifo_push(&c->writers, (int)t->wl_peer) < 0) {
		*a = (struct action){ .kind = ACT_EXIT }; /* out of memory: give up the task */
		return;
	}
	h->waiting[t->wl_peer] = true;
	*a = (struct action){ .kind = ACT_BLOCK };
}

/* The next write, if any is left. */
static inline __attribute__((always_inline)) void sender_write(struct hackbench *h,
							      const struct hb_route *r,
							      struct task *t, struct action *a)
{
	if (t->wl_state == per_task_msgs(h)) {
		*a = (struct action){ .kind = ACT_EXIT };
		return;
	}
	struct hb_channel *c = &h->chans[r->chan];
	if (c->used > 0 && c->used + h->footprint > h->capacity) {
		sender_blocks(h, c, t, a);
		return;
	}
	c->used += h->footprint;
	t->wl_t0 = 1;
	*a = h->write_cost;
}

/* The message written wakes its receiver, waiting for it; then the next
 * write. */
static __attribute__((noinline)) void sender_wakes(struct sim *s, struct hackbench *h,
						   const struct hb_route *r, struct task *t,
						   struct action *a, int receiver)
{
	wake(s, h, receiver);
	sender_write(h, r, t, a);
}

static inline __attribute__((always_inline)) void sender_next(struct sim *s, struct hackbench *h,
							     struct task *t, struct action *a)
{
	struct hb_route *r = &h->route[t->wl_peer];
	if (t->wl_t0) {
		/* The write completed: the message is readable. */
		struct hb_channel *c = &h->chans[r->chan];
		t->wl_t0 = 0;
		t->wl_state++;
		if (++r->chan == r->first + h->fds)
			r->chan = r->first;
		c->readable++;
		h->sent++;
		if (h->waiting[c->receiver]) {
			sender_wakes(s, h, r, t, a, c->receiver);
			return;
		}
	}
	sender_write(h, r, t, a);
}

/* Receiver: wl_state counts messages read; wl_t0 is 1 while a read's
 * burst runs (its message taken, its bytes not yet freed). */

/* The receiver has read all its messages; the last one to do so ends the
 * run. */
static __attribute__((noinline)) void receiver_done(struct sim *s, struct hackbench *h,
						    struct action *a)
{
	if (--h->receivers_left == 0) {
		h->finished_at = sim_now(s);
		sim_stop(s);
	}
	*a = (struct action){ .kind = ACT_EXIT };
}

/* The next read, or a wait for a message. */
static inline __attribute__((always_inline)) void receiver_read(struct sim *s, struct hackbench *h,
							       struct hb_channel *c, struct task *t,
							       struct action *a)
{
	if (t->wl_state == per_task_msgs(h)) {
		receiver_done(s, h, a);
		return;
	}
	if (c->readable == 0) {
		h->waiting[t->wl_peer] = true;
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	c->readable--;
	t->wl_t0 = 1;
	*a = h->read_cost;
}

/* The read freed room enough: every writer waiting for it wakes; then the
 * next read. */
static __attribute__((noinline)) void receiver_wakes_writers(struct sim *s, struct hackbench *h,
							     struct hb_channel *c, struct task *t,
							     struct action *a)
{
	int w;
	while ((w = wl_fifo_pop(&c->writers)) >= 0)
		wake(s, h, w);
	receiver_read(s, h, c, t, a);
}

static inline __attribute__((always_inline)) void receiver_next(struct sim *s, struct hackbench *h,
							       struct task *t, struct action *a)
{
	struct hb_channel *c = &h->chans[h->route[t->wl_peer].chan];
	if (t->wl_t0) {
		t->wl_t0 = 0;
		t->wl_state++;
		h->received++;
		c->used -= h->footprint;
		if (c->writers.len && writable(h, c)) {
			receiver_wakes_writers(s, h, c, t, a);
			return;
		}
	}
	receiver_read(s, h, c, t, a);
}

static void hackbench_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct hackbench *h = data;
	if (t->wl_role == 0)
		sender_next(s, h, t, a);
	else
		receiver_next(s, h, t, a);
}

static void hackbench_report(struct sim *s, void *data, struct run_result *r)
{
	struct hackbench *h = data;
	double secs = h->finished_at ? (double)h->finished_at * 1e-9 : 0;
	/* A run cut short by --duration completed this share of a run. */
	double total = (double)(h->groups * h->fds) * (double)per_task_msgs(h);
	double done = h->finished_at ? 1.0 : (double)h->received / total;
	double elapsed = wl_seconds(r);
	r->work_done = done;
	r->throughput = elapsed > 0 ? done * 3600.0 / elapsed : 0;
	wl_extra(r, "seconds", "s", secs);
	wl_extra(r, "messages_sent", "msgs", (double)h->sent);
	wl_extra(r, "messages_received", "msgs", (double)h->received);
}

static void hackbench_fini(void *data)
{
	struct hackbench *h = data;
	for (int64_t i = 0; h->chans && i < h->groups * h->fds; i++)
		wl_fifo_free(&h->chans[i].writers);
	free(h->chans);
	free(h->tasks);
	free(h->route);
	free(h->waiting);
}

const struct workload_ops workload_hackbench = {
	.name = "hackbench",
	.summary = "hackbench: groups of senders and receivers over sockets or pipes",
	.throughput_unit = "runs/h",
	.latency_what = "none",
	.params = hackbench_params,
	.nparams = WL_NPARAMS(hackbench_params),
	.data_size = sizeof(struct hackbench),
	.init = hackbench_init,
	.next = hackbench_next,
	.report = hackbench_report,
	.fini = hackbench_fini,
	.ends_run = true,
};

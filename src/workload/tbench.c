// SPDX-License-Identifier: GPL-2.0-only
/* tbench: dbench 4.0's tbench against tbench_srv over loopback
 * (github.com/sahlberg/dbench: dbench.c, sockio.c, tbench_srv.c, client.txt).
 *
 * Reproduces: `clients` client processes, each with its own forked server
 * process, in strict request/response: the client sends an SMB-like
 * request and blocks until the reply; the server blocks until a request,
 * answers it, and blocks again. Each message is a short burst on the
 * sender (kernel TCP loopback path msg_ns, the op's user work user_ns,
 * the payload copy at copy_gbps) during which the message is delivered:
 * the loopback path runs the receiver's side in the sender's softirq, and
 * its sk_data_ready() wakes the partner (WF_SYNC) before the sender has
 * finished -- the last tail_ns of the path (the rest of tcp_sendmsg(), the
 * return to user space, the next recv() up to its sleep) run while the
 * partner already computes its answer. Throughput follows wakeup latency,
 * C-state exit latency, frequency and where wake_affine() puts the pair.
 * Operations are drawn from client.txt's mix: ReadX 27 % (reply 4 KiB
 * 70 %, 60 KiB 14 %, 1 KiB 16 %: mean ~11.6 KB, A.2 counts 11.9 KB),
 * WriteX 8.6 % (request 64 KiB 32 %, 16 KiB 24 %, 4 KiB 25 %, 1 B 19 %:
 * mean ~25.9 KB vs 25.7), FIND_FIRST 6 % (200 B reply), and the rest
 * small (~70 B request, ~50 B reply). Reports MB/s of ReadX and WriteX
 * payload as tbench does, and max_latency (ms) of one operation, request
 * sent to reply received.
 *
 * Leaves out: the warm-up (the whole run counts), the SysV start barrier,
 * the parent's progress signal, TCP segmentation and ACKs, the NET_RX
 * softirq running the receiver side on the sender's CPU (its cost is in
 * msg_ns, charged to the sender), and file names.
 *
 * Defaults: clients = 10 (dbench's default nprocs; tbench users always
 * pass N). msg_ns = 5000, user_ns = 1000: ESTIMATES below A.2's 12-14 us
 * bursts measured in a KPTI VM. copy_gbps = 10 (A.2: ~0.1 us/KB memcpy).
 * tail_ns = 1500: ESTIMATE, about a third of msg_ns. */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/sim.h"
#include "wlutil.h"

struct tbench_pair {
	struct task *client, *server;
	struct rng rng;
	double req_bytes, resp_bytes, payload; /* the operation in flight */
	sim_ns sent_at;
	bool request_pending, reply_pending; /* sent, not yet taken */
	bool server_waiting; /* blocked for a request */
	bool client_waiting; /* blocked for the reply */
};

struct tbench {
	int64_t clients;
	int64_t msg_ns;
	int64_t user_ns;
	int64_t copy_gbps;
	int64_t tail_ns;
	struct tbench_pair *pairs;
	uint64_t sent, served, replied;
	/* Kept at init from the parameters and the machine's syscall_ns,
	 * which stay fixed for the run: a turn's cycles, and the send tail's
	 * burst (wl_work() of tail_ns). test_workloads fails for a turn
	 * without its system call or its user work (tbench_turn_has_its_syscall)
	 * and for a tail of another length (tbench_one_pair). */
	double turn_cycles;
	struct action tail;
};

static const struct tunable tbench_params[] = {
	{ "clients", "client/server pairs (tbench N)", TUNABLE_FIELD(struct tbench, clients), 10, 1,
	  100000, NULL },
	{ "msg_ns", "kernel loopback TCP work per message, ns on a 3 GHz core",
	  TUNABLE_FIELD(struct tbench, msg_ns), 5000, 0, 100000000, NULL },
	{ "user_ns", "user work per message (client or server), ns on a 3 GHz core",
	  TUNABLE_FIELD(struct tbench, user_ns), 1000, 0, 100000000, NULL },
	{ "copy_gbps", "payload copy bandwidth, GB/s (memory stall)",
	  TUNABLE_FIELD(struct tbench, copy_gbps), 10, 1, 1000, NULL },
	{ "tail_ns", "the sender's kernel work after its partner is woken (part of msg_ns), ns on "
	  "a 3 GHz core", TUNABLE_FIELD(struct tbench, tail_ns), 1500, 0, 100000000, NULL },
};

enum { ROLE_CLIENT, ROLE_SERVER };

/* Draws the next operation: request and reply sizes and the payload tbench
 * counts, from client.txt's mix (out of 1000). */
static void draw_op(struct tbench_pair *p)
{
	uint64_t op = rng_below(&p->rng, 1000), sz = rng_below(&p->rng, 100);
	double size;
	if (op < 271) { /* ReadX: 124,199 of 458,344 */
		size = sz < 70 ? 4096 : sz < 84 ? 61440 : 1024;
		p->req_bytes = 55;
		p->resp_bytes = size + 4;
		p->payload = size;
	} else if (op < 357) { /* WriteX: 39,502 */
		size = sz < 32 ? 65536 : sz < 56 ? 16384 : sz < 81 ? 4096 : 1;
		p->req_bytes = 51 + size;
		p->resp_bytes = 41;
		p->payload = size;
	} else if (op < 418) { /* FIND_FIRST: 27,765 */
		p->req_bytes = 81;
		p->resp_bytes = 200;
		p->payload = 0;
	} else {
		p->req_bytes = 70;
		p->resp_bytes = 50;
		p->payload = 0;
	}
}

static int tbench_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct tbench *b = data;
	if (b->tail_ns > b->msg_ns)
		return pm_fail(d, "--set tail_ns=%lld: more than msg_ns (%lld), of which it is the tail",
			       (long long)b->tail_ns, (long long)b->msg_ns);
	b->pairs = calloc((size_t)b->clients, sizeof(*b->pairs));
	if (!b->pairs)
		return pm_fail(d, "out of memory");
	for (int64_t i = 0; i < b->clients; i++) {
		struct tbench_pair *p = &b->pairs[i];
		char name[64];
		rng_init(&p->rng, sim_seed(s), UINT64_C(0x7462656e63680000) + (uint64_t)i);
		snprintf(name, sizeof(name), "tbench/%lld", (long long)i);
		p->client = sim_task_new(s, name, 0);
		snprintf(name, sizeof(name), "tbench_srv/%lld", (long long)i);
		p->server = sim_task_new(s, name, 0);
		if (!p->client || !p->server)
			return pm_fail(d, "out of memory");
		p->client->wl_role = ROLE_CLIENT;
		p->server->wl_role = ROLE_SERVER;
		p->client->wl_peer = p->server->wl_peer = (uint32_t)i;
	}
	/* One side's turn up to the delivery of its message: receive what
	 * arrived (syscall + copy out), its user work, send (the loopback
	 * path but its tail + copy in); the copies are turn()'s. */
	struct action a = wl_kernel(s, (double)sim_machine(s)->syscall_ns);
	struct action w = wl_work((double)(b->msg_ns - b->tail_ns + b->user_ns) / 1000.0, 0, true);
	wl_add(&a, &w);
	b->turn_cycles = a.cycles;
	b->tail = wl_work((double)b->tail_ns / 1000.0, 0, true);
	return 0;
}

/* A turn (tbench_init()) that receives `in` bytes and sends `out`, written
 * in place (a returned struct went through the stack). Its stall is the
 * copies alone: neither wl_kernel() nor wl_work() with no stall share
 * gives one. */
static void turn(struct action *a, const struct tbench *b, double in, double out)
{
	*a = (struct action){ .kind = ACT_RUN, .sys = true, .cycles = b->turn_cycles,
			      .stall_ns = (in + out) / (double)b->copy_gbps };
}

enum { ST_START, ST_SENT, ST_TAIL, ST_WAIT };

/* wl_state: ST_START; ST_SENT: the turn reached the delivery, the partner
 * is woken; ST_TAIL: the send path's tail ended; ST_WAIT: waiting for the
 * partner's message (blocked when none has come yet).
 *
 * The steps that call out (a wakeup, the reply's accounting, a draw) are
 * functions of their own, reached by a jump from tbench_next(), so that
 * the common steps that make no call (a block, the server's turn, the
 * start of a tail) save no registers: 11 instr/event of tbench. */

/* The client's first operation. */
static __attribute__((noinline)) void first_op(const struct tbench *b, struct tbench_pair *p,
					       struct task *t, struct action *a)
{
	draw_op(p);
	t->wl_state = ST_SENT;
	turn(a, b, 0, p->req_bytes);
}

/* The client has its reply: the operation's latency and payload are
 * counted, and the next one is drawn and sent. */
static __attribute__((noinline)) void reply_taken(struct sim *s, struct tbench *b,
						  struct tbench_pair *p, struct action *a)
{
	b->replied++;
	sim_record_latency(s, sim_now(s) - p->sent_at);
	sim_add_work(s, p->payload * 1e-6);
	double in = p->resp_bytes;
	draw_op(p);
	turn(a, b, in, p->req_bytes);
}

/* ST_WAIT: blocked until the partner's message, or it has come: the turn
 * that answers it. */
static inline __attribute__((always_inline)) void wait_or_turn(struct sim *s, struct tbench *b,
							      struct tbench_pair *p, struct task *t,
							      struct action *a, bool client)
{
	bool *mine = client ? &p->reply_pending : &p->request_pending;
	t->wl_state = ST_WAIT;
	if (!*mine) {
		*(client ? &p->client_waiting : &p->server_waiting) = true;
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	*mine = false;
	t->wl_state = ST_SENT;
	if (!client) {
		turn(a, b, p->req_bytes, p->resp_bytes);
		return;
	}
	reply_taken(s, b, p, a);
}

/* ST_SENT: the message is delivered, the partner woken if it waits; then
 * the send path's tail, if any. */
static __attribute__((noinline)) void delivered(struct sim *s, struct tbench *b,
						struct tbench_pair *p, struct task *t,
						struct action *a, bool client)
{
	if (client) {
		p->sent_at = sim_now(s);
		b->sent++;
		p->request_pending = true;
		if (p->server_waiting) {
			p->server_waiting = false;
			sim_wake_sync(s, p->server); /* sock_def_readable() */
		}
	} else {
		b->served++;
		p->reply_pending = true;
		if (p->client_waiting) {
			p->client_waiting = false;
			sim_wake_sync(s, p->client);
		}
	}
	if (b->tail_ns > 0) {
		t->wl_state = ST_TAIL;
		*a = b->tail;
		return;
	}
	wait_or_turn(s, b, p, t, a, client);
}

static void tbench_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct tbench *b = data;
	struct tbench_pair *p = &b->pairs[t->wl_peer];
	bool client = t->wl_role == ROLE_CLIENT;
	if (t->wl_state == ST_SENT) {
		delivered(s, b, p, t, a, client);
		return;
	}
	if (t->wl_state == ST_START && client) {
		first_op(b, p, t, a);
		return;
	}
	wait_or_turn(s, b, p, t, a, client);
}

static void tbench_report(struct sim *s, void *data, struct run_result *r)
{
	struct tbench *b = data;
	double secs = wl_seconds(r);
	wl_extra(r, "max_latency", "ms", (double)r->latency.max_ns / NS_PER_MS);
	wl_extra(r, "ops_per_s", "ops/s", secs > 0 ? (double)b->replied / secs : 0);
	wl_extra(r, "requests_sent", "msgs", (double)b->sent);
	wl_extra(r, "requests_served", "msgs", (double)b->served);
	wl_extra(r, "replies_received", "msgs", (double)b->replied);
}

static void tbench_fini(void *data)
{
	struct tbench *b = data;
	free(b->pairs);
}

const struct workload_ops workload_tbench = {
	.name = "tbench",
	.summary = "tbench: client/server pairs in request/response over loopback",
	.throughput_unit = "MB/s",
	.latency_what = "operation (request to reply)",
	.params = tbench_params,
	.nparams = WL_NPARAMS(tbench_params),
	.data_size = sizeof(struct tbench),
	.init = tbench_init,
	.next = tbench_next,
	.report = tbench_report,
	.fini = tbench_fini,
};

// SPDX-License-Identifier: GPL-2.0-only
/* oltp: JdbcRunner's Tiny TPC-C as the database server sees it
 * (JdbcRunner 1.3: sh2/jdbcrunner docs_ja/tpc-c.rst, tpcc.js; docs/sources.md 3).
 *
 * Reproduces: `agents` client connections, each served by one database
 * backend task, in a closed loop with no keying or think time (think_ms,
 * JdbcRunner's sleep time, is 0 by default): a transaction starts as soon
 * as the previous one committed. The mix is JdbcRunner's 10:10:1:1:1 of
 * New-Order, Payment, Order-Status, Delivery and Stock-Level, each a
 * sequence of statements (about 45, 9, 4, 70 and 2 round trips). For every
 * statement the backend
 *   - waits for the request: the client is remote, so the backend blocks
 *     (not iowait) for a network round trip (net_rtt_us) plus the client's
 *     own JDBC work, exponentially distributed around client_us, woken as
 *     by the NIC interrupt;
 *   - receives and sends over TCP: system time (two syscall entries from
 *     the machine's [costs] plus net_sys_us of stack work);
 *   - takes row locks where TPC-C takes them: New-Order locks its district
 *     row (SELECT ... FOR UPDATE), Payment its warehouse then its district
 *     row; both hold them to commit, and a backend finding a row locked
 *     waits (blocked, not iowait) until the holder commits and hands it
 *     over, in arrival order;
 *   - misses the buffer pool with probability page_miss_pct percent and
 *     reads the page: an iowait block of io_read_us;
 *   - executes: user time, exponentially distributed around stmt_us
 *     (ten times that for Stock-Level's join), stall_pct percent memory
 *     stall.
 * A read-write transaction's last statement (COMMIT) flushes the log
 * before it answers: an iowait block of fsync_us. Warehouse and district
 * are drawn uniformly over `warehouses` (JdbcRunner's scale factor).
 *
 * Reports the Tiny TPC-C score: New-Order transactions per minute (tpm),
 * with every transaction's response time (first request to commit reply,
 * as the client measures it) as the latency in ms, and the count of each
 * type, all types per minute and lock waits as extra figures.
 *
 * The server's own activity (server=1, the default):
 *   - the NIC: each connection's packets arrive on one receive queue (RSS
 *     hashes the flow; queue i of nic_queues, 0: one per CPU) whose
 *     interrupt irqbalance keeps on one CPU; the request's interrupt and
 *     the receive half of the TCP work (net_sys_us / 2, softirq) run there,
 *     and the backend is woken from that CPU; a reply's transmit completion
 *     interrupts the same CPU nic_itr_us later (interrupt moderation),
 *     costing nic_tx_irq_us. Two packets per statement cross the NIC.
 *   - the disk: a log flush or page read completes with an interrupt on
 *     disk_irq_cpu (one MSI vector: AHCI), which wakes the backend; the
 *     disk is busy for the whole wait (platform power).
 *   - PostgreSQL's background processes, with the defaults of 9.2 (RHEL
 *     7.0's; postgresql.conf.sample and the 9.2 documentation, 18.4.5 and
 *     18.5): the background writer wakes every bgwriter_delay (200 ms) and
 *     writes up to bgwriter_lru_maxpages (100) buffers, lru_multiplier (2)
 *     times the buffers allocated since (page misses); the checkpointer
 *     paces a checkpoint's writes with 100 ms sleeps (CheckpointWriteDelay)
 *     and writes what the transactions dirtied (dirty pages per New-Order,
 *     Payment and Delivery: ESTIMATES, ckpt_distinct_pct of them distinct
 *     within a checkpoint cycle) less what the background writer wrote;
 *     the WAL writer wakes every wal_writer_delay (200 ms); the statistics
 *     collector receives each backend's report at a commit at most every
 *     PGSTAT_STAT_INTERVAL (500 ms). Each buffer written costs
 *     buffer_write_us and dirties 8 KiB of page cache for the kernel's
 *     flusher (engine/writeback.c). These processes sleep on timers, which
 *     the idle governors see coming.
 * The database is taken to be PostgreSQL 9.2 (RHEL 7.0's; the seed does not
 * name it, JdbcRunner drives MySQL, PostgreSQL and Oracle alike).
 *
 * Transparent hugepages: PostgreSQL's buffer pool is shared memory, which
 * THP in 3.10 does not back (anonymous private memory only); the
 * backends' private memory is small, so thp_stall_cut_pct (the stall that
 * huge pages on private memory remove) defaults to 0.
 *
 * Leaves out: the client machine (only its round trip is modelled),
 * autovacuum (its launcher wakes once a minute), group commit, index and
 * page latches, deadlocks (the lock order warehouse, then district, has
 * none), Delivery's new_order row locks, rollbacks, and the 300 s warm-up
 * and 900 s measurement (the whole run counts).
 *
 * Defaults, from A.7 unless marked: agents = 16 and warehouses = 16
 * (JdbcRunner's -nAgents and scale factor defaults), think_ms = 0 (its
 * sleep time 0,0,0,0,0), mix 10:10:1:1:1, statements per type (A.7's
 * counts); stmt_us = 100 (A.7: "50 us to several ms per statement"),
 * client_us = 60 (A.7: JDBC work 20-100 us per statement),
 * net_rtt_us = 100 (1 GbE LAN round trip, ESTIMATE), net_sys_us = 10
 * (TCP send+receive stack work, ESTIMATE), stall_pct = 40 (ESTIMATE: about
 * half of DBMS execution time is stalls, Ailamaki et al., VLDB 1999),
 * page_miss_pct = 2 (ESTIMATE: 16 warehouses, ~1.6 GB, mostly cached),
 * io_read_us = 200 (SSD random read, ESTIMATE), fsync_us = 500 (an SSD's
 * fsync 0.05-2 ms). The later calibration target is
 * the tuned seed experiment (docs/sources.md 1.1); these defaults are not
 * fitted to it. */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/sim.h"
#include "wlutil.h"

enum tx_type { TX_NEW_ORDER, TX_PAYMENT, TX_ORDER_STATUS, TX_DELIVERY, TX_STOCK_LEVEL, TX_TYPES };

#define DISTRICTS 10
#define NO_LOCK (-1)

static const struct {
	const char *name;
	int weight;      /* in the 10:10:1:1:1 mix */
	int statements;  /* round trips, the last one the COMMIT */
	int cpu_factor;  /* statement CPU in units of stmt_us */
	bool writes;     /* COMMIT flushes the log */
	int lock_at[2];  /* statement taking the warehouse / district row lock */
} tx[TX_TYPES] = {
	[TX_NEW_ORDER] = { "new_order", 10, 45, 1, true, { NO_LOCK, 1 } },
	[TX_PAYMENT] = { "payment", 10, 9, 1, true, { 1, 2 } },
	[TX_ORDER_STATUS] = { "order_status", 1, 4, 1, false, { NO_LOCK, NO_LOCK } },
	[TX_DELIVERY] = { "delivery", 1, 70, 1, true, { NO_LOCK, NO_LOCK } },
	[TX_STOCK_LEVEL] = { "stock_level", 1, 2, 10, false, { NO_LOCK, NO_LOCK } },
};

enum agent_step {
	STEP_BEGIN,     /* pick the next transaction */
	STEP_REQUEST,   /* wait for the client's next statement */
	STEP_RECV,      /* the request arrived: receive it */
	STEP_LOCK,      /* take the row locks this statement needs */
	STEP_READ,      /* maybe read a page */
	STEP_EXEC,      /* execute */
	STEP_FLUSH,     /* COMMIT: flush the log */
	STEP_REPLY,     /* send the result */
	STEP_DONE,      /* the reply left: record, then think */
};

struct row_lock {
	int owner; /* agent index, or -1 */
	struct wl_fifo waiters;
};

struct agent {
	struct task *t;
	struct rng rng;
	enum agent_step step;
	enum tx_type type;
	int stmt;
	int lock_ids[2]; /* the rows this transaction locks, -1 none */
	int nheld;
	sim_ns t0;
	int nic_cpu; /* its flow's receive queue's CPU (nic_cpu()) */
};

/* The server's background processes (server=1). */
enum bg_proc { BG_BGWRITER, BG_WALWRITER, BG_CHECKPOINTER, BG_STATS, BG_PROCS };
static const char *const bg_names[BG_PROCS] = { "bgwriter", "walwriter", "checkpointer",
						"stats collector" };

/* A workload timer's argument: what completed, and for which agent. */
enum oltp_event { EV_REQUEST, EV_IO_DONE, EV_TX_DONE };
#define EVENT_SHIFT 24

struct oltp {
	int64_t agents;
	int64_t warehouses;
	int64_t think_ms;
	int64_t stmt_us;
	int64_t stall_pct;
	int64_t client_us;
	int64_t net_rtt_us;
	int64_t net_sys_us;
	int64_t page_miss_pct;
	int64_t io_read_us;
	int64_t fsync_us;
	int64_t server;
	int64_t nic_queues;
	int64_t nic_itr_us;
	int64_t nic_tx_irq_us;
	int64_t disk_irq_cpu;
	int64_t disk_irq_us;
	int64_t bgwriter_delay_ms, bgwriter_lru_maxpages, wal_writer_delay_ms, stats_interval_ms;
	int64_t buffer_write_us;
	int64_t dirty_new_order, dirty_payment, dirty_delivery, ckpt_distinct_pct;
	int64_t thp_stall_cut_pct;
	struct agent *agent;
	struct task *bg[BG_PROCS];
	sim_ns *last_report;    /* per agent: its last statistics report */
	uint64_t allocs;        /* buffers allocated (page misses) since the bgwriter's round */
	double dirtied;         /* distinct buffers dirtied, not yet written */
	uint64_t reports;       /* statistics messages queued for the collector */
	uint64_t buffers_written, bg_rounds;
	struct row_lock *locks; /* warehouses, then warehouses x DISTRICTS */
	int nlocks;
	struct action net_cost;
	/* A statement's receive and send halves (step_recv(), step_reply()),
	 * kept from init: they follow from the machine's syscall_ns and
	 * base_khz and the tunables, all fixed for the run. */
	struct action recv_cost, reply_cost;
	double rx_irq_ref_ns; /* the receive interrupt's softirq half (oltp_timer()) */
	uint64_t count[TX_TYPES];
	uint64_t lock_waits;
};

static const struct tunable oltp_params[] = {
	{ "agents", "client connections (JdbcRunner -nAgents)", TUNABLE_FIELD(struct oltp, agents),
	  16, 1, 100000, NULL },
	{ "warehouses", "scale factor: warehouses (each with 10 district rows)",
	  TUNABLE_FIELD(struct oltp, warehouses), 16, 1, 1000000, NULL },
	{ "think_ms", "client sleep between transactions, ms (JdbcRunner sleep time)",
	  TUNABLE_FIELD(struct oltp, think_ms), 0, 0, 100000000, NULL },
	{ "stmt_us", "mean backend CPU per statement, us on a 3 GHz core",
	  TUNABLE_FIELD(struct oltp, stmt_us), 100, 0, 100000000, NULL },
	{ "stall_pct", "share of statement CPU that is memory stall, %",
	  TUNABLE_FIELD(struct oltp, stall_pct), 40, 0, 100, NULL },
	{ "client_us", "client-side work between a reply and the next request, us",
	  TUNABLE_FIELD(struct oltp, client_us), 60, 0, 100000000, NULL },
	{ "net_rtt_us", "network round trip to the client, us", TUNABLE_FIELD(struct oltp, net_rtt_us),
	  100, 0, 100000000, NULL },
	{ "net_sys_us", "kernel TCP work per statement (receive + send), us on a 3 GHz core",
	  TUNABLE_FIELD(struct oltp, net_sys_us), 10, 0, 100000000, NULL },
	{ "page_miss_pct", "statements that read a page from storage, %",
	  TUNABLE_FIELD(struct oltp, page_miss_pct), 2, 0, 100, NULL },
	{ "io_read_us", "page read latency, us", TUNABLE_FIELD(struct oltp, io_read_us), 200, 0,
	  100000000, NULL },
	{ "fsync_us", "log flush latency at COMMIT, us", TUNABLE_FIELD(struct oltp, fsync_us), 500, 0,
	  100000000, NULL },
	{ "server", "1: the server's own activity (NIC and disk interrupts, the database's "
	  "background processes); 0: the backends alone", TUNABLE_FIELD(struct oltp, server), 1, 0, 1,
	  NULL },
	{ "nic_queues", "NIC receive queues, each one's interrupt on its own CPU (0: one per CPU)",
	  TUNABLE_FIELD(struct oltp, nic_queues), 0, 0, 1024, NULL },
	{ "nic_itr_us", "a reply's transmit-completion interrupt comes this long after it, us "
	  "(interrupt moderation)", TUNABLE_FIELD(struct oltp, nic_itr_us), 50, 0, 1000000, NULL },
	{ "nic_tx_irq_us", "transmit-completion interrupt's kernel work, us on a 3 GHz core",
	  TUNABLE_FIELD(struct oltp, nic_tx_irq_us), 1, 0, 1000000, NULL },
	{ "disk_irq_cpu", "CPU that takes the disk's completion interrupts",
	  TUNABLE_FIELD(struct oltp, disk_irq_cpu), 0, 0, 1023, NULL },
	{ "disk_irq_us", "disk completion interrupt's kernel work, us on a 3 GHz core",
	  TUNABLE_FIELD(struct oltp, disk_irq_us), 3, 0, 1000000, NULL },
	{ "bgwriter_delay_ms", "PostgreSQL bgwriter_delay, ms", TUNABLE_FIELD(struct oltp,
	  bgwriter_delay_ms), 200, 10, 10000, NULL },
	{ "bgwriter_lru_maxpages", "PostgreSQL bgwriter_lru_maxpages: buffers per round at most",
	  TUNABLE_FIELD(struct oltp, bgwriter_lru_maxpages), 100, 0, 1000, NULL },
	{ "wal_writer_delay_ms", "PostgreSQL wal_writer_delay, ms", TUNABLE_FIELD(struct oltp,
	  wal_writer_delay_ms), 200, 1, 10000, NULL },
	{ "stats_interval_ms", "a backend reports to the statistics collector at most this often "
	  "(PGSTAT_STAT_INTERVAL), ms", TUNABLE_FIELD(struct oltp, stats_interval_ms), 500, 1,
	  100000, NULL },
	{ "buffer_write_us", "CPU to write one 8 KiB buffer into the page cache, us on a 3 GHz core",
	  TUNABLE_FIELD(struct oltp, buffer_write_us), 8, 0, 100000, NULL },
	{ "dirty_new_order", "pages a New-Order dirties", TUNABLE_FIELD(struct oltp, dirty_new_order),
	  12, 0, 10000, NULL },
	{ "dirty_payment", "pages a Payment dirties", TUNABLE_FIELD(struct oltp, dirty_payment), 4, 0,
	  10000, NULL },
	{ "dirty_delivery", "pages a Delivery dirties", TUNABLE_FIELD(struct oltp, dirty_delivery),
	  20, 0, 10000, NULL },
	{ "ckpt_distinct_pct", "share of dirtied pages that are distinct within a checkpoint cycle, %",
	  TUNABLE_FIELD(struct oltp, ckpt_distinct_pct), 50, 0, 100, NULL },
	{ "thp_stall_cut_pct", "memory stall that transparent hugepages remove (private memory), %",
	  TUNABLE_FIELD(struct oltp, thp_stall_cut_pct), 0, 0, 100, NULL },
};

/* The CPU that takes agent idx's packets: its flow's receive queue. */
static int nic_cpu(const struct sim *s, const struct oltp *o, int idx)
{
	int queues = o->nic_queues > 0 ? (int)o->nic_queues : sim_ncpus(s);
	int q = idx % queues;
	return q % sim_ncpus(s);
}

static double us_at_3ghz(int64_t us)
{
	/* Kernel work given on a 3 GHz core, as the workloads' CPU figures. */
	return (double)us * NS_PER_US;
}

static int oltp_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct oltp *o = data;
	o->nlocks = (int)(o->warehouses * (1 + DISTRICTS));
	o->agent = calloc((size_t)o->agents, sizeof(*o->agent));
	o->locks = calloc((size_t)o->nlocks, sizeof(*o->locks));
	if (!o->agent || !o->locks)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < o->nlocks; i++)
		o->locks[i].owner = -1;
	o->net_cost = wl_kernel(s, 2.0 * (double)sim_machine(s)->syscall_ns);
	struct action stack = wl_work((double)o->net_sys_us, 0, true);
	wl_add(&o->net_cost, &stack);
	o->reply_cost = o->net_cost;
	o->reply_cost.cycles /= 2; /* the send half; the receive half at the request */
	o->reply_cost.stall_ns /= 2;
	/* The server's softirq on the NIC's CPU does the protocol work of a
	 * receive; the backend's recv() is a system call. */
	o->recv_cost = o->server ? wl_kernel(s, 2.0 * (double)sim_machine(s)->syscall_ns)
				 : o->reply_cost;
	o->rx_irq_ref_ns = us_at_3ghz(o->net_sys_us) / 2;
	if (o->disk_irq_cpu >= sim_ncpus(s))
		return pm_fail(d, "--set disk_irq_cpu=%lld: no such CPU (expected 0..%d)",
			       (long long)o->disk_irq_cpu, sim_ncpus(s) - 1);
	/* Its timers are device completions: the client's round trip (about
	 * net_rtt_us), a disk's, a reply's transmit completion (nic_itr_us),
	 * mostly due in the order they are posted. */
	sim_workload_timer_lane(s);
	if (o->server) {
		o->last_report = calloc((size_t)o->agents, sizeof(*o->last_report));
		if (!o->last_report)
			return pm_fail(d, "out of memory");
		for (int b = 0; b < BG_PROCS; b++) {
			o->bg[b] = sim_task_new(s, bg_names[b], 0);
			if (!o->bg[b])
				return pm_fail(d, "out of memory");
			o->bg[b]->wl_role = -1 - b;
		}
	}
	for (int64_t i = 0; i < o->agents; i++) {
		struct agent *ag = &o->agent[i];
		char name[64];
		rng_init(&ag->rng, sim_seed(s), UINT64_C(0x6f6c747000000000) + (uint64_t)i);
		snprintf(name, sizeof(name), "backend/%lld", (long long)i);
		ag->t = sim_task_new(s, name, 0);
		if (!ag->t)
			return pm_fail(d, "out of memory");
		ag->t->wl_role = (int)i;
		ag->nic_cpu = nic_cpu(s, o, (int)i); /* the CPUs are fixed for the run */
	}
	return 0;
}

static enum tx_type draw_type(struct rng *r)
{
	int total = 0;
	for (int i = 0; i < TX_TYPES; i++)
		total += tx[i].weight;
	int x = (int)rng_below(r, (uint64_t)total);
	for (int i = 0; i < TX_TYPES; i++) {
		if (x < tx[i].weight)
			return (enum tx_type)i;
		x -= tx[i].weight;
	}
	return TX_NEW_ORDER;
}

/* Blocks the agent until the workload timer `after` ns from now; false
 * when there is nothing to wait for. */
static bool wait_for(struct sim *s, int idx, sim_ns after, bool iowait, struct action *a)
{
	if (after <= 0)
		return false;
	uint32_t ev = (uint32_t)(iowait ? EV_IO_DONE : EV_REQUEST) << EVENT_SHIFT;
	if (sim_post_workload_timer(s, sim_now(s) + after, ev | (uint32_t)idx) < 0)
		return false; /* out of memory: skip the wait rather than hang */
	*a = (struct action){ .kind = ACT_BLOCK, .iowait = iowait };
	return true;
}

/* A statement: TCP work and packets; at COMMIT the statistics report. */
static void sent_reply(struct sim *s, struct oltp *o, int idx)
{
	if (!o->server)
		return;
	sim_net_packets(s, 2);
	sim_post_workload_timer(s, sim_now(s) + o->nic_itr_us * NS_PER_US,
				((uint32_t)EV_TX_DONE << EVENT_SHIFT) | (uint32_t)idx);
}

static void committed(struct sim *s, struct oltp *o, struct agent *ag, int idx)
{
	if (!o->server)
		return;
	int64_t pages = ag->type == TX_NEW_ORDER ? o->dirty_new_order
		      : ag->type == TX_PAYMENT	    ? o->dirty_payment
		      : ag->type == TX_DELIVERY	    ? o->dirty_delivery
						    : 0;
	o->dirtied += (double)pages * (double)o->ckpt_distinct_pct / 100.0;
	sim_ns now = sim_now(s);
	if (now - o->last_report[idx] >= o->stats_interval_ms * NS_PER_MS) {
		o->last_report[idx] = now;
		o->reports++;
		sim_wake(s, o->bg[BG_STATS]);
	}
}

/* Takes the locks statement `stmt` needs; false when it must wait (queued
 * on the lock, which is handed over at the holder's commit). */
static bool take_locks(struct oltp *o, struct agent *ag, int idx)
{
	for (int k = ag->nheld; k < 2; k++) {
		if (tx[ag->type].lock_at[k] != ag->stmt || ag->lock_ids[k] < 0)
			continue;
		struct row_lock *l = &o->locks[ag->lock_ids[k]];
		if (l->owner == idx) {
			ag->nheld = k + 1; /* handed over while we waited */
			continue;
		}
		if (l->owner >= 0) {
			o->lock_waits++;
			if (wl_fifo_push(&l->waiters, idx) < 0)
				return true; /* out of memory: proceed unlocked */
			return false;
		}
		l->owner = idx;
		ag->nheld = k + 1;
	}
	return true;
}

/* COMMIT releases the rows: each goes to its first waiter, woken. */
static void release_locks(struct sim *s, struct oltp *o, struct agent *ag)
{
	for (int k = 0; k < 2; k++) {
		if (ag->lock_ids[k] < 0 || o->locks[ag->lock_ids[k]].owner != ag->t->wl_role)
			continue;
		struct row_lock *l = &o->locks[ag->lock_ids[k]];
		l->owner = wl_fifo_pop(&l->waiters);
		if (l->owner >= 0)
			sim_wake(s, o->agent[l->owner].t);
	}
	ag->nheld = 0;
}

static void begin(struct oltp *o, struct agent *ag, sim_ns now)
{
	ag->type = draw_type(&ag->rng);
	ag->stmt = 0;
	ag->nheld = 0;
	ag->t0 = now;
	int w = (int)rng_below(&ag->rng, (uint64_t)o->warehouses);
	int dist = (int)rng_below(&ag->rng, DISTRICTS);
	ag->lock_ids[0] = tx[ag->type].lock_at[0] == NO_LOCK ? -1 : w;
	ag->lock_ids[1] = tx[ag->type].lock_at[1] == NO_LOCK
				  ? -1
				  : (int)o->warehouses + w * DISTRICTS + dist;
}

/* The background processes: sleep on a timer (or, the statistics
 * collector, for a message), then work. */
static void bg_next(struct sim *s, struct oltp *o, struct task *t, struct action *a)
{
	int b = -1 - t->wl_role;
	sim_ns now = sim_now(s);
	double buffers = 0, us = 0;
	/* wl_state: 0 asleep (next: work), 1 worked (next: sleep). */
	if (t->wl_state == 1) {
		t->wl_state = 0;
		if (b == BG_STATS) {
			if (o->reports) {
				o->reports--;
				t->wl_state = 1;
				*a = wl_work(30, 30, false); /* receive and fold one report: ESTIMATE */
				return;
			}
			*a = (struct action){ .kind = ACT_BLOCK };
			return;
		}
		sim_ns delay = (b == BG_BGWRITER ? o->bgwriter_delay_ms
				: b == BG_WALWRITER ? o->wal_writer_delay_ms
						    : 100) * NS_PER_MS;
		*a = (struct action){ .kind = ACT_SLEEP, .until = now + delay };
		return;
	}
	t->wl_state = 1;
	switch (b) {
	case BG_BGWRITER: {
		double want = 2.0 * (double)o->allocs;
		buffers = want < (double)o->bgwriter_lru_maxpages ? want : (double)o->bgwriter_lru_maxpages;
		if (buffers > o->dirtied)
			buffers = o->dirtied;
		o->allocs = 0;
		us = 20; /* the LRU scan: ESTIMATE */
		break;
	}
	case BG_CHECKPOINTER:
		buffers = o->dirtied;
		us = 5;
		break;
	case BG_WALWRITER:
		us = 20; /* XLogBackgroundFlush() with nothing left to flush: ESTIMATE */
		break;
	default:
		if (o->reports) {
			o->reports--;
			*a = wl_work(30, 30, false);
			return;
		}
		t->wl_state = 0;
		*a = (struct action){ .kind = ACT_BLOCK };
		return;
	}
	o->dirtied -= buffers;
	o->buffers_written += (uint64_t)buffers;
	o->bg_rounds++;
	sim_dirty(s, buffers * 8192.0);
	*a = wl_work(us + buffers * (double)o->buffer_write_us, 10, true);
}

/* The statement arrives: the receive half of the network cost (with the
 * server, only the recv() system call: o->recv_cost). False when there is
 * nothing to run (the server's softirq did it all). */
static bool step_recv(struct oltp *o, struct agent *ag, struct action *a)
{
	ag->step = STEP_LOCK;
	*a = o->recv_cost;
	return !o->server || a->cycles > 0;
}

/* The statement's own work; false when it has none. */
static bool step_exec(struct sim *s, struct oltp *o, struct agent *ag, struct action *a)
{
	bool last = ag->stmt == tx[ag->type].statements - 1;
	ag->step = last && tx[ag->type].writes ? STEP_FLUSH : STEP_REPLY;
	double us = rng_exponential(&ag->rng, (double)(o->stmt_us * tx[ag->type].cpu_factor));
	*a = wl_work(us, o->stall_pct, false);
	if (o->thp_stall_cut_pct && sim_thp(s) == THP_ALWAYS)
		a->stall_ns *= 1.0 - (double)o->thp_stall_cut_pct / 100.0;
	return a->cycles > 0 || a->stall_ns > 0;
}

/* The reply goes out (the send half of the network cost); after the
 * last statement the transaction commits. */
static void step_reply(struct sim *s, struct oltp *o, struct agent *ag, int idx,
		       struct action *a)
{
	if (ag->stmt == tx[ag->type].statements - 1) {
		release_locks(s, o, ag);
		committed(s, o, ag, idx);
		ag->step = STEP_DONE;
	} else {
		ag->stmt++;
		ag->step = STEP_REQUEST;
	}
	sent_reply(s, o, idx);
	*a = o->reply_cost;
}

/* The transaction is done: its latency as the client sees it, then the
 * think time; false without one. */
static bool step_done(struct sim *s, struct oltp *o, struct agent *ag, sim_ns now,
		      struct action *a)
{
	/* The client sees the reply half a round trip later. */
	sim_record_latency(s, now - ag->t0 + o->net_rtt_us * NS_PER_US / 2);
	o->count[ag->type]++;
	if (ag->type == TX_NEW_ORDER)
		sim_add_work(s, 1);
	ag->step = STEP_BEGIN;
	if (o->think_ms > 0) {
		*a = (struct action){ .kind = ACT_SLEEP, .until = now + o->think_ms * NS_PER_MS };
		return true;
	}
	return false;
}

static void oltp_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct oltp *o = data;
	if (t->wl_role < 0) {
		bg_next(s, o, t, a);
		return;
	}
	int idx = t->wl_role;
	struct agent *ag = &o->agent[idx];
	sim_ns now = sim_now(s);
	for (;;) {
		switch (ag->step) {
		case STEP_BEGIN:
			begin(o, ag, now);
			ag->step = STEP_REQUEST;
			continue;
		case STEP_REQUEST:
			ag->step = STEP_RECV;
			/* The client's share varies from statement to statement (JDBC
			 * work, its own scheduling, GC): exponential around client_us. */
			if (wait_for(s, idx, o->net_rtt_us * NS_PER_US +
					     (sim_ns)(rng_exponential(&ag->rng, (double)o->client_us) *
						      NS_PER_US), false, a))
				return;
			continue;
		case STEP_RECV:
			if (step_recv(o, ag, a))
				return;
			continue;
		case STEP_LOCK:
			if (!take_locks(o, ag, idx)) {
				*a = (struct action){ .kind = ACT_BLOCK };
				return;
			}
			ag->step = STEP_READ;
			continue;
		case STEP_READ:
			ag->step = STEP_EXEC;
			if (rng_below(&ag->rng, 100) < (uint64_t)o->page_miss_pct &&
			    wait_for(s, idx, o->io_read_us * NS_PER_US, true, a)) {
				o->allocs++;
				if (o->server)
					sim_disk_io(s, o->io_read_us * NS_PER_US);
				return;
			}
			continue;
		case STEP_EXEC:
			if (step_exec(s, o, ag, a))
				return;
			continue;
		case STEP_FLUSH:
			ag->step = STEP_REPLY;
			if (wait_for(s, idx, o->fsync_us * NS_PER_US, true, a)) {
				if (o->server)
					sim_disk_io(s, o->fsync_us * NS_PER_US);
				return;
			}
			continue;
		case STEP_REPLY:
			step_reply(s, o, ag, idx, a);
			return;
		case STEP_DONE:
			if (step_done(s, o, ag, now, a))
				return;
			continue;
		}
	}
}

/* A network round trip, page read or log flush the agent waited for
 * completed; or a reply's transmit completion. */
static void oltp_timer(struct sim *s, void *data, uint32_t arg)
{
	struct oltp *o = data;
	int idx = (int)(arg & ((1u << EVENT_SHIFT) - 1));
	enum oltp_event ev = (enum oltp_event)(arg >> EVENT_SHIFT);
	if (!o->server) {
		if (ev != EV_TX_DONE)
			sim_wake(s, o->agent[idx].t);
		return;
	}
	switch (ev) {
	case EV_REQUEST: {
		int cpu = o->agent[idx].nic_cpu;
		sim_interrupt(s, cpu, o->rx_irq_ref_ns);
		sim_wake_from(s, o->agent[idx].t, cpu);
		return;
	}
	case EV_IO_DONE:
		sim_interrupt(s, (int)o->disk_irq_cpu, us_at_3ghz(o->disk_irq_us));
		sim_wake_from(s, o->agent[idx].t, (int)o->disk_irq_cpu);
		return;
	case EV_TX_DONE:
		sim_interrupt(s, o->agent[idx].nic_cpu, us_at_3ghz(o->nic_tx_irq_us));
		return;
	}
}

static void oltp_report(struct sim *s, void *data, struct run_result *r)
{
	struct oltp *o = data;
	double minutes = wl_seconds(r) / 60.0;
	uint64_t all = 0;
	for (int i = 0; i < TX_TYPES; i++)
		all += o->count[i];
	r->throughput = minutes > 0 ? r->work_done / minutes : 0;
	wl_extra(r, "tpm_all", "tpm", minutes > 0 ? (double)all / minutes : 0);
	wl_extra(r, "transactions", "tx", (double)all);
	for (int i = 0; i < TX_TYPES; i++)
		wl_extra(r, tx[i].name, "tx", (double)o->count[i]);
	wl_extra(r, "lock_waits", "waits", (double)o->lock_waits);
	if (o->server)
		wl_extra(r, "buffers_written", "buffers", (double)o->buffers_written);
}

static void oltp_fini(void *data)
{
	struct oltp *o = data;
	for (int i = 0; o->locks && i < o->nlocks; i++)
		wl_fifo_free(&o->locks[i].waiters);
	free(o->locks);
	free(o->agent);
	free(o->last_report);
}

const struct workload_ops workload_oltp = {
	.name = "oltp",
	.summary = "JdbcRunner Tiny TPC-C: database backends serving a closed-loop client",
	.throughput_unit = "tpm",
	.latency_what = "transaction",
	.params = oltp_params,
	.nparams = WL_NPARAMS(oltp_params),
	.data_size = sizeof(struct oltp),
	.init = oltp_init,
	.next = oltp_next,
	.timer = oltp_timer,
	.report = oltp_report,
	.fini = oltp_fini,
};

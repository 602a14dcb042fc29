// SPDX-License-Identifier: GPL-2.0-only
/* ebizzy: ebizzy 0.3 (Valerie Henson; ebizzy.c).
 *
 * Reproduces: one process of `threads` threads (0: twice the online CPUs,
 * ebizzy's default, so run queues are oversubscribed 2:1) that never
 * sleep; each loops on records: pick a chunk, allocate a copy, memcpy the
 * chunk (chunk_kb, 512 KiB by default: memory bandwidth, copy_gbps, not
 * frequency-scaled), binary-search a key, free the copy (cpu_ns of
 * frequency-scaled work for the search, the copy loop and malloc/free).
 * So it scales weakly with frequency, as the reference says. Reports
 * records/s as ebizzy prints it.
 *
 * Leaves out: the start-flag spin, the mmap/munmap and page-fault phase
 * before glibc's mmap threshold adapts (mmap_lock contention, TLB
 * shootdowns), -m, -R random sizes, shared memory bandwidth between
 * cores, and randomness: every chunk costs the same, so the seed does not
 * matter.
 *
 * Defaults: ebizzy's -t 2 x CPUs, -n 10 chunks of -s 512 KiB (the chunk
 * count only matters for cache footprint, which is not modelled); the
 * copy at 20 GB/s (~26 us) plus 10 us of CPU gives ~36 us a record, inside
 * A.8's ESTIMATE of 20-50 us per iteration. */
#include <stdio.h>

#include "../engine/sim.h"
#include "wlutil.h"

struct ebizzy {
	int64_t threads;
	int64_t chunk_kb;
	int64_t copy_gbps;
	int64_t cpu_ns;
	struct action record;
};

static const struct tunable ebizzy_params[] = {
	{ "threads", "threads (0: twice the online CPUs, ebizzy -t default)",
	  TUNABLE_FIELD(struct ebizzy, threads), 0, 0, 100000, NULL },
	{ "chunk_kb", "chunk size copied per record, KiB (ebizzy -s)",
	  TUNABLE_FIELD(struct ebizzy, chunk_kb), 512, 1, 1048576, NULL },
	{ "copy_gbps", "memcpy bandwidth of one thread, GB/s (memory stall)",
	  TUNABLE_FIELD(struct ebizzy, copy_gbps), 20, 1, 1000, NULL },
	{ "cpu_ns", "CPU work per record besides the copy's stall, ns on a 3 GHz core",
	  TUNABLE_FIELD(struct ebizzy, cpu_ns), 10000, 0, 1000000000, NULL },
};

static int ebizzy_init(struct sim *s, void *data, struct pm_diag *d)
{
	struct ebizzy *e = data;
	if (e->threads == 0)
		e->threads = 2 * (int64_t)sim_ncpus(s);
	e->record = wl_work((double)e->cpu_ns / 1000.0, 0, false);
	/* bytes / (GB/s) = ns */
	e->record.stall_ns = (double)e->chunk_kb * 1024.0 / (double)e->copy_gbps;
	for (int64_t i = 0; i < e->threads; i++) {
		char name[64];
		snprintf(name, sizeof(name), "ebizzy/%lld", (long long)i);
		if (!sim_task_new(s, name, 0))
			return pm_fail(d, "out of memory");
	}
	return 0;
}

/* wl_state: records started; wl_t0: when the current one started. */
static void ebizzy_next(struct sim *s, void *data, struct task *t, struct action *a)
{
	struct ebizzy *e = data;
	sim_ns now = sim_now(s);
	if (t->wl_state++) {
		sim_add_work(s, 1);
		sim_record_latency(s, now - t->wl_t0);
	}
	t->wl_t0 = now;
	*a = e->record;
}

static void ebizzy_report(struct sim *s, void *data, struct run_result *r)
{
	wl_extra(r, "records", "records", r->work_done);
}

const struct workload_ops workload_ebizzy = {
	.name = "ebizzy",
	.summary = "ebizzy: threads copying and searching memory chunks",
	.throughput_unit = "records/s",
	.latency_what = "record time",
	.params = ebizzy_params,
	.nparams = WL_NPARAMS(ebizzy_params),
	.data_size = sizeof(struct ebizzy),
	.init = ebizzy_init,
	.next = ebizzy_next,
	.report = ebizzy_report,
};

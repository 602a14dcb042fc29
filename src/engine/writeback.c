// SPDX-License-Identifier: GPL-2.0-only
/* Dirty page cache and the kernel's flusher (vm.dirty_* sysctls; --set
 * dirty_ratio, dirty_background_ratio, dirty_writeback_centisecs,
 * dirty_expire_centisecs). Workloads report what they write into the page
 * cache (sim_dirty()); the flusher writes it back, and each write-back
 * costs the flusher's CPU time (kworker, on CPU 0) and the disk's busy
 * time at [platform] disk_mbps (platform power).
 *
 * A run is a stretch of a steady state in which pages have been dirtied at
 * the same rate for longer than dirty_expire: the flusher then writes back,
 * on average, what is dirtied, and the sysctls decide the pattern:
 *   - while rate x dirty_expire stays under dirty_background_ratio of
 *     memory, the flusher wakes every dirty_writeback_centisecs and writes
 *     what expired: one burst per period (mm/page-writeback.c,
 *     fs/fs-writeback.c wb_check_old_data_flush());
 *   - above it, background writeback runs without pause (wb_over_bg_thresh()),
 *     modelled as a write every BACKGROUND_CHUNK_MS;
 *   - dirty_ratio is where writers would be throttled (balance_dirty_pages()),
 *     which the model does not do; it is only kept at least the background
 *     ratio, as the kernel keeps it.
 * dirty_writeback_centisecs = 0 disables periodic writeback. */
#include "hwmodel.h"
#include "sim_internal.h"

#define BACKGROUND_CHUNK_MS 100
#define PAGE_BYTES 4096.0
/* CPU time of writing back one page (bio submission, page-state changes),
 * ESTIMATE of the code path at ~1 instruction per cycle: ~2500 cycles. */
#define WRITEBACK_PAGE_NS 800

sim_ns writeback_period(const struct machine *m, int64_t background_ratio, int64_t writeback_cs,
			int64_t expire_cs, double rate_bps)
{
	double mb = m->mem.size_mb > 0 ? m->mem.size_mb : 16384;
	double bg = mb * 1024 * 1024 * (double)background_ratio / 100.0;
	double expire_s = (double)expire_cs / 100.0;
	if (writeback_cs <= 0)
		return 0;
	if (rate_bps * expire_s > bg)
		return BACKGROUND_CHUNK_MS * NS_PER_MS;
	return writeback_cs * 10 * NS_PER_MS;
}

static sim_ns next_period(const struct sim *s, double rate_bps)
{
	return writeback_period(s->m, s->par.dirty_background_ratio, s->par.dirty_writeback_cs,
				s->par.dirty_expire_cs, rate_bps);
}

void writeback_init(struct sim *s)
{
	s->writeback_last = s->now;
	if (s->par.dirty_writeback_cs > 0)
		sim_post(s, s->now + next_period(s, 0), EV_WRITEBACK, 0, 0, 0);
}

void writeback_run(struct sim *s)
{
	sim_ns dt = s->now - s->writeback_last;
	double bytes = s->dirty_new_bytes;
	double rate = dt > 0 ? bytes / ((double)dt * 1e-9) : 0;
	s->dirty_new_bytes = 0;
	s->writeback_last = s->now;
	s->writeback_runs++;
	if (bytes > 0) {
		s->written_back_bytes += bytes;
		if (s->m->plat.disk_mbps > 0)
			s->disk_busy_ns += (sim_ns)(bytes / (s->m->plat.disk_mbps * 1e6) * 1e9);
		cpu_interrupt(s, &s->cpus[0], (sim_ns)(bytes / PAGE_BYTES * WRITEBACK_PAGE_NS));
	}
	sim_ns period = next_period(s, rate);
	if (period > 0)
		sim_post(s, s->now + period, EV_WRITEBACK, 0, 0, 0);
}

void sim_dirty(struct sim *s, double bytes)
{
	if (bytes > 0)
		s->dirty_new_bytes += bytes;
}

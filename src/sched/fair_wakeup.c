// SPDX-License-Identifier: GPL-2.0-only
/* The wakeup fast path of Linux 6.1's select_task_rq_fair()
 * (kernel/sched/fair.c): record_wakee() and wake_wide() decide whether the
 * waker's CPU may pull the wakee; wake_affine() (WA_IDLE, then WA_WEIGHT
 * with WA_BIAS) picks the waker's or the previous CPU as the target; and
 * select_idle_sibling() looks for an idle CPU near the target: the target,
 * the previous CPU, the recently used one, an idle SMT sibling of the
 * previous CPU, then a scan of the target's LLC that SIS_UTIL limits by
 * how busy the LLC is (an idle core first while the LLC has one). No idle
 * CPU there: the target. Nothing here scans beyond one LLC, so a wakeup's
 * cost does not grow with the machine. Fork and exec take the slow path
 * (fair_idlest.c). */
#include "fair_select.h"

#include "fair_capacity.h"
#include "placement_lib.h"
#include "uclamp.h"

/* record_wakee(): how often the waker switches between wakees, halved
 * once a second (HZ jiffies). */
static void record_wakee(sim_ns now, struct task *waker, const struct task *p)
{
	if (!waker)
		return;
	if (now > waker->wakee_flip_decay_ts + NS_PER_SEC) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay_ts = now;
	}
	if (waker->last_wakee != p->id + 1) {
		waker->last_wakee = p->id + 1;
		waker->wakee_flips++;
	}
}

/* wake_wide(): a waker of many (flips at least the LLC's size, and that
 * many times the wakee's) spreads its wakees rather than pulling them. */
static bool wake_wide(const struct task *waker, const struct task *p, int llc_size)
{
	uint32_t master = waker ? waker->wakee_flips : 0, slave = p->wakee_flips;
	if (master < slave) {
		uint32_t t = master;
		master = slave;
		slave = t;
	}
	return !(slave < (uint32_t)llc_size || master < slave * (uint32_t)llc_size);
}

/* wake_affine_idle(): -1 for no opinion. `share_cache`: whether the two
 * CPUs share their last-level cache (cpus_share_cache()); `prev_idle`:
 * whether prev is idle (sv_cpu_idle()). */
static inline int wake_affine_idle(const struct sim *s, int this_cpu, int prev, bool prev_idle,
				   bool sync, bool share_cache)
{
	/* An idle waking CPU is an interrupt: only move within a cache. */
	if (sv_cpu_idle(s, this_cpu) && share_cache)
		return prev_idle ? prev : this_cpu;
	if (sync && sv_nr_running(s, this_cpu) == 1)
		return this_cpu;
	if (prev_idle)
		return prev;
	return -1;
}

/* wake_affine_weight(): the waker's CPU if, with the wakee, it would be
 * less loaded than the previous CPU without it (WA_BIAS favours the
 * previous CPU by half the domain's imbalance_pct), each load weighed
 * against the other CPU's capacity. */
static int wake_affine_weight(struct sim *s, const struct sched_domain *sd, const struct task *p,
			      const struct task *waker, int this_cpu, int prev, bool sync)
{
	int64_t this_eff = sv_cpu_load(s, this_cpu);
	if (sync && waker) {
		int64_t current_load = waker->pelt.util_avg;
		if (current_load > this_eff)
			return this_cpu;
		this_eff -= current_load;
	}
	const uint32_t *cap = sv_topology(s)->capacity;
	int64_t task_load = p->pelt.util_avg;
	this_eff = (this_eff + task_load) * 100 * cap[prev];
	int64_t prev_eff = ((int64_t)sv_cpu_load(s, prev) - task_load) *
			   (100 + (sd->imbalance_pct - 100) / 2) * cap[this_cpu];
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff ? this_cpu : -1;
}

/* update_idle_cpu_scan() (SIS_UTIL): the CPUs select_idle_cpu() may scan,
 * from the LLC's summed utilization x (per CPU): llc_weight * (1 - (x *
 * 117 / 100)^2), none once the LLC is 85 % busy. The kernel refreshes it
 * at the LLC domain's periodic balance, whose interval starts at the
 * domain's weight in ms (sd_init()); here it is refreshed when a wakeup
 * needs it and is that old. */
static inline __attribute__((always_inline)) int llc_nr_idle_scan(struct sim *s, int llc)
{
	const struct sched_topology *topo = sv_topology(s);
	struct llc_shared *sh = &topo->shared[llc];
	const struct cpu_group *g = &topo->llc[llc];
	sim_ns now = sv_now(s);
	if (sh->scan_at >= 0 && now - sh->scan_at < (sim_ns)g->n * NS_PER_MS)
		return sh->nr_idle_scan;
	uint64_t sum_util = 0;
	for (int i = 0; i < g->n; i++)
		sum_util += sv_cpu_util(s, g->cpu[i]);
	const uint64_t pct = 117, scale = PELT_SCALE;
	uint64_t x = sum_util / (uint64_t)g->n;
	uint64_t tmp = x * x * pct * pct / (10000 * scale);
	if (tmp > scale)
		tmp = scale;
	sh->nr_idle_scan = (int)((scale - tmp) * (uint64_t)g->n / scale);
	sh->scan_at = now;
	return sh->nr_idle_scan;
}

/* select_idle_core(): `cpu`'s whole core idle? Returns cpu if so; else
 * marks the core scanned and remembers in *idle_cpu the first idle thread
 * seen, the fallback. */
static int select_idle_core(const struct sim *s, const struct task *p, int cpu, uint32_t gen,
			    int *idle_cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *core = &topo->core[topo->cpu[cpu].core];
	bool idle = true;
	for (int i = 0; i < core->n; i++) {
		int sib = core->cpu[i];
		if (!sv_cpu_idle(s, sib)) {
			idle = false;
			if (*idle_cpu == -1)
				continue;
			break;
		}
		if (*idle_cpu == -1 && task_allowed(p, sib))
			*idle_cpu = sib;
	}
	if (idle)
		return cpu;
	topo->core_mark[topo->cpu[cpu].core] = gen;
	return -1;
}

/* select_idle_smt(): an idle SMT sibling of `cpu`. */
static inline __attribute__((always_inline)) int select_idle_smt(const struct sim *s,
								 const struct task *p, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *core = &topo->core[topo->cpu[cpu].core];
	for (int i = 0; i < core->n; i++) {
		int sib = core->cpu[i];
		if (sib != cpu && task_allowed(p, sib) && sv_cpu_idle(s, sib))
			return sib;
	}
	return -1;
}

/* The first idle CPU of `count` in the LLC's list from position `start`
 * on, wrapping round; -1 if none. select_idle_cpu()'s scan for an idle CPU
 * by a task that may run anywhere, the common case: the scan below
 * without its affinity test, its count and its wrap test per CPU. */
static inline __attribute__((always_inline)) int
first_idle_from(const struct sim *s, const struct cpu_group *g, int start, int count)
{
	if (count > g->n)
		count = g->n;
	int end = start + count < g->n ? start + count : g->n;
	for (int j = start; j < end; j++)
		if (sv_cpu_idle(s, g->cpu[j]))
			return g->cpu[j];
	for (int j = 0; j < start + count - g->n; j++)
		if (sv_cpu_idle(s, g->cpu[j]))
			return g->cpu[j];
	return -1;
}

/* select_idle_cpu(): scan the target's LLC from the CPU after it, in CPU
 * order: for an idle core while the LLC is known to have one (and note
 * when it has none), else for an idle CPU, at most nr_idle_scan CPUs. */
static inline __attribute__((always_inline)) int select_idle_cpu(struct sim *s, const struct task *p,
								 bool has_idle_core, int target)
{
	const struct sched_topology *topo = sv_topology(s);
	int llc = topo->cpu[target].llc;
	const struct cpu_group *g = &topo->llc[llc];
	int nr = llc_nr_idle_scan(s, llc) + 1;
	if (nr == 1)
		return -1; /* an overloaded LLC is unlikely to have an idle CPU */
	/* From the CPU after the target in the LLC's list (in CPU order),
	 * wrapping round. */
	int start = topo->cpu[target].llc_pos + 1;
	if (start == g->n)
		start = 0;
	if (!has_idle_core && !p->affinity)
		return first_idle_from(s, g, start, nr - 1);
	uint32_t gen = ++topo->shared[llc].scan_gen;
	int idle_cpu = -1;
	for (int k = 0, j = start; k < g->n; k++, j++) {
		if (j == g->n)
			j = 0;
		int cpu = g->cpu[j];
		if (!task_allowed(p, cpu))
			continue;
		if (has_idle_core) {
			if (topo->core_mark[topo->cpu[cpu].core] == gen)
				continue;
			int i = select_idle_core(s, p, cpu, gen, &idle_cpu);
			if (i >= 0)
				return i;
		} else {
			if (!--nr)
				return -1;
			if (sv_cpu_idle(s, cpu)) {
				idle_cpu = cpu;
				break;
			}
		}
	}
	if (has_idle_core)
		topo->shared[llc].has_idle_cores = false;
	return idle_cpu;
}

/* select_idle_capacity(), or the target if it finds nothing; out of line,
 * as only a machine of asymmetric capacities takes it. */
__attribute__((noinline)) static int
select_idle_capacity_or(struct sim *s, struct task *p, const struct sched_domain *sd, int target)
{
	int i = select_idle_capacity(s, p, sd, target);
	return i >= 0 ? i : target;
}

/* select_idle_sibling() from its third shortcut on, the recently used
 * CPU; `util`, `umin`, `umax`: the task's figures for asym_fits_cpu().
 * It and the scans it makes are inline in both its callers
 * (select_wake_recent(), select_wake_slow()): a busy machine's wakeup
 * (hackbench) then makes no call on its way through them. */
static inline __attribute__((always_inline)) int
select_idle_sibling_recent(struct sim *s, struct task *p, int prev, int target, unsigned long util,
			   unsigned long umin, unsigned long umax)
{
	const struct sched_topology *topo = sv_topology(s);
	int recent = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent >= 0 && recent != prev && recent != target &&
	    cpus_share_cache(topo, recent, target) && sv_cpu_idle(s, recent) &&
	    task_allowed(p, recent) && asym_fits_cpu(s, util, umin, umax, recent))
		return recent;
	if (sched_asym_cpucap_active(topo)) {
		const struct sched_domain *sd = sd_asym_cpucapacity(topo, target);
		if (sd)
			return select_idle_capacity_or(s, p, sd, target);
	}
	bool has_idle_core = false;
	if (topo->smt) {
		has_idle_core = topo->cpu[target].shared->has_idle_cores;
		if (!has_idle_core && cpus_share_cache(topo, prev, target)) {
			int i = select_idle_smt(s, p, prev);
			if (i >= 0)
				return i;
		}
	}
	int i = select_idle_cpu(s, p, has_idle_core, target);
	return i >= 0 ? i : target;
}

/* select_fallback_rq(): an allowed CPU of the same package, else any.
 * Out of line: only a task whose affinity rules its chosen CPU out comes
 * here, so the wakeup's fast path keeps its registers to itself. */
__attribute__((noinline)) static int fallback_cpu(const struct sim *s, const struct task *p, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *pkg = &topo->pkg[topo->cpu[cpu].pkg];
	for (int i = 0; i < pkg->n; i++)
		if (task_allowed(p, pkg->cpu[i]))
			return pkg->cpu[i];
	for (int c = 0; c < topo->ncpus; c++)
		if (task_allowed(p, c))
			return c;
	return cpu;
}

/* `cpu` if the task may run there, else select_fallback_rq()'s. */
static inline int allowed_or_fallback(const struct sim *s, const struct task *p, int cpu)
{
	return task_allowed(p, cpu) ? cpu : fallback_cpu(s, p, cpu);
}

/* select_idle_sibling() (v6.6): an idle CPU that shares the target's
 * cache, or the target, then the affinity test. Its first two shortcuts
 * (the target idle, the previous CPU idle and cache affine) are inline
 * in the wakeup, its cold paths out of line, each reached by a jump, so
 * that the common path keeps no registers for them: they find the
 * previous CPU (p->cpu) themselves. From the recently used CPU on, with
 * the task's figures for asym_fits_cpu(): */
__attribute__((noinline)) static int select_wake_recent(struct sim *s, struct task *p, int target,
							unsigned long util, unsigned long umin,
							unsigned long umax)
{
	return allowed_or_fallback(
		s, p, select_idle_sibling_recent(s, p, p->cpu, target, util, umin, umax));
}

/* On a machine of asymmetric capacities each shortcut also needs the task
 * to fit the CPU (asym_fits_cpu()), and the search is
 * select_idle_capacity() over the domain that spans every capacity. */
__attribute__((noinline)) static int select_wake_asym(struct sim *s, struct task *p, int target)
{
	const struct sched_topology *topo = sv_topology(s);
	int prev = p->cpu;
	sv_task_sync(s, p);
	unsigned long util = task_util_est(p);
	unsigned long umin = uclamp_eff_min(p, sv_knobs(s));
	unsigned long umax = uclamp_eff_max(p, sv_knobs(s));
	if (sv_cpu_idle(s, target) && asym_fits_cpu(s, util, umin, umax, target))
		return allowed_or_fallback(s, p, target);
	/* The previous CPU is cache affine and idle: don't be stupid. */
	if (prev != target && cpus_share_cache(topo, prev, target) && sv_cpu_idle(s, prev) &&
	    asym_fits_cpu(s, util, umin, umax, prev))
		return allowed_or_fallback(s, p, prev);
	return select_wake_recent(s, p, target, util, umin, umax);
}

/* The CPU a wakeup arrives on: a device's interrupt (no CPU known) is
 * taken as arriving on the previous CPU. */
static inline int waking_cpu(const struct task *p, const struct select_ctx *w)
{
	return w->this_cpu >= 0 ? w->this_cpu : p->cpu;
}

/* The rest on a symmetric machine, in one function (the wakeups of a busy
 * machine come this way): with `w`, wake_affine() where
 * wake_affine_idle() had no opinion, the waker's CPU or the previous one
 * by their loads, then select_idle_sibling()'s shortcuts; without,
 * `target`'s shortcuts have failed. Then select_idle_sibling() from the
 * recently used CPU on (asym_fits_cpu() holds for every CPU there,
 * whatever the task's figures). */
__attribute__((noinline)) static int select_wake_slow(struct sim *s, struct task *p,
						      const struct select_ctx *w, int target)
{
	const struct sched_topology *topo = sv_topology(s);
	int prev = p->cpu;
	if (w) {
		int cpu = waking_cpu(p, w);
		const struct sched_domain *sd = cpu_domain_spanning(topo, cpu, prev);
		int affine = wake_affine_weight(s, sd, p, w->waker, cpu, prev, w->sync);
		target = affine == cpu ? cpu : prev;
		if (sched_asym_cpucap_active(topo))
			return select_wake_asym(s, p, target);
		if (sv_cpu_idle(s, target))
			return allowed_or_fallback(s, p, target);
		if (prev != target && cpus_share_cache(topo, prev, target) && sv_cpu_idle(s, prev))
			return allowed_or_fallback(s, p, prev);
	}
	return allowed_or_fallback(
		s, p, select_idle_sibling_recent(s, p, prev, target, 0, 0, UCLAMP_SCALE));
}

/* select_idle_sibling(p, prev, prev): the wakeup without wake_affine(). */
static inline __attribute__((always_inline)) int select_wake_prev(struct sim *s, struct task *p,
								  int prev, bool prev_idle)
{
	if (sched_asym_cpucap_active(sv_topology(s)))
		return select_wake_asym(s, p, prev);
	if (prev_idle)
		return allowed_or_fallback(s, p, prev);
	return select_wake_slow(s, p, NULL, prev);
}

/* The wakeup from a CPU other than the previous one: wake_affine() at the
 * lowest domain that spans the two, unless the waker wakes wide, then
 * select_idle_sibling(). Every path that goes on from here is a jump.
 * select_idle_sibling()'s first two shortcuts are written out for its two
 * possible targets, the waking CPU and the previous one. */
__attribute__((noinline)) static int select_wake_affine(struct sim *s, struct task *p,
							const struct select_ctx *w, int prev, int cpu,
							bool prev_idle)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_place *a = &topo->cpu[cpu], *b = &topo->cpu[prev];
	if (!wake_wide(w->waker, p, a->llc_size) && task_allowed(p, cpu)) {
		/* The lowest domain of the waking CPU that spans prev
		 * (for_each_domain(); cpu_domain_spanning() written out, for
		 * the shared cache it finds), if any: wake_affine() between
		 * the two (select_wake_slow() looks the domain up again). */
		bool share_cache = a->llc == b->llc;
		enum sd_level l = a->core == b->core ? SDL_SMT
				  : share_cache      ? SDL_MC
				  : a->pkg == b->pkg ? SDL_DIE
						     : SDL_NUMA;
		if (topo->cpu_dom_from[cpu][l]) {
			int target = wake_affine_idle(s, cpu, prev, prev_idle, w->sync, share_cache);
			if (target < 0)
				return select_wake_slow(s, p, w, -1);
			if (target == cpu) {
				/* select_idle_sibling(p, prev, cpu) */
				if (sched_asym_cpucap_active(topo))
					return select_wake_asym(s, p, cpu);
				if (sv_cpu_idle(s, cpu))
					return allowed_or_fallback(s, p, cpu);
				if (share_cache && prev_idle)
					return allowed_or_fallback(s, p, prev);
				return select_wake_slow(s, p, NULL, cpu);
			}
		}
	}
	return select_wake_prev(s, p, prev, prev_idle);
}

/* The wakeup. Out of line, so that the entry points reach it by a jump
 * (select_recorded()), and small: its two common cases decide here
 * without wake_affine() and save no registers. A wakeup on the previous
 * CPU itself (a timer's, a device's, a waker's there) has no
 * wake_affine(): select_idle_sibling(p, prev, prev). And where the
 * previous CPU is idle and shares the waking CPU's cache (pingpong's
 * every wakeup), every path of select_wake_affine() returns it, so none
 * is taken: wake_affine_idle() picks prev, or the waking CPU when that
 * runs only the (sync) waker, and then select_idle_sibling() finds that
 * target busy (it would have been idle only where wake_affine_idle()
 * picked prev), and prev idle and cache affine; without wake_affine()
 * (no domain spans both, a wide waker, a waking CPU the task may not
 * use) select_idle_sibling(p, prev, prev) returns the idle prev at once.
 * Not where capacities differ: there each shortcut also asks whether the
 * task fits, and the target matters. */
__attribute__((noinline)) static int select_wake(struct sim *s, struct task *p,
						 const struct select_ctx *w)
{
	const struct sched_topology *topo = sv_topology(s);
	int prev = p->cpu, cpu = waking_cpu(p, w);
	bool prev_idle = sv_cpu_idle(s, prev);
	if ((prev_idle && cpus_share_cache(topo, cpu, prev) && !sched_asym_cpucap_active(topo)) ||
	    cpu == prev)
		return select_wake_prev(s, p, prev, prev_idle);
	return select_wake_affine(s, p, w, prev, cpu, prev_idle);
}

void fair_record_wakee(struct sim *s, const struct select_ctx *w, const struct task *p)
{
	if (w->kind == SELECT_WAKE && p->cpu >= 0)
		record_wakee(sv_now(s), w->waker, p);
}

/* Fork and exec balancing: the slow path, out of line. */
__attribute__((noinline)) static int select_new(struct sim *s, struct task *p,
						const struct select_ctx *w)
{
	/* A new task starts on its parent's CPU (sched_fork()); one with no
	 * parent on CPU 0. */
	int from = w->kind == SELECT_EXEC ? p->cpu : w->this_cpu;
	if (from < 0)
		from = p->cpu >= 0 ? p->cpu : 0;
	return allowed_or_fallback(s, p,
				   fair_find_idlest_cpu(s, p, from, p->cpu >= 0 ? p->cpu : from));
}

/* The choice after record_wakee(), always a CPU the task may use: inline
 * in both entry points, a jump to the path that decides (nothing is left
 * to do after it, so the default policy's wakeup saves no registers on
 * the way). */
static inline __attribute__((always_inline)) int select_recorded(struct sim *s, struct task *p,
								 const struct select_ctx *w)
{
	return w->kind == SELECT_WAKE && p->cpu >= 0 ? select_wake(s, p, w) : select_new(s, p, w);
}

int fair_select_task_rq(struct sim *s, struct task *p, const struct select_ctx *w)
{
	fair_record_wakee(s, w, p);
	return select_recorded(s, p, w);
}

int fair_select_task_rq_recorded(struct sim *s, struct task *p, const struct select_ctx *w)
{
	return select_recorded(s, p, w);
}

void fair_update_idle_core(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	struct llc_shared *sh = topo->cpu[cpu].shared;
	if (!topo->smt || sh->has_idle_cores)
		return;
	const struct cpu_group *core = &topo->core[topo->cpu[cpu].core];
	for (int i = 0; i < core->n; i++)
		if (core->cpu[i] != cpu && !sv_cpu_idle(s, core->cpu[i]))
			return;
	sh->has_idle_cores = true;
}

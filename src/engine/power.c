// SPDX-License-Identifier: GPL-2.0-only
/* Power model and energy integration (the formulas are documented in
 * machine/machine.h). Each core and each package holds its present power;
 * before any change, the energy used since the last change is added, so
 * energy is the exact integral of a piecewise-constant power. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "core_power.h"
#include "sim_internal.h"

static double leakage_w(const struct cpu_type *t, double volts)
{
	double vmax = t->pstates[t->npstates - 1].mv / 1000.0;
	return t->leak_w * (volts / vmax) * exp(t->leak_beta * (volts - vmax));
}

int power_tables(struct sim *s)
{
	for (int k = 0; k < s->ntypes; k++) {
		struct sim_type *ty = &s->types[k];
		const struct cpu_type *t = ty->t;
		int threads = t->threads_per_core;
		ty->dyn_w = calloc((size_t)t->npstates, sizeof(double));
		ty->leak_w = calloc((size_t)t->npstates, sizeof(double));
		ty->activity_by_busy = calloc((size_t)threads + 1, sizeof(double));
		ty->idle_w = calloc((size_t)s->m->ncstates, sizeof(*ty->idle_w));
		if (!ty->dyn_w || !ty->leak_w || !ty->activity_by_busy || !ty->idle_w)
			return -1;
		for (int i = 0; i < s->m->ncstates; i++)
			ty->idle_w[i] = (struct core_idle_w){
				.w = t->cstates[i].power_w,
				.c0 = t->cstates[i].poll != 0,
				.at_vid = t->cstates[i].leak_at_vid != 0,
				.turbo = t->cstates[i].turbo_active != 0,
			};
		for (int i = 0; i < t->npstates; i++) {
			const struct pstate *ps = &t->pstates[i];
			double volts = ps->mv / 1000.0;
			ty->dyn_w[i] = t->ceff_nf * 1e-9 * volts * volts * (ps->khz * 1e3);
			ty->leak_w[i] = leakage_w(t, volts);
		}
		for (int active = 0; active <= threads; active++) {
			double activity = 1.0;
			if (threads > 1)
				activity += (t->smt_activity - 1.0) * ((active ? active : 1) - 1) /
					    (threads - 1);
			ty->activity_by_busy[active] = activity;
		}
	}
	return 0;
}

/* A busy core's clock is one the uncore's rule reads: its package keeps
 * the fastest (uncore_busy_khz()). Its threads' speed follows the P-state
 * (cpu_speed() reads speed_solo; --check: check_invariants()). */
static void set_eff_idx(struct sim *s, struct sim_core *core, int idx)
{
	int old = core->eff_idx;
	core->eff_idx = idx;
	core->speed_solo = s->types[core->type].speed[idx];
	if (idx != old && core->nbusy && s->pkgs[core->pkg].busy_cores) {
		const uint32_t *khz = s->types[core->type].khz;
		uncore_busy_khz(s, core->pkg, khz[old], khz[idx]);
	}
}

/* The P-state a core's threads run at in C0 but for an exit ramp: the
 * policy's, under the package's turbo ceiling for the type and the
 * core's own top. */
int core_pstate_target(const struct sim *s, int ci)
{
	const struct sim_core *core = &s->cores[ci];
	const struct sim_cpu *c = &s->cpus[core->cpus[0]];
	int idx = s->policies[c->policy].cur_idx;
	int cap = s->pkgs[c->pkg].cap_idx[c->type];
	if (core->own_cap_idx < cap)
		cap = core->own_cap_idx;
	return idx < cap ? idx : cap;
}

/* The exit ramp's lowest P-state (engine/exit_ramp.c), else the target;
 * inlined in pkg_turbo_eval()'s walk, which calls it for every core. */
static inline __attribute__((always_inline)) void pstate_refresh(struct sim *s, int ci)
{
	struct sim_core *core = &s->cores[ci];
	if (core->ncpus == 0)
		return;
	set_eff_idx(s, core, core->ramping ? 0 : core_pstate_target(s, ci));
}

void core_pstate_refresh(struct sim *s, int ci)
{
	pstate_refresh(s, ci);
}

void policy_pstate_changed(struct sim *s, int pi)
{
	const struct sim_policy *sp = &s->policies[pi];
	for (int i = 0; i < sp->p.ncpus; i++) {
		const struct sim_cpu *c = &s->cpus[sp->cpus[i]];
		if (s->cores[c->core].cpus[0] == c->id)
			core_pstate_refresh(s, c->core);
	}
}

static void observe_core(struct sim *s, int ci)
{
	const struct sim_core *core = &s->cores[ci];
	double w = core->p_dyn + core->p_static;
	if (s->obs && s->obs->core_power && w != core->obs_w) {
		s->cores[ci].obs_w = w;
		s->obs->core_power(s->obs->ctx, ci, s->now, w);
	}
}

/* core_power_set(), then the observer (a core with CPUs). */
static bool core_power(struct sim *s, int ci)
{
	bool active = core_power_set(s, &s->cores[ci], CORE_ANY);
	if (s->cores[ci].ncpus)
		observe_core(s, ci);
	return active;
}

static void turbo_count_moved(struct sim *s, int p, int type);

/* What a core's change asks beyond its own power, in this order: the
 * observer told the power, the power controller a count of active cores
 * out of its window (turbo_active_changed()), the uncore's clock a target
 * that may have moved (uncore_follow()). */
__attribute__((noinline)) void core_update_tell(struct sim *s, int ci, bool turbo_moved)
{
	const struct sim_core *core = &s->cores[ci];
	if (core->ncpus)
		observe_core(s, ci);
	if (turbo_moved)
		turbo_count_moved(s, core->pkg, core->type);
	uncore_follow(s, core->pkg);
}

void core_update(struct sim *s, int ci)
{
	core_update_in(s, &s->cores[ci], ci, CORE_ANY);
}

/* The deepest package C-state every idle core of the package allows. */
static int pkg_choose_cstate(const struct sim *s, int p)
{
	const struct machine *m = s->m;
	int depth = m->ncstates - 1;
	for (int i = 0; i < s->topo.pkg[p].n; i++) {
		const struct sim_cpu *c = &s->cpus[s->topo.pkg[p].cpu[i]];
		if (c->mode != CPU_IDLE)
			return -1;
		if (c->cstate < depth)
			depth = c->cstate;
	}
	int best = -1;
	for (int i = 0; i < m->npkg_cstates; i++)
		if (m->pkg_cstates[i].requires <= depth)
			best = i;
	return best;
}

/* The uncore's power in the package's present state. */
static inline double pkg_uncore_w(const struct sim *s, int p)
{
	const struct sim_pkg *pkg = &s->pkgs[p];
	double w = pkg->pkg_cstate >= 0 ? s->m->pkg_cstates[pkg->pkg_cstate].power_w
					: uncore_running_w(s, p);
	if (s->cluster_power) /* the clusters' shared logic, counted with the uncore */
		w += cluster_power_w(s, p);
	if (pkg->ncores_online == 0)
		w = 0;
	return w;
}

bool pkg_power_consistent(const struct sim *s, int p)
{
	return s->pkgs[p].p_uncore == pkg_uncore_w(s, p);
}

static void pkg_reevaluate(struct sim *s, int p)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	int was = pkg->pkg_cstate;
	pkg->pkg_cstate = pkg->nbusy_cores ? -1 : pkg_choose_cstate(s, p);
	/* Idle cores whose power follows the package's voltage (leak_at_vid):
	 * their energy so far at the old one, then the new. */
	if (s->idle_at_vid && was != pkg->pkg_cstate)
		for (int i = 0; i < pkg->ncores_walk; i++)
			if (s->cores[pkg->first_core + i].nbusy == 0)
				core_power(s, pkg->first_core + i);
	pkg->p_uncore = pkg_uncore_w(s, p);
	if (s->obs && s->obs->uncore_power && pkg->p_uncore != pkg->obs_w) {
		pkg->obs_w = pkg->p_uncore;
		s->obs->uncore_power(s->obs->ctx, p, s->now, pkg->p_uncore);
	}
}

/* The ceiling of type `t` in the package for `n` of its cores active:
 * its turbo bins', under the power controller's (engine/power_limit.c). */
static int turbo_cap_at(const struct sim *s, const struct sim_pkg *pkg, int t, int n)
{
	int cap = s->types[t].turbo_cap_idx[n];
	return cap < pkg->limit_idx[t] ? cap : pkg->limit_idx[t];
}

/* ...for its present active cores. */
static int turbo_cap(const struct sim *s, const struct sim_pkg *pkg, int t)
{
	return turbo_cap_at(s, pkg, t, pkg->nturbo_cores[t]);
}

/* The counts of active cores of type `t` about the present one whose
 * ceiling is cap_idx[t] (turbo_lo, turbo_span): a change of the count
 * within them leaves the power controller nothing to do. Its inputs are
 * cap_idx[t] and limit_idx[t], which move only in pkg_turbo_eval() (as
 * the controller's limits move: power_limit.c), and the pending flag
 * (turbo_active_changed()). */
static void turbo_window_set(const struct sim *s, struct sim_pkg *pkg, int t)
{
	int n = pkg->nturbo_cores[t], lo = n, hi = n;
	int top = s->types[t].t->cores;
	while (lo > 0 && turbo_cap_at(s, pkg, t, lo - 1) == pkg->cap_idx[t])
		lo--;
	while (hi < top && turbo_cap_at(s, pkg, t, hi + 1) == pkg->cap_idx[t])
		hi++;
	pkg->turbo_lo[t] = lo;
	pkg->turbo_span[t] = (unsigned)(hi - lo);
}

bool pkg_turbo_window_consistent(const struct sim *s, int p)
{
	const struct sim_pkg *pkg = &s->pkgs[p];
	for (int t = 0; t < s->ntypes; t++) {
		int n = pkg->nturbo_cores[t];
		if ((unsigned)(n - pkg->turbo_lo[t]) > pkg->turbo_span[t])
			return false;
		if (pkg->turbo_eval_pending)
			continue; /* every count: the evaluation comes anyway */
		for (int k = 0; k <= s->types[t].t->cores; k++)
			if ((unsigned)(k - pkg->turbo_lo[t]) <= pkg->turbo_span[t] &&
			    turbo_cap_at(s, pkg, t, k) != pkg->cap_idx[t])
				return false;
	}
	return true;
}

/* Applies the turbo ceilings for the package's present active cores of
 * each type (each type's bins count its own cores). */
void pkg_turbo_eval(struct sim *s, int p)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	pkg->turbo_eval_pending = false;
	for (int t = 0; t < s->ntypes; t++) {
		int cap = turbo_cap(s, pkg, t);
		bool moved = cap != pkg->cap_idx[t];
		pkg->cap_idx[t] = cap;
		turbo_window_set(s, pkg, t);
		if (!moved)
			continue;
		/* The turbo ceiling moved: each core's C0 time is accounted at
		 * the old one (the threads in C0 are a busy core's: nbusy),
		 * then the core moves. A CPU's account reads its own core's
		 * P-state only, so core by core does as CPU by CPU first. */
		for (int i = 0; i < pkg->ncores_walk; i++) {
			struct sim_core *core = &s->cores[pkg->first_core + i];
			if (core->type != t)
				continue;
			for (int k = 0; core->nbusy && k < core->ncpus; k++)
				if (s->cpus[core->cpus[k]].mode != CPU_IDLE)
					cpu_sync(s, &s->cpus[core->cpus[k]]);
			pstate_refresh(s, pkg->first_core + i);
		}
		/* Busy cores run at the new ceiling; halted cores that leak at
		 * their domain's voltage (leak_at_vid) follow it too. */
		for (int i = 0; i < pkg->ncores_walk; i++) {
			struct sim_core *core = &s->cores[pkg->first_core + i];
			if (core->ncpus && (core->nbusy || s->idle_at_vid) && core->type == t)
				core_update(s, pkg->first_core + i);
		}
		/* In CPU order: cpu_arm_done() gives the deadlines their
		 * sequence numbers. */
		const struct cpu_group *g = &s->topo.pkg[p];
		for (int i = 0; i < g->n; i++) {
			struct sim_cpu *c = &s->cpus[g->cpu[i]];
			if (c->mode == CPU_RUNNING && c->type == t) {
				cpu_set_speed(s, c);
				cpu_arm_done(s, c);
			}
		}
	}
}


/* The package's state after a core joined or left the busy ones, as it
 * goes to or from idle or has cluster power: the busy list (an uncore
 * model), and one re-evaluation of the package. The uncore's clock
 * follows the busy cores: the core's update, which comes next, would move it
 * and re-evaluate the package a second time. Moved first, one
 * re-evaluation does for both, but for an observer of the uncore's
 * power, which is told the value between. */
static void pkg_core_busy_more(struct sim *s, int ci, int delta, int before)
{
	int p = s->cores[ci].pkg;
	struct sim_pkg *pkg = &s->pkgs[p];
	if (pkg->busy_cores) {
		uncore_core_busy(s, &s->cores[ci], pkg, ci, delta, before);
		pkg->unc_stale = true; /* the count went to or from 0 (cluster power: maybe not) */
		if (!(s->obs && s->obs->uncore_power))
			uncore_clock_follow(s, p);
	}
	pkg_reevaluate(s, p);
}

/* A busy change that moves the package's count to or from 0, or has
 * cluster power: pkg_core_busy_more() (its re-evaluation may move the
 * package C-state the core's power reads, so it comes first), then the
 * core's update, which knows the core's state as its caller does: in C0
 * after a thread entered it (delta 1), halted after the last left it
 * (-1). Out of line, so that the usual step, inline in the idle
 * loop's entry and exit (core_power.h), stays small. */
static inline __attribute__((always_inline)) void core_thread_pkg_more(struct sim *s, int ci,
									 const int delta, int before)
{
	pkg_core_busy_more(s, ci, delta, before);
	core_update_in(s, &s->cores[ci], ci, delta > 0 ? CORE_IN_C0 : CORE_HALTED);
}

__attribute__((noinline)) void core_busy_pkg_more(struct sim *s, int ci, int before)
{
	core_thread_pkg_more(s, ci, 1, before);
}

__attribute__((noinline)) void core_idle_pkg_more(struct sim *s, int ci, int before)
{
	core_thread_pkg_more(s, ci, -1, before);
}

/* A core joined (delta 1) or left the busy cores of a package that keeps
 * their list (an uncore model), the count staying above 0: the list,
 * then the core's update as its caller knows it. Out of line as above;
 * the caller's core and package pointers come along (core is
 * s->cores[ci], pkg its package), not found again from ci. */
static inline __attribute__((always_inline)) void core_thread_list(struct sim *s,
								     struct sim_core *core,
								     struct sim_pkg *pkg, int ci,
								     const int delta, int before)
{
	uncore_core_busy(s, core, pkg, ci, delta, before);
	core_update_at(s, core, ci, pkg, delta > 0 ? CORE_IN_C0 : CORE_HALTED);
}

__attribute__((noinline)) void core_busy_list(struct sim *s, struct sim_core *core,
					      struct sim_pkg *pkg, int ci, int before)
{
	core_thread_list(s, core, pkg, ci, 1, before);
}

__attribute__((noinline)) void core_idle_list(struct sim *s, struct sim_core *core,
					      struct sim_pkg *pkg, int ci, int before)
{
	core_thread_list(s, core, pkg, ci, -1, before);
}


/* A count of turbo-active cores out of its window (turbo_window_set()):
 * the package's power controller re-evaluates the turbo ceiling on its
 * own period (turbo_eval_us), not at every C-state change. */
static void turbo_count_moved(struct sim *s, int p, int type)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	sim_ns every = s->par.turbo_eval_us * NS_PER_US;
	if (every == 0) {
		pkg_turbo_eval(s, p);
	} else if (turbo_cap(s, pkg, type) != pkg->cap_idx[type]) {
		pkg->turbo_eval_pending = true;
		/* Whatever the counts do before it, the evaluation comes. */
		for (int t = 0; t < s->ntypes; t++) {
			pkg->turbo_lo[t] = 0;
			pkg->turbo_span[t] = UINT_MAX;
		}
		sim_post(s, (s->now / every + 1) * every, EV_TURBO_EVAL, (uint32_t)p, 0, 0);
	} else {
		turbo_window_set(s, pkg, type); /* the same ceiling further on */
	}
}

void power_init(struct sim *s)
{
	uncore_init(s);
	cluster_idle_init(s);
	for (int p = 0; p < s->npkgs; p++) {
		struct sim_pkg *pkg = &s->pkgs[p];
		/* Cores with no CPU online (--cpus) have no threads to change
		 * state: their power stays 0 and P-state walks pass them by
		 * (core_pstate_refresh()), so the walks may stop at the last
		 * online one. */
		pkg->ncores_walk = 0;
		for (int i = 0; i < pkg->ncores; i++)
			if (s->cores[pkg->first_core + i].ncpus)
				pkg->ncores_walk = i + 1;
		for (int t = 0; t < s->ntypes; t++) {
			pkg->cap_idx[t] = s->types[t].turbo_cap_idx[0];
			turbo_window_set(s, pkg, t);
		}
		for (int i = 0; i < pkg->ncores; i++)
			core_pstate_refresh(s, pkg->first_core + i);
		pkg->last = s->now;
		pkg_reevaluate(s, p);
	}
	for (int i = 0; i < s->ncores; i++) {
		s->cores[i].last = s->now;
		core_update(s, i);
	}
	/* The run starts with the ceiling of the cores active now (idle ones in
	 * a turbo_active state count), as if it had been evaluated before. */
	for (int p = 0; p < s->npkgs; p++)
		pkg_turbo_eval(s, p);
}

void pkg_uncore_clock(struct sim *s, int p, uint32_t khz)
{
	pkg_sync(s, &s->pkgs[p]);
	uncore_clock_set(s, p, khz);
	pkg_reevaluate(s, p);
}

void pkg_idle_changed(struct sim *s, int p)
{
	pkg_sync(s, &s->pkgs[p]);
	pkg_reevaluate(s, p);
}

void power_flush(struct sim *s)
{
	for (int i = 0; i < s->ncores; i++)
		core_update(s, i);
	for (int p = 0; p < s->npkgs; p++)
		pkg_sync(s, &s->pkgs[p]);
}

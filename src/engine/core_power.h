// SPDX-License-Identifier: GPL-2.0-only
/* A core's power step when one of its threads enters or leaves C0: the
 * core's busy count and power, its package's busy count (the package's
 * energy so far first) and turbo-active count (engine/power.c). Inline
 * here so that the idle loop's entry and exit (cpu.c's set_mode()) run
 * the usual step without a call: as a leaf of its own, the step's call,
 * register saves and the core's address cost 10 to 15 instructions at
 * every idle entry and exit. What asks more goes out of line (power.c).
 * Only engine/power.c and engine/cpu.c include this. */
#ifndef PMLAB_ENGINE_CORE_POWER_H
#define PMLAB_ENGINE_CORE_POWER_H

#include "sim_internal.h"

/* power.c: what a core's change asks beyond its own power (an observer,
 * a turbo count out of its window, an uncore target that may have
 * moved)... */
void core_update_tell(struct sim *s, int ci, bool turbo_moved);
/* ...and a thread's C0 entry (busy) or exit (idle) that moves the
 * package's busy count to or from 0 or has cluster power (pkg_more), or
 * keeps a list of busy cores (list): the package's step, then the
 * core's. `before`: the package's busy count before the move. */
void core_busy_pkg_more(struct sim *s, int ci, int before);
void core_idle_pkg_more(struct sim *s, int ci, int before);
void core_busy_list(struct sim *s, struct sim_core *core, struct sim_pkg *pkg, int ci, int before);
void core_idle_list(struct sim *s, struct sim_core *core, struct sim_pkg *pkg, int ci, int before);

/* Sets the core's power for its threads' present states, the energy used
 * so far accounted first. Returns whether the core counts as active for
 * the turbo bins: a thread in C0, or the core (its shallowest thread, as
 * for power) polling or in a state that keeps it "active" (Intel: C1,
 * C1E). Tells no observer (core_power(), core_update()). */
/* What a caller knows of the core's threads, so that core_power_set()'s
 * tests of them fold away: nothing, a thread in C0 (nbusy > 0, so it has
 * CPUs), or every thread idle (nbusy == 0 with CPUs). */
enum core_known { CORE_ANY, CORE_IN_C0, CORE_HALTED };

static inline __attribute__((always_inline)) bool core_power_set(struct sim *s,
								 struct sim_core *core,
								 const enum core_known known)
{
	double dt = (double)(s->now - core->last) * 1e-9;
	core->e_dyn += core->p_dyn * dt;
	core->e_static += core->p_static * dt;
	core->last = s->now;
	if (known == CORE_ANY && core->ncpus == 0)
		return false;

	/* A thread in C0 makes the core busy whatever the others do; all
	 * idle, the core is in its shallowest thread's state (nbusy == 0:
	 * every thread is CPU_IDLE). */
	const struct sim_type *ty = core->type_p;
	if (known == CORE_HALTED || (known == CORE_ANY && core->nbusy == 0)) {
		const struct core_idle_w *cs = &ty->idle_w[core_shallowest_cstate(s, core)];
		/* States are ordered by depth, and only state 0 may poll: a
		 * polling core is busy. */
		if (!cs->c0) {
			core->p_dyn = 0;
			core->p_static = cs->w;
			/* A clock-gated core at its domain's voltage: the running
			 * P-state's, the lowest in a package C-state (Extended HALT). */
			if (cs->at_vid)
				core->p_static = ty->leak_w[
					s->pkgs[core->pkg].pkg_cstate >= 0 ? 0 : core->eff_idx];
			return cs->turbo;
		}
	}
	/* Ceff V^2 f x SMT activity, and leakage, from the type's per-P-state
	 * tables (power_tables()) at the core's effective P-state (its clock
	 * domain's under the package's turbo ceiling: core_pstate_refresh()). */
	int idx = core->eff_idx;
	core->p_dyn = ty->dyn_w[idx] * ty->activity_by_busy[core->nbusy];
	core->p_static = ty->leak_w[idx];
	return true;
}

/* The core's power and its count among the package's turbo-active
 * cores; returns whether the count left its window (turbo_window_set()). */
static inline __attribute__((always_inline)) bool core_power_turbo(struct sim *s,
								   struct sim_core *core,
								   struct sim_pkg *pkg,
								   const enum core_known known)
{
	bool active = core_power_set(s, core, known);
	if (active == core->turbo_active)
		return false;
	core->turbo_active = active;
	int n = pkg->nturbo_cores[core->type] += active ? 1 : -1;
	return (unsigned)(n - pkg->turbo_lo[core->type]) > pkg->turbo_span[core->type];
}

/* The core's power, its count among the package's turbo-active cores,
 * and what that asks of others. Whatever asks more (an observer, a count
 * out of its window, an uncore target that may have moved) goes to one
 * call out of line, so that the usual change makes no call. */
static inline __attribute__((always_inline)) void core_update_at(struct sim *s,
								 struct sim_core *core, int ci,
								 struct sim_pkg *pkg,
								 const enum core_known known)
{
	bool turbo_moved = core_power_turbo(s, core, pkg, known);
	if (s->obs || turbo_moved || pkg->unc_stale)
		core_update_tell(s, ci, turbo_moved);
}

/* ...of a core whose package the caller has not at hand. */
static inline __attribute__((always_inline)) void core_update_in(struct sim *s,
								 struct sim_core *core, int ci,
								 const enum core_known known)
{
	core_update_at(s, core, ci, &s->pkgs[core->pkg], known);
}

/* Energy, residency and idle time of a package up to now, before its
 * busy count moves. */
static inline void pkg_sync(struct sim *s, struct sim_pkg *pkg)
{
	sim_ns dt = s->now - pkg->last;
	if (dt <= 0)
		return;
	pkg->last = s->now;
	pkg->acct.energy_uncore_j += pkg->p_uncore * (double)dt * 1e-9;
	if (pkg->pkg_cstate >= 0)
		pkg->acct.pkg_cstate_ns[pkg->pkg_cstate] += dt;
	if (pkg->nbusy_cores == 0)
		pkg->acct.all_idle_ns += dt;
}

/* A thread of the core entered C0 (set_mode()): its busy count; if the
 * core was idle, the package's energy so far and its busy count; the
 * core's power, known in C0, and what that asks of others
 * (core_update()). The usual step of an idle exit is inline, with no
 * call (a package that stays busy keeps its C-state and its uncore's
 * power); what asks more of the package goes out of line. `core` is
 * s->cores[ci], `pkg` its package (the caller's CPU's, c->pkg: the
 * caller's idle exit has its address already). */
static inline __attribute__((always_inline)) void core_thread_busy(struct sim *s,
								   struct sim_core *core, int ci,
								   struct sim_pkg *pkg)
{
	if (core->nbusy++ == 0) {
		pkg_sync(s, pkg);
		int before = pkg->nbusy_cores++;
		if (!before || s->cluster_power) {
			core_busy_pkg_more(s, ci, before);
			return;
		}
		if (pkg->busy_cores) {
			core_busy_list(s, core, pkg, ci, before);
			return;
		}
	}
	core_update_at(s, core, ci, pkg, CORE_IN_C0);
}

/* ...left C0: the same for every idle entry, the core halted once its
 * last thread has left. */
static inline __attribute__((always_inline)) void core_thread_idle(struct sim *s,
								   struct sim_core *core, int ci,
								   struct sim_pkg *pkg)
{
	if (--core->nbusy) {
		core_update_at(s, core, ci, pkg, CORE_IN_C0); /* an SMT sibling is busy */
		return;
	}
	pkg_sync(s, pkg);
	int before = pkg->nbusy_cores--;
	if (before == 1 || s->cluster_power)
		core_idle_pkg_more(s, ci, before);
	else if (pkg->busy_cores)
		core_idle_list(s, core, pkg, ci, before);
	else
		core_update_at(s, core, ci, pkg, CORE_HALTED);
}

#endif

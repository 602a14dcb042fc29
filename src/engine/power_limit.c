// SPDX-License-Identifier: GPL-2.0-only
/* Package power limits: RAPL's PL1 and PL2 on Intel, the SMU's slow and
 * fast PPT on AMD (issue 16, issue 13 item 9).
 *
 * The processor's power controller keeps, per package, running averages
 * of the package's power with time constants Tau (the limit's "time
 * window"), Intel's RAPL exponentially weighted average: each control
 * period it reads the package energy counter (MSR_PKG_ENERGY_STATUS; here
 * the engine's exact energy integral of cores and uncore) and moves each
 * average by avg = avg x a + P x (1 - a), a = exp(-period / Tau), P the
 * period's mean power. While an average and the last period's power are
 * both above a limit, the controller lowers the package's frequency
 * ceiling one P-state below what its cores run; while the last period's
 * power is below what each average could take for one more period
 * without passing its limit, limit + (limit - avg) a / (1 - a), it raises
 * the ceiling one P-state, back up to no ceiling; otherwise it holds. At
 * a limit the ceiling hunts between the two P-states around it, and the
 * average stays at the limit. A burst from idle therefore runs at full
 * turbo until the long average has climbed to PL1, about Tau x
 * ln((P - idle) / (P - PL1)), and then holds PL1 on average: the turbo
 * budget Intel documents (Intel 64 and IA-32 SDM vol. 3B 15.10, "Platform
 * Specific Power Management Support": MSR_PKG_POWER_LIMIT's two limits and
 * their time windows). The kernel only reads and writes these limits
 * (drivers/powercap/intel_rapl_common.c, constraint_0 long_term and
 * constraint_1 short_term); the hardware enforces them.
 *
 * The ceiling is counted on the package's first CPU type's table; other
 * types get their highest P-state at or below its frequency. It caps any
 * frequency, turbo or not, as RAPL does (a PL1 below TDP throttles below
 * base). */
#include <math.h>

#include "sim_internal.h"

static bool limited(const struct sim *s)
{
	return s->pl1_w > 0 || s->pl2_w > 0;
}

/* The package's energy counter: cores and uncore, integrated to now. */
static double pkg_energy_j(const struct sim *s, int p)
{
	const struct sim_pkg *pkg = &s->pkgs[p];
	double e = pkg->acct.energy_uncore_j + pkg->p_uncore * (double)(s->now - pkg->last) * 1e-9;
	for (int i = 0; i < pkg->ncores; i++) {
		const struct sim_core *core = &s->cores[pkg->first_core + i];
		e += core->e_dyn + core->e_static +
		     (core->p_dyn + core->p_static) * (double)(s->now - core->last) * 1e-9;
	}
	return e;
}

/* The package's power now (what a period at its present state draws). */
static double pkg_power_w(const struct sim *s, int p)
{
	const struct sim_pkg *pkg = &s->pkgs[p];
	double w = pkg->p_uncore;
	for (int i = 0; i < pkg->ncores; i++)
		w += s->cores[pkg->first_core + i].p_dyn + s->cores[pkg->first_core + i].p_static;
	return w;
}

/* Ceilings of every type for the level (an index into type 0's table). */
static void set_level(struct sim *s, int p, int level)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	const struct sim_type *t0 = &s->types[0];
	pkg->pl_level = level;
	bool changed = false;
	for (int t = 0; t < s->ntypes; t++) {
		const struct sim_type *ty = &s->types[t];
		int idx = level >= t0->npstates - 1
				  ? ty->npstates - 1
				  : machine_type_pstate_at_most(ty->t, t0->khz[level]);
		changed |= idx != pkg->limit_idx[t];
		pkg->limit_idx[t] = idx;
	}
	if (changed)
		pkg_turbo_eval(s, p);
}

static sim_ns control_period(const struct sim *s)
{
	return s->m->pl_control_ns ? s->m->pl_control_ns : MACHINE_DEFAULT_PL_CONTROL_NS;
}

void power_limit_init(struct sim *s)
{
	for (int p = 0; p < s->npkgs; p++) {
		struct sim_pkg *pkg = &s->pkgs[p];
		pkg->pl_level = s->types[0].npstates - 1; /* limit_idx[] too (build_topology()) */
		if (!limited(s))
			continue;
		/* The averages start at the power of the package as the run
		 * finds it (idle), as after a quiet stretch. */
		pkg->pl_avg1 = pkg->pl_avg2 = pkg_power_w(s, p);
		pkg->pl_energy_j = pkg_energy_j(s, p);
		pkg->pl_last = s->now;
		sim_post(s, s->now + control_period(s), EV_POWER_LIMIT, (uint32_t)p, 0, 0);
	}
}

/* The highest P-state (type 0's index) any C0 CPU of type 0 runs in the
 * package, or -1. */
static int running_level(const struct sim *s, int p)
{
	const struct cpu_group *g = &s->topo.pkg[p];
	int level = -1;
	for (int i = 0; i < g->n; i++) {
		const struct sim_cpu *c = &s->cpus[g->cpu[i]];
		if (c->mode != CPU_IDLE && c->type == 0) {
			int idx = cpu_effective_idx(s, c);
			if (idx > level)
				level = idx;
		}
	}
	return level;
}

void power_limit_eval(struct sim *s, int p)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	sim_ns period = s->now - pkg->pl_last;
	if (period <= 0)
		return;
	if (pkg->pl_level < s->types[0].npstates - 1)
		pkg->acct.power_limited_ns += period;
	double e = pkg_energy_j(s, p);
	double watts = (e - pkg->pl_energy_j) / ((double)period * 1e-9);
	pkg->pl_energy_j = e;
	pkg->pl_last = s->now;
	if (s->pl1_w > 0) {
		double a = exp(-(double)period / (double)s->pl1_window_ns);
		pkg->pl_avg1 = pkg->pl_avg1 * a + watts * (1 - a);
	}
	if (s->pl2_w > 0) {
		double a = exp(-(double)period / (double)s->pl2_window_ns);
		pkg->pl_avg2 = pkg->pl_avg2 * a + watts * (1 - a);
	}
	bool over = false, room = true;
	const struct { double w, avg; sim_ns window; } lim[] = {
		{ s->pl1_w, pkg->pl_avg1, s->pl1_window_ns },
		{ s->pl2_w, pkg->pl_avg2, s->pl2_window_ns },
	};
	for (int i = 0; i < 2; i++) {
		if (lim[i].w <= 0)
			continue;
		over |= lim[i].avg > lim[i].w && watts > lim[i].w;
		double a = exp(-(double)period / (double)lim[i].window);
		room &= watts < lim[i].w + (lim[i].w - lim[i].avg) * a / (1 - a);
	}
	int level = pkg->pl_level;
	if (over) {
		int running = running_level(s, p);
		if (running >= 0 && running < level)
			level = running;
		if (level > 0)
			level--;
	} else if (room && level < s->types[0].npstates - 1) {
		level++;
	}
	if (level != pkg->pl_level)
		set_level(s, p, level);
	sim_post(s, s->now + control_period(s), EV_POWER_LIMIT, (uint32_t)p, 0, 0);
}

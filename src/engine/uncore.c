// SPDX-License-Identifier: GPL-2.0-only
/* The uncore clock (ring, last-level cache, home agent) of machines with
 * an [uncore] section: Haswell-EP and later Xeons clock it apart from the
 * cores and scale it in hardware (uncore frequency scaling, UFS), within
 * MSR_UNCORE_RATIO_LIMIT's bounds. Before Haswell the uncore ran at the
 * clock of the fastest core (Sandy and Ivy Bridge; G. Hofmann, "Memory
 * bandwidth on Haswell-EP", 2015), which is the rule kept here while the
 * energy/performance bias favours energy; with the bias at "performance"
 * (EPB 0..epb_max_clock) a package with a core in C0 runs the uncore at
 * its top clock, as Hackenberg et al. measured on Haswell-EP ("An Energy
 * Efficiency Feature Survey of the Intel Haswell Processor", IPDPSW 2015).
 * With every core idle the uncore drops to its lowest clock, and package
 * C-states (power.c) gate it further. Intel does not publish the PCU's
 * algorithm; the rule's form is an ESTIMATE from those measurements, and
 * the clock moves at once (the PCU re-evaluates within about a
 * millisecond).
 *
 * Power (machine.h): static_w plus the rest of uncore_w scaled by f V^2,
 * V linear in f between the [uncore] voltages. The memory latency a core
 * sees follows the clock (engine/memory.c). */
#include "hwmodel.h"
#include "sim_internal.h"

uint32_t uncore_busy_scan(const struct sim *s, int p, int *n)
{
	/* The busy cores alone (the package's list): the largest is the same
	 * in any order. */
	const struct sim_pkg *pkg = &s->pkgs[p];
	uint32_t fastest = 0;
	*n = 0;
	for (int i = 0; i < pkg->nbusy_cores; i++) {
		uint32_t khz = core_khz(s, &s->cores[pkg->busy_cores[i]]);
		if (khz > fastest) {
			fastest = khz;
			*n = 0;
		}
		*n += khz == fastest;
	}
	return fastest;
}

/* Called where a core joins or leaves busy_cores (uncore_core_busy())
 * and where a busy core's P-state moves (core_pstate_refresh()): the
 * only places the busy cores' clocks change. */
static inline __attribute__((always_inline)) void busy_top_move(struct sim_pkg *pkg,
								uint32_t from, uint32_t to)
{
	if (pkg->busy_top_n < 0)
		return; /* unknown: the next scan sees the change */
	if (from && from == pkg->busy_top_khz && --pkg->busy_top_n == 0) {
		/* The last core at the top left it: a scan finds the next. */
		pkg->busy_top_khz = 0;
		pkg->busy_top_n = pkg->nbusy_cores ? -1 : 0;
		pkg->unc_stale = true;
		if (pkg->busy_top_n < 0)
			return;
	}
	if (to > pkg->busy_top_khz) {
		pkg->busy_top_khz = to;
		pkg->busy_top_n = 1;
		pkg->unc_stale = true;
	} else if (to && to == pkg->busy_top_khz) {
		pkg->busy_top_n++;
	}
}

void uncore_busy_khz(struct sim *s, int p, uint32_t from, uint32_t to)
{
	busy_top_move(&s->pkgs[p], from, to);
}

/* The package's busy list and its record of their fastest clock, as core
 * `ci` joins it (delta > 0) or leaves it; the count has moved from
 * `before` already (power.c: core_thread_busy(), core_thread_idle()). */
void uncore_core_busy(struct sim *s, struct sim_core *core, struct sim_pkg *pkg, int ci, int delta,
		      int before)
{
	if (delta > 0) {
		core->busy_slot = before;
		pkg->busy_cores[before] = ci;
	} else {
		int last = pkg->busy_cores[before - 1];
		pkg->busy_cores[core->busy_slot] = last;
		s->cores[last].busy_slot = core->busy_slot;
	}
	uint32_t khz = core_khz(s, core);
	busy_top_move(pkg, delta < 0 ? khz : 0, delta > 0 ? khz : 0);
}

/* The rule's clock for the package, given its busy cores' fastest. */
static inline uint32_t target_of(const struct sim *s, const struct sim_pkg *pkg, uint32_t fastest)
{
	const struct machine_uncore *u = &s->m->unc;
	if (pkg->nbusy_cores == 0)
		return u->min_khz;
	if (s->par.energy_perf_bias <= u->epb_max_clock)
		return u->max_khz;
	if (fastest < u->min_khz)
		return u->min_khz;
	return fastest > u->max_khz ? u->max_khz : fastest;
}

static uint32_t target_khz(struct sim *s, int p)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	/* The busy cores' fastest, kept as they come and go (a scan only
	 * when the last core at the top clock left it). */
	if (pkg->nbusy_cores && s->par.energy_perf_bias > s->m->unc.epb_max_clock &&
	    pkg->busy_top_n < 0)
		pkg->busy_top_khz = uncore_busy_scan(s, p, &pkg->busy_top_n);
	return target_of(s, pkg, pkg->busy_top_khz);
}

double uncore_power_w(const struct machine *m, uint32_t khz)
{
	const struct machine_uncore *u = &m->unc;
	if (!u->max_khz || !khz)
		return m->uncore_w;
	double span = (double)(u->max_khz - u->min_khz);
	double x = span > 0 ? ((double)khz - u->min_khz) / span : 1.0;
	double mv = u->min_mv + x * (u->max_mv - u->min_mv);
	double v = mv / u->max_mv;
	return u->static_w + (m->uncore_w - u->static_w) * ((double)khz / u->max_khz) * v * v;
}

/* The power at the clock in force: computed when the clock moves
 * (uncore_clock_set()), read at every package re-evaluation. */
double uncore_running_w(const struct sim *s, int p)
{
	return s->pkgs[p].unc_w;
}

void uncore_clock_set(struct sim *s, int p, uint32_t khz)
{
	s->pkgs[p].unc_khz = khz;
	s->pkgs[p].unc_w = uncore_power_w(s->m, khz);
}

void uncore_init(struct sim *s)
{
	for (int p = 0; p < s->npkgs; p++) {
		s->pkgs[p].busy_top_n = -1;
		s->pkgs[p].unc_stale = false;
		uncore_clock_set(s, p, s->m->unc.max_khz ? target_khz(s, p) : 0);
	}
}

/* The target is computed only when one of its inputs moved (unc_stale):
 * most busy changes leave the busy cores' fastest clock where it was. */
void uncore_follow(struct sim *s, int p)
{
	struct sim_pkg *pkg = &s->pkgs[p];
	if (!pkg->unc_stale)
		return;
	pkg->unc_stale = false;
	uint32_t khz = target_khz(s, p);
	if (khz != pkg->unc_khz)
		pkg_uncore_clock(s, p, khz);
}

/* For a caller that re-evaluates the package's power next
 * (pkg_core_busy_more()): the clock moves to its target without a
 * re-evaluation of its own, so that the uncore_follow() after finds it
 * there. */
void uncore_clock_follow(struct sim *s, int p)
{
	s->pkgs[p].unc_stale = false;
	uint32_t khz = target_khz(s, p);
	if (khz != s->pkgs[p].unc_khz)
		uncore_clock_set(s, p, khz);
}

bool uncore_consistent(const struct sim *s, int p)
{
	const struct sim_pkg *pkg = &s->pkgs[p];
	if (!s->m->unc.max_khz)
		return true;
	int n;
	uint32_t khz = target_of(s, pkg, uncore_busy_scan(s, p, &n));
	return pkg->unc_khz == khz && pkg->unc_w == uncore_power_w(s->m, khz);
}

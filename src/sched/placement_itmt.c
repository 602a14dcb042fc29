// SPDX-License-Identifier: GPL-2.0-only
/* ITMT: asym packing (SD_ASYM_PACKING) as Linux v6.6's fair.c balances
 * it on a machine whose CPUs have different priorities
 * (arch_asym_cpu_priority(), the CPPC highest_perf intel_pstate passes to
 * sched_set_itmt_core_prio(); sched/asym.h says when the kernel turns it
 * on): an idle CPU of higher priority takes the work of a busy CPU of
 * lower priority, so work runs on the P-cores of a hybrid part first and
 * reaches the E-cores only when every P-core is busy.
 *
 *  - nohz_balancer_kick(): a busy CPU's tick kicks the idle balancer when
 *    some idle CPU is preferred over it (with SMT, only a CPU whose whole
 *    core is idle: sched_use_asym_prio());
 *  - update_sg_lb_stats()/sched_asym(): that idle CPU's load_balance()
 *    finds the busy CPU's group of type group_asym_packing (a lone task;
 *    with SMT an SMT group counts only with exactly one busy sibling) and
 *    asym_active_balance() moves its running task there;
 *  - newly idle CPUs do the same (need_active_balance() holds for
 *    CPU_NEWLY_IDLE), from the busy CPU of lowest priority
 *    (update_sd_pick_busiest(): "prefer to move from lowest priority
 *    CPU's work").
 * Wakeups, forks and execs are CFS's (spread's): select_task_rq_fair()
 * reads no priorities. What spread's balancers move first (queued tasks
 * to idle CPUs) they still move. */
#include "fair_select.h"
#include "placement_lib.h"

/* sched_use_asym_prio(): with SMT active, a CPU acts on priorities only
 * when the rest of its core is idle (is_core_idle(): its siblings; the
 * CPU itself is idle or going idle). */
static bool use_asym_prio(const struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	if (!topo->smt)
		return true;
	const struct cpu_group *core = &topo->core[topo->cpu[cpu].core];
	for (int i = 0; i < core->n; i++)
		if (core->cpu[i] != cpu && !sv_cpu_idle(s, core->cpu[i]))
			return false;
	return true;
}

/* The task running alone on `src` that `dst` may take, or NULL: the source
 * runs one task (on an SMT core, the only busy sibling). */
static struct task *lone_task(const struct sim *s, int src, int dst)
{
	const struct sched_topology *topo = sv_topology(s);
	struct task *curr = sv_curr(s, src);
	if (sv_cpu_mode(s, src) != SV_RUNNING || !curr || curr->state != TASK_RUNNING ||
	    sv_nr_running(s, src) != 1 || !task_allowed(curr, dst))
		return NULL;
	const struct cpu_group *core = &topo->core[topo->cpu[src].core];
	for (int i = 0; i < core->n; i++)
		if (core->cpu[i] != src && !sv_cpu_idle(s, core->cpu[i]))
			return NULL;
	return curr;
}

/* The CPUs of the widest domain of `cpu` with SD_ASYM_PACKING
 * (sd_asym_packing, highest_flag_domain()), or NULL. */
static const struct cpu_group *asym_span(const struct sched_topology *topo, int cpu)
{
	const struct cpu_group *span = NULL;
	for (int k = 0; k < topo->cpu_ndom[cpu]; k++)
		if (topo->cpu_dom[cpu][k]->asym_packing)
			span = topo->cpu_dom[cpu][k]->span;
	return span;
}

/* From a busy CPU's tick: the first idle CPU the idle balancer visits
 * (find_new_ilb()'s first idle CPU, then the others after it, itself
 * last) that is preferred over `cpu` takes its lone task. */
static bool asym_push(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *span = asym_span(topo, cpu);
	if (!span || !lone_task(s, cpu, cpu))
		return false;
	int ilb = -1;
	for (int c = 0; c < topo->ncpus && ilb < 0; c++)
		if (sv_cpu_idle(s, c))
			ilb = c;
	for (int k = 1; ilb >= 0 && k <= topo->ncpus; k++) {
		int dst = (ilb + k) % topo->ncpus;
		if (!cpu_group_has(topo, span, dst) || !sv_cpu_idle(s, dst) ||
		    !use_asym_prio(s, dst) || !sched_asym_prefer(topo, dst, cpu) ||
		    !lone_task(s, cpu, dst))
			continue;
		sv_migrate_running(s, cpu, dst);
		return true;
	}
	return false;
}

/* From a CPU going idle: the lone task of the busy CPU of lowest priority
 * below it. */
static bool asym_pull(struct sim *s, int cpu)
{
	const struct sched_topology *topo = sv_topology(s);
	const struct cpu_group *span = asym_span(topo, cpu);
	if (!span || !use_asym_prio(s, cpu))
		return false;
	int src = -1;
	for (int i = 0; i < span->n; i++) {
		int c = span->cpu[i];
		if (c == cpu || !sched_asym_prefer(topo, cpu, c) || !lone_task(s, c, cpu))
			continue;
		if (src < 0 || sched_asym_prefer(topo, src, c))
			src = c;
	}
	if (src < 0)
		return false;
	sv_migrate_running(s, src, cpu);
	return true;
}

/* Spread's: CFS reads no priorities at wakeup, fork or exec. */
static int itmt_select_cpu(struct sim *s, struct task *t, const struct select_ctx *w)
{
	return placement_spread.select_cpu(s, t, w);
}

static bool itmt_newidle(struct sim *s, int cpu)
{
	return placement_spread.newidle_balance(s, cpu) || asym_pull(s, cpu);
}

static void itmt_tick_balance(struct sim *s, int cpu)
{
	if (sv_rq(s, cpu)->len > 0)
		placement_spread.tick_balance(s, cpu);
	else
		asym_push(s, cpu);
}

static bool itmt_selected(const struct sched_knobs *k)
{
	return k->asym_packing;
}

const struct placement_ops placement_itmt = {
	.name = "itmt",
	.summary = "ITMT asym packing (Linux 6.6): idle CPUs of higher priority (P-cores) take "
		   "the work of lower ones",
	.selected = itmt_selected,
	.select_cpu = itmt_select_cpu,
	.newidle_balance = itmt_newidle,
	.tick_balance = itmt_tick_balance,
	.cpu_idle = fair_update_idle_core,
};

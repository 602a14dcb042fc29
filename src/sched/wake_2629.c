// SPDX-License-Identifier: GPL-2.0-only
/* Wakeup placement of Linux 2.6.29 (kernel/sched_fair.c:
 * select_task_rq_fair(), wake_affine(), wake_idle()), which the pack
 * policy follows under sched_mc_power_savings.
 *
 * A task woken on another CPU than its previous one goes to the waker's
 * CPU when wake_affine() finds the two balanced enough, or when passive
 * balancing (SD_WAKE_BALANCE) finds the waker's CPU less loaded by half
 * the domain's imbalance_pct; otherwise wake_idle() keeps its previous
 * CPU, idle or not. 2.6.29's default domains have no SD_WAKE_IDLE
 * (include/linux/topology.h), so wake_idle() searches no idle sibling;
 * at sched_mc_power_savings 2 it sends a task whose previous CPU and
 * waker's CPU are both idle to the nominated preferred wakeup CPU.
 *
 * wake_affine(): with WF_SYNC the waker's weight is taken off its CPU
 * (it is about to sleep), then "balanced" is 100 * (this CPU's load + the
 * task's weight) <= imbalance * the previous CPU's load; a sync wakeup
 * that is balanced goes affine, and so does any wakeup that is balanced,
 * or whose CPU is no busier than the previous one with both loads summed
 * below the waker CPU's load per task. sync is honoured as given: the
 * kernel drops it when the waker or the wakee runs on for more than
 * sysctl_sched_migration_cost after its wakeups (avg_overlap), which the
 * model does not track.
 *
 * Loads are weighted_cpuload() (every task at nice 0), the present load
 * for source_load() and target_load() (wake_idx = 1 reads the last tick's
 * cpu_load[0] too; the model keeps no per-tick history). Group
 * scheduling is off (effective_load() is the weight itself). */
#include "placement_lib.h"

#define NICE_0_LOAD 1024UL

static unsigned long weighted_cpuload(const struct sim *s, int cpu)
{
	return (unsigned long)sv_nr_running(s, cpu) * NICE_0_LOAD;
}

/* wake_idle(): level 2's preferred CPU when both the previous and the
 * waker's CPU (-1: an interrupt on an idle CPU) are idle, else prev. */
static int wake_idle(const struct sim *s, const struct task *p, int prev, int this_cpu)
{
	if (sv_knobs(s)->mc_power_savings >= 2 && sv_cpu_idle(s, prev) &&
	    (this_cpu < 0 || sv_cpu_idle(s, this_cpu))) {
		int chosen = sv_topology(s)->rd->mc_preferred_wakeup_cpu;
		if (task_allowed(p, chosen))
			return chosen;
	}
	return prev;
}

/* wake_affine() with the loads of the previous and the waker's CPU. */
static bool wake_affine(const struct sim *s, int this_cpu, bool sync, unsigned long load,
			unsigned long this_load, unsigned imbalance)
{
	unsigned long tl = this_load;
	if (sync && sv_curr(s, this_cpu))
		tl = tl > NICE_0_LOAD ? tl - NICE_0_LOAD : 0;
	bool balanced = 100 * (tl + NICE_0_LOAD) <= imbalance * load;
	if (sync && balanced)
		return true;
	int nr = sv_nr_running(s, this_cpu);
	unsigned long tl_per_task = nr ? this_load / (unsigned long)nr : 0;
	return balanced || (tl <= load && tl + load <= tl_per_task);
}

int select_cpu_2629(const struct sim *s, const struct task *t, const struct select_ctx *w,
		    bool power_savings)
{
	int cpu = -1;
	if ((w->kind == SELECT_FORK || w->kind == SELECT_EXEC) && w->this_cpu >= 0)
		cpu = sched_balance_self_2629(s, t, w->this_cpu, power_savings);
	else if (w->kind == SELECT_WAKE && t->cpu >= 0)
		cpu = select_task_rq_fair_2629(s, t, w->this_cpu, w->sync);
	return cpu >= 0 && task_allowed(t, cpu) ? cpu : -1;
}

int select_task_rq_fair_2629(const struct sim *s, const struct task *p, int this_cpu, bool sync)
{
	int prev = p->cpu;
	if (this_cpu < 0 || prev == this_cpu || !task_allowed(p, this_cpu))
		return wake_idle(s, p, prev, this_cpu);
	/* this_sd, the lowest domain spanning both: the SMT siblings'
	 * (imbalance_pct 110), else MC or CPU (125). */
	const struct sched_topology *topo = sv_topology(s);
	int pct = topo->cpu[prev].core == topo->cpu[this_cpu].core ? 110 : 125;
	unsigned imbalance = 100 + (unsigned)(pct - 100) / 2;
	unsigned long load = weighted_cpuload(s, prev), this_load = weighted_cpuload(s, this_cpu);
	if (wake_affine(s, this_cpu, sync, load, this_load, imbalance))
		return this_cpu;
	/* Passive balancing: the waker's CPU is less loaded by half the
	 * imbalance_pct. */
	if (imbalance * this_load <= 100 * load)
		return this_cpu;
	return wake_idle(s, p, prev, this_cpu);
}

// SPDX-License-Identifier: GPL-2.0-only
/* What devices do for workloads: an interrupt taken on a given CPU (a
 * NIC queue's or a disk controller's vector, wherever irqbalance put it),
 * a wakeup made from that CPU's softirq, and the device activity the
 * platform power model counts (disk busy time, packets). */
#include "../workload/wlutil.h"
#include "sim_internal.h"

void sim_interrupt(struct sim *s, int cpu, double ref_ns)
{
	if (cpu < 0 || cpu >= s->ncpus)
		cpu = 0;
	struct sim_cpu *c = &s->cpus[cpu];
	double khz = cpu_khz(s, c);
	cpu_interrupt(s, c, (sim_ns)(ref_ns * WL_REF_KHZ / khz));
}

void sim_wake_from(struct sim *s, struct task *t, int cpu)
{
	if (cpu < 0 || cpu >= s->ncpus)
		cpu = -1;
	if (t->state == TASK_QUEUED || t->state == TASK_RUNNING)
		t->wake_pending = true;
	else if (t->state == TASK_BLOCKED)
		task_wake_blocked(s, t, cpu, false);
}

void sim_disk_io(struct sim *s, sim_ns busy_ns)
{
	if (busy_ns > 0)
		s->disk_busy_ns += busy_ns;
}

void sim_net_packets(struct sim *s, double n)
{
	if (n > 0)
		s->nic_packets += n;
}

int sim_thp(const struct sim *s)
{
	return (int)s->par.transparent_hugepage;
}

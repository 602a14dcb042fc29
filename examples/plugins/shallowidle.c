// SPDX-License-Identifier: GPL-2.0-only
/* shallowidle: a minimal placement policy for pmlab.
 *
 * A waking task goes to the idle CPU that is cheapest to wake: the one in
 * the shallowest C-state (least exit latency) near the CPU it last ran
 * on -- under the same last-level cache, in the same package, or anywhere,
 * as shallowidle_scope says. Ties go to its previous CPU, then to the
 * lowest number. With no idle CPU there, and for new tasks, it does what
 * the kernel's policy does (default_cpu), and balancing stays the
 * kernel's (no newidle_balance or tick_balance).
 *
 * Build:  cc -shared -fPIC -O2 -Iinclude examples/plugins/shallowidle.c -o shallowidle.so
 * Use:    pmlab sim --plugin ./shallowidle.so --set placement=shallowidle \
 *             --machine xeon-e5-2650l-v3 --workload pingpong --set shallowidle_scope=machine
 */
#include <pmlab/plugin.h>

enum { SCOPE_LLC, SCOPE_PACKAGE, SCOPE_MACHINE };

static const char *const scopes[] = { "llc", "package", "machine", NULL };

static const struct pmlab_tunable tunables[] = {
	{ "shallowidle_scope", "where to look for an idle CPU: llc, package or machine",
	  SCOPE_LLC, 0, 2, scopes },
};

/* Whether cpu is within the scope around near. */
static bool near_enough(const struct pmlab_sched *s, int cpu, int near)
{
	switch (s->tunables[0]) {
	case SCOPE_LLC:
		return s->cpus[cpu].llc == s->cpus[near].llc;
	case SCOPE_PACKAGE:
		return s->cpus[cpu].pkg == s->cpus[near].pkg;
	default:
		return true;
	}
}

static int shallowidle_select(struct pmlab_sched *s, const struct pmlab_select *w)
{
	int near = w->prev_cpu >= 0 ? w->prev_cpu : w->this_cpu, best = -1;
	int64_t best_ns = 0;

	if (w->kind != PMLAB_SELECT_WAKE || near < 0)
		return s->default_cpu(s, w);
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		int64_t ns = s->exit_latency_ns(s, cpu);
		if (!s->cpu_idle(s, cpu) || !s->allowed(s, cpu) || !near_enough(s, cpu, near))
			continue;
		if (best < 0 || ns < best_ns || (ns == best_ns && cpu == w->prev_cpu)) {
			best = cpu;
			best_ns = ns;
		}
	}
	return best >= 0 ? best : s->default_cpu(s, w);
}

static const struct pmlab_placement shallowidle = {
	.name = "shallowidle",
	.summary = "wake tasks on the idle CPU in the shallowest C-state near their last CPU",
	.tunables = tunables,
	.ntunables = 1,
	.select_cpu = shallowidle_select,
};

PMLAB_PLUGIN_EXPORT const struct pmlab_plugin pmlab_plugin = {
	.abi = PMLAB_PLUGIN_ABI,
	.placement = &shallowidle,
};

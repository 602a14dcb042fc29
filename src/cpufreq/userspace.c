// SPDX-License-Identifier: GPL-2.0-only
/* userspace: a fixed frequency chosen by the user through scaling_setspeed
 * (drivers/cpufreq/cpufreq_userspace.c). setspeed 0 means "the frequency
 * the policy had when the governor started", as the kernel initialises it
 * from policy->cur. */
#include "cpufreq.h"

struct userspace_data {
	int64_t setspeed; /* kHz */
};

static const struct tunable userspace_tunables[] = {
	{ "scaling_setspeed", "requested frequency, kHz (0: keep the current one)",
	  TUNABLE_FIELD(struct userspace_data, setspeed), 0, 0, 100000000, NULL },
};

static int userspace_start(struct cpufreq_policy *p, struct pm_diag *d)
{
	struct userspace_data *u = p->gov_data;
	if (u->setspeed == 0)
		u->setspeed = p->cur;
	return 0;
}

static void userspace_limits(struct cpufreq_policy *p)
{
	struct userspace_data *u = p->gov_data;
	uint32_t want = (uint32_t)u->setspeed;
	if (p->max < want)
		cpufreq_driver_target(p, p->max, RELATION_H);
	else if (p->min > want)
		cpufreq_driver_target(p, p->min, RELATION_L);
	else
		cpufreq_driver_target(p, want, RELATION_L);
}

const struct cpufreq_governor cpufreq_userspace = {
	.name = "userspace",
	.summary = "run at the frequency written to scaling_setspeed",
	.tunables = userspace_tunables,
	.ntunables = 1,
	.data_size = sizeof(struct userspace_data),
	.start = userspace_start,
	.limits = userspace_limits,
};

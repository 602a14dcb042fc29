// SPDX-License-Identifier: GPL-2.0-only
/* The registry of placement policies. */
#include "placement.h"

#include <string.h>

extern const struct placement_ops placement_spread;
extern const struct placement_ops placement_pack;
extern const struct placement_ops placement_itmt;
extern const struct placement_ops placement_eas;

/* Adding a policy: one file and one line here. The default (spread, the
 * one with no selected()) comes last. */
static const struct placement_ops *const policies[] = {
	&placement_pack,
	&placement_itmt,
	&placement_eas,
	&placement_spread,
};

#define NPOLICIES ((int)(sizeof(policies) / sizeof(policies[0])))

int placement_count(void)
{
	return NPOLICIES;
}

const struct placement_ops *placement_at(int i)
{
	return policies[i];
}

const struct placement_ops *placement_find(const char *name)
{
	for (int i = 0; i < NPOLICIES; i++)
		if (strcmp(policies[i]->name, name) == 0)
			return policies[i];
	return NULL;
}

const struct placement_ops *placement_for(const struct sched_knobs *k)
{
	const struct placement_ops *fallback = NULL;
	for (int i = 0; i < NPOLICIES; i++) {
		if (!policies[i]->selected)
			fallback = fallback ? fallback : policies[i];
		else if (policies[i]->selected(k))
			return policies[i];
	}
	return fallback;
}

// SPDX-License-Identifier: GPL-2.0-only
#include "simtest.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

void simtest_run(struct run *out, const char *ini, int cpus, const char *workload, const char *gov,
		 double seconds, uint64_t seed, const char *const *defaults, int ndefaults,
		 const char *const *sets, int nsets, bool check)
{
	simtest_run_idle(out, ini, cpus, workload, gov, "deepest", seconds, seed, defaults,
			 ndefaults, sets, nsets, check);
}

void simtest_run_idle(struct run *out, const char *ini, int cpus, const char *workload,
		      const char *gov, const char *idle_gov, double seconds, uint64_t seed,
		      const char *const *defaults, int ndefaults, const char *const *sets, int nsets,
		      bool check)
{
	struct pm_diag d = { { 0 } };
	if (machine_parse(&out->m, ini, "test", &d) < 0)
		fail_msg("machine: %s", d.msg);
	if (cpus)
		assert_int_equal(machine_set_online(&out->m, cpus, &d), 0);
	const char *all[64];
	assert_true(ndefaults + nsets <= 64);
	for (int i = 0; i < ndefaults; i++)
		all[i] = defaults[i];
	for (int i = 0; i < nsets; i++)
		all[ndefaults + i] = sets[i];
	struct sim_config cfg = { .machine = &out->m, .workload = workload, .cpufreq = gov,
				  .cpuidle = idle_gov, .duration = (sim_ns)(seconds * 1e9),
				  .seed = seed, .nsets = ndefaults + nsets, .sets = all,
				  .check_invariants = check };
	struct sim *s;
	if (sim_create(&s, &cfg, &d) < 0)
		fail_msg("sim_create: %s", d.msg);
	if (sim_run(s, &out->r, &d) < 0)
		fail_msg("sim_run: %s", d.msg);
	out->r.m = &out->m; /* the sim's own copy goes away with it */
	sim_destroy(s);
}

const char *simtest_preset_text(const char *name)
{
	for (int i = 0; i < machine_preset_count(); i++)
		if (strcmp(machine_preset_name(i), name) == 0)
			return machine_preset_text(i);
	fail_msg("no preset %s", name);
	return NULL;
}

double simtest_extra(const struct run_result *r, const char *name)
{
	for (int i = 0; i < r->nextra; i++)
		if (strcmp(r->extra[i].name, name) == 0)
			return r->extra[i].value;
	fail_msg("no extra figure %s", name);
	return 0;
}

void simtest_rtapp_file(char *path, char *wl, size_t wlsize, const char *json)
{
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	snprintf(wl, wlsize, "rtapp:%s", path);
}

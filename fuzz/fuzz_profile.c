// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for the tuned profile loader: the input is a tuned.conf
 * (written to a temporary profile directory, so include= of the shipped
 * profiles and of itself work as they do for a user). Any input must give
 * a profile or a message; a profile's settings must be ones the simulator
 * takes: sim_create() with them must succeed. The first byte picks the
 * governor the caller runs (the profile's, or intel_pstate fixed), so
 * both drivers' mappings are exercised. The file lives in /dev/shm (memory)
 * and stays open: a run writes it with one pwrite, no disk I/O and no
 * process. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/sim.h"
#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[128];
static struct machine m;
static int fd = -1;

static void cleanup(void)
{
	char sub[160];
	unlink(path);
	snprintf(sub, sizeof(sub), "%s/fz", dir);
	rmdir(sub);
	rmdir(dir);
}

static int setup(void)
{
	struct pm_diag d = { "" };
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(dir), "%s/pmlab-fuzz-profile-%d", base, (int)getpid());
	if (mkdir(dir, 0700) != 0 && access(dir, W_OK) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/fz", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/fz/tuned.conf", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	atexit(cleanup);
	return machine_load(&m, "i7-4790", &d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	/* include=NAME finds the shipped profiles (run from the repository). */
	struct pm_diag d = { "" };
	struct profile p;

	if (!ready) {
		if (setup() != 0)
			abort();
		ready = 1;
	}
	if (size == 0)
		return 0;
	bool intel = data[0] & 1;
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();

	struct profile_env env = { intel ? "intel_pstate" : "performance", intel, NULL };
	char spec[160];
	snprintf(spec, sizeof(spec), "%s/fz", dir);
	const char *search[] = { dir, "data/profiles" };
	if (profile_load_env(&p, spec, &m, &env, search, 2, &d) != 0) {
		if (!d.msg[0]) {
			fprintf(stderr, "failed without a message\n");
			abort();
		}
		if (p.nsettings || p.settings || p.nskipped || p.skipped) {
			fprintf(stderr, "failed but kept a list\n");
			abort();
		}
		return 0;
	}
	const char *sets[256];
	struct sim_config cfg = { .machine = &m, .workload = "batch", .cpufreq = env.cpufreq,
				  .cpuidle = "menu", .duration = NS_PER_MS, .seed = 1 };
	for (int i = 0; i < p.nsettings; i++) {
		char kv[256];
		snprintf(kv, sizeof(kv), "%s=%s", p.settings[i].key, p.settings[i].value);
		if (!p.settings[i].key[0] || strcmp(kv, p.settings[i].kv) != 0 ||
		    !p.settings[i].origin[0]) {
			fprintf(stderr, "bad setting %d: '%s'\n", i, p.settings[i].kv);
			abort();
		}
	}
	if (p.nsettings <= 256 &&
	    profile_apply(&p, &cfg, intel, NULL, 0, sets, 256, &d) >= 0) {
		struct sim *s = NULL;
		if (sim_create(&s, &cfg, &d) != 0) {
			fprintf(stderr, "a resolved profile the simulator refuses: %s\n", d.msg);
			abort();
		}
		sim_destroy(s);
	}
	profile_free(&p);
	return 0;
}

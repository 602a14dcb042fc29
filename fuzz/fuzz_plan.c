// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target for a tuned profile planned onto a host (src/profile,
 * src/host/hostprofile.c, plan.c), the path `pmlab profile apply` takes
 * before it writes: the first byte picks one of the fake machines of
 * tests/fixtures/host, the rest is a tuned.conf (in memory: a file of
 * /dev/shm, kept open, as the loader wants a real path; include= finds the
 * test and shipped profiles). The machines are read once; a run spawns
 * nothing and writes nothing to disk, so it runs thousands of times a
 * second. Any input gives a plan or one message; a plan writes only
 * files of the allow-list that the machine has (or that appear with an
 * earlier write), one value each, in phase order, each value one line. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/hostprofile.h"
#include "host/plan.h"
#include "host/plan_paths.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const machines[] = {
	"tests/fixtures/host/intel-hwp-laptop", "tests/fixtures/host/acpi-cpufreq-server",
	"tests/fixtures/host/amd-pstate-epp-desktop", "tests/fixtures/host/vm-no-cpufreq",
};
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))

static struct hostfs fs[NMACHINES];
static struct host_info hi[NMACHINES];

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "broken: %s\n", what);
		abort();
	}
}

static char *dir_to_remove;

static void cleanup(void)
{
	char p[128];
	snprintf(p, sizeof(p), "%s/tuned.conf", dir_to_remove);
	unlink(p);
	rmdir(dir_to_remove);
}

static void setup(void)
{
	for (size_t i = 0; i < NMACHINES; i++) {
		struct pm_diag d = { { 0 } };
		if (hostfs_open(&fs[i], machines[i], &d) < 0 || host_info_load(&hi[i], &fs[i], &d) < 0) {
			fprintf(stderr, "%s (run from the repository root)\n", d.msg);
			abort();
		}
		fs[i].fail_at = fs[i].pause_at = 0;
		fs[i].fail_path[0] = '\0';
	}
}

static void check_plan(const struct host_plan *pl, const struct hostfs *f)
{
	for (int i = 0; i < pl->n; i++) {
		const struct plan_entry *e = &pl->e[i];
		check(host_plan_path_ok(e->path), "a path of the allow-list");
		check(e->appears || hostfs_exists(f, e->path), "a file the machine has");
		check(!strchr(e->value, '\n'), "one line per value");
		check(i == 0 || pl->e[i - 1].order <= e->order, "phase order");
		for (int k = 0; k < i; k++)
			check(strcmp(pl->e[k].path, e->path) != 0, "one write per file");
	}
	check(pl->latency_us >= -1 && pl->latency_us <= 2000000000, "PM QoS request in range");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char dir[64], path[96];
	if (fd < 0) {
		setup();
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(dir, sizeof(dir), "%s/pmlab-fuzz-plan-%d", base, (int)getpid());
		snprintf(path, sizeof(path), "%s/tuned.conf", dir);
		check(mkdir(dir, 0700) == 0 || access(dir, W_OK) == 0, "a directory in /dev/shm");
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		check(fd >= 0, "the profile file");
		dir_to_remove = dir;
		atexit(cleanup);
	}
	if (size == 0)
		return 0;
	size_t k = data[0] % NMACHINES;
	check(ftruncate(fd, 0) == 0 && pwrite(fd, data + 1, size - 1, 0) == (ssize_t)(size - 1),
	      "the profile written");
	static const char *const dirs[] = { "tests/fixtures/host/profiles", "data/profiles" };
	struct profile p;
	struct pm_diag d = { { 0 } };
	if (host_profile_load(&p, path, &fs[k], &hi[k], dirs, 2, &d) < 0) {
		check(d.msg[0] != '\0', "a message");
		return 0;
	}
	struct host_plan pl;
	host_plan_init(&pl, path);
	if (host_plan_build(&pl, &fs[k], &hi[k], &p, &d) < 0)
		check(d.msg[0] != '\0', "a message");
	else
		check_plan(&pl, &fs[k]);
	host_plan_free(&pl);
	profile_free(&p);
	return 0;
}

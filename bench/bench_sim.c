// SPDX-License-Identifier: GPL-2.0-only
/* Benchmarks of the simulator's own speed: events per wall-clock second
 * and simulated seconds per wall-clock second, plus peak memory. Prints
 * figures; asserts nothing (speed is not a test). */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine/sim.h"

static double wall_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench(const char *label, const char *machine, const char *workload, const char *gov,
		 const char *idle, double seconds, const char *const *sets, int nsets)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	if (machine_load(&m, machine, &d) < 0) {
		fprintf(stderr, "bench: %s\n", d.msg);
		return -1;
	}
	struct sim_config cfg = { .machine = &m, .workload = workload, .cpufreq = gov,
				  .cpuidle = idle, .duration = (sim_ns)(seconds * 1e9),
				  .seed = 1, .nsets = nsets, .sets = sets };
	struct sim *s;
	double t0 = wall_seconds();
	if (sim_create(&s, &cfg, &d) < 0) {
		fprintf(stderr, "bench: %s\n", d.msg);
		sim_destroy(s);
		return -1;
	}
	struct run_result r;
	int rc = sim_run(s, &r, &d);
	double wall = wall_seconds() - t0;
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", d.msg);
	} else {
		printf("%-40s %6.0f sim s %11llu events (+%llu cancelled) %7.3f wall s "
		       "%6.2f M events/s %8.1f sim-s/wall-s\n",
		       label, (double)r.duration_ns * 1e-9, (unsigned long long)r.events,
		       (unsigned long long)r.stale_events, wall, (double)r.events / wall / 1e6,
		       (double)r.duration_ns * 1e-9 / wall);
	}
	result_free(&r);
	sim_destroy(s);
	return rc;
}

int main(void)
{
	static const char *const periodic128[] = { "tasks=128", "period_us=10000", "run_us=2000" };
	static const char *const pingpong[] = { "pairs=1" };
	static const char *const batch8[] = { "work_ms=60000" };
	static const char *const tbench16[] = { "clients=16" };
	static const char *const hackbench10[] = { "groups=10" };
	int rc = 0;
	rc |= bench("pingpong, i7-4790", "i7-4790", "pingpong", "performance", "deepest", 60, pingpong, 1);
	/* Governor-heavy: schedutil's hook on every enqueue and dequeue of a
	 * context-switch-heavy load, with menu choosing every idle state. */
	static const char *const pingpong4[] = { "pairs=4" };
	rc |= bench("pingpong 4 pairs, schedutil+menu, i7-4790", "i7-4790", "pingpong", "schedutil", "menu", 60,
		    pingpong4, 1);
	rc |= bench("periodic 128 tasks, power9-2n128", "power9-2n128", "periodic", "performance", "deepest", 60, periodic128, 3);
	rc |= bench("batch 8 tasks x 60 s, i7-4790", "i7-4790", "batch", "performance", "deepest", 600, batch8, 1);
	rc |= bench("tbench 16 clients, i7-4790", "i7-4790", "tbench", "performance", "deepest", 10, tbench16, 1);
	/* Ends when the run completes (about a quarter of a second). */
	rc |= bench("hackbench 10 groups, i7-4790", "i7-4790", "hackbench", "performance", "deepest", 60, hackbench10, 1);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak resident memory: %ld KiB\n", ru.ru_maxrss);
	return rc ? 1 : 0;
}

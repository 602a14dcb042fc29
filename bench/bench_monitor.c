// SPDX-License-Identifier: GPL-2.0-only
/* The cost of pmlab monitor: CPU time (user + system, this process) per
 * sample -- every source read once: /proc/stat, APERF/MPERF/TSC, the
 * cpufreq and cpuidle files of every CPU, the RAPL counters -- on this
 * machine (read-only) and on the fake Intel laptop of the tests, with
 * every source present. The target is < 0.1 % of one CPU at the 1 s
 * interval, i.e. < 1000 us per sample.
 * Then its own wake-ups: `pmlab monitor` run for a number of intervals on
 * the fake laptop, counted as the times it gave up the CPU (its voluntary
 * context switches, from wait4()): one per interval is the least a
 * sampler can do; more means it polls or wakes early. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/monitor.h"

#define SAMPLES 2000

static double cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bench(const char *name, const char *root)
{
	struct hostfs fs;
	struct monitor m;
	struct mon_sample a, b;
	struct mon_result r;
	struct pm_diag d = { { 0 } };
	if (hostfs_open(&fs, root, &d) < 0 || monitor_open(&m, &fs, &d) < 0) {
		fprintf(stderr, "bench_monitor: %s: %s\n", name, d.msg);
		return 1;
	}
	if (monitor_sample_init(&m, &a, &d) < 0 || monitor_sample_init(&m, &b, &d) < 0)
		return 1;
	monitor_sample(&m, &a, &d);
	double t0 = cpu_us();
	for (int i = 0; i < SAMPLES; i++) {
		monitor_sample(&m, i % 2 ? &a : &b, &d);
		monitor_compute(&m, i % 2 ? &b : &a, i % 2 ? &a : &b, &r, &d);
		monitor_result_free(&r);
	}
	double per = (cpu_us() - t0) / SAMPLES;
	printf("monitor %-34s %3d CPUs %2d C-states %d RAPL zones%s: %7.1f us CPU per sample, "
	       "%.4f %% of one CPU at 1 s %s\n", name, m.ncpus, m.hi.ncstates, m.hi.nzones,
	       m.have_msr ? ", MSR" : "", per, per / 1e6 * 100, per < 1000 ? "(< 0.1 %: ok)"
								     : "(over the 0.1 % target)");
	monitor_sample_free(&a);
	monitor_sample_free(&b);
	monitor_close(&m);
	hostfs_close(&fs);
	return 0;
}

/* `pmlab monitor --count N` on the tree at root: its voluntary context
 * switches per interval. */
static int wakeups(const char *root)
{
	const int count = 20;
	char count_s[16];
	snprintf(count_s, sizeof(count_s), "%d", count);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(PMLAB_BIN, PMLAB_BIN, "monitor", "--root", root, "--interval", "0.05", "--count",
		      count_s, "--summary", (char *)NULL);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench_monitor: pmlab monitor failed on %s\n", root);
		return 1;
	}
	printf("monitor wake-ups (pmlab monitor, %d intervals of 50 ms, fake laptop): %ld voluntary "
	       "+ %ld involuntary context switches, %.2f wake-ups per interval %s\n", count,
	       ru.ru_nvcsw, ru.ru_nivcsw, (double)ru.ru_nvcsw / count,
	       ru.ru_nvcsw <= count + 2 ? "(one per interval: ok)" : "(more than one per interval)");
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/pmlab-bench-monitor-XXXXXX", cmd[4096];
	int rc = bench("this machine (read-only)", "/");
	if (!mkdtemp(dir))
		return 1;
	/* the laptop of the tests, with plain-file MSRs (register R at 8 x R) */
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/host/intel-hwp-laptop/.' '%s/' && "
		 "for c in 0 1 2 3; do mkdir -p '%s/dev/cpu/'$c && "
		 "truncate -s 4096 '%s/dev/cpu/'$c/msr; done", PMLAB_SOURCE_ROOT, dir, dir, dir);
	if (system(cmd) == 0) {
		rc |= bench("fake Intel laptop (every source)", dir);
		rc |= wakeups(dir);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}

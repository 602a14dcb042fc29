// SPDX-License-Identifier: GPL-2.0-only
/* The userspace-governor daemon. See govd.h. */
#include "govd.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../cpufreq/cpufreq.h"
#include "hostsig.h"
#include "inventory.h"
#include "peer.h"
#include "procstat.h"
#include "txn.h"

#define SCHED_CAPACITY_SCALE 1024
#define SYNTH_STEP_KHZ 100000 /* table step for drivers without one (intel_cpufreq) */

struct govd_policy {
	struct cpufreq_policy p;
	int id;
	int *cpus;
	uint32_t *table;
	char setspeed[HOSTFS_PATH_MAX];
	bool started;
};

struct govd_cpu {
	int cpu;
	struct procstat_cpu last;
	int64_t busy_ns, idle_ns, iowait_ns;
	uint64_t idle_calls;
	double busy_frac;              /* of the last sample */
	uint64_t aperf, mperf, tsc;    /* kHz x us */
	const struct govd_policy *pol;
};

struct govd {
	struct hostfs *fs;
	struct govd_config c;
	const struct cpufreq_governor *gov;
	int npol;
	struct govd_policy *pol;
	int ncpus;
	struct govd_cpu *cpu;
	int64_t now_ns;
	long clk_tck;
	int stat_fd;
	char *buf;
	size_t bufcap;
	bool failed;
	char err[PM_DIAG_MAX];
};

static struct govd_cpu *cpu_of(struct govd *g, int cpu)
{
	for (int i = 0; i < g->ncpus; i++)
		if (g->cpu[i].cpu == cpu)
			return &g->cpu[i];
	return NULL;
}

static void gd_cpu_times(void *ctx, int cpu, struct cpu_times *out)
{
	const struct govd_cpu *c = cpu_of(ctx, cpu);
	*out = (struct cpu_times){ 0 };
	if (c)
		*out = (struct cpu_times){ c->busy_ns, c->idle_ns, c->iowait_ns, c->idle_calls };
}

static void gd_cpu_util(void *ctx, int cpu, struct cpu_util *out)
{
	const struct govd_cpu *c = cpu_of(ctx, cpu);
	*out = (struct cpu_util){ 0, SCHED_CAPACITY_SCALE, 0, SCHED_CAPACITY_SCALE };
	if (!c || !c->pol)
		return;
	/* Busy at cur for this share of the time: the invariant utilization
	 * is that share of cur's capacity against the highest frequency. */
	const struct cpufreq_policy *p = &c->pol->p;
	double u = c->busy_frac * SCHED_CAPACITY_SCALE * p->cur / (p->cpuinfo_max ? p->cpuinfo_max : 1);
	out->util = u > SCHED_CAPACITY_SCALE ? SCHED_CAPACITY_SCALE : (unsigned long)u;
}

static void gd_cpu_counters(void *ctx, int cpu, struct cpu_counters *out)
{
	const struct govd_cpu *c = cpu_of(ctx, cpu);
	*out = (struct cpu_counters){ 0 };
	if (c)
		*out = (struct cpu_counters){ c->aperf / 1000, c->mperf / 1000, c->tsc / 1000 };
}

static void gd_set_target(void *ctx, struct cpufreq_policy *p, uint32_t khz)
{
	struct govd *g = ctx;
	struct govd_policy *gp = (struct govd_policy *)((char *)p - offsetof(struct govd_policy, p));
	char v[16];
	struct pm_diag d;
	if (g->failed)
		return;
	int n = snprintf(v, sizeof(v), "%u", khz);
	if (hostfs_write(g->fs, gp->setspeed, v, (size_t)n, &d) < 0) {
		g->failed = true;
		snprintf(g->err, sizeof(g->err), "%s", d.msg);
		return;
	}
	if (g->c.log)
		fprintf(g->c.log, "%.3f,policy%d,%u\n", (double)g->now_ns / 1e9, gp->id, khz);
}

static const struct cpufreq_driver govd_driver = {
	.cpu_times = gd_cpu_times,
	.cpu_util = gd_cpu_util,
	.cpu_counters = gd_cpu_counters,
	.set_target = gd_set_target,
};

/* Offers each TUNABLE=VALUE to the governor's tunables. */
static int apply_sets(const struct govd_config *c, const struct cpufreq_governor *gov, void *data,
		      struct pm_diag *d)
{
	for (int i = 0; i < c->nsets; i++) {
		const char *kv = c->sets[i], *eq = strchr(kv, '=');
		char key[128];
		if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key))
			return pm_fail(d, "--set %s: expected TUNABLE=VALUE", kv);
		memcpy(key, kv, (size_t)(eq - kv));
		key[eq - kv] = '\0';
		struct pm_diag why;
		int r = tunables_write(gov->tunables, gov->ntunables, data, key, eq + 1, &why);
		if (r < 0)
			return pm_fail(d, "--set %s", why.msg);
		if (r == 0)
			return pm_fail(d, "--set %s: '%s' is not a tunable of %s (see pmlab governors)",
				       kv, key, gov->name);
	}
	return 0;
}

int govd_check(const struct govd_config *c, struct pm_diag *d)
{
	static const char *const ok[] = { "ondemand", "conservative", "schedutil" };
	bool known = false;
	for (size_t i = 0; c->governor && i < sizeof(ok) / sizeof(ok[0]); i++)
		known |= strcmp(c->governor, ok[i]) == 0;
	if (!known)
		return pm_fail(d, "--governor %s: expected ondemand, conservative or schedutil",
			       c->governor ? c->governor : "(none)");
	if (c->interval_ms < 1 || c->interval_ms > 60000)
		return pm_fail(d, "--interval-ms %d: expected 1..60000", c->interval_ms);
	if (c->hz != 100 && c->hz != 250 && c->hz != 300 && c->hz != 1000)
		return pm_fail(d, "--hz %d: expected 100, 250, 300 or 1000", c->hz);
	const struct cpufreq_governor *gov = cpufreq_governor_find(c->governor);
	void *data = calloc(1, gov->data_size ? gov->data_size : 1);
	if (!data)
		return pm_fail(d, "out of memory");
	tunables_set_defaults(gov->tunables, gov->ntunables, data);
	int rc = apply_sets(c, gov, data, d);
	free(data);
	return rc;
}

/* /proc/stat through the root, whole. */
static int read_stat(struct govd *g, struct procstat *st, struct pm_diag *d)
{
	for (;;) {
		ssize_t n = pread(g->stat_fd, g->buf, g->bufcap - 1, 0);
		if (n < 0)
			return pm_fail(d, "/proc/stat: cannot read: %s", strerror(errno));
		if ((size_t)n < g->bufcap - 1)
			return procstat_parse(st, g->buf, (size_t)n, "/proc/stat", d);
		char *grown = g->bufcap < (64u << 20) ? realloc(g->buf, g->bufcap * 2) : NULL;
		if (!grown)
			return pm_fail(d, "/proc/stat: too large");
		g->buf = grown;
		g->bufcap *= 2;
	}
}

static int check_machine(const struct host_info *hi, struct pm_diag *d)
{
	if (!hi->npolicies)
		return pm_fail(d, "no cpufreq on this machine: /%s has no policy (no cpufreq driver "
			       "loaded, as in most VMs); govd needs one with the userspace governor",
			       HOST_CPUFREQ_DIR);
	for (int i = 0; i < hi->npolicies; i++) {
		const struct host_policy *p = &hi->pol[i];
		if (!host_list_has(p->governors, "userspace") || !p->has_setspeed)
			return pm_fail(d, "policy%d (driver %s) has no userspace governor (available: "
				       "%s)%s", p->id, p->driver[0] ? p->driver : "unknown",
				       p->governors[0] ? p->governors : "none",
				       strcmp(p->driver, "intel_pstate") == 0
					       ? ": boot with intel_pstate=passive" : "");
		if (!p->cpuinfo_min || p->cpuinfo_max < p->cpuinfo_min)
			return pm_fail(d, "policy%d: no cpuinfo_min_freq/cpuinfo_max_freq", p->id);
	}
	return 0;
}

/* The frequency table: the driver's, else steps between the limits. */
static int make_table(struct govd_policy *gp, const struct host_policy *hp)
{
	int n = hp->nfreqs;
	if (!n)
		n = (int)((hp->cpuinfo_max - hp->cpuinfo_min) / SYNTH_STEP_KHZ) + 2;
	gp->table = calloc((size_t)n, sizeof(*gp->table));
	if (!gp->table)
		return -1;
	if (hp->nfreqs) {
		memcpy(gp->table, hp->freqs, (size_t)n * sizeof(*gp->table));
	} else {
		int k = 0;
		for (uint32_t f = hp->cpuinfo_min; f < hp->cpuinfo_max; f += SYNTH_STEP_KHZ)
			gp->table[k++] = f;
		gp->table[k++] = hp->cpuinfo_max;
		n = k;
	}
	gp->p.table = gp->table;
	gp->p.ntable = n;
	return 0;
}

static int start_policy(struct govd *g, struct govd_policy *gp, const struct host_policy *hp,
			struct pm_diag *d)
{
	struct cpufreq_policy *p = &gp->p;
	gp->id = hp->id;
	host_policy_path(gp->setspeed, sizeof(gp->setspeed), hp->id, "scaling_setspeed");
	gp->cpus = malloc((size_t)hp->ncpus * sizeof(*gp->cpus));
	if (!gp->cpus || make_table(gp, hp) < 0)
		return pm_fail(d, "out of memory");
	memcpy(gp->cpus, hp->cpus, (size_t)hp->ncpus * sizeof(*gp->cpus));
	p->id = hp->id;
	p->ncpus = hp->ncpus;
	p->cpus = gp->cpus;
	p->cpuinfo_min = hp->cpuinfo_min;
	p->cpuinfo_max = hp->cpuinfo_max;
	p->base_khz = hp->base_khz ? hp->base_khz : hp->cpuinfo_max;
	p->tick_ns = (NS_PER_SEC + g->c.hz / 2) / g->c.hz;
	p->min = hp->cpuinfo_min;
	p->max = hp->cpuinfo_max;
	p->transition_latency_ns = hp->transition_latency_ns;
	p->gov = g->gov;
	p->driver = &govd_driver;
	p->driver_ctx = g;
	char rel[HOSTFS_PATH_MAX];
	uint64_t cur = 0;
	struct pm_diag ignore;
	host_policy_path(rel, sizeof(rel), hp->id, "scaling_cur_freq");
	if (hostfs_read_u64(g->fs, rel, &cur, &ignore) < 0 || cur > UINT32_MAX)
		cur = hp->cpuinfo_max;
	p->cur = cpufreq_resolve(p, (uint32_t)cur, RELATION_C);
	p->gov_data = calloc(1, g->gov->data_size ? g->gov->data_size : 1);
	if (!p->gov_data)
		return pm_fail(d, "out of memory");
	tunables_set_defaults(g->gov->tunables, g->gov->ntunables, p->gov_data);
	if (apply_sets(&g->c, g->gov, p->gov_data, d) < 0)
		return -1;
	for (int k = 0; k < hp->ncpus; k++) {
		struct govd_cpu *c = cpu_of(g, hp->cpus[k]);
		if (c)
			c->pol = gp;
	}
	if (g->gov->start && g->gov->start(p, d) < 0)
		return -1;
	gp->started = true;
	/* cpufreq_start_governor(): start, then the limits in force. */
	uint32_t lo = hp->scaling_min ? hp->scaling_min : hp->cpuinfo_min;
	uint32_t up = hp->scaling_max ? hp->scaling_max : hp->cpuinfo_max;
	if (cpufreq_set_limits(p, lo, up, d) < 0)
		return -1;
	if (g->failed)
		return pm_fail(d, "%s", g->err);
	return 0;
}

static void free_govd(struct govd *g)
{
	for (int i = 0; i < g->npol; i++) {
		struct govd_policy *gp = &g->pol[i];
		if (gp->started && g->gov->stop)
			g->gov->stop(&gp->p);
		free(gp->p.gov_data);
		free(gp->cpus);
		free(gp->table);
	}
	if (g->stat_fd >= 0)
		close(g->stat_fd);
	free(g->pol);
	free(g->cpu);
	free(g->buf);
	free(g);
}

int govd_recover(struct hostfs *fs, FILE *log, bool *had, struct pm_diag *d)
{
	struct host_state st;
	*had = false;
	int rc = host_txn_load(fs, GOVD_STATE, &st, had, d);
	if (rc < 0 || !*had)
		return rc;
	bool running = st.owner_pid && host_proc_alive(st.owner_pid, st.owner_start);
	host_state_free(&st);
	if (running) {
		*had = false; /* its own exit restores it */
		return 0;
	}
	return host_txn_restore(fs, GOVD_STATE, had, log, d);
}

/* The machine back as it was: the previous governor, scaling_setspeed. */
static int restore(struct hostfs *fs, struct pm_diag *d)
{
	int lock = hostfs_lock(fs, d);
	if (lock < 0)
		return lock;
	bool had;
	int rc = host_txn_restore(fs, GOVD_STATE, &had, NULL, d);
	close(lock);
	return rc;
}

/* Under the lock: no other govd may run; a killed one's state is
 * restored by the transaction first. The state then names this process as
 * its owner, so that apply and off leave it alone while it runs and
 * recover it once it is gone (govd_recover). */
static int switch_locked(struct hostfs *fs, const struct host_plan *pl, struct pm_diag *d)
{
	struct host_state st;
	bool had;
	int rc = host_txn_load(fs, GOVD_STATE, &st, &had, d);
	if (rc < 0)
		return rc;
	long other = had && st.owner_pid != (long)getpid() &&
			     host_proc_alive(st.owner_pid, st.owner_start) ? st.owner_pid : 0;
	host_state_free(&st);
	if (other)
		return pm_fail(d, "a pmlab govd already runs (pid %ld): stop it first", other);
	struct txn_opts to = { .state_name = GOVD_STATE };
	struct txn_result r;
	rc = host_txn_apply(fs, pl, &to, &r, d);
	if (rc < 0)
		return rc;
	rc = host_txn_load(fs, GOVD_STATE, &st, &had, d);
	if (rc == 0 && had) {
		st.owner_pid = (long)getpid();
		st.owner_start = host_proc_start(st.owner_pid);
		rc = host_txn_save(fs, GOVD_STATE, &st, d);
		host_state_free(&st);
	}
	if (rc < 0 || !had) {
		char why[PM_DIAG_MAX];
		struct pm_diag rd;
		snprintf(why, sizeof(why), "%s", had ? d->msg : "the state vanished");
		if (host_txn_restore(fs, GOVD_STATE, &had, NULL, &rd) < 0)
			return pm_fail(d, "%s; restoring failed too: %s", why, rd.msg);
		return pm_fail(d, "%s (restored)", why);
	}
	return 0;
}

static int switch_to_userspace(struct hostfs *fs, const struct host_info *hi,
			       const struct govd_config *c, struct pm_diag *d)
{
	struct host_plan pl;
	char rel[HOSTFS_PATH_MAX], name[96];
	int rc = 0;
	snprintf(name, sizeof(name), "govd:%s", c->governor);
	host_plan_init(&pl, name);
	for (int i = 0; i < hi->npolicies && rc == 0; i++) {
		/* setspeed first: restored last, once the governor is back
		 * (and the kernel shows "<unsupported>" again). */
		host_policy_path(rel, sizeof(rel), hi->pol[i].id, "scaling_setspeed");
		rc = host_plan_add(&pl, PHASE_WATCH, rel, "", "scaling_setspeed", NULL, false, d);
		host_policy_path(rel, sizeof(rel), hi->pol[i].id, "scaling_governor");
		if (rc == 0)
			rc = host_plan_add(&pl, PHASE_GOVERNOR, rel, "userspace", "governor", NULL,
					   true, d);
	}
	host_plan_sort(&pl);
	int lock = rc < 0 ? rc : hostfs_lock(fs, d);
	if (lock >= 0) {
		rc = switch_locked(fs, &pl, d);
		close(lock);
	} else {
		rc = lock;
	}
	host_plan_free(&pl);
	return rc;
}

int govd_start(struct govd **out, struct hostfs *fs, const struct govd_config *c,
	       struct pm_diag *d)
{
	*out = NULL;
	if (govd_check(c, d) < 0)
		return -2;
	struct host_info hi;
	if (host_info_load(&hi, fs, d) < 0)
		return -1;
	if (check_machine(&hi, d) < 0) {
		/* A machine without what govd needs is missing sysfs files:
		 * exit 2, as for any bad input. */
		host_info_free(&hi);
		return -2;
	}
	struct govd *g = calloc(1, sizeof(*g));
	if (!g) {
		host_info_free(&hi);
		return pm_fail(d, "out of memory");
	}
	g->fs = fs;
	g->c = *c;
	g->gov = cpufreq_governor_find(c->governor);
	g->clk_tck = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	g->bufcap = 64 * 1024;
	g->buf = malloc(g->bufcap);
	g->pol = calloc((size_t)hi.npolicies, sizeof(*g->pol));
	g->cpu = calloc((size_t)hi.ncpus + 1, sizeof(*g->cpu));
	g->stat_fd = hostfs_open_ro(fs, HOST_PROC_STAT);
	struct procstat st = { 0 };
	int rc = -1;
	if (!g->buf || !g->pol || !g->cpu) {
		pm_fail(d, "out of memory");
		goto fail;
	}
	if (g->stat_fd < 0) {
		pm_fail(d, "/proc/stat: cannot read: %s", strerror(errno));
		goto fail;
	}
	if (read_stat(g, &st, d) < 0)
		goto fail;
	g->ncpus = hi.ncpus;
	for (int i = 0; i < hi.ncpus; i++) {
		const struct procstat_cpu *pc = procstat_find(&st, hi.cpus[i]);
		g->cpu[i].cpu = hi.cpus[i];
		if (pc)
			g->cpu[i].last = *pc;
	}
	int switched = switch_to_userspace(fs, &hi, c, d);
	if (switched < 0) {
		rc = switched;
		goto fail;
	}
	for (int i = 0; i < hi.npolicies; i++) {
		g->npol++;
		if (start_policy(g, &g->pol[i], &hi.pol[i], d) < 0) {
			char why[PM_DIAG_MAX];
			struct pm_diag rd;
			snprintf(why, sizeof(why), "%s", d->msg);
			free_govd(g);
			g = NULL;
			if (restore(fs, &rd) < 0)
				pm_fail(d, "%s; restoring failed too: %s", why, rd.msg);
			goto fail;
		}
	}
	*out = g;
	g = NULL;
	rc = 0;
fail:
	procstat_free(&st);
	host_info_free(&hi);
	if (g)
		free_govd(g);
	return rc;
}

int govd_step(struct govd *g, int64_t now_ns, struct pm_diag *d)
{
	struct procstat st = { 0 };
	if (read_stat(g, &st, d) < 0) {
		procstat_free(&st);
		return -1;
	}
	g->now_ns = now_ns;
	int64_t tick_ns = NS_PER_SEC / g->clk_tck;
	for (int i = 0; i < g->ncpus; i++) {
		struct govd_cpu *c = &g->cpu[i];
		const struct procstat_cpu *pc = procstat_find(&st, c->cpu);
		if (!pc)
			continue; /* went offline: its times stand still */
		struct procstat_delta dl;
		procstat_delta(&c->last, pc, &dl);
		c->last = *pc;
		c->busy_ns += (int64_t)dl.busy * tick_ns;
		c->idle_ns += (int64_t)dl.idle * tick_ns;
		c->iowait_ns += (int64_t)dl.iowait * tick_ns;
		if (dl.idle + dl.iowait)
			c->idle_calls++;
		if (dl.total)
			c->busy_frac = (double)dl.busy / (double)dl.total;
		if (c->pol) {
			uint64_t busy_us = dl.busy * (uint64_t)tick_ns / 1000;
			uint64_t all_us = dl.total * (uint64_t)tick_ns / 1000;
			c->aperf += (uint64_t)c->pol->p.cur * busy_us;
			c->mperf += (uint64_t)c->pol->p.base_khz * busy_us;
			c->tsc += (uint64_t)c->pol->p.base_khz * all_us;
		}
	}
	procstat_free(&st);
	for (int i = 0; i < g->npol && !g->failed; i++) {
		struct cpufreq_policy *p = &g->pol[i].p;
		for (int k = 0; g->gov->update && k < p->ncpus && !g->failed; k++)
			g->gov->update(p, p->cpus[k], now_ns, 0);
	}
	if (g->failed)
		return pm_fail(d, "%s", g->err);
	return 0;
}

int govd_stop(struct govd *g, struct pm_diag *d)
{
	struct hostfs *fs = g->fs;
	free_govd(g);
	return restore(fs, d);
}

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int govd_run(struct hostfs *fs, const struct govd_config *c, struct pm_diag *d)
{
	struct govd *g;
	if (host_signals_install() < 0)
		return pm_fail(d, "cannot install signal handlers");
	int rc = govd_start(&g, fs, c, d);
	if (rc < 0)
		return rc;
	/* The header once the machine is ours: nothing on stdout when it
	 * cannot start (no cpufreq). */
	if (c->log) {
		fprintf(c->log, "t_s,policy,khz\n");
		fflush(c->log);
	}
	int64_t t0 = mono_ns(), end = c->duration_s > 0 ? t0 + (int64_t)(c->duration_s * 1e9) : 0;
	rc = 0;
	while (!host_stop_requested()) {
		host_signal_wait(c->interval_ms);
		if (host_stop_requested())
			break;
		int64_t now = mono_ns();
		if (govd_step(g, now - t0, d) < 0) {
			rc = -1;
			break;
		}
		if (end && now >= end)
			break;
	}
	char why[PM_DIAG_MAX];
	snprintf(why, sizeof(why), "%s", d->msg);
	struct pm_diag rd;
	if (govd_stop(g, &rd) < 0)
		return rc < 0 ? pm_fail(d, "%s; restoring failed too: %s", why, rd.msg)
			      : pm_fail(d, "%s", rd.msg);
	return rc;
}

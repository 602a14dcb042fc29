// SPDX-License-Identifier: GPL-2.0-only
/* The host sampler and its arithmetic. See monitor.h. */
#include "monitor.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MSR_TSC 0x10
#define MSR_MPERF 0xe7
#define MSR_APERF 0xe8
#define STAT_BUF_MIN (64 * 1024)
#define STAT_BUF_MAX (64 * 1024 * 1024)

static const char *const cs_files[4] = { "time", "usage", "above", "below" };

static void note(struct monitor *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct monitor *m, const char *fmt, ...)
{
	if (m->nabsent == MON_MAX_ABSENT)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->absent[m->nabsent++], MON_ABSENT_MAX, fmt, ap);
	va_end(ap);
}

/* keep: whether a descriptor may stay open (the budget allows). */
static void file_init(const struct monitor *m, struct mon_file *f, const char *rel, bool keep)
{
	snprintf(f->path, sizeof(f->path), "%s", rel);
	f->fd = keep ? hostfs_open_ro(m->fs, rel) : -1;
}

static void file_close(struct mon_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Up to len - 1 bytes from offset 0, NUL-terminated. */
static ssize_t file_read(const struct monitor *m, const struct mon_file *f, char *buf, size_t len)
{
	int fd = f->fd >= 0 ? f->fd : hostfs_open_ro(m->fs, f->path);
	if (fd < 0)
		return -1;
	size_t n = 0;
	while (n < len - 1) {
		ssize_t r = pread(fd, buf + n, len - 1 - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				n = (size_t)-1;
			break;
		}
		n += (size_t)r;
	}
	if (f->fd < 0)
		close(fd);
	if (n == (size_t)-1)
		return -1;
	buf[n] = '\0';
	return (ssize_t)n;
}

static int file_u64(const struct monitor *m, const struct mon_file *f, uint64_t *v)
{
	char buf[64], *end;
	if (file_read(m, f, buf, sizeof(buf)) <= 0 || !isdigit((unsigned char)buf[0]))
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || (*end && !isspace((unsigned char)*end)) ? -1 : 0;
}

static int msr_read(const struct monitor *m, const struct mon_file *f, off_t reg, uint64_t *v)
{
	int fd = f->fd >= 0 ? f->fd : hostfs_open_ro(m->fs, f->path);
	if (fd < 0)
		return -1;
	ssize_t r = pread(fd, v, sizeof(*v), m->msr_plain ? reg * 8 : reg);
	if (f->fd < 0)
		close(fd);
	return r == (ssize_t)sizeof(*v) ? 0 : -1;
}

/* Whether per-state descriptors fit well inside RLIMIT_NOFILE. */
static bool fds_fit(size_t needed)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return needed < 4096;
	return needed + 64 < rl.rlim_cur;
}

static void open_cpus(struct monitor *m)
{
	const struct host_info *hi = &m->hi;
	char rel[HOSTFS_PATH_MAX];
	size_t needed = (size_t)m->ncpus * (2 + 4 * (size_t)hi->ncstates) + (size_t)hi->nzones + 1;
	bool keep = fds_fit(needed);
	int msr_err = 0;
	struct stat sb;
	m->have_msr = hi->ncpus > 0;
	hostfs_path(rel, sizeof(rel), "dev/cpu/%d/msr", hi->ncpus ? hi->cpus[0] : 0);
	m->msr_plain = hostfs_stat(m->fs, rel, &sb) == 0 && S_ISREG(sb.st_mode);
	m->have_cur = hi->npolicies > 0;
	for (int i = 0; i < m->ncpus; i++) {
		struct mon_cpu *c = &m->cpu[i];
		c->cpu = hi->cpus[i];
		hostfs_path(rel, sizeof(rel), "dev/cpu/%d/msr", c->cpu);
		file_init(m, &c->msr, rel, true);
		uint64_t v;
		if (m->have_msr && (c->msr.fd < 0 || msr_read(m, &c->msr, MSR_APERF, &v) < 0)) {
			msr_err = errno ? errno : EIO;
			m->have_msr = false;
		}
		const struct host_policy *p = host_cpu_policy(hi, c->cpu);
		c->cur.fd = -1;
		if (p && p->has_cur) {
			host_policy_path(rel, sizeof(rel), p->id, "scaling_cur_freq");
			file_init(m, &c->cur, rel, keep);
		} else {
			m->have_cur = false;
		}
		c->st = calloc((size_t)hi->ncstates * 4 + 1, sizeof(*c->st));
		for (int s = 0; c->st && s < hi->ncstates; s++)
			for (int k = 0; k < 4; k++) {
				host_cstate_path(rel, sizeof(rel), c->cpu, s, cs_files[k]);
				file_init(m, &c->st[s * 4 + k], rel, keep);
			}
	}
	if (!m->have_msr)
		for (int i = 0; i < m->ncpus; i++)
			file_close(&m->cpu[i].msr);
	if (!m->have_msr && m->have_cur)
		note(m, "no APERF/MPERF (/dev/cpu/%d/msr: %s): Busy%% from /proc/stat, Bzy_MHz from "
		     "scaling_cur_freq", m->ncpus ? m->cpu[0].cpu : 0, strerror(msr_err));
	else if (!m->have_msr)
		note(m, "no APERF/MPERF (/dev/cpu/%d/msr: %s) and no cpufreq: Busy%% from /proc/stat, "
		     "Avg_MHz and Bzy_MHz show -", m->ncpus ? m->cpu[0].cpu : 0, strerror(msr_err));
	if (!hi->ncstates)
		note(m, "no cpuidle states (driver %s): no C-state columns",
		     hi->idle_driver[0] ? hi->idle_driver : "none");
}

static void open_zones(struct monitor *m)
{
	const struct host_info *hi = &m->hi;
	char rel[HOSTFS_PATH_MAX];
	m->zone = calloc((size_t)hi->nzones + 1, sizeof(*m->zone));
	m->have_rapl = hi->nzones > 0 && m->zone;
	for (int z = 0; m->zone && z < hi->nzones; z++) {
		snprintf(rel, sizeof(rel), "%s/energy_uj", hi->zones[z].dir);
		file_init(m, &m->zone[z], rel, true);
		uint64_t v;
		if (file_u64(m, &m->zone[z], &v) < 0) {
			if (m->have_rapl)
				note(m, "RAPL %s/energy_uj is not readable (%s; root only since 2020): "
				     "PkgWatt, CorWatt and RAMWatt show -", hi->zones[z].dir,
				     strerror(errno ? errno : EACCES));
			m->have_rapl = false;
		}
	}
	if (!hi->nzones)
		note(m, "no RAPL (no intel-rapl zone in /%s): PkgWatt, CorWatt and RAMWatt show -",
		     HOST_POWERCAP_DIR);
}

int monitor_open(struct monitor *m, struct hostfs *fs, struct pm_diag *d)
{
	*m = (struct monitor){ .fs = fs };
	if (host_info_load(&m->hi, fs, d) < 0)
		return -1;
	m->ncpus = m->hi.ncpus;
	m->cpu = calloc((size_t)m->ncpus + 1, sizeof(*m->cpu));
	m->bufcap = STAT_BUF_MIN;
	m->buf = malloc(m->bufcap);
	if (!m->cpu || !m->buf) {
		monitor_close(m);
		return pm_fail(d, "out of memory");
	}
	file_init(m, &m->stat, HOST_PROC_STAT, true);
	m->have_stat = m->stat.fd >= 0;
	if (!m->have_stat)
		note(m, "no /proc/stat: user%%, sys%%, iowait%%, idle%% show -");
	open_cpus(m);
	open_zones(m);
	return 0;
}

void monitor_close(struct monitor *m)
{
	for (int i = 0; m->cpu && i < m->ncpus; i++) {
		file_close(&m->cpu[i].msr);
		file_close(&m->cpu[i].cur);
		for (int k = 0; m->cpu[i].st && k < m->hi.ncstates * 4; k++)
			file_close(&m->cpu[i].st[k]);
		free(m->cpu[i].st);
	}
	for (int z = 0; m->zone && z < m->hi.nzones; z++)
		file_close(&m->zone[z]);
	if (m->stat.path[0])
		file_close(&m->stat);
	free(m->zone);
	free(m->cpu);
	free(m->buf);
	host_info_free(&m->hi);
	*m = (struct monitor){ 0 };
}

int monitor_sample_init(const struct monitor *m, struct mon_sample *s, struct pm_diag *d)
{
	*s = (struct mon_sample){ 0 };
	s->cpu = calloc((size_t)m->ncpus + 1, sizeof(*s->cpu));
	s->energy_uj = calloc((size_t)m->hi.nzones + 1, sizeof(*s->energy_uj));
	s->energy_ok = calloc((size_t)m->hi.nzones + 1, sizeof(*s->energy_ok));
	if (!s->cpu || !s->energy_uj || !s->energy_ok) {
		monitor_sample_free(s);
		return pm_fail(d, "out of memory");
	}
	return 0;
}

void monitor_sample_free(struct mon_sample *s)
{
	procstat_free(&s->stat);
	free(s->cpu);
	free(s->energy_uj);
	free(s->energy_ok);
	*s = (struct mon_sample){ 0 };
}

/* The whole /proc/stat, growing the buffer for machines with many IRQs. */
static ssize_t read_stat(struct monitor *m)
{
	for (;;) {
		ssize_t n = file_read(m, &m->stat, m->buf, m->bufcap);
		if (n < 0 || (size_t)n < m->bufcap - 1)
			return n;
		if (m->bufcap >= STAT_BUF_MAX)
			return -1;
		char *grown = realloc(m->buf, m->bufcap * 2);
		if (!grown)
			return -1;
		m->buf = grown;
		m->bufcap *= 2;
	}
}

int monitor_sample(struct monitor *m, struct mon_sample *s, struct pm_diag *d)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	s->stat_ok = false;
	if (m->have_stat) {
		ssize_t n = read_stat(m);
		struct pm_diag pd;
		s->stat_ok = n > 0 && procstat_parse(&s->stat, m->buf, (size_t)n, "/proc/stat",
						     &pd) == 0;
	}
	for (int i = 0; i < m->ncpus; i++) {
		const struct mon_cpu *c = &m->cpu[i];
		struct mon_cpu_sample *cs = &s->cpu[i];
		cs->msr_ok = m->have_msr && msr_read(m, &c->msr, MSR_APERF, &cs->aperf) == 0 &&
			     msr_read(m, &c->msr, MSR_MPERF, &cs->mperf) == 0 &&
			     msr_read(m, &c->msr, MSR_TSC, &cs->tsc) == 0;
		uint64_t khz = 0;
		cs->cur_khz = m->have_cur && file_u64(m, &c->cur, &khz) == 0 && khz <= UINT32_MAX
				      ? (uint32_t)khz : 0;
		cs->cs_ok = c->st != NULL;
		for (int st = 0; c->st && st < m->hi.ncstates; st++)
			for (int k = 0; k < 4; k++)
				if (file_u64(m, &c->st[st * 4 + k], &cs->cs[st][k]) < 0)
					cs->cs_ok = false;
	}
	for (int z = 0; m->have_rapl && z < m->hi.nzones; z++)
		s->energy_ok[z] = file_u64(m, &m->zone[z], &s->energy_uj[z]) == 0;
	(void)d;
	return 0;
}

uint64_t monitor_energy_delta(uint64_t e0, uint64_t e1, uint64_t range)
{
	if (e1 >= e0)
		return e1 - e0;
	/* wrapped at range: what was left to it, then from 0 */
	return range > e0 ? (range - e0) + e1 : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

static uint64_t sub(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

static void util_row(struct mon_row *r, const struct procstat_cpu *a,
		     const struct procstat_cpu *b)
{
	struct procstat_delta dl;
	if (!a || !b) {
		r->user_pct = r->sys_pct = r->iowait_pct = r->steal_pct = r->idle_pct = NAN;
		return;
	}
	procstat_delta(a, b, &dl);
	r->user_pct = pct(dl.user, dl.total);
	r->sys_pct = pct(dl.system, dl.total);
	r->iowait_pct = pct(dl.iowait, dl.total);
	r->steal_pct = pct(dl.steal, dl.total);
	r->idle_pct = pct(dl.idle, dl.total);
}

static void blank_row(struct mon_row *r, int cpu)
{
	*r = (struct mon_row){ .cpu = cpu, .busy_pct = NAN, .avg_mhz = NAN, .bzy_mhz = NAN,
			       .pkg_w = NAN, .cor_w = NAN, .ram_w = NAN };
	for (int k = 0; k < HOST_MAX_CSTATES; k++)
		r->cs_pct[k] = r->cs_usage[k] = r->cs_above[k] = r->cs_below[k] = NAN;
}

/* A CPU's C-state figures over us microseconds, added to the summary
 * (sum; residency into cs_pct, averaged by the caller). */
static void cstate_row(struct mon_row *row, struct mon_row *sum, double *cs_pct, int ncs,
		       const struct mon_cpu_sample *x, const struct mon_cpu_sample *y, double us)
{
	for (int s = 0; s < ncs; s++) {
		row->cs_pct[s] = 100.0 * (double)sub(y->cs[s][CS_TIME], x->cs[s][CS_TIME]) / us;
		if (row->cs_pct[s] > 100.0)
			row->cs_pct[s] = 100.0; /* updated at exit: may lag a sample */
		row->cs_usage[s] = (double)sub(y->cs[s][CS_USAGE], x->cs[s][CS_USAGE]);
		row->cs_above[s] = (double)sub(y->cs[s][CS_ABOVE], x->cs[s][CS_ABOVE]);
		row->cs_below[s] = (double)sub(y->cs[s][CS_BELOW], x->cs[s][CS_BELOW]);
		cs_pct[s] += row->cs_pct[s];
		sum->cs_usage[s] = (isnan(sum->cs_usage[s]) ? 0 : sum->cs_usage[s]) +
				   row->cs_usage[s];
		sum->cs_above[s] = (isnan(sum->cs_above[s]) ? 0 : sum->cs_above[s]) +
				   row->cs_above[s];
		sum->cs_below[s] = (isnan(sum->cs_below[s]) ? 0 : sum->cs_below[s]) +
				   row->cs_below[s];
	}
}

/* RAPL's package, core and DRAM watts over us microseconds. */
static void rapl_watts(const struct monitor *m, const struct mon_sample *a,
		       const struct mon_sample *b, double us, struct mon_row *sum)
{
	double w[3] = { 0, 0, 0 };
	bool have[3] = { false, false, false };

	for (int z = 0; z < m->hi.nzones; z++) {
		const struct host_zone *zone = &m->hi.zones[z];
		int k = zone->kind == ZONE_PACKAGE ? 0 : zone->kind == ZONE_CORE ? 1
						      : zone->kind == ZONE_DRAM ? 2 : -1;
		if (k < 0 || !a->energy_ok[z] || !b->energy_ok[z])
			continue;
		uint64_t uj = monitor_energy_delta(a->energy_uj[z], b->energy_uj[z],
						   zone->max_range_uj);
		w[k] += (double)uj / us; /* uJ per us = W */
		have[k] = true;
	}
	sum->pkg_w = have[0] ? w[0] : NAN;
	sum->cor_w = have[1] ? w[1] : NAN;
	sum->ram_w = have[2] ? w[2] : NAN;
}

int monitor_compute(const struct monitor *m, const struct mon_sample *a,
		    const struct mon_sample *b, struct mon_result *r, struct pm_diag *d)
{
	double us = (double)(b->t_ns - a->t_ns) / 1000.0;
	*r = (struct mon_result){ .interval_s = us / 1e6, .nrows = m->ncpus + 1 };
	r->rows = calloc((size_t)r->nrows, sizeof(*r->rows));
	if (!r->rows)
		return pm_fail(d, "out of memory");
	if (us <= 0)
		us = NAN;
	struct mon_row *sum = &r->rows[0];
	blank_row(sum, -1);
	int ncs = m->hi.ncstates;
	uint64_t aperf = 0, mperf = 0, tsc = 0;
	double busy = 0, avg = 0, bzy = 0, cs_pct[HOST_MAX_CSTATES] = { 0 };
	int nbusy = 0, navg = 0, nbzy = 0, ncs_ok = 0;
	for (int i = 0; i < m->ncpus; i++) {
		const struct mon_cpu_sample *x = &a->cpu[i], *y = &b->cpu[i];
		struct mon_row *row = &r->rows[i + 1];
		int cpu = m->cpu[i].cpu;
		blank_row(row, cpu);
		const struct procstat_cpu *pa = a->stat_ok ? procstat_find(&a->stat, cpu) : NULL;
		const struct procstat_cpu *pb = b->stat_ok ? procstat_find(&b->stat, cpu) : NULL;
		util_row(row, pa, pb);
		if (x->msr_ok && y->msr_ok) {
			uint64_t da = sub(y->aperf, x->aperf), dm = sub(y->mperf, x->mperf);
			uint64_t dt = sub(y->tsc, x->tsc);
			row->busy_pct = pct(dm, dt);
			row->avg_mhz = (double)da / us;
			row->bzy_mhz = dm ? (double)dt / us * (double)da / (double)dm : NAN;
			aperf += da;
			mperf += dm;
			tsc += dt;
		} else {
			/* The vCPU did not run while stolen: not busy. */
			row->busy_pct = 100.0 - row->idle_pct - row->iowait_pct - row->steal_pct;
			if (x->cur_khz && y->cur_khz) {
				row->bzy_mhz = (x->cur_khz + y->cur_khz) / 2000.0;
				row->avg_mhz = row->bzy_mhz * row->busy_pct / 100.0;
			}
		}
		if (!isnan(row->busy_pct)) {
			busy += row->busy_pct;
			nbusy++;
		}
		if (!isnan(row->bzy_mhz)) {
			bzy += row->bzy_mhz;
			nbzy++;
		}
		if (!isnan(row->avg_mhz)) {
			avg += row->avg_mhz;
			navg++;
		}
		if (x->cs_ok && y->cs_ok) {
			cstate_row(row, sum, cs_pct, ncs, x, y, us);
			ncs_ok++;
		}
	}
	/* The summary, as turbostat's: counters summed, then the same formulas. */
	if (tsc) {
		sum->busy_pct = pct(mperf, tsc);
		sum->avg_mhz = (double)aperf / us / m->ncpus;
		sum->bzy_mhz = mperf ? (double)tsc / us / m->ncpus * (double)aperf / (double)mperf : NAN;
	} else {
		if (nbusy)
			sum->busy_pct = busy / nbusy;
		if (nbzy)
			sum->bzy_mhz = bzy / nbzy;
		if (navg)
			sum->avg_mhz = avg / navg;
	}
	for (int s = 0; ncs_ok && s < ncs; s++)
		sum->cs_pct[s] = cs_pct[s] / ncs_ok;
	util_row(sum, a->stat_ok ? &a->stat.all : NULL, b->stat_ok ? &b->stat.all : NULL);
	if (m->have_rapl)
		rapl_watts(m, a, b, us, sum);
	return 0;
}

void monitor_result_free(struct mon_result *r)
{
	free(r->rows);
	*r = (struct mon_result){ 0 };
}

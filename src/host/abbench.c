// SPDX-License-Identifier: GPL-2.0-only
/* pmlab bench on the host. See abbench.h. */
#include "abbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../metrics/stats.h"
#include "../metrics/texttable.h"
#include "apply.h"
#include "hostsig.h"
#include "monitor.h"
#include "peer.h"
#include "runcmd.h"

#define LEVEL 0.95
#define ALPHA 0.05

static const struct {
	const char *head, *unit, *key;
	int decimals;
} metrics[HB_NMETRICS] = {
	{ "time", "(s)", "time_s", 3 },
	{ "energy", "(J)", "energy_j", 2 },
	{ "PkgWatt", "(W)", "package_power_w", 2 },
	{ "Busy%", "", "busy_pct", 2 },
	{ "Bzy_MHz", "", "bzy_mhz", 0 },
};

void hbench_free(struct hbench *b)
{
	free(b->v);
	*b = (struct hbench){ 0 };
}

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One run of the command under profile p. */
static int one_run(struct hostfs *fs, struct monitor *m, const struct hbench_config *c, int p,
		   double *fig, struct pm_diag *d)
{
	struct host_profile_opts o = { .dirs = c->dirs, .ndirs = c->ndirs };
	struct txn_result r;
	struct mon_sample a, b;
	struct mon_result res;
	int status, rc = -1;
	if (host_profile_apply(fs, c->profiles[p], &o, &r, d) < 0)
		return -1;
	if (monitor_sample_init(m, &a, d) < 0)
		goto out_fd;
	if (monitor_sample_init(m, &b, d) < 0)
		goto out_a;
	monitor_sample(m, &a, d);
	int64_t t0 = mono_ns();
	if (host_run_command(c->argv, &status, d) < 0)
		goto out_b;
	int64_t t1 = mono_ns();
	monitor_sample(m, &b, d);
	if (host_stop_requested()) {
		pm_fail(d, "interrupted under profile %s", c->profiles[p]);
		goto out_b;
	}
	if (status != 0) {
		pm_fail(d, "'%s' exited with status %d under profile %s", c->argv[0], status,
			c->profiles[p]);
		goto out_b;
	}
	if (monitor_compute(m, &a, &b, &res, d) < 0)
		goto out_b;
	const struct mon_row *sum = &res.rows[0];
	fig[HB_TIME] = (double)(t1 - t0) / 1e9;
	fig[HB_POWER] = sum->pkg_w;
	fig[HB_ENERGY] = sum->pkg_w * res.interval_s;
	fig[HB_BUSY] = sum->busy_pct;
	fig[HB_BZY] = sum->bzy_mhz;
	monitor_result_free(&res);
	rc = 0;
out_b:
	monitor_sample_free(&b);
out_a:
	monitor_sample_free(&a);
out_fd:
	if (r.latency_fd >= 0)
		close(r.latency_fd);
	return rc;
}

/* Back to how the machine was: off, then the profile active before. */
static int put_back(struct hostfs *fs, const struct hbench_config *c, const char *before,
		    struct pm_diag *d)
{
	bool had;
	if (host_profile_off(fs, NULL, &had, d) < 0)
		return -1;
	if (!before[0])
		return 0;
	struct host_profile_opts o = { .dirs = c->dirs, .ndirs = c->ndirs };
	struct txn_result r;
	if (host_profile_apply(fs, before, &o, &r, d) < 0)
		return -1;
	if (r.latency_fd >= 0)
		close(r.latency_fd);
	host_daemon_notify(fs); /* the daemon holds its request again */
	return 0;
}

int hbench_run(struct hostfs *fs, const struct hbench_config *c, struct hbench *b,
	       struct pm_diag *d)
{
	*b = (struct hbench){ .nprofiles = c->nprofiles, .runs = c->runs };
	b->v = malloc((size_t)c->nprofiles * HB_NMETRICS * (size_t)c->runs * sizeof(*b->v));
	if (!b->v)
		return pm_fail(d, "out of memory");
	for (size_t i = 0; i < (size_t)c->nprofiles * HB_NMETRICS * (size_t)c->runs; i++)
		b->v[i] = NAN;
	for (int p = 0; p < c->nprofiles; p++) {
		struct host_profile_opts o = { .dirs = c->dirs, .ndirs = c->ndirs };
		struct host_plan pl;
		int rc = host_profile_plan(fs, c->profiles[p], &o, &pl, d);
		host_plan_free(&pl);
		if (rc < 0)
			return rc;
	}
	char before[PROFILE_TEXT_MAX] = "";
	struct host_state st;
	bool has;
	int rc = host_profile_active(fs, &st, &has, d);
	if (rc < 0)
		return rc; /* -2: state that cannot be trusted, before anything changes */
	if (has && st.applied)
		snprintf(before, sizeof(before), "%s", st.profile);
	host_state_free(&st);

	struct monitor m;
	if (monitor_open(&m, fs, d) < 0)
		return -1;
	if (host_signals_install() < 0) {
		monitor_close(&m);
		return pm_fail(d, "cannot install signal handlers");
	}
	rc = 0;
	double fig[HB_NMETRICS];
	for (int run = 0; run < c->runs && rc == 0; run++) {
		for (int k = 0; k < c->nprofiles && rc == 0; k++) {
			int p = (k + run) % c->nprofiles;
			for (int i = 0; i < HB_NMETRICS; i++)
				fig[i] = NAN;
			if (one_run(fs, &m, c, p, fig, d) < 0) {
				rc = -1;
				break;
			}
			if (host_stop_requested()) {
				rc = pm_fail(d, "interrupted in round %d of %d", run + 1, c->runs);
				break;
			}
			for (int i = 0; i < HB_NMETRICS; i++)
				hbench_samples(b, p, i)[run] = fig[i];
			if (c->log) {
				fprintf(c->log, "run %d/%d %-24s %.3f s\n", run + 1, c->runs,
					c->profiles[p], fig[HB_TIME]);
				fflush(c->log);
			}
		}
		if (rc == 0)
			b->rounds = run + 1;
	}
	monitor_close(&m);
	struct pm_diag rd;
	if (put_back(fs, c, before, &rd) < 0) {
		if (rc == 0)
			return pm_fail(d, "%s", rd.msg);
		char why[PM_DIAG_MAX];
		snprintf(why, sizeof(why), "%s", d->msg);
		return pm_fail(d, "%s; restoring failed too: %s", why, rd.msg);
	}
	if (rc < 0) {
		char why[PM_DIAG_MAX];
		snprintf(why, sizeof(why), "%s", d->msg);
		return pm_fail(d, "%s (the machine is restored)", why);
	}
	return 0;
}

/* Figures of metric i that are numbers (the absent are NAN). */
static int present(const struct hbench *b, int p, int i, double *out)
{
	int n = 0;
	const double *x = hbench_samples(b, p, i);
	for (int r = 0; r < b->rounds; r++)
		if (!isnan(x[r]))
			out[n++] = x[r];
	return n;
}

static int write_csv(FILE *out, const struct hbench_config *c, const struct hbench *b)
{
	fprintf(out, "profile,run");
	for (int i = 0; i < HB_NMETRICS; i++)
		fprintf(out, ",%s", metrics[i].key);
	fputc('\n', out);
	for (int p = 0; p < c->nprofiles; p++)
		for (int r = 0; r < b->rounds; r++) {
			fprintf(out, "%s,%d", c->profiles[p], r + 1);
			for (int i = 0; i < HB_NMETRICS; i++) {
				double v = hbench_samples(b, p, i)[r];
				if (isnan(v))
					fprintf(out, ",");
				else
					fprintf(out, ",%.*f", metrics[i].decimals + 3, v);
			}
			fputc('\n', out);
		}
	return 0;
}

int hbench_write(FILE *out, const struct hbench_config *c, const struct hbench *b, bool csv)
{
	if (csv)
		write_csv(out, c, b);
	else {
		double *x = malloc((size_t)(b->runs + 1) * sizeof(*x));
		double *y = malloc((size_t)(b->runs + 1) * sizeof(*y));
		if (!x || !y) {
			free(x);
			free(y);
			return -1;
		}
		char text[512];
		snprintf(text, sizeof(text), "%d run%s of each profile, interleaved; mean \xc2\xb1 95 %% "
			 "interval; ratio to %s (~: no significant difference, Welch p >= 0.05)",
			 b->rounds, b->rounds == 1 ? "" : "s", c->profiles[c->baseline]);
		text_wrap(out, "", text, 2);
		fputc('\n', out);
		/* A column per figure and its ratio, cut to the width (texttable.h). */
		struct text_table *t = ttab_new(1, 0);
		if (!t) {
			free(x);
			free(y);
			return -1;
		}
		ttab_col(t, "profile", NULL);
		for (int i = 0; i < HB_NMETRICS; i++) {
			ttab_group(t);
			ttab_col(t, metrics[i].head, metrics[i].unit);
			ttab_col(t, "ratio", NULL);
		}
		for (int p = 0; p < c->nprofiles; p++) {
			ttab_cell(t, c->profiles[p]);
			for (int i = 0; i < HB_NMETRICS; i++) {
				char cellv[64] = "-", cellr[32] = "-";
				int n = present(b, p, i, x), nb = present(b, c->baseline, i, y);
				if (n) {
					double mean = stats_mean(x, n), ci = stats_ci_half(x, n, LEVEL);
					int dec = metrics[i].decimals;
					bool constant = n > 1;
					for (int k = 1; k < n; k++)
						constant &= x[k] == x[0];
					/* every run the same: say so rather than "± 0.00" */
					if (constant)
						snprintf(cellv, sizeof(cellv), "%.*f constant", dec, mean);
					else
						snprintf(cellv, sizeof(cellv), "%.*f \xc2\xb1 %.*f", dec, mean,
							 dec, ci);
					double base = nb ? stats_mean(y, nb) : NAN;
					if (p == c->baseline) {
						snprintf(cellr, sizeof(cellr), "1");
					} else if (nb && base != 0) {
						double pv = stats_welch_p(x, n, y, nb);
						snprintf(cellr, sizeof(cellr), "%.3f%s", mean / base,
							 pv >= ALPHA || pv < 0 ? "~" : "");
					}
				}
				ttab_cell(t, cellv);
				ttab_cell(t, cellr);
			}
		}
		int rc = ttab_write(out, t);
		ttab_free(t);
		if (rc < 0) {
			free(x);
			free(y);
			return -1;
		}
		free(x);
		free(y);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

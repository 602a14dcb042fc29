// SPDX-License-Identifier: GPL-2.0-only
/* The kernel's 1-minute load average and tuned's dynamic PM QoS.
 *
 * Load average (kernel/sched 3.10 calc_global_load(), calc_load()): every
 * LOAD_FREQ = 5 s + 1 jiffy, avenrun[0] = (avenrun[0] * EXP_1 + active *
 * (FIXED_1 - EXP_1) + FIXED_1 / 2) >> FSHIFT, with FSHIFT 11, EXP_1 = 1884
 * and active the tasks running or queued plus those in uninterruptible
 * sleep (here: blocked on I/O), times FIXED_1. A run is taken as a stretch
 * of a steady state: the first jiffy's active count seeds the average
 * instead of decaying it up from 0 over minutes.
 *
 * tuned's dynamic PM QoS (plugin_cpu.py _instance_update_dynamic(), the
 * same in tuned 2.3 and 2.20; --set pm_qos_dynamic_low_us etc., which the
 * profile mapper sets for a [cpu] instance without force_latency while
 * tuned-main.conf has dynamic_tuning = 1): every update_interval (10 s)
 * tuned reads /proc/loadavg's first figure and holds /dev/cpu_dma_latency
 * at latency_high (1000 us) below load_threshold (0.2), else latency_low
 * (100 us). Its first evaluation comes right after the seed. The limit in
 * force is the smallest request: pm_qos_latency_us, the resume latency and
 * tuned's. */
#include <stdlib.h>

#include "sim_internal.h"

#define FSHIFT 11
#define FIXED_1 (1UL << FSHIFT)
#define EXP_1 1884UL

static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	load *= exp;
	load += active * (FIXED_1 - exp);
	load += 1UL << (FSHIFT - 1);
	return load >> FSHIFT;
}

static unsigned long active_tasks(const struct sim *s)
{
	unsigned long n = 0;
	for (int c = 0; c < s->ncpus; c++)
		n += (unsigned long)s->cpus[c].nr_running + (unsigned long)s->cpus[c].nr_iowait;
	return n;
}

void loadavg_sample(struct sim *s)
{
	unsigned long active = active_tasks(s) * FIXED_1;
	if (!s->avenrun_seeded) {
		s->avenrun0 = active;
		s->avenrun_seeded = true;
		pmqos_dynamic_eval(s);
	} else {
		s->avenrun0 = calc_load(s->avenrun0, EXP_1, active);
	}
	sim_post(s, s->now + 5 * NS_PER_SEC + s->tick_ns, EV_LOADAVG, 0, 0, 0);
}

void pmqos_update_limit(struct sim *s)
{
	int64_t us = s->par.pm_qos_latency_us;
	if (s->pmqos_dynamic_us >= 0 && (us < 0 || s->pmqos_dynamic_us < us))
		us = s->pmqos_dynamic_us;
	s->latency_limit_ns = us < 0 ? SIM_NS_MAX : us * NS_PER_US;
	if (s->par.pm_qos_resume_latency_us >= 0 &&
	    s->par.pm_qos_resume_latency_us * NS_PER_US < s->latency_limit_ns)
		s->latency_limit_ns = s->par.pm_qos_resume_latency_us * NS_PER_US;
}

/* /proc/loadavg prints LOAD_INT.LOAD_FRAC (two decimals); tuned compares
 * that number with its threshold. */
static int64_t loadavg_centi(unsigned long avenrun)
{
	unsigned long a = avenrun + FIXED_1 / 200; /* get_avenrun(loads, FIXED_1/200, 0) */
	return (int64_t)((a >> FSHIFT) * 100 + (((a & (FIXED_1 - 1)) * 100) >> FSHIFT));
}

void pmqos_dynamic_eval(struct sim *s)
{
	if (s->par.pm_qos_dynamic_low_us < 0)
		return;
	bool low = loadavg_centi(s->avenrun0) * 10 < s->par.pm_qos_dynamic_load_milli;
	s->pmqos_dynamic_us = low ? s->par.pm_qos_dynamic_high_us : s->par.pm_qos_dynamic_low_us;
	pmqos_update_limit(s);
	sim_post(s, s->now + s->par.pm_qos_dynamic_interval_s * NS_PER_SEC, EV_PMQOS_DYNAMIC, 0, 0,
		 0);
}

void pmqos_dynamic_init(struct sim *s)
{
	s->pmqos_dynamic_us = -1;
	pmqos_update_limit(s);
	if (s->par.pm_qos_dynamic_low_us >= 0)
		sim_post(s, s->tick_ns, EV_LOADAVG, 0, 0, 0);
}

int pmqos_dynamic_parse(struct engine_params *par, const char *val, const char *kv,
			struct pm_diag *d)
{
	char *end;
	long long low = strtoll(val, &end, 10);
	if (end == val || *end != ',' || low < 0 || low > 2000000000)
		goto bad;
	const char *h = end + 1;
	long long high = strtoll(h, &end, 10);
	if (end == h || *end != ',' || high < 0 || high > 2000000000)
		goto bad;
	const char *t = end + 1;
	double thr = strtod(t, &end);
	if (end == t || *end || !(thr >= 0 && thr <= 1e5))
		goto bad;
	par->pm_qos_dynamic_low_us = low;
	par->pm_qos_dynamic_high_us = high;
	par->pm_qos_dynamic_load_milli = (int64_t)(thr * 1000 + 0.5);
	return 0;
bad:
	return pm_fail(d, "--set %s: expected LOW,HIGH,THRESHOLD (us, us, load average; tuned's "
		       "latency_low, latency_high, load_threshold, e.g. 100,1000,0.2)", kv);
}

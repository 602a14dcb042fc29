// SPDX-License-Identifier: GPL-2.0-only
/* The PM QoS holder. See daemon.h. */
#include "daemon.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "hostsig.h"
#include "inventory.h"
#include "peer.h"

struct holder {
	int fd;
	int64_t us;
	bool dynamic;             /* tuned's dynamic PM QoS: re-read the load average */
};

static void release(struct holder *h, FILE *log)
{
	if (h->fd < 0)
		return;
	close(h->fd);
	if (log)
		fprintf(log, "released the %lld us PM QoS request\n", (long long)h->us);
	h->fd = -1;
	h->us = -1;
}

/* run/pmlab/daemon says what is held, for verify. */
static void record(struct hostfs *fs, const struct holder *h, FILE *log)
{
	struct pm_diag d;
	if (host_daemon_record(fs, h->fd >= 0 ? h->us : -1, &d) < 0 && log)
		fprintf(log, "pmlab: daemon: %s\n", d.msg);
}

/* Holds what the saved state asks for. */
static int follow_state(struct hostfs *fs, struct holder *h, FILE *log, struct pm_diag *d)
{
	struct host_state st;
	bool has;
	if (host_profile_active(fs, &st, &has, d) < 0)
		return -1;
	int64_t want = has && st.applied ? host_profile_latency_now(fs, &st) : -1;
	h->dynamic = has && st.applied && st.dyn_low_us >= 0 && want >= 0;
	host_state_free(&st);
	if (want == h->us)
		return 0;
	release(h, log);
	if (want < 0) {
		record(fs, h, log);
		return 0;
	}
	bool dev;
	int fd = hostfs_open_latency(fs, &dev, d);
	if (fd < 0)
		return -1;
	int32_t v = (int32_t)want;
	if (hostfs_write_fd(fs, fd, HOST_DMA_LATENCY, &v, sizeof(v), d) < 0) {
		close(fd);
		return -1;
	}
	h->fd = fd;
	h->us = want;
	record(fs, h, log);
	if (log)
		fprintf(log, "holding /dev/cpu_dma_latency at %lld us\n", (long long)want);
	return 0;
}

static int start_profile(struct hostfs *fs, const struct daemon_config *c, struct holder *h,
			 struct pm_diag *d)
{
	struct host_state st;
	bool has;
	char spec[PROFILE_TEXT_MAX] = "";
	int rc = host_profile_active(fs, &st, &has, d);
	if (rc < 0)
		return rc;
	if (has)
		snprintf(spec, sizeof(spec), "%s", st.profile);
	host_state_free(&st);
	if (!spec[0] && c->profile)
		snprintf(spec, sizeof(spec), "%s", c->profile);
	if (!spec[0]) {
		if (c->log)
			fprintf(c->log, "no active profile: waiting (pmlab profile apply sends SIGHUP)\n");
		return 0;
	}
	struct host_profile_opts o = { .dirs = c->dirs, .ndirs = c->ndirs, .log = c->log,
				       .notes = c->log };
	struct txn_result r;
	if (c->log)
		fprintf(c->log, "applying profile %s\n", spec);
	rc = host_profile_apply(fs, spec, &o, &r, d);
	if (rc < 0)
		return rc;
	if (r.latency_fd >= 0) {
		h->fd = r.latency_fd;
		struct pm_diag ignore;
		if (host_profile_active(fs, &st, &has, &ignore) == 0 && has) {
			h->us = st.latency_us;
			h->dynamic = st.dyn_low_us >= 0;
		}
		host_state_free(&st);
		record(fs, h, c->log);
		if (c->log)
			fprintf(c->log, "holding /dev/cpu_dma_latency at %lld us\n", (long long)h->us);
	}
	return 0;
}

int host_daemon_run(struct hostfs *fs, const struct daemon_config *c, struct pm_diag *d)
{
	struct holder h = { -1, -1, false };
	if (host_signals_install() < 0)
		return pm_fail(d, "cannot install signal handlers");
	int rc = host_daemon_register(fs, d);
	if (rc < 0)
		return rc;
	rc = start_profile(fs, c, &h, d);
	if (rc < 0) {
		host_daemon_unregister(fs);
		return rc;
	}
	if (c->log)
		fflush(c->log);
	while (!host_stop_requested()) {
		int sig = host_signal_wait(h.dynamic ? HOST_DYNAMIC_INTERVAL_MS : -1);
		if (sig == SIGHUP || (sig == 0 && h.dynamic)) {
			struct pm_diag fd;
			if (follow_state(fs, &h, c->log, &fd) < 0) {
				/* holding nothing is better than a stale request */
				release(&h, c->log);
				record(fs, &h, c->log);
				if (c->log)
					fprintf(c->log, "pmlab: daemon: %s\n", fd.msg);
			}
			if (c->log)
				fflush(c->log);
		}
	}
	release(&h, c->log);
	host_daemon_unregister(fs);
	return 0;
}

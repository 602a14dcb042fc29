// SPDX-License-Identifier: GPL-2.0-only
/* apply, off, verify, active. See apply.h. */
#include "apply.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "govd.h"
#include "hostprofile.h"
#include "peer.h"

int host_profile_plan(struct hostfs *fs, const char *spec, const struct host_profile_opts *o,
		      struct host_plan *pl, struct pm_diag *d)
{
	struct host_info hi;
	struct profile p;
	host_plan_init(pl, spec);
	if (host_info_load(&hi, fs, d) < 0)
		return -1;
	if (host_profile_load(&p, spec, fs, &hi, o->dirs, o->ndirs, d) < 0) {
		host_info_free(&hi);
		return HOST_BAD_INPUT;
	}
	int rc = host_plan_build(pl, fs, &hi, &p, d);
	profile_free(&p);
	host_info_free(&hi);
	if (rc < 0) {
		host_plan_free(pl);
		host_plan_init(pl, spec);
		return HOST_BAD_INPUT;
	}
	return 0;
}

void host_plan_print_notes(FILE *out, const struct host_plan *pl)
{
	if (!out)
		return;
	for (int i = 0; i < pl->nskip; i++) {
		const struct plan_skip *s = &pl->skip[i];
		/* The loader's "not modelled" is about the simulator; here it
		 * means pmlab leaves that part of the system alone. */
		const char *why = strcmp(s->why, "not modelled") == 0 ? "not CPU power management"
								     : s->why;
		fprintf(out, "%s: %s%s%s: %s\n", s->not_applied ? "not applied" : "skipped", s->what,
			s->origin[0] ? " at " : "", s->origin, why);
	}
}

void host_plan_print(FILE *out, const struct hostfs *fs, const struct host_plan *pl)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], cur[256];
	for (int i = 0; i < pl->n; i++) {
		const struct plan_entry *e = &pl->e[i];
		struct pm_diag ignore;
		if (e->watch)
			continue;
		hostfs_show(fs, e->path, shown, sizeof(shown));
		if (e->appears || hostfs_read_str(fs, e->path, cur, sizeof(cur), &ignore) < 0)
			fprintf(out, "%s: %s\n", shown, e->value);
		else if (strcmp(cur, e->value) == 0)
			fprintf(out, "%s: %s (unchanged)\n", shown, e->value);
		else
			fprintf(out, "%s: %s -> %s\n", shown, cur, e->value);
	}
	if (pl->latency_us >= 0)
		fprintf(out, "%s: %lld us (held open)\n",
			hostfs_show(fs, HOST_DMA_LATENCY, shown, sizeof(shown)),
			(long long)pl->latency_us);
	host_plan_print_notes(out, pl);
}

static void print_modules(FILE *out, const struct host_plan *pl)
{
	for (int i = 0; out && i < pl->nmodules; i++)
		fprintf(out, "modprobe %s (before the writes; it stays loaded, as under tuned) at %s\n",
			pl->modules[i].name, pl->modules[i].origin);
}

/* What the PM QoS request is and how long it lasts. */
static void print_latency_note(FILE *out, const struct host_plan *pl, bool holder)
{
	if (!out || pl->latency_us < 0)
		return;
	if (pl->dyn_low_us >= 0) {
		char load[48];
		if (pl->load >= 0)
			snprintf(load, sizeof(load), "the 1-minute load average is %.2f", pl->load);
		else
			snprintf(load, sizeof(load), "no proc/loadavg: as if loaded");
		fprintf(out, "note: /dev/cpu_dma_latency %lld us now (%s): tuned's dynamic PM QoS "
			"asks %lld us while the load average is below %lld.%03lld, %lld us at or "
			"above it, re-read every %d s by the process that holds it\n",
			(long long)pl->latency_us, load, (long long)pl->dyn_high_us,
			(long long)(pl->dyn_threshold_milli / 1000),
			(long long)(pl->dyn_threshold_milli % 1000), (long long)pl->dyn_low_us,
			HOST_DYNAMIC_INTERVAL_MS / 1000);
	}
	if (!holder)
		fprintf(out, "note: the kernel keeps a PM QoS request only while its file is open: "
			"this one lapses when pmlab exits unless pmlab daemon holds it (tuned holds "
			"it for as long as it runs); run pmlab daemon, or apply --hold\n");
}

/* Warnings for peers that do not stop an apply (or every one, forced). */
static void print_peers(FILE *out, const struct host_peer *p, int n, bool forced)
{
	for (int i = 0; out && i < n; i++) {
		if (p[i].conflict && !forced)
			continue; /* refused before this is printed */
		fprintf(out, "warning: %s: %s%s; to stop it: %s\n", p[i].name, p[i].evidence,
			p[i].conflict ? " -- it rewrites what pmlab sets (--force)" : "", p[i].stop);
	}
}

/* A peer that writes what pmlab writes runs: the message names each. */
static bool refuse(const struct host_peer *p, int n, struct pm_diag *d)
{
	char msg[PM_DIAG_MAX] = "";
	size_t used = 0;
	for (int i = 0; i < n; i++)
		if (p[i].conflict && used < sizeof(msg))
			used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s is running (%s) "
						 "and rewrites the files pmlab sets; stop it first "
						 "(%s), or pass --force", used ? "; " : "",
						 p[i].name, p[i].evidence, p[i].stop);
	if (!used)
		return false;
	pm_fail(d, "%s", msg);
	return true;
}

/* The previous profile's holder lets go; its files are restored, but for
 * those another program changed since (*left, logged). A govd killed
 * outright (its userspace governor still set) is undone first: it came
 * after the profile it ran over. */
static int restore_previous(struct hostfs *fs, FILE *log, bool *had, int *left,
			    struct pm_diag *d)
{
	struct host_state st;
	bool govd;
	int rc = govd_recover(fs, log, &govd, d);
	if (rc < 0)
		return rc;
	rc = host_txn_load(fs, HOST_STATE_PROFILE, &st, had, d);
	if (rc < 0)
		return rc;
	if (*had && st.holder_pid)
		host_proc_stop(st.holder_pid, st.holder_start);
	host_state_free(&st);
	return *had ? host_txn_restore_left(fs, HOST_STATE_PROFILE, had, log, left, d) : 0;
}

int host_profile_apply(struct hostfs *fs, const char *spec, const struct host_profile_opts *o,
		       struct txn_result *r, struct pm_diag *d)
{
	struct host_plan pl;
	*r = (struct txn_result){ .latency_fd = -1 };
	/* Bad input stops here, before anything (even a restore) happens. */
	int rc = host_profile_plan(fs, spec, o, &pl, d);
	if (rc < 0)
		return rc;
	struct host_peer peers[HOST_MAX_PEERS];
	int npeers = host_find_peers(fs, peers, HOST_MAX_PEERS);
	if (o->dry_run) {
		FILE *out = o->log ? o->log : stdout;
		print_modules(out, &pl);
		host_plan_print(out, fs, &pl);
		print_latency_note(out, &pl, o->hold || host_daemon_pid(fs) != 0);
		print_peers(out, peers, npeers, true);
		host_plan_free(&pl);
		return 0;
	}
	host_plan_free(&pl);
	if (!o->force && refuse(peers, npeers, d))
		return HOST_PEER_REFUSED;
	print_peers(o->notes, peers, npeers, o->force);
	int lock = hostfs_lock(fs, d);
	if (lock < 0)
		return lock;
	bool had;
	int left;
	rc = restore_previous(fs, o->log, &had, &left, d);
	/* Planned again: limits are ordered against the values now in place. */
	if (rc == 0)
		rc = host_profile_plan(fs, spec, o, &pl, d);
	if (rc == 0) {
		struct txn_opts to = { .state_name = HOST_STATE_PROFILE, .log = o->log };
		if (o->hold) {
			to.holder_pid = (long)getpid();
			to.holder_start = host_proc_start(to.holder_pid);
		}
		print_modules(o->log, &pl);
		rc = host_txn_apply(fs, &pl, &to, r, d);
		r->recovered |= had;
		if (rc == 0) {
			host_plan_print_notes(o->notes, &pl);
			/* how long it lasts: the caller says (pmlab profile apply warns) */
			print_latency_note(o->notes, &pl, true);
		}
		host_plan_free(&pl);
	}
	close(lock);
	return rc;
}

int host_profile_off(struct hostfs *fs, FILE *log, bool *had, struct pm_diag *d)
{
	int left;
	return host_profile_off_left(fs, log, had, &left, d);
}

int host_profile_off_left(struct hostfs *fs, FILE *log, bool *had, int *left,
			  struct pm_diag *d)
{
	int lock = hostfs_lock(fs, d);
	*left = 0;
	if (lock < 0)
		return lock;
	int rc = restore_previous(fs, log, had, left, d);
	close(lock);
	if (rc == 0 && *had)
		host_daemon_notify(fs); /* it drops the PM QoS request */
	return rc;
}

int host_profile_active(const struct hostfs *fs, struct host_state *st, bool *has,
			struct pm_diag *d)
{
	return host_txn_load(fs, HOST_STATE_PROFILE, st, has, d);
}

/* The PM QoS constraint in force: 4 raw bytes, the aggregate of every
 * request on the real device; what was written in a fake tree. */
static int read_latency(struct hostfs *fs, int64_t *us, struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	int32_t v;
	int fd = hostfs_open_ro(fs, HOST_DMA_LATENCY);
	if (fd < 0)
		return pm_fail(d, "%s: cannot read", hostfs_show(fs, HOST_DMA_LATENCY, shown,
								 sizeof(shown)));
	ssize_t n = read(fd, &v, sizeof(v));
	close(fd);
	if (n != (ssize_t)sizeof(v))
		return pm_fail(d, "%s: cannot read 4 bytes", hostfs_show(fs, HOST_DMA_LATENCY, shown,
									 sizeof(shown)));
	*us = v;
	return 0;
}

int host_profile_verify(struct hostfs *fs, FILE *out, int *mismatches, struct pm_diag *d)
{
	struct host_state st;
	bool has;
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], cur[PLAN_VALUE_MAX];
	*mismatches = 0;
	int rc = host_profile_active(fs, &st, &has, d);
	if (rc < 0)
		return rc;
	if (!has)
		return pm_fail(d, "no profile is active (see pmlab profile apply)");
	if (!st.applied) {
		fprintf(out, "profile %s: its apply was interrupted (run pmlab profile off, then "
			"apply it again)\n", st.profile);
		(*mismatches)++;
	}
	for (int i = 0; i < st.n; i++) {
		const struct state_entry *e = &st.e[i];
		struct pm_diag rd;
		if (e->watch)
			continue;
		hostfs_show(fs, e->path, shown, sizeof(shown));
		if (hostfs_read_str(fs, e->path, cur, sizeof(cur), &rd) < 0) {
			fprintf(out, "%s: %s (the profile set %s=%s)\n", shown, rd.msg, e->key,
				e->seen);
			(*mismatches)++;
		} else if (strcmp(cur, e->seen) != 0) {
			fprintf(out, "%s: is '%s', the profile set '%s' (%s)\n", shown, cur, e->seen,
				e->key);
			(*mismatches)++;
		}
	}
	/* The daemon holds the request the active profile asks for, or none. */
	int64_t held;
	long daemon = host_daemon_holding(fs, &held);
	if (daemon && held != st.latency_us) {
		char has_req[64] = "no request", want[64] = "none";
		if (held >= 0)
			snprintf(has_req, sizeof(has_req), "a %lld us request", (long long)held);
		if (st.latency_us >= 0)
			snprintf(want, sizeof(want), "%lld us", (long long)st.latency_us);
		fprintf(out, "%s: pmlab daemon (pid %ld) holds %s, the profile asks for %s\n",
			hostfs_show(fs, HOST_DMA_LATENCY, shown, sizeof(shown)), daemon, has_req, want);
		(*mismatches)++;
	}
	if (st.latency_us >= 0) {
		int64_t now = 0;
		struct pm_diag rd;
		hostfs_show(fs, HOST_DMA_LATENCY, shown, sizeof(shown));
		if (read_latency(fs, &now, &rd) < 0) {
			fprintf(out, "%s\n", rd.msg);
			(*mismatches)++;
		} else if (now > host_profile_latency_now(fs, &st)) {
			fprintf(out, "%s: the limit in force is %lld us, the profile asks for %lld us "
				"(no process holds it: run pmlab daemon, or pmlab profile apply --hold)\n",
				shown, (long long)now, (long long)host_profile_latency_now(fs, &st));
			(*mismatches)++;
		}
	}
	host_state_free(&st);
	if (*mismatches) {
		struct host_peer peers[HOST_MAX_PEERS];
		char running[512];
		host_peers_running(peers, host_find_peers(fs, peers, HOST_MAX_PEERS), running,
				   sizeof(running));
		if (running[0])
			fprintf(out, "running now, and writing such files: %s\n", running);
	}
	return 0;
}

int64_t host_profile_latency_now(const struct hostfs *fs, const struct host_state *st)
{
	double load;
	if (st->latency_us < 0 || st->dyn_low_us < 0)
		return st->latency_us;
	if (host_loadavg(fs, &load) < 0)
		return st->dyn_low_us;
	return host_dynamic_latency(st->dyn_low_us, st->dyn_high_us, st->dyn_threshold_milli, load);
}

int host_profile_drift(const struct hostfs *fs, struct host_drift *dr, FILE *out)
{
	struct host_state st;
	struct pm_diag d;
	bool has;
	int fresh = 0;
	char cur[PLAN_VALUE_MAX], key[HOSTFS_PATH_MAX + PLAN_VALUE_MAX + 2];
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], running[512] = "";
	if (host_profile_active(fs, &st, &has, &d) < 0)
		return 0;
	if (!has || !st.applied) {
		host_state_free(&st);
		return 0;
	}
	for (int i = 0; i < st.n; i++) {
		const struct state_entry *e = &st.e[i];
		if (e->watch || hostfs_read_str(fs, e->path, cur, sizeof(cur), &d) < 0 ||
		    strcmp(cur, e->seen) == 0)
			continue;
		snprintf(key, sizeof(key), "%s=%s", e->path, cur);
		bool seen = false;
		for (int k = 0; k < dr->n && !seen; k++)
			seen = strcmp(dr->seen[k], key) == 0;
		if (seen)
			continue;
		if (dr->n == dr->cap) {
			int cap = dr->cap ? 2 * dr->cap : 8;
			char **grown = realloc(dr->seen, (size_t)cap * sizeof(*grown));
			if (!grown)
				break;
			dr->seen = grown;
			dr->cap = cap;
		}
		if (!(dr->seen[dr->n] = strdup(key)))
			break;
		dr->n++;
		if (!fresh++) {
			struct host_peer peers[HOST_MAX_PEERS];
			host_peers_running(peers, host_find_peers(fs, peers, HOST_MAX_PEERS), running,
					   sizeof(running));
		}
		fprintf(out, "pmlab: %s: now '%s', profile %s set '%s' (changed by another "
			"program%s%s)\n", hostfs_show(fs, e->path, shown, sizeof(shown)), cur,
			st.profile, e->seen, running[0] ? "; running: " : "", running);
	}
	host_state_free(&st);
	return fresh;
}

void host_drift_free(struct host_drift *dr)
{
	for (int i = 0; i < dr->n; i++)
		free(dr->seen[i]);
	free(dr->seen);
	*dr = (struct host_drift){ 0 };
}

// SPDX-License-Identifier: GPL-2.0-only
/* Snapshot, write, read back, roll back. See txn.h. */
#include "txn.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory.h"
#include "runcmd.h"

/* Trailing white space off (the kernel's newline). */
static size_t trimmed_len(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

static bool same_value(const char *cur, size_t n, const char *want)
{
	size_t m = trimmed_len(cur, n);
	return m == strlen(want) && memcmp(cur, want, m) == 0;
}

static void log_change(FILE *log, const struct hostfs *fs, const char *path, const char *from,
		       size_t from_len, const char *to, size_t to_len)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	if (!log)
		return;
	int a = (int)trimmed_len(from, from_len), b = (int)trimmed_len(to, to_len);
	fprintf(log, "%s: %.*s -> %.*s\n", hostfs_show(fs, path, shown, sizeof(shown)), a, from, b,
		to);
}

int host_txn_save(struct hostfs *fs, const char *name, const struct host_state *st,
		  struct pm_diag *d)
{
	size_t len;
	char *text = host_state_format(st, &len);
	if (!text)
		return pm_fail(d, "out of memory");
	int rc = hostfs_state_save(fs, name, text, len, d);
	free(text);
	return rc;
}

int host_txn_load(const struct hostfs *fs, const char *name, struct host_state *st, bool *had,
		  struct pm_diag *d)
{
	char *text, where[HOSTFS_ROOT_MAX + 64], rel[64];
	size_t len;
	host_state_init(st);
	*had = false;
	int rc = hostfs_state_load(fs, name, &text, &len, d);
	if (rc < 0 || !text)
		return rc;
	snprintf(rel, sizeof(rel), "run/pmlab/%s", name);
	hostfs_show(fs, rel, where, sizeof(where));
	rc = host_state_parse(st, text, len, where, d);
	free(text);
	if (rc < 0)
		return HOSTFS_UNTRUSTED; /* bad data on disk: nothing is restored from it */
	*had = true;
	return 0;
}

/* Entries [0, upto) back in reverse order: a file whose bytes differ from
 * its snapshot gets the snapshot -- if it still holds what pmlab wrote (or
 * read back). One that another program changed since is left as it is and
 * reported (*left), as tuned's verify would flag it: putting pmlab's old
 * value back would undo that program's setting and leave a value neither
 * set. Watched files (govd's scaling_setspeed) are pmlab's to restore.
 * Goes on past a failure, so that one stuck file does not keep the others
 * changed; the first failure is the message. A file that no longer exists
 * (a governor's tunables, gone with it) has nothing left to restore. */
static int restore_entries(struct hostfs *fs, const struct host_state *st, int upto, FILE *log,
			   int *restored, int *left, struct pm_diag *d)
{
	int rc = 0;
	char *cur = malloc(STATE_VALUE_MAX + 1);
	if (!cur)
		return pm_fail(d, "out of memory");
	*restored = 0;
	for (int i = upto - 1; i >= 0; i--) {
		const struct state_entry *e = &st->e[i];
		struct pm_diag rd, wd;
		if (!e->had_old)
			continue;
		ssize_t n = hostfs_read(fs, e->path, cur, STATE_VALUE_MAX + 1, &rd);
		if (n < 0 && errno == ENOENT)
			continue;
		if (n >= 0 && (size_t)n == e->old_len && memcmp(cur, e->old, e->old_len) == 0)
			continue;
		if (n >= 0 && !e->watch && !same_value(cur, (size_t)n, e->value) &&
		    !(e->seen[0] && same_value(cur, (size_t)n, e->seen))) {
			if (left)
				(*left)++;
			if (log) {
				char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
				fprintf(log, "%s: left at '%.*s': pmlab wrote '%s', another program "
					"changed it since (pmlab's saved value: '%.*s')\n",
					hostfs_show(fs, e->path, shown, sizeof(shown)),
					(int)trimmed_len(cur, (size_t)n), cur, e->value,
					(int)trimmed_len(e->old, e->old_len), e->old);
			}
			continue;
		}
		if (hostfs_write(fs, e->path, e->old, e->old_len, &wd) < 0) {
			if (rc == 0)
				snprintf(d->msg, sizeof(d->msg), "%s", wd.msg);
			rc = -1;
			continue;
		}
		if (n >= 0)
			log_change(log, fs, e->path, cur, (size_t)n, e->old, e->old_len);
		(*restored)++;
	}
	free(cur);
	return rc;
}

/* A fake tree's stand-in for /dev/cpu_dma_latency keeps what was written;
 * the real device forgets a request when its descriptor closes. */
static int restore_latency(struct hostfs *fs, const struct host_state *st, struct pm_diag *d)
{
	if (st->latency_us < 0 || !st->latency_old_valid)
		return 0;
	return hostfs_write(fs, HOST_DMA_LATENCY, st->latency_old, sizeof(st->latency_old), d);
}

int host_txn_restore(struct hostfs *fs, const char *name, bool *had, FILE *log,
		     struct pm_diag *d)
{
	return host_txn_restore_left(fs, name, had, log, NULL, d);
}

int host_txn_restore_left(struct hostfs *fs, const char *name, bool *had, FILE *log, int *left,
			  struct pm_diag *d)
{
	struct host_state st;
	if (left)
		*left = 0;
	int loaded = host_txn_load(fs, name, &st, had, d);
	if (loaded < 0 || !*had)
		return loaded; /* a state it cannot read stops the caller: never skipped */
	int restored;
	struct pm_diag ld;
	int rc = restore_latency(fs, &st, &ld);
	if (rc < 0)
		snprintf(d->msg, sizeof(d->msg), "%s", ld.msg);
	if (restore_entries(fs, &st, st.n, log, &restored, left, rc < 0 ? &ld : d) < 0)
		rc = -1;
	host_state_free(&st);
	if (rc < 0) {
		char why[PM_DIAG_MAX];
		snprintf(why, sizeof(why), "%s", d->msg);
		return pm_fail(d, "%s (the saved state is kept: run the restore again)", why);
	}
	return hostfs_state_remove(fs, name, d);
}

static int snapshot(struct hostfs *fs, struct host_state *st, struct pm_diag *d)
{
	char *buf = malloc(STATE_VALUE_MAX + 1);
	if (!buf)
		return pm_fail(d, "out of memory");
	for (int i = 0; i < st->n; i++) {
		if (st->e[i].appears)
			continue;
		ssize_t n = hostfs_read(fs, st->e[i].path, buf, STATE_VALUE_MAX + 1, d);
		if (n < 0 || host_state_set_old(st, i, buf, (size_t)n, d) < 0) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

/* A fake tree's plain-file stand-in for /dev/cpu_dma_latency: its bytes,
 * to put back. The real device is only stat()ed -- opening it would file
 * a request -- and has nothing to put back: closing ends a request. */
static void snapshot_latency(struct hostfs *fs, struct host_state *st)
{
	struct stat sb;
	char buf[8];
	if (hostfs_stat(fs, HOST_DMA_LATENCY, &sb) < 0 || !S_ISREG(sb.st_mode))
		return;
	int fd = hostfs_open_ro(fs, HOST_DMA_LATENCY);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n == 4) {
		memcpy(st->latency_old, buf, 4);
		st->latency_old_valid = true;
	}
}

static int write_entry(struct hostfs *fs, struct host_state *st, int i, FILE *log,
		       struct txn_result *r, char *buf, struct pm_diag *d)
{
	struct state_entry *e = &st->e[i];
	if (e->watch)
		return 0;
	if (e->had_old && same_value(e->old, e->old_len, e->value)) {
		snprintf(e->seen, sizeof(e->seen), "%s", e->value);
		r->unchanged++;
		return 0;
	}
	if (hostfs_write(fs, e->path, e->value, strlen(e->value), d) < 0) {
		if (errno == EBUSY && strstr(e->path, "energy_performance_preference")) {
			char why[PM_DIAG_MAX];
			snprintf(why, sizeof(why), "%s", d->msg);
			pm_fail(d, "%s (the performance governor pins EPP at performance)", why);
		}
		return -1;
	}
	r->written++;
	ssize_t n = hostfs_read(fs, e->path, buf, STATE_VALUE_MAX + 1, d);
	if (n < 0)
		return -1;
	size_t m = trimmed_len(buf, (size_t)n);
	snprintf(e->seen, sizeof(e->seen), "%.*s", (int)m, buf);
	if (e->check && strcmp(e->seen, e->value) != 0) {
		char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
		return pm_fail(d, "%s: wrote '%s', reads back '%s' (the kernel did not take it)",
			       hostfs_show(fs, e->path, shown, sizeof(shown)), e->value, e->seen);
	}
	if (e->had_old)
		log_change(log, fs, e->path, e->old, e->old_len, e->value, strlen(e->value));
	else if (log) {
		char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
		fprintf(log, "%s: %s\n", hostfs_show(fs, e->path, shown, sizeof(shown)), e->value);
	}
	return 0;
}

static int write_latency(struct hostfs *fs, struct host_state *st, FILE *log,
			 struct txn_result *r, struct pm_diag *d)
{
	if (st->latency_us < 0)
		return 0;
	int fd = hostfs_open_latency(fs, &r->latency_device, d);
	if (fd < 0)
		return -1;
	int32_t v = (int32_t)st->latency_us; /* the kernel takes a raw native s32 */
	if (hostfs_write_fd(fs, fd, HOST_DMA_LATENCY, &v, sizeof(v), d) < 0) {
		close(fd);
		return -1;
	}
	r->latency_fd = fd;
	if (log) {
		char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
		fprintf(log, "%s: %lld us\n", hostfs_show(fs, HOST_DMA_LATENCY, shown, sizeof(shown)),
			(long long)st->latency_us);
	}
	return 0;
}

/* After entry `failed` (st->n: after every entry) went wrong: put back
 * the PM QoS stand-in and entries [0, failed] -- a failed write changes
 * nothing, but one whose read-back was refused did -- and explain. */
static int undo(struct hostfs *fs, struct host_state *st, int failed, const char *name,
		FILE *log, struct pm_diag *d)
{
	char why[PM_DIAG_MAX];
	struct pm_diag rd, ed;
	int restored;
	snprintf(why, sizeof(why), "%s", d->msg);
	/* in reverse order: the PM QoS request went last */
	int rc = restore_latency(fs, st, &rd);
	if (restore_entries(fs, st, failed < st->n ? failed + 1 : st->n, log, &restored, NULL,
			    &ed) < 0) {
		if (rc == 0)
			rd = ed; /* the first failure is the message */
		rc = -1;
	}
	if (rc < 0)
		return pm_fail(d, "%s; restoring failed too: %s (the saved state run/pmlab/%s is "
			       "kept: the next apply or off restores it)", why, rd.msg, name);
	hostfs_state_remove(fs, name, &rd);
	return pm_fail(d, "%s (restored %d file%s: nothing left changed)", why, restored,
		       restored == 1 ? "" : "s");
}

/* tuned's [modules]: modprobe each module the plan needs (a governor's)
 * before the writes that use it. Only on the real machine: a fake tree
 * has no kernel to load into, and its plan already counts the module in.
 * A module stays loaded after off, as tuned leaves it. */
static int load_modules(struct hostfs *fs, const struct host_plan *pl, FILE *log,
			struct pm_diag *d)
{
	static const char *const modprobe[] = { "/sbin/modprobe", "/usr/sbin/modprobe" };
	for (int i = 0; i < pl->nmodules; i++) {
		const char *name = pl->modules[i].name;
		if (!fs->real) {
			if (log)
				fprintf(log, "modprobe %s: not run (a tree at %s has no kernel to load "
					"it into)\n", name, fs->root);
			continue;
		}
		const char *prog = "modprobe";
		for (size_t k = 0; k < sizeof(modprobe) / sizeof(modprobe[0]); k++)
			if (access(modprobe[k], X_OK) == 0) {
				prog = modprobe[k];
				break;
			}
		char *const argv[] = { (char *)prog, "--", (char *)name, NULL };
		int status;
		if (host_run_command(argv, &status, d) < 0)
			return -1;
		if (status != 0)
			return pm_fail(d, "%s %s failed (exit %d): the governor it brings is not "
				       "there; nothing was changed", prog, name, status);
		if (log)
			fprintf(log, "modprobe %s: loaded\n", name);
	}
	return 0;
}

int host_txn_apply(struct hostfs *fs, const struct host_plan *pl, const struct txn_opts *o,
		   struct txn_result *r, struct pm_diag *d)
{
	struct host_state st;
	struct pm_diag ignore;
	bool had;
	*r = (struct txn_result){ .latency_fd = -1 };
	int restored = host_txn_restore(fs, o->state_name, &had, o->log, d);
	if (restored < 0)
		return restored;
	r->recovered = had;

	host_state_init(&st);
	snprintf(st.profile, sizeof(st.profile), "%s", pl->profile[0] ? pl->profile : "-");
	st.latency_us = pl->latency_us;
	st.dyn_low_us = pl->dyn_low_us;
	st.dyn_high_us = pl->dyn_high_us;
	st.dyn_threshold_milli = pl->dyn_threshold_milli;
	int rc = -1;
	for (int i = 0; i < pl->n; i++)
		if (host_state_add(&st, &pl->e[i], d) < 0)
			goto out;
	if (snapshot(fs, &st, d) < 0)
		goto out;
	if (st.latency_us >= 0)
		snapshot_latency(fs, &st);
	/* Before the first write: a crash from here on is recoverable. */
	if (host_txn_save(fs, o->state_name, &st, d) < 0)
		goto out;

	if (load_modules(fs, pl, o->log, d) < 0) {
		hostfs_state_remove(fs, o->state_name, &ignore); /* nothing written yet */
		goto out;
	}
	char *buf = malloc(STATE_VALUE_MAX + 1);
	bool oom = !buf;
	int i = 0;
	if (oom)
		pm_fail(d, "out of memory");
	for (; !oom && i < st.n; i++)
		if (write_entry(fs, &st, i, o->log, r, buf, d) < 0)
			break;
	if (!oom && i == st.n && write_latency(fs, &st, o->log, r, d) == 0) {
		st.applied = true;
		st.holder_pid = st.latency_us >= 0 ? o->holder_pid : 0;
		st.holder_start = o->holder_start;
		rc = host_txn_save(fs, o->state_name, &st, d);
	}
	free(buf);
	if (rc < 0) {
		if (r->latency_fd >= 0)
			close(r->latency_fd);
		r->latency_fd = -1;
		if (oom)
			hostfs_state_remove(fs, o->state_name, &ignore);
		else
			undo(fs, &st, i, o->state_name, o->log, d);
	}
out:
	host_state_free(&st);
	return rc;
}

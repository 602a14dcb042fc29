// SPDX-License-Identifier: GPL-2.0-only
/* What apply changed and the values it found, kept in run/pmlab/NAME of
 * the root so that `off` restores after the process is gone and a later
 * apply recovers from a crash. Saved (atomically) before the first write.
 *
 * Text, one record per line, fields separated by one space; values are
 * escaped so that any bytes survive: bytes 0x21..0x7e other than '\' as
 * they are, everything else as \xNN; a value field is "=" followed by the
 * escaped bytes, or "-" for none.
 *
 *   pmlab-state 1
 *   profile balanced                        the spec applied (escaped)
 *   status applying|applied                 applying: written before the first
 *                                           write; applied: after the last
 *   holder PID START                        optional: the process holding
 *                                           /dev/cpu_dma_latency (apply --hold)
 *   owner PID START                         optional: the process that undoes
 *                                           this state when it exits (govd); a
 *                                           state whose owner is gone is
 *                                           recovered by the next apply or off
 *   latency US OLD                          optional: the PM QoS request, and
 *                                           the 4 bytes a fake tree's plain file
 *                                           held ("-" for the real device)
 *   dynamic LOW HIGH THRESHOLD              optional: tuned's dynamic PM QoS (us,
 *                                           us, load average x 1000): the request
 *                                           is HIGH while the 1-minute load average
 *                                           is below THRESHOLD, else LOW
 *   entry PATH OLD NEW SEEN FLAGS KEY       one file, in write order: the value
 *                                           found, written, read back after the
 *                                           write; FLAGS "-" or letters c (read
 *                                           back checked), w (watched only),
 *                                           a (appeared with an earlier write)
 *
 * Paths are checked on load: relative, no "." or "..", and one of the
 * files a plan may write (plan_paths.h): a restore writes nothing else. */
#ifndef PMLAB_STATE_H
#define PMLAB_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

#define STATE_VERSION 1
#define STATE_MAX_ENTRIES 100000
#define STATE_VALUE_MAX 4096 /* a snapshot: one sysfs page */

struct state_entry {
	char path[HOSTFS_PATH_MAX];
	bool had_old;              /* false: the file appeared with an earlier write */
	char *old;                 /* the bytes found, NUL-terminated copy */
	size_t old_len;
	char value[PLAN_VALUE_MAX];/* written */
	char seen[PLAN_VALUE_MAX]; /* read back after the write, trimmed */
	char key[PLAN_KEY_MAX];
	bool check, watch, appears;
};

struct host_state {
	char profile[PROFILE_TEXT_MAX];
	bool applied;              /* false: an apply began and did not finish */
	long holder_pid;           /* 0: none */
	unsigned long long holder_start;
	long owner_pid;            /* 0: none */
	unsigned long long owner_start;
	int64_t latency_us;        /* -1: none */
	int64_t dyn_low_us, dyn_high_us, dyn_threshold_milli; /* dyn_low_us -1: static */
	bool latency_old_valid;
	unsigned char latency_old[4];
	int n, cap;
	struct state_entry *e;
};

void host_state_init(struct host_state *st);
void host_state_free(struct host_state *st);
/* Appends a copy of plan entry pe (value and flags; no old value yet). */
int host_state_add(struct host_state *st, const struct plan_entry *pe, struct pm_diag *d);
/* Sets entry i's snapshot. */
int host_state_set_old(struct host_state *st, int i, const char *old, size_t len,
		       struct pm_diag *d);

/* The text above; malloc'd. */
char *host_state_format(const struct host_state *st, size_t *len);
/* Parses text (from `name`, for messages "NAME:LINE: ..."). */
int host_state_parse(struct host_state *st, const char *text, size_t len, const char *name,
		     struct pm_diag *d);

#endif

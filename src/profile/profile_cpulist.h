// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists as tuned writes and reads them (tuned/utils/commands.py,
 * tuned 2.20: cpulist_unpack, cpulist_pack, cpulist2hex, hex2cpulist),
 * for the built-in functions profiles call (profile_func.c).
 *
 * Unpacking: items separated by ','; "N" and "N-M"; "^N", "!N", "^N-M"
 * and "!N-M" remove CPUs after the rest is expanded; "0x..." starts a hex
 * mask that goes on through the following items up to an empty one
 * (",,"). Quotes around the whole list are dropped and blanks around
 * numbers allowed. A malformed item makes the whole list empty, as tuned's
 * ValueError does. A set is a bool array indexed by CPU number. */
#ifndef PMLAB_PROFILE_CPULIST_H
#define PMLAB_PROFILE_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

#define PF_CPUS_MAX 8192

/* Into set[PF_CPUS_MAX] (cleared first); false when it was malformed
 * (the set is then empty) or names a CPU at or above PF_CPUS_MAX. */
bool pf_cpulist_unpack(const char *s, bool *set);
/* "0,1,2,5" */
void pf_cpulist_format(const bool *set, char *out, size_t len);
/* "0-2,5" */
void pf_cpulist_pack(const bool *set, char *out, size_t len);
/* "0000002f", groups of 8 hex digits separated by ',' as sysfs masks */
void pf_cpulist_hex(const bool *set, char *out, size_t len);
/* A hex mask ("2f", "0x2f", "00000000,0000002f"); false if it is not one. */
bool pf_cpulist_from_hex(const char *hex, bool *set);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* --profiles LIST as pmlab compare and pmlab replay read it. */
#ifndef PMLAB_CLI_PROFILE_LIST_H
#define PMLAB_CLI_PROFILE_LIST_H

/* Splits a --profiles list into *list (appended to, *n entries): an item
 * OPTION=VALUE continues the entry before it. -1 on OOM. */
int compare_split_profiles(const char *arg, char ***list, int *n);

#endif

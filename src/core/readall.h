// SPDX-License-Identifier: GPL-2.0-only
/* A whole input into memory: the traces and CSV files the command line
 * reads from a file or standard input, and the library from a file. */
#ifndef PMLAB_READALL_H
#define PMLAB_READALL_H

#include <stddef.h>
#include <stdio.h>

/* Inputs larger than this are refused. */
#define READ_ALL_MAX ((size_t)1 << 30)

/* The rest of f into *text (malloc'd; *len bytes, then a NUL not
 * counted). NULL when done, else why not: "out of memory", "larger than
 * 1 GiB" or "read error" (*text untouched). */
const char *read_whole(FILE *f, char **text, size_t *len);

#endif

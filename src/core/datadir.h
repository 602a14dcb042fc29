// SPDX-License-Identifier: GPL-2.0-only
/* Where pmlab's data directories are: data/SUB in the source tree,
 * share/pmlab/SUB once installed (meson.build installs every one the
 * binary reads). */
#ifndef PMLAB_DATADIR_H
#define PMLAB_DATADIR_H

#include <stddef.h>

/* Calls fn with each candidate for data directory SUB that exists, in
 * order: data/SUB under the current directory; BIN/../share/pmlab/SUB
 * next to the running binary; the source tree's data/SUB when the binary
 * runs from a build directory inside it (the nearest ancestor holding
 * src/core/datadir.h). Stops at, and returns, the first nonzero fn
 * returns; 0 otherwise. */
int datadir_each(const char *sub, int (*fn)(void *ctx, const char *dir), void *ctx);
/* The first candidate into buf; -1 if none exists. */
int datadir_find(const char *sub, char *buf, size_t size);

#endif

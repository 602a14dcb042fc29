// SPDX-License-Identifier: GPL-2.0-only
/* The one door through which the host backend touches the machine.
 *
 * Every path is relative to a root directory: "/" on the real machine, a
 * fake tree of plain files in tests (as power-profiles-daemon's
 * UMOCKDEV_DIR). Paths are built by the callers from fixed names and
 * numbers read from the machine, never from profile text.
 *
 * Reads may go anywhere beneath the root. Writes go only to sys/,
 * proc/sys/ and dev/cpu_dma_latency; pmlab's own state goes to run/pmlab/.
 * Every open resolves beneath the root (openat2 RESOLVE_BENEATH; a realpath
 * check where the kernel lacks openat2), so a symbolic link that leads out
 * of the root -- or, for a write, out of the writable subtree -- is
 * refused, while the relative links sysfs is full of work as they should.
 * The refusal says so ("a symbolic link leads out of --root: refused")
 * and is remembered (hostfs_print_refused()).
 *
 * Test hooks, read from the environment when the root is opened (and
 * settable directly by unit tests): PMLAB_FAIL_WRITE_AT=N[:ERRNO] fails the
 * Nth machine write of the process (1-based; default errno EIO) without
 * touching the file; PMLAB_FAIL_WRITE_PATH=SUFFIX[:ERRNO] fails every write
 * to a path ending in SUFFIX (the kernel's EBUSY for EPP under the
 * performance governor, its EINVAL for a value it rejects);
 * PMLAB_PAUSE_WRITE_AT=N stops the process (SIGSTOP) just before the Nth
 * machine write, so a test can kill it mid-apply. */
#ifndef PMLAB_HOSTFS_H
#define PMLAB_HOSTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../core/diag.h"

#define HOSTFS_PATH_MAX 256   /* a relative path */
#define HOSTFS_ROOT_MAX 4096
#define HOSTFS_SUFFIX_MAX 128

/* Paths refused because a symbolic link led out of the root; a caller that
 * did without them (an optional file) says so at the end. */
#define HOSTFS_REFUSED_MAX 16
struct hostfs_refused {
	int n, more;
	char path[HOSTFS_REFUSED_MAX][HOSTFS_PATH_MAX];
};

struct hostfs {
	int rootfd;                  /* O_PATH directory */
	struct hostfs_refused *refused;
	char root[HOSTFS_ROOT_MAX];  /* canonical; "/" on the real machine */
	bool real;                   /* root is "/" */
	/* Test hooks. */
	unsigned long writes;        /* machine writes so far */
	unsigned long fail_at;       /* 0: none */
	int fail_errno;
	char fail_path[HOSTFS_SUFFIX_MAX]; /* "": none */
	int fail_path_errno;
	unsigned long pause_at;      /* 0: none */
	bool no_openat2;             /* resolve with realpath(), as kernels before 5.6 */
};

/* Opens `root` (NULL: $PMLAB_ROOT, else "/"), which must be a directory,
 * and reads the test hooks from the environment. */
int hostfs_open(struct hostfs *fs, const char *root, struct pm_diag *d);
void hostfs_close(struct hostfs *fs);

/* One "pmlab: note: PATH: a symbolic link leads out of --root: skipped"
 * line per path refused so far (commands print them when they succeed). */
void hostfs_print_refused(const struct hostfs *fs, FILE *out);

/* The path as a user would type it: "/sys/..." or "ROOT/sys/...". */
const char *hostfs_show(const struct hostfs *fs, const char *rel, char *buf, size_t len);
/* snprintf into a path buffer; -1 if it did not fit. */
int hostfs_path(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

bool hostfs_exists(const struct hostfs *fs, const char *rel);
/* A relative path with no empty, "." or ".." component (a trailing '/' is
 * allowed): what every path handed to the kernel here must be. */
bool hostfs_plain_relative(const char *rel);
bool hostfs_is_dir(const struct hostfs *fs, const char *rel);
struct stat;
/* fstat of the file (followed beneath the root), without opening it for
 * reading: opening some devices acts (cpu_dma_latency files a request). */
int hostfs_stat(const struct hostfs *fs, const char *rel, struct stat *st);
/* A read-only descriptor (O_CLOEXEC) beneath the root, or -1 with errno. */
int hostfs_open_ro(const struct hostfs *fs, const char *rel);
/* Reads the whole file (at most len - 1 bytes; longer is an error) and
 * NUL-terminates it; returns the byte count or -1 with a message. */
ssize_t hostfs_read(const struct hostfs *fs, const char *rel, char *buf, size_t len,
		    struct pm_diag *d);
/* The same, with trailing white space (the kernel's newline) removed. */
int hostfs_read_str(const struct hostfs *fs, const char *rel, char *buf, size_t len,
		    struct pm_diag *d);
/* A whole unsigned decimal number. */
int hostfs_read_u64(const struct hostfs *fs, const char *rel, uint64_t *v, struct pm_diag *d);

/* Writes `len` bytes in one write(2) to an existing file under sys/,
 * proc/sys/ or dev/cpu_dma_latency (never creates one). -1 with a message
 * "PATH: cannot write 'VALUE': ERROR" and errno set. */
int hostfs_write(struct hostfs *fs, const char *rel, const void *data, size_t len,
		 struct pm_diag *d);
/* Opens dev/cpu_dma_latency for writing; the request lives while the
 * descriptor is open. *is_device is false for a fake tree's plain file. */
int hostfs_open_latency(struct hostfs *fs, bool *is_device, struct pm_diag *d);
/* One machine write to such a descriptor (counted by the test hooks). */
int hostfs_write_fd(struct hostfs *fs, int fd, const char *rel, const void *data, size_t len,
		    struct pm_diag *d);

/* The entries of a directory (no "." or ".."), sorted; *names is NULL-free
 * on success (free with hostfs_free_list). A missing directory gives 0
 * entries, not an error. */
int hostfs_list(const struct hostfs *fs, const char *rel, char ***names, int *n,
		struct pm_diag *d);
void hostfs_free_list(char **names, int n);

/* pmlab's own files in run/pmlab/ of the root; `name` is a fixed word.
 * The directory is created 0700. It and every file in it must be owned by
 * this user or root and not writable by group or others, or the call
 * fails with HOSTFS_UNTRUSTED: whoever can write the state could make
 * root's next restore write a file or signal a process of their choosing.
 * save: temporary file (0600), fsync, rename, fsync of the directory.
 * load: *data NULL (and 0 returned) when there is no such file. */
#define HOSTFS_UNTRUSTED (-2)
int hostfs_state_save(struct hostfs *fs, const char *name, const char *data, size_t len,
		      struct pm_diag *d);
int hostfs_state_load(const struct hostfs *fs, const char *name, char **data, size_t *len,
		      struct pm_diag *d);
int hostfs_state_remove(struct hostfs *fs, const char *name, struct pm_diag *d);
/* An exclusive lock (flock) on run/pmlab/lock, so two pmlab processes do
 * not apply at once; returns the descriptor to close (or -1, or
 * HOSTFS_UNTRUSTED as above). */
int hostfs_lock(struct hostfs *fs, struct pm_diag *d);

#endif

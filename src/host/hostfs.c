// SPDX-License-Identifier: GPL-2.0-only
/* The host access layer: a root, resolution beneath it, the writable
 * subtrees, the test hooks and pmlab's own state files. See hostfs.h. */
/* O_PATH and the openat2 resolve flags are Linux interfaces. */
#define _GNU_SOURCE
#include "hostfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define STATE_DIR "run/pmlab"

/* Where machine writes may go: a subtree and whether the path must be
 * exactly it (dev/cpu_dma_latency) rather than beneath it. */
static const struct {
	const char *prefix; /* relative path with the trailing '/' for subtrees */
	const char *base;   /* the directory resolution starts from */
} writable[] = {
	{ "sys/", "sys" },
	{ "proc/sys/", "proc/sys" },
	{ "dev/cpu_dma_latency", "dev" },
};

int hostfs_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* pm_fail() that leaves errno = err for the caller to test. */
static int fail_with(int err, struct pm_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_with(int err, struct pm_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

/* strerror, except for the one error hostfs makes itself: EXDEV is what
 * openat2 (RESOLVE_BENEATH) and the realpath fallback return for a path
 * whose symbolic links lead out of the root. */
static const char *why(int err)
{
	return err == EXDEV ? "a symbolic link leads out of --root: refused (pmlab reads and "
			      "writes nothing outside the root)"
			    : strerror(err);
}

/* A path refused that way, for the note the command prints at the end
 * (an optional file the caller then does without). */
static void note_refused(const struct hostfs *fs, const char *rel, int err)
{
	struct hostfs_refused *r = fs->refused;
	if (err != EXDEV || !r)
		return;
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->path[i], rel) == 0)
			return;
	if (r->n < HOSTFS_REFUSED_MAX)
		snprintf(r->path[r->n++], sizeof(r->path[0]), "%.*s", HOSTFS_PATH_MAX - 1, rel);
	else
		r->more++;
}

void hostfs_print_refused(const struct hostfs *fs, FILE *out)
{
	const struct hostfs_refused *r = fs->refused;
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	for (int i = 0; r && i < r->n; i++)
		fprintf(out, "pmlab: note: %s: a symbolic link leads out of --root: skipped\n",
			hostfs_show(fs, r->path[i], shown, sizeof(shown)));
	if (r && r->more)
		fprintf(out, "pmlab: note: and %d more paths refused the same way\n", r->more);
}

const char *hostfs_show(const struct hostfs *fs, const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", fs->real ? "" : fs->root, rel);
	return buf;
}

/* A relative path without "." or ".." components: the callers build paths
 * from fixed names, so anything else is a bug, refused before the kernel
 * sees it. */
bool hostfs_plain_relative(const char *rel)
{
	if (!*rel || *rel == '/')
		return false;
	for (const char *s = rel; *s;) {
		size_t n = strcspn(s, "/");
		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/')
			s++;
	}
	return true;
}

static bool is_beneath(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* Without openat2 (kernels before 5.6): canonicalise and compare. */
static int open_fallback(const struct hostfs *fs, const char *base, const char *rel, int flags)
{
	char path[HOSTFS_ROOT_MAX + 2 * HOSTFS_PATH_MAX], canon[PATH_MAX], base_canon[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", fs->root, base);
	if (!realpath(path, base_canon))
		return -1;
	if (!is_beneath(base_canon, fs->root)) {
		errno = EXDEV;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s%s%s", fs->root, base, *base ? "/" : "", rel);
	if (!realpath(path, canon))
		return -1;
	if (!is_beneath(canon, base_canon)) {
		errno = EXDEV;
		return -1;
	}
	return open(canon, flags | O_NOFOLLOW);
}

/* Opens base/rel with every step of the resolution kept beneath base,
 * itself beneath the root ("" for the root). */
static int open_beneath(const struct hostfs *fs, const char *base, const char *rel, int flags)
{
	if (!hostfs_plain_relative(rel) || (*base && !hostfs_plain_relative(base))) {
		errno = EINVAL;
		return -1;
	}
	if (fs->no_openat2)
		return open_fallback(fs, base, rel, flags | O_CLOEXEC);
	struct open_how how = {
		.flags = (uint64_t)(unsigned)(flags | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int dirfd = fs->rootfd;
	if (*base) {
		struct open_how dhow = {
			.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
		};
		dirfd = (int)syscall(SYS_openat2, fs->rootfd, base, &dhow, sizeof(dhow));
		if (dirfd < 0)
			return errno == ENOSYS ? open_fallback(fs, base, rel, flags | O_CLOEXEC) : -1;
	}
	int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	int err = errno;
	if (dirfd != fs->rootfd)
		close(dirfd);
	if (fd < 0 && err == ENOSYS)
		return open_fallback(fs, base, rel, flags | O_CLOEXEC);
	errno = err;
	return fd;
}

/* open_beneath(), remembering a path refused for a link out of the root:
 * the shortest prefix refused, which is the link itself (a directory's
 * link once, not every file read through it). */
static int open_noting(const struct hostfs *fs, const char *base, const char *rel, int flags)
{
	int fd = open_beneath(fs, base, rel, flags);
	if (fd < 0 && errno == EXDEV) {
		char full[2 * HOSTFS_PATH_MAX];
		snprintf(full, sizeof(full), "%s%s%s", base, *base ? "/" : "", rel);
		for (char *slash = strchr(full, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			int pfd = open_beneath(fs, "", full, O_PATH);
			bool out = pfd < 0 && errno == EXDEV;
			if (pfd >= 0)
				close(pfd);
			if (out)
				break;
			*slash = '/';
		}
		note_refused(fs, full, EXDEV);
		errno = EXDEV;
	}
	return fd;
}

/* The errno a hook names: EBUSY, EINVAL, EACCES, EPERM or ENOSPC; EIO
 * for anything else. */
static int hook_errno(const char *name)
{
	static const struct {
		const char *name;
		int err;
	} errs[] = { { "EBUSY", EBUSY }, { "EINVAL", EINVAL }, { "EACCES", EACCES },
		     { "EPERM", EPERM }, { "ENOSPC", ENOSPC } };
	for (size_t i = 0; name && i < sizeof(errs) / sizeof(errs[0]); i++)
		if (strcmp(name, errs[i].name) == 0)
			return errs[i].err;
	return EIO;
}

/* "N" or "N:ERRNO". */
static unsigned long env_number(const char *var, int *err)
{
	const char *s = getenv(var);
	*err = EIO;
	if (!s || !*s)
		return 0;
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*end == ':')
		*err = hook_errno(end + 1);
	return v;
}

static void read_hooks(struct hostfs *fs)
{
	int err;
	fs->fail_at = env_number("PMLAB_FAIL_WRITE_AT", &err);
	fs->fail_errno = err;
	fs->pause_at = env_number("PMLAB_PAUSE_WRITE_AT", &err);
	const char *p = getenv("PMLAB_FAIL_WRITE_PATH");
	if (p && *p) {
		snprintf(fs->fail_path, sizeof(fs->fail_path), "%s", p);
		char *colon = strrchr(fs->fail_path, ':');
		fs->fail_path_errno = hook_errno(colon ? colon + 1 : NULL);
		if (colon)
			*colon = '\0';
	}
}

int hostfs_open(struct hostfs *fs, const char *root, struct pm_diag *d)
{
	*fs = (struct hostfs){ .rootfd = -1 };
	/* --root "" (an unset shell variable, say) is not this machine: a
	 * command meant for a test tree would act on the real one. */
	if (root && !*root)
		return pm_fail(d, "--root '': an empty path (expected a directory; without --root, "
			       "pmlab acts on this machine)");
	if (!root)
		root = getenv("PMLAB_ROOT");
	if (!root || !*root)
		root = "/";
	char canon[PATH_MAX];
	if (!realpath(root, canon))
		return pm_fail(d, "--root %s: %s (expected a directory)", root, strerror(errno));
	if (strlen(canon) >= sizeof(fs->root))
		return pm_fail(d, "--root %s: path too long", root);
	fs->rootfd = open(canon, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fs->rootfd < 0)
		return pm_fail(d, "--root %s: %s (expected a directory)", root, strerror(errno));
	snprintf(fs->root, sizeof(fs->root), "%s", canon);
	fs->real = strcmp(canon, "/") == 0;
	fs->refused = calloc(1, sizeof(*fs->refused)); /* none kept if out of memory */
	read_hooks(fs);
	return 0;
}

void hostfs_close(struct hostfs *fs)
{
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	fs->rootfd = -1;
	free(fs->refused);
	fs->refused = NULL;
}

bool hostfs_exists(const struct hostfs *fs, const char *rel)
{
	int fd = open_noting(fs, "", rel, O_PATH);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool hostfs_is_dir(const struct hostfs *fs, const char *rel)
{
	int fd = open_noting(fs, "", rel, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int hostfs_stat(const struct hostfs *fs, const char *rel, struct stat *st)
{
	int fd = open_noting(fs, "", rel, O_PATH);
	if (fd < 0)
		return -1;
	int rc = fstat(fd, st);
	int err = errno;
	close(fd);
	errno = err;
	return rc;
}

int hostfs_open_ro(const struct hostfs *fs, const char *rel)
{
	return open_noting(fs, "", rel, O_RDONLY | O_NOCTTY);
}

ssize_t hostfs_read(const struct hostfs *fs, const char *rel, char *buf, size_t len,
		    struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	int fd = hostfs_open_ro(fs, rel);
	if (fd < 0)
		return fail_with(errno, d, "%s: cannot read: %s",
				 hostfs_show(fs, rel, shown, sizeof(shown)), why(errno));
	size_t n = 0;
	int err = 0;
	while (n < len) {
		ssize_t r = read(fd, buf + n, len - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err)
		return fail_with(err, d, "%s: cannot read: %s",
				 hostfs_show(fs, rel, shown, sizeof(shown)), why(err));
	if (n == len)
		return fail_with(EFBIG, d, "%s: longer than %zu bytes (expected a sysfs value)",
				 hostfs_show(fs, rel, shown, sizeof(shown)), len - 1);
	buf[n] = '\0';
	if (strlen(buf) != n)
		return fail_with(EINVAL, d, "%s: a NUL byte (expected text)",
				 hostfs_show(fs, rel, shown, sizeof(shown)));
	return (ssize_t)n;
}

int hostfs_read_str(const struct hostfs *fs, const char *rel, char *buf, size_t len,
		    struct pm_diag *d)
{
	ssize_t n = hostfs_read(fs, rel, buf, len, d);
	if (n < 0)
		return -1;
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

int hostfs_read_u64(const struct hostfs *fs, const char *rel, uint64_t *v, struct pm_diag *d)
{
	char buf[64], shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	if (hostfs_read_str(fs, rel, buf, sizeof(buf), d) < 0)
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (!isdigit((unsigned char)buf[0]) || errno || *end)
		return fail_with(EINVAL, d, "%s: '%s' (expected a whole number)",
				 hostfs_show(fs, rel, shown, sizeof(shown)), buf);
	*v = x;
	return 0;
}

/* The data as it appears in a message. */
static const char *show_value(const void *data, size_t len, char *buf, size_t size)
{
	const unsigned char *s = data;
	size_t n = len;
	while (n > 0 && s[n - 1] == '\n')
		n--;
	bool text = n > 0 || len == 0;
	for (size_t i = 0; i < n; i++)
		text &= isprint(s[i]) != 0;
	if (text) {
		snprintf(buf, size, "'%.*s'", (int)(n > 200 ? 200 : n), (const char *)s);
		return buf;
	}
	size_t used = (size_t)snprintf(buf, size, "0x");
	for (size_t i = 0; i < len && i < 16 && used + 3 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%02x", s[i]);
	return buf;
}

/* Counts the write; returns the errno a test hook injects, or 0. */
static int hook(struct hostfs *fs, const char *rel)
{
	fs->writes++;
	if (fs->pause_at && fs->writes == fs->pause_at)
		raise(SIGSTOP);
	if (fs->fail_at && fs->writes == fs->fail_at)
		return fs->fail_errno ? fs->fail_errno : EIO;
	size_t n = strlen(fs->fail_path), m = strlen(rel);
	if (n && m >= n && strcmp(rel + m - n, fs->fail_path) == 0)
		return fs->fail_path_errno ? fs->fail_path_errno : EIO;
	return 0;
}

static int write_all_once(int fd, const void *data, size_t len)
{
	ssize_t w;
	do
		w = write(fd, data, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -1;
	if ((size_t)w != len) {
		errno = EIO; /* sysfs takes a value in one write or not at all */
		return -1;
	}
	return 0;
}

int hostfs_write(struct hostfs *fs, const char *rel, const void *data, size_t len,
		 struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], val[256];
	hostfs_show(fs, rel, shown, sizeof(shown));
	const char *base = NULL, *rest = NULL;
	for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
		size_t n = strlen(writable[i].prefix);
		if (strncmp(rel, writable[i].prefix, n) != 0)
			continue;
		bool subtree = writable[i].prefix[n - 1] == '/';
		if (!subtree && rel[n] != '\0')
			continue;
		base = writable[i].base;
		rest = rel + strlen(base) + 1;
		break;
	}
	if (!base || !hostfs_plain_relative(rel))
		return fail_with(EPERM, d, "%s: not a kernel interface pmlab writes (expected a path "
				 "under sys/, proc/sys/ or dev/cpu_dma_latency)", shown);
	int err = hook(fs, rel);
	int fd = -1;
	if (!err && (fd = open_noting(fs, base, rest, O_WRONLY | O_TRUNC | O_NOCTTY)) < 0)
		err = errno;
	if (!err && write_all_once(fd, data, len) < 0)
		err = errno;
	if (fd >= 0 && close(fd) < 0 && !err)
		err = errno;
	if (err)
		return fail_with(err, d, "%s: cannot write %s: %s", shown,
				 show_value(data, len, val, sizeof(val)),
				 err == EXDEV ? "a symbolic link leads out of the writable tree: "
						"refused" : why(err));
	return 0;
}

int hostfs_open_latency(struct hostfs *fs, bool *is_device, struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	int fd = open_noting(fs, "dev", "cpu_dma_latency", O_WRONLY | O_NOCTTY);
	if (fd < 0)
		return pm_fail(d, "%s: cannot open: %s",
			       hostfs_show(fs, "dev/cpu_dma_latency", shown, sizeof(shown)),
			       why(errno));
	struct stat st;
	*is_device = fstat(fd, &st) == 0 && S_ISCHR(st.st_mode);
	return fd;
}

int hostfs_write_fd(struct hostfs *fs, int fd, const char *rel, const void *data, size_t len,
		    struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], val[256];
	int err = hook(fs, rel);
	if (!err && lseek(fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		err = errno;
	if (!err && write_all_once(fd, data, len) < 0)
		err = errno;
	if (err)
		return fail_with(err, d, "%s: cannot write %s: %s",
				 hostfs_show(fs, rel, shown, sizeof(shown)),
				 show_value(data, len, val, sizeof(val)), why(err));
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void hostfs_free_list(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int hostfs_list(const struct hostfs *fs, const char *rel, char ***names, int *n,
		struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	*names = NULL;
	*n = 0;
	int fd = open_noting(fs, "", rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return pm_fail(d, "%s: cannot list: %s", hostfs_show(fs, rel, shown, sizeof(shown)),
			       why(errno));
	}
	DIR *dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return pm_fail(d, "out of memory");
	}
	char **v = NULL;
	int count = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (count == cap) {
			cap = cap ? 2 * cap : 32;
			char **grown = realloc(v, (size_t)cap * sizeof(*v));
			if (!grown)
				goto oom;
			v = grown;
		}
		if (!(v[count] = strdup(e->d_name)))
			goto oom;
		count++;
	}
	closedir(dir);
	if (count)
		qsort(v, (size_t)count, sizeof(*v), cmp_names);
	*names = v;
	*n = count;
	return 0;
oom:
	closedir(dir);
	hostfs_free_list(v, count);
	return pm_fail(d, "out of memory");
}

/* ---- pmlab's own state ---- */

static bool state_name_ok(const char *name)
{
	if (!*name || strlen(name) > 32)
		return false;
	for (const char *s = name; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

/* pmlab's state says what root writes next and which processes it
 * signals, so it is trusted only when nobody but the caller (or root)
 * could have written it: owned by this user or root, not writable by group
 * or others, and of the expected type. fstat of the descriptor in use, so
 * nothing can be swapped in between. HOSTFS_UNTRUSTED if not. */
static int check_trusted(int fd, bool dir, const char *shown, struct pm_diag *d)
{
	struct stat sb;
	if (fstat(fd, &sb) < 0)
		return pm_fail(d, "%s: cannot stat: %s", shown, why(errno));
	uid_t me = geteuid();
	const char *why = NULL;
	char buf[160];
	if (dir ? !S_ISDIR(sb.st_mode) : !S_ISREG(sb.st_mode)) {
		why = dir ? "not a directory" : "not a regular file";
	} else if (sb.st_uid != me && sb.st_uid != 0) {
		snprintf(buf, sizeof(buf), "owned by uid %u, neither this user (uid %u) nor root",
			 (unsigned)sb.st_uid, (unsigned)me);
		why = buf;
	} else if (sb.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(buf, sizeof(buf), "writable by %s (mode %04o)",
			 sb.st_mode & S_IWOTH ? "others" : "its group", (unsigned)(sb.st_mode & 07777));
		why = buf;
	}
	if (!why)
		return 0;
	pm_fail(d, "%s: %s: refusing pmlab state another user could have written (expected %s "
		"owned by uid %u or root, not writable by group or others)", shown, why,
		dir ? "a directory" : "a file", (unsigned)me);
	return HOSTFS_UNTRUSTED;
}

/* run/pmlab as an O_RDONLY directory descriptor, created (0700) if asked. */
static int state_dir(const struct hostfs *fs, bool create, struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	hostfs_show(fs, STATE_DIR, shown, sizeof(shown));
	if (create) {
		if (mkdirat(fs->rootfd, "run", 0755) < 0 && errno != EEXIST)
			return pm_fail(d, "%s: cannot create: %s", shown, why(errno));
		int run = open_noting(fs, "", "run", O_PATH | O_DIRECTORY);
		if (run < 0)
			return pm_fail(d, "%s: cannot create: %s", shown, why(errno));
		int rc = mkdirat(run, "pmlab", 0700);
		int err = errno;
		close(run);
		if (rc < 0 && err != EEXIST)
			return pm_fail(d, "%s: cannot create: %s", shown, why(err));
	}
	int fd = open_noting(fs, "", STATE_DIR, O_RDONLY | O_DIRECTORY);
	if (fd < 0 && (create || errno != ENOENT))
		return pm_fail(d, "%s: cannot open: %s", shown, why(errno));
	if (fd < 0) {
		d->msg[0] = '\0';
		return -1;
	}
	int rc = check_trusted(fd, true, shown, d);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int hostfs_state_save(struct hostfs *fs, const char *name, const char *data, size_t len,
		      struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], rel[64], tmp[64];
	if (!state_name_ok(name))
		return pm_fail(d, "state name '%s': expected lower-case letters and digits", name);
	snprintf(rel, sizeof(rel), STATE_DIR "/%s", name);
	hostfs_show(fs, rel, shown, sizeof(shown));
	int dfd = state_dir(fs, true, d);
	if (dfd < 0)
		return dfd;
	snprintf(tmp, sizeof(tmp), ".%s.%ld", name, (long)getpid());
	unlinkat(dfd, tmp, 0);
	int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int err = 0;
	if (fd < 0) {
		err = errno;
	} else {
		size_t off = 0;
		while (off < len && !err) {
			ssize_t w = write(fd, data + off, len - off);
			if (w < 0 && errno != EINTR)
				err = errno;
			else if (w > 0)
				off += (size_t)w;
		}
		if (!err && fsync(fd) < 0)
			err = errno;
		if (close(fd) < 0 && !err)
			err = errno;
		if (!err && renameat(dfd, tmp, dfd, name) < 0)
			err = errno;
		if (err)
			unlinkat(dfd, tmp, 0);
	}
	/* The rename is durable only once the directory is. */
	if (!err && fsync(dfd) < 0 && errno != EINVAL)
		err = errno;
	close(dfd);
	if (err)
		return pm_fail(d, "%s: cannot save: %s", shown, why(err));
	return 0;
}

int hostfs_state_load(const struct hostfs *fs, const char *name, char **data, size_t *len,
		      struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], rel[64];
	*data = NULL;
	*len = 0;
	if (!state_name_ok(name))
		return pm_fail(d, "state name '%s': expected lower-case letters and digits", name);
	snprintf(rel, sizeof(rel), STATE_DIR "/%s", name);
	hostfs_show(fs, rel, shown, sizeof(shown));
	int dfd = state_dir(fs, false, d);
	if (dfd < 0)
		return d->msg[0] ? dfd : 0;
	/* O_NONBLOCK: a FIFO in its place must not hang the open. */
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int err = errno;
	close(dfd);
	if (fd < 0 && err == ELOOP) {
		pm_fail(d, "%s: a symbolic link: refusing pmlab state another user could have "
			"placed (expected a file)", shown);
		return HOSTFS_UNTRUSTED;
	}
	if (fd < 0)
		return err == ENOENT ? 0 : pm_fail(d, "%s: cannot read: %s", shown, why(err));
	int trust = check_trusted(fd, false, shown, d);
	if (trust < 0) {
		close(fd);
		return trust;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (err = 0; buf && !err;) {
		if (cap - n < 2) {
			char *grown = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
			if (!grown) {
				err = cap < (64u << 20) ? ENOMEM : EFBIG;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno != EINTR)
			err = errno;
		else if (r == 0)
			break;
		else if (r > 0)
			n += (size_t)r;
	}
	close(fd);
	if (!buf || err) {
		free(buf);
		return pm_fail(d, "%s: cannot read: %s", shown, why(buf ? err : ENOMEM));
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int hostfs_state_remove(struct hostfs *fs, const char *name, struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX], rel[64];
	if (!state_name_ok(name))
		return pm_fail(d, "state name '%s': expected lower-case letters and digits", name);
	snprintf(rel, sizeof(rel), STATE_DIR "/%s", name);
	int dfd = state_dir(fs, false, d);
	if (dfd < 0)
		return d->msg[0] ? dfd : 0;
	int rc = unlinkat(dfd, name, 0);
	int err = errno;
	if (rc == 0)
		fsync(dfd);
	close(dfd);
	if (rc < 0 && err != ENOENT)
		return pm_fail(d, "%s: cannot remove: %s", hostfs_show(fs, rel, shown, sizeof(shown)),
			       why(err));
	return 0;
}

int hostfs_lock(struct hostfs *fs, struct pm_diag *d)
{
	char shown[HOSTFS_ROOT_MAX + HOSTFS_PATH_MAX];
	hostfs_show(fs, STATE_DIR "/lock", shown, sizeof(shown));
	int dfd = state_dir(fs, true, d);
	if (dfd < 0)
		return dfd;
	int fd = openat(dfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	int err = errno;
	close(dfd);
	if (fd < 0)
		return pm_fail(d, "%s: cannot open: %s", shown, why(err));
	int trust = check_trusted(fd, false, shown, d);
	if (trust < 0) {
		close(fd);
		return trust;
	}
	/* Another pmlab applying or restoring takes well under a second;
	 * wait a while rather than fail, never forever. */
	for (int i = 0; i < 100; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		nanosleep(&(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
	}
	err = errno;
	close(fd);
	return pm_fail(d, "%s: %s", shown,
		       err == EWOULDBLOCK ? "another pmlab is changing this machine (try again)"
					  : why(err));
}

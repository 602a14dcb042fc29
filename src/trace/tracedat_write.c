// SPDX-License-Identifier: GPL-2.0-only
/* trace.dat version 6, field by field as trace-cmd.dat.v6(5) gives it.
 * Numbers are in this machine's byte order, which the file declares.
 * No kallsyms and no trace_printk formats: the events recorded for a
 * replay need neither, and kallsyms alone would be megabytes. */
#include "tracedat_write.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libtrace.h"

struct out {
	FILE *f;
	const char *path;
	struct pm_diag *d;
	int failed;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (!o->failed && n && fwrite(p, 1, n, o->f) != n)
		o->failed = errno ? errno : EIO;
}

static void put_u32(struct out *o, uint32_t v) { put(o, &v, sizeof(v)); }
static void put_u64(struct out *o, uint64_t v) { put(o, &v, sizeof(v)); }

/* A tracing file with its size before it: 8 bytes for most, 4 where the
 * format says so. */
static void put_sized(struct out *o, const char *data, size_t len, int size_bytes)
{
	if (size_bytes == 4)
		put_u32(o, (uint32_t)len);
	else
		put_u64(o, len);
	put(o, data, len);
}

static int read_tracing(const char *file, char **data, int *len, struct out *o)
{
	*data = tracefs_instance_file_read(NULL, file, len);
	if (!*data)
		return pm_fail(o->d, "cannot read %s/%s: %s", tracefs_tracing_dir(), file,
			       strerror(errno ? errno : ENOENT));
	return 0;
}

/* text: the file's contents when the source has them, else tracefs's. */
static int put_file(struct out *o, const char *name, const char *file, const char *text)
{
	char *data;
	int len;
	if (text) {
		put(o, name, strlen(name) + 1);
		put_sized(o, text, strlen(text), 8);
		return 0;
	}
	if (read_tracing(file, &data, &len, o) < 0)
		return -1;
	put(o, name, strlen(name) + 1);
	put_sized(o, data, (size_t)len, 8);
	free(data);
	return 0;
}

/* Whether event i ("system/name") is the first of its system in the list. */
static bool first_of_system(const struct tracedat_source *src, int i)
{
	size_t n = strcspn(src->events[i], "/");
	for (int j = 0; j < i; j++)
		if (strncmp(src->events[j], src->events[i], n + 1) == 0)
			return false;
	return true;
}

/* The event formats, grouped by system in the order the events come. */
static int put_formats(struct out *o, const struct tracedat_source *src)
{
	uint32_t nsys = 0;
	for (int i = 0; i < src->nevents; i++)
		nsys += first_of_system(src, i);
	put_u32(o, nsys);
	for (int i = 0; i < src->nevents; i++) {
		if (!first_of_system(src, i))
			continue;
		size_t n = strcspn(src->events[i], "/");
		char sys[64];
		snprintf(sys, sizeof(sys), "%.*s", (int)n, src->events[i]);
		put(o, sys, strlen(sys) + 1);
		uint32_t count = 0;
		for (int j = i; j < src->nevents; j++)
			count += strncmp(src->events[j], src->events[i], n + 1) == 0;
		put_u32(o, count);
		for (int j = i; j < src->nevents; j++) {
			if (strncmp(src->events[j], src->events[i], n + 1) != 0)
				continue;
			if (src->formats) {
				put_sized(o, src->formats[j], strlen(src->formats[j]), 8);
				continue;
			}
			int len;
			char *fmt = tracefs_event_file_read(NULL, sys, src->events[j] + n + 1, "format",
							    &len);
			if (!fmt)
				return pm_fail(o->d, "cannot read the format of %s", src->events[j]);
			put_sized(o, fmt, (size_t)len, 8);
			free(fmt);
		}
	}
	return 0;
}

static uint64_t size_of(int fd)
{
	struct stat st;
	return fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

static void copy_fd(struct out *o, int fd)
{
	char buf[1 << 16];
	ssize_t n;
	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		put(o, buf, (size_t)n);
	if (n < 0 && !o->failed)
		o->failed = errno;
}

static void pad_to(struct out *o, uint64_t at)
{
	static const char zero[4096];
	long pos = ftell(o->f);
	if (pos < 0) {
		o->failed = errno;
		return;
	}
	for (uint64_t p = (uint64_t)pos; p < at;) {
		size_t n = at - p < sizeof(zero) ? (size_t)(at - p) : sizeof(zero);
		put(o, zero, n);
		p += n;
	}
}

int tracedat_write(const char *path, const struct tracedat_source *src, struct pm_diag *d)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	struct out o = { .path = path, .d = d };
	int rc = -1;
	o.f = fopen(path, "wb");
	if (!o.f)
		return pm_fail_at(d, path, 0, "cannot create: %s", strerror(errno));
	put(&o, magic, sizeof(magic));
	put(&o, "tracing", 7);
	put(&o, "6", 2);
	const uint16_t one = 1;
	unsigned char endian = *(const unsigned char *)&one == 1 ? 0 : 1, lsize = sizeof(long);
	put(&o, &endian, 1);
	put(&o, &lsize, 1);
	put_u32(&o, (uint32_t)src->page_size);
	if (put_file(&o, "header_page", "events/header_page", src->header_page) < 0 ||
	    put_file(&o, "header_event", "events/header_event", src->header_event) < 0)
		goto out;
	put_u32(&o, 0); /* ftrace (function tracer) formats: none */
	if (put_formats(&o, src) < 0)
		goto out;
	put_u32(&o, 0); /* kallsyms */
	put_u32(&o, 0); /* trace_printk formats */
	int len = 0;
	char *cmdlines = src->cmdlines ? NULL : tracefs_instance_file_read(NULL, "saved_cmdlines",
									 &len);
	if (src->cmdlines)
		put_sized(&o, src->cmdlines, strlen(src->cmdlines), 8);
	else
		put_sized(&o, cmdlines ? cmdlines : "", cmdlines ? (size_t)len : 0, 8);
	free(cmdlines);
	put_u32(&o, (uint32_t)src->ncpus);
	put(&o, "flyrecord", 10);
	long pos = ftell(o.f);
	if (pos < 0) {
		o.failed = errno;
		goto out;
	}
	uint64_t ps = (uint64_t)src->page_size;
	uint64_t at = ((uint64_t)pos + 16 * (uint64_t)src->ncpus + ps - 1) / ps * ps;
	for (int c = 0; c < src->ncpus; c++) {
		uint64_t n = size_of(src->cpu_fd[c]);
		put_u64(&o, at);
		put_u64(&o, n);
		at += (n + ps - 1) / ps * ps;
	}
	at = ((uint64_t)pos + 16 * (uint64_t)src->ncpus + ps - 1) / ps * ps;
	for (int c = 0; c < src->ncpus; c++) {
		pad_to(&o, at);
		copy_fd(&o, src->cpu_fd[c]);
		at += (size_of(src->cpu_fd[c]) + ps - 1) / ps * ps;
	}
	rc = 0;
out:
	if (fclose(o.f) != 0 && !o.failed)
		o.failed = errno ? errno : EIO;
	if (rc == 0 && o.failed)
		rc = pm_fail_at(d, path, 0, "cannot write: %s", strerror(o.failed));
	if (rc < 0)
		remove(path);
	return rc;
}

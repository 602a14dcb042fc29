// SPDX-License-Identifier: GPL-2.0-only
/* A version-6 trace.dat's own metadata. See tracedat_layout.h. */
#include "tracedat_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* kbuffer's mask for the data length in a page's commit word: the top
 * bits carry RB_MISSED_EVENTS and RB_MISSED_STORED. */
#define COMMIT_MASK ((1u << 27) - 1)
/* include/linux/ring_buffer.h: enum ring_buffer_type */
#define RB_TYPE_DATA_MAX 28
#define RB_TYPE_PADDING 29
#define RB_TYPE_TIME_EXTEND 30
#define RB_TYPE_TIME_STAMP 31
#define OPTION_BUFFER 3 /* trace-cmd's TRACECMD_OPTION_BUFFER */
#define NAME_MAX_LEN 64

#define WINDOW 8192

struct walk {
	int fd;
	const char *path;
	struct tracedat_layout *l;
	uint64_t pos;
	struct pm_diag *d;
	/* The header is read a few bytes at a time: through this window. */
	unsigned char win[WINDOW];
	uint64_t win_at;
	size_t win_len;
};

static int bad_at(struct pm_diag *d, const char *path, uint64_t at, const char *what)
{
	return pm_fail(d, "%.400s: byte %llu: %s (corrupt trace.dat)", path, (unsigned long long)at,
		       what);
}

/* n bytes at `at`, straight from the file. */
static int fill(struct walk *w, void *buf, size_t n, uint64_t at)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = pread(w->fd, (char *)buf + done, n - done, (off_t)(at + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return pm_fail(w->d, "%.400s: cannot read: %s", w->path,
				       r < 0 ? strerror(errno) : "file shrank");
		done += (size_t)r;
	}
	return 0;
}

static int get(struct walk *w, void *buf, size_t n, const char *what)
{
	if (w->pos > w->l->file_size || n > w->l->file_size - w->pos) {
		char msg[200];
		snprintf(msg, sizeof(msg), "%s runs past the end of the file (%llu bytes)", what,
			 (unsigned long long)w->l->file_size);
		return bad_at(w->d, w->path, w->pos, msg);
	}
	if (n <= WINDOW && !(w->pos >= w->win_at && w->pos + n <= w->win_at + w->win_len)) {
		uint64_t left = w->l->file_size - w->pos;
		if (fill(w, w->win, left < WINDOW ? (size_t)left : WINDOW, w->pos) < 0)
			return -1;
		w->win_at = w->pos;
		w->win_len = left < WINDOW ? (size_t)left : WINDOW;
	}
	if (n <= WINDOW)
		memcpy(buf, w->win + (w->pos - w->win_at), n);
	else if (fill(w, buf, n, w->pos) < 0)
		return -1;
	w->pos += n;
	return 0;
}

static uint64_t from_file(const struct tracedat_layout *l, const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)b[l->big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

static int get_uint(struct walk *w, int n, uint64_t *v, const char *what)
{
	unsigned char b[8];
	if (get(w, b, (size_t)n, what) < 0)
		return -1;
	*v = from_file(w->l, b, n);
	return 0;
}

/* A NUL-terminated word of printable bytes that fits out[size]. */
static int get_name(struct walk *w, char *out, size_t size, const char *what)
{
	uint64_t at = w->pos;
	for (size_t i = 0; i < size; i++) {
		if (get(w, &out[i], 1, what) < 0)
			return -1;
		if (out[i] == '\0')
			return i ? 0 : bad_at(w->d, w->path, at, "an empty name");
		if (out[i] <= ' ' || out[i] > '~') {
			char msg[120];
			snprintf(msg, sizeof(msg), "%s: a byte 0x%02x in a name", what,
				 (unsigned char)out[i]);
			return bad_at(w->d, w->path, at, msg);
		}
	}
	char msg[96];
	snprintf(msg, sizeof(msg), "%s: a name longer than %zu bytes", what, size - 1);
	return bad_at(w->d, w->path, at, msg);
}

/* Skips a tracing file of `len` bytes; an event format must be the
 * kernel's text ("name: ...", ending in a newline): a size off by a byte
 * shifts every field after it. */
static int skip_file(struct walk *w, uint64_t len, bool format, const char *what)
{
	uint64_t at = w->pos;
	if (len > w->l->file_size || at > w->l->file_size - len) {
		char msg[200];
		snprintf(msg, sizeof(msg), "%s of %llu bytes runs past the end of the file", what,
			 (unsigned long long)len);
		return bad_at(w->d, w->path, at, msg);
	}
	if (format) {
		char head[6], tail = 0;
		if (len < sizeof(head) + 1 || get(w, head, sizeof(head), what) < 0)
			return bad_at(w->d, w->path, at, "an event format too short to be one");
		w->pos = at + len - 1;
		if (get(w, &tail, 1, what) < 0)
			return -1;
		if (memcmp(head, "name: ", 6) != 0 || tail != '\n') {
			char msg[200];
			snprintf(msg, sizeof(msg), "%s is not an event format (expected 'name: ...' "
				 "ending in a newline: is its size, %llu, right?)", what,
				 (unsigned long long)len);
			return bad_at(w->d, w->path, at, msg);
		}
	}
	w->pos = at + len;
	return 0;
}

/* Remembers a format's place, for libtraceevent's own parse. */
static int note_text(struct walk *w, uint64_t at, uint64_t len, const char *system)
{
	struct tracedat_layout *l = w->l;
	if (l->ntexts == l->captexts) {
		int cap = l->captexts ? 2 * l->captexts : 16;
		struct tracedat_text *grown = realloc(l->text, (size_t)cap * sizeof(*grown));
		if (!grown)
			return pm_fail(w->d, "out of memory");
		l->text = grown;
		l->captexts = cap;
	}
	struct tracedat_text *t = &l->text[l->ntexts++];
	t->offset = at;
	t->size = len;
	snprintf(t->system, sizeof(t->system), "%s", system);
	return 0;
}

static int sized_files(struct walk *w, const char *what, const char *system)
{
	uint64_t n, len;
	char msg[96];
	if (get_uint(w, 4, &n, what) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		snprintf(msg, sizeof(msg), "%s %llu", what, (unsigned long long)i);
		if (get_uint(w, 8, &len, msg) < 0 || note_text(w, w->pos, len, system) < 0 ||
		    skip_file(w, len, true, msg) < 0)
			return -1;
	}
	return 0;
}

static int event_systems(struct walk *w)
{
	uint64_t nsys;
	if (get_uint(w, 4, &nsys, "the number of event systems") < 0)
		return -1;
	for (uint64_t s = 0; s < nsys; s++) {
		char name[NAME_MAX_LEN + 1], what[NAME_MAX_LEN + 32];
		if (get_name(w, name, sizeof(name), "an event system's name") < 0)
			return -1;
		snprintf(what, sizeof(what), "system %s: format", name);
		if (sized_files(w, what, name) < 0)
			return -1;
	}
	return 0;
}

/* trace-cmd's options: {u16 id, u32 size, data} up to id 0. */
static int options(struct walk *w)
{
	for (;;) {
		uint64_t id, size;
		if (get_uint(w, 2, &id, "an option id") < 0)
			return -1;
		if (id == 0)
			return 0;
		if (get_uint(w, 4, &size, "an option's size") < 0 ||
		    skip_file(w, size, false, "an option") < 0)
			return -1;
		if (id == OPTION_BUFFER)
			w->l->instances = true;
	}
}

/* 1 if bytes [from, to) are all zero, 0 with the first other in *nonzero,
 * -1 if they cannot be read. */
static int zeros(struct walk *w, uint64_t from, uint64_t to, uint64_t *nonzero)
{
	unsigned char buf[4096];
	for (uint64_t at = from; at < to;) {
		size_t n = to - at < sizeof(buf) ? (size_t)(to - at) : sizeof(buf);
		w->pos = at;
		if (get(w, buf, n, "padding") < 0)
			return -1;
		for (size_t i = 0; i < n; i++)
			if (buf[i]) {
				*nonzero = at + i;
				return 0;
			}
		at += n;
	}
	return 1;
}

/* The per-CPU regions: whole pages, inside the file, in CPU order, and
 * only zeros outside them (else the header lost some of the data). */
static int regions(struct walk *w)
{
	struct tracedat_layout *l = w->l;
	uint64_t table = w->pos, ps = l->page_size, end = table + 16 * (uint64_t)l->ncpus;
	char msg[300];
	l->cpu = calloc((size_t)l->ncpus, sizeof(*l->cpu));
	if (!l->cpu)
		return pm_fail(w->d, "out of memory");
	for (int c = 0; c < l->ncpus; c++) {
		struct tracedat_region *r = &l->cpu[c];
		uint64_t at = w->pos;
		if (get_uint(w, 8, &r->offset, "a CPU's data offset") < 0 ||
		    get_uint(w, 8, &r->size, "a CPU's data size") < 0)
			return -1;
		const char *why = NULL;
		if (r->offset % ps || r->size % ps)
			why = "not whole pages";
		else if (r->offset > l->file_size || r->size > l->file_size - r->offset)
			why = "beyond the end of the file";
		else if (r->offset < end && (r->size || r->offset < table + 16 * (uint64_t)l->ncpus))
			why = "overlaps the header or the CPU before it";
		if (why) {
			snprintf(msg, sizeof(msg), "CPU %d's data (offset %llu, %llu bytes, pages of "
				 "%u): %s", c, (unsigned long long)r->offset,
				 (unsigned long long)r->size, l->page_size, why);
			return bad_at(w->d, w->path, at, msg);
		}
		if (!r->size)
			continue;
		uint64_t nz;
		int z = zeros(w, end, r->offset, &nz);
		if (z < 0)
			return -1;
		if (z == 0) {
			snprintf(msg, sizeof(msg), "data outside every CPU's region (before CPU %d's, "
				 "at offset %llu): the header's CPU count, offsets or sizes are wrong",
				 c, (unsigned long long)r->offset);
			return bad_at(w->d, w->path, nz, msg);
		}
		end = r->offset + r->size;
		w->pos = at + 16;
	}
	uint64_t nz;
	int z = l->instances ? 1 : zeros(w, end, l->file_size, &nz);
	if (z < 0)
		return -1;
	if (z == 0) {
		snprintf(msg, sizeof(msg), "data after the last CPU's region (the header names %d "
			 "CPU%s): the header's CPU count, offsets or sizes are wrong", l->ncpus,
			 l->ncpus == 1 ? "" : "s");
		return bad_at(w->d, w->path, nz, msg);
	}
	return 0;
}

static int walk_v6(struct walk *w)
{
	struct tracedat_layout *l = w->l;
	static const char *const heads[] = { "header_page", "header_event" };
	for (int i = 0; i < 2; i++) {
		char name[NAME_MAX_LEN + 1];
		uint64_t at = w->pos, len;
		if (get_name(w, name, sizeof(name), heads[i]) < 0)
			return -1;
		if (strcmp(name, heads[i]) != 0) {
			char msg[160];
			snprintf(msg, sizeof(msg), "'%s' where %s belongs", name, heads[i]);
			return bad_at(w->d, w->path, at, msg);
		}
		if (get_uint(w, 8, &len, heads[i]) < 0)
			return -1;
		if (i == 0)
			l->header_page = (struct tracedat_text){ .offset = w->pos, .size = len };
		if (skip_file(w, len, false, heads[i]) < 0)
			return -1;
	}
	uint64_t len, ncpus;
	if (sized_files(w, "ftrace format", "ftrace") < 0 || event_systems(w) < 0)
		return -1;
	if (get_uint(w, 4, &len, "kallsyms' size") < 0 || skip_file(w, len, false, "kallsyms") < 0 ||
	    get_uint(w, 4, &len, "printk formats' size") < 0 ||
	    skip_file(w, len, false, "printk formats") < 0 ||
	    get_uint(w, 8, &len, "saved cmdlines' size") < 0 ||
	    skip_file(w, len, false, "saved cmdlines") < 0)
		return -1;
	uint64_t at = w->pos;
	if (get_uint(w, 4, &ncpus, "the CPU count") < 0)
		return -1;
	if (ncpus < 1 || ncpus > TRACEDAT_MAX_CPUS) {
		char msg[120];
		snprintf(msg, sizeof(msg), "%llu CPUs (expected 1..%d)", (unsigned long long)ncpus,
			 TRACEDAT_MAX_CPUS);
		return bad_at(w->d, w->path, at, msg);
	}
	l->ncpus = (int)ncpus;
	for (;;) {
		char tag[10];
		at = w->pos;
		if (get(w, tag, sizeof(tag), "a section name") < 0)
			return -1;
		if (memcmp(tag, "options  ", 10) == 0) {
			if (options(w) < 0)
				return -1;
		} else if (memcmp(tag, "latency  ", 10) == 0) {
			/* libtracecmd opens these and then crashes reading events */
			return bad_at(w->d, w->path, at, "a latency-tracer trace.dat: text, not "
				      "per-CPU events (expected one from trace-cmd record or pmlab "
				      "record)");
		} else if (memcmp(tag, "flyrecord", 10) == 0) {
			l->flyrecord = true;
			return regions(w);
		} else {
			return bad_at(w->d, w->path, at, "expected 'options', 'latency' or 'flyrecord' "
				      "after the CPU count");
		}
	}
}

int tracedat_layout_load(int fd, const char *path, struct tracedat_layout *l,
			 struct pm_diag *d)
{
	*l = (struct tracedat_layout){ 0 };
	struct stat sb;
	if (fstat(fd, &sb) < 0)
		return pm_fail(d, "%.400s: cannot read: %s", path, strerror(errno));
	l->file_size = (uint64_t)sb.st_size;
	struct walk w = { .fd = fd, .path = path, .l = l, .d = d };
	unsigned char head[12];
	char version[8];
	if (get(&w, head, 10, "the magic") < 0 || get_name(&w, version, sizeof(version), "the version") < 0 ||
	    get(&w, head + 10, 2, "the byte order and long size") < 0)
		return -1;
	if (strcmp(version, "6") != 0 && strcmp(version, "7") != 0)
		return bad_at(d, path, 10, "version (expected 6 or 7)");
	l->version = version[0] - '0';
	if (head[10] > 1 || (head[11] != 4 && head[11] != 8))
		return bad_at(d, path, w.pos - 2, "byte order or long size (expected 0 or 1, then "
			      "4 or 8)");
	l->big_endian = head[10] == 1;
	l->long_size = head[11];
	uint64_t ps;
	if (get_uint(&w, 4, &ps, "the page size") < 0)
		return -1;
	if (ps < 4096 || ps > (1u << 20) || (ps & (ps - 1))) {
		char msg[120];
		snprintf(msg, sizeof(msg), "page size %llu (expected a power of two from 4096 to "
			 "1048576)", (unsigned long long)ps);
		return bad_at(d, path, w.pos - 4, msg);
	}
	l->page_size = (uint32_t)ps;
	int rc = l->version == 6 ? walk_v6(&w) : 0;
	if (rc < 0)
		tracedat_layout_free(l);
	return rc;
}

void tracedat_layout_free(struct tracedat_layout *l)
{
	free(l->cpu);
	free(l->text);
	l->cpu = NULL;
	l->text = NULL;
	l->ntexts = l->captexts = 0;
}

uint64_t tracedat_page_of(const struct tracedat_layout *l, uint64_t offset)
{
	return offset / l->page_size;
}

uint64_t tracedat_npages(const struct tracedat_layout *l)
{
	return l->file_size / l->page_size + 1;
}

/* The data events on one page (kernel/trace/ring_buffer.c: rb_event_length()),
 * or -1 with the byte offset of what is wrong in *bad. */
static long page_events(const struct tracedat_layout *l, const unsigned char *p, uint64_t *bad)
{
	int csize = l->commit_size ? l->commit_size : l->long_size;
	size_t hdr = 8 + (size_t)csize;
	uint64_t commit = from_file(l, p + 8, csize) & COMMIT_MASK;
	if (commit > l->page_size - hdr) {
		*bad = 8;
		return -1;
	}
	long n = 0;
	for (size_t at = 0; at < commit;) {
		const unsigned char *e = p + hdr + at;
		if (commit - at < 4) {
			*bad = hdr + at;
			return -1;
		}
		uint32_t word = (uint32_t)from_file(l, e, 4);
		uint32_t type = l->big_endian ? word >> 27 : word & 31;
		uint32_t delta = l->big_endian ? word & ((1u << 27) - 1) : word >> 5;
		uint64_t len;
		if (type == RB_TYPE_PADDING && delta == 0)
			break; /* the rest of the page is padding */
		if (type == RB_TYPE_TIME_EXTEND || type == RB_TYPE_TIME_STAMP) {
			len = 8;
		} else if (type == RB_TYPE_PADDING || type == 0) {
			if (commit - at < 8) {
				*bad = hdr + at;
				return -1;
			}
			len = from_file(l, e + 4, 4) + 4;
			if (len < 8) {
				*bad = hdr + at;
				return -1;
			}
		} else {
			len = 4 + 4 * (uint64_t)type;
		}
		if (len > commit - at) {
			*bad = hdr + at;
			return -1;
		}
		if (type <= RB_TYPE_DATA_MAX)
			n++;
		at += (size_t)len;
	}
	return n;
}

int tracedat_layout_count_pages(int fd, const char *path, const struct tracedat_layout *l,
				uint32_t *events, struct pm_diag *d)
{
	if (!l->flyrecord)
		return 0;
	unsigned char *page = malloc(l->page_size);
	if (!page)
		return pm_fail(d, "out of memory");
	struct walk w = { .fd = fd, .path = path, .l = (struct tracedat_layout *)l, .d = d };
	int rc = 0;
	for (int c = 0; c < l->ncpus && rc == 0; c++) {
		const struct tracedat_region *r = &l->cpu[c];
		for (uint64_t at = r->offset; at < r->offset + r->size && rc == 0; at += l->page_size) {
			w.pos = at;
			if (get(&w, page, l->page_size, "a page") < 0) {
				rc = -1;
				break;
			}
			uint64_t bad = 0;
			long n = page_events(l, page, &bad);
			if (n < 0) {
				char msg[160];
				snprintf(msg, sizeof(msg), "CPU %d: a ring-buffer page whose %s", c,
					 bad == 8 ? "commit size exceeds the page"
						  : "event runs past its data");
				rc = bad_at(d, path, at + bad, msg);
			} else {
				events[tracedat_page_of(l, at)] = (uint32_t)n;
			}
		}
	}
	free(page);
	return rc;
}

int tracedat_layout_compare(const char *path, const struct tracedat_layout *l,
			    const uint32_t *events, const uint32_t *read, struct pm_diag *d)
{
	for (int c = 0; l->flyrecord && c < l->ncpus; c++) {
		const struct tracedat_region *r = &l->cpu[c];
		for (uint64_t at = r->offset; at < r->offset + r->size; at += l->page_size) {
			uint64_t pg = tracedat_page_of(l, at);
			if (events[pg] == read[pg])
				continue;
			char msg[160];
			snprintf(msg, sizeof(msg), "CPU %d: the page at this offset holds %u event%s, "
				 "libtracecmd read %u", c, events[pg], events[pg] == 1 ? "" : "s",
				 read[pg]);
			return bad_at(d, path, at, msg);
		}
	}
	return 0;
}

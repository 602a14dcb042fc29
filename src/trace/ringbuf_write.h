// SPDX-License-Identifier: GPL-2.0-only
/* One CPU's ring buffer written as the kernel writes it (the page and
 * event format of kernel/trace/ring_buffer.c, Linux 6.x, as
 * include/linux/ring_buffer.h documents it), into a file of whole pages
 * that tracedat_write() copies into a trace.dat: each page a u64
 * timestamp, a u64 commit (the bytes of events) and the events; each
 * event a 32-bit header, type_len (5 bits) and time_delta from the
 * previous event (27 bits), then its data; a delta too large for 27 bits
 * goes first as a TIME_EXTEND event. Records are appended in time order. */
#ifndef PMLAB_RINGBUF_WRITE_H
#define PMLAB_RINGBUF_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RINGBUF_PAGE_SIZE 4096

struct ringbuf {
	int fd;                  /* the pages go here (a temporary file) */
	uint64_t page_ts;        /* the open page's timestamp */
	uint64_t last_ts;        /* the previous event's */
	size_t used;             /* bytes of events in the open page */
	bool open;
	uint64_t records, pages;
	int err;                 /* errno of the first failed write, 0 none */
	unsigned char page[RINGBUF_PAGE_SIZE];
};

/* A ring buffer writing to a new temporary file. -1 with errno. */
int ringbuf_init(struct ringbuf *rb);
/* Appends one record of len bytes at ts (>= the previous one's). -1 when
 * writing failed (errno in rb->err). */
int ringbuf_add(struct ringbuf *rb, uint64_t ts, const void *data, size_t len);
/* Writes the open page out. */
int ringbuf_flush(struct ringbuf *rb);
void ringbuf_close(struct ringbuf *rb);

#endif

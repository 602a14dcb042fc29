// SPDX-License-Identifier: GPL-2.0-only
#include "ringbuf_write.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* include/linux/ring_buffer.h and kernel/trace/ring_buffer.c (v6.18). */
#define RB_PAGE_HEADER ((size_t)16)            /* u64 time_stamp, local_t commit (64-bit) */
#define RB_DATA_SIZE ((size_t)RINGBUF_PAGE_SIZE - RB_PAGE_HEADER)
#define RB_ALIGNMENT 4
#define RB_MAX_SMALL_DATA (28 * RB_ALIGNMENT) /* RINGBUF_TYPE_DATA_TYPE_LEN_MAX */
#define RB_TYPE_TIME_EXTEND 30
#define RB_TS_SHIFT 27
#define RB_TS_MASK ((1u << RB_TS_SHIFT) - 1)

static bool big_endian(void)
{
	const uint16_t one = 1;
	return *(const unsigned char *)&one == 0;
}

/* The bit-field `u32 type_len:5, time_delta:27` as the compiler of a
 * kernel of this byte order lays it out. */
static uint32_t event_header(uint32_t type_len, uint32_t delta)
{
	if (big_endian())
		return (type_len << RB_TS_SHIFT) | (delta & RB_TS_MASK);
	return type_len | ((delta & RB_TS_MASK) << 5);
}

int ringbuf_init(struct ringbuf *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
	FILE *tmp = tmpfile();
	if (!tmp)
		return -1;
	rb->fd = dup(fileno(tmp));
	fclose(tmp);
	return rb->fd < 0 ? -1 : 0;
}

static void put32(struct ringbuf *rb, uint32_t v)
{
	memcpy(rb->page + RB_PAGE_HEADER + rb->used, &v, 4);
	rb->used += 4;
}

int ringbuf_flush(struct ringbuf *rb)
{
	if (!rb->open)
		return rb->err ? -1 : 0;
	uint64_t commit = rb->used;
	memcpy(rb->page, &rb->page_ts, 8);
	memcpy(rb->page + 8, &commit, 8);
	memset(rb->page + RB_PAGE_HEADER + rb->used, 0, RB_DATA_SIZE - rb->used);
	rb->open = false;
	rb->pages++;
	size_t done = 0;
	while (!rb->err && done < (size_t)RINGBUF_PAGE_SIZE) {
		ssize_t n = write(rb->fd, rb->page + done, (size_t)RINGBUF_PAGE_SIZE - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rb->err = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	return rb->err ? -1 : 0;
}

int ringbuf_add(struct ringbuf *rb, uint64_t ts, const void *data, size_t len)
{
	size_t body = (len + RB_ALIGNMENT - 1) / RB_ALIGNMENT * RB_ALIGNMENT;
	bool large = body > RB_MAX_SMALL_DATA; /* its length goes in array[0] */
	size_t need = (large ? 8u : 4u) + body;
	if (rb->err)
		return -1;
	if (ts < rb->last_ts)
		ts = rb->last_ts;
	uint64_t delta = rb->open ? ts - rb->last_ts : 0;
	size_t extend = delta > RB_TS_MASK ? 8 : 0;
	if (rb->open && rb->used + extend + need > RB_DATA_SIZE) {
		if (ringbuf_flush(rb) < 0)
			return -1;
		delta = 0;
		extend = 0;
	}
	if (!rb->open) {
		rb->open = true;
		rb->used = 0;
		rb->page_ts = ts;
	}
	if (extend) {
		put32(rb, event_header(RB_TYPE_TIME_EXTEND, (uint32_t)(delta & RB_TS_MASK)));
		put32(rb, (uint32_t)(delta >> RB_TS_SHIFT));
		delta = 0;
	}
	if (large) {
		put32(rb, event_header(0, (uint32_t)delta));
		put32(rb, (uint32_t)(body + 4));
	} else {
		put32(rb, event_header((uint32_t)(body / RB_ALIGNMENT), (uint32_t)delta));
	}
	memcpy(rb->page + RB_PAGE_HEADER + rb->used, data, len);
	memset(rb->page + RB_PAGE_HEADER + rb->used + len, 0, body - len);
	rb->used += body;
	rb->last_ts = ts;
	rb->records++;
	return 0;
}

void ringbuf_close(struct ringbuf *rb)
{
	if (rb->fd >= 0)
		close(rb->fd);
	rb->fd = -1;
}

// SPDX-License-Identifier: GPL-2.0-only
/* What a version-6 trace.dat says about itself, checked before and after
 * libtracecmd reads it. libtracecmd believes a header field as it is: a
 * page size of 4095 or a CPU count of 1 in a two-CPU file replays a
 * fraction of the trace with no complaint. So pmlab walks the header
 * itself (trace-cmd.dat.v6(5)), checks that the CPU data regions are
 * whole pages inside the file, in order, with nothing but zeros between
 * and after them, and counts the events on every ring-buffer page
 * (the kernel's page and event format, include/linux/ring_buffer.h and
 * kernel/trace/ring_buffer.c as of Linux 6.12): the records libtracecmd
 * delivers must match those counts page by page. Errors name the byte
 * offset. Latency-tracer files (text, no events) are refused. Version 7
 * files (sections, possibly compressed) are checked against libtracecmd's
 * own view only (CPU count). */
#ifndef PMLAB_TRACEDAT_LAYOUT_H
#define PMLAB_TRACEDAT_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"

#define TRACEDAT_MAX_CPUS 8192

struct tracedat_region {
	uint64_t offset, size; /* a CPU's pages in the file */
};

/* A tracing file inside the header: an event format of `system`
 * ("ftrace" for the ftrace formats), or header_page (system ""). */
struct tracedat_text {
	uint64_t offset, size;
	char system[65];
};

struct tracedat_layout {
	int version;           /* 6 or 7 */
	bool big_endian;
	int long_size;         /* 4 or 8 */
	int commit_size;       /* of a page header's commit word: header_page's, else long_size */
	uint32_t page_size;
	uint64_t file_size;
	int ncpus;             /* version 6: the header's count; 7: 0 (not walked) */
	bool flyrecord;        /* version 6 (latency-tracer files are refused) */
	bool instances;        /* BUFFER options: more regions after these */
	struct tracedat_region *cpu;
	struct tracedat_text header_page;
	int ntexts, captexts;   /* the event formats, in file order */
	struct tracedat_text *text;
};

/* Walks the header of the file at path (open as fd). -1 with
 * "PATH: byte N: ..." when the file contradicts itself. */
int tracedat_layout_load(int fd, const char *path, struct tracedat_layout *l,
			 struct pm_diag *d);
void tracedat_layout_free(struct tracedat_layout *l);

/* The index of the page holding byte `offset` of the file, for the
 * per-page counts below; the number of pages in the file. */
uint64_t tracedat_page_of(const struct tracedat_layout *l, uint64_t offset);
uint64_t tracedat_npages(const struct tracedat_layout *l);

/* Counts the data events on every page of every CPU region into
 * events[page] (tracedat_npages() entries). -1 with "PATH: byte N: ..." at
 * the first page that is not a well-formed ring-buffer page. */
int tracedat_layout_count_pages(int fd, const char *path, const struct tracedat_layout *l,
				uint32_t *events, struct pm_diag *d);
/* Those counts against read[page], the records libtracecmd delivered from
 * each page: -1 with the byte offset of the first page that differs. */
int tracedat_layout_compare(const char *path, const struct tracedat_layout *l,
			    const uint32_t *events, const uint32_t *read, struct pm_diag *d);

#endif

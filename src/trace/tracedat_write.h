// SPDX-License-Identifier: GPL-2.0-only
/* Writes a trace-cmd trace.dat, version 6 (trace-cmd.dat.v6(5)), from
 * ring-buffer pages read out of tracefs (per_cpu/cpuN/trace_pipe_raw),
 * as `trace-cmd extract` does: the header and event formats from the
 * tracing directory, then each CPU's pages, page-aligned. Version 6
 * because it is the uncompressed, section-less layout every trace-cmd
 * since 2010 reads (3.x writes 7 but reads both). */
#ifndef PMLAB_TRACEDAT_WRITE_H
#define PMLAB_TRACEDAT_WRITE_H

#include "../core/diag.h"

struct tracedat_source {
	const char *const *events; /* "system/event" whose format files go in */
	int nevents;
	int ncpus;
	const int *cpu_fd;         /* per CPU: its raw pages, read from offset 0; -1 none */
	int page_size;             /* ring-buffer sub-buffer size */
	/* Pages pmlab wrote itself (a simulated run) come with the texts
	 * tracefs would give: the header_page and header_event files, one
	 * format per event, saved_cmdlines. NULL: read from tracefs. */
	const char *header_page, *header_event;
	const char *const *formats;
	const char *cmdlines;
};

/* The tracing directory is libtracefs's (tracefs_tracing_dir()), unless
 * the source brings its own texts. -1 with d filled on failure; a partial
 * file is removed. */
int tracedat_write(const char *path, const struct tracedat_source *src, struct pm_diag *d);

#endif

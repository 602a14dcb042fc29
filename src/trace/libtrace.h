// SPDX-License-Identifier: GPL-2.0-only
/* The trace libraries' headers (libtracecmd, libtraceevent, libtracefs).
 * event-parse.h has an enumerator beyond int (0x80000000), which
 * -Wpedantic rejects; the warning is about their header, not our code. */
#ifndef PMLAB_LIBTRACE_H
#define PMLAB_LIBTRACE_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <event-parse.h>
#include <trace-cmd.h>
#include <tracefs.h>
#pragma GCC diagnostic pop

#endif

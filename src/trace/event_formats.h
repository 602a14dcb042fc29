// SPDX-License-Identifier: GPL-2.0-only
/* The trace events pmlab writes itself (a simulated run as a trace.dat),
 * each with the format text tracefs gives for it and the layout of its
 * record, so that trace-cmd, libtraceevent and every tool built on them
 * decode the records as the kernel's. The texts follow Linux 6.x's
 * (TP_STRUCT__entry of include/trace/events/sched.h, power.h, timer.h as
 * of v6.18), with one difference: sched_process_fork keeps its comms as
 * char[16], as kernels before 6.2 did, which every reader knows. The two
 * "pmlab" events carry the model's power, which no kernel event does. */
#ifndef PMLAB_EVENT_FORMATS_H
#define PMLAB_EVENT_FORMATS_H

#include <stddef.h>
#include <stdint.h>

enum trace_event_id {
	EVF_SCHED_SWITCH,
	EVF_SCHED_WAKEUP,
	EVF_SCHED_WAKEUP_NEW,
	EVF_SCHED_PROCESS_FORK,
	EVF_SCHED_PROCESS_EXIT,
	EVF_CPU_IDLE,
	EVF_CPU_FREQUENCY,
	EVF_HRTIMER_EXPIRE_ENTRY,
	EVF_HRTIMER_EXPIRE_EXIT,
	EVF_CORE_POWER,
	EVF_PACKAGE_POWER,
	EVF_COUNT,
};

struct event_format {
	const char *name;   /* "system/event" */
	uint16_t id;        /* common_type in the records */
	size_t size;        /* bytes of a record, common fields included */
	const char *format; /* the format file */
};

const struct event_format *event_format(enum trace_event_id e);

/* events/header_page for 4096-byte pages of a 64-bit kernel, and
 * events/header_event. */
extern const char event_header_page[];
extern const char event_header_event[];

/* The common fields every record starts with (8 bytes). */
#define EVF_FLAG_IRQS_OFF 0x01
#define EVF_FLAG_HARDIRQ 0x08
struct event_common {
	uint16_t type;
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
};

/* prev_state bits of sched_switch (TASK_REPORT, Linux 4.14+). */
#define EVF_STATE_RUNNING 0x00
#define EVF_STATE_SLEEPING 0x01 /* S */
#define EVF_STATE_DISK 0x02     /* D */
#define EVF_STATE_DEAD 0x10     /* X */

/* cpu_idle's state when the CPU leaves idle (PWR_EVENT_EXIT). */
#define EVF_IDLE_EXIT UINT32_MAX

#endif

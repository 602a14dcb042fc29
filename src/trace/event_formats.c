// SPDX-License-Identifier: GPL-2.0-only
#include "event_formats.h"

const char event_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

const char event_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

#define FIELD(decl, off, size, sign) \
	"\tfield:" decl ";\toffset:" #off ";\tsize:" #size ";\tsigned:" #sign ";\n"
#define HEAD(name, id)                                                  \
	"name: " name "\nID: " #id "\nformat:\n"                        \
	FIELD("unsigned short common_type", 0, 2, 0)                    \
	FIELD("unsigned char common_flags", 2, 1, 0)                    \
	FIELD("unsigned char common_preempt_count", 3, 1, 0)            \
	FIELD("int common_pid", 4, 4, 1) "\n"

/* The task states of sched_switch's print fmt, as Linux 6.x prints them. */
#define STATES "(0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040)"

#define WAKEUP_FIELDS                                    \
	FIELD("char comm[16]", 8, 16, 0)                 \
	FIELD("pid_t pid", 24, 4, 1)                     \
	FIELD("int prio", 28, 4, 1)                      \
	FIELD("int target_cpu", 32, 4, 1)                \
	"\nprint fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu\n"

static const struct event_format formats[EVF_COUNT] = {
	[EVF_SCHED_SWITCH] = { "sched/sched_switch", 316, 64,
		HEAD("sched_switch", 316)
		FIELD("char prev_comm[16]", 8, 16, 0)
		FIELD("pid_t prev_pid", 24, 4, 1)
		FIELD("int prev_prio", 28, 4, 1)
		FIELD("long prev_state", 32, 8, 1)
		FIELD("char next_comm[16]", 40, 16, 0)
		FIELD("pid_t next_pid", 56, 4, 1)
		FIELD("int next_prio", 60, 4, 1)
		"\nprint fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
		"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
		"REC->prev_prio, (REC->prev_state & (((" STATES " + 1) << 1) - 1)) ? "
		"__print_flags(REC->prev_state & (((" STATES " + 1) << 1) - 1), \"|\", "
		"{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
		"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
		"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
		"REC->prev_state & ((" STATES " + 1) << 1) ? \"+\" : \"\", "
		"REC->next_comm, REC->next_pid, REC->next_prio\n" },
	[EVF_SCHED_WAKEUP] = { "sched/sched_wakeup", 318, 36,
		HEAD("sched_wakeup", 318) WAKEUP_FIELDS },
	[EVF_SCHED_WAKEUP_NEW] = { "sched/sched_wakeup_new", 319, 36,
		HEAD("sched_wakeup_new", 319) WAKEUP_FIELDS },
	[EVF_SCHED_PROCESS_FORK] = { "sched/sched_process_fork", 320, 48,
		HEAD("sched_process_fork", 320)
		FIELD("char parent_comm[16]", 8, 16, 0)
		FIELD("pid_t parent_pid", 24, 4, 1)
		FIELD("char child_comm[16]", 28, 16, 0)
		FIELD("pid_t child_pid", 44, 4, 1)
		"\nprint fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, "
		"REC->parent_pid, REC->child_comm, REC->child_pid\n" },
	[EVF_SCHED_PROCESS_EXIT] = { "sched/sched_process_exit", 321, 33,
		HEAD("sched_process_exit", 321)
		FIELD("char comm[16]", 8, 16, 0)
		FIELD("pid_t pid", 24, 4, 1)
		FIELD("int prio", 28, 4, 1)
		FIELD("bool group_dead", 32, 1, 0)
		"\nprint fmt: \"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, "
		"REC->prio, REC->group_dead ? \"true\" : \"false\"\n" },
	[EVF_CPU_IDLE] = { "power/cpu_idle", 330, 16,
		HEAD("cpu_idle", 330)
		FIELD("u32 state", 8, 4, 0)
		FIELD("u32 cpu_id", 12, 4, 0)
		"\nprint fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
		"(unsigned long)REC->cpu_id\n" },
	[EVF_CPU_FREQUENCY] = { "power/cpu_frequency", 331, 16,
		HEAD("cpu_frequency", 331)
		FIELD("u32 state", 8, 4, 0)
		FIELD("u32 cpu_id", 12, 4, 0)
		"\nprint fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
		"(unsigned long)REC->cpu_id\n" },
	[EVF_HRTIMER_EXPIRE_ENTRY] = { "timer/hrtimer_expire_entry", 340, 32,
		HEAD("hrtimer_expire_entry", 340)
		FIELD("void * hrtimer", 8, 8, 0)
		FIELD("s64 now", 16, 8, 1)
		FIELD("void * function", 24, 8, 0)
		"\nprint fmt: \"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, "
		"(unsigned long long) REC->now\n" },
	[EVF_HRTIMER_EXPIRE_EXIT] = { "timer/hrtimer_expire_exit", 341, 16,
		HEAD("hrtimer_expire_exit", 341)
		FIELD("void * hrtimer", 8, 8, 0)
		"\nprint fmt: \"hrtimer=%p\", REC->hrtimer\n" },
	[EVF_CORE_POWER] = { "pmlab/core_power", 350, 16,
		HEAD("core_power", 350)
		FIELD("u32 core", 8, 4, 0)
		FIELD("u32 power_mw", 12, 4, 0)
		"\nprint fmt: \"core=%u power_mw=%u\", REC->core, REC->power_mw\n" },
	[EVF_PACKAGE_POWER] = { "pmlab/package_power", 351, 16,
		HEAD("package_power", 351)
		FIELD("u32 package", 8, 4, 0)
		FIELD("u32 power_mw", 12, 4, 0)
		"\nprint fmt: \"package=%u uncore_power_mw=%u\", REC->package, REC->power_mw\n" },
};

const struct event_format *event_format(enum trace_event_id e)
{
	return &formats[e];
}

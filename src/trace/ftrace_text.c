// SPDX-License-Identifier: GPL-2.0-only
/* Scheduler traces as text. A line is
 *
 *     TASK-PID [(TGID)] [CPU] [FLAGS] SECONDS.FRACTION: EVENT: ARGS   tracefs, trace-cmd report
 *     TASK-PID CPUFLAGS SECONDS.FRACTION: EVENT: ARGS                 trace-cmd report -l
 *     TASK-PID CPUFLAGS MICROSus[DELAY]: EVENT: ARGS                  latency-format
 *
 * The task name may hold '-', spaces, ':' and digits, so the line is read
 * around its timestamp: what is left of it is taken apart from the right
 * (the pid is the last "-DIGITS"), what is right of it is the event. The
 * ARGS are the kernel's print format, trace-cmd's raw field=value pairs
 * (-R), or trace-cmd's sched plugin text ("comm:pid [prio] S ==> ..."),
 * whose prev_state letters come from an older table than the kernel's. */
#include "ftrace_text.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *name;
	trace_sink sink;
	void *ctx;
	struct trace_info *info;
	long line;
	bool header;  /* a trace header was seen */
	bool latency; /* latency-format header */
};

#define EXPECTED "expected 'TASK-PID [CPU] TIMESTAMP: EVENT: ARGS'"

static bool flag_char(char c)
{
	return isalnum((unsigned char)c) || c == '.';
}

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* A decimal number of at most 18 digits at s[0..n): -1 if it is not one. */
static int64_t number(const char *s, size_t n)
{
	if (!all_digits(s, n) || n > 18)
		return -1;
	int64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* The timestamp at s (a digit after a space): seconds with a fraction, or
 * the latency format's microseconds plus a delay mark. Sets *end past the
 * ':' that follows and *ns; false if s is not a timestamp. */
static bool timestamp(const char *s, bool latency, const char **end, int64_t *ns)
{
	size_t i = 0;
	while (isdigit((unsigned char)s[i]))
		i++;
	if (latency) {
		if (s[i] != 'u' || s[i + 1] != 's' || !s[i + 2] || !strchr(" !#*@$+", s[i + 2]) ||
		    s[i + 3] != ':')
			return false;
		int64_t us = number(s, i);
		if (us < 0 || us > INT64_MAX / 1000)
			return false;
		*ns = us * 1000;
		*end = s + i + 4;
		return true;
	}
	if (s[i] != '.')
		return false;
	size_t f = i + 1, j = f;
	while (isdigit((unsigned char)s[j]))
		j++;
	if (j == f || j - f > 9 || s[j] != ':' || (s[j + 1] && s[j + 1] != ' '))
		return false;
	int64_t sec = number(s, i), frac = number(s + f, j - f);
	if (sec < 0 || frac < 0 || sec > INT64_MAX / 1000000000 - 1)
		return false;
	for (size_t k = j - f; k < 9; k++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	*end = s + j + 1;
	return true;
}

/* The third flag column is hardirq/softirq: h, H (hardirq in softirq) and
 * z, Z (NMI) are interrupt context, s is softirq. */
static unsigned context_of(const char *flags, size_t n)
{
	if (n < 3)
		return 0;
	char c = flags[2];
	unsigned ctx = TEV_CTX_KNOWN;
	if (c == 'h' || c == 'H' || c == 'z' || c == 'Z')
		ctx |= TEV_CTX_HARDIRQ;
	else if (c == 's')
		ctx |= TEV_CTX_SOFTIRQ;
	return ctx;
}

static void set_comm(char *dst, const char *s, size_t n)
{
	/* "<...>": the comm was not in saved_cmdlines; "<idle>": the idle task. */
	if (n == 5 && memcmp(s, "<...>", 5) == 0)
		n = 0;
	if (n >= TRACE_COMM_MAX)
		n = TRACE_COMM_MAX - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Everything left of the timestamp: "  comm-pid (tgid) [cpu] flags". */
static bool prefix(char *s, size_t n, struct trace_event *ev)
{
	while (n && s[n - 1] == ' ')
		n--;
	size_t tok = n;
	while (tok && s[tok - 1] != ' ')
		tok--;
	const char *flags = NULL;
	size_t nflags = 0;
	if (n && s[n - 1] == ']') {
		/* "[CPU]" last: no flag columns. */
	} else if (tok < n && all_digits(s + tok, 1)) {
		/* "0d..2.": the CPU glued to the flags (latency format, report -l). */
		size_t d = tok;
		while (d < n && isdigit((unsigned char)s[d]))
			d++;
		for (size_t k = d; k < n; k++)
			if (!flag_char(s[k]))
				return false;
		int64_t cpu = number(s + tok, d - tok);
		if (cpu < 0 || cpu > INT_MAX || d == n)
			return false;
		ev->cpu = (int)cpu;
		ev->ctx = context_of(s + d, n - d);
		n = tok;
		goto task;
	} else {
		flags = s + tok;
		nflags = n - tok;
		for (size_t k = 0; k < nflags; k++)
			if (!flag_char(flags[k]))
				return false;
		n = tok;
		while (n && s[n - 1] == ' ')
			n--;
		if (!n || s[n - 1] != ']')
			return false;
	}
	size_t open = n - 1;
	while (open && s[open - 1] != '[')
		open--;
	if (!open)
		return false;
	int64_t cpu = number(s + open, n - 1 - open);
	if (cpu < 0 || cpu > INT_MAX)
		return false;
	ev->cpu = (int)cpu;
	ev->ctx = flags ? context_of(flags, nflags) : 0;
	n = open - 1;
task:
	while (n && s[n - 1] == ' ')
		n--;
	/* record-tgid: "(  6080)" or "(-------)". */
	if (n && s[n - 1] == ')') {
		while (n && s[n - 1] != '(')
			n--;
		if (!n)
			return false;
		n--;
		while (n && s[n - 1] == ' ')
			n--;
	}
	size_t start = 0;
	while (start < n && s[start] == ' ')
		start++;
	size_t dash = n;
	while (dash > start && isdigit((unsigned char)s[dash - 1]))
		dash--;
	if (dash == n || dash == start || s[dash - 1] != '-')
		return false;
	int64_t pid = number(s + dash, n - dash);
	if (pid < 0 || pid > INT_MAX)
		return false;
	ev->ctx_pid = (int)pid;
	set_comm(ev->ctx_comm, s + start, dash - 1 - start);
	return true;
}

/* --- ARGS --- */

/* Last occurrence of `key` ("name=") in a[0..end) that starts a field (at
 * the start or after a space), or NULL. From the right, so that a comm
 * holding " pid=" cannot hide the real field behind it. */
static const char *rfield(const char *a, size_t end, const char *key)
{
	size_t k = strlen(key);
	if (end < k)
		return NULL;
	for (size_t i = end - k + 1; i-- > 0;)
		if (memcmp(a + i, key, k) == 0 && (i == 0 || a[i - 1] == ' '))
			return a + i;
	return NULL;
}

static bool field_num(const char *a, size_t end, const char *key, int64_t *v, const char **at)
{
	const char *p = rfield(a, end, key);
	if (!p)
		return false;
	p += strlen(key);
	bool neg = *p == '-';
	size_t n = 0;
	while (isdigit((unsigned char)p[neg + n]))
		n++;
	int64_t x = number(p + neg, n);
	if (x < 0)
		return false;
	*v = neg ? -x : x;
	if (at)
		*at = p - strlen(key);
	return true;
}

static bool field_int(const char *a, size_t end, const char *key, int *v, const char **at)
{
	int64_t x;
	if (!field_num(a, end, key, &x, at) || x < INT_MIN || x > INT_MAX)
		return false;
	*v = (int)x;
	return true;
}

/* "KEY=comm" ending at the space before the next field (`next`, which is
 * inside a); *at (if not NULL) is where KEY starts. */
static bool field_comm(const char *a, const char *next, const char *key, char *out,
		       const char **at)
{
	if (next <= a)
		return false;
	const char *stop = next - 1, *p = rfield(a, (size_t)(stop - a), key);
	if (!p)
		return false;
	if (at)
		*at = p;
	p += strlen(key);
	if (p > stop)
		return false;
	set_comm(out, p, (size_t)(stop - p));
	return true;
}

/* Kernel letters (>= 4.14): R S D T t X Z P I, '+' for preempted, '|'
 * between several; older kernels add x (dead), K, W, N. */
static bool kernel_state(const char *s, size_t n, enum trace_prev_state *st)
{
	if (n == 0)
		return false;
	if (all_digits(s, n)) { /* trace-cmd report -R: the raw number */
		int64_t raw = number(s, n);
		if (raw < 0)
			return false;
		*st = trace_state_from_bits((uint64_t)raw);
		return true;
	}
	bool dead = false, disk = false, run = true;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '|' || c == '+')
			continue;
		if (!strchr("RSDTtXZPIxKWN", c))
			return false;
		dead |= c == 'X' || c == 'Z' || c == 'x';
		disk |= c == 'D';
		run &= c == 'R';
	}
	*st = dead ? TPS_DEAD : disk ? TPS_DISK : run ? TPS_RUNNABLE : TPS_SLEEP;
	return true;
}

/* libtraceevent's sched_switch plugin decodes the raw bits with the table
 * "SDTtZXxW" (bit 0 up), so the kernel's Z (bit 5) prints as X and I (bit
 * 7) as W: back to bits, then the kernel's meaning. */
static bool plugin_state(const char *s, size_t n, enum trace_prev_state *st)
{
	static const char table[] = "SDTtZXxW";
	uint64_t raw = 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == 'R' || s[i] == '|' || s[i] == '+')
			continue;
		const char *at = memchr(table, s[i], 8);
		if (!at)
			return false;
		raw |= UINT64_C(1) << (at - table);
	}
	*st = trace_state_from_bits(raw);
	return true;
}

/* Plugin "comm:pid [prio]" ending at a[n]. */
static bool plugin_task(const char *a, size_t n, char *comm, int *pid, int *prio)
{
	while (n && a[n - 1] == ' ')
		n--;
	if (!n || a[n - 1] != ']')
		return false;
	size_t open = n - 1;
	while (open && a[open - 1] != '[')
		open--;
	if (!open)
		return false;
	const char *p = a + open;
	bool neg = *p == '-';
	int64_t pr = number(p + neg, n - 1 - open - neg);
	if (pr < 0)
		return false;
	*prio = (int)(neg ? -pr : pr);
	n = open - 1;
	while (n && a[n - 1] == ' ')
		n--;
	size_t colon = n;
	while (colon && isdigit((unsigned char)a[colon - 1]))
		colon--;
	if (colon == n || !colon || a[colon - 1] != ':')
		return false;
	int64_t v = number(a + colon, n - colon);
	if (v < 0 || v > INT_MAX)
		return false;
	*pid = (int)v;
	set_comm(comm, a, colon - 1);
	return true;
}

static bool parse_switch(const char *a, size_t n, struct trace_event *ev)
{
	const char *next_pid, *next_comm, *prev_state, *prev_pid;
	if (!rfield(a, n, "prev_comm=")) {
		/* Plugin: "comm:pid [prio] S ==> comm:pid [prio]". */
		const char *arrow = NULL;
		for (size_t i = 0; i + 5 <= n; i++)
			if (memcmp(a + i, " ==> ", 5) == 0)
				arrow = a + i;
		if (!arrow)
			return false;
		size_t l = (size_t)(arrow - a), st = l;
		while (st && a[st - 1] != ' ')
			st--;
		if (!plugin_state(a + st, l - st, &ev->state))
			return false;
		return plugin_task(a, st, ev->comm, &ev->pid, &ev->prio) &&
		       plugin_task(arrow + 5, n - l - 5, ev->comm2, &ev->pid2, &ev->prio2);
	}
	if (!field_int(a, n, "next_prio=", &ev->prio2, NULL) ||
	    !field_int(a, n, "next_pid=", &ev->pid2, &next_pid) ||
	    !field_comm(a, next_pid, "next_comm=", ev->comm2, &next_comm))
		return false;
	prev_state = rfield(a, (size_t)(next_comm - a), "prev_state=");
	if (!prev_state)
		return false;
	const char *v = prev_state + strlen("prev_state="), *e = v;
	while (e < next_comm && *e != ' ')
		e++;
	if (!kernel_state(v, (size_t)(e - v), &ev->state))
		return false;
	size_t left = (size_t)(prev_state - a);
	return field_int(a, left, "prev_prio=", &ev->prio, NULL) &&
	       field_int(a, left, "prev_pid=", &ev->pid, &prev_pid) &&
	       field_comm(a, prev_pid, "prev_comm=", ev->comm, NULL);
}

/* sched_wakeup, _new, sched_waking: "comm=C pid=N prio=P [success=1]
 * target_cpu=NNN", or the plugin's "comm:pid [prio] [success=1] CPU:NNN". */
static bool parse_wakeup(const char *a, size_t n, struct trace_event *ev)
{
	const char *pid;
	if (strncmp(a, "comm=", 5) == 0) {
		if (!field_int(a, n, "pid=", &ev->pid, &pid) ||
		    !field_comm(a, pid, "comm=", ev->comm, NULL))
			return false;
		field_int(a, n, "prio=", &ev->prio, NULL);
		if (!field_int(a, n, "target_cpu=", &ev->arg, NULL))
			ev->arg = -1;
		return true;
	}
	const char *cpu = rfield(a, n, "CPU:");
	if (!cpu)
		return false;
	ev->arg = (int)number(cpu + 4, strspn(cpu + 4, "0123456789"));
	size_t end = (size_t)(cpu - a);
	const char *succ = rfield(a, end, "success=");
	if (succ)
		end = (size_t)(succ - a);
	return plugin_task(a, end, ev->comm, &ev->pid, &ev->prio);
}

static bool parse_fork(const char *a, size_t n, struct trace_event *ev)
{
	const char *child, *child_comm, *parent;
	if (!field_int(a, n, "child_pid=", &ev->pid2, &child) ||
	    !field_comm(a, child, "child_comm=", ev->comm2, &child_comm))
		return false;
	size_t left = (size_t)(child_comm - a);
	/* The kernel prints comm= pid=, trace-cmd -R the field names. */
	if (field_int(a, left, "parent_pid=", &ev->pid, &parent))
		return field_comm(a, parent, "parent_comm=", ev->comm, NULL);
	return field_int(a, left, "pid=", &ev->pid, &parent) &&
	       field_comm(a, parent, "comm=", ev->comm, NULL);
}

/* "comm=C pid=N prio=P ..." (exit, migrate). */
static bool parse_task(const char *a, size_t n, struct trace_event *ev)
{
	const char *pid;
	if (!field_int(a, n, "pid=", &ev->pid, &pid) || !field_comm(a, pid, "comm=", ev->comm, NULL))
		return false;
	field_int(a, n, "prio=", &ev->prio, NULL);
	return true;
}

static bool parse_cpu_state(const char *a, size_t n, struct trace_event *ev)
{
	int64_t v;
	if (!field_num(a, n, "state=", &v, NULL) || v < 0 || v > UINT32_MAX)
		return false;
	ev->value = (uint64_t)v;
	return field_int(a, n, "cpu_id=", &ev->arg, NULL) && ev->arg >= 0;
}

static const struct {
	const char *name;
	enum trace_kind kind;
	bool (*parse)(const char *a, size_t n, struct trace_event *ev);
	const char *fields;
} events[] = {
	{ "sched_switch", TEV_SWITCH, parse_switch,
	  "prev_comm= prev_pid= prev_prio= prev_state= ==> next_comm= next_pid= next_prio=" },
	{ "sched_waking", TEV_WAKING, parse_wakeup, "comm= pid= prio= target_cpu=" },
	{ "sched_wakeup", TEV_WAKEUP, parse_wakeup, "comm= pid= prio= target_cpu=" },
	{ "sched_wakeup_new", TEV_WAKEUP_NEW, parse_wakeup, "comm= pid= prio= target_cpu=" },
	{ "sched_process_fork", TEV_FORK, parse_fork, "comm= pid= child_comm= child_pid=" },
	{ "sched_process_exit", TEV_EXIT, parse_task, "comm= pid= prio=" },
	{ "sched_migrate_task", TEV_MIGRATE, parse_task, "comm= pid= prio= orig_cpu= dest_cpu=" },
	{ "cpu_frequency", TEV_FREQ, parse_cpu_state, "state= cpu_id=" },
	{ "cpu_idle", TEV_IDLE, parse_cpu_state, "state= cpu_id=" },
	{ "hrtimer_expire_entry", TEV_TIMER_ENTRY, NULL, NULL },
	{ "timer_expire_entry", TEV_TIMER_ENTRY, NULL, NULL },
	{ "hrtimer_expire_exit", TEV_TIMER_EXIT, NULL, NULL },
	{ "timer_expire_exit", TEV_TIMER_EXIT, NULL, NULL },
};

static int bad(struct parser *p, struct pm_diag *d, const char *what)
{
	return pm_fail_at(d, p->name, (int)(p->line < INT_MAX ? p->line : INT_MAX), "%s", what);
}

/* Lines that are not events: headers and lost-event markers. 1 handled,
 * 0 not such a line. */
static int non_event(struct parser *p, const char *s, struct trace_event *ev)
{
	unsigned long long a = 0, b = 0;
	if (s[0] == '#') {
		const char *np = strstr(s, "#P:");
		if (np && p->info->ncpus == 0)
			p->info->ncpus = atoi(np + 3);
		if (strncmp(s, "# tracer:", 9) == 0)
			p->header = true;
		if (strstr(s, "latency trace v")) {
			p->header = true;
			p->latency = true;
			p->info->relative_us = true;
			p->info->format = "ftrace text (latency-format)";
		}
		return 1;
	}
	if (sscanf(s, "cpus=%llu", &a) == 1 && !p->header) {
		p->header = true;
		p->info->ncpus = a > 0 && a <= INT_MAX ? (int)a : 0;
		p->info->format = "trace-cmd report";
		return 1;
	}
	if (strncmp(s, "version = ", 10) == 0 || strncmp(s, "##### CPU ", 10) == 0 ||
	    (strncmp(s, "CPU ", 4) == 0 && strstr(s, " is empty")))
		return 1;
	/* Kernel: "CPU:1 [LOST 123 EVENTS]"; trace-cmd: "CPU:1 [123 EVENTS
	 * DROPPED]" or "CPU:1 [EVENTS DROPPED]". */
	if (sscanf(s, "CPU:%llu [LOST %llu EVENTS]", &a, &b) == 2 ||
	    sscanf(s, "CPU:%llu [%llu EVENTS DROPPED]", &a, &b) == 2 ||
	    (sscanf(s, "CPU:%llu [", &a) == 1 && strstr(s, "EVENTS DROPPED]"))) {
		if (a > INT_MAX)
			return 0;
		*ev = (struct trace_event){ .kind = TEV_LOST, .cpu = (int)a, .value = b,
					    .ts = -1 };
		return 1;
	}
	return 0;
}

static int feed(struct parser *p, char *s, size_t n, bool truncated, struct pm_diag *d)
{
	struct trace_event ev = { .kind = TEV_OTHER, .prio = -1, .prio2 = -1, .arg = -1 };
	p->line++;
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	if (memchr(s, '\0', n))
		return bad(p, d, "binary data in a text trace (expected a trace.dat or ftrace text)");
	if (n == 0)
		return 0;
	if (non_event(p, s, &ev)) {
		if (ev.kind != TEV_LOST)
			return 0;
		ev.where = p->line;
		p->info->lost += ev.value;
		return p->sink(p->ctx, &ev, d);
	}
	const char *end = NULL;
	size_t at;
	for (at = 1; at < n; at++)
		if (s[at - 1] == ' ' && isdigit((unsigned char)s[at]) &&
		    timestamp(s + at, p->latency, &end, &ev.ts))
			break;
	if (at >= n || !prefix(s, at, &ev)) {
		if (truncated)
			return 0; /* the file was cut in the middle of its last line */
		if (!p->header && p->info->nevents == 0)
			return bad(p, d, "not an ftrace text trace (expected a '# tracer:' or "
					 "'cpus=N' header, or lines 'TASK-PID [CPU] TIMESTAMP: EVENT: ARGS')");
		return bad(p, d, "cannot read this line (" EXPECTED ")");
	}
	while (*end == ' ')
		end++;
	size_t nl = strcspn(end, ":");
	if (nl == 0 || end[nl] != ':') {
		if (truncated)
			return 0;
		return bad(p, d, "no event name after the timestamp (" EXPECTED ")");
	}
	const char *args = end + nl + 1;
	while (*args == ' ')
		args++;
	size_t na = strlen(args);
	ev.where = p->line;
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (strlen(events[i].name) != nl || memcmp(events[i].name, end, nl) != 0)
			continue;
		ev.kind = events[i].kind;
		if (events[i].parse && !events[i].parse(args, na, &ev)) {
			if (truncated)
				return 0;
			char msg[256];
			snprintf(msg, sizeof(msg), "%s: cannot read its fields (expected %s)",
				 events[i].name, events[i].fields);
			return bad(p, d, msg);
		}
		break;
	}
	if (p->info->ncpus > 0 && ev.cpu >= p->info->ncpus) {
		char msg[160];
		snprintf(msg, sizeof(msg), "CPU %d, but the header says the trace has %d CPUs",
			 ev.cpu, p->info->ncpus);
		return bad(p, d, msg);
	}
	p->info->nevents++;
	return p->sink(p->ctx, &ev, d);
}

static void start(struct parser *p, const char *name, trace_sink sink, void *ctx,
		  struct trace_info *info)
{
	*info = (struct trace_info){ .format = "ftrace text" };
	*p = (struct parser){ .name = name, .sink = sink, .ctx = ctx, .info = info };
}

static int finish(struct parser *p, struct pm_diag *d)
{
	if (p->info->nevents == 0 && !p->header)
		return pm_fail_at(d, p->name, 0, "empty: no trace header and no events "
				  "(expected ftrace text or a trace.dat)");
	return 0;
}

int ftrace_text_read(FILE *f, const char *name, trace_sink sink, void *ctx,
		     struct trace_info *info, struct pm_diag *d)
{
	struct trace_info local;
	struct parser p;
	start(&p, name, sink, ctx, info ? info : &local);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	errno = 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		bool nl = line[n - 1] == '\n';
		if (nl)
			line[--n] = '\0';
		if (feed(&p, line, (size_t)n, !nl, d) < 0) {
			rc = -1;
			break;
		}
	}
	free(line);
	if (rc == 0 && ferror(f))
		return pm_fail_at(d, name, 0, "read error: %s", strerror(errno ? errno : EIO));
	return rc < 0 ? rc : finish(&p, d);
}

int ftrace_text_read_buf(const char *buf, size_t len, const char *name, trace_sink sink,
			 void *ctx, struct trace_info *info, struct pm_diag *d)
{
	struct trace_info local;
	struct parser p;
	start(&p, name, sink, ctx, info ? info : &local);
	char *line = NULL;
	size_t cap = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nlp = memchr(buf + pos, '\n', len - pos);
		size_t n = nlp ? (size_t)(nlp - (buf + pos)) : len - pos;
		if (n + 1 > cap) {
			char *grown = realloc(line, n + 1);
			if (!grown) {
				free(line);
				return pm_fail(d, "out of memory");
			}
			line = grown;
			cap = n + 1;
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		if (feed(&p, line, n, !nlp, d) < 0) {
			free(line);
			return -1;
		}
		pos += n + 1;
	}
	free(line);
	return finish(&p, d);
}

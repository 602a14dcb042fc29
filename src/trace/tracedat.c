// SPDX-License-Identifier: GPL-2.0-only
/* trace.dat through libtracecmd. Fields are read by name, never by
 * offset: their layout changes between kernels (6.x made fork's and
 * migrate's comms __data_loc strings). libtracecmd's own messages are
 * silenced; what goes wrong is reported once, with the record number.
 *
 * libtracecmd 1.3 crashes on some truncated files (tracecmd_open_fd()'s
 * error path closes a half-built handle), and a trace is input from
 * anywhere: the file is read in a child process, whose events come back
 * through a pipe and whose death is an error about the file, not ours. */
#include "tracedat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libtrace.h"
#include "tracedat_layout.h"

#define TRACE_FLAG_NMI 0x40 /* kernel/trace/trace.h; libtraceevent has no name for it */

static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

bool tracedat_magic(const void *head, size_t n)
{
	return n >= sizeof(magic) && memcmp(head, magic, sizeof(magic)) == 0;
}

static const struct {
	const char *system, *name;
	enum trace_kind kind;
} wanted[] = {
	{ "sched", "sched_switch", TEV_SWITCH },
	{ "sched", "sched_waking", TEV_WAKING },
	{ "sched", "sched_wakeup", TEV_WAKEUP },
	{ "sched", "sched_wakeup_new", TEV_WAKEUP_NEW },
	{ "sched", "sched_process_fork", TEV_FORK },
	{ "sched", "sched_process_exit", TEV_EXIT },
	{ "sched", "sched_migrate_task", TEV_MIGRATE },
	{ "power", "cpu_frequency", TEV_FREQ },
	{ "power", "cpu_idle", TEV_IDLE },
	{ "timer", "hrtimer_expire_entry", TEV_TIMER_ENTRY },
	{ "timer", "timer_expire_entry", TEV_TIMER_ENTRY },
	{ "timer", "hrtimer_expire_exit", TEV_TIMER_EXIT },
	{ "timer", "timer_expire_exit", TEV_TIMER_EXIT },
};
#define NWANTED (sizeof(wanted) / sizeof(wanted[0]))

struct reader {
	const char *path;
	struct tep_handle *tep;
	struct tep_event *ev[NWANTED];
	trace_sink sink;
	void *ctx;
	struct trace_info *info;
	struct pm_diag *d;
	long nrec;
	int rc;
	const struct tracedat_layout *layout;
	uint32_t *per_page;       /* records read from each page of the file */
};

static int fail(struct reader *r, const struct tep_record *rec, const char *what, int cpu)
{
	r->rc = pm_fail(r->d, "%.400s: byte %llu (record %ld, CPU %d): %.300s", r->path,
			rec->offset, r->nrec, cpu, what);
	return 1; /* stops the iteration */
}

static bool num(struct tep_event *e, struct tep_record *rec, const char *name, long long *v)
{
	unsigned long long x;
	if (tep_get_field_val(NULL, e, name, rec, &x, 0) != 0)
		return false;
	*v = (long long)x;
	return true;
}

static bool int_field(struct tep_event *e, struct tep_record *rec, const char *name, int *v)
{
	long long x;
	if (!num(e, rec, name, &x))
		return false;
	*v = (int)x; /* pids and prios are s32 fields */
	return true;
}

/* char[16] or __data_loc char[]; -1 if missing. */
static bool str_field(struct tep_event *e, struct tep_record *rec, const char *name, char *out)
{
	int len = 0;
	const char *p = tep_get_field_raw(NULL, e, name, rec, &len, 0);
	if (!p || len < 0 || len > rec->size)
		return false;
	size_t n = strnlen(p, (size_t)len);
	if (n >= TRACE_COMM_MAX)
		n = TRACE_COMM_MAX - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

static bool decode(struct tep_event *e, struct tep_record *rec, struct trace_event *ev,
		   const char **missing)
{
	long long v;
	switch (ev->kind) {
	case TEV_SWITCH:
		*missing = "prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio";
		if (!str_field(e, rec, "prev_comm", ev->comm) ||
		    !int_field(e, rec, "prev_pid", &ev->pid) || !num(e, rec, "prev_state", &v) ||
		    !str_field(e, rec, "next_comm", ev->comm2) ||
		    !int_field(e, rec, "next_pid", &ev->pid2))
			return false;
		ev->state = trace_state_from_bits((uint64_t)v);
		int_field(e, rec, "prev_prio", &ev->prio);
		int_field(e, rec, "next_prio", &ev->prio2);
		return true;
	case TEV_WAKING:
	case TEV_WAKEUP:
	case TEV_WAKEUP_NEW:
		*missing = "comm, pid";
		if (!str_field(e, rec, "comm", ev->comm) || !int_field(e, rec, "pid", &ev->pid))
			return false;
		int_field(e, rec, "prio", &ev->prio);
		int_field(e, rec, "target_cpu", &ev->arg);
		return true;
	case TEV_FORK:
		*missing = "parent_comm, parent_pid, child_comm, child_pid";
		return str_field(e, rec, "parent_comm", ev->comm) &&
		       int_field(e, rec, "parent_pid", &ev->pid) &&
		       str_field(e, rec, "child_comm", ev->comm2) &&
		       int_field(e, rec, "child_pid", &ev->pid2);
	case TEV_EXIT:
	case TEV_MIGRATE:
		*missing = "comm, pid";
		if (!str_field(e, rec, "comm", ev->comm) || !int_field(e, rec, "pid", &ev->pid))
			return false;
		int_field(e, rec, "prio", &ev->prio);
		if (ev->kind == TEV_MIGRATE)
			int_field(e, rec, "dest_cpu", &ev->arg);
		return true;
	case TEV_FREQ:
	case TEV_IDLE:
		*missing = "state, cpu_id";
		if (!num(e, rec, "state", &v) || !int_field(e, rec, "cpu_id", &ev->arg))
			return false;
		ev->value = (uint32_t)v; /* u32: cpu_idle's exit is (u32)-1 */
		return true;
	default:
		return true;
	}
}

static int record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct reader *r = data;
	(void)h;
	r->nrec++;
	if (cpu < 0 || (r->info->ncpus > 0 && cpu >= r->info->ncpus))
		return fail(r, rec, "CPU beyond the trace's CPU count (corrupt trace.dat?)", cpu);
	if (r->per_page && rec->offset < r->layout->file_size)
		r->per_page[tracedat_page_of(r->layout, rec->offset)]++;
	if (rec->missed_events) {
		struct trace_event lost = { .kind = TEV_LOST, .cpu = cpu, .ts = (int64_t)rec->ts,
					    .where = r->nrec, .offset = rec->offset,
					    .value = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0 };
		r->info->lost += lost.value;
		if (r->sink(r->ctx, &lost, r->d) < 0) {
			r->rc = -1;
			return 1;
		}
	}
	int type = tep_data_type(r->tep, rec);
	struct tep_event *e = tep_find_event(r->tep, type);
	if (!e) {
		char what[64];
		snprintf(what, sizeof(what), "unknown event type %d (corrupt trace.dat?)", type);
		return fail(r, rec, what, cpu);
	}
	if (rec->ts > INT64_MAX)
		return fail(r, rec, "timestamp out of range (corrupt trace.dat?)", cpu);
	struct trace_event ev = { .kind = TEV_OTHER, .ts = (int64_t)rec->ts, .cpu = cpu,
				  .prio = -1, .prio2 = -1, .arg = -1, .where = r->nrec,
				  .offset = rec->offset };
	ev.ctx_pid = tep_data_pid(r->tep, rec);
	int flags = tep_data_flags(r->tep, rec);
	if (flags >= 0) {
		ev.ctx = TEV_CTX_KNOWN;
		if (flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI))
			ev.ctx |= TEV_CTX_HARDIRQ;
		else if (flags & TRACE_FLAG_SOFTIRQ)
			ev.ctx |= TEV_CTX_SOFTIRQ;
	}
	const char *comm = ev.ctx_pid > 0 ? tep_data_comm_from_pid(r->tep, ev.ctx_pid) : NULL;
	if (comm && strcmp(comm, "<...>") != 0)
		snprintf(ev.ctx_comm, sizeof(ev.ctx_comm), "%.16s", comm);
	for (size_t i = 0; i < NWANTED; i++) {
		if (r->ev[i] != e)
			continue;
		const char *missing = "";
		ev.kind = wanted[i].kind;
		if (!decode(e, rec, &ev, &missing)) {
			char what[200];
			snprintf(what, sizeof(what), "%s lacks fields (expected %s)", wanted[i].name,
				 missing);
			return fail(r, rec, what, cpu);
		}
		break;
	}
	if ((ev.kind == TEV_FREQ || ev.kind == TEV_IDLE) && r->info->ncpus > 0 &&
	    ev.arg >= r->info->ncpus)
		return fail(r, rec, "cpu_id beyond the trace's CPU count", cpu);
	r->info->nevents++;
	if (r->sink(r->ctx, &ev, r->d) < 0) {
		r->rc = -1;
		return 1;
	}
	return 0;
}

/* libtracecmd's view of the file against the file's own header. */
static int same_view(struct reader *r, const struct tracedat_layout *l)
{
	int cpus = tep_get_cpus(r->tep);
	if (l->ncpus && cpus != l->ncpus)
		return pm_fail(r->d, "%.400s: libtracecmd reads %d CPUs, the header says %d "
			       "(corrupt trace.dat)", r->path, cpus, l->ncpus);
	return 0;
}

/* The header's formats through libtraceevent, before libtracecmd does the
 * same: libtracecmd 1.3 crashes when its open fails on one (its error path
 * frees a half-built handle), and this way the failure has an offset. */
static int parse_formats(int fd, const char *path, struct tracedat_layout *l,
			 struct pm_diag *d)
{
	if (l->version != 6)
		return 0;
	struct tep_handle *tep = tep_alloc();
	if (!tep)
		return pm_fail(d, "out of memory");
	tep_set_file_bigendian(tep, l->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, l->long_size);
	tep_set_page_size(tep, (int)l->page_size);
	int rc = 0;
	for (int i = -1; i < l->ntexts && rc == 0; i++) {
		const struct tracedat_text *t = i < 0 ? &l->header_page : &l->text[i];
		char *buf = t->size < (64u << 20) ? malloc(t->size + 1) : NULL;
		if (!buf) {
			rc = pm_fail(d, "%.400s: byte %llu: a format of %llu bytes (out of memory)", path,
				     (unsigned long long)t->offset, (unsigned long long)t->size);
			break;
		}
		ssize_t n = pread(fd, buf, t->size, (off_t)t->offset);
		if (n != (ssize_t)t->size) {
			free(buf);
			rc = pm_fail(d, "%.400s: cannot read", path);
			break;
		}
		buf[t->size] = '\0';
		if (i < 0) {
			/* libtracecmd wants a u64 timestamp and a 4- or 8-byte commit */
			int ts, commit;
			if (tep_parse_header_page(tep, buf, t->size, l->long_size) < 0 ||
			    (ts = tep_get_header_timestamp_size(tep)) != 8 ||
			    ((commit = tep_get_header_page_size(tep)) != 4 && commit != 8))
				rc = pm_fail(d, "%.400s: byte %llu: header_page: not a ring-buffer page "
					     "header libtracecmd reads (expected a u64 timestamp and a "
					     "4- or 8-byte commit; corrupt trace.dat)", path,
					     (unsigned long long)t->offset);
			else
				l->commit_size = commit;
		} else {
			enum tep_errno e = tep_parse_event(tep, buf, t->size, t->system);
			if (e != 0) {
				char why[128] = "";
				tep_strerror(tep, e, why, sizeof(why));
				rc = pm_fail(d, "%.400s: byte %llu: an event format of system %s: "
					     "libtraceevent cannot read it (%s; corrupt trace.dat)", path,
					     (unsigned long long)t->offset, t->system, why);
			}
		}
		free(buf);
	}
	tep_free(tep);
	return rc;
}

int tracedat_read_here(const char *path, trace_sink sink, void *ctx, struct trace_info *info,
		       struct pm_diag *d)
{
	*info = (struct trace_info){ .format = "trace.dat" };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_fail_at(d, path, 0, "cannot open: %s", strerror(errno));
	/* The file's own account of itself first: libtracecmd reads the first
	 * page of every CPU as it opens, and some bad pages crash it. */
	struct tracedat_layout l;
	uint32_t *events = NULL, *read = NULL;
	int rc = tracedat_layout_load(fd, path, &l, d);
	if (rc == 0)
		rc = parse_formats(fd, path, &l, d);
	if (rc == 0 && l.flyrecord) {
		events = calloc(tracedat_npages(&l), sizeof(*events));
		read = calloc(tracedat_npages(&l), sizeof(*read));
		rc = events && read ? tracedat_layout_count_pages(fd, path, &l, events, d)
				    : pm_fail(d, "out of memory");
	}
	close(fd);
	struct tracecmd_input *h = NULL;
	if (rc == 0) {
		/* The libraries print their complaints; ours say it once, with the file. */
		tracecmd_set_loglevel(TEP_LOG_NONE);
		tep_set_loglevel(TEP_LOG_NONE);
		errno = 0;
		h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (!h)
			rc = pm_fail_at(d, path, 0, "not a readable trace.dat: libtracecmd cannot open "
					"it (%s; truncated or corrupt header?)",
					errno ? strerror(errno) : "bad format");
	}
	struct reader r = { .path = path, .sink = sink, .ctx = ctx, .info = info, .d = d,
			    .layout = &l, .per_page = read, .rc = rc };
	if (h) {
		r.tep = tracecmd_get_tep(h);
		info->ncpus = tep_get_cpus(r.tep);
		for (size_t i = 0; i < NWANTED; i++)
			r.ev[i] = tep_find_event_by_name(r.tep, wanted[i].system, wanted[i].name);
		if (info->ncpus <= 0)
			r.rc = pm_fail_at(d, path, 0, "trace.dat records no CPUs (corrupt header?)");
		else
			r.rc = same_view(&r, &l);
		if (r.rc == 0)
			tracecmd_iterate_events(h, NULL, 0, record, &r);
		tracecmd_close(h);
		if (r.rc == 0 && read)
			r.rc = tracedat_layout_compare(path, &l, events, read, d);
	}
	free(events);
	free(read);
	tracedat_layout_free(&l);
	return r.rc < 0 ? -1 : 0;
}

/* What the child sends: a tag byte, then the struct. */
enum { MSG_EVENT = 'E', MSG_INFO = 'I', MSG_ERROR = 'X' };

static int to_parent(void *ctx, const struct trace_event *ev, struct pm_diag *d)
{
	FILE *f = ctx;
	fputc(MSG_EVENT, f);
	if (fwrite(ev, sizeof(*ev), 1, f) != 1)
		return pm_fail(d, "the reader's pipe closed");
	return 0;
}

static void child(const char *path, int fd)
{
	/* A crash must end this process, whatever the parent installed (a
	 * test harness catches SIGSEGV and would go on running here). */
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0)
		dup2(null, STDERR_FILENO); /* libtracecmd prints some errors whatever the log level */
	FILE *f = fdopen(fd, "w");
	if (!f)
		_exit(3);
	struct trace_info info;
	struct pm_diag d = { { 0 } };
	int rc = tracedat_read_here(path, to_parent, f, &info, &d);
	if (rc < 0) {
		fputc(MSG_ERROR, f);
		fwrite(&d, sizeof(d), 1, f);
	} else {
		fputc(MSG_INFO, f);
		fwrite(&info, sizeof(info), 1, f);
	}
	fclose(f);
	_exit(rc < 0 ? 2 : 0);
}

int tracedat_read(const char *path, trace_sink sink, void *ctx, struct trace_info *info,
		  struct pm_diag *d)
{
	struct trace_info local;
	if (!info)
		info = &local;
	*info = (struct trace_info){ .format = "trace.dat" };
	int p[2];
	if (pipe(p) < 0)
		return pm_fail(d, "cannot read %s: %s", path, strerror(errno));
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return pm_fail(d, "cannot read %s: %s", path, strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		child(path, p[1]);
	}
	close(p[1]);
	FILE *f = fdopen(p[0], "r");
	if (!f) {
		close(p[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return pm_fail(d, "out of memory");
	}
	long received = 0;
	int rc = 0, tag;
	bool ended = false;
	struct trace_event ev;
	while (rc == 0 && !ended && (tag = fgetc(f)) != EOF) {
		switch (tag) {
		case MSG_EVENT:
			if (fread(&ev, sizeof(ev), 1, f) != 1)
				break;
			received++;
			rc = sink(ctx, &ev, d);
			break;
		case MSG_INFO:
			ended = fread(info, sizeof(*info), 1, f) == 1;
			break;
		case MSG_ERROR:
			ended = true;
			rc = fread(d, sizeof(*d), 1, f) == 1 ? -1
							   : pm_fail(d, "%s: unreadable trace.dat", path);
			break;
		default:
			ended = true;
			break;
		}
	}
	fclose(f);
	if (rc < 0)
		kill(pid, SIGKILL); /* the sink stopped: the rest is not wanted */
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (rc < 0)
		return rc;
	if (!ended || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		const char *why = WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "no end of data";
		if (received == 0)
			return pm_fail(d, "%.400s: libtracecmd failed opening it (%s): truncated or "
				       "corrupt trace.dat", path, why);
		return pm_fail(d, "%.400s: record %ld: libtracecmd failed reading it (%s): "
			       "truncated or corrupt trace.dat", path, received + 1, why);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/* The simulator's speed and memory as figures that still compare on a
 * loaded or a different machine (make bench). It prints figures and the
 * issue's targets beside them; it asserts nothing (speed is not a test).
 *
 * speed    each case's events per CPU-second of this process, and a bare
 *          4-ary event heap (src/core/eventq, the simulator's own) timed
 *          in the same process right after, at the case's mean queue
 *          length (the "hold" model: pop the earliest, push one later), and
 *          their ratio: the median of five rounds (case, then heap).
 *          With valgrind, instructions per event of both (callgrind
 *          counting inside sim_run and inside the heap loop only, in a
 *          child process: deterministic figures).
 * scaling  the same workloads on 4, 16, 64 and 128 CPUs: cost per event.
 * memory   peak resident set of a process that runs each built-in workload
 *          for 10 s and for 100 s simulated.
 *
 * usage: bench_sim [--no-valgrind] [speed] [scaling] [memory]
 * The bench runs itself as a child for callgrind and for memory:
 *        bench_sim --case NAME CPUS SECONDS | --heap LEN OPS | --mem ROW SECONDS */
#include <ini.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/eventq.h"
#include "engine/sim.h"
#include "workload/workload.h"

#define MAX_SETS 24
#define DEMO_DATA PMLAB_SOURCE_ROOT "/data/validation/tuned-balanced-conservative.ini"

struct bcase {
	const char *name;     /* key for child processes */
	const char *label;
	const char *machine;
	const char *workload, *cpufreq, *cpuidle;
	double seconds;       /* simulated, in the timed run */
	double vg_seconds;    /* simulated, under callgrind */
	int repeat;           /* timed runs (for cases that end by themselves) */
	double target;        /* ratio to the heap the issue asks; 0: none */
	int cpus;             /* 0: the machine's */
	bool demo;            /* kernel 3.10 rules and make validate's calibration */
	const char *per_cpu;  /* a key set to the number of CPUs (scaling), or NULL */
	const char *sets[4];
};

static const struct bcase speed_cases[] = {
	{ "pingpong", "pingpong, i7-4790", "i7-4790", "pingpong", "performance", "deepest",
	  60, 20, 1, 0.5, 0, false, NULL, { "pairs=1" } },
	/* Governor-heavy: schedutil's hook on every enqueue and dequeue of a
	 * context-switch-heavy load, with menu choosing every idle state. */
	{ "pingpong-su", "pingpong 4 pairs, schedutil+menu, i7", "i7-4790", "pingpong",
	  "schedutil", "menu", 20, 0.5, 1, 0.3, 0, false, NULL, { "pairs=4" } },
	{ "tbench", "tbench 16 clients, i7-4790", "i7-4790", "tbench", "performance", "deepest",
	  5, 0.15, 1, 0.3, 0, false, NULL, { "clients=16" } },
	/* Ends when the run completes (about a quarter of a second). */
	{ "hackbench", "hackbench 10 groups, i7-4790", "i7-4790", "hackbench", "performance",
	  "deepest", 60, 60, 5, 0.3, 0, false, NULL, { "groups=10" } },
	/* One configuration of the demo: tuned 2.3's balanced with conservative. */
	{ "oltp", "oltp, the demo's (conservative+menu, 3.10)", "xeon-e5-2650l-v3", "oltp",
	  "conservative", "menu", 10, 1, 1, 0.3, 4, true, NULL, { NULL } },
	{ "periodic", "periodic 128 tasks, power9-2n128", "power9-2n128", "periodic",
	  "performance", "deepest", 60, 2, 1, 0, 0, false, NULL,
	  { "tasks=128", "period_us=10000", "run_us=2000" } },
	{ "batch", "batch 8 tasks x 60 s, i7-4790", "i7-4790", "batch", "performance", "deepest",
	  600, 600, 1, 0, 0, false, NULL, { "work_ms=60000" } },
};

/* The same workload on 4..128 CPUs of one machine: tbench with a client
 * pair per CPU, under the default governors and under schedutil with menu
 * (policies of 16 CPUs: a POWER9 quad). Simulated times give each run some
 * 3 x 10^5 events (10^5 under callgrind; the rates differ with the size:
 * 16 cores leave deep stop states between messages far more). */
static const struct bcase scaling_cases[] = {
	{ "scale-tbench", "tbench, a pair per CPU", "power9-2n128", "tbench", "performance",
	  "deepest", 0, 0, 1, 0, 0, false, "clients", { NULL } },
	{ "scale-tbench-su", "tbench, schedutil+menu", "power9-2n128", "tbench", "schedutil",
	  "menu", 0, 0, 1, 0, 0, false, "clients", { NULL } },
};
static const int scaling_cpus[] = { 4, 16, 64, 128 };
static const double scaling_seconds[] = { 2.0, 4.0, 1.0, 0.5 };
static const double scaling_vg_seconds[] = { 1.2, 1.0, 0.25, 0.125 };

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- the sets of a case --- */

struct setlist {
	int n;
	const char *v[MAX_SETS];
	char buf[MAX_SETS][96];
};

static void set_add(struct setlist *l, const char *kv)
{
	if (l->n == MAX_SETS)
		return;
	snprintf(l->buf[l->n], sizeof(l->buf[0]), "%s", kv);
	l->v[l->n] = l->buf[l->n];
	l->n++;
}

/* The [calibration] keys of the demo's data file, as tools/demo.sh reads
 * them (all but platform_w, a machine figure). */
static int calibration_key(void *ctx, const char *section, const char *key, const char *value)
{
	if (strcmp(section, "calibration") == 0 && strcmp(key, "platform_w") != 0) {
		char kv[96];
		snprintf(kv, sizeof(kv), "%s=%s", key, value);
		set_add(ctx, kv);
	}
	return 1;
}

static int case_sets(const struct bcase *c, int cpus, struct setlist *l)
{
	l->n = 0;
	if (c->demo) {
		set_add(l, "kernel=3.10");
		if (ini_parse(DEMO_DATA, calibration_key, l) != 0) {
			fprintf(stderr, "bench_sim: %s: cannot read its [calibration]\n", DEMO_DATA);
			return -1;
		}
	}
	for (int i = 0; i < NELEM(c->sets) && c->sets[i]; i++)
		set_add(l, c->sets[i]);
	if (c->per_cpu) {
		char kv[96];
		snprintf(kv, sizeof(kv), "%s=%d", c->per_cpu, cpus);
		set_add(l, kv);
	}
	return 0;
}

/* --- one simulation --- */

struct run_figures {
	uint64_t events, stale;
	double sim_s, cpu_s, queue_len;
};

static int run_sim(const char *machine, int cpus, const char *workload, const char *cpufreq,
		   const char *cpuidle, double seconds, const struct setlist *l,
		   struct run_figures *f)
{
	struct pm_diag d = { { 0 } };
	struct machine m;
	if (machine_load(&m, machine, &d) < 0 || (cpus && machine_set_online(&m, cpus, &d) < 0)) {
		fprintf(stderr, "bench_sim: %s\n", d.msg);
		return -1;
	}
	struct sim_config cfg = { .machine = &m, .workload = workload, .cpufreq = cpufreq,
				  .cpuidle = cpuidle, .duration = (sim_ns)(seconds * 1e9),
				  .seed = 1, .nsets = l->n, .sets = l->v };
	struct sim *s;
	if (sim_create(&s, &cfg, &d) < 0) {
		fprintf(stderr, "bench_sim: %s: %s\n", workload, d.msg);
		sim_destroy(s);
		return -1;
	}
	struct run_result r;
	double t0 = cpu_seconds();
	int rc = sim_run(s, &r, &d);
	f->cpu_s += cpu_seconds() - t0;
	if (rc < 0) {
		fprintf(stderr, "bench_sim: %s: %s\n", workload, d.msg);
	} else {
		f->events += r.events;
		f->stale += r.stale_events;
		f->sim_s += (double)r.duration_ns * 1e-9;
		f->queue_len = sim_mean_queue_length(s);
	}
	result_free(&r);
	sim_destroy(s);
	return rc;
}

static int run_case(const struct bcase *c, int cpus, double seconds, int repeat,
		    struct run_figures *f)
{
	struct setlist l;
	memset(f, 0, sizeof(*f));
	if (case_sets(c, cpus, &l) < 0)
		return -1;
	for (int i = 0; i < repeat; i++)
		if (run_sim(c->machine, cpus, c->workload, c->cpufreq, c->cpuidle, seconds, &l, f) < 0)
			return -1;
	return 0;
}

/* --- the bare heap --- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void heap_fill(struct eventq *q, int len)
{
	eventq_init(q);
	for (int i = 0; i < len; i++)
		eventq_push(q, (sim_ns)(next_rand() % 100000), 0, (uint32_t)i, 0, 0);
}

/* The hold model: take the earliest event, post one a random time later.
 * Not static, so that callgrind can count inside it by name. */
uint64_t heap_hold(struct eventq *q, uint64_t ops);
__attribute__((noinline)) uint64_t heap_hold(struct eventq *q, uint64_t ops)
{
	struct event e;
	uint64_t sum = 0;
	for (uint64_t i = 0; i < ops; i++) {
		eventq_pop(q, &e);
		sum += e.obj;
		eventq_push(q, e.time + 1 + (sim_ns)(next_rand() % 100000), e.kind, e.obj, e.gen, e.arg);
	}
	return sum;
}

/* Events per CPU-second of the heap at `len` queued events. */
static double heap_rate(int len)
{
	struct eventq q;
	heap_fill(&q, len < 1 ? 1 : len);
	const uint64_t ops = 4000000;
	double t0 = cpu_seconds();
	volatile uint64_t sink = heap_hold(&q, ops);
	double dt = cpu_seconds() - t0;
	(void)sink;
	eventq_free(&q);
	return (double)ops / dt;
}

/* --- child processes --- */

static char self_exe[4096];
static bool have_valgrind;

/* Runs argv, its stdout and stderr into out; its resources into *ru. */
static int run_child(char *const argv[], char *out, size_t outsz, struct rusage *ru)
{
	int fd[2];
	if (pipe(fd) < 0)
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* The same addresses every time: without it, where the heap and
		 * the libraries land moves the resident set by some 100 KiB. */
		personality(ADDR_NO_RANDOMIZE);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t r;
	while ((r = read(fd[0], out + n, outsz - 1 - n)) > 0 && n + (size_t)r < outsz - 1)
		n += (size_t)r;
	while (r > 0) /* drain what does not fit */
		r = read(fd[0], (char[256]){ 0 }, 256);
	out[n] = '\0';
	close(fd[0]);
	int status;
	if (wait4(pid, &status, 0, ru) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Instructions callgrind counts inside `fn` while the child runs argv
 * (after the valgrind options); -1 if it fails. */
static double callgrind_count(const char *fn, char *const child_args[], uint64_t *events)
{
	char toggle[64];
	snprintf(toggle, sizeof(toggle), "--toggle-collect=%s", fn);
	char *argv[16] = { "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
			   toggle, self_exe };
	int n = 5;
	for (int i = 0; child_args[i] && n < 15; i++)
		argv[n++] = child_args[i];
	argv[n] = NULL;
	static char out[1 << 16];
	struct rusage ru;
	if (run_child(argv, out, sizeof(out), &ru) != 0)
		return -1;
	const char *c = strstr(out, "Collected : ");
	const char *e = strstr(out, "events ");
	if (!c || (events && !e))
		return -1;
	if (events)
		*events = strtoull(e + 7, NULL, 10);
	return strtod(c + 12, NULL);
}

static double case_instructions(const struct bcase *c, int cpus, double seconds)
{
	char cpus_s[16], secs[32];
	snprintf(cpus_s, sizeof(cpus_s), "%d", cpus);
	snprintf(secs, sizeof(secs), "%.17g", seconds);
	char *args[] = { "--case", (char *)c->name, cpus_s, secs, NULL };
	uint64_t events = 0;
	double ir = callgrind_count("sim_run", args, &events);
	return ir > 0 && events ? ir / (double)events : -1;
}

static double heap_instructions(int len)
{
	char len_s[16], ops_s[16];
	const int ops = 200000;
	snprintf(len_s, sizeof(len_s), "%d", len);
	snprintf(ops_s, sizeof(ops_s), "%d", ops);
	char *args[] = { "--heap", len_s, ops_s, NULL };
	double ir = callgrind_count("heap_hold", args, NULL);
	return ir > 0 ? ir / ops : -1;
}

static const struct bcase *find_case(const char *name)
{
	for (int i = 0; i < NELEM(speed_cases); i++)
		if (strcmp(speed_cases[i].name, name) == 0)
			return &speed_cases[i];
	for (int i = 0; i < NELEM(scaling_cases); i++)
		if (strcmp(scaling_cases[i].name, name) == 0)
			return &scaling_cases[i];
	return NULL;
}

/* --- sections --- */

/* A count of instructions, or "-" where there is none. */
static void print_count(double v)
{
	if (v > 0)
		printf(" %9.0f", v);
	else
		printf(" %9s", "-");
}

/* One timed round of a case: the case, then the heap right after at its
 * queue length, so both see the same machine load. */
struct speed_round {
	struct run_figures f;
	double rate, heap;
};

static int speed_round(const struct bcase *c, struct speed_round *r)
{
	if (run_case(c, c->cpus, c->seconds, c->repeat, &r->f) < 0)
		return -1;
	r->rate = (double)r->f.events / r->f.cpu_s;
	r->heap = heap_rate((int)(r->f.queue_len + 0.5));
	return 0;
}

static int by_ratio(const void *a, const void *b)
{
	const struct speed_round *x = a, *y = b;
	double rx = x->rate / x->heap, ry = y->rate / y->heap;
	return (rx > ry) - (rx < ry);
}

/* A shared or virtual machine's CPU time per operation moves by tens of
 * per cent from one second to the next (other guests, the sibling
 * thread), for the case and its heap alike but not at the same instants.
 * Timing the heap both before and after the case steadies nothing (their
 * speeds move independently within seconds on this project's VM), so
 * each case runs SPEED_ROUNDS rounds of (case, heap); the round with the
 * median ratio is printed, and the lowest and highest ratio beside it. */
#define SPEED_ROUNDS 5

static int section_speed(void)
{
	printf("speed: events per CPU-second of this process; a bare 4-ary heap (src/core/eventq) "
	       "in the same process at\nthe case's mean queue length; their ratio (the median of %d "
	       "rounds, each the case then the heap;\nlow-high: the other rounds)%s\n",
	       SPEED_ROUNDS,
	       have_valgrind ? "; instructions per event (callgrind, sim_run and the heap loop)"
			     : " (no valgrind: no instruction counts)");
	printf("%-42s %6s %10s %6s %6s %7s %6s %7s %6s %9s %6s %9s %9s\n", "case", "sim s",
	       "events", "cancl%", "CPU s", "Mev/s", "queue", "heap", "ratio", "low-high", "target",
	       "instr/ev", "heap i/ev");
	int rc = 0;
	for (int i = 0; i < NELEM(speed_cases); i++) {
		const struct bcase *c = &speed_cases[i];
		struct speed_round r[SPEED_ROUNDS];
		int n = 0;
		while (n < SPEED_ROUNDS && speed_round(c, &r[n]) == 0)
			n++;
		if (n < SPEED_ROUNDS) {
			rc = 1;
			continue;
		}
		qsort(r, SPEED_ROUNDS, sizeof(r[0]), by_ratio);
		const struct speed_round *m = &r[SPEED_ROUNDS / 2];
		const struct run_figures *f = &m->f;
		double ratio = m->rate / m->heap;
		int len = (int)(f->queue_len + 0.5);
		printf("%-42s %6.1f %10llu %6.1f %6.2f %7.2f %6d %7.2f %6.2f %4.2f-%4.2f", c->label,
		       f->sim_s, (unsigned long long)f->events,
		       100.0 * (double)f->stale / (double)(f->events + f->stale), f->cpu_s,
		       m->rate / 1e6, len, m->heap / 1e6, ratio, r[0].rate / r[0].heap,
		       r[SPEED_ROUNDS - 1].rate / r[SPEED_ROUNDS - 1].heap);
		if (c->target > 0)
			printf(" %5.2f%s", c->target, ratio >= c->target ? " " : "!");
		else
			printf(" %6s", "-");
		if (have_valgrind) {
			print_count(case_instructions(c, c->cpus, c->vg_seconds));
			print_count(heap_instructions(len));
		}
		printf("\n");
		fflush(stdout);
	}
	printf("(! marks a median ratio under its target; cancl%%: events popped that were "
	       "cancelled)\n\n");
	return rc;
}

static int section_scaling(void)
{
	printf("scaling: cost per event of the same workload on 4..128 CPUs of power9-2n128\n");
	printf("%-30s %5s %9s %11s %9s %10s\n", "case", "CPUs", "events", "CPU ns/ev", "instr/ev",
	       "x 4 CPUs");
	int rc = 0;
	for (int i = 0; i < NELEM(scaling_cases); i++) {
		const struct bcase *c = &scaling_cases[i];
		double ns0 = 0, ir0 = 0;
		for (int k = 0; k < NELEM(scaling_cpus); k++) {
			int cpus = scaling_cpus[k];
			struct run_figures f;
			if (run_case(c, cpus, scaling_seconds[k], 1, &f) < 0) {
				rc = 1;
				break;
			}
			double ns = f.cpu_s * 1e9 / (double)f.events;
			double ir = have_valgrind ? case_instructions(c, cpus, scaling_vg_seconds[k]) : -1;
			if (k == 0) {
				ns0 = ns;
				ir0 = ir;
			}
			printf("%-30s %5d %9llu %11.0f", c->label, cpus, (unsigned long long)f.events, ns);
			print_count(ir);
			/* Instructions are the steadier measure of growth where counted. */
			double x = ir > 0 && ir0 > 0 ? ir / ir0 : ns / ns0;
			printf(" %9.2fx%s\n", x, k == NELEM(scaling_cpus) - 1 && x > 1.5 ? " (target 1.5x: over)"
				: k == NELEM(scaling_cpus) - 1 ? " (target 1.5x: ok)" : "");
			fflush(stdout);
		}
	}
	printf("\n");
	return rc;
}

/* Every built-in workload; those with several programs once per program,
 * those that read a file with one from the tree. */
struct mem_row {
	const char *label, *workload, *set;
};

static int mem_rows(struct mem_row *rows, int max)
{
	static const struct mem_row variants[] = {
		{ "unixbench execl", "unixbench", "test=execl" },
		{ "unixbench context1", "unixbench", "test=context1" },
		{ "unixbench spawn", "unixbench", "test=spawn" },
		{ "unixbench shell1", "unixbench", "test=shell1" },
		{ "unixbench shell8", "unixbench", "test=shell8" },
		{ "rtapp video.json", "rtapp:" PMLAB_SOURCE_ROOT "/data/workloads/video.json", NULL },
		{ "replay hackbench.dat", "replay:" PMLAB_SOURCE_ROOT "/data/traces/hackbench.dat", NULL },
	};
	int n = 0;
	for (int i = 0; i < workload_count() && n < max; i++) {
		const char *name = workload_at(i)->name;
		bool found = false;
		for (int v = 0; v < NELEM(variants) && n < max; v++) {
			size_t len = strlen(name);
			if (strncmp(variants[v].workload, name, len) == 0 &&
			    (variants[v].workload[len] == '\0' || variants[v].workload[len] == ':')) {
				rows[n++] = variants[v];
				found = true;
			}
		}
		if (!found)
			rows[n++] = (struct mem_row){ name, name, NULL };
	}
	return n;
}

static long child_rss_kib(int row, double seconds)
{
	char row_s[16], secs[32];
	snprintf(row_s, sizeof(row_s), "%d", row);
	snprintf(secs, sizeof(secs), "%g", seconds);
	char *argv[] = { self_exe, "--mem", row_s, secs, NULL };
	static char out[1 << 14];
	struct rusage ru;
	if (run_child(argv, out, sizeof(out), &ru) != 0) {
		fprintf(stderr, "bench_sim: memory row %d, %g s: %s", row, seconds, out);
		return -1;
	}
	return ru.ru_maxrss;
}

static int section_memory(void)
{
	struct mem_row rows[64];
	int n = mem_rows(rows, NELEM(rows));
	printf("memory: peak resident set (KiB) of a process running each workload on i7-4790\n");
	printf("%-26s %10s %10s %8s\n", "workload", "10 s", "100 s", "growth");
	int rc = 0;
	for (int i = 0; i < n; i++) {
		long a = child_rss_kib(i, 10), b = child_rss_kib(i, 100);
		if (a < 0 || b < 0) {
			rc = 1;
			continue;
		}
		double g = 100.0 * (double)(b - a) / (double)a;
		printf("%-26s %10ld %10ld %7.1f%%%s\n", rows[i].label, a, b, g,
		       g > 10 ? "  (target: within 10 %)" : "");
		fflush(stdout);
	}
	printf("\n");
	return rc;
}

/* --- children --- */

static int child_case(const char *name, int cpus, double seconds)
{
	const struct bcase *c = find_case(name);
	if (!c) {
		fprintf(stderr, "bench_sim: no case '%s'\n", name);
		return 2;
	}
	struct run_figures f;
	if (run_case(c, cpus, seconds, 1, &f) < 0)
		return 1;
	printf("events %llu\n", (unsigned long long)f.events);
	/* For reading a profile: what the events cost besides themselves. */
	printf("stale %llu queue_len %.1f\n", (unsigned long long)f.stale, f.queue_len);
	return 0;
}

static int child_heap(int len, uint64_t ops)
{
	struct eventq q;
	heap_fill(&q, len);
	volatile uint64_t sink = heap_hold(&q, ops);
	(void)sink;
	eventq_free(&q);
	return 0;
}

static int child_mem(int row, double seconds)
{
	struct mem_row rows[64];
	int n = mem_rows(rows, NELEM(rows));
	if (row < 0 || row >= n)
		return 2;
	struct setlist l = { 0 };
	if (rows[row].set)
		set_add(&l, rows[row].set);
	struct run_figures f = { 0 };
	return run_sim("i7-4790", 0, rows[row].workload, "performance", "deepest", seconds, &l,
		       &f) < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--case") == 0)
		return child_case(argv[2], atoi(argv[3]), atof(argv[4]));
	if (argc == 4 && strcmp(argv[1], "--heap") == 0)
		return child_heap(atoi(argv[2]), strtoull(argv[3], NULL, 10));
	if (argc == 4 && strcmp(argv[1], "--mem") == 0)
		return child_mem(atoi(argv[2]), atof(argv[3]));

	ssize_t len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (len <= 0) {
		fprintf(stderr, "bench_sim: cannot find its own executable\n");
		return 1;
	}
	self_exe[len] = '\0';
	bool speed = false, scaling = false, memory = false, valgrind = true;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "speed") == 0)
			speed = true;
		else if (strcmp(argv[i], "scaling") == 0)
			scaling = true;
		else if (strcmp(argv[i], "memory") == 0)
			memory = true;
		else if (strcmp(argv[i], "--no-valgrind") == 0)
			valgrind = false;
		else {
			fprintf(stderr, "usage: bench_sim [--no-valgrind] [speed] [scaling] [memory]\n");
			return 2;
		}
	}
	if (!speed && !scaling && !memory)
		speed = scaling = memory = true;
	have_valgrind = valgrind && system("valgrind --version >/dev/null 2>&1") == 0;
	int rc = 0;
	if (speed)
		rc |= section_speed();
	if (scaling)
		rc |= section_scaling();
	if (memory)
		rc |= section_memory();
	return rc;
}

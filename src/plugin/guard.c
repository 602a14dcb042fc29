// SPDX-License-Identifier: GPL-2.0-only
#include "guard.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

_Thread_local struct plugin_now plugin_now;

struct plugin_guard {
	char msg[PM_DIAG_MAX];
};

void plugin_fault(const struct plugin_site *s, const char *fmt, ...)
{
	char what[PM_DIAG_MAX / 2];
	va_list ap;

	if (plugin_now.fault[0])
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(plugin_now.fault, sizeof(plugin_now.fault), "plugin %.200s: %s '%.64s': %s",
		 s->path, s->kind, s->name, what);
	if (plugin_now.stop)
		plugin_now.stop(plugin_now.stop_ctx);
}

int plugin_fault_take(struct pm_diag *d)
{
	if (!plugin_now.fault[0])
		return 0;
	pm_fail(d, "%s", plugin_now.fault);
	plugin_now.fault[0] = '\0';
	return -1;
}

struct plugin_guard *plugin_guard_new(void)
{
	void *p = mmap(NULL, sizeof(struct plugin_guard), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

const char *plugin_guard_note(void *g)
{
	return plugin_guard_report(g);
}

void plugin_guard_free(struct plugin_guard *g)
{
	if (g)
		munmap(g, sizeof(*g));
}

const char *plugin_guard_report(const struct plugin_guard *g)
{
	return g ? g->msg : "";
}

/* Set in the worker process only (after its fork): the page to write to,
 * and a stack for the handler, so that a plugin that overflows its stack
 * is reported too. */
static struct plugin_guard *armed;
static char alt_stack[64 * 1024];

static size_t put(char *buf, size_t at, const char *s)
{
	while (s && *s && at + 1 < PM_DIAG_MAX)
		buf[at++] = *s++;
	buf[at] = '\0';
	return at;
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	default: return "SIGTRAP";
	}
}

/* Async-signal-safe: plain stores into the shared page, then the default
 * action (SA_RESETHAND), so the worker dies of the signal as it would. */
static void on_crash(int sig)
{
	const struct plugin_site *s = plugin_now.site;
	size_t n = 0;

	if (s && armed && !armed->msg[0]) {
		char *msg = armed->msg;
		n = put(msg, n, "plugin ");
		n = put(msg, n, s->path);
		n = put(msg, n, ": ");
		n = put(msg, n, s->kind);
		n = put(msg, n, " '");
		n = put(msg, n, s->name);
		n = put(msg, n, "' crashed in ");
		n = put(msg, n, plugin_now.op);
		n = put(msg, n, " (");
		n = put(msg, n, signal_name(sig));
		put(msg, n, "); pmlab itself is unharmed");
	}
	raise(sig);
}

void plugin_guard_arm(void *g)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
	stack_t st = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	struct sigaction sa = { .sa_handler = on_crash, .sa_flags = (int)(SA_RESETHAND | SA_ONSTACK) };

	armed = g;
	sigaltstack(&st, NULL);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}


// SPDX-License-Identifier: GPL-2.0-only
/* The library's version, its errors and the lab, which holds what runs
 * share instead of globals. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../plugin/guard.h"
#include "lib.h"

#ifndef PMLAB_RELEASE
#define PMLAB_RELEASE "unknown"
#endif

int pmlab_api_version(void)
{
	return PMLAB_API_VERSION;
}

const char *pmlab_version(void)
{
	return PMLAB_RELEASE;
}

const char *pmlab_status_name(pmlab_status code)
{
	static const char *const names[] = { "ok", "input", "run", "io", "nomem", "plugin", "state" };
	return (unsigned)code < sizeof(names) / sizeof(names[0]) ? names[code] : "unknown";
}

void pmlab_free(void *p)
{
	free(p);
}

pmlab_status lib_fail(pmlab_error *err, pmlab_status code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return code;
}

pmlab_status lib_fail_diag(pmlab_error *err, pmlab_status code, const struct pm_diag *d)
{
	return lib_fail(err, code, "%s", d->msg[0] ? d->msg : "failed");
}

pmlab_status lib_ok(pmlab_error *err)
{
	if (err) {
		err->code = PMLAB_OK;
		err->message[0] = '\0';
	}
	return PMLAB_OK;
}

int lib_strdup_into(char **slot, const char *s)
{
	char *copy = NULL;

	if (s && !(copy = strdup(s)))
		return -1;
	free(*slot);
	*slot = copy;
	return 0;
}

int lib_strings_add(struct lib_strings *l, const char *s)
{
	char **grown = realloc(l->s, (size_t)(l->n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	l->s = grown;
	if (!(l->s[l->n] = strdup(s)))
		return -1;
	l->n++;
	return 0;
}

void lib_strings_free(struct lib_strings *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	l->s = NULL;
	l->n = 0;
}

pmlab_status pmlab_lab_new(pmlab_lab **out, pmlab_error *err)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	(*out)->isolate = true;
	return lib_ok(err);
}

void pmlab_lab_free(pmlab_lab *lab)
{
	if (!lab)
		return;
	struct lib_strings dirs = { lab->ndirs, lab->dirs };
	lib_strings_free(&dirs);
	lib_strings_free(&lab->given);
	lib_strings_free(&lab->listed);
	free(lab->plugin_path);
	plugin_set_free(&lab->plugins);
	free(lab);
}

static pmlab_status plugin_status(int rc, const struct pm_diag *d, pmlab_error *err)
{
	if (rc == 0)
		return lib_ok(err);
	return lib_fail_diag(err, strcmp(d->msg, "out of memory") == 0 ? PMLAB_ERR_NOMEM
								      : PMLAB_ERR_PLUGIN, d);
}

pmlab_status pmlab_lab_load_plugin(pmlab_lab *lab, const char *path, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };

	if (!path || !*path)
		return lib_fail(err, PMLAB_ERR_PLUGIN, "plugin: expected the path of a shared object");
	if (plugin_set_load(&lab->plugins, path, &d) < 0)
		return plugin_status(-1, &d, err);
	if (lib_strings_add(&lab->given, path) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

/* Notes the list and the files it loaded (from the set's index first on)
 * for the inputs. -1 on OOM. */
static int note_list(pmlab_lab *lab, const char *list, int first)
{
	size_t n = lab->plugin_path ? strlen(lab->plugin_path) : 0;
	char *joined;

	if (!*list)
		return 0;
	joined = realloc(lab->plugin_path, n + strlen(list) + 2);
	if (!joined)
		return -1;
	lab->plugin_path = joined;
	sprintf(joined + n, "%s%s", n ? ":" : "", list);
	for (int i = first; i < lab->plugins.n; i++)
		if (lib_strings_add(&lab->listed, plugin_set_file(&lab->plugins, i)) < 0)
			return -1;
	return 0;
}

pmlab_status pmlab_lab_load_plugin_list(pmlab_lab *lab, const char *list, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	int first = lab->plugins.n;

	if (plugin_set_load_list(&lab->plugins, list ? list : "", &d) < 0)
		return plugin_status(-1, &d, err);
	if (note_list(lab, list ? list : "", first) < 0)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	return lib_ok(err);
}

void pmlab_plugin_fail(const char *message)
{
	if (plugin_now.site)
		plugin_fault(plugin_now.site, "%s: %s", plugin_now.op,
			     message && *message ? message : "failed");
}

pmlab_status pmlab_lab_add_plugin(pmlab_lab *lab, const struct pmlab_plugin *p, const char *origin,
				  pmlab_error *err)
{
	struct pm_diag d = { { 0 } };

	return plugin_status(plugin_set_add(&lab->plugins, p, origin && *origin ? origin : "(process)",
					    &d), &d, err);
}

void pmlab_lab_isolate(pmlab_lab *lab, int on)
{
	lab->isolate = on != 0;
}

void pmlab_lab_signals(pmlab_lab *lab, int on)
{
	lab->signals = on != 0;
}

pmlab_status pmlab_lab_profile_dir(pmlab_lab *lab, const char *dir, pmlab_error *err)
{
	struct lib_strings dirs = { lab->ndirs, lab->dirs };

	if (!dir || !*dir)
		return lib_fail(err, PMLAB_ERR_INPUT, "profile directory: expected a path");
	if (lib_strings_add(&dirs, dir) < 0) {
		lab->dirs = dirs.s;
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	lab->dirs = dirs.s;
	lab->ndirs = dirs.n;
	return lib_ok(err);
}

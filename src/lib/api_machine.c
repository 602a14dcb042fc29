// SPDX-License-Identifier: GPL-2.0-only
/* Machine models: the presets, INI files and INI text. */
#include <stdlib.h>
#include <string.h>

#include "../lab/runspec.h"
#include "lib.h"

int pmlab_machine_preset_count(void)
{
	return machine_preset_count();
}

const char *pmlab_machine_preset_name(int i)
{
	return i >= 0 && i < machine_preset_count() ? machine_preset_name(i) : NULL;
}

static pmlab_status made(pmlab_machine *pm, int rc, pmlab_machine **out, const struct pm_diag *d,
			 pmlab_error *err)
{
	if (rc < 0) {
		free(pm);
		return lib_fail_diag(err, PMLAB_ERR_INPUT, d);
	}
	*out = pm;
	return lib_ok(err);
}

pmlab_status pmlab_machine_load(const char *spec, pmlab_machine **out, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	pmlab_machine *pm = malloc(sizeof(*pm));

	*out = NULL;
	if (!pm)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	if (!spec || !*spec)
		return made(pm, pm_fail(&d, "machine: expected a preset name or an INI file"), out,
			    &d, err);
	pm->source = NULL;
	if (runspec_load_machine(&pm->m, spec, NULL, &d) < 0)
		return made(pm, -1, out, &d, err);
	/* for the inputs of its results: the command line names it so */
	if (!(pm->source = strdup(spec))) {
		free(pm);
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	}
	return made(pm, 0, out, &d, err);
}

pmlab_status pmlab_machine_parse(const char *text, const char *where, pmlab_machine **out,
				 pmlab_error *err)
{
	struct pm_diag d = { { 0 } };
	pmlab_machine *pm = malloc(sizeof(*pm));

	*out = NULL;
	if (!pm)
		return lib_fail(err, PMLAB_ERR_NOMEM, "out of memory");
	pm->source = NULL;
	return made(pm, machine_parse(&pm->m, text ? text : "", where ? where : "machine", &d), out,
		    &d, err);
}

pmlab_status pmlab_machine_set_cpus(pmlab_machine *m, int n, pmlab_error *err)
{
	struct pm_diag d = { { 0 } };

	if (machine_set_online(&m->m, n, &d) < 0)
		return lib_fail_diag(err, PMLAB_ERR_INPUT, &d);
	return lib_ok(err);
}

const char *pmlab_machine_name(const pmlab_machine *m)
{
	return m->m.name;
}

int pmlab_machine_cpus(const pmlab_machine *m)
{
	return m->m.online_cpus;
}

char *pmlab_machine_ini(const pmlab_machine *m)
{
	return machine_to_ini(&m->m);
}

void pmlab_machine_free(pmlab_machine *m)
{
	if (m)
		free(m->source);
	free(m);
}

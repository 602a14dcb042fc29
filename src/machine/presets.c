// SPDX-License-Identifier: GPL-2.0-only
/* Built-in machines: the data/machines/NAME.ini files compiled in, so pmlab
 * runs anywhere without its data directory. */
#include "machine.h"
#include "../core/suggest.h"
#include "presets_data.h"

#include <stdio.h>
#include <string.h>

int machine_preset_count(void)
{
	return machine_preset_text_count;
}

const char *machine_preset_name(int i)
{
	return i >= 0 && i < machine_preset_text_count ? machine_preset_texts[i].name : NULL;
}

const char *machine_preset_text(int i)
{
	return i >= 0 && i < machine_preset_text_count ? machine_preset_texts[i].text : NULL;
}

int machine_load(struct machine *m, const char *spec, struct pm_diag *d)
{
	size_t n = strlen(spec);

	if (strchr(spec, '/') || (n >= 4 && strcmp(spec + n - 4, ".ini") == 0))
		return machine_load_file(m, spec, d);

	for (int i = 0; i < machine_preset_text_count; i++)
		if (strcmp(machine_preset_texts[i].name, spec) == 0) {
			char where[MACHINE_NAME_MAX + 16];
			snprintf(where, sizeof(where), "preset %s", machine_preset_texts[i].name);
			return machine_parse(m, machine_preset_texts[i].text, where, d);
		}

	char names[PM_DIAG_MAX / 2] = "";
	for (int i = 0; i < machine_preset_text_count; i++) {
		size_t used = strlen(names);
		snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
			 machine_preset_texts[i].name);
	}
	struct suggest near;
	char mean[96];
	suggest_init(&near, spec);
	for (int i = 0; i < machine_preset_text_count; i++)
		suggest_offer(&near, machine_preset_texts[i].name);
	return pm_fail(d, "unknown machine '%.64s'%s (expected one of: %s or a path to an "
		       ".ini file)", spec, suggest_text(&near, mean, sizeof(mean)), names);
}

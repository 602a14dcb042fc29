// SPDX-License-Identifier: GPL-2.0-only
/* Private to src/machine: the preset INI texts, generated at build time
 * from data/machines/NAME.ini by tools/embed_presets.py, sorted by name. */
#ifndef PMLAB_PRESETS_DATA_H
#define PMLAB_PRESETS_DATA_H

struct machine_preset_text {
	const char *name; /* the file's basename without ".ini" */
	const char *text; /* the whole file, comments included */
};

extern const struct machine_preset_text machine_preset_texts[];
extern const int machine_preset_text_count;

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* tuned's plugins whose settings only the host backend applies (the
 * simulator has every governor built in and no firmware profile):
 *
 * [acpi] platform_profile=a|b (tuned 2.22+, plugin_acpi.py): the first of
 *   the alternatives that /sys/firmware/acpi/platform_profile_choices
 *   offers -> host setting platform_profile.
 * [modules] NAME=[+r][,]OPTIONS (plugin_modules.py): tuned checks the
 *   module with modinfo, writes "options NAME OPTIONS" to
 *   /etc/modprobe.d/tuned.conf and, for "+r", reloads it (modprobe -r,
 *   modprobe) -> host setting module.NAME=VALUE. Instances run in priority
 *   order, so balanced's cpufreq_conservative is loaded before [cpu]
 *   asks for the conservative governor. */
#include <stdio.h>
#include <string.h>

#include "profile_map.h"

static int acpi_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	int v = m->L->tuned_version;
	char value[VALUE_MAX], orig[PROFILE_TEXT_MAX * 2];
	if (v < 222)
		return pfm_skip(m, in, o, "tuned %d.%d has no acpi plugin (2.22 added it; "
				"NAME:tuned=2.22 emulates that)", v / 100, v % 100);
	if (strcmp(o->key, "platform_profile") != 0)
		return pfm_skip(m, in, o, "not modelled");
	if (pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	if (!value[0] || strstr(value, "||") || value[0] == '|' || value[strlen(value) - 1] == '|')
		return pfm_bad(m, in, o, "empty alternative (expected e.g. low-power|quiet)");
	pfm_origin(in, o, NULL, orig, sizeof(orig));
	return pf_add_host_setting(m->p, "platform_profile", value, orig, m->d);
}

int pfm_acpi_instance(struct map *m, const struct pf_inst *in)
{
	return pfm_each_option(m, in, acpi_option);
}

static bool module_name_ok(const char *s)
{
	if (!*s || strlen(s) > 48)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

static int module_option(struct map *m, const struct pf_inst *in, const struct pf_opt *o)
{
	char name[VALUE_MAX], value[VALUE_MAX], key[64], orig[PROFILE_TEXT_MAX * 2];
	if (pf_expand_at(m->L, o->key, o->file, o->line, name, sizeof(name)) ||
	    pf_expand(m->L, o, value, sizeof(value)))
		return -1;
	if (!module_name_ok(name))
		return pfm_bad(m, in, o, "'%s' is not a module name (expected letters, digits, '_' "
			       "and '-')", name);
	pf_fmt(key, sizeof(key), "module.%s", name); /* name: 48 at most */
	pfm_origin(in, o, NULL, orig, sizeof(orig));
	return pf_add_host_setting(m->p, key, value, orig, m->d);
}

int pfm_modules_instance(struct map *m, const struct pf_inst *in)
{
	return pfm_each_option(m, in, module_option);
}

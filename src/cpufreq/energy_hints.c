// SPDX-License-Identifier: GPL-2.0-only
/* EPB and EPP names. See energy_hints.h. */
#include "energy_hints.h"

#include <stddef.h>
#include <string.h>

/* X(name, value): the kernel's EPB names. */
#define EPB_NAMES(X) \
	X("performance", 0) X("balance-performance", 4) X("normal", 6) \
	X("balance-power", 8) X("power", 15)
/* X(name, intel_pstate value, amd-pstate value) */
#define EPP_PRESETS(X) \
	X("performance", 0, 0) X("balance_performance", 128, 128) \
	X("balance_power", 192, 191) X("power", 255, 255)

#define EPB_WORD(name, v) name "=" #v,
#define EPP_WORD(name, intel, amd) name "=" #intel,
const char *const epb_words[] = { EPB_NAMES(EPB_WORD) NULL };
#define AMD_EPP_WORD(name, intel, amd) name "=" #amd,
/* intel_pstate's balance_performance is model-specific (intel_epp_default[],
 * v6.x: 102 on Alder Lake-L, 32 on Sapphire Rapids, else 0x80), and the
 * boot EPP ("default") is that value: -1 stands for it, resolved by the
 * driver from its policy's epp_balance_perf. */
const char *const epp_words[] = { "performance=0", "balance_performance=-1", "balance_power=192",
				  "power=255", "default=-1", NULL };
const char *const amd_epp_words[] = { EPP_PRESETS(AMD_EPP_WORD) "default=128", NULL };

static const struct {
	const char *name;
	int value;
} epb_names[] = {
#define EPB_ENTRY(name, v) { name, v },
	EPB_NAMES(EPB_ENTRY)
	{ "balance_performance", 4 }, { "default", 6 }, { "balance_power", 8 },
	{ "powersave", 15 },
};

static const struct {
	const char *name;
	int value[2];
} epp_presets[] = {
#define EPP_ENTRY(name, intel, amd) { name, { intel, amd } },
	EPP_PRESETS(EPP_ENTRY)
};

int epb_value(const char *name)
{
	for (size_t i = 0; i < sizeof(epb_names) / sizeof(epb_names[0]); i++)
		if (strcmp(epb_names[i].name, name) == 0)
			return epb_names[i].value;
	return -1;
}

const char *epb_kernel_name(const char *name)
{
	int v = epb_value(name);
	for (size_t i = 0; v >= 0 && i < sizeof(epb_names) / sizeof(epb_names[0]); i++)
		if (epb_names[i].value == v)
			return epb_names[i].name; /* the kernel's names come first */
	return name;
}

int epp_preset_count(void)
{
	return (int)(sizeof(epp_presets) / sizeof(epp_presets[0]));
}

const char *epp_preset_name(int i)
{
	return epp_presets[i].name;
}

int epp_preset_value(int i, bool amd)
{
	return epp_presets[i].value[amd];
}

static const char *const ppd_names[PPD_PROFILES] = { "power-saver", "balanced", "performance" };
static const char *const ppd_epps[PPD_PROFILES] = { "power", "balance_performance",
						    "performance" };
/* ENERGY_PERF_BIAS_POWERSAVE, _NORMAL, _PERFORMANCE */
static const char *const ppd_epbs[PPD_PROFILES] = { "15", "6", "0" };

int ppd_profile_index(const char *name)
{
	for (int i = 0; i < PPD_PROFILES; i++)
		if (strcmp(name, ppd_names[i]) == 0)
			return i;
	return -1;
}

const char *ppd_profile_name(int i)
{
	return ppd_names[i];
}

const char *ppd_epp(int i)
{
	return ppd_epps[i];
}

const char *ppd_epb(int i)
{
	return ppd_epbs[i];
}

// SPDX-License-Identifier: GPL-2.0-only
/* Private to src/profile: the stages between a tuned.conf and a struct
 * profile.
 *
 *   profile_ini.c      one file -> sections of key=value lines, with lines
 *   profile_find.c     the search path, NAME -> file, listing
 *   profile_vars.c     [variables], ${var}, ${i:...}, ${f:...}, regexes,
 *                      and what the machine looks like to them (uname,
 *                      /proc/cpuinfo)
 *   profile_func.c     tuned's built-in functions, with profile_cpulist.c
 *   profile_resolve.c  include= chains, merging, overrides, conditions
 *                      -> the enabled plugin instances in tuned's order
 *   profile_map.c      instances -> pmlab settings and skipped options
 *   profile.c          the public calls
 *
 * Every string a stage keeps belongs to the load (struct pf_load) and is
 * freed with it; options point at their file and line so every message
 * and every setting can say where it came from. */
#ifndef PMLAB_PROFILE_INTERNAL_H
#define PMLAB_PROFILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "profile.h"

#define PF_MAX_FILE_BYTES (1 << 20)
#define PF_MAX_DEPTH 16 /* include= levels */

/* One "key = value" line. */
/* The "file" of options given as overrides in a profile spec (NAME:OPT=V). */
#define PF_OVERRIDE_FILE "override"

struct pf_opt {
	const char *key, *value;
	const char *file; /* the file's path, for FILE:LINE */
	int line;
};

struct pf_section {
	const char *name;
	const char *file;
	int line;
	struct pf_opt *opts;
	int nopts, cap;
};

struct pf_file {
	char *path;  /* as found: dir + "/NAME/tuned.conf" or the user's path */
	char *dir;   /* its directory: ${i:PROFILE_DIR} */
	struct pf_section *secs;
	int nsecs, cap;
	char **strs; /* every string the file owns */
	int nstrs, capstrs;
};

/* profile_ini.c: text of one file. Keys before any section go into a
 * section named "" (allowed in variable files, refused in profiles by the
 * resolver). Errors read "PATH:LINE: ...". */
int pf_ini_parse(struct pf_file *f, const char *text, const char *path, struct pm_diag *d);
int pf_ini_load(struct pf_file *f, const char *path, struct pm_diag *d);
void pf_file_free(struct pf_file *f);
char *pf_file_strdup(struct pf_file *f, const char *s, size_t n);
const struct pf_section *pf_file_section(const struct pf_file *f, const char *name);
const struct pf_opt *pf_section_opt(const struct pf_section *s, const char *key);

/* profile_find.c */
/* Finds NAME's tuned.conf: first in `first_dir` (the including profile's
 * family, may be NULL), then the search path; a candidate in skip[] (the
 * files of the include chain, real paths) is passed over, as tuned's
 * locator does, so that /etc/tuned/balanced can include the system
 * "balanced". Returns a malloc'd path or NULL. */
char *pf_find_name(const char *name, const char *first_dir, const char *const *dirs,
		   int ndirs, char *const *skip, int nskip);
/* A spec that names an existing file or directory: its tuned.conf path
 * (malloc'd), else NULL. */
char *pf_find_path(const char *spec);
bool pf_name_ok(const char *name);

/* A plugin instance after include= merging, before conditions. */
struct pf_unit {
	const char *name;
	const char *file;
	int line;         /* of its (last) section header */
	int order;        /* first appearance, tuned's OrderedDict order */
	struct pf_opt *opts;
	int nopts, cap;
};

struct pf_var {
	const char *name, *value; /* value: expanded when defined */
	const char *file;
	int line;
};

/* An instance the resolver kept, with its meta options read. */
struct pf_inst {
	const struct pf_unit *u;
	const char *type;
	int priority;
	bool enabled;       /* false: why_off says why (enabled=false, a condition) */
	char why_off[160];
	const struct pf_opt *devices; /* NULL: "*" */
};

struct pf_load {
	const struct machine *m;
	const struct profile_env *env;
	const char *const *dirs;
	int ndirs;
	struct pm_diag *d;

	struct pf_file **files; /* every file read; owns the strings */
	int nfiles, capfiles;
	char *chain[PF_MAX_DEPTH + 1]; /* real paths of the include chain */
	int depth;

	struct pf_unit *units;
	int nunits, capunits;
	struct pf_opt *varopts; /* [variables], merged */
	int nvaropts, capvaropts;
	struct pf_var *vars;
	int nvars, capvars;
	const struct pf_opt *summary;
	char *top_path;

	struct pf_inst *insts;
	int ninsts;

	char uname[PROFILE_TEXT_MAX];
	char *cpuinfo;

	int tuned_version;          /* emulated, major * 100 + minor (2.20: 220) */
	/* tuned-main.conf's dynamic_tuning: 1, 0, or -1 when nothing says (the
	 * version's default: on before 2.22); where it was said, for notes. */
	int dynamic_tuning;
	char dynamic_from[PROFILE_TEXT_MAX];
	struct profile_skip *notes; /* what the loader passed over, for the list */
	int nnotes, capnotes;
};

/* profile_vars.c */
int pf_machine_identity(struct pf_load *L);
/* Expands ${VAR}, ${i:PROFILE_DIR}, ${f:FUNC:ARGS} and \${ in o's value
 * into out; errors name o's file and line. */
int pf_expand(struct pf_load *L, const struct pf_opt *o, char *out, size_t len);
/* Expands a string found at file:line (no option). */
int pf_expand_at(struct pf_load *L, const char *s, const char *file, int line, char *out,
		 size_t len);
/* Defines the merged [variables] in order (with include= variable files). */
int pf_define_vars(struct pf_load *L);
/* re.search(pattern, text, re.MULTILINE) for the patterns profiles use:
 * 1 match, 0 none, -1 a pattern pmlab cannot run (message). */
int pf_regex_search(const char *pattern, const char *text, char *why, size_t len);
void pf_load_free(struct pf_load *L);
/* Something passed over (a missing variables file), listed as skipped. */
int pf_load_note(struct pf_load *L, const char *what, const char *origin, const char *why);

/* profile_func.c: tuned's built-in function argv[0] with arguments
 * argv[1..argc) -> out; -1 with a message at file:line. */
int pf_function(struct pf_load *L, char **argv, int argc, const char *file, int line,
		char *out, size_t len);

/* profile_resolve.c */
int pf_resolve(struct pf_load *L, const char *spec);
/* "2.20" -> 220, "2.22.1" -> 222; -1 if it is not a tuned 2.x version. */
int pf_tuned_version(const char *s);
/* 1 for 1/true/yes/on/y/t, 0 for 0/false/no/off/n/f (any case), -1 otherwise. */
int pf_bool(const char *s);
/* tuned's device matcher over "cpu0".."cpuN-1": how many of the online
 * CPUs the rules match. */
int pf_devices_matched(const char *rules, int ncpus);

/* profile_map.c */
int pf_map(struct pf_load *L, struct profile *p);
/* profile_ppd.c: "ppd/NAME", power-profiles-daemon's profile on machine m. */
int pf_ppd_profile(struct profile *p, const char *spec, const struct machine *m,
		   const struct profile_env *env, struct pm_diag *d);
/* The [cpu] options tuned knows, for messages and overrides. */
bool pf_cpu_option_known(const char *key);
extern const char pf_cpu_options_text[];

/* profile.c: the lists of a struct profile. */
int pf_add_setting(struct profile *p, const char *key, const char *value, const char *origin,
		   struct pm_diag *d);
/* A setting only the host backend applies (profile_setting.host_only). */
int pf_add_host_setting(struct profile *p, const char *key, const char *value,
			const char *origin, struct pm_diag *d);
int pf_add_skip(struct profile *p, const char *what, const char *origin, const char *why,
		struct pm_diag *d);
/* snprintf() into a fixed text field, cut to fit on purpose (the fields
 * are display text); a function so that -Wformat-truncation, which
 * cannot know that, stays quiet. */
void pf_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "FILE:LINE" of an option. */
void pf_where(const struct pf_opt *o, char *buf, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0-only
#include "workload.h"

#include <string.h>

extern const struct workload_ops workload_periodic;
extern const struct workload_ops workload_batch;
extern const struct workload_ops workload_pingpong;
extern const struct workload_ops workload_oltp;
extern const struct workload_ops workload_kernbench;
extern const struct workload_ops workload_tbench;
extern const struct workload_ops workload_hackbench;
extern const struct workload_ops workload_lmbench;
extern const struct workload_ops workload_unixbench;
extern const struct workload_ops workload_stressng;
extern const struct workload_ops workload_ebizzy;
extern const struct workload_ops workload_rtapp;
extern const struct workload_ops workload_replay;
extern const struct workload_ops workload_video;
extern const struct workload_ops workload_squarewave;

/* Adding a workload: one file and one line here. */
static const struct workload_ops *const workloads[] = {
	&workload_batch,
	&workload_periodic,
	&workload_video,
	&workload_squarewave,
	&workload_pingpong,
	&workload_oltp,
	&workload_kernbench,
	&workload_tbench,
	&workload_hackbench,
	&workload_lmbench,
	&workload_unixbench,
	&workload_stressng,
	&workload_ebizzy,
	&workload_rtapp,
	&workload_replay,
};

const struct workload_ops *workload_find_spec(const char *spec)
{
	size_t n = strcspn(spec, ":");

	for (int i = 0; i < workload_count(); i++)
		if (strlen(workloads[i]->name) == n && strncmp(workloads[i]->name, spec, n) == 0)
			return workloads[i];
	return NULL;
}

int workload_count(void)
{
	return (int)(sizeof(workloads) / sizeof(workloads[0]));
}

const struct workload_ops *workload_at(int i)
{
	return workloads[i];
}

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; i < workload_count(); i++)
		if (strcmp(workloads[i]->name, name) == 0)
			return workloads[i];
	return NULL;
}

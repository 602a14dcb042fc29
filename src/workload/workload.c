#include "workload.h"

#include <string.h>

extern const struct workload_ops workload_periodic;
extern const struct workload_ops workload_batch;
extern const struct workload_ops workload_pingpong;

/* Adding a workload: one file and one line here. */
static const struct workload_ops *const workloads[] = {
	&workload_batch,
	&workload_periodic,
	&workload_pingpong,
};

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

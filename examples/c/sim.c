// SPDX-License-Identifier: GPL-2.0-only
/* libpmlab's smallest client: one run, two figures, then the run's JSON.
 * Build: cc sim.c $(pkg-config --cflags --libs pmlab) -o sim
 * Run:   ./sim i7-4790 pingpong schedutil */
#include <stdio.h>

#include <pmlab/pmlab.h>

int main(int argc, char **argv)
{
	const char *machine = argc > 1 ? argv[1] : "i7-4790";
	const char *workload = argc > 2 ? argv[2] : "pingpong";
	pmlab_lab *lab = NULL;
	pmlab_machine *m = NULL;
	pmlab_run *run = NULL;
	pmlab_result *res = NULL;
	pmlab_error err = { PMLAB_OK, "" };
	double throughput, watts;
	int rc = 1;

	if (pmlab_api_version() / 1000 != PMLAB_API_VERSION_MAJOR) {
		fprintf(stderr, "sim: libpmlab %d, built for %d\n", pmlab_api_version(),
			PMLAB_API_VERSION);
		return 1;
	}
	if (pmlab_lab_new(&lab, &err) == PMLAB_OK &&
	    pmlab_machine_load(machine, &m, &err) == PMLAB_OK &&
	    pmlab_run_new(lab, m, workload, &run, &err) == PMLAB_OK &&
	    (argc <= 3 || pmlab_run_cpufreq(run, argv[3], &err) == PMLAB_OK) &&
	    pmlab_run_duration(run, 500000000, &err) == PMLAB_OK &&
	    pmlab_run_exec(run, &res, &err) == PMLAB_OK &&
	    pmlab_result_number(res, "throughput", &throughput, &err) == PMLAB_OK &&
	    pmlab_result_number(res, "power_w", &watts, &err) == PMLAB_OK) {
		printf("%s on %s: %.1f per s at %.2f W\n", workload, machine, throughput, watts);
		rc = 0;
	} else {
		fprintf(stderr, "sim: %s (%s)\n", err.message, pmlab_status_name(err.code));
	}
	pmlab_result_free(res);
	pmlab_run_free(run);
	pmlab_machine_free(m);
	pmlab_lab_free(lab);
	return rc;
}

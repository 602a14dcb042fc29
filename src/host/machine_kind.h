// SPDX-License-Identifier: GPL-2.0-only
/* What kind of machine this is -- a virtual machine, a laptop, a server,
 * a desktop -- read through hostfs (so a fake tree tests it), and the
 * tuned profile tuned-adm recommend picks for it.
 *
 * A virtual machine: a hypervisor's name in the DMI vendor or product
 * strings (what virt-what reads first), /sys/hypervisor/type (Xen), or
 * the "hypervisor" CPU flag of /proc/cpuinfo (x86: CPUID.1:ECX bit 31,
 * which every hypervisor sets). The chassis: DMI chassis_type
 * (/sys/devices/virtual/dmi/id, the SMBIOS 3.3 numbers tuned's
 * profile_recommender.py names), and a battery in
 * /sys/class/power_supply. The system: /etc/system-release-cpe, as tuned
 * matches it. */
#ifndef PMLAB_MACHINE_KIND_H
#define PMLAB_MACHINE_KIND_H

#include <stdbool.h>
#include <stddef.h>

#include "hostfs.h"

enum host_kind { HOST_KIND_VM, HOST_KIND_LAPTOP, HOST_KIND_SERVER, HOST_KIND_DESKTOP,
		 HOST_KIND_UNKNOWN };

#define HOST_KIND_TEXT 192

struct host_kind_info {
	enum host_kind kind;
	char virt[32];                 /* "kvm", "vmware", "hypervisor", ...; "" bare metal */
	char virt_why[HOST_KIND_TEXT]; /* what said so */
	int chassis;                   /* DMI chassis type; 0 unknown */
	char system_cpe[HOST_KIND_TEXT]; /* /etc/system-release-cpe, "" none */
	bool battery;                  /* a power supply of type Battery */
};

/* Reads what the machine says about itself; missing files mean unknown,
 * never an error. */
void host_kind_detect(const struct hostfs *fs, struct host_kind_info *k);
const char *host_kind_name(enum host_kind kind);
/* SMBIOS 3.3's name of a chassis type ("Notebook"), "" when unknown. */
const char *host_chassis_name(int chassis);
/* The tuned profile tuned-adm recommend picks, by tuned 2.27's
 * recommend.conf: atomic-host/atomic-guest on Atomic, virtual-guest in a
 * virtual machine, throughput-performance on a server (its
 * system-release-cpe says server or computenode; or, where the system
 * does not say, as on Debian, a server's chassis), else balanced. why
 * gets the reason. */
const char *host_recommend(const struct host_kind_info *k, char *why, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0-only
#include "machine_kind.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define DMI_DIR "sys/devices/virtual/dmi/id"

/* SMBIOS 3.3.0 (DSP0134) chassis types, as tuned names them. */
static const char *const chassis_names[] = {
	"", "Other", "Unknown", "Desktop", "Low Profile Desktop", "Pizza Box", "Mini Tower",
	"Tower", "Portable", "Laptop", "Notebook", "Hand Held", "Docking Station", "All In One",
	"Sub Notebook", "Space-saving", "Lunch Box", "Main Server Chassis", "Expansion Chassis",
	"Sub Chassis", "Bus Expansion Chassis", "Peripheral Chassis", "RAID Chassis",
	"Rack Mount Chassis", "Sealed-case PC", "Multi-system", "CompactPCI", "AdvancedTCA", "Blade",
	"Blade Enclosing", "Tablet", "Convertible", "Detachable", "IoT Gateway", "Embedded PC",
	"Mini PC", "Stick PC",
};
#define NCHASSIS ((int)(sizeof(chassis_names) / sizeof(chassis_names[0])))

const char *host_chassis_name(int chassis)
{
	return chassis > 0 && chassis < NCHASSIS ? chassis_names[chassis] : "";
}

const char *host_kind_name(enum host_kind kind)
{
	switch (kind) {
	case HOST_KIND_VM: return "virtual machine";
	case HOST_KIND_LAPTOP: return "laptop";
	case HOST_KIND_SERVER: return "server";
	case HOST_KIND_DESKTOP: return "desktop";
	default: return "unknown";
	}
}

static bool read_text(const struct hostfs *fs, const char *rel, char *buf, size_t len)
{
	struct pm_diag d = { { 0 } };
	return hostfs_read_str(fs, rel, buf, len, &d) == 0;
}

/* Hypervisors by the DMI strings they set (virt-what's first checks). */
static const struct {
	const char *file, *text, *name;
} dmi_virt[] = {
	{ "sys_vendor", "QEMU", "kvm" },       { "product_name", "KVM", "kvm" },
	{ "sys_vendor", "VMware", "vmware" },  { "sys_vendor", "innotek GmbH", "virtualbox" },
	{ "product_name", "VirtualBox", "virtualbox" },
	{ "sys_vendor", "Xen", "xen" },        { "product_name", "Virtual Machine", "hyperv" },
	{ "sys_vendor", "Amazon EC2", "aws" }, { "product_name", "Google Compute Engine", "gce" },
	{ "sys_vendor", "Parallels", "parallels" }, { "sys_vendor", "Bochs", "bochs" },
	{ "sys_vendor", "BHYVE", "bhyve" },    { "product_name", "OpenStack", "openstack" },
};

static void detect_virt(const struct hostfs *fs, struct host_kind_info *k)
{
	char buf[256], rel[HOSTFS_PATH_MAX];
	for (size_t i = 0; i < sizeof(dmi_virt) / sizeof(dmi_virt[0]); i++) {
		snprintf(rel, sizeof(rel), DMI_DIR "/%s", dmi_virt[i].file);
		if (read_text(fs, rel, buf, sizeof(buf)) && strstr(buf, dmi_virt[i].text)) {
			snprintf(k->virt, sizeof(k->virt), "%s", dmi_virt[i].name);
			snprintf(k->virt_why, sizeof(k->virt_why), "/%.100s says %.64s", rel, buf);
			return;
		}
	}
	if (read_text(fs, "sys/hypervisor/type", buf, sizeof(buf)) && buf[0]) {
		snprintf(k->virt, sizeof(k->virt), "%.24s", buf);
		snprintf(k->virt_why, sizeof(k->virt_why), "/sys/hypervisor/type says %.64s", buf);
		return;
	}
	/* The first CPU's flags: enough, every CPU has the same. */
	int fd = hostfs_open_ro(fs, "proc/cpuinfo");
	if (fd < 0)
		return;
	char *text = malloc(65536);
	ssize_t n = text ? read(fd, text, 65535) : -1;
	close(fd);
	if (n > 0) {
		text[n] = '\0';
		char *ls = NULL, *ws = NULL;
		for (char *line = strtok_r(text, "\n", &ls); line; line = strtok_r(NULL, "\n", &ls)) {
			if (strncmp(line, "flags", 5) != 0)
				continue;
			char *colon = strchr(line, ':');
			for (char *w = strtok_r(colon ? colon + 1 : line, " \t", &ws); w;
			     w = strtok_r(NULL, " \t", &ws))
				if (strcmp(w, "hypervisor") == 0) {
					snprintf(k->virt, sizeof(k->virt), "hypervisor");
					snprintf(k->virt_why, sizeof(k->virt_why),
						 "/proc/cpuinfo has the hypervisor CPU flag");
				}
			break;
		}
	}
	free(text);
}

static void detect_battery(const struct hostfs *fs, struct host_kind_info *k)
{
	char **names, buf[64], rel[HOSTFS_PATH_MAX];
	int n;
	struct pm_diag d = { { 0 } };
	if (hostfs_list(fs, "sys/class/power_supply", &names, &n, &d) < 0)
		return;
	for (int i = 0; i < n && !k->battery; i++) {
		if (hostfs_path(rel, sizeof(rel), "sys/class/power_supply/%s/type", names[i]) < 0)
			continue;
		k->battery = read_text(fs, rel, buf, sizeof(buf)) && strcmp(buf, "Battery") == 0;
	}
	hostfs_free_list(names, n);
}

static bool is_laptop(int chassis)
{
	/* Portable, Laptop, Notebook, Sub Notebook, Tablet, Convertible, Detachable */
	return chassis == 8 || chassis == 9 || chassis == 10 || chassis == 14 ||
	       (chassis >= 30 && chassis <= 32);
}

static bool is_server(int chassis)
{
	/* Main Server Chassis, Rack Mount Chassis, Multi-system, Blade, Blade Enclosing */
	return chassis == 17 || chassis == 23 || chassis == 25 || chassis == 28 || chassis == 29;
}

void host_kind_detect(const struct hostfs *fs, struct host_kind_info *k)
{
	char buf[64];
	memset(k, 0, sizeof(*k));
	detect_virt(fs, k);
	if (read_text(fs, DMI_DIR "/chassis_type", buf, sizeof(buf)))
		k->chassis = atoi(buf);
	detect_battery(fs, k);
	read_text(fs, "etc/system-release-cpe", k->system_cpe, sizeof(k->system_cpe));
	if (k->virt[0])
		k->kind = HOST_KIND_VM;
	else if (is_laptop(k->chassis) || (!k->chassis && k->battery))
		k->kind = HOST_KIND_LAPTOP;
	else if (is_server(k->chassis))
		k->kind = HOST_KIND_SERVER;
	else if (k->chassis >= 3 && k->chassis <= 7)
		k->kind = HOST_KIND_DESKTOP;
	else
		k->kind = HOST_KIND_UNKNOWN;
}

static bool cpe_has(const char *cpe, const char *word)
{
	for (const char *p = cpe; *p; p++)
		if (strncasecmp(p, word, strlen(word)) == 0)
			return true;
	return false;
}

const char *host_recommend(const struct host_kind_info *k, char *why, size_t len)
{
	bool atomic = cpe_has(k->system_cpe, "atomic");
	bool server_os = cpe_has(k->system_cpe, "server") || cpe_has(k->system_cpe, "computenode");
	if (atomic) {
		snprintf(why, len, "an Atomic system (/etc/system-release-cpe: %s)%s%s", k->system_cpe,
			 k->virt[0] ? ", in a virtual machine: " : "", k->virt_why);
		return k->virt[0] ? "atomic-guest" : "atomic-host";
	}
	if (!k->virt[0] && server_os) {
		snprintf(why, len, "a server system on bare metal (/etc/system-release-cpe: %s)",
			 k->system_cpe);
		return "throughput-performance";
	}
	if (k->virt[0]) {
		snprintf(why, len, "a virtual machine (%s)", k->virt_why);
		return "virtual-guest";
	}
	if (!k->system_cpe[0] && is_server(k->chassis)) {
		snprintf(why, len, "a server's chassis (DMI chassis type %d, %s; no "
			 "/etc/system-release-cpe to ask, as tuned does)", k->chassis,
			 host_chassis_name(k->chassis));
		return "throughput-performance";
	}
	if (k->kind == HOST_KIND_LAPTOP)
		snprintf(why, len, "a laptop (%s%s%s): tuned's default, as for every machine but "
			 "servers and virtual machines", k->chassis ? "DMI chassis type " : "",
			 k->chassis ? host_chassis_name(k->chassis) : "",
			 k->battery ? (k->chassis ? ", a battery" : "a battery") : "");
	else if (k->chassis)
		snprintf(why, len, "a %s (DMI chassis type %d, %s): tuned's default for every machine "
			 "but servers and virtual machines", host_kind_name(k->kind), k->chassis,
			 host_chassis_name(k->chassis));
	else
		snprintf(why, len, "no virtual machine, no server system, no chassis type: tuned's "
			 "default for every machine but servers and virtual machines");
	return "balanced";
}

// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Hybrid Intel CPUs: the core type a libpfm4 core PMU counts on, and the
 * CPUs of that type the kernel lists (perf's PMU devices cpu_core,
 * cpu_atom and cpu_lowpower), for perfex and PAPI's perfctr component.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libperfctr.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The kernel's (perf's) PMU devices. */
#define PMU_DEVICES	"/sys/bus/event_source/devices/"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Hybrid Intel CPUs.  libpfm4 has a core PMU per core type (adl_glc for
 * Alder Lake's P-cores, adl_grt for its E-cores) but no field of
 * pfm_pmu_info_t says which core type a PMU is for.  The description
 * does ("... (P-core)", "... (E-core)"); failing that, the name ends in
 * the abbreviation of the core's microarchitecture, and this table
 * knows those of libpfm4's hybrid PMUs and their likely successors.  A
 * PMU that is in neither counts on every core type.  On a CPU that is
 * not hybrid the answer does not matter: nothing is restricted.
 */
static const struct {
	const char *suffix;
	unsigned int core;
} hybrid_pmus[] = {
	{ "_glc", PERFCTR_CORE_P },	/* Golden Cove */
	{ "_rpc", PERFCTR_CORE_P },	/* Raptor Cove */
	{ "_rwc", PERFCTR_CORE_P },	/* Redwood Cove */
	{ "_lnc", PERFCTR_CORE_P },	/* Lion Cove */
	{ "_cgc", PERFCTR_CORE_P },	/* Cougar Cove */
	{ "_grt", PERFCTR_CORE_E },	/* Gracemont */
	{ "_cmt", PERFCTR_CORE_E },	/* Crestmont */
	{ "_skt", PERFCTR_CORE_E },	/* Skymont */
	{ "_dkt", PERFCTR_CORE_E },	/* Darkmont */
};

unsigned int perfctr_pmu_core_type(const char *pmu_name, const char *pmu_desc)
{
	size_t len, slen;
	unsigned int i;
	int p, e;

	if (pmu_desc) {
		p = !!strcasestr(pmu_desc, "p-core");
		e = !!strcasestr(pmu_desc, "e-core");
		if (p != e)
			return p ? PERFCTR_CORE_P : PERFCTR_CORE_E;
	}
	if (!pmu_name)
		return PERFCTR_CORE_ANY;
	len = strlen(pmu_name);
	for (i = 0; i < ARRAY_SIZE(hybrid_pmus); i++) {
		slen = strlen(hybrid_pmus[i].suffix);
		if (len > slen && !strcmp(pmu_name + len - slen, hybrid_pmus[i].suffix))
			return hybrid_pmus[i].core;
	}
	return PERFCTR_CORE_ANY;
}

/* The kernel's (perf's) PMU devices of the core types, as perf names them. */

const char *perfctr_core_type_name(unsigned int core)
{
	return core == PERFCTR_CORE_P ? "P-cores (cpu_core)" : "E-cores (cpu_atom)";
}

/*
 * Add the CPUs of the cpulist file @root@PMU_DEVICES@dev/cpus ("0-7,16")
 * to @set, and the list to @list; 1 if the file exists, 0 if not, -1.
 */
static int read_cpulist(const char *root, const char *dev, cpu_set_t *set,
			char *list, size_t listlen, char *err, size_t errlen)
{
	char path[4096], buf[1024], *p, *end;
	unsigned long lo, hi;
	size_t n, used;
	FILE *f;

	snprintf(path, sizeof(path), "%s" PMU_DEVICES "%s/cpus", root, dev);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	used = strlen(list);
	snprintf(list + used, listlen - used, "%s%s", used && *buf ? "," : "", buf);
	for (p = buf; *p; p = end + (*end == ',')) {
		errno = 0;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (end != p && *end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
		}
		if (end == p || errno || hi < lo || (*end && *end != ','))
			return fail(err, errlen, "%s: not a CPU list: %s", path, buf);
		if (hi >= CPU_SETSIZE)
			return fail(err, errlen, "%s: CPU %lu: libperfctr handles CPUs below %d",
				    path, hi, CPU_SETSIZE);
		for (; lo <= hi; lo++)
			CPU_SET(lo, set);
	}
	return 1;
}

int perfctr_events_cpus(unsigned int n, const unsigned int *core, const char *const *name,
			const char *root, const cpu_set_t *allowed, cpu_set_t *cpus, char *err,
			size_t errlen)
{
	char path[4096], list[1024] = "";
	unsigned int need = PERFCTR_CORE_ANY, i, p_ev = 0, e_ev = 0;
	cpu_set_t type_cpus;
	struct stat st;
	int r;

	if (!root)
		root = "";
	for (i = 0; i < n; i++) {
		need &= core[i];
		if (core[i] == PERFCTR_CORE_P)
			p_ev = i;
		else if (core[i] == PERFCTR_CORE_E)
			e_ev = i;
	}
	if (need == PERFCTR_CORE_ANY)
		return 0;
	/* A hybrid CPU: the kernel's PMU for the P-cores is cpu_core, not cpu. */
	snprintf(path, sizeof(path), "%s" PMU_DEVICES "cpu_core", root);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (!need)
		return fail(err, errlen,
			    "%s counts on %s only and %s on %s only: a hybrid CPU's core types have different events; count them apart (perfex: in separate runs, PAPI: in separate event sets)",
			    name[p_ev], perfctr_core_type_name(PERFCTR_CORE_P),
			    name[e_ev], perfctr_core_type_name(PERFCTR_CORE_E));
	CPU_ZERO(&type_cpus);
	if (need == PERFCTR_CORE_P) {
		r = read_cpulist(root, "cpu_core", &type_cpus, list, sizeof(list), err, errlen);
	} else {
		r = read_cpulist(root, "cpu_atom", &type_cpus, list, sizeof(list), err, errlen);
		/* Low-power E-cores (Arrow Lake-H...) have a PMU of their own. */
		if (r >= 0 && read_cpulist(root, "cpu_lowpower", &type_cpus, list,
					   sizeof(list), err, errlen) < 0)
			r = -1;
	}
	if (r < 0)
		return -1;
	i = need == PERFCTR_CORE_P ? p_ev : e_ev;
	if (!CPU_COUNT(&type_cpus))
		return fail(err, errlen, "%s counts on %s only, and the kernel lists none",
			    name[i], perfctr_core_type_name(need));
	if (allowed)
		*cpus = *allowed;
	else if (sched_getaffinity(0, sizeof(*cpus), cpus))
		return fail(err, errlen, "sched_getaffinity: %s", strerror(errno));
	CPU_AND(cpus, cpus, &type_cpus);
	if (!CPU_COUNT(cpus))
		return fail(err, errlen,
			    "%s counts on %s only, CPUs %s, and the thread may run on none of them (its CPU affinity; see taskset(1))",
			    name[i], perfctr_core_type_name(need), list);
	return 1;
}

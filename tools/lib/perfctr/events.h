/* SPDX-License-Identifier: GPL-2.0 */
/* perfex: event specifiers to a perfctr control. */
#ifndef PERFEX_EVENTS_H
#define PERFEX_EVENTS_H

#include <sched.h>
#include <stdio.h>
#include <libperfctr.h>

/*
 * The core types of a hybrid Intel CPU an event counts on, a mask: an
 * event of a P-core or an E-core PMU of libpfm4 counts on that core type
 * only; raw events and those of other PMUs on any.
 */
#define PERFEX_CORE_P		1U	/* sysfs cpu_core */
#define PERFEX_CORE_E		2U	/* sysfs cpu_atom (and cpu_lowpower) */
#define PERFEX_CORE_ANY		(PERFEX_CORE_P | PERFEX_CORE_E)

struct perfex_events {
	unsigned int n;
	char *name[PERFCTR_NRCTRS];	/* as given, or the full libpfm4 name */
	unsigned long long code[PERFCTR_NRCTRS];	/* the raw encoding */
	unsigned int core[PERFCTR_NRCTRS];	/* PERFEX_CORE_* */
};

/*
 * Add the event @spec to @cc as its next a-mode counter; 0, or -1 with
 * the reason in @err.
 */
int perfex_add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen);
/* The core types a libpfm4 core PMU of this name and description counts on. */
unsigned int perfex_pmu_core(const char *pmu_name, const char *pmu_desc);
/*
 * The CPUs the events of @ev can count on, on a hybrid Intel CPU: 0 for
 * no restriction (not a hybrid CPU, or every event counts on every core
 * type); 1 with @cpus set to those of @allowed (NULL: the calling
 * thread's affinity) that are of the core type the events need; -1,
 * refused (events of two core types, or no allowed CPU of the type),
 * with the reason in @err.  @sysfs_root prefixes /sys (NULL: the
 * environment's PERFEX_SYSFS_ROOT, or nothing).
 */
int perfex_events_cpus(const struct perfex_events *ev, const char *sysfs_root,
		       const cpu_set_t *allowed, cpu_set_t *cpus, char *err, size_t errlen);
/*
 * What event @i of @ev counts, as far as the IPC goes: PERFEX_COUNTS_*.
 * Told from the full libpfm4 name: core cycles (not reference cycles) or
 * instructions retired, with no modifier but the privilege levels, on a
 * general counter; on POWER8-10 also from the counter, PMC5 (instructions
 * completed) and PMC6 (cycles).  Raw events are PERFEX_COUNTS_OTHER.
 */
#define PERFEX_COUNTS_OTHER		0
#define PERFEX_COUNTS_INSTRUCTIONS	1
#define PERFEX_COUNTS_CYCLES		2
unsigned int perfex_event_counts(const struct perfctr_info *info,
				 const struct perfctr_cpu_control *cc,
				 const struct perfex_events *ev, unsigned int i);
/*
 * The events the IPC comes from: 1 with the first instructions event in
 * *@inst and the first cycles event of the same PMU and privilege levels
 * in *@cyc, or 0.
 */
int perfex_ipc_events(const struct perfctr_info *info, const struct perfctr_cpu_control *cc,
		      const struct perfex_events *ev, unsigned int *inst, unsigned int *cyc);
/* List the events; @info NULL: perfctr_info() failed (a kernel without perfctr). */
void perfex_list_events(FILE *out, const struct perfctr_info *info);
const char *perfex_event_syntax(void);

#endif

/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* perfex's event specifiers to a perfctr control (perfex and the library's marker). */
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
#define PERFEX_CORE_P		PERFCTR_CORE_P		/* sysfs cpu_core */
#define PERFEX_CORE_E		PERFCTR_CORE_E		/* sysfs cpu_atom (and cpu_lowpower) */
#define PERFEX_CORE_ANY		PERFCTR_CORE_ANY

/*
 * The CPU's counters as perfex places events on them: the general
 * (programmable) counters and the fixed ones, each of which counts one
 * event.  x86: Intel's architectural perfmon fixed counters, bit N of
 * @fixed for pmc_map 0x40000000 + N (0 instructions retired, 1 core
 * cycles, 2 reference cycles, 3 topdown slots).  POWER8-10: bit 0 for
 * PMC5 (instructions completed), bit 1 for PMC6 (cycles).  @model
 * chooses the table of perf's generic names (cycles, instructions...).
 */
#define PERFEX_MODEL_OTHER	0	/* no generic names */
#define PERFEX_MODEL_INTEL_ARCH	1	/* Intel architectural perfmon */
#define PERFEX_MODEL_AMD	2	/* AMD K7 to family 16h */
#define PERFEX_MODEL_AMD_ZEN	3	/* AMD Zen 1-3 (families 17h, 19h) */
#define PERFEX_MODEL_AMD_ZEN4	4	/* AMD Zen 4 and later */
#define PERFEX_MODEL_POWER8	5
#define PERFEX_MODEL_POWER9	6
#define PERFEX_MODEL_POWER10	7

struct perfex_pmu {
	int known;			/* set: the fields are filled in */
	unsigned int model;		/* PERFEX_MODEL_* */
	unsigned int ngeneral;		/* general counters: pmc_map 0 to ngeneral - 1 */
	unsigned int fixed;		/* the fixed counters, a mask (above) */
	unsigned int arch_events;	/* Intel: bit N, architectural event N (CPUID 0xA) */
	unsigned int p6_enable;		/* P6: EVNTSEL0's enable bit enables both */
};

/* The privilege levels an event counts at: a mask. */
#define PERFEX_PLM_USER		1U
#define PERFEX_PLM_KERNEL	2U

struct perfex_events {
	unsigned int n;
	char *name[PERFCTR_NRCTRS];	/* as given, or the full libpfm4 name */
	unsigned long long code[PERFCTR_NRCTRS];	/* the raw encoding */
	unsigned int core[PERFCTR_NRCTRS];	/* PERFEX_CORE_* */
	unsigned int counts[PERFCTR_NRCTRS];	/* PERFEX_COUNTS_*, when known from the name */
	unsigned int plm[PERFCTR_NRCTRS];	/* PERFEX_PLM_*; 0: raw, not known */
	unsigned char placed[PERFCTR_NRCTRS];	/* the counter was named (@pmc) */
	struct perfex_pmu pmu;		/* filled by the first perfex_add_event() unless known */
};

/* What perfex knows of the counters of the CPU @info describes. */
void perfex_pmu_detect(const struct perfctr_info *info, struct perfex_pmu *pmu);
/*
 * The counters of @pmu in words: "4 general + 3 fixed (fixed:
 * instructions, cycles, ref-cycles)".
 */
void perfex_pmu_describe(const struct perfex_pmu *pmu, char *buf, size_t len);

/*
 * Add the event @spec to @cc as its next a-mode counter; 0, or -1 with
 * the reason in @err.  @spec is one event (no comma list).
 */
int perfex_add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen);
/*
 * Add the events of @specs[0..@n-1], each one event or a comma list of
 * them; 0, or -1 with the reason in @err.  When the general counters
 * run out it says how many the events need and what the CPU has.
 */
int perfex_add_events(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		      struct perfex_events *ev, const char *const *specs, unsigned int n,
		      char *err, size_t errlen);
/*
 * x86: put the general-counter events of @cc on counters that can count
 * them.  @ok[i] is the mask of general counters event i may use (the
 * kernel's answer, VPERFCTR_CONTROL_VALIDATE: perf's constraints); an
 * event placed by the user (@pmc) stays where it is, the others move.
 * 0 with @cc->pmc_map[] rewritten, or -1 with the reason in @err:
 * "counter 0 cannot count X; it can use 2 or 3".
 */
int perfex_place_events(struct perfctr_cpu_control *cc, const struct perfex_events *ev,
			const unsigned int *ok, char *err, size_t errlen);
/*
 * Without perfctr_info(): 0 if every event of @specs[0..@n-1] is raw
 * syntax, one of perf's generic names or a name libpfm4 knows; else -1
 * with the reason in @err.  Makes no perfctr system call.
 */
int perfex_check_events(const char *const *specs, unsigned int n, char *err, size_t errlen);
/*
 * The core types a libpfm4 core PMU of this name and description counts
 * on: libperfctr's perfctr_pmu_core_type().
 */
unsigned int perfex_pmu_core(const char *pmu_name, const char *pmu_desc);
/*
 * The CPUs the events of @ev can count on, on a hybrid Intel CPU: 0 for
 * no restriction (not a hybrid CPU, or every event counts on every core
 * type); 1 with @cpus set to those of @allowed (NULL: the calling
 * thread's affinity) that are of the core type the events need; -1,
 * refused (events of two core types, or no allowed CPU of the type),
 * with the reason in @err.  @sysfs_root prefixes /sys (NULL: the
 * environment's PERFEX_SYSFS_ROOT, or nothing).  libperfctr's
 * perfctr_events_cpus() on @ev's names and core types.
 */
int perfex_events_cpus(const struct perfex_events *ev, const char *sysfs_root,
		       const cpu_set_t *allowed, cpu_set_t *cpus, char *err, size_t errlen);
/*
 * What event @i of @ev counts, as far as the IPC goes: PERFEX_COUNTS_*.
 * Told from perf's generic names (instructions, cycles), from the full
 * libpfm4 name: core cycles (not reference cycles) or instructions
 * retired, with no modifier but the privilege levels, on a general
 * counter; and from the counter: Intel's fixed counters 0 (instructions)
 * and 1 (core cycles), POWER8-10's PMC5 (instructions completed) and
 * PMC6 (cycles).  Raw events on general counters are PERFEX_COUNTS_OTHER.
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

// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 driver: Intel hybrid CPUs, whose cores of each type have
 * their own architectural perfmon PMU.  The hybrid model runs the P6
 * family's operations (p6.c) over the union of the CPUs' counters.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/bits.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/perfctr.h>
#include <linux/printk.h>
#include <linux/slab.h>

#include <asm/cpuid/api.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "x86.h"

/*
 * Intel hybrid CPUs: the cores of each type have their own PMU, with the
 * architectural perfmon layout but not the same counters.  Each CPU's
 * counters are read on that CPU (perfctr_x86_cpu_pmu_caps); the model
 * offers the union of them all, and a control that names a counter some
 * CPUs lack is kept off those CPUs (perfctr_cpu_forbidden()).  The model
 * (perfctr_x86_hybrid) is filled in at boot from what the CPUs report.
 */
static const struct perfctr_x86_model perfctr_x86_hybrid_base = {
	.name		= "Intel hybrid (architectural perfmon v2+)",
	.cpu_type	= PERFCTR_X86_INTEL_HYBRID,
	.ops		= &perfctr_x86_p6_ops,
	.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
	.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
	.evntsel_stride	= 1,
	.global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL,
	.ovf_ctrl_msr	= MSR_CORE_PERF_GLOBAL_OVF_CTRL,
};

static struct perfctr_x86_model perfctr_x86_hybrid;

/* What each CPU's PMU has (hybrid CPUs); all zero: not known yet. */
static DEFINE_PER_CPU(struct perfctr_x86_pmu_caps, perfctr_x86_cpu_pmu_caps);

/*
 * @cpu's record in it.  The KUnit suite plays hybrid CPUs by saving,
 * filling and restoring the records.
 */
VISIBLE_IF_KUNIT struct perfctr_x86_pmu_caps *perfctr_x86_pmu_caps_of(unsigned int cpu)
{
	return per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu);
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_pmu_caps_of);

/**
 * perfctr_x86_parse_pmu_caps - a CPU's counters, from its CPUID
 * @caps: filled in
 * @eax10: CPUID 0xA EAX (version, number and width of general counters)
 * @ecx10: CPUID 0xA ECX (from version 5: bitmap of the fixed counters)
 * @edx10: CPUID 0xA EDX (number of contiguous fixed counters)
 * @ext: CPUID 0x23 subleaf 1 is valid (architectural perfmon extension)
 * @gp23: CPUID 0x23.1 EAX: bitmap of the general counters
 * @fixed23: CPUID 0x23.1 EBX: bitmap of the fixed counters
 *
 * Leaf 0xA describes the counters every core type has (Alder Lake's
 * performance cores have two general and one fixed counter more, which
 * it does not enumerate, and so are not offered); leaf 0x23, where it
 * exists, describes this core's own.
 */
void perfctr_x86_parse_pmu_caps(struct perfctr_x86_pmu_caps *caps, u32 eax10,
				u32 ecx10, u32 edx10, bool ext, u32 gp23, u32 fixed23)
{
	union cpuid10_eax eax = { .full = eax10 };
	union cpuid10_edx edx = { .full = edx10 };
	unsigned int nr_gp = eax.split.num_counters;
	unsigned int nr_fixed = edx.split.num_counters_fixed;

	caps->gp = nr_gp ? GENMASK(min(nr_gp, 32U) - 1, 0) : 0;
	caps->fixed = nr_fixed ? GENMASK(nr_fixed - 1, 0) : 0;
	if (eax.split.version_id >= 5)
		caps->fixed |= ecx10;
	if (ext) {
		caps->gp = gp23;
		caps->fixed = fixed23;
	}
	caps->gp &= GENMASK(PERFCTR_X86_MAX_GP - 1, 0);
	caps->fixed &= GENMASK(PERFCTR_X86_MAX_FIXED - 1, 0);
	caps->width = eax.split.bit_width;
	caps->fixed_width = edx.split.bit_width_fixed;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_parse_pmu_caps);

/* Record this CPU's PMU: a hotplug callback, run on @cpu. */
static int perfctr_x86_read_pmu_caps(unsigned int cpu)
{
	struct perfctr_x86_pmu_caps *caps = this_cpu_ptr(&perfctr_x86_cpu_pmu_caps);
	u32 eax, ebx, ecx, edx, gp23 = 0, fixed23 = 0, unused;
	union cpuid35_eax eax35 = {};

	if (this_cpu_has(X86_FEATURE_ARCH_PERFMON_EXT))
		cpuid(ARCH_PERFMON_EXT_LEAF, &eax35.full, &unused, &unused, &unused);
	if (eax35.split.cntr_subleaf)
		cpuid_count(ARCH_PERFMON_EXT_LEAF, ARCH_PERFMON_NUM_COUNTER_LEAF,
			    &gp23, &fixed23, &unused, &unused);
	cpuid(10, &eax, &ebx, &ecx, &edx);
	perfctr_x86_parse_pmu_caps(caps, eax, ecx, edx, eax35.split.cntr_subleaf,
				   gp23, fixed23);
	caps->type = cpu_data(cpu).topo.cpu_type;
	return 0;
}

/**
 * perfctr_x86_hybrid_model - the hybrid model for the CPUs' PMUs
 * @full_width: IA32_PERF_CAPABILITIES.FW_WRITE is set
 * @m: filled in with the model
 *
 * Offers every counter some CPU has, sign-extended to the narrowest
 * width.  A CPU that comes online later is served with what it shares
 * with the union; one never seen is forbidden to every control with
 * counters.
 *
 * Return: @m, or NULL if no CPU reported counters.
 */
VISIBLE_IF_KUNIT const struct perfctr_x86_model *
perfctr_x86_hybrid_model(bool full_width, struct perfctr_x86_model *m)
{
	const struct perfctr_x86_pmu_caps *caps;
	unsigned int cpu, width = 64, fixed_width = 64;
	u32 gp = 0, fixed = 0;

	for_each_possible_cpu(cpu) {
		caps = perfctr_x86_pmu_caps_of(cpu);
		if (!caps->gp && !caps->fixed)
			continue;
		gp |= caps->gp;
		fixed |= caps->fixed;
		width = min_t(unsigned int, width, caps->width);
		if (caps->fixed)
			fixed_width = min_t(unsigned int, fixed_width, caps->fixed_width);
	}
	if (!gp && !fixed)
		return NULL;
	*m = perfctr_x86_hybrid_base;
	m->nr_ctrs = fls(gp);
	m->nr_fixed = fls(fixed);
	m->ctr_width = clamp(width, 32U, 64U);
	m->fixed_width = clamp(fixed_width, 32U, 64U);
	m->gp_mask = gp;
	m->fixed_mask = fixed;
	m->ctr_write_msr = full_width ? MSR_IA32_PMC0 : 0;
	return m;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_hybrid_model);

/**
 * perfctr_cpu_forbidden - the CPUs a control's PMU cannot serve
 * @state: a state whose control perfctr_cpu_update_control() accepted
 * @mask: set to the CPUs on which it cannot run
 *
 * On a hybrid CPU: those whose PMU lacks one of the counters the control
 * names (or is not known).  Elsewhere every CPU has the same PMU, and the
 * hyper-threaded P4's rule is perfctr_cpus_forbidden_mask.
 */
void perfctr_cpu_forbidden(const struct perfctr_cpu_state *state, struct cpumask *mask)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, cpu, nrctrs = cc->nractrs + cc->nrictrs;
	const struct perfctr_x86_pmu_caps *caps;
	u32 gp = 0, fixed = 0;

	cpumask_clear(mask);
	if (!perfctr_x86_is_hybrid(perfctr_x86_cur_model))
		return;
	for (i = 0; i < nrctrs; i++) {
		if (cc->pmc_map[i] >= PERFCTR_X86_PMC_MAP_FIXED)
			fixed |= BIT(cc->pmc_map[i] - PERFCTR_X86_PMC_MAP_FIXED);
		else
			gp |= BIT(cc->pmc_map[i]);
	}
	for_each_possible_cpu(cpu) {
		caps = perfctr_x86_pmu_caps_of(cpu);
		if (gp & ~caps->gp || fixed & ~caps->fixed)
			cpumask_set_cpu(cpu, mask);
	}
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_cpu_forbidden);

/* Is @m a hybrid model (NULL: the generic one)? */
bool perfctr_x86_is_hybrid(const struct perfctr_x86_model *m)
{
	return m && m->cpu_type == PERFCTR_X86_INTEL_HYBRID;
}

/* The general counters this CPU has, on a hybrid CPU. */
u32 perfctr_x86_hybrid_gp_here(void)
{
	return this_cpu_read(perfctr_x86_cpu_pmu_caps.gp);
}

/* Its fixed counters. */
u32 perfctr_x86_hybrid_fixed_here(void)
{
	return this_cpu_read(perfctr_x86_cpu_pmu_caps.fixed);
}

/**
 * perfctr_x86_hybrid_type_cpus - one CPU of each core type with a counter
 * @pmc: a general counter
 * @cpus: filled in with an online CPU of each core type whose PMU has it
 *
 * A control may run on every CPU that has its counters (the others are
 * forbidden to it), so an event must suit each such core type's PMU.
 *
 * Return: the number of CPUs in @cpus.
 */
unsigned int perfctr_x86_hybrid_type_cpus(unsigned int pmc,
					  unsigned int cpus[PERFCTR_X86_MAX_TYPES])
{
	const struct perfctr_x86_pmu_caps *caps;
	unsigned int cpu, type, n = 0;
	unsigned long seen = 0;

	for_each_online_cpu(cpu) {
		caps = perfctr_x86_pmu_caps_of(cpu);
		type = min_t(unsigned int, caps->type, PERFCTR_X86_MAX_TYPES - 1);
		if (!(caps->gp & BIT(pmc)) || test_and_set_bit(type, &seen))
			continue;
		cpus[n++] = cpu;
	}
	return n;
}

/*
 * A hybrid CPU: read each CPU's PMU, there and on every CPU that comes
 * online later, and serve them all with the hybrid model.
 */
const struct perfctr_x86_model * __init
perfctr_x86_hybrid_boot(const struct perfctr_x86_model *boot)
{
	const struct perfctr_x86_pmu_caps *caps, *other;
	const struct perfctr_x86_model *model;
	unsigned int cpu, cpu2;
	cpumask_var_t same;
	int state;

	if (boot->cpu_type != PERFCTR_X86_INTEL_ARCH || !perfctr_x86_pmu_responds(boot))
		goto generic;
	state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "x86/perfctr:pmu",
				  perfctr_x86_read_pmu_caps, NULL);
	if (state < 0)
		goto generic;
	model = perfctr_x86_hybrid_model(boot->ctr_write_msr != 0, &perfctr_x86_hybrid);
	if (!model) {
		cpuhp_remove_state_nocalls(state);
		goto generic;
	}
	if (!zalloc_cpumask_var(&same, GFP_KERNEL))
		return model;
	/* One line per kind of PMU. */
	for_each_online_cpu(cpu) {
		caps = perfctr_x86_pmu_caps_of(cpu);
		if (cpumask_test_cpu(cpu, same))
			continue;
		cpumask_clear(same);
		for_each_online_cpu(cpu2) {
			other = perfctr_x86_pmu_caps_of(cpu2);
			if (other->gp == caps->gp && other->fixed == caps->fixed &&
			    other->width == caps->width)
				cpumask_set_cpu(cpu2, same);
		}
		pr_info("hybrid CPU: CPUs %*pbl (%s cores): general counters %#x, fixed counters %#x, %u bits\n",
			cpumask_pr_args(same), get_topology_cpu_type_name(&cpu_data(cpu)),
			caps->gp, caps->fixed, caps->width);
	}
	free_cpumask_var(same);
	return model;
generic:
	pr_info("hybrid CPU whose PMUs are not architectural perfmon v2+ or did not respond (%s): using the generic TSC-only model\n",
		boot->name);
	return NULL;
}

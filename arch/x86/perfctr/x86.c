// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 low-level driver.
 *
 * The CPU model is chosen once at init; the model-specific operations are
 * then reached through static calls, so on x86 (HAVE_STATIC_CALL_INLINE)
 * every call site is rewritten to call the model's function directly.
 * That is what the original driver's hand-made call-site backpatching and
 * its P6 "finalise backpatching" step did; text_poke_bp() makes it safe
 * on SMP, which the finalise step had to arrange by hand.
 *
 * Models: the generic one (the TSC alone: tsc_on = 1, no PMCs), and the
 * families of low-level-x86.txt with accumulation-mode counters:
 *  - the P6 family and its descendants: Intel P6, AMD K7/K8, Intel
 *    architectural perfmon, AMD family 15h+ core counters;
 *  - the P5 family: Intel P5 and P5MMX, Cyrix 6x86MX/MII/III, Centaur
 *    WinChip C6/2/3 (two counters controlled by one CESR);
 *  - VIA C3 (PERFCTR1 only);
 *  - Intel Pentium 4 (CCCRs and ESCRs, replay tagging).
 * Every model is exercised on a simulated PMU by the KUnit suite
 * (x86_kunit.c).  perfctr_cpu_init() detects the model from CPUID but does
 * not select it yet (perfctr reserves the PMU at the first state, not at
 * the first control with PMCs): every CPU runs the generic model.  A PMU
 * that does not respond (virtual machines, QEMU TCG) is never trusted.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpufeature.h>
#include <linux/cpuhotplug.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/mm_types.h>
#include <linux/mmap_lock.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/perfctr.h>
#include <linux/processor.h>
#include <linux/smp.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/topology.h>

#include <asm/cpuid/api.h>
#include <asm/mmu_context.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/tlbflush.h>
#include <asm/tsc.h>

#include <kunit/static_stub.h>

#include "x86.h"

const char *perfctr_cpu_name = "generic x86 with TSC";
static unsigned int perfctr_cpu_type = PERFCTR_X86_GENERIC;
static const struct perfctr_x86_model *perfctr_x86_boot;
static unsigned int perfctr_cpu_features;

/* Unique ids for validated controls (the per-CPU control cache key). */
static atomic_t perfctr_control_id = ATOMIC_INIT(0);

/*
 * Model-specific operations.  The TSC part of suspend/resume/sample is
 * common to every model and done here; the models handle the PMCs.
 */
/* Pentium 4 control data, which only a P4 model may accept. */
static bool has_p4_fields(const struct perfctr_cpu_control *cc)
{
	unsigned int i;

	for (i = 0; i < PERFCTR_NRCTRS; i++)
		if (cc->p4.escr[i])
			return true;
	return cc->p4.pebs_enable || cc->p4.pebs_matrix_vert;
}

static int generic_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_cpu_control *cc = &state->control;

	/* Only the TSC: no PMCs, nothing of the P4. */
	if (cc->nractrs || cc->nrictrs || has_p4_fields(cc))
		return -EINVAL;
	return 0;
}

static void generic_suspend_pmcs(struct perfctr_cpu_state *state) { }
static void generic_resume_pmcs(struct perfctr_cpu_state *state) { }
static void generic_write_control(const struct perfctr_cpu_state *state) { }

DEFINE_STATIC_CALL(perfctr_x86_check_control, generic_check_control);
DEFINE_STATIC_CALL(perfctr_x86_suspend_pmcs, generic_suspend_pmcs);
DEFINE_STATIC_CALL(perfctr_x86_resume_pmcs, generic_resume_pmcs);
/* Loads a state's control registers: called by the RDPMC-based resume. */
DEFINE_STATIC_CALL(perfctr_x86_write_control, generic_write_control);

/*
 * Interrupt-mode counters need the overflow interrupt: the P6 family and
 * the P4 with a local APIC and CONFIG_PERFCTR_INTERRUPT_SUPPORT
 * (perfctr_x86_pcint, set with the model).  perfctr_x86_no_lapic lets the
 * KUnit suite play a CPU without a local APIC.
 */
static bool perfctr_x86_pcint;
static bool perfctr_x86_no_lapic;

void perfctr_x86_set_no_lapic(bool on)
{
	perfctr_x86_no_lapic = on;
}

/* Counter width of the P6-family model in use, as a mask; CPUID's at boot. */
static u64 perfctr_x86_width_mask = GENMASK_ULL(47, 0);

u64 perfctr_x86_ctr_mask(void)
{
	return perfctr_x86_width_mask;
}

/*
 * Hardware accessors.  The KUnit suite redirects them to a simulated PMU;
 * without KUnit the redirection compiles to nothing.
 */
#if IS_ENABLED(CONFIG_PERFCTR_X86_KUNIT_TEST)
/*
 * Not KUnit's static stubs: their lookup takes a spinlock_t, which the
 * switch path's interrupts-off sections may not take on PREEMPT_RT.
 */
struct perfctr_x86_test_hw perfctr_x86_test_hw;

/* The simulated PMU, for the test thread only; else NULL: the hardware. */
static __always_inline const struct perfctr_x86_test_hw *perfctr_x86_sim(void)
{
	return kunit_get_current_test() ? &perfctr_x86_test_hw : NULL;
}
#else
static __always_inline const struct perfctr_x86_test_hw *perfctr_x86_sim(void)
{
	return NULL;
}
#endif

void perfctr_x86_wrmsr(u32 msr, u64 val)
{
	const struct perfctr_x86_test_hw *sim = perfctr_x86_sim();

	if (unlikely(sim && sim->wrmsr)) {
		sim->wrmsr(msr, val);
		return;
	}
	native_write_msr(msr, val);
}

u64 perfctr_x86_rdmsr(u32 msr)
{
	const struct perfctr_x86_test_hw *sim = perfctr_x86_sim();

	if (unlikely(sim && sim->read_msr))
		return sim->read_msr(msr);
	return native_read_msr(msr);
}

u64 perfctr_x86_rdpmc(u32 map)
{
	const struct perfctr_x86_test_hw *sim = perfctr_x86_sim();

	if (unlikely(sim && sim->read_pmc))
		return sim->read_pmc(map);
	return native_read_pmc(map);
}

/*
 * Fold a counter's count since its start into its sum, at the width it is
 * read with (perfctr_x86_read_width()): a 48-bit counter may advance by
 * up to 2^48 between two folds, not 2^32, which a core retiring several
 * instructions a cycle passes in a fraction of a second.
 */
static __always_inline void perfctr_x86_fold(struct perfctr_pmc_state *pmc, u64 now)
{
	pmc->sum += perfctr_pmc_delta(now, pmc->start, pmc->width);
	pmc->start = now;
}

/*
 * The value to write to an i-mode counter for its start: the start
 * sign-extended from the width it is read with (32 for the P4's fast
 * RDPMC) and cut to the counter's own width (@mask).
 */
static u64 imode_counter_value(const struct perfctr_pmc_state *pmc, u64 mask)
{
	unsigned int shift = 64 - pmc->width;

	return (u64)((s64)(pmc->start << shift) >> shift) & mask;
}

/* Is @cpu a second (or later) hardware thread of its core? */
bool perfctr_x86_ht_sibling(unsigned int cpu)
{
	KUNIT_STATIC_STUB_REDIRECT(perfctr_x86_ht_sibling, cpu);
#ifdef CONFIG_SMP
	return cpu != cpumask_first(topology_sibling_cpumask(cpu));
#else
	return false;
#endif
}

/*
 * The P6 family and its descendants, one code path parametrised by the
 * model's data (struct perfctr_x86_model):
 *  - Intel P6 (low-level-x86.txt): the enable bit of EVNTSEL0 enables both
 *    counters and is reserved in EVNTSEL1;
 *  - AMD K7/K8: each event select has its own enable bit;
 *  - Intel architectural perfmon (CPUID 0xA): per-counter enable, fixed
 *    counters addressed as 0x40000000 + N in pmc_map with their 4-bit
 *    fields in IA32_FIXED_CTR_CTRL, and from version 2 the counters to
 *    run enabled in IA32_PERF_GLOBAL_CTRL;
 *  - AMD family 10h and later: 64-bit event selects (evntsel_high), the
 *    core counters at a stride of 2 MSRs, PerfMonV2's global control.
 * In every model bits 21 (AnyThread on Intel: counting the sibling
 * thread's events is not the owner's to see) and 19 (pin control) are
 * reserved, the INT bit is set exactly for i-mode counters, and at least
 * one of the USR and OS bits must be set.
 */
#define P6_EVNTSEL_ENABLE	BIT(22)
#define P6_EVNTSEL_INT		BIT(20)
#define P6_EVNTSEL_RESERVED	(BIT(21) | BIT(19))
#define P6_EVNTSEL_CPL		(BIT(17) | BIT(16))
#define P6_EVNTSEL_OS		BIT(17)

/* A fixed counter's 4-bit field: OS, USR, AnyThread, PMI. */
#define FIXED_OS		BIT(0)
#define FIXED_USR		BIT(1)
#define FIXED_ANY		BIT(2)
#define FIXED_PMI		BIT(3)
#define PMC_MAP_FIXED		0x40000000U

const struct perfctr_x86_model perfctr_x86_p6 = {
	.name		= "Intel P6",
	.cpu_type	= PERFCTR_X86_INTEL_P6,
	.nr_ctrs	= 2,
	.evntsel_msr	= MSR_P6_EVNTSEL0,
	.perfctr_msr	= MSR_P6_PERFCTR0,
	.evntsel_stride	= 1,
	.global_enable	= true,
	.ctr_width	= 40,
};

const struct perfctr_x86_model perfctr_x86_k7 = {
	.name		= "AMD K7/K8",
	.cpu_type	= PERFCTR_X86_AMD_K7,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_K7_EVNTSEL0,
	.perfctr_msr	= MSR_K7_PERFCTR0,
	.evntsel_stride	= 1,
	.ctr_width	= 48,
};

/*
 * Architectural perfmon v2+ with the fewest counters CPUID 0xA then gave
 * (4 general, 3 fixed, 48 bits): the KUnit suite's fixed example.  At
 * boot perfctr_x86_arch_model() describes the CPU's own counters.
 */
const struct perfctr_x86_model perfctr_x86_arch_v2 = {
	.name		= "Intel architectural perfmon v2+",
	.cpu_type	= PERFCTR_X86_INTEL_ARCH,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
	.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
	.evntsel_stride	= 1,
	.nr_fixed	= 3,
	.global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL,
	.ctr_width	= 48,
	.ovf_ctrl_msr	= MSR_CORE_PERF_GLOBAL_OVF_CTRL,
};

const struct perfctr_x86_model perfctr_x86_amd_core = {
	.name		= "AMD family 15h+ core counters",
	.cpu_type	= PERFCTR_X86_AMD_FAM15H,
	.nr_ctrs	= 6,
	.evntsel_msr	= MSR_F15H_PERF_CTL,
	.perfctr_msr	= MSR_F15H_PERF_CTR,
	.evntsel_stride	= 2,
	.high_allowed	= 0xf,		/* EventSelect[11:8] */
	.global_ctrl_msr = MSR_AMD64_PERF_CNTR_GLOBAL_CTL,
	.ctr_width	= 48,
	.ovf_ctrl_msr	= MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
};

/* The same before PerfMonV2 (Zen 3 and older): no global control or status. */
const struct perfctr_x86_model perfctr_x86_amd_core_v1 = {
	.name		= "AMD family 15h+ core counters",
	.cpu_type	= PERFCTR_X86_AMD_FAM15H,
	.nr_ctrs	= 6,
	.evntsel_msr	= MSR_F15H_PERF_CTL,
	.perfctr_msr	= MSR_F15H_PERF_CTR,
	.evntsel_stride	= 2,
	.high_allowed	= 0xf,		/* EventSelect[11:8] */
	.ctr_width	= 48,
};

/*
 * The P5 family (low-level-x86.txt, "Intel P5"): one CESR holds both
 * counters' 16-bit controls; evntsel[i] is the half of counter pmc_map[i].
 */
#define P5_CESR_MSR		0x11
#define P5_CTR0_MSR		0x12	/* and 0x13 */
#define P5_CESR_CPL		0x00c0
#define P5_CESR_CPL_OS		0x0040	/* CPL 0-2; 0x0080 is CPL 3 */

const struct perfctr_x86_model perfctr_x86_p5 = {
	.name		= "Intel P5",
	.cpu_type	= PERFCTR_X86_INTEL_P5,
	.family		= PERFCTR_X86_FAM_P5,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffe00,
	.cpl		= P5_CESR_CPL,
	.no_rdpmc	= true,
	.ctr_width	= 40,
};

const struct perfctr_x86_model perfctr_x86_p5mmx = {
	.name		= "Intel P5MMX",
	.cpu_type	= PERFCTR_X86_INTEL_P5MMX,
	.family		= PERFCTR_X86_FAM_P5,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffe00,
	.cpl		= P5_CESR_CPL,
	.ctr_width	= 40,
};

const struct perfctr_x86_model perfctr_x86_mii = {
	.name		= "Cyrix 6x86MX/MII/III",
	.cpu_type	= PERFCTR_X86_CYRIX_MII,
	.family		= PERFCTR_X86_FAM_P5,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffa00,	/* bit 10: the event code's bit 6 */
	.cpl		= P5_CESR_CPL,
};

const struct perfctr_x86_model perfctr_x86_winchip_c6 = {
	.name		= "WinChip C6",
	.cpu_type	= PERFCTR_X86_WINCHIP_C6,
	.family		= PERFCTR_X86_FAM_P5,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xffffff00,	/* no CPL bits */
	.no_tsc		= true,
};

const struct perfctr_x86_model perfctr_x86_winchip_2 = {
	.name		= "WinChip 2/3",
	.cpu_type	= PERFCTR_X86_WINCHIP_2,
	.family		= PERFCTR_X86_FAM_P5,
	.nr_ctrs	= 2,
	.evntsel_msr	= P5_CESR_MSR,
	.perfctr_msr	= P5_CTR0_MSR,
	.evntsel_stride	= 1,
	.reserved	= 0xffffff00,
	.no_tsc		= true,
};

/* VIA C3: PERFCTR0 is the TSC, only PERFCTR1/EVNTSEL1 are programmable. */
const struct perfctr_x86_model perfctr_x86_vc3 = {
	.name		= "VIA C3",
	.cpu_type	= PERFCTR_X86_VIA_C3,
	.family		= PERFCTR_X86_FAM_VC3,
	.nr_ctrs	= 2,
	.evntsel_msr	= MSR_P6_EVNTSEL0,
	.perfctr_msr	= MSR_P6_PERFCTR0,
	.evntsel_stride	= 1,
	.reserved	= 0xfffffe00,
};

/*
 * Pentium 4: 18 counters, each with a CCCR (evntsel[i]) and an ESCR chosen
 * by the CCCR's ESCR_SELECT (p4.escr[i]).  The PMU allocator arbitrates
 * the counters (0x300..) as perf_events' P4 driver does.
 */
#define P4_PERFCTR0_MSR		0x300
#define P4_CCCR0_MSR		0x360

const struct perfctr_x86_model perfctr_x86_p4 = {
	.name		= "Intel P4",
	.cpu_type	= PERFCTR_X86_INTEL_P4,
	.family		= PERFCTR_X86_FAM_P4,
	.nr_ctrs	= 18,
	.evntsel_msr	= P4_CCCR0_MSR,
	.perfctr_msr	= P4_PERFCTR0_MSR,
	.evntsel_stride	= 1,
	.p4_iq_escr	= true,
	.ctr_width	= 40,
};

const struct perfctr_x86_model perfctr_x86_p4m2 = {
	.name		= "Intel P4 model 2",
	.cpu_type	= PERFCTR_X86_INTEL_P4M2,
	.family		= PERFCTR_X86_FAM_P4,
	.nr_ctrs	= 18,
	.evntsel_msr	= P4_CCCR0_MSR,
	.perfctr_msr	= P4_PERFCTR0_MSR,
	.evntsel_stride	= 1,
	.p4_ext_cascade	= true,
	.p4_iq_escr	= true,
	.ctr_width	= 40,
};

const struct perfctr_x86_model perfctr_x86_p4m3 = {
	.name		= "Intel P4 model 3+",
	.cpu_type	= PERFCTR_X86_INTEL_P4M3,
	.family		= PERFCTR_X86_FAM_P4,
	.nr_ctrs	= 18,
	.evntsel_msr	= P4_CCCR0_MSR,
	.perfctr_msr	= P4_PERFCTR0_MSR,
	.evntsel_stride	= 1,
	.p4_ext_cascade	= true,
	.ctr_width	= 40,
};

static const struct perfctr_x86_model *perfctr_model;

/*
 * Intel architectural perfmon as CPUID leaf 0xA describes the boot CPU:
 * its general counters at their width, from version 2 its fixed counters
 * and the global control, and full-width counter writes (the IA32_A_PMCx
 * aliases) where IA32_PERF_CAPABILITIES advertises them.  Version 1 (Core
 * Solo/Duo) has an enable bit in each event select and neither fixed
 * counters nor a global control; it keeps the original's cpu_type for
 * those CPUs.  Filled in at boot (perfctr_x86_arch_model()).
 */
static struct perfctr_x86_model perfctr_x86_arch;

/**
 * perfctr_x86_arch_model - the architectural perfmon model of a CPU
 * @caps: its counters (perfctr_x86_parse_pmu_caps())
 * @version: CPUID 0xA's version
 * @full_width: IA32_PERF_CAPABILITIES.FW_WRITE is set
 *
 * Return: the model, or NULL for none (version 0, no general counter).
 */
const struct perfctr_x86_model *
perfctr_x86_arch_model(const struct perfctr_x86_pmu_caps *caps, unsigned int version,
		       bool full_width)
{
	struct perfctr_x86_model *m = &perfctr_x86_arch;

	if (!version || !caps->gp)
		return NULL;
	*m = (struct perfctr_x86_model) {
		.name		= "Intel architectural perfmon v1",
		.cpu_type	= PERFCTR_X86_INTEL_CORE,
		.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
		.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
		.evntsel_stride	= 1,
		.nr_ctrs	= fls(caps->gp),
		.gp_mask	= caps->gp,
		.ctr_width	= caps->width >= 32 && caps->width <= 64 ? caps->width : 40,
		.ctr_write_msr	= full_width ? MSR_IA32_PMC0 : 0,
	};
	if (version >= 2) {
		m->name = perfctr_x86_arch_v2.name;
		m->cpu_type = PERFCTR_X86_INTEL_ARCH;
		m->nr_fixed = fls(caps->fixed);
		m->fixed_mask = caps->fixed;
		m->global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL;
		m->ovf_ctrl_msr = MSR_CORE_PERF_GLOBAL_OVF_CTRL;
	}
	return m;
}

/*
 * Intel hybrid CPUs: the cores of each type have their own PMU, with the
 * architectural perfmon layout but not the same counters.  Each CPU's
 * counters are read on that CPU (perfctr_x86_cpu_pmu_caps); the model
 * offers the union of them all, and a control that names a counter some
 * CPUs lack is kept off those CPUs (perfctr_cpu_forbidden()).  The model
 * is filled in at boot from what the CPUs report.
 */
static struct perfctr_x86_model perfctr_x86_hybrid = {
	.name		= "Intel hybrid (architectural perfmon v2+)",
	.cpu_type	= PERFCTR_X86_INTEL_HYBRID,
	.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
	.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
	.evntsel_stride	= 1,
	.global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL,
	.ovf_ctrl_msr	= MSR_CORE_PERF_GLOBAL_OVF_CTRL,
};

/* What each CPU's PMU has (hybrid CPUs); all zero: not known yet. */
static DEFINE_PER_CPU(struct perfctr_x86_pmu_caps, perfctr_x86_cpu_pmu_caps);

/* The counters a control may name: bit N for PMC N, for fixed counter N. */
static u32 perfctr_x86_gp_avail, perfctr_x86_fixed_avail;

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
}

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
 * perfctr_x86_set_cpu_pmu_caps - say what a CPU's PMU has
 * @cpu: the CPU
 * @caps: its counters, or NULL for not known
 *
 * For the KUnit suite, which plays hybrid CPUs this way.
 */
void perfctr_x86_set_cpu_pmu_caps(unsigned int cpu, const struct perfctr_x86_pmu_caps *caps)
{
	struct perfctr_x86_pmu_caps *to = per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu);

	if (caps)
		*to = *caps;
	else
		memset(to, 0, sizeof(*to));
}

/**
 * perfctr_x86_get_cpu_pmu_caps - what a CPU's PMU has, as recorded
 * @cpu: the CPU
 * @caps: filled in (all zero: not known)
 */
void perfctr_x86_get_cpu_pmu_caps(unsigned int cpu, struct perfctr_x86_pmu_caps *caps)
{
	*caps = *per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu);
}

/**
 * perfctr_x86_hybrid_model - the hybrid model for the CPUs' PMUs
 * @full_width: IA32_PERF_CAPABILITIES.FW_WRITE is set
 *
 * Offers every counter some CPU has, sign-extended to the narrowest
 * width.  A CPU that comes online later is served with what it shares
 * with the union; one never seen is forbidden to every control with
 * counters.
 *
 * Return: the model, or NULL if no CPU reported counters.
 */
const struct perfctr_x86_model *perfctr_x86_hybrid_model(bool full_width)
{
	const struct perfctr_x86_pmu_caps *caps;
	unsigned int cpu, width = 64;
	u32 gp = 0, fixed = 0;

	for_each_possible_cpu(cpu) {
		caps = per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu);
		if (!caps->gp && !caps->fixed)
			continue;
		gp |= caps->gp;
		fixed |= caps->fixed;
		width = min_t(unsigned int, width, caps->width);
	}
	if (!gp && !fixed)
		return NULL;
	perfctr_x86_hybrid.nr_ctrs = fls(gp);
	perfctr_x86_hybrid.nr_fixed = fls(fixed);
	perfctr_x86_hybrid.ctr_width = clamp(width, 32U, 64U);
	perfctr_x86_hybrid.gp_mask = gp;
	perfctr_x86_hybrid.fixed_mask = fixed;
	perfctr_x86_hybrid.ctr_write_msr = full_width ? MSR_IA32_PMC0 : 0;
	return &perfctr_x86_hybrid;
}

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
	if (perfctr_model != &perfctr_x86_hybrid)
		return;
	for (i = 0; i < nrctrs; i++) {
		if (cc->pmc_map[i] >= PMC_MAP_FIXED)
			fixed |= BIT(cc->pmc_map[i] - PMC_MAP_FIXED);
		else
			gp |= BIT(cc->pmc_map[i]);
	}
	for_each_possible_cpu(cpu) {
		caps = per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu);
		if (gp & ~caps->gp || fixed & ~caps->fixed)
			cpumask_set_cpu(cpu, mask);
	}
}

/* The general counters this CPU has: the hybrid model's CPUs differ. */
static u32 perfctr_x86_gp_here(void)
{
	if (perfctr_model == &perfctr_x86_hybrid)
		return this_cpu_read(perfctr_x86_cpu_pmu_caps.gp);
	return perfctr_x86_gp_avail;
}

/*
 * Per-CPU cache of the control registers (Implementation Notes): the id
 * of the control last loaded on this CPU and each register's value, so
 * that a resume writes no MSR when nothing changed.
 */
static DEFINE_PER_CPU(struct perfctr_x86_cache, perfctr_x86_cache);

struct perfctr_x86_cache *perfctr_x86_this_cache(void)
{
	return this_cpu_ptr(&perfctr_x86_cache);
}

/* A fixed counter's field: OS and/or USR; PMI exactly for i-mode ones. */
static int p6_check_fixed(const struct perfctr_x86_model *m,
			  const struct perfctr_cpu_control *cc, unsigned int i,
			  bool imode, u64 *mask)
{
	unsigned int n = cc->pmc_map[i] - PMC_MAP_FIXED;
	u32 field = cc->evntsel[i];

	if (n >= 32 || !(perfctr_x86_fixed_avail & BIT(n)) || *mask & BIT_ULL(32 + n))
		return -EINVAL;
	*mask |= BIT_ULL(32 + n);
	if (field & ~(u32)(FIXED_OS | FIXED_USR | FIXED_PMI) || cc->evntsel_high[i])
		return -EINVAL;
	if (!(field & FIXED_PMI) != !imode)
		return -EINVAL;
	return field & (FIXED_OS | FIXED_USR) ? 0 : -EINVAL;
}

static int p6_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, nrctrs = cc->nractrs + cc->nrictrs;
	u64 mask = 0;
	u32 evntsel;
	bool enabled, imode;
	int err;

	if (cc->nrictrs && !perfctr_x86_pcint)
		return -EINVAL;		/* no overflow interrupt */
	if (nrctrs > m->nr_ctrs + m->nr_fixed)
		return -EINVAL;
	for (i = 0; i < nrctrs; i++) {
		imode = i >= cc->nractrs;
		/* Counting up, an i-mode counter overflows when it passes 0. */
		if (imode && cc->ireset[i] >= 0)
			return -EINVAL;
		if (cc->pmc_map[i] >= PMC_MAP_FIXED) {
			err = p6_check_fixed(m, cc, i, imode, &mask);
			if (err)
				return err;
			continue;
		}
		if (cc->pmc_map[i] >= 32 || !(perfctr_x86_gp_avail & BIT(cc->pmc_map[i])) ||
		    mask & BIT_ULL(cc->pmc_map[i]))
			return -EINVAL;
		mask |= BIT_ULL(cc->pmc_map[i]);
		evntsel = cc->evntsel[i];
		if (evntsel & P6_EVNTSEL_RESERVED || cc->evntsel_high[i] & ~m->high_allowed)
			return -EINVAL;
		if (!(evntsel & P6_EVNTSEL_CPL))
			return -EINVAL;
		if (!(evntsel & P6_EVNTSEL_INT) != !imode)
			return -EINVAL;
		/* P6: enable set in EVNTSEL0 only; others: in every one. */
		enabled = evntsel & P6_EVNTSEL_ENABLE;
		if (m->global_enable ? enabled != !cc->pmc_map[i] : !enabled)
			return -EINVAL;
	}
	/* On the P6, PERFCTR1 counts only with EVNTSEL0's enable set. */
	if (m->global_enable && mask == BIT(1))
		return -EINVAL;
	return has_p4_fields(cc) ? -EINVAL : 0;
}

/* Load @state's control registers, writing only those that differ. */
static void p6_write_control(const struct perfctr_cpu_state *state)
{
	const struct perfctr_x86_model *m = perfctr_model;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, nrctrs = cc->nractrs + cc->nrictrs;
	u64 want[PERFCTR_NRCTRS] = {}, fixed = 0, global = 0;
	u32 here;

	if (cache->id == state->k1.id)
		return;
	cache->iid = 0;		/* the counters are reprogrammed */
	for (i = 0; i < nrctrs; i++) {
		pmc = cc->pmc_map[i];
		if (pmc >= PMC_MAP_FIXED) {
			fixed |= (u64)cc->evntsel[i] << (4 * (pmc - PMC_MAP_FIXED));
			global |= BIT_ULL(32 + pmc - PMC_MAP_FIXED);
		} else {
			want[pmc] = cc->evntsel[i] | (u64)cc->evntsel_high[i] << 32;
			global |= BIT_ULL(pmc);
		}
	}
	/* Stop what must stop before reprogramming, start it after. */
	if (m->global_ctrl_msr && cache->global != global && cache->global & ~global) {
		cache->global &= global;
		perfctr_x86_wrmsr(m->global_ctrl_msr, cache->global);
	}
	here = perfctr_x86_gp_here();
	for (pmc = 0; pmc < m->nr_ctrs; pmc++) {
		if (cache->evntsel[pmc] == want[pmc] || !(here & BIT(pmc)))
			continue;
		cache->evntsel[pmc] = want[pmc];
		perfctr_x86_wrmsr(m->evntsel_msr + pmc * m->evntsel_stride, want[pmc]);
	}
	if (m->nr_fixed && cache->fixed_ctrl != fixed) {
		cache->fixed_ctrl = fixed;
		perfctr_x86_wrmsr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed);
	}
	if (m->global_ctrl_msr && cache->global != global) {
		cache->global = global;
		perfctr_x86_wrmsr(m->global_ctrl_msr, global);
	}
	cache->id = state->k1.id;
}

/*
 * P6-family i-mode counters (low-level-x86.txt, "Implementation Notes").
 * They are stopped at every suspend -- their event select (or fixed
 * counter field) cleared in the hardware and in the per-CPU cache, so
 * that they count nothing and cannot interrupt another thread -- and the
 * per-CPU cache's id is cleared so that the next resume rewrites the event
 * selects.  The suspend records the CPU in the state (k1.isuspend_cpu)
 * and the state in the CPU (iid): while both hold, the counters still
 * hold the state's i-mode counts and a resume need not write them; else
 * the resume writes each counter its start value, sign-extended, with its
 * event select stopped.
 */
static u32 p6_ctr_msr(const struct perfctr_x86_model *m, unsigned int pmc)
{
	if (pmc >= PMC_MAP_FIXED)
		return MSR_CORE_PERF_FIXED_CTR0 + pmc - PMC_MAP_FIXED;
	return (m->ctr_write_msr ?: m->perfctr_msr) + pmc * m->evntsel_stride;
}

/* The counter's bit in the global control and overflow status MSRs. */
static u64 p6_global_bit(unsigned int pmc)
{
	return pmc >= PMC_MAP_FIXED ? BIT_ULL(32 + pmc - PMC_MAP_FIXED) : BIT_ULL(pmc);
}

/* Stop the i-mode counters of @state on this CPU. */
static void p6_istop(const struct perfctr_cpu_state *state, struct perfctr_x86_cache *cache)
{
	const struct perfctr_x86_model *m = perfctr_model;
	unsigned int i, pmc, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u64 fixed = cache->fixed_ctrl;

	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		pmc = state->pmc[i].map;
		if (pmc >= PMC_MAP_FIXED) {
			fixed &= ~(0xfULL << (4 * (pmc - PMC_MAP_FIXED)));
		} else if (cache->evntsel[pmc]) {
			cache->evntsel[pmc] = 0;
			perfctr_x86_wrmsr(m->evntsel_msr + pmc * m->evntsel_stride, 0);
		}
	}
	if (fixed != cache->fixed_ctrl) {
		cache->fixed_ctrl = fixed;
		perfctr_x86_wrmsr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed);
	}
	cache->id = 0;
}

/* A family's way to stop a state's i-mode counters on this CPU. */
typedef void (*perfctr_x86_istop_t)(const struct perfctr_cpu_state *state,
				    struct perfctr_x86_cache *cache);

static void imode_suspend(struct perfctr_cpu_state *state, perfctr_x86_istop_t istop)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	istop(state, cache);
	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++)
		perfctr_x86_fold(&state->pmc[i], perfctr_x86_rdpmc(state->pmc[i].map));
	state->k1.isuspend_cpu = smp_processor_id();
	cache->iid = state->k1.id;
}

/* @map_mask: the bits of pmc_map[] that address the counter. */
static void imode_resume(struct perfctr_cpu_state *state, perfctr_x86_istop_t istop,
			 u32 map_mask)
{
	const struct perfctr_x86_model *m = perfctr_model;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	bool held = state->k1.isuspend_cpu == smp_processor_id() &&
		    cache->iid == state->k1.id;

	cache->iid = 0;
	if (held)
		return;
	/* No premature events or interrupts: stopped, then loaded. */
	istop(state, cache);
	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++)
		perfctr_x86_wrmsr(p6_ctr_msr(m, state->pmc[i].map & map_mask),
				  imode_counter_value(&state->pmc[i], perfctr_x86_width_mask));
}

static void p6_isuspend(struct perfctr_cpu_state *state)
{
	imode_suspend(state, p6_istop);
}

static void p6_iresume(struct perfctr_cpu_state *state)
{
	imode_resume(state, p6_istop, ~0U);
}

/* Without i-mode counters (the other families). */
static void none_isuspend(struct perfctr_cpu_state *state) { }
static void none_iresume(struct perfctr_cpu_state *state) { }

DEFINE_STATIC_CALL(perfctr_x86_isuspend, none_isuspend);
DEFINE_STATIC_CALL(perfctr_x86_iresume, none_iresume);

/*
 * Every model with RDPMC: fold the a-mode counters' periods into the sums,
 * then the i-mode counters' (stopping them).
 */
static void rdpmc_suspend_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	for (i = 0; i < nrctrs; i++)
		perfctr_x86_fold(&state->pmc[i], perfctr_x86_rdpmc(state->pmc[i].map));
	if (perfctr_cstatus_has_ictrs(state->cstatus))
		static_call(perfctr_x86_isuspend)(state);
}

/*
 * ... and start a period: the i-mode counters' values, the model's control
 * registers, then the a-mode counters' starts.
 */
static void rdpmc_resume_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	if (perfctr_cstatus_has_ictrs(state->cstatus))
		static_call(perfctr_x86_iresume)(state);
	static_call(perfctr_x86_write_control)(state);
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].start = perfctr_x86_rdpmc(state->pmc[i].map);
}

/*
 * The P5 family.  Each evntsel is a 16-bit half of the CESR, the half of
 * counter pmc_map[i] (0 or 1); its reserved bits are the model's (P5
 * 0xFE00, Cyrix 0xFA00, WinChip 0xFF00, and all of bits 16-31), and one
 * CPL bit (0x00C0) must be set except on the WinChip, which has none.
 * The WinChip's TSC is synthesised from the counters and breaks when the
 * CESR is reprogrammed: tsc_on is refused there.  No local APIC, so no
 * i-mode counters.
 */
static int p5_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, mask = 0;

	if (cc->nrictrs || cc->nractrs > m->nr_ctrs)
		return -EINVAL;
	if (m->no_tsc && cc->tsc_on)
		return -EINVAL;
	for (i = 0; i < cc->nractrs; i++) {
		pmc = cc->pmc_map[i];
		if (pmc >= m->nr_ctrs || mask & BIT(pmc))
			return -EINVAL;
		mask |= BIT(pmc);
		if (cc->evntsel[i] & m->reserved || cc->evntsel_high[i])
			return -EINVAL;
		if (m->cpl && !(cc->evntsel[i] & m->cpl))
			return -EINVAL;
	}
	return has_p4_fields(cc) ? -EINVAL : 0;
}

/* Both halves into one CESR; an unused counter's half is 0 (stopped). */
static void p5_write_control(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i;
	u32 cesr = 0;

	if (cache->id == state->k1.id)
		return;
	for (i = 0; i < cc->nractrs; i++)
		cesr |= cc->evntsel[i] << (16 * cc->pmc_map[i]);
	if (cache->cesr != cesr) {
		cache->cesr = cesr;
		perfctr_x86_wrmsr(P5_CESR_MSR, cesr);
	}
	cache->id = state->k1.id;
}

/* The P5 before MMX has no RDPMC: its counters are read as MSRs. */
static void p5_suspend_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	for (i = 0; i < nrctrs; i++)
		perfctr_x86_fold(&state->pmc[i],
				 perfctr_x86_rdmsr(P5_CTR0_MSR + state->pmc[i].map));
}

static void p5_resume_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	p5_write_control(state);
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].start = perfctr_x86_rdmsr(P5_CTR0_MSR + state->pmc[i].map);
}

/*
 * VIA C3: at most one counter, PERFCTR1 (pmc_map[0] == 1); evntsel bits
 * 0xFFFFFE00 are reserved and there are no enable or CPL bits.  The
 * counter cannot be stopped: EVNTSEL1 keeps its last event.
 */
static int vc3_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_model;
	const struct perfctr_cpu_control *cc = &state->control;

	if (cc->nrictrs || cc->nractrs > 1)
		return -EINVAL;
	if (cc->nractrs == 1 &&
	    (cc->pmc_map[0] != 1 || cc->evntsel[0] & m->reserved || cc->evntsel_high[0]))
		return -EINVAL;
	return has_p4_fields(cc) ? -EINVAL : 0;
}

static void vc3_write_control(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	u32 evntsel = state->control.evntsel[0];

	if (cache->id == state->k1.id)
		return;
	if (cache->evntsel[1] != evntsel) {
		cache->evntsel[1] = evntsel;
		perfctr_x86_wrmsr(MSR_P6_EVNTSEL0 + 1, evntsel);
	}
	cache->id = state->k1.id;
}

/*
 * Pentium 4 (low-level-x86.txt, "Intel P4").  pmc_map[i] is what RDPMC
 * takes: the counter number, with bit 31 (fast RDPMC) allowed.
 */
#define P4_FAST_RDPMC		BIT(31)
#define P4_CCCR_OVF		BIT(31)
#define P4_CCCR_CASCADE		BIT(30)
#define P4_CCCR_OVF_PMI_T1	BIT(27)
#define P4_CCCR_OVF_PMI_T0	BIT(26)
#define P4_CCCR_FORCE_OVF	BIT(25)
#define P4_CCCR_ACTIVE_THREAD	(BIT(17) | BIT(16))
#define P4_CCCR_ESCR_SELECT(x)	(((x) >> 13) & 7)
#define P4_CCCR_ENABLE		BIT(12)
#define P4_CCCR_EXT_CASCADE	BIT(11)
/* OVF, OVF_PMI_T1 and the hardware-reserved bits. */
#define P4_CCCR_RESERVED	0xb80007ffU
/*
 * The ESCR's top bit (the seed's "bit 32", counting from 1: an ESCR value
 * here has 32 bits) and the other thread's CPL field.
 */
#define P4_ESCR_RESERVED	BIT(31)
#define P4_ESCR_CPL_T1		(BIT(1) | BIT(0))
#define P4_ESCR_OS		(BIT(3) | BIT(1))	/* T0_OS, T1_OS */
/* Replay tagging: UOP_TAG and the tag bits, nothing of PEBS proper. */
#define P4_PE_UOP_TAG		BIT(24)
#define P4_PE_REPLAY_TAG_BITS	0x00000607U
#define P4_PMV_REPLAY_TAG_BITS	0x00000003U

/*
 * Table 15-4 of the IA-32 manual maps (counter, ESCR_SELECT) to an ESCR in
 * a regular way: counters 16 and 17 map like 13 and 14, the counters come
 * in pairs with one map, and the second pair of each two has the first's
 * map + 1 (except that pair 7 lacks select 3).  So four rows of 0x3?? MSR
 * offsets suffice, as in the original driver; 0 is "no such ESCR".
 */
static const u8 p4_escr_rows[4][8] = {
	{ [7] = 0xa0, [6] = 0xa2, [2] = 0xaa, [4] = 0xac,	/* 0-3 */
	  [0] = 0xb2, [1] = 0xb4, [3] = 0xb6, [5] = 0xc8 },
	{ [0] = 0xc0, [2] = 0xc2, [1] = 0xc4 },			/* 4-7 */
	{ [1] = 0xa4, [0] = 0xa6, [5] = 0xa8, [2] = 0xae,	/* 8-11 */
	  [3] = 0xb0 },
	{ [4] = 0xb8, [5] = 0xcc, [6] = 0xe0, [0] = 0xba,	/* 12-17 */
	  [2] = 0xbc, [3] = 0xbe, [1] = 0xca },
};

static unsigned int p4_escr_compute(unsigned int pmc, unsigned int select)
{
	unsigned int pair, offset;

	if (pmc >= 18)
		return 0;
	if (pmc >= 16)
		pmc -= 3;
	pair = pmc / 2;
	offset = p4_escr_rows[pair / 2][select];
	if (!offset || (pair == 7 && select == 3))
		return 0;
	return 0x300 + offset + (pair & 1);
}

/* The full 18x8 map, computed once when a P4 model is chosen. */
static u16 p4_escr_map[18][8];

static void p4_escr_map_init(void)
{
	unsigned int pmc, select;

	for (pmc = 0; pmc < 18; pmc++)
		for (select = 0; select < 8; select++)
			p4_escr_map[pmc][select] = p4_escr_compute(pmc, select);
}

/**
 * perfctr_x86_p4_escr_msr - the ESCR a P4 counter uses
 * @pmc: counter number (0-17)
 * @cccr: its CCCR value (only ESCR_SELECT matters)
 *
 * Return: the ESCR's MSR number, or 0 if the counter has no such ESCR.
 */
unsigned int perfctr_x86_p4_escr_msr(unsigned int pmc, u32 cccr)
{
	return pmc < 18 ? p4_escr_map[pmc][P4_CCCR_ESCR_SELECT(cccr)] : 0;
}

/* Hyper-threaded P4: both threads share the counters. */
static bool p4_is_ht;

void perfctr_x86_set_p4_ht(bool ht)
{
	p4_is_ht = ht;
}

static int p4_check_counter(const struct perfctr_x86_model *m,
			    const struct perfctr_cpu_control *cc, unsigned int i,
			    int is_global, unsigned int pmc)
{
	u32 cccr = cc->evntsel[i], escr = cc->p4.escr[i];
	unsigned int escr_msr;

	if (cccr & P4_CCCR_RESERVED || cc->evntsel_high[i])
		return -EINVAL;
	if (cccr & P4_CCCR_EXT_CASCADE &&
	    (!m->p4_ext_cascade || !(pmc == 12 || pmc >= 15)))
		return -EINVAL;
	if (!p4_is_ht && (cccr & P4_CCCR_ACTIVE_THREAD) != P4_CCCR_ACTIVE_THREAD)
		return -EINVAL;
	if (!(cccr & (P4_CCCR_ENABLE | P4_CCCR_CASCADE | P4_CCCR_EXT_CASCADE)))
		return -EINVAL;
	if (i < cc->nractrs) {
		if (cccr & P4_CCCR_OVF_PMI_T0)
			return -EINVAL;
	} else {
		if (!(cccr & P4_CCCR_OVF_PMI_T0) || cc->ireset[i] >= 0)
			return -EINVAL;
		if (cccr & P4_CCCR_FORCE_OVF && cc->ireset[i] != -1)
			return -EINVAL;
	}
	escr_msr = perfctr_x86_p4_escr_msr(pmc, cccr);
	if (!escr_msr)
		return -EINVAL;
	if (!m->p4_iq_escr && (escr_msr == MSR_P4_IQ_ESCR0 || escr_msr == MSR_P4_IQ_ESCR1))
		return -EINVAL;
	if (escr & P4_ESCR_RESERVED)
		return -EINVAL;
	if (escr & P4_ESCR_CPL_T1 && !(p4_is_ht && is_global))
		return -EINVAL;
	return 0;
}

static int p4_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, nrctrs = cc->nractrs + cc->nrictrs;
	u32 pe = cc->p4.pebs_enable, pmv = cc->p4.pebs_matrix_vert;
	u32 mask = 0;
	int err;

	if (nrctrs > m->nr_ctrs)
		return -EINVAL;
	for (i = 0; i < nrctrs; i++) {
		pmc = cc->pmc_map[i] & ~P4_FAST_RDPMC;
		if (pmc >= m->nr_ctrs || mask & BIT(pmc))
			return -EINVAL;
		mask |= BIT(pmc);
		err = p4_check_counter(m, cc, i, is_global, pmc);
		if (err)
			return err;
	}
	for (; i < PERFCTR_NRCTRS; i++)		/* no ESCR for unused counters */
		if (cc->p4.escr[i])
			return -EINVAL;
	/* Replay tagging; PEBS itself (ENABLE_PEBS_MY_THR, bit 25) is not. */
	if (pe) {
		if (!nrctrs || pe & ~(P4_PE_UOP_TAG | P4_PE_REPLAY_TAG_BITS))
			return -EINVAL;
		if (!(pe & P4_PE_UOP_TAG) || !(pe & P4_PE_REPLAY_TAG_BITS))
			return -EINVAL;
		if (pmv & ~P4_PMV_REPLAY_TAG_BITS || !(pmv & P4_PMV_REPLAY_TAG_BITS))
			return -EINVAL;
	} else if (pmv) {
		return -EINVAL;
	}
	if (cc->nrictrs && !perfctr_x86_pcint)
		return -EINVAL;		/* no overflow interrupt */
	return 0;
}

/*
 * Load a P4 control: stop the counters it does not use, then the ESCRs,
 * the CCCRs and the replay-tagging MSRs that differ from what this CPU
 * holds.
 */
static void p4_write_control(const struct perfctr_cpu_state *state)
{
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, escr, nrctrs = cc->nractrs + cc->nrictrs;
	u32 cccr[18] = {};

	if (cache->id == state->k1.id)
		return;
	for (i = 0; i < nrctrs; i++)
		cccr[cc->pmc_map[i] & ~P4_FAST_RDPMC] = cc->evntsel[i];
	for (pmc = 0; pmc < 18; pmc++) {
		if (cccr[pmc] || !cache->evntsel[pmc])
			continue;
		cache->evntsel[pmc] = 0;
		perfctr_x86_wrmsr(P4_CCCR0_MSR + pmc, 0);
	}
	for (i = 0; i < nrctrs; i++) {
		pmc = cc->pmc_map[i] & ~P4_FAST_RDPMC;
		escr = perfctr_x86_p4_escr_msr(pmc, cc->evntsel[i]) - PERFCTR_P4_ESCR0;
		if (cache->escr[escr] == cc->p4.escr[i])
			continue;
		cache->escr[escr] = cc->p4.escr[i];
		perfctr_x86_wrmsr(PERFCTR_P4_ESCR0 + escr, cc->p4.escr[i]);
	}
	for (pmc = 0; pmc < 18; pmc++) {
		if (!cccr[pmc] || cache->evntsel[pmc] == cccr[pmc])
			continue;
		cache->evntsel[pmc] = cccr[pmc];
		perfctr_x86_wrmsr(P4_CCCR0_MSR + pmc, cccr[pmc]);
	}
	if (cache->pebs_enable != cc->p4.pebs_enable) {
		cache->pebs_enable = cc->p4.pebs_enable;
		perfctr_x86_wrmsr(PERFCTR_P4_PEBS_ENABLE, cc->p4.pebs_enable);
	}
	if (cache->pebs_matrix_vert != cc->p4.pebs_matrix_vert) {
		cache->pebs_matrix_vert = cc->p4.pebs_matrix_vert;
		perfctr_x86_wrmsr(PERFCTR_P4_PEBS_MATRIX_VERT, cc->p4.pebs_matrix_vert);
	}
	cache->id = state->k1.id;
}

/*
 * P4 i-mode counters (OVF_PMI_T0 set in their CCCR): stopped at every
 * suspend by clearing the CCCR, which also clears its sticky OVF flag,
 * and reloaded at resume as in the P6 family (imode_suspend/resume): the
 * counters are 40 bits wide and overflow when they pass 0.
 */
static void p4_istop(const struct perfctr_cpu_state *state, struct perfctr_x86_cache *cache)
{
	unsigned int i, pmc, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		pmc = state->pmc[i].map & ~P4_FAST_RDPMC;
		if (!cache->evntsel[pmc])
			continue;
		cache->evntsel[pmc] = 0;
		perfctr_x86_wrmsr(P4_CCCR0_MSR + pmc, 0);
	}
	cache->id = 0;
}

static void p4_isuspend(struct perfctr_cpu_state *state)
{
	imode_suspend(state, p4_istop);
}

static void p4_iresume(struct perfctr_cpu_state *state)
{
	imode_resume(state, p4_istop, ~(u32)P4_FAST_RDPMC);
}

static inline u64 perfctr_read_tsc(void)
{
	return rdtsc_ordered();
}

/**
 * perfctr_cpu_update_control - validate a new control and install it
 * @state: state whose @state->control was just set by the caller
 * @is_global: non-zero for global-mode counters (only P4 cares)
 *
 * Must not be called while @state has running i-mode counters.
 *
 * Return: 0, or -EINVAL when the control is invalid for this CPU; then
 * @state is left as it was apart from @state->control.
 */
int perfctr_cpu_update_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i;
	u32 id;
	int err;

	err = perfctr_cpu_check_common(cc);
	if (err)
		return err;
	/* As pmc_map/evntsel/ireset: nothing beyond the control's counters. */
	for (i = cc->nractrs + cc->nrictrs; i < PERFCTR_NRCTRS; i++)
		if (cc->evntsel_high[i])
			return -EINVAL;
	err = static_call(perfctr_x86_check_control)(state, is_global);
	if (err)
		return err;
	do {
		id = atomic_inc_return(&perfctr_control_id);
	} while (!id);
	perfctr_cpu_init_state(state, id, perfctr_model && perfctr_model->ctr_width ?
			       perfctr_model->ctr_width : 32);
	for (i = 0; i < cc->nractrs + cc->nrictrs; i++)
		if (perfctr_model && perfctr_model->family == PERFCTR_X86_FAM_P4 &&
		    cc->pmc_map[i] & P4_FAST_RDPMC)
			state->pmc[i].width = 32;	/* fast RDPMC: the low half */
	return 0;
}

/**
 * perfctr_cpu_counts_kernel - does a control count events of kernel mode?
 * @state: a state whose control perfctr_cpu_update_control() accepted
 *
 * The privilege bits of each model: the P6 family's OS bit (bit 17) and
 * a fixed counter's OS field, the P5 family's CPL 0-2 bit (0x40), the
 * P4's T0_OS/T1_OS in the ESCR.  The WinChip and the VIA C3 cannot tell
 * privilege levels apart: their counters always count kernel mode too.
 *
 * Return: true if some counter of @state counts in kernel mode.
 */
bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state)
{
	const struct perfctr_x86_model *m = perfctr_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u32 os;

	for (i = 0; i < nrctrs; i++) {
		switch (m->family) {
		case PERFCTR_X86_FAM_P6:
			os = cc->pmc_map[i] >= PMC_MAP_FIXED ? FIXED_OS : P6_EVNTSEL_OS;
			if (cc->evntsel[i] & os)
				return true;
			break;
		case PERFCTR_X86_FAM_P5:
			if (!m->cpl || cc->evntsel[i] & P5_CESR_CPL_OS)
				return true;
			break;
		case PERFCTR_X86_FAM_P4:
			if (cc->p4.escr[i] & P4_ESCR_OS)
				return true;
			break;
		default:
			return true;
		}
	}
	return false;
}

/**
 * perfctr_cpu_suspend - stop counting and fold the period into the sums
 * @state: the running state; interrupts off
 */
void perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_x86_suspend_pmcs)(state);
	perfctr_tsc_suspend(state, perfctr_read_tsc);
}

/**
 * perfctr_cpu_resume - start a counting period
 * @state: the suspended state; interrupts off
 */
void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_x86_resume_pmcs)(state);
	perfctr_tsc_resume(state, perfctr_read_tsc);
}

/**
 * perfctr_cpu_sample - fold the counts so far into the sums, keep counting
 * @state: the running state; interrupts off
 */
void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus)) {
		static_call(perfctr_x86_suspend_pmcs)(state);
		static_call(perfctr_x86_resume_pmcs)(state);
	}
	perfctr_tsc_sample(state, perfctr_read_tsc);
}

/**
 * perfctr_cpu_set_ihandler - install the overflow interrupt handler
 * @handler: called in IRQ context from LOCAL_PERFCTR_VECTOR
 *
 * The P6-family models with a local APIC program overflow interrupts
 * (PERFCTR_FEATURE_PCINT); elsewhere only a self-IPI reaches it.
 */
void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
	perfctr_x86_set_ihandler(handler);
#endif
}

/**
 * perfctr_cpu_identify_overflow - find and re-arm overflown i-mode counters
 * @state: the suspended state
 *
 * An x86 counter overflows when it passes 0, counting up from its
 * negative ireset: an i-mode counter whose value at the suspend is not
 * negative (as 32 bits) has overflowed.  Its start becomes its ireset
 * again (written by the next resume after perfctr_cpu_ireload()), and
 * its overflow status bit, where the model has one, is cleared.
 *
 * Return: bit mask of the overflown counters, bit i for counter i in
 * control order.
 */
unsigned int perfctr_cpu_identify_overflow(struct perfctr_cpu_state *state)
{
	const struct perfctr_x86_model *m = perfctr_model;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned int mask = 0;
	u64 status = 0;

	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		if ((s32)state->pmc[i].start < 0)
			continue;
		state->pmc[i].start = state->control.ireset[i];
		mask |= BIT(i);
		status |= p6_global_bit(state->pmc[i].map);
	}
	if (mask && m && m->family == PERFCTR_X86_FAM_P6 && m->ovf_ctrl_msr)
		perfctr_x86_wrmsr(m->ovf_ctrl_msr, status);
	return mask;
}

/**
 * perfctr_cpu_ireload - force the i-mode counters to be reloaded on resume
 * @state: the suspended state
 */
void perfctr_cpu_ireload(struct perfctr_cpu_state *state)
{
	state->k1.isuspend_cpu = -1;
}

/*
 * Hardware reservation: one high-level service at a time, and never at
 * the same time as perf_events.  With a PMC model the counters are taken
 * from the kernel's PMU allocator (reserve_perfctr_nmi() and
 * reserve_evntsel_nmi()), which perf_events' reserve_pmc_hardware() uses
 * too: whoever comes first holds the PMU, the other gets -EBUSY.
 */
static DEFINE_MUTEX(perfctr_reserve_mutex);
static const char *perfctr_current_service;
static const struct perfctr_x86_model *perfctr_reserved_model;

#define PERFCTR_PERF_HOLDS \
	"perf_events (hardware events, or the NMI watchdog: see /proc/sys/kernel/nmi_watchdog)"
#define PERFCTR_KVM_HOLDS \
	"KVM (guests with a mediated vPMU: stop them, or load kvm with enable_mediated_pmu=0)"

/*
 * The allocator knows the P6-family and P4 counters.  perf_events has no
 * driver for the P5 family, whose MSRs the allocator would all map to its
 * bit 0: there is nothing to arbitrate with.
 */
static bool perfctr_x86_uses_allocator(const struct perfctr_x86_model *m)
{
	return m->family != PERFCTR_X86_FAM_P5;
}

static void perfctr_x86_give_pmu(const struct perfctr_x86_model *m, unsigned int n)
{
	unsigned int i;

	if (!perfctr_x86_uses_allocator(m))
		return;
	for (i = 0; i < n; i++) {
		release_evntsel_nmi(m->evntsel_msr + i * m->evntsel_stride);
		release_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride);
	}
}

static bool perfctr_x86_take_pmu(const struct perfctr_x86_model *m)
{
	unsigned int i;

	if (!perfctr_x86_uses_allocator(m))
		return true;
	for (i = 0; i < m->nr_ctrs; i++) {
		if (!reserve_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride))
			goto fail;
		if (!reserve_evntsel_nmi(m->evntsel_msr + i * m->evntsel_stride)) {
			release_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride);
			goto fail;
		}
	}
	return true;
fail:
	perfctr_x86_give_pmu(m, i);
	return false;
}

/*
 * Does another user hold the PMU now?  Read from the PMU allocator's
 * ownership bits and KVM's mediated-vPMU count: nothing is taken, so
 * asking never denies the PMU to perf_events, as a trial reservation
 * would for as long as it lasted.  perfctr's own reservation is not
 * "another user": its states share it.
 */
static bool perfctr_x86_pmu_busy(void)
{
	const struct perfctr_x86_model *m = perfctr_model;
	unsigned int i;

	if (!m || READ_ONCE(perfctr_current_service))
		return false;
	if (perf_mediated_pmu_in_use())
		return true;
	if (!perfctr_x86_uses_allocator(m))
		return false;
	for (i = 0; i < m->nr_ctrs; i++)
		if (perfctr_nmi_reserved(m->perfctr_msr + i * m->evntsel_stride))
			return true;
	return false;
}

/**
 * perfctr_cpu_rdpmc_get - let user space in @mm read the counters
 * @mm: the mm of a thread whose state has programmable counters
 *
 * RDPMC at CPL 3 needs CR4.PCE.  It follows the mm, as for perf_events'
 * mapped events (x86_pmu_event_mapped()): one count in
 * mm->context.perf_rdpmc_allowed per state, which every mm switch reads
 * (switch_mm_irqs_off() calls cr4_update_pce_mm() for the next mm), so
 * the permission is right after a context switch, after exec's
 * exec_mmap() (the exec hook moves the count to the new mm before the
 * program's first instruction), after use_temporary_mm(), and when perf's
 * "rdpmc" sysfs knob re-applies it on every CPU.  The first count is
 * propagated at once to the CPUs running @mm, under mmap_lock as perf
 * does, so that no thread of @mm returns to user space with CR4.PCE
 * still clear.  With the knob at 0 CR4.PCE stays clear and
 * perfctr_info() no longer lists PERFCTR_FEATURE_RDPMC.
 *
 * Return: true if counted (balance with perfctr_cpu_rdpmc_put()); false
 * on a model without RDPMC.
 */
bool perfctr_cpu_rdpmc_get(struct mm_struct *mm)
{
	if (!(perfctr_cpu_features & PERFCTR_FEATURE_RDPMC))
		return false;
	mmap_write_lock(mm);
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
	mmap_write_unlock(mm);
	return true;
}

/**
 * perfctr_cpu_rdpmc_put - drop a count perfctr_cpu_rdpmc_get() took
 * @mm: its mm
 */
void perfctr_cpu_rdpmc_put(struct mm_struct *mm)
{
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/*
 * perf_events marks the counters its deleted events used "dirty" and
 * zeroes them when a CPU switches to an mm that may RDPMC
 * (perf_clear_dirty_counters()).  perfctr's threads' mms may RDPMC too:
 * bits perf left set when perfctr took the PMU would zero perfctr's
 * running counters in the middle of a period.  Clear them at take; perf
 * schedules no hardware event while perfctr holds the PMU, so none
 * comes back.
 */
static void perfctr_x86_clear_perf_dirty(void *unused)
{
	perf_clear_dirty_counters();
}

/**
 * perfctr_cpu_reserve - reserve the counters for a high-level service
 * @service: name of the service
 *
 * Return: NULL on success, else the name of what holds them: another
 * service, or perf_events.
 */
const char *perfctr_cpu_reserve(const char *service)
{
	const char *ret = NULL;
	unsigned int cpu;

	mutex_lock(&perfctr_reserve_mutex);
	if (perfctr_current_service) {
		ret = perfctr_current_service;
	} else if (perfctr_model && perf_mediated_pmu_block(service)) {
		/*
		 * A guest's mediated vPMU loads its own counters and LVTPC
		 * at every VM entry: no PMC control is safe while one runs.
		 */
		ret = PERFCTR_KVM_HOLDS;
	} else if (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && perfctr_model &&
		   !perfctr_x86_take_pmu(perfctr_model)) {
		perf_mediated_pmu_unblock();
		ret = PERFCTR_PERF_HOLDS;
	} else {
		/*
		 * perf_events may have programmed the PMU since perfctr last
		 * held it: every cached register value is unknown (all ones
		 * matches no control), so the first resume writes them all.
		 */
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(&perfctr_x86_cache, cpu), 0xff,
			       sizeof(struct perfctr_x86_cache));
		on_each_cpu(perfctr_x86_clear_perf_dirty, NULL, 1);
		perfctr_current_service = service;
		perfctr_reserved_model = perfctr_model;
		if (perfctr_x86_pcint)
			perfctr_x86_lvtpc_take();
	}
	mutex_unlock(&perfctr_reserve_mutex);
	return ret;
}

/*
 * Stop what perfctr may have left counting on this CPU before the PMU goes
 * back: a-mode event selects stay enabled across suspends (the control
 * cache spares the rewrite), and perf_events would inherit them running.
 * Every event select, fixed-counter field, P4 CCCR or P5 CESR of the model
 * that this CPU's cache does not know to be stopped is cleared, and the
 * cache forgets everything.  The VIA C3's counter cannot be stopped.
 */
static void perfctr_x86_quiesce_cpu(void *info)
{
	const struct perfctr_x86_model *m = info;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	unsigned int i;

	switch (m->family) {
	case PERFCTR_X86_FAM_P6:
		for (i = 0; i < m->nr_ctrs; i++)
			if (cache->evntsel[i] && perfctr_x86_gp_here() & BIT(i))
				perfctr_x86_wrmsr(m->evntsel_msr + i * m->evntsel_stride, 0);
		if (m->nr_fixed && cache->fixed_ctrl)
			perfctr_x86_wrmsr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, 0);
		break;
	case PERFCTR_X86_FAM_P5:
		if (cache->cesr)
			perfctr_x86_wrmsr(P5_CESR_MSR, 0);
		break;
	case PERFCTR_X86_FAM_P4:
		for (i = 0; i < m->nr_ctrs; i++)
			perfctr_x86_wrmsr(P4_CCCR0_MSR + i, 0);
		break;
	default:
		break;
	}
	memset(cache, 0xff, sizeof(*cache));
}

/**
 * perfctr_cpu_release - release the counters reserved by @service
 * @service: the name passed to perfctr_cpu_reserve()
 */
void perfctr_cpu_release(const char *service)
{
	mutex_lock(&perfctr_reserve_mutex);
	if (WARN_ON(perfctr_current_service != service)) {
		pr_err("%s releases counters held by %s\n", service,
		       perfctr_current_service ?: "nobody");
	} else {
		if (perfctr_x86_lvtpc_held())
			perfctr_x86_lvtpc_give();
		if (perfctr_reserved_model)
			on_each_cpu(perfctr_x86_quiesce_cpu, (void *)perfctr_reserved_model, 1);
		if (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && perfctr_reserved_model)
			perfctr_x86_give_pmu(perfctr_reserved_model,
					     perfctr_reserved_model->nr_ctrs);
		if (perfctr_reserved_model)
			perf_mediated_pmu_unblock();
		perfctr_current_service = NULL;
		perfctr_reserved_model = NULL;
	}
	mutex_unlock(&perfctr_reserve_mutex);
}

/* Write @msr with @bits flipped and read it back, restoring it: safely. */
static bool __init perfctr_msr_responds(u32 msr, u64 bits)
{
	u64 old, val;

	if (rdmsrq_safe(msr, &old))
		return false;
	if (wrmsrq_safe(msr, old ^ bits) || rdmsrq_safe(msr, &val)) {
		wrmsrq_safe(msr, old);
		return false;
	}
	wrmsrq_safe(msr, old);
	return val == (old ^ bits);
}

/*
 * Does the PMU count?  perf_events probed the P6-family and P4 PMUs at
 * boot (write, read back), and knows; without perf_events, and for the
 * families it has no driver for, probe a control register the same way
 * with the exception-safe accessors -- never the WinChip's CESR, whose
 * rewriting breaks its TSC: there only a read, which must find it set up.
 */
static bool __init perfctr_pmu_responds(const struct perfctr_x86_model *model)
{
	struct x86_pmu_capability cap;
	u64 val;

	if (model && model->family == PERFCTR_X86_FAM_P5) {
		/*
		 * The WinChip's CESR synthesises its TSC, so it is set up (not
		 * zero) on a real one; QEMU TCG reads it as 0 without a fault.
		 */
		if (model->no_tsc)
			return !rdmsrq_safe(P5_CESR_MSR, &val) && val;
		/* Event bits of counter 0, CPL untouched: it counts no more. */
		return perfctr_msr_responds(P5_CESR_MSR, 0x1a);
	}
	if (model && model->family == PERFCTR_X86_FAM_VC3)
		return perfctr_msr_responds(MSR_P6_EVNTSEL0 + 1, 0x5a);
	if (IS_ENABLED(CONFIG_PERF_EVENTS)) {
		if (boot_cpu_has(X86_FEATURE_HYBRID_CPU))
			return true;
		perf_get_x86_pmu_capability(&cap);
		return cap.num_counters_gp > 0;
	}
	if (model && model->family == PERFCTR_X86_FAM_P4) {
		/* "Performance monitoring available", then an ESCR_SELECT. */
		if (rdmsrq_safe(MSR_IA32_MISC_ENABLE, &val) ||
		    !(val & MSR_IA32_MISC_ENABLE_EMON))
			return false;
		return perfctr_msr_responds(P4_CCCR0_MSR, 0x2000);
	}
	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
	    boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
		return perfctr_msr_responds(MSR_K7_EVNTSEL0, 0x5a);
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL && boot_cpu_data.x86 >= 6)
		/* An unused event select, disabled: counts nothing. */
		return perfctr_msr_responds(MSR_P6_EVNTSEL0, 0x5a);
	return false;
}

/**
 * perfctr_x86_detect - the model of a CPU, from its CPUID identity
 * @vendor: X86_VENDOR_*
 * @family: CPUID family
 * @model: CPUID model
 * @mmx: the CPU has MMX
 *
 * Only the families of low-level-x86.txt other than the P6 family yet.
 *
 * Return: the model, or NULL for none.
 */
const struct perfctr_x86_model *
perfctr_x86_detect(unsigned int vendor, unsigned int family, unsigned int model, bool mmx)
{
	switch (vendor) {
	case X86_VENDOR_INTEL:
		if (family == 5)
			return mmx ? &perfctr_x86_p5mmx : &perfctr_x86_p5;
		if (family == 15)
			return model <= 1 ? &perfctr_x86_p4 :
			       model == 2 ? &perfctr_x86_p4m2 : &perfctr_x86_p4m3;
		break;
	case X86_VENDOR_CYRIX:
		if (family == 6)	/* 6x86MX, MII, III */
			return &perfctr_x86_mii;
		break;
	case X86_VENDOR_CENTAUR:
		if (family == 5 && model == 4)
			return &perfctr_x86_winchip_c6;
		if (family == 5 && (model == 8 || model == 9))	/* WinChip 2, 3 */
			return &perfctr_x86_winchip_2;
		if (family == 6 && model >= 6 && model <= 9)	/* Cyrix III, C3 */
			return &perfctr_x86_vc3;
		break;
	}
	return NULL;
}

/*
 * AMD PerfMonV2 as CPUID 0x80000022 describes the boot CPU: the core
 * counters of perfctr_x86_amd_core, NumPerfCtrCore (EBX[3:0]) of them.
 */
static struct perfctr_x86_model perfctr_x86_amd_v2;

/**
 * perfctr_x86_detect_cpu - the model of a CPU, by its features
 * @c: what CPUID (and IA32_PERF_CAPABILITIES) say of it
 *
 * perfctr_x86_detect()'s families first (P5, P4, Cyrix, Centaur), then by
 * feature whatever the family: Intel's architectural perfmon (leaf 0xA,
 * any version: family 6, 18, 19 or later alike), else the P6 itself in
 * family 6; AMD's (and Hygon's) core counters (PERFCTR_CORE), as many as
 * CPUID 0x80000022 gives with PerfMonV2 (which also brings the global
 * control), else the six of family 15h; else the K7's four.
 *
 * Return: the model, or NULL for none (the generic TSC-only model).
 */
const struct perfctr_x86_model *perfctr_x86_detect_cpu(const struct perfctr_x86_cpuid *c)
{
	const struct perfctr_x86_model *model;
	struct perfctr_x86_pmu_caps caps;
	union cpuid10_eax eax = { .full = c->eax10 };
	unsigned int nr;

	model = perfctr_x86_detect(c->vendor, c->family, c->model, c->mmx);
	if (model)
		return model;
	switch (c->vendor) {
	case X86_VENDOR_INTEL:
		if (c->arch_perfmon) {
			perfctr_x86_parse_pmu_caps(&caps, c->eax10, c->ecx10, c->edx10,
						   c->ext, c->gp23, c->fixed23);
			model = perfctr_x86_arch_model(&caps, eax.split.version_id,
						       c->fw_writes);
			if (model)
				return model;
		}
		return c->family == 6 ? &perfctr_x86_p6 : NULL;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		if (!c->perfctr_core)
			return c->family >= 6 ? &perfctr_x86_k7 : NULL;
		if (!c->perfmon_v2)
			return &perfctr_x86_amd_core_v1;
		nr = c->ebx_80000022 & 0xf;	/* NumPerfCtrCore */
		if (!nr)
			return &perfctr_x86_amd_core;
		perfctr_x86_amd_v2 = perfctr_x86_amd_core;
		perfctr_x86_amd_v2.nr_ctrs = min(nr, PERFCTR_NRCTRS);
		return &perfctr_x86_amd_v2;
	}
	return NULL;
}

static const struct perfctr_x86_model * __init perfctr_x86_detect_boot_cpu(void)
{
	struct perfctr_x86_cpuid c = {
		.vendor		= boot_cpu_data.x86_vendor,
		.family		= boot_cpu_data.x86,
		.model		= boot_cpu_data.x86_model,
		.mmx		= boot_cpu_has(X86_FEATURE_MMX),
		.arch_perfmon	= boot_cpu_has(X86_FEATURE_ARCH_PERFMON),
		.perfctr_core	= boot_cpu_has(X86_FEATURE_PERFCTR_CORE),
		.perfmon_v2	= boot_cpu_has(X86_FEATURE_PERFMON_V2),
	};
	union cpuid35_eax eax35 = {};
	unsigned int ebx, unused;
	u64 perf_cap;

	if (c.arch_perfmon)
		cpuid(10, &c.eax10, &ebx, &c.ecx10, &c.edx10);
	if (boot_cpu_has(X86_FEATURE_ARCH_PERFMON_EXT))
		cpuid(ARCH_PERFMON_EXT_LEAF, &eax35.full, &unused, &unused, &unused);
	if (eax35.split.cntr_subleaf) {
		c.ext = true;
		cpuid_count(ARCH_PERFMON_EXT_LEAF, ARCH_PERFMON_NUM_COUNTER_LEAF,
			    &c.gp23, &c.fixed23, &unused, &unused);
	}
	c.fw_writes = boot_cpu_has(X86_FEATURE_PDCM) &&
		      !rdmsrq_safe(MSR_IA32_PERF_CAPABILITIES, &perf_cap) &&
		      perf_cap & PERF_CAP_FW_WRITES;
	if (c.perfmon_v2)
		c.ebx_80000022 = cpuid_ebx(0x80000022);
	return perfctr_x86_detect_cpu(&c);
}

/**
 * perfctr_x86_boot_model - the model chosen at boot
 *
 * Return: the model perfctr_cpu_init() selected, or NULL for the generic
 * one.  The KUnit suite restores it after each case.
 */
const struct perfctr_x86_model *perfctr_x86_boot_model(void)
{
	return perfctr_x86_boot;
}

/* Point the static calls (on x86: every call site) at a family's code. */
static void perfctr_x86_set_ops(int (*check)(struct perfctr_cpu_state *, int),
				void (*suspend)(struct perfctr_cpu_state *),
				void (*resume)(struct perfctr_cpu_state *),
				void (*write)(const struct perfctr_cpu_state *))
{
	static_call_update(perfctr_x86_check_control, check);
	static_call_update(perfctr_x86_suspend_pmcs, suspend);
	static_call_update(perfctr_x86_resume_pmcs, resume);
	static_call_update(perfctr_x86_write_control, write);
	static_call_update(perfctr_x86_isuspend, none_isuspend);
	static_call_update(perfctr_x86_iresume, none_iresume);
}

/*
 * On a hyper-threaded P4 only thread 0 of each core may use the counters
 * (low-level-x86.txt, "Kernel-internal API"): the others are forbidden.
 */
static void perfctr_x86_set_forbidden(const struct perfctr_x86_model *model)
{
	unsigned int cpu;

	cpumask_clear(&perfctr_cpus_forbidden_mask);
	if (!model || model->family != PERFCTR_X86_FAM_P4 || !p4_is_ht)
		return;
	for_each_possible_cpu(cpu)
		if (perfctr_x86_ht_sibling(cpu))
			cpumask_set_cpu(cpu, &perfctr_cpus_forbidden_mask);
}

/* The overflow interrupt (i-mode counters) needs the local APIC. */
static void perfctr_x86_set_pcint(void)
{
	perfctr_x86_pcint = IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) &&
			    boot_cpu_has(X86_FEATURE_APIC) && !perfctr_x86_no_lapic;
	if (perfctr_x86_pcint)
		perfctr_cpu_features |= PERFCTR_FEATURE_PCINT;
}

/**
 * perfctr_x86_use_model - run @model's operations from now on
 * @model: a model, or NULL for the generic one
 *
 * Updates the static calls (and so, on x86, every call site) and the
 * reported CPU type, features and forbidden CPUs.  May sleep.  Used at
 * init and by the KUnit suite; no state may be running counters meanwhile.
 */
void perfctr_x86_use_model(const struct perfctr_x86_model *model)
{
	unsigned int cpu;

	perfctr_model = model;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&perfctr_x86_cache, cpu), 0,
		       sizeof(struct perfctr_x86_cache));
	perfctr_x86_set_forbidden(model);
	perfctr_x86_pcint = false;
	if (!model) {
		perfctr_cpu_name = "generic x86 with TSC";
		perfctr_cpu_type = PERFCTR_X86_GENERIC;
		perfctr_cpu_features = PERFCTR_FEATURE_RDTSC;
		perfctr_x86_set_ops(generic_check_control, generic_suspend_pmcs,
				    generic_resume_pmcs, generic_write_control);
		return;
	}
	perfctr_cpu_name = model->name;
	perfctr_cpu_type = model->cpu_type;
	perfctr_cpu_features = (model->no_tsc ? 0 : PERFCTR_FEATURE_RDTSC) |
			       (model->no_rdpmc ? 0 : PERFCTR_FEATURE_RDPMC);
	switch (model->family) {
	case PERFCTR_X86_FAM_P6:
		perfctr_x86_gp_avail = model->gp_mask ?: (u32)GENMASK(model->nr_ctrs - 1, 0);
		perfctr_x86_fixed_avail = model->fixed_mask ?:
			(model->nr_fixed ? (u32)GENMASK(model->nr_fixed - 1, 0) : 0);
		perfctr_x86_set_ops(p6_check_control, rdpmc_suspend_pmcs,
				    rdpmc_resume_pmcs, p6_write_control);
		static_call_update(perfctr_x86_isuspend, p6_isuspend);
		static_call_update(perfctr_x86_iresume, p6_iresume);
		perfctr_x86_width_mask = GENMASK_ULL(model->ctr_width - 1, 0);
		perfctr_x86_set_pcint();
		break;
	case PERFCTR_X86_FAM_P5:
		if (model->no_rdpmc)
			perfctr_x86_set_ops(p5_check_control, p5_suspend_pmcs,
					    p5_resume_pmcs, p5_write_control);
		else
			perfctr_x86_set_ops(p5_check_control, rdpmc_suspend_pmcs,
					    rdpmc_resume_pmcs, p5_write_control);
		break;
	case PERFCTR_X86_FAM_VC3:
		perfctr_x86_set_ops(vc3_check_control, rdpmc_suspend_pmcs,
				    rdpmc_resume_pmcs, vc3_write_control);
		break;
	case PERFCTR_X86_FAM_P4:
		p4_escr_map_init();
		perfctr_x86_set_ops(p4_check_control, rdpmc_suspend_pmcs,
				    rdpmc_resume_pmcs, p4_write_control);
		static_call_update(perfctr_x86_isuspend, p4_isuspend);
		static_call_update(perfctr_x86_iresume, p4_iresume);
		perfctr_x86_width_mask = GENMASK_ULL(39, 0);
		perfctr_x86_set_pcint();
		break;
	}
}

/**
 * perfctr_x86_get_ops - the functions the static calls now point to
 * @ops: filled in
 *
 * For the KUnit suite, to check that the call sites follow the model.
 */
void perfctr_x86_get_ops(struct perfctr_x86_ops *ops)
{
	ops->check = static_call_query(perfctr_x86_check_control);
	ops->suspend = static_call_query(perfctr_x86_suspend_pmcs);
	ops->resume = static_call_query(perfctr_x86_resume_pmcs);
	ops->write_control = static_call_query(perfctr_x86_write_control);
}

/*
 * A hybrid CPU: read each CPU's PMU, there and on every CPU that comes
 * online later, and serve them all with the hybrid model.
 */
static const struct perfctr_x86_model * __init
perfctr_x86_hybrid_boot(const struct perfctr_x86_model *boot)
{
	const struct perfctr_x86_pmu_caps *caps, *other;
	const struct perfctr_x86_model *model;
	unsigned int cpu, cpu2;
	cpumask_var_t same;
	int state;

	if (boot->cpu_type != PERFCTR_X86_INTEL_ARCH || !perfctr_pmu_responds(boot))
		goto generic;
	state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "x86/perfctr:pmu",
				  perfctr_x86_read_pmu_caps, NULL);
	if (state < 0)
		goto generic;
	model = perfctr_x86_hybrid_model(boot->ctr_write_msr != 0);
	if (!model) {
		cpuhp_remove_state_nocalls(state);
		goto generic;
	}
	if (!zalloc_cpumask_var(&same, GFP_KERNEL))
		return model;
	/* One line per kind of PMU. */
	for_each_online_cpu(cpu) {
		caps = per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu);
		if (cpumask_test_cpu(cpu, same))
			continue;
		cpumask_clear(same);
		for_each_online_cpu(cpu2) {
			other = per_cpu_ptr(&perfctr_x86_cpu_pmu_caps, cpu2);
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

/**
 * perfctr_cpu_init - detect the CPU and choose its model
 *
 * Return: 0, or -ENODEV without a usable TSC.
 */
int __init perfctr_cpu_init(void)
{
	const struct perfctr_x86_model *model;

	if (!boot_cpu_has(X86_FEATURE_TSC))
		return -ENODEV;

	model = perfctr_x86_detect_boot_cpu();
	if (model && boot_cpu_has(X86_FEATURE_HYBRID_CPU)) {
		model = perfctr_x86_hybrid_boot(model);
	} else if (!perfctr_pmu_responds(model)) {
		pr_info("PMU not available (absent or not responding, as in most virtual machines): using the generic TSC-only model%s%s\n",
			model ? " instead of " : "", model ? model->name : "");
		model = NULL;
	} else if (!model) {
		pr_info("no perfctr model for this PMU (vendor %u family %u model %u) yet: using the generic TSC-only model\n",
			boot_cpu_data.x86_vendor, boot_cpu_data.x86,
			boot_cpu_data.x86_model);
	}
	p4_is_ht = model && model->family == PERFCTR_X86_FAM_P4 &&
		   topology_max_smt_threads() > 1;

	perfctr_x86_boot = model;
	perfctr_x86_use_model(model);
	return 0;
}

/**
 * perfctr_cpu_exit - undo perfctr_cpu_init()
 */
void perfctr_cpu_exit(void) { }

/**
 * perfctr_cpu_fill_info - fill the CPU part of struct perfctr_info
 * @info: filled in
 */
void perfctr_cpu_fill_info(struct perfctr_info *info)
{
	info->cpu_type = perfctr_cpu_type;
	info->cpu_features = perfctr_cpu_features;
	/* perf's "rdpmc" sysfs knob at 0: no user RDPMC, for perfctr too. */
	if (static_branch_unlikely(&rdpmc_never_available_key))
		info->cpu_features &= ~PERFCTR_FEATURE_RDPMC;
	info->cpu_khz = tsc_khz ? tsc_khz : cpu_khz;
	/*
	 * 1: the TSC counts the core's cycles -- unless it runs at a constant
	 * rate whatever the core's clock does (CONSTANT_TSC: every CPU since
	 * the Core 2 and the K10), when the ratio is unknown and said so.
	 */
	info->tsc_to_cpu_mult = 1;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		info->cpu_features |= PERFCTR_FEATURE_TSC_CONSTANT;
	if (perfctr_x86_pmu_busy())
		info->cpu_features |= PERFCTR_FEATURE_PMU_BUSY;
}

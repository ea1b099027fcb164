// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr x86 driver: the P6 family and its descendants -- Intel P6, AMD
 * K7/K8, Intel architectural perfmon (also the hybrid CPUs' model,
 * hybrid.c), AMD family 15h+ core counters -- one code path parametrised
 * by the model's data.
 */
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/perfctr.h>
#include <linux/smp.h>

#include <asm/msr.h>
#include <asm/perf_event.h>

#include "x86.h"

/*
 * The P6 family and its descendants, one code path parametrised by the
 * model's data (struct perfctr_x86_model):
 *  - Intel P6 (Documentation/arch/x86/perfctr.rst): the enable bit of
 *    EVNTSEL0 enables both counters and is reserved in EVNTSEL1;
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
#define PMC_MAP_FIXED		PERFCTR_X86_PMC_MAP_FIXED

const struct perfctr_x86_model perfctr_x86_p6 = {
	.name		= "Intel P6",
	.cpu_type	= PERFCTR_X86_INTEL_P6,
	.ops		= &perfctr_x86_p6_ops,
	.nr_ctrs	= 2,
	.evntsel_msr	= MSR_P6_EVNTSEL0,
	.perfctr_msr	= MSR_P6_PERFCTR0,
	.evntsel_stride	= 1,
	.global_enable	= true,
	.ctr_width	= 40,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p6);

const struct perfctr_x86_model perfctr_x86_k7 = {
	.name		= "AMD K7/K8",
	.cpu_type	= PERFCTR_X86_AMD_K7,
	.ops		= &perfctr_x86_p6_ops,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_K7_EVNTSEL0,
	.perfctr_msr	= MSR_K7_PERFCTR0,
	.evntsel_stride	= 1,
	.ctr_width	= 48,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_k7);

/* Families 10h-16h without the core counters: the K7's, EventSelect[11:8] too. */
const struct perfctr_x86_model perfctr_x86_fam10h = {
	.name		= "AMD family 10h",
	.cpu_type	= PERFCTR_X86_AMD_FAM10H,
	.ops		= &perfctr_x86_p6_ops,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_K7_EVNTSEL0,
	.perfctr_msr	= MSR_K7_PERFCTR0,
	.evntsel_stride	= 1,
	.high_allowed	= 0xf,		/* EventSelect[11:8] */
	.ctr_width	= 48,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_fam10h);

const struct perfctr_x86_model perfctr_x86_amd_core = {
	.name		= "AMD family 15h+ core counters",
	.cpu_type	= PERFCTR_X86_AMD_FAM15H,
	.ops		= &perfctr_x86_p6_ops,
	.nr_ctrs	= 6,
	.evntsel_msr	= MSR_F15H_PERF_CTL,
	.perfctr_msr	= MSR_F15H_PERF_CTR,
	.evntsel_stride	= 2,
	.high_allowed	= 0xf,		/* EventSelect[11:8] */
	.global_ctrl_msr = MSR_AMD64_PERF_CNTR_GLOBAL_CTL,
	.ctr_width	= 48,
	.ovf_ctrl_msr	= MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_amd_core);

/* The same before PerfMonV2 (Zen 3 and older): no global control or status. */
const struct perfctr_x86_model perfctr_x86_amd_core_v1 = {
	.name		= "AMD family 15h+ core counters",
	.cpu_type	= PERFCTR_X86_AMD_FAM15H,
	.ops		= &perfctr_x86_p6_ops,
	.nr_ctrs	= 6,
	.evntsel_msr	= MSR_F15H_PERF_CTL,
	.perfctr_msr	= MSR_F15H_PERF_CTR,
	.evntsel_stride	= 2,
	.high_allowed	= 0xf,		/* EventSelect[11:8] */
	.ctr_width	= 48,
};

/* The counters a control may name: bit N for PMC N, for fixed counter N. */
static u32 perfctr_x86_gp_avail, perfctr_x86_fixed_avail;

/* The general counters this CPU has: the hybrid model's CPUs differ. */
u32 perfctr_x86_gp_here(void)
{
	if (perfctr_x86_is_hybrid(perfctr_x86_cur_model))
		return perfctr_x86_hybrid_gp_here();
	return perfctr_x86_gp_avail;
}

/**
 * perfctr_x86_arch_model - the architectural perfmon model of a CPU
 * @caps: its counters (perfctr_x86_parse_pmu_caps())
 * @version: CPUID 0xA's version
 * @full_width: IA32_PERF_CAPABILITIES.FW_WRITE is set
 * @m: filled in with the model
 *
 * Intel architectural perfmon as CPUID leaf 0xA describes a CPU: its
 * general counters at their width, from version 2 its fixed counters and
 * the global control, and full-width counter writes (the IA32_A_PMCx
 * aliases) where IA32_PERF_CAPABILITIES advertises them.  Version 1 (Core
 * Solo/Duo) has an enable bit in each event select and neither fixed
 * counters nor a global control; it keeps the original's cpu_type for
 * those CPUs.
 *
 * Return: @m, or NULL for none (version 0, no general counter).
 */
const struct perfctr_x86_model *
perfctr_x86_arch_model(const struct perfctr_x86_pmu_caps *caps, unsigned int version,
		       bool full_width, struct perfctr_x86_model *m)
{
	if (!version || !caps->gp)
		return NULL;
	*m = (struct perfctr_x86_model) {
		.name		= "Intel architectural perfmon v1",
		.cpu_type	= PERFCTR_X86_INTEL_CORE,
		.ops		= &perfctr_x86_p6_ops,
		.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
		.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
		.evntsel_stride	= 1,
		.nr_ctrs	= fls(caps->gp),
		.gp_mask	= caps->gp,
		.ctr_width	= caps->width >= 32 && caps->width <= 64 ? caps->width : 40,
		.ctr_write_msr	= full_width ? MSR_IA32_PMC0 : 0,
	};
	if (version >= 2) {
		m->name = "Intel architectural perfmon v2+";
		m->cpu_type = PERFCTR_X86_INTEL_ARCH;
		m->nr_fixed = fls(caps->fixed);
		m->fixed_mask = caps->fixed;
		/* Not necessarily the general counters' width (CPUID 0xA EDX[12:5]). */
		m->fixed_width = caps->fixed_width >= 32 && caps->fixed_width <= 64 ?
				 caps->fixed_width : m->ctr_width;
		m->global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL;
		m->ovf_ctrl_msr = MSR_CORE_PERF_GLOBAL_OVF_CTRL;
	}
	return m;
}
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_arch_model);

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

/*
 * Can @pmc count the event of @config on every CPU the control may run
 * on?  perf's constraints say (perfctr_x86_event_counters()): on a hybrid
 * CPU those of each core type whose PMU has the counter.  Without a perf
 * PMU nothing is known and the event is accepted, as before perf knew.
 */
static int p6_check_event(u64 config, unsigned int pmc)
{
	unsigned int cpus[PERFCTR_X86_MAX_TYPES], i, n = 1;
	u64 cntrs;
	int err;

	if (perfctr_x86_is_hybrid(perfctr_x86_cur_model))
		n = perfctr_x86_hybrid_type_cpus(pmc, cpus);
	else
		cpus[0] = raw_smp_processor_id();
	for (i = 0; i < n; i++) {
		err = perfctr_x86_event_counters(config, cpus[i], &cntrs);
		if (err == -ENODEV)
			continue;
		if (err)
			return err;
		if (!(cntrs & BIT_ULL(pmc)))
			return -EINVAL;
	}
	return 0;
}

/*
 * Each general counter's event where perf would let it count: refused
 * with -EINVAL on a counter that cannot count it, with -EOPNOTSUPP when
 * it needs an extra register, a counter pair or the sibling thread's
 * counter idle (none of which perfctr programs).  A fixed counter counts
 * its one architectural event.
 */
static int p6_check_events(const struct perfctr_cpu_control *cc)
{
	unsigned int i, nrctrs = cc->nractrs + cc->nrictrs;
	u64 config;
	int err;

	for (i = 0; i < nrctrs; i++) {
		if (cc->pmc_map[i] >= PMC_MAP_FIXED)
			continue;
		config = (cc->evntsel[i] & ~(P6_EVNTSEL_ENABLE | P6_EVNTSEL_INT)) |
			 (u64)cc->evntsel_high[i] << 32;
		err = p6_check_event(config, cc->pmc_map[i]);
		if (err)
			return err;
	}
	return 0;
}

static int p6_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
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
	if (perfctr_x86_has_p4_fields(cc))
		return -EINVAL;
	return p6_check_events(cc);
}

/*
 * What a cache that forgot holds (perfctr_x86_cpu_forget() and the PMU's
 * release fill it with ones): no register's value, its reserved bits
 * above all, which must not be written back -- a #GP on Intel, under
 * KVM's vPMU too; dropped by AMD's, which then counts another event.
 * Every other cached value was written from a validated control.
 */
#define P6_FORGOTTEN	U64_MAX

/* Load @state's control registers, writing only those that differ. */
static void p6_write_control(const struct perfctr_cpu_state *state)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, pmc, nrctrs = cc->nractrs + cc->nrictrs;
	u64 want[PERFCTR_NRCTRS] = {}, fixed = 0, global = 0;
	u32 here;

	if (cache->id == state->k1.id) {
		/* Stopped at the suspend (p6_astop()): start them again. */
		if (m->global_ctrl_msr && cache->global != cache->id_global) {
			cache->global = cache->id_global;
			perfctr_x86_wrmsr(m->global_ctrl_msr, cache->global);
		}
		return;
	}
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
	cache->id_global = global;
}

/*
 * Stop every counter of the suspended state on this CPU.  Whatever runs
 * next -- another user's task, a KVM guest at CPL 3 -- must not be
 * counted: its events would show in the owner's next start (its mapped
 * page, or RDPMC) against the sums it folded (perf stops or clears its
 * counters for the same reason: perf_clear_dirty_counters()).  With a
 * global control (architectural perfmon v2+, AMD PerfMonV2) one write,
 * and the event selects stay cached; without, each enable bit, and the
 * next resume rewrites the event selects that differ.
 */
static void p6_astop(void)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	unsigned int pmc;
	u32 here;
	u64 sel;

	if (m->global_ctrl_msr) {
		if (cache->global) {
			cache->global = 0;
			perfctr_x86_wrmsr(m->global_ctrl_msr, 0);
		}
		return;
	}
	here = perfctr_x86_gp_here();
	for (pmc = 0; pmc < m->nr_ctrs; pmc++) {
		sel = cache->evntsel[pmc];
		if (!(sel & P6_EVNTSEL_ENABLE) || !(here & BIT(pmc)))
			continue;
		/* Forgotten: its value unknown, the whole event select cleared. */
		cache->evntsel[pmc] = sel == P6_FORGOTTEN ? 0 : sel & ~(u64)P6_EVNTSEL_ENABLE;
		perfctr_x86_wrmsr(m->evntsel_msr + pmc * m->evntsel_stride,
				  cache->evntsel[pmc]);
	}
	cache->id = 0;
}

/* Fold the counters into the sums, then stop them (p6_astop()). */
static void p6_suspend_pmcs(struct perfctr_cpu_state *state)
{
	perfctr_x86_rdpmc_suspend_pmcs(state);
	p6_astop();
}

/*
 * P6-family i-mode counters ("Overflow interrupts" in
 * Documentation/arch/x86/perfctr.rst).
 * They are stopped at every suspend -- their event select (or fixed
 * counter field) cleared in the hardware and in the per-CPU cache, so
 * that they count nothing and cannot interrupt another thread -- and the
 * per-CPU cache's id is cleared so that the next resume rewrites the event
 * selects.  The suspend records the CPU in the state (k1.isuspend_cpu)
 * and the state in the CPU (iid): while both hold, the counters still
 * hold the state's i-mode counts and a resume need not write them; else
 * the resume writes each counter its start value, sign-extended, with its
 * event select stopped (perfctr_x86_imode_suspend/resume()).
 */

/* Stop the i-mode counters of @state on this CPU. */
static void p6_istop(const struct perfctr_cpu_state *state, struct perfctr_x86_cache *cache)
{
	const struct perfctr_x86_model *m = perfctr_x86_cur_model;
	unsigned int i, pmc, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u64 fixed = cache->fixed_ctrl;

	/* A cache that forgot knows no field of it: every one stopped. */
	if (fixed == P6_FORGOTTEN)
		fixed = 0;
	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		pmc = state->pmc[i].map;
		if (pmc >= PMC_MAP_FIXED) {
			fixed &= ~(0xfULL << (4 * (pmc - PMC_MAP_FIXED)));
		} else if (cache->evntsel[pmc]) {
			cache->evntsel[pmc] = 0;
			perfctr_x86_wrmsr(m->evntsel_msr + pmc * m->evntsel_stride, 0);
		}
	}
	if (m->nr_fixed && fixed != cache->fixed_ctrl) {
		cache->fixed_ctrl = fixed;
		perfctr_x86_wrmsr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, fixed);
	}
	cache->id = 0;
}

static void p6_isuspend(struct perfctr_cpu_state *state)
{
	perfctr_x86_imode_suspend(state, p6_istop);
}

static void p6_iresume(struct perfctr_cpu_state *state)
{
	perfctr_x86_imode_resume(state, p6_istop, ~0U);
}

/* A counter counts kernel mode with the OS bit, or a fixed counter's OS. */
static bool p6_counts_kernel(const struct perfctr_x86_model *m,
			     const struct perfctr_cpu_control *cc, unsigned int i)
{
	u32 os = cc->pmc_map[i] >= PMC_MAP_FIXED ? FIXED_OS : P6_EVNTSEL_OS;

	return cc->evntsel[i] & os;
}

static void p6_quiesce(const struct perfctr_x86_model *m, struct perfctr_x86_cache *cache)
{
	unsigned int i;

	for (i = 0; i < m->nr_ctrs; i++)
		if (cache->evntsel[i] && perfctr_x86_gp_here() & BIT(i))
			perfctr_x86_wrmsr(m->evntsel_msr + i * m->evntsel_stride, 0);
	if (m->nr_fixed && cache->fixed_ctrl)
		perfctr_x86_wrmsr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, 0);
}

/* The general and fixed counters of this CPU that controls count in. */
static u64 p6_ctrs_here(const struct perfctr_x86_model *m)
{
	u32 fixed = perfctr_x86_fixed_avail;

	if (perfctr_x86_is_hybrid(m))
		fixed = perfctr_x86_hybrid_fixed_here();
	return perfctr_x86_gp_here() | (u64)fixed << 32;
}

static void p6_select(const struct perfctr_x86_model *m)
{
	perfctr_x86_gp_avail = m->gp_mask ?: (u32)GENMASK(m->nr_ctrs - 1, 0);
	perfctr_x86_fixed_avail = m->fixed_mask ?:
		(m->nr_fixed ? (u32)GENMASK(m->nr_fixed - 1, 0) : 0);
}

const struct perfctr_x86_family_ops perfctr_x86_p6_ops = {
	.check_control	= p6_check_control,
	.suspend_pmcs	= p6_suspend_pmcs,
	.resume_pmcs	= perfctr_x86_rdpmc_resume_pmcs,
	.write_control	= p6_write_control,
	.isuspend	= p6_isuspend,
	.iresume	= p6_iresume,
	.select		= p6_select,
	.counts_kernel	= p6_counts_kernel,
	.quiesce	= p6_quiesce,
	.ctrs_here	= p6_ctrs_here,
	.uses_allocator	= true,
};
EXPORT_SYMBOL_IF_KUNIT(perfctr_x86_p6_ops);

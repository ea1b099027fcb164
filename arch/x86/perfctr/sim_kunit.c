// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on a simulated PMU.
 *
 * x86 PMCs never count under QEMU TCG, so every model is driven here
 * through its real code -- perfctr_cpu_update_control/resume/suspend/
 * sample and the static calls behind them -- with the MSR and RDPMC
 * accessors redirected (perfctr_x86_test_hw, a lock-free hook the
 * accessors have only in a kernel with these suites) to a simulated PMU
 * that counts only what its event selects enable, in counters 32, 40 or
 * 48 bits wide.  This file is that PMU and what the suites share; the
 * suites are a file per family of the driver: core_kunit.c, p6_kunit.c,
 * hybrid_kunit.c, p5_kunit.c (with the VIA C3) and p4_kunit.c.  The
 * driver's internals they reach are visible to them only with KUnit
 * (VISIBLE_IF_KUNIT, EXPORT_SYMBOL_IF_KUNIT).  The suites are built in
 * and run at boot only: they re-point the live driver (sim_suite_init()).
 */
#include "kunit.h"

enum sim_family sim_family(const struct perfctr_x86_model *m)
{
	switch (m->cpu_type) {
	case PERFCTR_X86_INTEL_P5:
	case PERFCTR_X86_INTEL_P5MMX:
	case PERFCTR_X86_CYRIX_MII:
	case PERFCTR_X86_WINCHIP_C6:
	case PERFCTR_X86_WINCHIP_2:
		return SIM_P5;
	case PERFCTR_X86_VIA_C3:
		return SIM_VC3;
	case PERFCTR_X86_INTEL_P4:
	case PERFCTR_X86_INTEL_P4M2:
	case PERFCTR_X86_INTEL_P4M3:
		return SIM_P4;
	default:
		return SIM_P6;
	}
}

/*
 * Each PMU's registers from its manual: Intel's Software Developer's
 * Manual (SDM), AMD's Architecture Programmer's Manual (APM), Cyrix's
 * datasheet; where none was found, the value perfctr 2.7's driver used,
 * and the entry says so.  Written as the manuals number the registers,
 * not through the kernel's MSR names the driver uses.  AMD's counters
 * are "implementation-dependent, at most 64 bits" in the APM; 48 is
 * their width in the family 17h PPR.
 */
static const struct sim_regs sim_p6_regs = {
	.manual		= "SDM Vol. 3B, Table B-11 (P6 family MSRs)",
	.evntsel0	= 0x186,	/* PerfEvtSel0 */
	.ctr0		= 0xc1,		/* PerfCtr0 */
	.stride		= 1,
	.nr_gp		= 2,
	.width		= 40,
	.en0_only	= true,		/* PerfEvtSel0's EN enables both */
};

static const struct sim_regs sim_arch_v1_regs = {
	.manual		= "SDM Vol. 3B, 18.2.1.1; Vol. 4, Table 2-2 (IA-32 architectural MSRs)",
	.evntsel0	= 0x186,	/* IA32_PERFEVTSEL0 */
	.ctr0		= 0xc1,		/* IA32_PMC0 */
	.stride		= 1,
	.from_cpuid	= true,
	.nr_gp		= 10,		/* IA32_PERFEVTSEL0-9, IA32_PMC0-9 */
	.full_width0	= 0x4c1,	/* IA32_A_PMC0 (IA32_PERF_CAPABILITIES.FW_WRITE) */
};

static const struct sim_regs sim_arch_regs = {
	.manual		= "SDM Vol. 3B, 18.2.2, Figure 18-20; Vol. 4, Table 2-2",
	.evntsel0	= 0x186,	/* IA32_PERFEVTSEL0 */
	.ctr0		= 0xc1,		/* IA32_PMC0 */
	.stride		= 1,
	.from_cpuid	= true,
	.nr_gp		= 10,		/* IA32_PERFEVTSEL0-9, IA32_PMC0-9 */
	.nr_fixed	= 7,		/* IA32_FIXED_CTR0-6 */
	.full_width0	= 0x4c1,	/* IA32_A_PMC0 */
	.fixed0		= 0x309,	/* IA32_FIXED_CTR0 */
	.fixed_ctrl	= 0x38d,	/* IA32_FIXED_CTR_CTRL */
	.global_status	= 0x38e,	/* IA32_PERF_GLOBAL_STATUS */
	.global_ctrl	= 0x38f,	/* IA32_PERF_GLOBAL_CTRL */
	.ovf_ctrl	= 0x390,	/* IA32_PERF_GLOBAL_OVF_CTRL */
};

static const struct sim_regs sim_k7_regs = {
	.manual		= "APM Vol. 2, 13.2.1 and Table A-1 (legacy counters)",
	.evntsel0	= 0xc0010000,	/* PerfEvtSel0 */
	.ctr0		= 0xc0010004,	/* PerfCtr0 */
	.stride		= 1,
	.nr_gp		= 4,
	.width		= 48,
};

static const struct sim_regs sim_amd_core_regs = {
	.manual		= "APM Vol. 2, 13.2.2 and Table A-1 (core counters)",
	.evntsel0	= 0xc0010200,	/* PerfEvtSel0 (core) */
	.ctr0		= 0xc0010201,	/* PerfCtr0 (core) */
	.stride		= 2,
	.nr_gp		= 6,
	.width		= 48,
};

static const struct sim_regs sim_amd_v2_regs = {
	.manual		= "APM Vol. 2, Table A-1, Figures 13-12 to 13-15 (PerfMonV2)",
	.evntsel0	= 0xc0010200,
	.ctr0		= 0xc0010201,
	.stride		= 2,
	.from_cpuid	= true,		/* CPUID 0x80000022 NumPerfCtrCore */
	.nr_gp		= 6,
	.width		= 48,
	.global_status	= 0xc0000300,	/* PerfCntrGlobalStatus */
	.global_ctrl	= 0xc0000301,	/* PerfCntrGlobalCtl */
	.ovf_ctrl	= 0xc0000302,	/* PerfCntrGlobalStatusClr */
};

/* The families simx_*() play, for driver_models_match_the_manuals. */
static const struct sim_regs sim_p5_regs = {
	.manual		= "SDM Vol. 3B, 18.26 and Figure 18-59 (Pentium: CESR, CTR0-1)",
	.evntsel0	= 0x11,		/* CESR: both counters' controls */
	.ctr0		= 0x12,		/* CTR0 */
	.stride		= 1,
	.nr_gp		= 2,
	.width		= 40,
};

static const struct sim_regs sim_mii_regs = {
	.manual		= "Cyrix M II datasheet, 2.8 (48-bit counters at MSRs 12h-13h)",
	.evntsel0	= 0x11,
	.ctr0		= 0x12,
	.stride		= 1,
	.nr_gp		= 2,
	.width		= 48,
};

static const struct sim_regs sim_winchip_regs = {
	.manual		= "no manual found: perfctr 2.7's driver (the P5 MMX's MSRs)",
	.evntsel0	= 0x11,
	.ctr0		= 0x12,
	.stride		= 1,
	.nr_gp		= 2,
	.width		= 40,
};

static const struct sim_regs sim_vc3_regs = {
	.manual		= "no manual found: perfctr 2.7's driver (PERFCTR0 is the TSC)",
	.evntsel0	= 0x186,
	.ctr0		= 0xc1,
	.stride		= 1,
	.nr_gp		= 2,
};

static const struct sim_regs sim_p4_regs = {
	.manual		= "SDM Vol. 3B, 18.18 and Table 18-26 (Pentium 4)",
	.evntsel0	= 0x360,	/* MSR_BPU_CCCR0 */
	.ctr0		= 0x300,	/* MSR_BPU_COUNTER0 */
	.stride		= 1,
	.nr_gp		= 18,
	.width		= 40,
};

/**
 * sim_manual_regs - the registers of the CPU @m is the driver's model of
 * @m: a driver model; its CPU type names the PMU, and for AMD's core
 *	counters whether it has a global control says whether the CPU has
 *	PerfMonV2
 *
 * Return: the manual's registers, or NULL for a CPU type not written here.
 */
const struct sim_regs *sim_manual_regs(const struct perfctr_x86_model *m)
{
	switch (m->cpu_type) {
	case PERFCTR_X86_INTEL_P6:
	case PERFCTR_X86_INTEL_PII:
	case PERFCTR_X86_INTEL_PIII:
	case PERFCTR_X86_INTEL_PENTM:
		return &sim_p6_regs;
	case PERFCTR_X86_INTEL_CORE:
		return &sim_arch_v1_regs;
	case PERFCTR_X86_INTEL_ARCH:
	case PERFCTR_X86_INTEL_HYBRID:
		return &sim_arch_regs;
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_K8:
	case PERFCTR_X86_AMD_K8C:
	case PERFCTR_X86_AMD_FAM10H:
		return &sim_k7_regs;
	case PERFCTR_X86_AMD_FAM15H:
		return m->global_ctrl_msr ? &sim_amd_v2_regs : &sim_amd_core_regs;
	case PERFCTR_X86_INTEL_P5:
	case PERFCTR_X86_INTEL_P5MMX:
		return &sim_p5_regs;
	case PERFCTR_X86_CYRIX_MII:
		return &sim_mii_regs;
	case PERFCTR_X86_WINCHIP_C6:
	case PERFCTR_X86_WINCHIP_2:
		return &sim_winchip_regs;
	case PERFCTR_X86_VIA_C3:
		return &sim_vc3_regs;
	case PERFCTR_X86_INTEL_P4:
	case PERFCTR_X86_INTEL_P4M2:
	case PERFCTR_X86_INTEL_P4M3:
		return &sim_p4_regs;
	}
	return NULL;
}

struct sim_pmu sim_hw;

/*
 * The simulated CPU's general and fixed counters: the manual's, or as
 * many as its CPUID gave the model (up to what the manual's MSRs address).
 */
static unsigned int sim_nr_gp(void)
{
	const struct sim_regs *r = sim_hw.regs;

	return r->from_cpuid ? min(sim_hw.model->nr_ctrs, r->nr_gp) : r->nr_gp;
}

static unsigned int sim_nr_fixed(void)
{
	return min(sim_hw.model->nr_fixed, sim_hw.regs->nr_fixed);
}

/* P6 family: a counter write, as AMD's full-width counters take it. */
static bool sim_write_counter(u32 msr, u64 val)
{
	const struct sim_regs *r = sim_hw.regs;
	u64 mask = GENMASK_ULL(sim_hw.width - 1, 0);
	u32 idx = msr - r->ctr0;

	if (sim_family(sim_hw.model) != SIM_P6)
		return false;
	if (r->ovf_ctrl && msr == r->ovf_ctrl) {
		sim_hw.ovf_cleared |= val;
		sim_hw.status &= ~val;
		return true;
	}
	/* The full-width aliases, where the CPU has them (FW_WRITE). */
	if (r->full_width0 && sim_hw.model->ctr_write_msr &&
	    msr - r->full_width0 < sim_nr_gp())
		idx = (msr - r->full_width0) * r->stride;
	if (idx % r->stride == 0 && idx / r->stride < sim_nr_gp())
		sim_hw.ctr[idx / r->stride] = val & mask;
	else if (msr - r->fixed0 < sim_nr_fixed())
		sim_hw.fixed_ctr[msr - r->fixed0] = val & mask;
	else
		return false;
	if (val & ~mask)	/* bits beyond the counter: not ours to write */
		sim_hw.stray++;
	sim_hw.ctr_writes++;
	return true;
}

static void sim_wrmsr(u32 msr, u64 val)
{
	const struct sim_regs *r = sim_hw.regs;
	u32 idx = msr - r->evntsel0;

	if (sim_hw.wrmsrs < ARRAY_SIZE(sim_hw.log))
		sim_hw.log[sim_hw.wrmsrs] = msr;
	sim_hw.wrmsrs++;
	if (sim_write_counter(msr, val))
		return;
	if (sim_nr_fixed() && msr == r->fixed_ctrl)
		sim_hw.fixed_ctrl = val;
	else if (r->global_ctrl && msr == r->global_ctrl)
		sim_hw.global = val;
	else if (idx % r->stride == 0 && idx / r->stride < sim_nr_gp() &&
		 (!sim_hw.gp_here || sim_hw.gp_here & BIT(idx / r->stride)))
		sim_hw.evntsel[idx / r->stride] = val;
	else
		sim_hw.stray++;	/* on hardware: #GP */
}

/* RDPMC returns the whole counter, its width's bits. */
static u64 sim_rdpmc(u32 map)
{
	if (map >= FIXED(0) && map - FIXED(0) < sim_nr_fixed())
		return sim_hw.fixed_ctr[map - FIXED(0)];
	if (map >= sim_nr_gp()) {
		sim_hw.stray++;
		return 0;
	}
	return sim_hw.ctr[map];
}

static bool simx_counting(unsigned int i);

static bool sim_counting(unsigned int i)
{
	u64 sel = sim_hw.evntsel[i];

	if (sim_family(sim_hw.model) != SIM_P6)
		return simx_counting(i);
	if (!(sel & (USR | OS)) || !(sel & 0xff))
		return false;
	if (sim_hw.regs->global_ctrl && !(sim_hw.global & BIT_ULL(i)))
		return false;
	if (sim_hw.regs->en0_only)
		return sim_hw.evntsel[0] & EN;
	return sel & EN;
}

static bool sim_fixed_counting(unsigned int n)
{
	return (sim_hw.fixed_ctrl >> (4 * n)) & (F_OS | F_USR) &&
	       sim_hw.global & BIT_ULL(32 + n);
}

void sim_advance(u64 events)
{
	u64 mask = GENMASK_ULL(sim_hw.width - 1, 0);
	bool p6 = sim_family(sim_hw.model) == SIM_P6;
	unsigned int i, nr_gp = p6 ? sim_nr_gp() : sim_hw.model->nr_ctrs;

	memcpy(sim_hw.run_evntsel, sim_hw.evntsel, sizeof(sim_hw.run_evntsel));
	sim_hw.run_fixed_ctrl = sim_hw.fixed_ctrl;
	sim_hw.run_global = sim_hw.global;

	for (i = 0; i < nr_gp; i++) {
		if (!sim_counting(i))
			continue;
		if (p6 && sim_hw.evntsel[i] & INT && sim_hw.ctr[i] + events > mask) {
			sim_hw.pmis++;
			sim_hw.status |= BIT_ULL(i);
		}
		if (sim_family(sim_hw.model) == SIM_P4 && sim_hw.ctr[i] + events > mask) {
			sim_hw.evntsel[i] |= BIT(31);		/* the CCCR's OVF flag */
			if (sim_hw.evntsel[i] & BIT(26))		/* OVF_PMI_T0 */
				sim_hw.pmis++;
		}
		sim_hw.ctr[i] = (sim_hw.ctr[i] + events) & mask;
	}
	for (i = 0; p6 && i < sim_nr_fixed(); i++) {
		if (!sim_fixed_counting(i))
			continue;
		if ((sim_hw.fixed_ctrl >> (4 * i)) & F_PMI && sim_hw.fixed_ctr[i] + events > mask) {
			sim_hw.pmis++;
			sim_hw.status |= BIT_ULL(32 + i);
		}
		sim_hw.fixed_ctr[i] = (sim_hw.fixed_ctr[i] + events) & mask;
	}
}

/* Index in sim_hw.log of the first write of @msr after position @from, or -1. */
int sim_written(u32 msr, unsigned int from)
{
	unsigned int i;

	for (i = from; i < min_t(unsigned int, sim_hw.wrmsrs, ARRAY_SIZE(sim_hw.log)); i++)
		if (sim_hw.log[i] == msr)
			return i;
	return -1;
}

/*
 * Room for a model the driver builds (from CPUID, or the hybrid model):
 * the suite's own, never the one the driver built at boot.
 */
struct perfctr_x86_model *sim_model_buf(struct kunit *test)
{
	struct perfctr_x86_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	return m;
}

void sim_setup(struct kunit *test, const struct perfctr_x86_model *model,
	       unsigned int width)
{
	struct perfctr_x86_model *copy;

	/* The driver folds at the model's width: give it the simulated one. */
	if (model && model->ctr_width && model->ctr_width != width) {
		copy = kunit_kmalloc(test, sizeof(*copy), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		*copy = *model;
		copy->ctr_width = width;
		model = copy;
	}
	memset(&sim_hw, 0, sizeof(sim_hw));
	sim_hw.model = model;
	sim_hw.regs = model ? sim_manual_regs(model) : NULL;
	if (model)
		KUNIT_ASSERT_NOT_NULL_MSG(test, sim_hw.regs, "no manual for %s", model->name);
	sim_hw.width = width;
	perfctr_x86_test_hw.wrmsr = sim_wrmsr;
	perfctr_x86_test_hw.read_msr = NULL;
	perfctr_x86_test_hw.read_pmc = sim_rdpmc;
	perfctr_x86_use_model(model);
}

/* ---- KVM's vPMU (struct sim_kvm) ---- */

struct sim_kvm sim_kvm;

/* A write KVM refuses: #GP in the guest, nothing written. */
static void sim_kvm_gp(u32 msr, u64 val)
{
	if (!sim_kvm.gps++) {
		sim_kvm.gp_msr = msr;
		sim_kvm.gp_val = val;
	}
}

/* Intel (intel_pmu_set_msr(), kvm_pmu_set_msr()): reserved bits are a #GP. */
static bool sim_kvm_intel(u32 msr, u64 *val)
{
	const struct sim_kvm *k = &sim_kvm;
	bool v2 = k->version >= 2;

	if (msr - MSR_IA32_PERFCTR0 < k->nr_gp) {
		/* The legacy alias: sign-extended from bit 31, then cut. */
		*val = (u64)(s64)(s32)*val & k->ctr_mask;
		return true;
	}
	if (msr - MSR_IA32_PMC0 < k->nr_gp)	/* full width: only with FW_WRITE */
		return k->fw_writes && !(*val & ~k->ctr_mask);
	if (msr - MSR_P6_EVNTSEL0 < k->nr_gp)
		return !(*val & k->evntsel_rsvd);
	if (msr - MSR_CORE_PERF_FIXED_CTR0 < k->nr_fixed) {
		*val &= k->fixed_mask;
		return true;
	}
	if (msr == MSR_CORE_PERF_FIXED_CTR_CTRL && v2)
		return !(*val & k->fixed_ctrl_rsvd);
	if (msr == MSR_CORE_PERF_GLOBAL_CTRL && v2)
		return !(*val & k->global_rsvd);
	if (msr == MSR_CORE_PERF_GLOBAL_OVF_CTRL && v2)
		return !(*val & k->status_rsvd);
	return false;		/* read-only (GLOBAL_STATUS) or not the vPMU's */
}

/*
 * AMD (amd_pmu_set_msr(), kvm_pmu_set_msr()): reserved bits of an event
 * select or of the global control are dropped, not refused; an MSR the
 * vPMU does not have is a #GP.  @msr becomes the model's own name of the
 * register (the K7 MSRs alias the first four core counters).
 */
static bool sim_kvm_amd(u32 *msr, u64 *val)
{
	const struct sim_kvm *k = &sim_kvm;
	const struct sim_regs *r = sim_hw.regs;
	u64 keep = ~0ULL;
	bool ctl;
	u32 idx;

	if (*msr - MSR_K7_EVNTSEL0 < 8) {
		ctl = *msr < MSR_K7_PERFCTR0;
		idx = (*msr - MSR_K7_EVNTSEL0) % 4;
	} else if (*msr - MSR_F15H_PERF_CTL < 12 && k->core) {
		ctl = !(*msr & 1);
		idx = (*msr - MSR_F15H_PERF_CTL) / 2;
	} else if (*msr - MSR_AMD64_PERF_CNTR_GLOBAL_STATUS < 4 && k->version >= 2) {
		if (*msr == MSR_AMD64_PERF_CNTR_GLOBAL_CTL)
			keep = ~k->global_rsvd;
		else if (*msr == MSR_AMD64_PERF_CNTR_GLOBAL_STATUS)
			keep = 0;	/* read-only: the write is ignored */
		goto drop;
	} else {
		return false;
	}
	if (idx >= k->nr_gp)
		return false;
	*msr = (ctl ? r->evntsel0 : r->ctr0) + idx * r->stride;
	if (!ctl) {
		*val &= k->ctr_mask;	/* a counter keeps its 48 bits */
		return true;
	}
	keep = ~k->evntsel_rsvd;
drop:
	if (*val & ~keep)
		sim_kvm.dropped++;
	*val &= keep;
	return keep != 0;
}

static void sim_kvm_wrmsr(u32 msr, u64 val)
{
	u32 to = msr;
	u64 data = val;

	if (sim_kvm.amd ? sim_kvm_amd(&to, &data) : sim_kvm_intel(msr, &data)) {
		sim_wrmsr(to, data);
		return;
	}
	if (sim_kvm.amd && to == MSR_AMD64_PERF_CNTR_GLOBAL_STATUS)
		return;		/* ignored, not refused */
	if (sim_hw.wrmsrs < ARRAY_SIZE(sim_hw.log))
		sim_hw.log[sim_hw.wrmsrs] = msr;
	sim_hw.wrmsrs++;
	sim_kvm_gp(msr, val);
}

/**
 * sim_kvm_setup - @model on KVM's vPMU for the guest CPUID @c
 * @test: the case
 * @c: the guest's CPUID, as KVM builds it for -cpu host
 * @model: the driver's model for it (perfctr_x86_detect_cpu())
 *
 * KVM's masks come from @c as kvm_pmu_refresh(), intel_pmu_refresh() and
 * amd_pmu_refresh() compute them -- not from @model -- and the vPMU starts
 * as KVM resets it: GLOBAL_CTRL enabling every general counter (v2).  The
 * vPMU here has no TSX (IN_TX and IN_TXCP reserved), no PEBS, no LBR.
 */
void sim_kvm_setup(struct kunit *test, const struct perfctr_x86_cpuid *c,
		   const struct perfctr_x86_model *model)
{
	struct sim_kvm *k = &sim_kvm;
	unsigned int width = 48;

	memset(k, 0, sizeof(*k));
	if (c->vendor == X86_VENDOR_INTEL) {
		k->version = c->eax10 & 0xff;
		k->nr_gp = (c->eax10 >> 8) & 0xff;
		width = (c->eax10 >> 16) & 0xff;
		k->ctr_mask = BIT_ULL(width) - 1;
		k->fw_writes = c->fw_writes;
		k->evntsel_rsvd = 0xffffffff00200000ULL;	/* AnyThread, bits 63:32 */
		k->fixed_ctrl_rsvd = ~0ULL;
		k->global_rsvd = ~0ULL;
		k->status_rsvd = ~0ULL;
		if (k->version >= 2) {
			unsigned int i;

			k->nr_fixed = c->edx10 & 0x1f;
			k->fixed_mask = BIT_ULL((c->edx10 >> 5) & 0xff) - 1;
			for (i = 0; i < k->nr_fixed; i++)	/* OS, USR, PMI */
				k->fixed_ctrl_rsvd &= ~(0xbULL << (4 * i));
			k->global_rsvd = ~((BIT_ULL(k->nr_gp) - 1) |
					   (BIT_ULL(k->nr_fixed) - 1) << 32);
			k->status_rsvd = k->global_rsvd &
					 ~(MSR_CORE_PERF_GLOBAL_OVF_CTRL_OVF_BUF |
					   MSR_CORE_PERF_GLOBAL_OVF_CTRL_COND_CHGD);
		}
	} else {
		k->amd = true;
		k->version = c->perfmon_v2 ? 2 : 1;
		k->core = c->perfctr_core;
		k->nr_gp = c->perfmon_v2 ? c->ebx_80000022 & 0xf : c->perfctr_core ? 6 : 4;
		k->ctr_mask = GENMASK_ULL(47, 0);
		/* Bits 19, 21 and 63:36 (Host/Guest-only too: no nested SVM here). */
		k->evntsel_rsvd = 0xfffffff000280000ULL;
		if (k->version >= 2) {
			k->global_rsvd = ~(BIT_ULL(k->nr_gp) - 1);
			k->status_rsvd = k->global_rsvd;
		}
	}
	sim_setup(test, model, width);
	perfctr_x86_test_hw.wrmsr = sim_kvm_wrmsr;
	/* At RESET every general counter is enabled in the global control. */
	if (k->version >= 2)
		sim_hw.global = BIT_ULL(k->nr_gp) - 1;
}

/* What the cases change of the driver's state, as the suite found it. */
static const struct perfctr_x86_model *saved_model;
static bool saved_p4_ht;

int sim_suite_init(struct kunit_suite *suite)
{
	/*
	 * The cases re-point the live driver's static calls and wipe every
	 * CPU's control cache: only at boot, before any user can count
	 * (not when KUnit's debugfs runs the suite again later).
	 */
	if (system_state == SYSTEM_RUNNING)
		return -EBUSY;
	saved_model = perfctr_x86_cur_model;	/* the model chosen at boot */
	saved_p4_ht = perfctr_x86_p4_ht;
	return 0;
}

static const struct sim_constraint *sim_perf;
unsigned int sim_perf_asked;	/* how often perf was asked */
u64 sim_perf_config;		/* the config it was last asked about */

void sim_use_perf(const struct sim_constraint *table)
{
	sim_perf = table;
}

static int sim_event_counters(u64 config, unsigned int cpu, u64 *cntrs)
{
	int type = perfctr_x86_pmu_caps_of(cpu)->type;
	const struct sim_constraint *c;

	sim_perf_asked++;
	sim_perf_config = config;
	if (!sim_perf)
		return -ENODEV;
	for (c = sim_perf; c->cmask; c++) {
		if ((config & c->cmask) != c->code ||
		    (c->type != SIM_ANY_TYPE && c->type != type))
			continue;
		if (c->err)
			return c->err;
		*cntrs = c->cntrs;
		return 0;
	}
	*cntrs = GENMASK_ULL(PERFCTR_NRCTRS - 1, 0) | GENMASK_ULL(32 + 7, 32);
	return 0;
}

int sim_test_init(struct kunit *test)
{
	/*
	 * Nothing asks the perf_events of the machine the suite runs on
	 * about the simulated CPU's events: this case's table, if any.
	 */
	sim_perf = NULL;
	sim_perf_asked = 0;
	sim_perf_config = 0;
	kunit_activate_static_stub(test, perfctr_x86_event_counters, sim_event_counters);
	/*
	 * The control cache is per CPU: stay on one.  KUnit runs .init and
	 * the case in one kthread, thrown away afterwards, and .exit in
	 * another: pin this one by its affinity, which needs no undoing
	 * (a migrate_disable() here would be undone in the wrong task).
	 */
	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current,
						      cpumask_of(raw_smp_processor_id())));
	/* A per-CPU thread now, for DEBUG_PREEMPT's smp_processor_id() check. */
	current->flags |= PF_NO_SETAFFINITY;
	test->priv = kunit_kzalloc(test, sizeof(struct perfctr_cpu_state), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

void sim_test_exit(struct kunit *test)
{
	perfctr_x86_p4_ht = saved_p4_ht;
	perfctr_x86_no_lapic = false;
	perfctr_x86_use_model(saved_model);
	memset(&perfctr_x86_test_hw, 0, sizeof(perfctr_x86_test_hw));
}

/* A state with @n a-mode counters: pmc_map[i] = maps[i], evntsel[i] = sels[i]. */
struct perfctr_cpu_state *sim_state(struct kunit *test, unsigned int n,
				    const u32 *maps, const u32 *sels)
{
	struct perfctr_cpu_state *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, st);
	st->control.tsc_on = 1;
	st->control.nractrs = n;
	for (i = 0; i < n; i++) {
		st->control.pmc_map[i] = maps[i];
		st->control.evntsel[i] = sels[i];
	}
	return st;
}

int sim_check1(struct kunit *test, const struct perfctr_x86_model *m,
	       u32 map, u32 sel)
{
	sim_setup(test, m, 40);
	return perfctr_cpu_update_control(sim_state(test, 1, &map, &sel), 0);
}

int sim_check2(struct kunit *test, const struct perfctr_x86_model *m,
	       u32 map0, u32 sel0, u32 map1, u32 sel1)
{
	u32 maps[] = { map0, map1 }, sels[] = { sel0, sel1 };

	sim_setup(test, m, 40);
	return perfctr_cpu_update_control(sim_state(test, 2, maps, sels), 0);
}

/* A one-counter state on @m, not yet validated, for tests that edit it. */
struct perfctr_cpu_state *sim_one_counter(struct kunit *test,
					  const struct perfctr_x86_model *m,
					  u32 map, u32 sel)
{
	sim_setup(test, m, 48);
	return sim_state(test, 1, &map, &sel);
}

void sim_run(struct perfctr_cpu_state *st, u64 events)
{
	unsigned long flags;

	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(events);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
}

/*
 * Architectural perfmon v2+ with the fewest counters CPUID 0xA then gave
 * (4 general, 3 fixed, 48 bits): the suite's fixed example.  At boot
 * perfctr_x86_arch_model() describes the CPU's own counters.
 */
const struct perfctr_x86_model sim_arch_v2 = {
	.name		= "Intel architectural perfmon v2+",
	.cpu_type	= PERFCTR_X86_INTEL_ARCH,
	.ops		= &perfctr_x86_p6_ops,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
	.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
	.evntsel_stride	= 1,
	.nr_fixed	= 3,
	.global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL,
	.ctr_width	= 48,
	.ovf_ctrl_msr	= MSR_CORE_PERF_GLOBAL_OVF_CTRL,
};

/* ---- The P5 family, VIA C3 and the P4, each on its own simulated PMU ---- */

/*
 * The ESCR of each (counter, ESCR_SELECT), written out from the IA-32
 * manual's table with the kernel's ESCR names, row by row -- independent
 * of the driver's compacted table.
 */
const u16 sim_sdm_escr[18][8] = {
#define BPU_ROW(n) { MSR_P4_BPU_ESCR##n, MSR_P4_IS_ESCR##n, MSR_P4_MOB_ESCR##n,		\
		     MSR_P4_ITLB_ESCR##n, MSR_P4_PMH_ESCR##n, MSR_P4_IX_ESCR##n,	\
		     MSR_P4_FSB_ESCR##n, MSR_P4_BSU_ESCR##n }
#define MS_ROW(n) { MSR_P4_MS_ESCR##n, MSR_P4_TC_ESCR##n, MSR_P4_TBPU_ESCR##n }
#define FLAME_ROW(n) { MSR_P4_FLAME_ESCR##n, MSR_P4_FIRM_ESCR##n, MSR_P4_SAAT_ESCR##n,	\
		       MSR_P4_U2L_ESCR##n, 0, MSR_P4_DAC_ESCR##n }
#define IQ_ROW0 { MSR_P4_IQ_ESCR0, MSR_P4_ALF_ESCR0, MSR_P4_RAT_ESCR0, MSR_P4_SSU_ESCR0,	\
		  MSR_P4_CRU_ESCR0, MSR_P4_CRU_ESCR2, MSR_P4_CRU_ESCR4 }
#define IQ_ROW1 { MSR_P4_IQ_ESCR1, MSR_P4_ALF_ESCR1, MSR_P4_RAT_ESCR1, 0,		\
		  MSR_P4_CRU_ESCR1, MSR_P4_CRU_ESCR3, MSR_P4_CRU_ESCR5 }
	BPU_ROW(0), BPU_ROW(0), BPU_ROW(1), BPU_ROW(1),
	MS_ROW(0), MS_ROW(0), MS_ROW(1), MS_ROW(1),
	FLAME_ROW(0), FLAME_ROW(0), FLAME_ROW(1), FLAME_ROW(1),
	IQ_ROW0, IQ_ROW0, IQ_ROW1, IQ_ROW1, IQ_ROW0, IQ_ROW1,
#undef BPU_ROW
#undef MS_ROW
#undef FLAME_ROW
#undef IQ_ROW0
#undef IQ_ROW1
};

static bool simx_counting(unsigned int i)
{
	const struct perfctr_x86_model *m = sim_hw.model;
	u32 half, escr;

	switch (sim_family(m)) {
	case SIM_P5:
		half = (sim_hw.cesr >> (16 * i)) & 0xffff;
		return (half & 0x3f) && (!m->cpl || half & m->cpl);
	case SIM_VC3:	/* PERFCTR0 is the TSC: not simulated */
		return i == 1 && (sim_hw.evntsel[1] & 0xff);
	case SIM_P4:
		if (!(sim_hw.evntsel[i] & C_ENABLE))
			return false;
		escr = sim_sdm_escr[i][(sim_hw.evntsel[i] >> 13) & 7];
		return escr && sim_hw.escr[escr - 0x3a0] & (E_T0_OS | E_T0_USR);
	default:
		return false;
	}
}

static void simx_wrmsr(u32 msr, u64 val)
{
	if (sim_hw.wrmsrs < ARRAY_SIZE(sim_hw.log))
		sim_hw.log[sim_hw.wrmsrs] = msr;
	sim_hw.wrmsrs++;
	switch (sim_family(sim_hw.model)) {
	case SIM_P5:
		if (msr == CESR_MSR) {
			sim_hw.cesr = val;
			return;
		}
		if (msr == 0x12 || msr == 0x13) {	/* CTR0, CTR1: 40 bits */
			if (val & ~GENMASK_ULL(39, 0))
				sim_hw.stray++;
			sim_hw.ctr[msr - 0x12] = val;
			sim_hw.ctr_writes++;
			return;
		}
		break;
	case SIM_VC3:
		if (msr == 0x187) {
			sim_hw.evntsel[1] = val;
			return;
		}
		if (msr == 0xc2) {			/* PERFCTR1; PERFCTR0 is the TSC */
			sim_hw.ctr[1] = val;
			sim_hw.ctr_writes++;
			return;
		}
		break;
	case SIM_P4:
		if (msr >= CCCR_MSR(0) && msr < CCCR_MSR(18)) {
			sim_hw.evntsel[msr - CCCR_MSR(0)] = val;
			return;
		}
		if (msr >= P4_CTR_MSR(0) && msr < P4_CTR_MSR(18)) {
			if (val & ~GENMASK_ULL(39, 0))
				sim_hw.stray++;
			sim_hw.ctr[msr - P4_CTR_MSR(0)] = val & GENMASK_ULL(39, 0);
			sim_hw.ctr_writes++;
			return;
		}
		if (msr >= 0x3a0 && msr < 0x3a0 + PERFCTR_P4_NR_ESCRS) {
			sim_hw.escr[msr - 0x3a0] = val;
			return;
		}
		if (msr == 0x3f1 || msr == 0x3f2) {
			*(msr == 0x3f1 ? &sim_hw.pebs_enable : &sim_hw.pebs_matrix_vert) = val;
			return;
		}
		break;
	default:
		break;
	}
	sim_hw.stray++;
}

static u64 simx_rdmsr(u32 msr)
{
	sim_hw.rdmsrs++;
	if (sim_family(sim_hw.model) == SIM_P5 && (msr == 0x12 || msr == 0x13))
		return sim_hw.ctr[msr - 0x12];
	sim_hw.stray++;
	return 0;
}

/* The P4's fast RDPMC (bit 31 of the index) returns the low 32 bits only. */
static u64 simx_rdpmc(u32 map)
{
	const struct perfctr_x86_model *m = sim_hw.model;

	sim_hw.rdpmcs++;
	if (sim_family(m) == SIM_P4 && (map & ~FAST) < 18)
		return map & FAST ? (u32)sim_hw.ctr[map & ~FAST] : sim_hw.ctr[map & ~FAST];
	if (sim_family(m) == SIM_P5 && !m->no_rdpmc && map < 2)
		return sim_hw.ctr[map];
	if (sim_family(m) == SIM_VC3 && map == 1)
		return (u32)sim_hw.ctr[1];
	sim_hw.stray++;	/* no RDPMC (P5), or not a counter of ours */
	return 0;
}

void simx_setup(struct kunit *test, const struct perfctr_x86_model *model,
		unsigned int width)
{
	memset(&sim_hw, 0, sizeof(sim_hw));
	sim_hw.model = model;
	sim_hw.regs = sim_manual_regs(model);
	sim_hw.width = width;
	perfctr_x86_test_hw.wrmsr = simx_wrmsr;
	perfctr_x86_test_hw.read_msr = simx_rdmsr;
	perfctr_x86_test_hw.read_pmc = simx_rdpmc;
	perfctr_x86_use_model(model);
}

int sim_check_on(struct kunit *test, u32 map, u32 sel)
{
	return perfctr_cpu_update_control(sim_state(test, 1, &map, &sel), 0);
}

/* What the model needs in counter 1's event select: the P6 enables in EVNTSEL0. */
u32 sim_sel1(const struct perfctr_x86_model *m, u32 sel)
{
	return m->global_enable ? sel & ~EN : sel;
}

/* @m with a simulated PMU; skipped where no overflow interrupt can exist. */
void sim_imode_setup(struct kunit *test, const struct perfctr_x86_model *m,
		     unsigned int width)
{
	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	sim_setup(test, m, width);
}

/* A state with @na a-mode then @ni i-mode counters, @iresets for the latter. */
struct perfctr_cpu_state *sim_mkistate(struct kunit *test, unsigned int na,
				       unsigned int ni, const u32 *maps,
				       const u32 *sels, const int *iresets)
{
	struct perfctr_cpu_state *st = sim_state(test, na + ni, maps, sels);
	unsigned int i;

	st->control.nractrs = na;
	st->control.nrictrs = ni;
	for (i = 0; i < ni; i++)
		st->control.ireset[na + i] = iresets[i];
	return st;
}

/* What a counter of the simulated width holds after @v was written. */
u64 sim_sext(s32 v)
{
	return (u64)(s64)v & GENMASK_ULL(sim_hw.width - 1, 0);
}

/* A driver operation on @st, with interrupts off as the hooks run it. */
void sim_irqs_off(void (*op)(struct perfctr_cpu_state *), struct perfctr_cpu_state *st)
{
	unsigned long flags;

	local_irq_save(flags);
	op(st);
	local_irq_restore(flags);
}

void sim_suspend(struct perfctr_cpu_state *st)
{
	sim_irqs_off(perfctr_cpu_suspend, st);
}

void sim_resume(struct perfctr_cpu_state *st)
{
	sim_irqs_off(perfctr_cpu_resume, st);
}

/* A validated state on @m: a-mode counter 0, i-mode counter 1 from @ireset. */
struct perfctr_cpu_state *sim_istate(struct kunit *test, const struct perfctr_x86_model *m,
				     unsigned int width, int ireset)
{
	u32 maps[] = { 0, 1 }, sels[] = { EN | USR | EVENT, sim_sel1(m, ISEL) };
	struct perfctr_cpu_state *st;

	sim_imode_setup(test, m, width);
	st = sim_mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

MODULE_DESCRIPTION("KUnit tests of the perfctr x86 driver on a simulated PMU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

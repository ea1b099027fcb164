/* SPDX-License-Identifier: GPL-2.0 */
/* perfctr x86 driver internals, shared with its KUnit suite. */
#ifndef _ARCH_X86_PERFCTR_X86_H
#define _ARCH_X86_PERFCTR_X86_H

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/perfctr.h>
#include <linux/types.h>

#include <asm/msr.h>

struct perfctr_x86_model;
struct perfctr_x86_cache;

/**
 * struct perfctr_x86_family_ops - the code that runs a family's models
 * @check_control: validate a control (the check_control static call)
 * @suspend_pmcs: fold the counters into the sums (suspend_pmcs)
 * @resume_pmcs: start a period (resume_pmcs)
 * @write_control: load a state's control registers (write_control)
 * @isuspend: stop the i-mode counters at a suspend (isuspend); NULL for
 *	a family without i-mode counters
 * @iresume: reload them at a resume (iresume)
 * @select: when a model of the family is chosen, set up what its
 *	operations read besides the model; may be NULL
 * @boot: at boot, for the boot CPU's model; may be NULL
 * @counts_kernel: does counter @i of a control count kernel mode?  NULL:
 *	the family's counters cannot tell privilege levels apart
 * @quiesce: stop on this CPU what the cache does not know to be stopped,
 *	before the PMU goes back; NULL if the counters cannot be stopped
 * @ctrs_here: the counters this CPU has that controls count in, general
 *	ones in bits 0-31, fixed ones in bits 32-63; NULL: the model's
 *	nr_ctrs general counters
 * @pmu_responds: does the PMU count?  NULL: ask perf_events, or probe
 *	the vendor's P6-family event select
 * @fast_rdpmc: the pmc_map[] bit that reads a counter's low 32 bits
 * @uses_allocator: the kernel's PMU allocator arbitrates the counters
 *
 * Modelled on arch/x86/events/ (one struct x86_pmu per family): each
 * model points at its family's operations, and perfctr_x86_use_model()
 * installs them in the static calls (on x86: at every call site).
 */
struct perfctr_x86_family_ops {
	int (*check_control)(struct perfctr_cpu_state *state, int is_global);
	void (*suspend_pmcs)(struct perfctr_cpu_state *state);
	void (*resume_pmcs)(struct perfctr_cpu_state *state);
	void (*write_control)(const struct perfctr_cpu_state *state);
	void (*isuspend)(struct perfctr_cpu_state *state);
	void (*iresume)(struct perfctr_cpu_state *state);
	void (*select)(const struct perfctr_x86_model *m);
	void (*boot)(const struct perfctr_x86_model *m);
	bool (*counts_kernel)(const struct perfctr_x86_model *m,
			      const struct perfctr_cpu_control *cc, unsigned int i);
	void (*quiesce)(const struct perfctr_x86_model *m, struct perfctr_x86_cache *cache);
	bool (*pmu_responds)(const struct perfctr_x86_model *m);
	u64 (*ctrs_here)(const struct perfctr_x86_model *m);
	u32 fast_rdpmc;
	bool uses_allocator;
};

extern const struct perfctr_x86_family_ops perfctr_x86_p6_ops;
extern const struct perfctr_x86_family_ops perfctr_x86_p5_ops;
extern const struct perfctr_x86_family_ops perfctr_x86_p5mmx_ops;
extern const struct perfctr_x86_family_ops perfctr_x86_vc3_ops;
extern const struct perfctr_x86_family_ops perfctr_x86_p4_ops;

/**
 * struct perfctr_x86_model - a CPU model with programmable counters
 * @name: for perfctr_cpu_name
 * @cpu_type: PERFCTR_X86_* value
 * @ops: its family's operations
 * @nr_ctrs: number of counters
 * @evntsel_msr: MSR of the first event select (P5 family: the CESR;
 *	P4: the first CCCR)
 * @perfctr_msr: MSR of the first counter
 * @evntsel_stride: MSR distance between event selects (and counters)
 * @global_enable: the enable bit of event select 0 enables all counters
 * @high_allowed: bits of evntsel_high[] the model accepts
 * @nr_fixed: number of Intel fixed counters
 * @global_ctrl_msr: global enable MSR, 0 if none
 * @reserved: P5 family and VIA C3: the evntsel bits that must be clear
 * @cpl: P5 family: the CPL bits of which one must be set, 0 if none
 * @no_rdpmc: the CPU has no RDPMC (the P5 before MMX): counters are
 *	read with RDMSR and user space cannot read them
 * @no_tsc: the TSC cannot be used while the counters are (WinChip)
 * @p4_ext_cascade: P4: EXTENDED_CASCADE exists (models 2 and later)
 * @p4_iq_escr: P4: IQ_ESCR0/1 exist (models 2 and earlier)
 * @ctr_width: counter width in bits, as read: sums fold at it and i-mode
 *	counters are written sign-extended to it; 0 where not known (the
 *	Cyrix, WinChip and VIA C3 counters): 32, their low half, then
 * @fixed_width: the architectural perfmon's fixed counters' width
 *	(CPUID 0xA EDX[12:5]), which need not be the general counters';
 *	0: @ctr_width
 * @ovf_ctrl_msr: P6 family: the MSR that clears overflow status bits
 *	(bit layout of the global control), 0 if none
 * @gp_mask: P6 family: the general counters, if not the first @nr_ctrs
 * @fixed_mask: P6 family: the fixed counters, if not the first @nr_fixed
 * @ctr_write_msr: P6 family: where to write the first counter's full
 *	width (Intel's IA32_A_PMC0), 0 for @perfctr_msr
 */
struct perfctr_x86_model {
	const char *name;
	unsigned int cpu_type;
	const struct perfctr_x86_family_ops *ops;
	unsigned int nr_ctrs;
	u32 evntsel_msr;
	u32 perfctr_msr;
	unsigned int evntsel_stride;
	bool global_enable;
	u32 high_allowed;
	unsigned int nr_fixed;
	u32 global_ctrl_msr;
	u32 reserved;
	u32 cpl;
	bool no_rdpmc;
	bool no_tsc;
	bool p4_ext_cascade;
	bool p4_iq_escr;
	unsigned int ctr_width;
	unsigned int fixed_width;
	u32 ovf_ctrl_msr;
	u32 gp_mask;
	u32 fixed_mask;
	u32 ctr_write_msr;
};

/*
 * The most general and fixed counters an architectural perfmon model
 * uses: those the architectural MSRs address (the SDM's IA32_PERFEVTSEL0-9
 * with IA32_PMC0-9, IA32_FIXED_CTR0-6).  The next MSRs are other
 * registers (190H is a machine-check register), whatever CPUID says.
 */
#define PERFCTR_X86_MAX_GP	10
#define PERFCTR_X86_MAX_FIXED	7

/**
 * struct perfctr_x86_pmu_caps - what one CPU's PMU has (hybrid CPUs)
 * @gp: bitmap of its general counters
 * @fixed: bitmap of its fixed counters
 * @width: width of its general counters in bits
 * @fixed_width: width of its fixed counters in bits
 * @type: its core type (enum x86_topology_cpu_type), for messages
 */
struct perfctr_x86_pmu_caps {
	u32 gp;
	u32 fixed;
	u8 width;
	u8 fixed_width;
	u8 type;
};

/* pmc_map[] of the architectural perfmon's fixed counter N: this + N. */
#define PERFCTR_X86_PMC_MAP_FIXED	0x40000000U

/* P4 MSRs: ESCRs 0x3a0..0x3e1 (with holes), replay tagging. */
#define PERFCTR_P4_ESCR0		0x3a0
#define PERFCTR_P4_NR_ESCRS		0x42
#define PERFCTR_P4_PEBS_ENABLE		0x3f1
#define PERFCTR_P4_PEBS_MATRIX_VERT	0x3f2

/**
 * struct perfctr_x86_cache - what one CPU's control registers hold
 * @id: k1.id of the control last loaded, 0 if none
 * @iid: k1.id of the state whose i-mode counts the counters hold (the
 *	state was suspended here and nothing reprogrammed them since), 0 if
 *	none
 * @evntsel: value of each event select (P4: each CCCR)
 * @fixed_ctrl: value of IA32_FIXED_CTR_CTRL
 * @id_global: the global enable value of control @id (the P6 family stops
 *	the counters at each suspend, and starts them again at the resume)
 * @global: value of the global enable MSR
 * @cesr: P5 family: value of the CESR
 * @escr: P4: value of each ESCR, indexed by MSR - PERFCTR_P4_ESCR0
 * @pebs_enable: P4: value of PEBS_ENABLE
 * @pebs_matrix_vert: P4: value of PEBS_MATRIX_VERT
 * @ctrs_id: the control whose counts the counters hold (0: nobody's, as
 *	at boot; all ones: unknown), perfctr_x86_claim_ctrs()
 */
struct perfctr_x86_cache {
	u64 id;
	u64 iid;
	u64 ctrs_id;
	u64 evntsel[PERFCTR_NRCTRS];
	u64 fixed_ctrl;
	u64 id_global;
	u64 global;
	u32 cesr;
	u32 escr[PERFCTR_P4_NR_ESCRS];
	u32 pebs_enable;
	u32 pebs_matrix_vert;
};

extern const struct perfctr_x86_model perfctr_x86_p6;
extern const struct perfctr_x86_model perfctr_x86_k7;
extern const struct perfctr_x86_model perfctr_x86_fam10h;
extern const struct perfctr_x86_model perfctr_x86_amd_core;
extern const struct perfctr_x86_model perfctr_x86_amd_core_v1;
extern const struct perfctr_x86_model perfctr_x86_p5;
extern const struct perfctr_x86_model perfctr_x86_p5mmx;
extern const struct perfctr_x86_model perfctr_x86_mii;
extern const struct perfctr_x86_model perfctr_x86_winchip_c6;
extern const struct perfctr_x86_model perfctr_x86_winchip_2;
extern const struct perfctr_x86_model perfctr_x86_vc3;
extern const struct perfctr_x86_model perfctr_x86_p4;
extern const struct perfctr_x86_model perfctr_x86_p4m2;
extern const struct perfctr_x86_model perfctr_x86_p4m3;

/*
 * The hardware accessors: inline on the switch path, through paravirt
 * (a Xen PV guest traps them) -- except with the KUnit suite, which
 * redirects them to its simulated PMU (core.c).
 */
#if IS_ENABLED(CONFIG_PERFCTR_X86_KUNIT_TEST)
void perfctr_x86_wrmsr(u32 msr, u64 val);
u64 perfctr_x86_rdmsr(u32 msr);
u64 perfctr_x86_rdpmc(u32 map);
#else
static __always_inline void perfctr_x86_wrmsr(u32 msr, u64 val)
{
	wrmsrq(msr, val);
}

static __always_inline u64 perfctr_x86_rdmsr(u32 msr)
{
	u64 val;

	rdmsrq(msr, val);
	return val;
}

static __always_inline u64 perfctr_x86_rdpmc(u32 map)
{
	return rdpmc(map);
}
#endif

bool perfctr_x86_ht_sibling(unsigned int cpu);
int perfctr_x86_event_counters(u64 config, unsigned int cpu, u64 *cntrs);

/* Shared by the families (core.c). */
extern const struct perfctr_x86_model *perfctr_x86_cur_model;
extern bool perfctr_x86_pcint;
bool perfctr_x86_has_p4_fields(const struct perfctr_cpu_control *cc);
void perfctr_x86_rdpmc_suspend_pmcs(struct perfctr_cpu_state *state);
void perfctr_x86_rdpmc_resume_pmcs(struct perfctr_cpu_state *state);
typedef void (*perfctr_x86_istop_t)(const struct perfctr_cpu_state *state,
				    struct perfctr_x86_cache *cache);
void perfctr_x86_imode_suspend(struct perfctr_cpu_state *state, perfctr_x86_istop_t istop);
void perfctr_x86_imode_resume(struct perfctr_cpu_state *state, perfctr_x86_istop_t istop,
			      u32 map_mask);
bool perfctr_x86_msr_responds(u32 msr, u64 bits);
bool perfctr_x86_perf_pmu_responds(void);
bool perfctr_x86_pmu_responds(const struct perfctr_x86_model *model);

/* The P6 family (p6.c) and the hybrid CPUs' PMUs (hybrid.c). */
u32 perfctr_x86_gp_here(void);
void perfctr_x86_claim_ctrs(const struct perfctr_cpu_state *state);
bool perfctr_x86_is_hybrid(const struct perfctr_x86_model *m);
u32 perfctr_x86_hybrid_gp_here(void);
u32 perfctr_x86_hybrid_fixed_here(void);
/* At most this many core types; perfctr_x86_hybrid_type_cpus(). */
#define PERFCTR_X86_MAX_TYPES	4
unsigned int perfctr_x86_hybrid_type_cpus(unsigned int pmc,
					  unsigned int cpus[PERFCTR_X86_MAX_TYPES]);
const struct perfctr_x86_model *perfctr_x86_hybrid_boot(const struct perfctr_x86_model *boot);

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

struct perfctr_x86_cache *perfctr_x86_this_cache(void);

/**
 * struct perfctr_x86_cpuid - what model detection reads of a CPU
 * @vendor: X86_VENDOR_*
 * @family: CPUID family (with the extended family added)
 * @model: CPUID model (with the extended model)
 * @mmx: X86_FEATURE_MMX
 * @arch_perfmon: X86_FEATURE_ARCH_PERFMON
 * @fw_writes: IA32_PERF_CAPABILITIES.FW_WRITE
 * @perfctr_core: X86_FEATURE_PERFCTR_CORE (AMD)
 * @perfmon_v2: X86_FEATURE_PERFMON_V2 (AMD)
 * @eax10: CPUID 0xA EAX (with @arch_perfmon)
 * @ecx10: CPUID 0xA ECX
 * @edx10: CPUID 0xA EDX
 * @ext: CPUID 0x23 enumerates the counters (@gp23, @fixed23)
 * @gp23: CPUID 0x23.1 EAX, the general counters' bitmap
 * @fixed23: CPUID 0x23.1 EBX, the fixed counters' bitmap
 * @ebx_80000022: CPUID 0x80000022 EBX (with @perfmon_v2)
 * @tsx_owns_pmc3: X86_FEATURE_TSX_FORCE_ABORT (and not RTM_ALWAYS_ABORT)
 *	with MSR_TSX_FORCE_ABORT's RTM_FORCE_ABORT clear: TSX uses PMC3
 */
struct perfctr_x86_cpuid {
	unsigned int vendor, family, model;
	bool mmx, arch_perfmon, fw_writes, perfctr_core, perfmon_v2, ext;
	bool tsx_owns_pmc3;
	u32 eax10, ecx10, edx10, gp23, fixed23;
	u32 ebx_80000022;
};

void perfctr_x86_parse_pmu_caps(struct perfctr_x86_pmu_caps *caps, u32 eax10,
				u32 ecx10, u32 edx10, bool ext, u32 gp23, u32 fixed23);
const struct perfctr_x86_model *
perfctr_x86_arch_model(const struct perfctr_x86_pmu_caps *caps, unsigned int version,
		       bool full_width, struct perfctr_x86_model *m);

/*
 * What only the KUnit suite reaches besides the driver's own files: static
 * without KUnit (VISIBLE_IF_KUNIT, which follows CONFIG_KUNIT, and so do
 * these declarations), exported to the suite's module in the namespace
 * EXPORTED_FOR_KUNIT_TESTING.
 */
#if IS_ENABLED(CONFIG_KUNIT)
extern bool perfctr_x86_no_lapic;
extern u64 perfctr_x86_width_mask;
extern bool perfctr_x86_p4_ht;
struct perfctr_x86_pmu_caps *perfctr_x86_pmu_caps_of(unsigned int cpu);
void perfctr_x86_use_model(const struct perfctr_x86_model *model);
int perfctr_x86_cpu_forget(unsigned int cpu);
const struct perfctr_x86_model *
perfctr_x86_detect(unsigned int vendor, unsigned int family, unsigned int model, bool mmx);
const struct perfctr_x86_model *
perfctr_x86_detect_cpu(const struct perfctr_x86_cpuid *c, struct perfctr_x86_model *buf);
unsigned int perfctr_x86_p4_escr_msr(unsigned int pmc, u32 cccr);
const struct perfctr_x86_model *
perfctr_x86_hybrid_model(bool full_width, struct perfctr_x86_model *m);
#endif

/*
 * The KUnit suite's simulated PMU, for the test thread only: the
 * accessors' hook, built only with the suite (else never used).
 */
struct perfctr_x86_test_hw {
	void (*wrmsr)(u32 msr, u64 val);
	u64 (*read_msr)(u32 msr);
	u64 (*read_pmc)(u32 map);
};

/* Built only with the KUnit suite. */
#if IS_ENABLED(CONFIG_PERFCTR_X86_KUNIT_TEST)
extern struct perfctr_x86_test_hw perfctr_x86_test_hw;

/* The operations the static calls point to. */
struct perfctr_x86_ops {
	void *check;
	void *suspend;
	void *resume;
	void *write_control;
};

void perfctr_x86_get_ops(struct perfctr_x86_ops *ops);
#endif

#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
void perfctr_x86_set_ihandler(perfctr_ihandler_t handler);
void perfctr_x86_lvtpc_take_cpu(void);
void perfctr_x86_lvtpc_give_cpu(void);
void perfctr_x86_lvtpc_forget_cpu(unsigned int cpu);
#else
static inline void perfctr_x86_lvtpc_take_cpu(void) { }
static inline void perfctr_x86_lvtpc_give_cpu(void) { }
static inline void perfctr_x86_lvtpc_forget_cpu(unsigned int cpu) { }
#endif

#endif

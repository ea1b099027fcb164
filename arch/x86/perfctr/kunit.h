/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the perfctr x86 driver's KUnit suites share: the simulated PMU
 * (sim_kunit.c), the register bits the cases write, and the helpers that
 * build and run states on it.
 */
#ifndef _ARCH_X86_PERFCTR_KUNIT_H
#define _ARCH_X86_PERFCTR_KUNIT_H

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/debug_locks.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/mmu_context.h>
#include <asm/msr-index.h>
#include <asm/nmi.h>
#include <asm/tlbflush.h>

#include "x86.h"

#define EN	BIT(22)
#define INT	BIT(20)
#define USR	BIT(16)
#define OS	BIT(17)
#define EVENT	0xc0	/* instructions retired */

#define FIXED(n)	(0x40000000U + (n))
#define F_OS	BIT(0)
#define F_USR	BIT(1)
#define F_ANY	BIT(2)
#define F_PMI	BIT(3)
#define FIXED_CTRL_MSR	0x38d

/* The family whose registers the simulated PMU plays: by its CPU type. */
enum sim_family { SIM_P6, SIM_P5, SIM_VC3, SIM_P4 };

/*
 * A PMU's registers as the vendors' manuals give them (sim_manual_regs()):
 * what the simulated PMU decodes, whatever the driver's model says, and
 * what driver_models_match_the_manuals checks each model against.
 */
struct sim_regs {
	const char *manual;	/* where they are written down */
	u32 evntsel0, ctr0;	/* the first event select and counter */
	u32 stride;		/* MSRs from counter n to counter n + 1 */
	bool from_cpuid;	/* counters and width as CPUID says */
	unsigned int nr_gp;	/* general counters (from CPUID: the most) */
	unsigned int nr_fixed;	/* the most fixed counters */
	unsigned int width;	/* counter bits; 0: as CPUID says */
	bool en0_only;		/* EVNTSEL0's enable bit runs them all */
	u32 full_width0;	/* the full-width counter aliases; 0: none */
	u32 fixed0, fixed_ctrl;	/* the fixed counters; 0: none */
	u32 global_ctrl, global_status, ovf_ctrl;	/* 0: none */
};

struct sim_pmu {
	const struct perfctr_x86_model *model;
	const struct sim_regs *regs;	/* the manual's, for the P6 family */
	u64 evntsel[PERFCTR_NRCTRS];
	u64 ctr[PERFCTR_NRCTRS];
	u64 fixed_ctr[4];
	u64 fixed_ctrl;
	u64 global;
	unsigned int width;
	u32 cesr;			/* P5 family */
	u32 escr[PERFCTR_P4_NR_ESCRS];	/* P4 */
	u32 pebs_enable, pebs_matrix_vert;
	unsigned int rdmsrs, rdpmcs;
	unsigned int wrmsrs;
	unsigned int ctr_writes;	/* P6 family: writes of counters */
	unsigned int pmis;	/* overflows with INT/PMI set: interrupts */
	u64 status;		/* P6 family: overflow status, global layout */
	u64 ovf_cleared;	/* bits written to the overflow status clear MSR */
	u32 log[64];		/* the MSRs written, in order */
	unsigned int stray;	/* accesses outside the model's registers */
	u32 gp_here;		/* hybrid: this CPU's general counters; 0: all */
	/*
	 * P6 family: the control registers as they were the last time
	 * events were counted (sim_advance()): what the resume loaded,
	 * which the suspend then stops.
	 */
	u64 run_evntsel[PERFCTR_NRCTRS];
	u64 run_fixed_ctrl;
	u64 run_global;
};

#define FIXED_CTR_MSR(n)	(0x309 + (n))

#define ARCH	(&sim_arch_v2)
#define AMD	(&perfctr_x86_amd_core)

#define P5	(&perfctr_x86_p5)
#define P5MMX	(&perfctr_x86_p5mmx)
#define MII	(&perfctr_x86_mii)
#define C6	(&perfctr_x86_winchip_c6)
#define WC2	(&perfctr_x86_winchip_2)
#define VC3	(&perfctr_x86_vc3)
#define P4	(&perfctr_x86_p4)
#define P4M2	(&perfctr_x86_p4m2)
#define P4M3	(&perfctr_x86_p4m3)

#define CESR_MSR	0x11
#define CESR_CPL0	BIT(6)	/* count at CPL 0-2 */
#define CESR_CPL3	BIT(7)	/* count at CPL 3 */
#define P5EV		0x16	/* instructions executed */

#define CCCR_MSR(n)	(0x360 + (n))
#define P4_CTR_MSR(n)	(0x300 + (n))
#define C_ENABLE	BIT(12)
#define C_SEL(n)	((n) << 13)
#define C_ACTIVE	(BIT(17) | BIT(16))
#define C_FORCE_OVF	BIT(25)
#define C_PMI_T0	BIT(26)
#define C_PMI_T1	BIT(27)
#define C_CASCADE	BIT(30)
#define C_OVF		BIT(31)
#define C_EXT_CASCADE	BIT(11)
#define E_T0_OS		BIT(3)
#define E_T0_USR	BIT(2)
#define E_T1_USR	BIT(0)
#define E_EV(n)		((n) << 25)
#define FAST		BIT(31)
/* A counting P4 counter: instr_retired on CRU_ESCR0 (counter 12, select 4). */
#define IQ_CCCR		(C_ENABLE | C_ACTIVE | C_SEL(4))
#define IQ_ESCR		(E_EV(2) | BIT(9) | E_T0_USR)

struct saved_caps {
	unsigned int n;
	struct perfctr_x86_pmu_caps caps[];
};

#define ISEL	(INT | EN | USR | EVENT)

#define P4_ICCCR	(IQ_CCCR | C_PMI_T0)

#define LVT_BITS	(APIC_LVT_MASKED | APIC_MODE_MASK | APIC_VECTOR_MASK)

/*
 * KVM's vPMU as a guest booted with -cpu host sees it (sim_kvm_setup()):
 * the rules of arch/x86/kvm/pmu.c, vmx/pmu_intel.c and svm/pmu.c, with
 * the reserved-bit masks KVM computes from the guest's CPUID.  A write
 * KVM refuses is a #GP in the guest: not applied, counted in @gps; a
 * write whose bits KVM drops (AMD ignores reserved bits) in @dropped.
 */
struct sim_kvm {
	bool amd, fw_writes, core;
	unsigned int version, nr_gp, nr_fixed;
	u64 ctr_mask, fixed_mask;
	u64 evntsel_rsvd, fixed_ctrl_rsvd, global_rsvd, status_rsvd;
	unsigned int gps, dropped;
	u32 gp_msr;		/* the first write refused, and its value */
	u64 gp_val;
};

extern struct sim_kvm sim_kvm;
void sim_kvm_setup(struct kunit *test, const struct perfctr_x86_cpuid *c,
		   const struct perfctr_x86_model *model);

enum sim_family sim_family(const struct perfctr_x86_model *m);
const struct sim_regs *sim_manual_regs(const struct perfctr_x86_model *m);
extern struct sim_pmu sim_hw;
void sim_advance(u64 events);
int sim_written(u32 msr, unsigned int from);
struct perfctr_x86_model *sim_model_buf(struct kunit *test);
void sim_setup(struct kunit *test, const struct perfctr_x86_model *model,
	       unsigned int width);
int sim_suite_init(struct kunit_suite *suite);
int sim_test_init(struct kunit *test);
void sim_test_exit(struct kunit *test);
struct perfctr_cpu_state *sim_state(struct kunit *test, unsigned int n,
				    const u32 *maps, const u32 *sels);
int sim_check1(struct kunit *test, const struct perfctr_x86_model *m,
	       u32 map, u32 sel);
int sim_check2(struct kunit *test, const struct perfctr_x86_model *m,
	       u32 map0, u32 sel0, u32 map1, u32 sel1);
struct perfctr_cpu_state *sim_one_counter(struct kunit *test,
					  const struct perfctr_x86_model *m,
					  u32 map, u32 sel);
void sim_run(struct perfctr_cpu_state *st, u64 events);
extern const struct perfctr_x86_model sim_arch_v2;
extern const u16 sim_sdm_escr[18][8];
void simx_setup(struct kunit *test, const struct perfctr_x86_model *model,
		unsigned int width);
int sim_check_on(struct kunit *test, u32 map, u32 sel);
u32 sim_sel1(const struct perfctr_x86_model *m, u32 sel);
void sim_imode_setup(struct kunit *test, const struct perfctr_x86_model *m,
		     unsigned int width);
struct perfctr_cpu_state *sim_mkistate(struct kunit *test, unsigned int na,
				       unsigned int ni, const u32 *maps,
				       const u32 *sels, const int *iresets);
u64 sim_sext(s32 v);
void sim_irqs_off(void (*op)(struct perfctr_cpu_state *), struct perfctr_cpu_state *st);
void sim_suspend(struct perfctr_cpu_state *st);
void sim_resume(struct perfctr_cpu_state *st);
struct perfctr_cpu_state *sim_istate(struct kunit *test, const struct perfctr_x86_model *m,
				     unsigned int width, int ireset);

/*
 * perf's answer for the simulated CPU (perfctr_x86_event_counters()):
 * the first entry with (config & @cmask) == @code for the asking CPU's
 * core type (@type < 0: any) gives @err, or else @cntrs; no entry: every
 * counter.  The tables are entries of perf's (arch/x86/events/intel/core.c)
 * for the models they name.  No table: perf has no PMU (-ENODEV).
 */
struct sim_constraint {
	u64 cmask;
	u64 code;
	u64 cntrs;
	int err;
	int type;
};

#define SIM_EVENT	0xffULL		/* ARCH_PERFMON_EVENTSEL_EVENT */
#define SIM_UEVENT	0xffffULL	/* INTEL_ARCH_EVENT_MASK */
#define SIM_ANY_TYPE	(-1)

/* A table ends with an entry whose cmask is 0. */
void sim_use_perf(const struct sim_constraint *table);
extern unsigned int sim_perf_asked;
extern u64 sim_perf_config;

/*
 * kernel/perfctr/pmu.c, with the virtual counters: a state's RDPMC grant
 * on @tsk's mm and its revocation, as fork and exec make them.
 */
int vperfctr_kunit_grant_rdpmc(struct task_struct *tsk);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on a simulated PMU.
 *
 * x86 PMCs never count under QEMU TCG, so the P6-family models are driven
 * here through their real code -- perfctr_cpu_update_control/resume/
 * suspend/sample and the static calls behind them -- with the MSR and
 * RDPMC accessors redirected (KUnit static stubs) to a simulated PMU that
 * counts only what its event selects enable, in counters 32, 40 or 48
 * bits wide.  The driver's internals it reaches are exported to it only
 * with KUnit (VISIBLE_IF_KUNIT, EXPORT_SYMBOL_IF_KUNIT): the suite may
 * be built as a module.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/mmu_context.h>
#include <asm/msr-index.h>
#include <asm/nmi.h>
#include <asm/tlbflush.h>
#include <linux/processor.h>

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

static enum sim_family sim_family(const struct perfctr_x86_model *m)
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

struct sim_pmu {
	const struct perfctr_x86_model *model;
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
};

static struct sim_pmu sim;

#define FIXED_CTR_MSR(n)	(0x309 + (n))

/* P6 family: a counter write, as AMD's full-width counters take it. */
static bool sim_write_counter(u32 msr, u64 val)
{
	const struct perfctr_x86_model *m = sim.model;
	u64 mask = GENMASK_ULL(sim.width - 1, 0);
	u32 idx = msr - m->perfctr_msr;

	if (sim_family(m) != SIM_P6)
		return false;
	if (m->ovf_ctrl_msr && msr == m->ovf_ctrl_msr) {
		sim.ovf_cleared |= val;
		sim.status &= ~val;
		return true;
	}
	if (m->ctr_write_msr && msr - m->ctr_write_msr < m->nr_ctrs)
		idx = msr - m->ctr_write_msr;	/* full-width alias */
	if (idx % m->evntsel_stride == 0 && idx / m->evntsel_stride < m->nr_ctrs)
		sim.ctr[idx / m->evntsel_stride] = val & mask;
	else if (msr - FIXED_CTR_MSR(0) < m->nr_fixed)
		sim.fixed_ctr[msr - FIXED_CTR_MSR(0)] = val & mask;
	else
		return false;
	if (val & ~mask)	/* bits beyond the counter: not ours to write */
		sim.stray++;
	sim.ctr_writes++;
	return true;
}

static void sim_wrmsr(u32 msr, u64 val)
{
	const struct perfctr_x86_model *m = sim.model;
	u32 idx = msr - m->evntsel_msr;

	if (sim.wrmsrs < ARRAY_SIZE(sim.log))
		sim.log[sim.wrmsrs] = msr;
	sim.wrmsrs++;
	if (sim_write_counter(msr, val))
		return;
	if (m->nr_fixed && msr == FIXED_CTRL_MSR)
		sim.fixed_ctrl = val;
	else if (m->global_ctrl_msr && msr == m->global_ctrl_msr)
		sim.global = val;
	else if (idx % m->evntsel_stride == 0 && idx / m->evntsel_stride < m->nr_ctrs &&
		 (!sim.gp_here || sim.gp_here & BIT(idx / m->evntsel_stride)))
		sim.evntsel[idx / m->evntsel_stride] = val;
	else
		sim.stray++;	/* on hardware: #GP */
}

/* RDPMC returns the whole counter, its width's bits. */
static u64 sim_rdpmc(u32 map)
{
	if (map >= FIXED(0) && map - FIXED(0) < sim.model->nr_fixed)
		return sim.fixed_ctr[map - FIXED(0)];
	if (map >= sim.model->nr_ctrs) {
		sim.stray++;
		return 0;
	}
	return sim.ctr[map];
}

static bool simx_counting(unsigned int i);

static bool sim_counting(unsigned int i)
{
	u64 sel = sim.evntsel[i];

	if (sim_family(sim.model) != SIM_P6)
		return simx_counting(i);
	if (!(sel & (USR | OS)) || !(sel & 0xff))
		return false;
	if (sim.model->global_ctrl_msr && !(sim.global & BIT_ULL(i)))
		return false;
	if (sim.model->global_enable)
		return sim.evntsel[0] & EN;
	return sel & EN;
}

static bool sim_fixed_counting(unsigned int n)
{
	return (sim.fixed_ctrl >> (4 * n)) & (F_OS | F_USR) &&
	       sim.global & BIT_ULL(32 + n);
}

static void sim_advance(u64 events)
{
	u64 mask = GENMASK_ULL(sim.width - 1, 0);
	unsigned int i;

	for (i = 0; i < sim.model->nr_ctrs; i++) {
		if (!sim_counting(i))
			continue;
		if (sim_family(sim.model) == SIM_P6 && sim.evntsel[i] & INT &&
		    sim.ctr[i] + events > mask) {
			sim.pmis++;
			sim.status |= BIT_ULL(i);
		}
		if (sim_family(sim.model) == SIM_P4 && sim.ctr[i] + events > mask) {
			sim.evntsel[i] |= BIT(31);		/* the CCCR's OVF flag */
			if (sim.evntsel[i] & BIT(26))		/* OVF_PMI_T0 */
				sim.pmis++;
		}
		sim.ctr[i] = (sim.ctr[i] + events) & mask;
	}
	for (i = 0; i < sim.model->nr_fixed; i++) {
		if (!sim_fixed_counting(i))
			continue;
		if ((sim.fixed_ctrl >> (4 * i)) & F_PMI && sim.fixed_ctr[i] + events > mask) {
			sim.pmis++;
			sim.status |= BIT_ULL(32 + i);
		}
		sim.fixed_ctr[i] = (sim.fixed_ctr[i] + events) & mask;
	}
}

/* Index in sim.log of the first write of @msr after position @from, or -1. */
static int sim_written(u32 msr, unsigned int from)
{
	unsigned int i;

	for (i = from; i < min_t(unsigned int, sim.wrmsrs, ARRAY_SIZE(sim.log)); i++)
		if (sim.log[i] == msr)
			return i;
	return -1;
}

/*
 * Room for a model the driver builds (from CPUID, or the hybrid model):
 * the suite's own, never the one the driver built at boot.
 */
static struct perfctr_x86_model *model_buf(struct kunit *test)
{
	struct perfctr_x86_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	return m;
}

static void sim_setup(struct kunit *test, const struct perfctr_x86_model *model,
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
	memset(&sim, 0, sizeof(sim));
	sim.model = model;
	sim.width = width;
	perfctr_x86_test_hw.wrmsr = sim_wrmsr;
	perfctr_x86_test_hw.read_msr = NULL;
	perfctr_x86_test_hw.read_pmc = sim_rdpmc;
	perfctr_x86_use_model(model);
}

/*
 * A few cases reach what the kernel exports to no module: perf's rdpmc
 * knob, the local APIC's registers, KVM's mediated vPMU calls.  With the
 * suite built in (the test kernels) they run; in the module they skip,
 * and the compiler drops their references as unreachable.
 */
#define BUILT_IN_ONLY(test)							\
	do {									\
		if (!IS_BUILTIN(CONFIG_PERFCTR_X86_KUNIT_TEST))			\
			kunit_skip(test, "reaches kernel internals no module may: built in only"); \
	} while (0)

/* What the cases change of the driver's state, as the suite found it. */
static const struct perfctr_x86_model *saved_model;
static bool saved_p4_ht;

static int perfctr_x86_suite_init(struct kunit_suite *suite)
{
	saved_model = perfctr_x86_cur_model;	/* the model chosen at boot */
	saved_p4_ht = perfctr_x86_p4_ht;
	return 0;
}

static int perfctr_x86_test_init(struct kunit *test)
{
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

static void perfctr_x86_test_exit(struct kunit *test)
{
	perfctr_x86_p4_ht = saved_p4_ht;
	perfctr_x86_no_lapic = false;
	perfctr_x86_use_model(saved_model);
	memset(&perfctr_x86_test_hw, 0, sizeof(perfctr_x86_test_hw));
}

/* A state with @n a-mode counters: pmc_map[i] = maps[i], evntsel[i] = sels[i]. */
static struct perfctr_cpu_state *mkstate(struct kunit *test, unsigned int n,
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

static int check1(struct kunit *test, const struct perfctr_x86_model *m,
		  u32 map, u32 sel)
{
	sim_setup(test, m, 40);
	return perfctr_cpu_update_control(mkstate(test, 1, &map, &sel), 0);
}

static int check2(struct kunit *test, const struct perfctr_x86_model *m,
		  u32 map0, u32 sel0, u32 map1, u32 sel1)
{
	u32 maps[] = { map0, map1 }, sels[] = { sel0, sel1 };

	sim_setup(test, m, 40);
	return perfctr_cpu_update_control(mkstate(test, 2, maps, sels), 0);
}

/* A one-counter state on @m, not yet validated, for tests that edit it. */
static struct perfctr_cpu_state *one_counter(struct kunit *test,
					     const struct perfctr_x86_model *m,
					     u32 map, u32 sel)
{
	sim_setup(test, m, 48);
	return mkstate(test, 1, &map, &sel);
}

/* ---- P6 validation: each rule of the x86 driver's documentation ---- */

static void p6_accepts_counter0(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, check1(test, &perfctr_x86_p6, 0, EN | USR | EVENT));
}

static void p6_accepts_both_counters(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, check2(test, &perfctr_x86_p6, 0, EN | USR | EVENT,
					1, OS | 0x79));
}

static void p6_rejects_enable_in_evntsel1(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check2(test, &perfctr_x86_p6, 0, EN | USR | EVENT,
					      1, EN | OS | 0x79));
}

static void p6_rejects_evntsel0_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 0, USR | EVENT));
}

static void p6_rejects_counter1_alone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 1, USR | EVENT));
}

static void p6_rejects_reserved_bit21(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 0,
					      BIT(21) | EN | USR | EVENT));
}

static void p6_rejects_reserved_bit19(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 0,
					      BIT(19) | EN | USR | EVENT));
}

static void p6_rejects_int_in_amode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 0,
					      INT | EN | USR | EVENT));
}

static void p6_rejects_imode_without_interrupts(struct kunit *test)
{
	struct perfctr_cpu_state *st;

	perfctr_x86_no_lapic = true;		/* no local APIC: no interrupt */
	st = one_counter(test, &perfctr_x86_p6, 0, INT | EN | USR | EVENT);
	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = -100;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void p6_rejects_no_cpl(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 0, EN | EVENT));
}

static void p6_accepts_os_only(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, check1(test, &perfctr_x86_p6, 0, EN | OS | EVENT));
}

static void p6_rejects_duplicate_map(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check2(test, &perfctr_x86_p6, 0, EN | USR | EVENT,
					      0, EN | USR | EVENT));
}

static void p6_rejects_map_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_p6, 2, EN | USR | EVENT));
}

static void p6_rejects_too_many_counters(struct kunit *test)
{
	u32 maps[] = { 0, 1, 0 }, sels[] = { EN | USR | EVENT, USR | EVENT, USR | EVENT };

	sim_setup(test, &perfctr_x86_p6, 40);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(mkstate(test, 3, maps, sels), 0));
}

static void p6_rejects_evntsel_high(struct kunit *test)
{
	struct perfctr_cpu_state *st = one_counter(test, &perfctr_x86_p6, 0, EN | USR | EVENT);

	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void p6_rejects_p4_fields(struct kunit *test)
{
	struct perfctr_cpu_state *st = one_counter(test, &perfctr_x86_p6, 0, EN | USR | EVENT);

	st->control.p4.escr[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

/* ---- K7/K8 validation ---- */

static void k7_accepts_four_counters(struct kunit *test)
{
	u32 maps[] = { 3, 2, 1, 0 };
	u32 sels[] = { EN | USR | 0x76, EN | OS | 0xc0, EN | USR | OS | 0xc2, EN | USR | 0x40 };

	sim_setup(test, &perfctr_x86_k7, 48);
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(mkstate(test, 4, maps, sels), 0));
}

static void k7_rejects_counter_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check2(test, &perfctr_x86_k7, 0, EN | USR | EVENT,
					      1, USR | EVENT));
}

static void k7_accepts_counter1_alone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, check1(test, &perfctr_x86_k7, 1, EN | USR | EVENT));
}

static void k7_rejects_map_4(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_k7, 4, EN | USR | EVENT));
}

static void k7_rejects_reserved_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, &perfctr_x86_k7, 0,
					      BIT(21) | EN | USR | EVENT));
}

/* ---- Counting ---- */

static void run(struct perfctr_cpu_state *st, u64 events)
{
	unsigned long flags;

	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(events);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
}

static struct perfctr_cpu_state *counting_state(struct kunit *test,
						const struct perfctr_x86_model *m,
						unsigned int width)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT;

	sim_setup(test, m, width);
	st = mkstate(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static u64 tsc_after_2_33(void)
{
	return 0x1fffffff0ULL + BIT_ULL(33) + 0x10;
}

static void counts_accumulate_over_periods(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);

	run(st, 1000);
	KUNIT_EXPECT_EQ(test, 1000ULL, st->pmc[0].sum);
	sim_advance(777);	/* another thread's events: not ours */
	run(st, 500);
	KUNIT_EXPECT_EQ(test, 1500ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

static void wraps(struct kunit *test, unsigned int width)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_k7, width);

	sim.ctr[0] = GENMASK_ULL(width - 1, 0) - 40;	/* 41 events before the wrap */
	run(st, 100);
	KUNIT_EXPECT_EQ(test, 100ULL, st->pmc[0].sum);
	KUNIT_EXPECT_LT(test, sim.ctr[0], 100ULL);
	sim.ctr[0] = 0xffffff00ULL;			/* the low 32 bits wrap */
	run(st, 0x200);
	KUNIT_EXPECT_EQ(test, 100ULL + 0x200, st->pmc[0].sum);
}

/*
 * Full-width folding: a 48-bit counter advancing more than 2^33 events
 * between two folds (a 5 GHz core retiring four instructions a cycle
 * does it in under half a second), at a suspend and at a tick's sample,
 * and then across the counter's own wrap by more than 2^32.  A fold of
 * the low 32 bits would lose every whole 2^32.
 */
static void counts_beyond_2_33_between_folds_48(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_k7, 48);
	u64 want = BIT_ULL(33) + 5;
	unsigned long flags;

	KUNIT_EXPECT_EQ(test, 48U, st->pmc[0].width);
	run(st, BIT_ULL(33) + 5);
	KUNIT_EXPECT_EQ(test, want, st->pmc[0].sum);

	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(BIT_ULL(34) + 3);
	perfctr_cpu_sample(st);
	sim_advance(BIT_ULL(33) + 1);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	want += BIT_ULL(34) + 3 + BIT_ULL(33) + 1;
	KUNIT_EXPECT_EQ(test, want, st->pmc[0].sum);

	sim.ctr[0] = GENMASK_ULL(47, 0) - 100;
	run(st, BIT_ULL(35) + 7);
	want += BIT_ULL(35) + 7;
	KUNIT_EXPECT_EQ(test, want, st->pmc[0].sum);
	KUNIT_EXPECT_LT(test, sim.ctr[0], BIT_ULL(36));
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

/* A 40-bit counter (the P6) wrapping while it advances by more than 2^32. */
static void counts_across_a_40_bit_wrap_beyond_2_32(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);

	KUNIT_EXPECT_EQ(test, 40U, st->pmc[0].width);
	sim.ctr[0] = GENMASK_ULL(39, 0) - 9;
	run(st, BIT_ULL(32) * 3 + 11);
	KUNIT_EXPECT_EQ(test, BIT_ULL(32) * 3 + 11, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, BIT_ULL(32) * 3 + 1, sim.ctr[0]);
}

/* The TSC folds whole: a period longer than 2^32 cycles (under a second). */
static void tsc_folds_64_bits(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	st->tsc_start = 0x1fffffff0ULL;
	st->cstatus = perfctr_mk_cstatus(1, 0, 0);
	st->tsc_sum = 0;
	perfctr_tsc_suspend(st, tsc_after_2_33);
	KUNIT_EXPECT_EQ(test, BIT_ULL(33) + 0x10, st->tsc_sum);
}

static void counts_across_wrap_32(struct kunit *test)
{
	wraps(test, 32);
}

static void counts_across_wrap_40(struct kunit *test)
{
	wraps(test, 40);
}

static void counts_across_wrap_48(struct kunit *test)
{
	wraps(test, 48);
}

static void sample_keeps_counting(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);
	unsigned long flags;

	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(300);
	perfctr_cpu_sample(st);
	KUNIT_EXPECT_EQ(test, 300ULL, st->pmc[0].sum);
	sim_advance(200);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 500ULL, st->pmc[0].sum);
}

static void two_counters_count_separately(struct kunit *test)
{
	u32 maps[] = { 1, 0 }, sels[] = { USR | 0x79, EN | USR | EVENT };
	struct perfctr_cpu_state *st;

	sim_setup(test, &perfctr_x86_p6, 40);
	st = mkstate(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim.ctr[1] = 5000;
	run(st, 42);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 1U, st->pmc[0].map);
	KUNIT_EXPECT_EQ(test, 0U, st->pmc[1].map);
}

/* ---- The control register cache ---- */

static void resume_writes_control_once(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);

	run(st, 1);
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim.evntsel[0]);
	run(st, 1);
	run(st, 1);
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);	/* cached: no MSR writes */
}

static void resume_writes_only_what_differs(struct kunit *test)
{
	u32 maps[] = { 0, 1 };
	u32 a[] = { EN | USR | EVENT, USR | 0x79 }, b[] = { EN | USR | EVENT, OS | 0x79 };
	struct perfctr_cpu_state *sa, *sb;

	sim_setup(test, &perfctr_x86_p6, 40);
	sa = mkstate(test, 2, maps, a);
	sb = mkstate(test, 2, maps, b);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	KUNIT_EXPECT_NE(test, sa->k1.id, sb->k1.id);
	run(sa, 1);
	KUNIT_EXPECT_EQ(test, 2U, sim.wrmsrs);
	run(sb, 1);
	KUNIT_EXPECT_EQ(test, 3U, sim.wrmsrs);	/* EVNTSEL1 only */
	KUNIT_EXPECT_EQ(test, (u64)(OS | 0x79), sim.evntsel[1]);
	run(sb, 1);
	KUNIT_EXPECT_EQ(test, 3U, sim.wrmsrs);
}

static void unused_counters_are_disabled(struct kunit *test)
{
	u32 maps[] = { 0, 1 }, sels[] = { EN | USR | EVENT, USR | 0x79 };
	u32 map0 = 0, sel0 = EN | OS | EVENT;
	struct perfctr_cpu_state *two, *one;

	sim_setup(test, &perfctr_x86_p6, 40);
	two = mkstate(test, 2, maps, sels);
	one = mkstate(test, 1, &map0, &sel0);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(two, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	run(two, 10);
	run(one, 10);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[1]);
	KUNIT_EXPECT_EQ(test, (u64)sel0, sim.evntsel[0]);
}

static void new_control_gets_new_id(struct kunit *test)
{
	struct perfctr_cpu_state *st = counting_state(test, &perfctr_x86_p6, 40);
	unsigned int id = st->k1.id;

	KUNIT_EXPECT_NE(test, 0U, id);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_NE(test, id, st->k1.id);
	run(st, 1);
	KUNIT_EXPECT_EQ(test, st->k1.id, perfctr_x86_this_cache()->id);
}

/* ---- Intel architectural perfmon v2+ ---- */

/*
 * Architectural perfmon v2+ with the fewest counters CPUID 0xA then gave
 * (4 general, 3 fixed, 48 bits): the suite's fixed example.  At boot
 * perfctr_x86_arch_model() describes the CPU's own counters.
 */
static const struct perfctr_x86_model arch_v2 = {
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

#define ARCH	(&arch_v2)
#define AMD	(&perfctr_x86_amd_core)

static int check3(struct kunit *test, const struct perfctr_x86_model *m,
		  const u32 *maps, const u32 *sels)
{
	sim_setup(test, m, 48);
	return perfctr_cpu_update_control(mkstate(test, 3, maps, sels), 0);
}

static void arch_accepts_general_and_fixed(struct kunit *test)
{
	u32 maps[] = { 0, FIXED(0), FIXED(1) };
	u32 sels[] = { EN | USR | EVENT, F_USR, F_OS | F_USR };

	KUNIT_EXPECT_EQ(test, 0, check3(test, ARCH, maps, sels));
}

static void arch_rejects_counter_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check2(test, ARCH, 0, EN | USR | EVENT, 1, USR | EVENT));
}

static void arch_rejects_anythread(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, ARCH, 0, BIT(21) | EN | USR | EVENT));
}

static void arch_rejects_fixed_anythread(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, ARCH, FIXED(0), F_ANY | F_USR));
}

static void arch_rejects_fixed_pmi_in_amode(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, ARCH, FIXED(1), F_PMI | F_USR));
}

static void arch_rejects_fixed_counting_nothing(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, ARCH, FIXED(2), 0));
}

static void arch_rejects_fixed_out_of_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, ARCH, FIXED(3), F_USR));
}

static void arch_rejects_duplicate_fixed(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check2(test, ARCH, FIXED(1), F_USR, FIXED(1), F_OS));
}

static void arch_rejects_evntsel_high(struct kunit *test)
{
	struct perfctr_cpu_state *st = one_counter(test, ARCH, 0, EN | USR | EVENT);

	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void arch_rejects_map_beyond_counters(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, ARCH, 4, EN | USR | EVENT));
}

static void arch_accepts_fixed_alone(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, check1(test, ARCH, FIXED(2), F_OS));
}

static struct perfctr_cpu_state *arch_three(struct kunit *test)
{
	u32 maps[] = { 1, FIXED(0), FIXED(2) };
	u32 sels[] = { EN | USR | EVENT, F_USR, F_OS | F_USR };
	struct perfctr_cpu_state *st;

	sim_setup(test, ARCH, 48);
	st = mkstate(test, 3, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void arch_programs_fixed_ctrl_and_global(struct kunit *test)
{
	struct perfctr_cpu_state *st = arch_three(test);

	run(st, 10);
	KUNIT_EXPECT_EQ(test, (u64)(F_USR | (F_OS | F_USR) << 8), sim.fixed_ctrl);
	KUNIT_EXPECT_EQ(test, BIT_ULL(1) | BIT_ULL(32) | BIT_ULL(34), sim.global);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

static void arch_counts_general_and_fixed(struct kunit *test)
{
	struct perfctr_cpu_state *st = arch_three(test);

	sim.fixed_ctr[0] = 0xfffffff0ULL;	/* wraps the low 32 bits */
	run(st, 1234);
	run(st, 66);
	KUNIT_EXPECT_EQ(test, 1300ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 1300ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 1300ULL, st->pmc[2].sum);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.fixed_ctr[1]);	/* not ours: never enabled */
}

static void arch_second_resume_writes_nothing(struct kunit *test)
{
	struct perfctr_cpu_state *st = arch_three(test);
	unsigned int n;

	run(st, 1);
	n = sim.wrmsrs;
	KUNIT_EXPECT_EQ(test, 3U, n);	/* EVNTSEL1, FIXED_CTR_CTRL, GLOBAL_CTRL */
	run(st, 1);
	KUNIT_EXPECT_EQ(test, n, sim.wrmsrs);
}

static void arch_stops_before_reprogramming(struct kunit *test)
{
	u32 maps[] = { 0, 1 }, a[] = { EN | USR | EVENT, EN | USR | 0x3c };
	u32 map = 1, b = EN | OS | 0x2e;
	struct perfctr_cpu_state *sa, *sb;
	int g, e;

	sim_setup(test, ARCH, 48);
	sa = mkstate(test, 2, maps, a);
	sb = mkstate(test, 1, &map, &b);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	run(sa, 5);
	sim.wrmsrs = 0;
	run(sb, 5);
	/* Counter 0 is disabled globally before its event select changes. */
	g = sim_written(ARCH->global_ctrl_msr, 0);
	e = sim_written(ARCH->evntsel_msr, 0);
	KUNIT_EXPECT_GE(test, g, 0);
	KUNIT_EXPECT_GT(test, e, g);
	KUNIT_EXPECT_EQ(test, BIT_ULL(1), sim.global);
	KUNIT_EXPECT_EQ(test, 5ULL, sb->pmc[0].sum);
}

static void arch_wraps_at_48_bits(struct kunit *test)
{
	u32 map = 2, sel = EN | USR | EVENT;
	struct perfctr_cpu_state *st;

	sim_setup(test, ARCH, 48);
	st = mkstate(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim.ctr[2] = GENMASK_ULL(47, 0) - 9;
	run(st, 20);
	KUNIT_EXPECT_EQ(test, 20ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 10ULL, sim.ctr[2]);
}

/* ---- AMD family 15h+ core counters ---- */

static void amd_accepts_high_event_bits(struct kunit *test)
{
	struct perfctr_cpu_state *st = one_counter(test, AMD, 0, EN | USR | 0xc0);

	st->control.evntsel_high[0] = 0xf;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
}

static void amd_rejects_host_guest_bits(struct kunit *test)
{
	struct perfctr_cpu_state *st = one_counter(test, AMD, 0, EN | USR | 0xc0);

	st->control.evntsel_high[0] = 0x100;	/* GuestOnly */
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[0] = 0x200;	/* HostOnly */
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void amd_rejects_counter_without_enable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, AMD, 3, USR | 0xc0));
}

static void amd_rejects_map_6(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, AMD, 6, EN | USR | 0xc0));
}

static void amd_rejects_fixed_maps(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, check1(test, AMD, FIXED(0), F_USR));
}

static void amd_writes_64bit_event_select_at_stride_2(struct kunit *test)
{
	u32 sel = EN | OS | 0x76;
	struct perfctr_cpu_state *st = one_counter(test, AMD, 5, sel);

	st->control.evntsel_high[0] = 0x3;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	run(st, 7);
	KUNIT_EXPECT_EQ(test, (u64)sel | 0x3ULL << 32, sim.evntsel[5]);
	KUNIT_EXPECT_GE(test, sim_written(AMD->evntsel_msr + 10, 0), 0);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
	KUNIT_EXPECT_EQ(test, 7ULL, st->pmc[0].sum);
}

static void amd_counts_six_counters(struct kunit *test)
{
	u32 maps[] = { 0, 1, 2, 3, 4, 5 }, sels[6];
	struct perfctr_cpu_state *st;
	unsigned int i;

	for (i = 0; i < 6; i++)
		sels[i] = EN | USR | (0x40 + i);
	sim_setup(test, AMD, 48);
	st = mkstate(test, 6, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	run(st, 99);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, 99ULL, st->pmc[i].sum);
	KUNIT_EXPECT_EQ(test, GENMASK_ULL(5, 0), sim.global);
}

static void amd_rejects_seven_counters(struct kunit *test)
{
	u32 maps[] = { 0, 1, 2, 3, 4, 5, 0 }, sels[7];
	unsigned int i;

	for (i = 0; i < 7; i++)
		sels[i] = EN | USR | 0x40;
	sim_setup(test, AMD, 48);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(mkstate(test, 7, maps, sels), 0));
}

/* ---- Model selection and the static calls ---- */

static void static_calls_follow_the_model(struct kunit *test)
{
	struct perfctr_x86_ops g, p, k;

	perfctr_x86_use_model(NULL);
	perfctr_x86_get_ops(&g);
	perfctr_x86_use_model(&perfctr_x86_p6);
	perfctr_x86_get_ops(&p);
	perfctr_x86_use_model(&perfctr_x86_k7);
	perfctr_x86_get_ops(&k);
	KUNIT_EXPECT_PTR_NE(test, g.check, p.check);
	KUNIT_EXPECT_PTR_NE(test, g.suspend, p.suspend);
	KUNIT_EXPECT_PTR_NE(test, g.resume, p.resume);
	KUNIT_EXPECT_PTR_NE(test, g.write_control, p.write_control);
	/* P6 and K7 share the P6-family code, parametrised by data. */
	KUNIT_EXPECT_PTR_EQ(test, p.check, k.check);
	KUNIT_EXPECT_PTR_EQ(test, p.write_control, k.write_control);
	perfctr_x86_use_model(NULL);
	perfctr_x86_get_ops(&p);
	KUNIT_EXPECT_PTR_EQ(test, g.check, p.check);
	KUNIT_EXPECT_PTR_EQ(test, g.resume, p.resume);
}

static void model_sets_type_and_features(struct kunit *test)
{
	struct perfctr_info info = {};

	perfctr_x86_use_model(&perfctr_x86_k7);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, (u32)PERFCTR_X86_AMD_K7, info.cpu_type);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
	perfctr_x86_use_model(NULL);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, (u32)PERFCTR_X86_GENERIC, info.cpu_type);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
}

static bool pce_on(void)
{
	return cr4_read_shadow() & X86_CR4_PCE;
}

/*
 * User RDPMC follows the mm, on this (emulated) CPU's real CR4: the mm
 * switches are the kernel's own (kthread_use_mm() runs
 * switch_mm_irqs_off(), as exec_mmap(), use_temporary_mm() and the
 * context switch do), and CR4.PCE must be set exactly while the loaded
 * mm holds a count.  The exec sequence: the new mm is loaded with no
 * count (PCE clear), then the exec hook counts it (the IPI reaches this
 * CPU, so PCE is set before the program's first instruction) and
 * uncounts the old mm.
 */
static void rdpmc_permission_follows_the_mm(struct kunit *test)
{
	struct mm_struct *old, *new;

	BUILT_IN_ONLY(test);
	if (static_branch_unlikely(&rdpmc_always_available_key) ||
	    static_branch_unlikely(&rdpmc_never_available_key))
		kunit_skip(test, "perf's rdpmc sysfs knob is not 1 (the default)");
	old = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, old);
	new = mm_alloc();
	if (!new)
		mmput(old);
	KUNIT_ASSERT_NOT_NULL(test, new);
	perfctr_x86_use_model(&perfctr_x86_k7);

	/* A state with counters in the old mm: PCE there, not elsewhere. */
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_rdpmc_get(old));
	kthread_use_mm(old);
	KUNIT_EXPECT_TRUE(test, pce_on());
	kthread_unuse_mm(old);
	kthread_use_mm(new);
	KUNIT_EXPECT_FALSE(test, pce_on());

	/* exec: the hook moves the count while the new mm is loaded. */
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_rdpmc_get(new));
	KUNIT_EXPECT_TRUE(test, pce_on());
	perfctr_cpu_rdpmc_put(old);
	KUNIT_EXPECT_TRUE(test, pce_on());
	kthread_unuse_mm(new);

	/* A temporary switch away and back (use_temporary_mm()). */
	kthread_use_mm(old);
	KUNIT_EXPECT_FALSE(test, pce_on());
	kthread_unuse_mm(old);
	kthread_use_mm(new);
	KUNIT_EXPECT_TRUE(test, pce_on());

	/* The last count goes (detach, exit): PCE clear at once. */
	perfctr_cpu_rdpmc_put(new);
	KUNIT_EXPECT_FALSE(test, pce_on());
	kthread_unuse_mm(new);

	/* No count on a model without RDPMC, nor on the generic one. */
	perfctr_x86_use_model(NULL);
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_rdpmc_get(new));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&new->context.perf_rdpmc_allowed));
	mmput(old);
	mmput(new);
}

/* perf's rdpmc knob at 0 takes PERFCTR_FEATURE_RDPMC out of perfctr_info(). */
static void rdpmc_knob_off_hides_the_feature(struct kunit *test)
{
	struct perfctr_info info = {};

	BUILT_IN_ONLY(test);
	if (static_branch_unlikely(&rdpmc_never_available_key))
		kunit_skip(test, "perf's rdpmc sysfs knob is 0 already");
	perfctr_x86_use_model(&perfctr_x86_k7);
	static_branch_enable(&rdpmc_never_available_key);
	perfctr_cpu_fill_info(&info);
	static_branch_disable(&rdpmc_never_available_key);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
}

/* PERFCTR_FEATURE_TSC_CONSTANT is the CPU's CONSTANT_TSC, on any model. */
static void tsc_constant_follows_the_cpu(struct kunit *test)
{
	struct perfctr_info info = {};

	perfctr_x86_use_model(NULL);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, boot_cpu_has(X86_FEATURE_CONSTANT_TSC),
			!!(info.cpu_features & PERFCTR_FEATURE_TSC_CONSTANT));
	KUNIT_EXPECT_EQ(test, 1U, info.tsc_to_cpu_mult);
}

/*
 * Detection by feature, not family, on CPUID values in the layouts the
 * vendors document: Intel's leaf 0xA (SDM vol. 3, "Architectural
 * Performance Monitoring": EAX version, counters, width; EDX fixed
 * counters and width; ECX the fixed-counter bitmap from version 5) and
 * AMD's leaf 0x80000022 (APM vol. 3 / the family 1Ah PPR: EBX[3:0]
 * NumPerfCtrCore, [9:4] LbrV2StackSz, [15:10] NumPerfCtrNB).
 */
static const struct {
	const char *name;
	struct perfctr_x86_cpuid c;
	u32 cpu_type;		/* 0: the generic model (NULL) */
	unsigned int nr_ctrs, nr_fixed, width;
	bool global;
} detect_cases[] = {
	{ "Intel family 19, perfmon v6: 8 general, 4 fixed, 48 bits",
	  { .vendor = X86_VENDOR_INTEL, .family = 19, .model = 1, .arch_perfmon = true,
	    .eax10 = 0x08300806, .ecx10 = 0xf, .edx10 = (48 << 5) | 4 },
	  PERFCTR_X86_INTEL_ARCH, 8, 4, 48, true },
	{ "Intel family 18, counters in CPUID 0x23 (10 general, fixed 0-2 and 5)",
	  { .vendor = X86_VENDOR_INTEL, .family = 18, .model = 1, .arch_perfmon = true,
	    .eax10 = 0x08300806, .edx10 = (48 << 5) | 3,
	    .ext = true, .gp23 = 0x3ff, .fixed23 = 0x27 },
	  PERFCTR_X86_INTEL_ARCH, 10, 4, 48, true },
	{ "Intel family 19 without architectural perfmon: generic",
	  { .vendor = X86_VENDOR_INTEL, .family = 19, .model = 1 }, 0 },
	{ "Intel family 6 without architectural perfmon: the P6",
	  { .vendor = X86_VENDOR_INTEL, .family = 6, .model = 8 },
	  PERFCTR_X86_INTEL_P6, 2, 0, 40, false },
	{ "AMD Zen 5 (family 1Ah): PerfMonV2, 6 core counters",
	  { .vendor = X86_VENDOR_AMD, .family = 0x1a, .model = 0x44, .perfctr_core = true,
	    .perfmon_v2 = true, .ebx_80000022 = (16 << 10) | (16 << 4) | 6 },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, true },
	{ "AMD, PerfMonV2 with NumPerfCtrCore 4: the field, not a constant",
	  { .vendor = X86_VENDOR_AMD, .family = 0x1a, .model = 0x44, .perfctr_core = true,
	    .perfmon_v2 = true, .ebx_80000022 = 4 },
	  PERFCTR_X86_AMD_FAM15H, 4, 0, 48, true },
	{ "AMD Zen 2 (family 17h): core counters, no PerfMonV2",
	  { .vendor = X86_VENDOR_AMD, .family = 0x17, .model = 0x31, .perfctr_core = true },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, false },
	{ "Hygon family 18h: as AMD",
	  { .vendor = X86_VENDOR_HYGON, .family = 0x18, .perfctr_core = true },
	  PERFCTR_X86_AMD_FAM15H, 6, 0, 48, false },
};

KUNIT_ARRAY_PARAM_DESC(detect_cases, detect_cases, name);

/* One CPU of detect_cases[] (a parameterised case). */
static void detect_by_feature_not_family(struct kunit *test)
{
	const typeof(detect_cases[0]) *t = test->param_value;
	const struct perfctr_x86_model *m = perfctr_x86_detect_cpu(&t->c, model_buf(test));

	if (!t->cpu_type) {
		KUNIT_EXPECT_NULL(test, m);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, t->cpu_type, m->cpu_type);
	KUNIT_EXPECT_EQ(test, t->nr_ctrs, m->gp_mask ? hweight32(m->gp_mask) : m->nr_ctrs);
	KUNIT_EXPECT_EQ(test, t->nr_fixed,
			m->fixed_mask ? hweight32(m->fixed_mask) : m->nr_fixed);
	KUNIT_EXPECT_EQ(test, t->width, m->ctr_width);
	KUNIT_EXPECT_EQ(test, t->global, !!m->global_ctrl_msr);
}

/*
 * Architectural perfmon v6's per-counter user-RDPMC disable (event select
 * bit 37, fixed control bit 33 + 4n) stays clear: evntsel_high is refused
 * on Intel, and a fixed counter's control is its 4-bit field only.
 */
static void v6_rdpmc_user_disable_stays_clear(struct kunit *test)
{
	const struct perfctr_x86_model *m = perfctr_x86_detect_cpu(&detect_cases[0].c,
								   model_buf(test));
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT, fmap = FIXED(0), fsel = F_USR;
	unsigned long flags;

	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_setup(test, m, 48);
	st = mkstate(test, 1, &map, &sel);
	st->control.evntsel_high[0] = ARCH_PERFMON_EVENTSEL_RDPMC_USER_DISABLE >> 32;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st = mkstate(test, 1, &fmap, &fsel);
	st->control.evntsel[0] = F_USR | (INTEL_FIXED_0_RDPMC_USER_DISABLE >> 32) << 4;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st = mkstate(test, 1, &fmap, &fsel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.fixed_ctrl & INTEL_FIXED_0_RDPMC_USER_DISABLE);
	KUNIT_EXPECT_EQ(test, (u64)F_USR, sim.fixed_ctrl);
}

static void generic_rejects_pmcs(struct kunit *test)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT;

	perfctr_x86_use_model(NULL);
	st = mkstate(test, 1, &map, &sel);
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	/* The TSC alone, with nothing left in the counter entries. */
	st->control.nractrs = 0;
	st->control.pmc_map[0] = 0;
	st->control.evntsel[0] = 0;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_EQ(test, perfctr_mk_cstatus(1, 0, 0), st->cstatus);
}

static void cstatus_encoding(struct kunit *test)
{
	unsigned int c = perfctr_mk_cstatus(1, 3, 2);

	KUNIT_EXPECT_TRUE(test, perfctr_cstatus_has_tsc(c));
	KUNIT_EXPECT_EQ(test, 3U, perfctr_cstatus_nractrs(c));
	KUNIT_EXPECT_EQ(test, 5U, perfctr_cstatus_nrctrs(c));
	KUNIT_EXPECT_TRUE(test, perfctr_cstatus_has_ictrs(c));
	KUNIT_EXPECT_FALSE(test, perfctr_cstatus_enabled(perfctr_mk_cstatus(0, 0, 0)));
	KUNIT_EXPECT_FALSE(test, perfctr_cstatus_has_ictrs(perfctr_mk_cstatus(1, 2, 0)));
}

#ifdef CONFIG_X86_LOCAL_APIC
/* ---- Arbitration with perf_events, through the kernel's PMU allocator ---- */

static const char test_service[] = "perfctr KUnit";

/*
 * Reserve the PMU for a case that needs it, or skip the case where
 * perf_events holds it -- on a real machine, the NMI watchdog's cycles
 * event: that is the machine's state, not a fault of the driver.
 */
static void reserve_or_skip(struct kunit *test)
{
	const char *holder = perfctr_cpu_reserve(test_service);

	if (holder && strstr(holder, "perf_events"))
		kunit_skip(test, "the PMU is held by %s", holder);
	KUNIT_ASSERT_NULL(test, holder);
}

static const struct perfctr_x86_model *boot_vendor_model(struct kunit *test)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		/* Family 15 (P4) maps other MSRs, family 5 none. */
		if (boot_cpu_data.x86 == 6)
			return &perfctr_x86_p6;
		break;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		return &perfctr_x86_k7;
	}
	kunit_skip(test, "the PMU allocator's MSR map is for Intel family 6 and AMD only here");
	return NULL;
}

/*
 * PERFCTR_FEATURE_PMU_BUSY is read, not taken: perf_events' hold is
 * played by reserving counter 0 in the PMU allocator as perf does.
 */
static void pmu_busy_reported_without_taking_it(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	struct perfctr_info info = {};

	perfctr_x86_use_model(m);
	perfctr_cpu_fill_info(&info);
	if (info.cpu_features & PERFCTR_FEATURE_PMU_BUSY)
		kunit_skip(test, "the PMU is held by perf_events already");
	KUNIT_ASSERT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
	/* Asking took nothing: the next counter is still free. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr + m->evntsel_stride));
	release_perfctr_nmi(m->perfctr_msr + m->evntsel_stride);
	release_perfctr_nmi(m->perfctr_msr);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
	/* perfctr's own hold is not another user's. */
	reserve_or_skip(test);
	perfctr_cpu_fill_info(&info);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_FALSE(test, info.cpu_features & PERFCTR_FEATURE_PMU_BUSY);
}

static void reserve_takes_the_pmu_from_perf(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);

	perfctr_x86_use_model(m);
	reserve_or_skip(test);
	/* perf_events' reserve_pmc_hardware() would now fail. */
	KUNIT_EXPECT_FALSE(test, reserve_perfctr_nmi(m->perfctr_msr));
	KUNIT_EXPECT_FALSE(test, reserve_evntsel_nmi(m->evntsel_msr + m->nr_ctrs - 1));
	/* And a second service is refused, naming the first. */
	KUNIT_EXPECT_PTR_EQ(test, (const char *)test_service, perfctr_cpu_reserve("other"));
	perfctr_cpu_release(test_service);
	/* Released: perf_events could take it again. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	release_perfctr_nmi(m->perfctr_msr);
}

static void reserve_refused_while_perf_holds(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	const char *holder;

	perfctr_x86_use_model(m);
	/* As perf_events holds a counter (the NMI watchdog holds one). */
	KUNIT_ASSERT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr + 1));
	holder = perfctr_cpu_reserve(test_service);
	KUNIT_EXPECT_NOT_NULL(test, holder);
	if (holder)
		KUNIT_EXPECT_NOT_NULL(test, strstr(holder, "perf_events"));
	/* The partial reservation was undone. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	release_perfctr_nmi(m->perfctr_msr);
	release_perfctr_nmi(m->perfctr_msr + 1);
	reserve_or_skip(test);
	perfctr_cpu_release(test_service);
}

/* perf_events may have reprogrammed the PMU: a reservation forgets the cache. */
static void reserve_forgets_the_cached_controls(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	struct perfctr_cpu_state *st;
	unsigned int n;

	st = counting_state(test, m, 40);
	run(st, 1);
	n = sim.wrmsrs;
	KUNIT_EXPECT_LT(test, 0U, n);
	run(st, 1);
	KUNIT_EXPECT_EQ(test, n, sim.wrmsrs);	/* cached: nothing written */
	reserve_or_skip(test);
	run(st, 1);
	KUNIT_EXPECT_LT(test, n, sim.wrmsrs);	/* everything written again */
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim.evntsel[0]);
	perfctr_cpu_release(test_service);
}

/* The release leaves nothing counting: perf_events takes a quiet PMU. */
static void release_stops_the_counters(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);
	struct perfctr_cpu_state *st = counting_state(test, m, 40);

	reserve_or_skip(test);
	run(st, 10);
	/* Suspended, but an a-mode event select stays enabled. */
	KUNIT_EXPECT_NE(test, 0ULL, sim.evntsel[0] & EN);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[0]);
	/* And the cache trusts nothing: the next resume writes it again. */
	reserve_or_skip(test);
	run(st, 10);
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim.evntsel[0]);
	perfctr_cpu_release(test_service);
}

#ifdef CONFIG_PERF_GUEST_MEDIATED_PMU
/*
 * KVM's mediated vPMU and perfctr exclude each other like perf and
 * perfctr: whoever comes first keeps the PMU, and perfctr names KVM.
 */
static void reserve_and_mediated_vpmu_exclude_each_other(struct kunit *test)
{
	const struct perfctr_x86_model *m;
	const char *holder;

	BUILT_IN_ONLY(test);
	m = boot_vendor_model(test);
	perfctr_x86_use_model(m);
	/* A VM with a mediated vPMU exists: perfctr is refused, naming KVM. */
	KUNIT_ASSERT_EQ(test, 0, perf_create_mediated_pmu());
	holder = perfctr_cpu_reserve(test_service);
	KUNIT_EXPECT_NOT_NULL(test, holder);
	if (holder)
		KUNIT_EXPECT_NOT_NULL(test, strstr(holder, "KVM"));
	else
		perfctr_cpu_release(test_service);
	/* The refusal took nothing: perf could have the counters. */
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	release_perfctr_nmi(m->perfctr_msr);
	perf_release_mediated_pmu();
	/* perfctr holds the PMU: no VM gets a mediated vPMU until it is released. */
	reserve_or_skip(test);
	KUNIT_EXPECT_EQ(test, -EBUSY, perf_create_mediated_pmu());
	perfctr_cpu_release(test_service);
	KUNIT_ASSERT_EQ(test, 0, perf_create_mediated_pmu());
	perf_release_mediated_pmu();
}
#endif

static void generic_model_reserves_no_pmc(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);

	perfctr_x86_use_model(NULL);
	KUNIT_ASSERT_TRUE(test, reserve_perfctr_nmi(m->perfctr_msr));
	/* The TSC needs no PMU: perf_events holding it does not matter. */
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(test_service));
	perfctr_cpu_release(test_service);
	release_perfctr_nmi(m->perfctr_msr);
}
#endif

#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
/* ---- The overflow interrupt vector, on the real (emulated) local APIC ---- */

static unsigned long ihandler_calls, ihandler_pc;

/* The overflow interrupts taken: /proc/interrupts' PCT row. */
static unsigned long perfctr_interrupts(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(irq_stat, cpu).counts[IRQ_COUNT_PERFCTR];
	return sum;
}

static void test_ihandler(unsigned long pc)
{
	ihandler_calls++;
	ihandler_pc = pc;
}

static bool wait_interrupts(unsigned long n)
{
	int i;

	for (i = 0; i < 100000 && perfctr_interrupts() < n; i++)
		cpu_relax();
	return perfctr_interrupts() >= n;
}

static void self_ipi_reaches_the_handler(struct kunit *test)
{
	unsigned long before = perfctr_interrupts();

	ihandler_calls = 0;
	perfctr_cpu_set_ihandler(test_ihandler);
	__apic_send_IPI_self(LOCAL_PERFCTR_VECTOR);
	KUNIT_EXPECT_TRUE(test, wait_interrupts(before + 1));
	perfctr_cpu_set_ihandler(NULL);
	KUNIT_EXPECT_EQ(test, 1UL, ihandler_calls);
	KUNIT_EXPECT_NE(test, 0UL, ihandler_pc);
	/* Without a handler the interrupt is still ACKed and counted. */
	__apic_send_IPI_self(LOCAL_PERFCTR_VECTOR);
	KUNIT_EXPECT_TRUE(test, wait_interrupts(before + 2));
	KUNIT_EXPECT_EQ(test, 1UL, ihandler_calls);
}
#endif

/* ---- The P5 family, VIA C3 and the P4, each on its own simulated PMU ---- */

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

/*
 * The ESCR of each (counter, ESCR_SELECT), written out from the IA-32
 * manual's table with the kernel's ESCR names, row by row -- independent
 * of the driver's compacted table.
 */
static const u16 sdm_escr[18][8] = {
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

static bool simx_counting(unsigned int i)
{
	const struct perfctr_x86_model *m = sim.model;
	u32 half, escr;

	switch (sim_family(m)) {
	case SIM_P5:
		half = (sim.cesr >> (16 * i)) & 0xffff;
		return (half & 0x3f) && (!m->cpl || half & m->cpl);
	case SIM_VC3:	/* PERFCTR0 is the TSC: not simulated */
		return i == 1 && (sim.evntsel[1] & 0xff);
	case SIM_P4:
		if (!(sim.evntsel[i] & C_ENABLE))
			return false;
		escr = sdm_escr[i][(sim.evntsel[i] >> 13) & 7];
		return escr && sim.escr[escr - 0x3a0] & (E_T0_OS | E_T0_USR);
	default:
		return false;
	}
}

static void simx_wrmsr(u32 msr, u64 val)
{
	if (sim.wrmsrs < ARRAY_SIZE(sim.log))
		sim.log[sim.wrmsrs] = msr;
	sim.wrmsrs++;
	switch (sim_family(sim.model)) {
	case SIM_P5:
		if (msr == CESR_MSR) {
			sim.cesr = val;
			return;
		}
		break;
	case SIM_VC3:
		if (msr == 0x187) {
			sim.evntsel[1] = val;
			return;
		}
		break;
	case SIM_P4:
		if (msr >= CCCR_MSR(0) && msr < CCCR_MSR(18)) {
			sim.evntsel[msr - CCCR_MSR(0)] = val;
			return;
		}
		if (msr >= P4_CTR_MSR(0) && msr < P4_CTR_MSR(18)) {
			if (val & ~GENMASK_ULL(39, 0))
				sim.stray++;
			sim.ctr[msr - P4_CTR_MSR(0)] = val & GENMASK_ULL(39, 0);
			sim.ctr_writes++;
			return;
		}
		if (msr >= 0x3a0 && msr < 0x3a0 + PERFCTR_P4_NR_ESCRS) {
			sim.escr[msr - 0x3a0] = val;
			return;
		}
		if (msr == 0x3f1 || msr == 0x3f2) {
			*(msr == 0x3f1 ? &sim.pebs_enable : &sim.pebs_matrix_vert) = val;
			return;
		}
		break;
	default:
		break;
	}
	sim.stray++;
}

static u64 simx_rdmsr(u32 msr)
{
	sim.rdmsrs++;
	if (sim_family(sim.model) == SIM_P5 && (msr == 0x12 || msr == 0x13))
		return sim.ctr[msr - 0x12];
	sim.stray++;
	return 0;
}

/* The P4's fast RDPMC (bit 31 of the index) returns the low 32 bits only. */
static u64 simx_rdpmc(u32 map)
{
	const struct perfctr_x86_model *m = sim.model;

	sim.rdpmcs++;
	if (sim_family(m) == SIM_P4 && (map & ~FAST) < 18)
		return map & FAST ? (u32)sim.ctr[map & ~FAST] : sim.ctr[map & ~FAST];
	if (sim_family(m) == SIM_P5 && !m->no_rdpmc && map < 2)
		return sim.ctr[map];
	if (sim_family(m) == SIM_VC3 && map == 1)
		return (u32)sim.ctr[1];
	sim.stray++;	/* no RDPMC (P5), or not a counter of ours */
	return 0;
}

static void simx_setup(struct kunit *test, const struct perfctr_x86_model *model,
		       unsigned int width)
{
	memset(&sim, 0, sizeof(sim));
	sim.model = model;
	sim.width = width;
	perfctr_x86_test_hw.wrmsr = simx_wrmsr;
	perfctr_x86_test_hw.read_msr = simx_rdmsr;
	perfctr_x86_test_hw.read_pmc = simx_rdpmc;
	perfctr_x86_use_model(model);
}

/* Validate a one- or two-counter control on @m (P5 family, C3). */
static int xcheck(struct kunit *test, const struct perfctr_x86_model *m, unsigned int n,
		  u32 map0, u32 sel0, u32 map1, u32 sel1)
{
	u32 maps[] = { map0, map1 }, sels[] = { sel0, sel1 };
	struct perfctr_cpu_state *st;

	simx_setup(test, m, 40);
	st = mkstate(test, n, maps, sels);
	st->control.tsc_on = !m->no_tsc;
	return perfctr_cpu_update_control(st, 0);
}

/* ---- P5 family validation (the x86 driver's documentation) ---- */

static void p5_accepts_both_halves(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, P5, 2, 0, CESR_CPL3 | P5EV,
					1, CESR_CPL0 | BIT(8) | 0x3f));
}

static void p5_rejects_reserved_fe00(struct kunit *test)
{
	static const u32 bits[] = { BIT(9), BIT(10), BIT(11), BIT(15), BIT(16), BIT(31) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bits); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    xcheck(test, P5, 1, 0, bits[i] | CESR_CPL3 | P5EV, 0, 0),
				    "bit %#x", bits[i]);
}

static void p5_requires_a_cpl_bit(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, P5, 1, 1, P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, P5, 1, 1, CESR_CPL0 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, P5MMX, 1, 1, CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, P5MMX, 1, 1, P5EV, 0, 0));
}

static void p5_pmc_map_rules(struct kunit *test)
{
	u32 maps[] = { 0, 1, 0 }, sels[] = { CESR_CPL3 | P5EV, CESR_CPL3 | P5EV, CESR_CPL3 };

	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, P5, 1, 2, CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, P5, 2, 1, CESR_CPL3 | P5EV,
					      1, CESR_CPL0 | P5EV));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, P5, 2, 1, CESR_CPL3 | P5EV, 0, CESR_CPL0 | P5EV));
	simx_setup(test, P5, 40);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(mkstate(test, 3, maps, sels), 0));
}

static void p5_rejects_imode_high_and_p4_fields(struct kunit *test)
{
	u32 map = 0, sel = CESR_CPL3 | P5EV;
	struct perfctr_cpu_state *st;

	simx_setup(test, MII, 48);
	st = mkstate(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = -10;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.nractrs = 1;
	st->control.nrictrs = 0;
	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[0] = 0;
	st->control.p4.pebs_enable = BIT(24) | 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static void mii_reserved_bits_are_fa00(struct kunit *test)
{
	/* Bit 10 is the Cyrix event code's bit 6: Cyrix only. */
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, MII, 1, 0, BIT(10) | CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, P5, 1, 0, BIT(10) | CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, MII, 1, 0, BIT(9) | CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, MII, 1, 0, BIT(11) | CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, MII, 1, 0, BIT(15) | CESR_CPL3 | P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, MII, 1, 0, BIT(8) | CESR_CPL3 | P5EV, 0, 0));
}

static void mii_requires_a_cpl_bit(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, MII, 1, 0, P5EV, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, MII, 1, 0, CESR_CPL0 | CESR_CPL3 | P5EV, 0, 0));
}

static void winchip_needs_no_cpl_reserves_ff00(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, C6, 2, 0, 0x02, 1, 0x03));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, WC2, 1, 1, 0xff, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, C6, 1, 0, BIT(8) | 0x02, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, WC2, 1, 0, CESR_CPL3 | BIT(9), 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, C6, 1, 2, 0x02, 0, 0));
}

static void winchip_rejects_tsc_on(struct kunit *test)
{
	u32 map = 0, sel = 0x02;
	struct perfctr_cpu_state *st;

	simx_setup(test, C6, 40);
	st = mkstate(test, 1, &map, &sel);
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.nractrs = 0;	/* not even alone */
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.tsc_on = 0;
	st->control.nractrs = 1;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_FALSE(test, perfctr_cstatus_has_tsc(st->cstatus));
	/* The P5 with the same control and tsc_on is fine. */
	simx_setup(test, P5MMX, 40);
	st->control.tsc_on = 1;
	st->control.evntsel[0] = CESR_CPL3 | 0x02;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
}

static const struct feature_case {
	const struct perfctr_x86_model *m;
	u32 type, features;
} feature_cases[] = {
	{ P5, PERFCTR_X86_INTEL_P5, PERFCTR_FEATURE_RDTSC },
	{ P5MMX, PERFCTR_X86_INTEL_P5MMX, PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC },
	{ MII, PERFCTR_X86_CYRIX_MII, PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC },
	{ C6, PERFCTR_X86_WINCHIP_C6, PERFCTR_FEATURE_RDPMC },
	{ WC2, PERFCTR_X86_WINCHIP_2, PERFCTR_FEATURE_RDPMC },
	{ VC3, PERFCTR_X86_VIA_C3, PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC },
	{ P4, PERFCTR_X86_INTEL_P4, PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC },
	{ P4M2, PERFCTR_X86_INTEL_P4M2, PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC },
	{ P4M3, PERFCTR_X86_INTEL_P4M3, PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC },
};

static void feature_case_desc(const struct feature_case *t, char *desc)
{
	strscpy(desc, t->m->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(feature_cases, feature_cases, feature_case_desc);

/* The type and features of one model of feature_cases[] (parameterised). */
static void p5_family_features(struct kunit *test)
{
	const struct feature_case *t = test->param_value;
	/* The P4 has i-mode counters where the overflow interrupt works. */
	u32 p4_pcint = IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) &&
		       boot_cpu_has(X86_FEATURE_APIC) ? PERFCTR_FEATURE_PCINT : 0;
	struct perfctr_info info = {};

	perfctr_x86_use_model(t->m);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, t->type, info.cpu_type);
	KUNIT_EXPECT_EQ(test, t->features | (sim_family(t->m) == SIM_P4 ? p4_pcint : 0),
			info.cpu_features & ~PERFCTR_FEATURE_TSC_CONSTANT);
	KUNIT_EXPECT_STREQ(test, t->m->name, perfctr_cpu_name);
}

/* ---- P5 family programming and counting ---- */

static struct perfctr_cpu_state *p5_state(struct kunit *test,
					  const struct perfctr_x86_model *m,
					  unsigned int width, u32 sel0, u32 sel1)
{
	u32 maps[] = { 1, 0 }, sels[] = { sel0, sel1 };
	struct perfctr_cpu_state *st;

	simx_setup(test, m, width);
	st = mkstate(test, 2, maps, sels);
	st->control.tsc_on = !m->no_tsc;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void p5_packs_both_halves_into_the_cesr(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, P5MMX, 40, CESR_CPL3 | P5EV,
						CESR_CPL0 | 0x12);

	run(st, 5);
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u32)CESR_MSR, sim.log[0]);
	/* pmc_map[0] = 1: counter 0's control is the high half. */
	KUNIT_EXPECT_EQ(test, (u32)((CESR_CPL3 | P5EV) << 16 | CESR_CPL0 | 0x12), sim.cesr);
	KUNIT_EXPECT_EQ(test, 5ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 5ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

static void p5_reads_msrs_and_wraps_32(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, P5, 40, CESR_CPL3 | P5EV,
						CESR_CPL3 | 0x12);
	struct perfctr_x86_ops p5, mmx;

	sim.ctr[1] = 0xffffffc0ULL;	/* the low 32 bits wrap */
	sim.ctr[0] = 0xfffffffffeULL;	/* all 40 bits wrap */
	run(st, 0x100);
	run(st, 0x10);
	KUNIT_EXPECT_EQ(test, 0x110ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0x110ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim.rdpmcs);	/* no RDPMC on the P5 */
	KUNIT_EXPECT_EQ(test, 8U, sim.rdmsrs);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
	/* The P5MMX runs the RDPMC suspend instead, with the same check. */
	perfctr_x86_get_ops(&p5);
	perfctr_x86_use_model(P5MMX);
	perfctr_x86_get_ops(&mmx);
	KUNIT_EXPECT_PTR_NE(test, p5.suspend, mmx.suspend);
	KUNIT_EXPECT_PTR_EQ(test, p5.check, mmx.check);
}

static void p5mmx_reads_rdpmc_and_wraps_32(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, P5MMX, 40, CESR_CPL3 | P5EV,
						CESR_CPL3 | 0x12);

	sim.ctr[1] = 0xffffffffULL;
	run(st, 2);
	sim_advance(1000);	/* not ours */
	run(st, 3);
	KUNIT_EXPECT_EQ(test, 5ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0xffffffffULL + 1005, sim.ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim.rdmsrs);
	KUNIT_EXPECT_EQ(test, 8U, sim.rdpmcs);
}

static void mii_counts_across_wrap_48(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, MII, 48, CESR_CPL3 | BIT(10) | 0x01,
						CESR_CPL0 | P5EV);

	sim.ctr[0] = GENMASK_ULL(47, 0) - 4;
	sim.ctr[1] = 0x7ffffff0ULL;
	run(st, 77);
	KUNIT_EXPECT_EQ(test, 77ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 77ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 72ULL, sim.ctr[0]);
}

static void winchip_counts_without_tsc(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, C6, 40, 0x02, 0x01);

	sim.ctr[1] = 0xfffffff8ULL;
	run(st, 16);
	KUNIT_EXPECT_EQ(test, 16ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 16ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0ULL, st->tsc_sum);
	KUNIT_EXPECT_EQ(test, (u32)(0x02 << 16 | 0x01), sim.cesr);
}

static void p5_resume_writes_cesr_only_when_it_changes(struct kunit *test)
{
	u32 map = 0, a = CESR_CPL3 | P5EV, b = CESR_CPL0 | P5EV;
	struct perfctr_cpu_state *sa, *sb, *sc;

	simx_setup(test, P5MMX, 40);
	sa = mkstate(test, 1, &map, &a);
	sb = mkstate(test, 1, &map, &b);
	sc = mkstate(test, 1, &map, &a);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sc, 0));
	run(sa, 1);
	run(sa, 1);
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);
	run(sb, 1);
	KUNIT_EXPECT_EQ(test, 2U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, b, sim.cesr);
	run(sc, 1);		/* another id, but the CESR value differs */
	KUNIT_EXPECT_EQ(test, 3U, sim.wrmsrs);
	run(sa, 1);		/* another id, the same CESR value: no write */
	KUNIT_EXPECT_EQ(test, 3U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, 3ULL, sa->pmc[0].sum);
}

static void p5_unused_half_is_cleared(struct kunit *test)
{
	struct perfctr_cpu_state *two = p5_state(test, P5MMX, 40, CESR_CPL3 | P5EV,
						 CESR_CPL3 | 0x12);
	u32 map = 0, sel = CESR_CPL0 | P5EV;
	struct perfctr_cpu_state *one = mkstate(test, 1, &map, &sel);

	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	run(two, 1);
	run(one, 1);
	KUNIT_EXPECT_EQ(test, sel, sim.cesr);
}

/* ---- VIA C3 ---- */

static void vc3_accepts_pmc1_only(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, VC3, 1, 1, 0x79, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, xcheck(test, VC3, 1, 1, 0x1ff, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, VC3, 1, 0, 0x79, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, VC3, 1, 2, 0x79, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, VC3, 2, 1, 0x79, 0, 0x79));
}

static void vc3_reserved_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, VC3, 1, 1, BIT(9) | 0x79, 0, 0));
	/* The P6's enable and CPL bits are reserved on the C3. */
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, VC3, 1, 1, EN | USR | 0x79, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, xcheck(test, VC3, 1, 1, BIT(31) | 0x79, 0, 0));
}

static void vc3_rejects_imode_and_p4_fields(struct kunit *test)
{
	u32 map = 1, sel = 0x79;
	struct perfctr_cpu_state *st;

	simx_setup(test, VC3, 32);
	st = mkstate(test, 1, &map, &sel);
	st->control.p4.escr[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.p4.escr[0] = 0;
	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = -5;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	/* The TSC alone: entries beyond the (no) counters must be empty. */
	st->control.nrictrs = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	memset(&st->control.pmc_map, 0, sizeof(st->control.pmc_map));
	memset(&st->control.evntsel, 0, sizeof(st->control.evntsel));
	memset(&st->control.ireset, 0, sizeof(st->control.ireset));
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
}

static void vc3_writes_evntsel1_and_wraps_32(struct kunit *test)
{
	u32 map = 1, sel = 0xc0, sel2 = 0x79;
	struct perfctr_cpu_state *st, *st2;

	simx_setup(test, VC3, 32);
	st = mkstate(test, 1, &map, &sel);
	st2 = mkstate(test, 1, &map, &sel2);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st2, 0));
	sim.ctr[1] = 0xffffff00ULL;
	run(st, 0x300);
	run(st, 0x1);
	KUNIT_EXPECT_EQ(test, 0x301ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0x201ULL, sim.ctr[1]);
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, 0x187U, sim.log[0]);
	run(st2, 4);
	KUNIT_EXPECT_EQ(test, 2U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, 0x79ULL, sim.evntsel[1]);
	KUNIT_EXPECT_EQ(test, 4ULL, st2->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);	/* never EVNTSEL0, never RDPMC 0 */
	/* A new control id with the same EVNTSEL1: nothing to write. */
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st2, 0));
	run(st2, 4);
	KUNIT_EXPECT_EQ(test, 2U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, st2->k1.id, perfctr_x86_this_cache()->id);
}

/* ---- Pentium 4 ---- */

/* A P4 state with @n counters: pmc_map[i] = maps[i], CCCR cccrs[i], ESCR escrs[i]. */
static struct perfctr_cpu_state *p4_state(struct kunit *test, const struct perfctr_x86_model *m,
					  unsigned int n, const u32 *maps, const u32 *cccrs,
					  const u32 *escrs)
{
	struct perfctr_cpu_state *st;
	unsigned int i;

	simx_setup(test, m, 40);
	st = mkstate(test, n, maps, cccrs);
	for (i = 0; i < n; i++)
		st->control.p4.escr[i] = escrs[i];
	return st;
}

static int p4_check1(struct kunit *test, const struct perfctr_x86_model *m,
		     u32 map, u32 cccr, u32 escr)
{
	return perfctr_cpu_update_control(p4_state(test, m, 1, &map, &cccr, &escr), 0);
}

static void p4_escr_map_matches_the_manual(struct kunit *test)
{
	unsigned int pmc, sel, bad = 0;

	perfctr_x86_use_model(P4);
	for (pmc = 0; pmc < 18; pmc++)
		for (sel = 0; sel < 8; sel++)
			if (perfctr_x86_p4_escr_msr(pmc, C_SEL(sel)) != sdm_escr[pmc][sel]) {
				kunit_info(test, "counter %u select %u: %#x, not %#x", pmc, sel,
					   perfctr_x86_p4_escr_msr(pmc, C_SEL(sel)),
					   sdm_escr[pmc][sel]);
				bad++;
			}
	KUNIT_EXPECT_EQ(test, 0U, bad);
	KUNIT_EXPECT_EQ(test, 0U, perfctr_x86_p4_escr_msr(18, C_SEL(0)));
}

static void p4_accepts_a_counter_with_fast_rdpmc(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, FAST | 12, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M3, 0, C_ENABLE | C_ACTIVE | C_SEL(0),
					   E_EV(3) | E_T0_OS));
}

static void p4_pmc_map_rules(struct kunit *test)
{
	u32 maps[] = { 12, FAST | 12 }, cccrs[] = { IQ_CCCR, IQ_CCCR };
	u32 escrs[] = { IQ_ESCR, IQ_ESCR };

	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 18, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, BIT(30) | 12, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(p4_state(test, P4, 2, maps, cccrs, escrs), 0));
	maps[1] = FAST | 13;
	KUNIT_EXPECT_EQ(test, 0,
			perfctr_cpu_update_control(p4_state(test, P4, 2, maps, cccrs, escrs), 0));
}

static void p4_rejects_reserved_cccr_bits(struct kunit *test)
{
	static const u32 bits[] = { C_OVF, C_PMI_T1, BIT(28), BIT(29), BIT(0), BIT(10) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bits); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    p4_check1(test, P4M2, 12, IQ_CCCR | bits[i], IQ_ESCR),
				    "bit %#x", bits[i]);
	/* Compare, complement, threshold and edge are the user's. */
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M2, 12, IQ_CCCR | BIT(18) | BIT(19) |
					   (5 << 20) | BIT(24), IQ_ESCR));
}

static void p4_extended_cascade(struct kunit *test)
{
	static const unsigned int ok[] = { 12, 15, 16, 17 }, bad[] = { 0, 4, 8, 13, 14 };
	unsigned int i;

	/* Counters 12, 15-17 on models 2+ only; 14, 15, 17 use select 4 too. */
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_EXPECT_EQ_MSG(test, 0, p4_check1(test, P4M2, ok[i], IQ_CCCR | C_EXT_CASCADE,
						       IQ_ESCR), "counter %u", ok[i]);
		KUNIT_EXPECT_EQ_MSG(test, 0, p4_check1(test, P4M3, ok[i], IQ_CCCR | C_EXT_CASCADE,
						       IQ_ESCR), "counter %u", ok[i]);
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    p4_check1(test, P4, ok[i], IQ_CCCR | C_EXT_CASCADE, IQ_ESCR),
				    "counter %u on model < 2", ok[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    p4_check1(test, P4M2, bad[i], C_ENABLE | C_ACTIVE | C_SEL(0) |
					      C_EXT_CASCADE, IQ_ESCR), "counter %u", bad[i]);
	/* EXTENDED_CASCADE alone is enough to be on. */
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M2, 16, C_ACTIVE | C_SEL(4) | C_EXT_CASCADE,
					   IQ_ESCR));
}

static void p4_active_thread_rule(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR & ~BIT(17), IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR & ~BIT(16), IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR & ~C_ACTIVE, IQ_ESCR));
	perfctr_x86_p4_ht = true;	/* on HT the user chooses the thread */
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 12, IQ_CCCR & ~BIT(17), IQ_ESCR));
}

static void p4_needs_enable_or_cascade(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4M3, 12, IQ_CCCR & ~C_ENABLE, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M3, 12, (IQ_CCCR & ~C_ENABLE) | C_CASCADE,
					   IQ_ESCR));
}

static int p4_check_imode(struct kunit *test, u32 cccr, s32 ireset)
{
	u32 map = 12, escr = IQ_ESCR;
	struct perfctr_cpu_state *st = p4_state(test, P4, 1, &map, &cccr, &escr);

	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = ireset;
	return perfctr_cpu_update_control(st, 0);
}

static void p4_ovf_pmi_rules(struct kunit *test)
{
	/* a-mode: OVF_PMI_T0 clear. */
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR | C_PMI_T0, IQ_ESCR));
	/* Without the overflow interrupt, no i-mode counter at all ... */
	perfctr_x86_no_lapic = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR | C_PMI_T0, -100));
	perfctr_x86_no_lapic = false;
	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	/* ... and with it, the seed's rules. */
	KUNIT_EXPECT_EQ(test, 0, p4_check_imode(test, IQ_CCCR | C_PMI_T0, -100));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR, -100));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR | C_PMI_T0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_imode(test, IQ_CCCR | C_PMI_T0 | C_FORCE_OVF, -2));
	KUNIT_EXPECT_EQ(test, 0, p4_check_imode(test, IQ_CCCR | C_PMI_T0 | C_FORCE_OVF, -1));
}

static void p4_escr_rules(struct kunit *test)
{
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR | E_T1_USR;

	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | BIT(31)));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | BIT(30)));
	/* CPL_T1: only on HT, and only for global-mode counters. */
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | E_T1_USR));
	perfctr_x86_p4_ht = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 12, IQ_CCCR, IQ_ESCR | E_T1_USR));
	KUNIT_EXPECT_EQ(test, 0,
			perfctr_cpu_update_control(p4_state(test, P4, 1, &map, &cccr, &escr), 1));
	perfctr_x86_p4_ht = false;
	KUNIT_EXPECT_EQ(test, -EINVAL,
			perfctr_cpu_update_control(p4_state(test, P4, 1, &map, &cccr, &escr), 1));
}

static void p4_iq_escr_only_up_to_model_2(struct kunit *test)
{
	u32 iq0 = C_ENABLE | C_ACTIVE | C_SEL(0);

	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 12, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M2, 14, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4M3, 12, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4M3, 17, iq0, IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4M3, 17, C_ENABLE | C_ACTIVE | C_SEL(1),
					   IQ_ESCR));
}

static void p4_rejects_escr_select_out_of_domain(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 15, C_ENABLE | C_ACTIVE | C_SEL(3),
						 IQ_ESCR));
	KUNIT_EXPECT_EQ(test, 0, p4_check1(test, P4, 13, C_ENABLE | C_ACTIVE | C_SEL(3), IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 4, C_ENABLE | C_ACTIVE | C_SEL(3),
						 IQ_ESCR));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check1(test, P4, 8, C_ENABLE | C_ACTIVE | C_SEL(7),
						 IQ_ESCR));
}

static int p4_check_pebs(struct kunit *test, u32 pe, u32 pmv)
{
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR;
	struct perfctr_cpu_state *st = p4_state(test, P4, 1, &map, &cccr, &escr);

	st->control.p4.pebs_enable = pe;
	st->control.p4.pebs_matrix_vert = pmv;
	return perfctr_cpu_update_control(st, 0);
}

static void p4_replay_tagging_rules(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, p4_check_pebs(test, BIT(24) | BIT(0), BIT(0)));
	KUNIT_EXPECT_EQ(test, 0, p4_check_pebs(test, BIT(24) | 0x607, 0x3));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, 0, BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(25) | BIT(24) | BIT(0), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24) | BIT(3), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(9), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24), BIT(0)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24) | BIT(10), BIT(2) | BIT(1)));
	KUNIT_EXPECT_EQ(test, -EINVAL, p4_check_pebs(test, BIT(24) | BIT(10), 0));
}

static void p4_rejects_escr_of_unused_counter(struct kunit *test)
{
	u32 map = 12, cccr = IQ_CCCR, escr = IQ_ESCR;
	struct perfctr_cpu_state *st = p4_state(test, P4, 1, &map, &cccr, &escr);

	st->control.p4.escr[1] = IQ_ESCR;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.p4.escr[1] = 0;
	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
}

static struct perfctr_cpu_state *p4_two(struct kunit *test)
{
	/* Counter 12 on CRU_ESCR0, counter 0 on BPU_ESCR0. */
	u32 maps[] = { FAST | 12, 0 };
	u32 cccrs[] = { IQ_CCCR, C_ENABLE | C_ACTIVE | C_SEL(0) };
	u32 escrs[] = { IQ_ESCR, E_EV(3) | BIT(9) | E_T0_OS };
	struct perfctr_cpu_state *st = p4_state(test, P4, 2, maps, cccrs, escrs);

	st->control.p4.pebs_enable = BIT(24) | BIT(0);
	st->control.p4.pebs_matrix_vert = BIT(0);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void p4_programs_escrs_cccrs_and_replay_tagging(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);
	int e, c;

	run(st, 9);
	KUNIT_EXPECT_EQ(test, 6U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u64)IQ_CCCR, sim.evntsel[12]);
	KUNIT_EXPECT_EQ(test, IQ_ESCR, sim.escr[MSR_P4_CRU_ESCR0 - 0x3a0]);
	KUNIT_EXPECT_EQ(test, (u32)(E_EV(3) | BIT(9) | E_T0_OS),
			sim.escr[MSR_P4_BPU_ESCR0 - 0x3a0]);
	KUNIT_EXPECT_EQ(test, (u32)(BIT(24) | BIT(0)), sim.pebs_enable);
	KUNIT_EXPECT_EQ(test, (u32)BIT(0), sim.pebs_matrix_vert);
	/* Each ESCR is loaded before its CCCR enables the counter. */
	e = sim_written(MSR_P4_CRU_ESCR0, 0);
	c = sim_written(CCCR_MSR(12), 0);
	KUNIT_EXPECT_GE(test, e, 0);
	KUNIT_EXPECT_GT(test, c, e);
	KUNIT_EXPECT_EQ(test, 9ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 9ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, FAST | 12, st->pmc[0].map);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

static void p4_counts_across_wrap_40(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);

	sim.ctr[12] = GENMASK_ULL(39, 0) - 2;	/* 40-bit wrap */
	sim.ctr[0] = 0xfffffff0ULL;		/* the low 32 bits wrap */
	run(st, 100);
	sim_advance(50);			/* not ours */
	run(st, 28);
	KUNIT_EXPECT_EQ(test, 128ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 128ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 175ULL, sim.ctr[12]);
}

static void p4_resume_writes_nothing_when_cached(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_two(test);
	unsigned int n;

	run(st, 1);
	n = sim.wrmsrs;
	run(st, 1);
	run(st, 1);
	KUNIT_EXPECT_EQ(test, n, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, st->k1.id, perfctr_x86_this_cache()->id);
}

static void p4_resume_writes_only_what_differs(struct kunit *test)
{
	u32 maps[] = { FAST | 12, 0 };
	u32 cccrs[] = { IQ_CCCR, C_ENABLE | C_ACTIVE | C_SEL(0) };
	u32 escrs[] = { IQ_ESCR | E_T0_OS, E_EV(3) | BIT(9) | E_T0_OS };
	struct perfctr_cpu_state *a = p4_two(test), *b;

	b = mkstate(test, 2, maps, cccrs);
	b->control.p4.escr[0] = escrs[0];
	b->control.p4.escr[1] = escrs[1];
	b->control.p4.pebs_enable = BIT(24) | BIT(0);
	b->control.p4.pebs_matrix_vert = BIT(0);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(b, 0));
	run(a, 1);
	sim.wrmsrs = 0;
	run(b, 1);
	/* Only CRU_ESCR0 differs. */
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u32)MSR_P4_CRU_ESCR0, sim.log[0]);
	sim.wrmsrs = 0;
	run(a, 1);
	KUNIT_EXPECT_EQ(test, 1U, sim.wrmsrs);
	KUNIT_EXPECT_EQ(test, IQ_ESCR, sim.escr[MSR_P4_CRU_ESCR0 - 0x3a0]);
}

static void p4_stops_counters_the_next_control_does_not_use(struct kunit *test)
{
	struct perfctr_cpu_state *two = p4_two(test), *one;
	u32 map = 13, cccr = C_ENABLE | C_ACTIVE | C_SEL(5), escr = IQ_ESCR;
	int stop12, start13;

	one = mkstate(test, 1, &map, &cccr);
	one->control.p4.escr[0] = escr;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	run(two, 1);
	sim.wrmsrs = 0;
	run(one, 7);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[0]);
	KUNIT_EXPECT_EQ(test, (u64)cccr, sim.evntsel[13]);
	KUNIT_EXPECT_EQ(test, 0U, sim.pebs_enable);
	KUNIT_EXPECT_EQ(test, 0U, sim.pebs_matrix_vert);
	KUNIT_EXPECT_EQ(test, IQ_ESCR, sim.escr[MSR_P4_CRU_ESCR2 - 0x3a0]);
	stop12 = sim_written(CCCR_MSR(12), 0);
	start13 = sim_written(CCCR_MSR(13), 0);
	KUNIT_EXPECT_GE(test, stop12, 0);
	KUNIT_EXPECT_GT(test, start13, stop12);
	KUNIT_EXPECT_EQ(test, 7ULL, one->pmc[0].sum);
}

static bool ht_odd_is_sibling(unsigned int cpu)
{
	return cpu & 1;
}

static void p4_ht_forbids_the_second_threads(struct kunit *test)
{
	unsigned int cpu, want = 0, got = 0;

	kunit_activate_static_stub(test, perfctr_x86_ht_sibling, ht_odd_is_sibling);
	perfctr_x86_p4_ht = true;
	perfctr_x86_use_model(P4M2);
	for_each_possible_cpu(cpu) {
		want += cpu & 1;
		got += cpumask_test_cpu(cpu, &perfctr_cpus_forbidden_mask) ? 1 : 0;
		KUNIT_EXPECT_EQ(test, (bool)(cpu & 1),
				cpumask_test_cpu(cpu, &perfctr_cpus_forbidden_mask));
	}
	KUNIT_EXPECT_EQ(test, want, got);
	/* Not on a P4 without HT, not with another model. */
	perfctr_x86_p4_ht = false;
	perfctr_x86_use_model(P4M2);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
	perfctr_x86_p4_ht = true;
	perfctr_x86_use_model(&perfctr_x86_p6);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
}

/* ---- Intel hybrid: a PMU per core type, forbidden CPUs per control ---- */

static const struct perfctr_x86_pmu_caps big = { .gp = 0xff, .fixed = 0xf, .width = 48 };
static const struct perfctr_x86_pmu_caps small = { .gp = 0x3f, .fixed = 0x7, .width = 48 };

struct saved_caps {
	unsigned int n;
	struct perfctr_x86_pmu_caps caps[];
};

/* Say what @cpu's PMU has: @caps, or NULL for not known. */
static void set_cpu_pmu_caps(unsigned int cpu, const struct perfctr_x86_pmu_caps *caps)
{
	struct perfctr_x86_pmu_caps *to = perfctr_x86_pmu_caps_of(cpu);

	if (caps)
		*to = *caps;
	else
		memset(to, 0, sizeof(*to));
}

static void restore_caps(void *arg)
{
	struct saved_caps *saved = arg;
	unsigned int cpu, i = 0;

	for_each_possible_cpu(cpu)
		set_cpu_pmu_caps(cpu, &saved->caps[i++]);
}

/*
 * Play a hybrid CPU: even CPUs have @even's PMU, odd ones @odd's (NULL:
 * never seen), the CPUs past @known none known; use the hybrid model.
 * Each CPU's record is put back after the case.
 */
static const struct perfctr_x86_model *
hybrid_setup(struct kunit *test, const struct perfctr_x86_pmu_caps *even,
	     const struct perfctr_x86_pmu_caps *odd, unsigned int known)
{
	struct saved_caps *saved;
	const struct perfctr_x86_model *m;
	unsigned int cpu, i = 0;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "one possible CPU: no second core type to play");
	saved = kunit_kzalloc(test, struct_size(saved, caps, nr_cpu_ids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	for_each_possible_cpu(cpu) {
		saved->caps[i++] = *perfctr_x86_pmu_caps_of(cpu);
		set_cpu_pmu_caps(cpu, cpu >= known ? NULL : cpu & 1 ? odd : even);
	}
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, restore_caps, saved));
	m = perfctr_x86_hybrid_model(false, model_buf(test));
	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_setup(test, m, m->ctr_width);
	return m;
}

/* The CPUs perfctr_cpu_forbidden() gives for a one-counter control. */
static void forbidden_for(struct kunit *test, u32 map, u32 sel, struct cpumask *mask)
{
	struct perfctr_cpu_state *st = mkstate(test, 1, &map, &sel);

	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	perfctr_cpu_forbidden(st, mask);
}

/* Are exactly the odd CPUs (@odd) or the even ones forbidden to it? */
static bool forbids_parity(struct kunit *test, u32 map, u32 sel, bool odd)
{
	struct cpumask *mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	forbidden_for(test, map, sel, mask);
	for_each_possible_cpu(cpu)
		if (cpumask_test_cpu(cpu, mask) != (odd == (cpu & 1)))
			return false;
	return true;
}

static void hybrid_model_offers_the_union(struct kunit *test)
{
	const struct perfctr_x86_pmu_caps narrow = { .gp = 0x3f, .fixed = 0x7, .width = 40 };
	const struct perfctr_x86_model *m = hybrid_setup(test, &big, &small, nr_cpu_ids);
	struct perfctr_info info = {};

	KUNIT_EXPECT_EQ(test, 8U, m->nr_ctrs);
	KUNIT_EXPECT_EQ(test, 4U, m->nr_fixed);
	KUNIT_EXPECT_EQ(test, GENMASK_ULL(47, 0), perfctr_x86_width_mask);
	perfctr_cpu_fill_info(&info);
	KUNIT_EXPECT_EQ(test, (unsigned int)PERFCTR_X86_INTEL_HYBRID, info.cpu_type);
	KUNIT_EXPECT_TRUE(test, info.cpu_features & PERFCTR_FEATURE_RDPMC);
	/* Counters are sign-extended to the narrowest width. */
	hybrid_setup(test, &big, &narrow, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, GENMASK_ULL(39, 0), perfctr_x86_width_mask);
}

static int check_on(struct kunit *test, u32 map, u32 sel)
{
	return perfctr_cpu_update_control(mkstate(test, 1, &map, &sel), 0);
}

static void hybrid_rejects_what_no_cpu_has(struct kunit *test)
{
	hybrid_setup(test, &big, &small, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, 0, check_on(test, 7, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, 8, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, 0, check_on(test, FIXED(3), F_USR));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, FIXED(4), F_USR));
}

static void hybrid_forbids_cpus_without_the_counter(struct kunit *test)
{
	hybrid_setup(test, &big, &small, nr_cpu_ids);
	KUNIT_EXPECT_TRUE(test, forbids_parity(test, 7, EN | USR | EVENT, true));
	KUNIT_EXPECT_TRUE(test, forbids_parity(test, FIXED(3), F_OS | F_USR, true));
	KUNIT_EXPECT_FALSE(test, forbids_parity(test, 3, EN | USR | EVENT, true));
}

static void hybrid_common_counters_forbid_nothing(struct kunit *test)
{
	struct cpumask *mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	u32 maps[] = { 5, FIXED(2), 0 };
	u32 sels[] = { EN | USR | EVENT, F_USR, EN | OS | 0x3c };
	struct perfctr_cpu_state *st;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	hybrid_setup(test, &big, &small, nr_cpu_ids);
	st = mkstate(test, 3, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	cpumask_setall(mask);
	perfctr_cpu_forbidden(st, mask);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(mask));
}

static void hybrid_disjoint_counters(struct kunit *test)
{
	const struct perfctr_x86_pmu_caps low = { .gp = 0x0f, .fixed = 0x1, .width = 48 };
	const struct perfctr_x86_pmu_caps high = { .gp = 0xf0, .fixed = 0x1, .width = 48 };
	struct cpumask *mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	u32 maps[] = { 1, 5 }, sels[] = { EN | USR | EVENT, EN | USR | EVENT };
	struct perfctr_cpu_state *st;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	hybrid_setup(test, &low, &high, nr_cpu_ids);
	KUNIT_EXPECT_TRUE(test, forbids_parity(test, 1, EN | USR | EVENT, true));
	KUNIT_EXPECT_TRUE(test, forbids_parity(test, 5, EN | USR | EVENT, false));
	/* Valid, but no CPU can run it: the core refuses it (EINVAL). */
	st = mkstate(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	perfctr_cpu_forbidden(st, mask);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(mask, cpu_possible_mask));
}

static void hybrid_unknown_cpus_are_forbidden(struct kunit *test)
{
	struct cpumask *mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct perfctr_cpu_state *tsc = mkstate(test, 0, NULL, NULL);
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	/* CPU 1 never came online: its PMU is not known. */
	hybrid_setup(test, &small, NULL, 2);
	forbidden_for(test, 0, EN | USR | EVENT, mask);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, cpu != 0, cpumask_test_cpu(cpu, mask));
	/* A TSC-only control runs anywhere. */
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(tsc, 0));
	perfctr_cpu_forbidden(tsc, mask);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(mask));
	/* Nothing known at all: no hybrid model. */
	hybrid_setup(test, &small, NULL, 2);
	set_cpu_pmu_caps(0, NULL);
	KUNIT_EXPECT_NULL(test, perfctr_x86_hybrid_model(false, model_buf(test)));
}

/*
 * After a reservation every cached register is unknown, so the first
 * resume writes them all -- but only those this CPU has: EVNTSEL6 and 7
 * do not exist on a small core, and writing them would fault.  One period
 * of a counter-0 control on this CPU, as a reservation leaves it:
 */
static void run_after_reserve(struct kunit *test, u32 gp_here)
{
	u32 map = 0, sel = EN | USR | EVENT;
	struct perfctr_cpu_state *st = mkstate(test, 1, &map, &sel);

	sim.gp_here = gp_here;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	memset(perfctr_x86_this_cache(), 0xff, sizeof(struct perfctr_x86_cache));
	run(st, 100);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
	KUNIT_EXPECT_EQ(test, 100ULL, st->pmc[0].sum);
}

static void hybrid_resume_writes_only_this_cpus_counters(struct kunit *test)
{
	unsigned int pmc;

	/* This CPU small, its neighbours big: the model has all eight. */
	if (smp_processor_id() & 1)
		hybrid_setup(test, &big, &small, nr_cpu_ids);
	else
		hybrid_setup(test, &small, &big, nr_cpu_ids);
	KUNIT_ASSERT_EQ(test, 8U, sim.model->nr_ctrs);
	run_after_reserve(test, small.gp);
	for (pmc = 1; pmc < 6; pmc++)
		KUNIT_EXPECT_GE(test, sim_written(ARCH->evntsel_msr + pmc, 0), 0);
	/* A big core clears all eight. */
	hybrid_setup(test, &big, &big, nr_cpu_ids);
	run_after_reserve(test, big.gp);
	KUNIT_EXPECT_GE(test, sim_written(ARCH->evntsel_msr + 7, 0), 0);
}

static void hybrid_counts_a_big_core_counter(struct kunit *test)
{
	u32 maps[] = { 7, FIXED(3) }, sels[] = { EN | USR | EVENT, F_USR };
	struct perfctr_cpu_state *st;

	hybrid_setup(test, &big, &big, nr_cpu_ids);
	st = mkstate(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim.ctr[7] = GENMASK_ULL(47, 0) - 4;
	run(st, 30);
	run(st, 12);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, BIT_ULL(7) | BIT_ULL(35), sim.global);
}

/* CPUID as Alder Lake's cores report it: leaf 0xA only, the common set. */
static void hybrid_caps_from_leaf_0xa(struct kunit *test)
{
	struct perfctr_x86_pmu_caps caps;
	u32 eax = 5 | 6 << 8 | 48 << 16;	/* v5, 6 counters, 48 bits */

	perfctr_x86_parse_pmu_caps(&caps, eax, 0x7, 3, false, 0, 0);
	KUNIT_EXPECT_EQ(test, 0x3fU, caps.gp);
	KUNIT_EXPECT_EQ(test, 0x7U, caps.fixed);
	KUNIT_EXPECT_EQ(test, 48U, (unsigned int)caps.width);
	/* v5's ECX bitmap adds fixed counters past EDX's contiguous ones. */
	perfctr_x86_parse_pmu_caps(&caps, eax, 0x9, 1, false, 0, 0);
	KUNIT_EXPECT_EQ(test, 0x9U, caps.fixed);
	/* Before v5 ECX means nothing. */
	perfctr_x86_parse_pmu_caps(&caps, 4 | 4 << 8 | 48 << 16, 0xff, 3, false, 0, 0);
	KUNIT_EXPECT_EQ(test, 0xfU, caps.gp);
	KUNIT_EXPECT_EQ(test, 0x7U, caps.fixed);
}

/* CPUID leaf 0x23 (Meteor Lake and later): each core's own bitmaps. */
static void hybrid_caps_from_leaf_0x23(struct kunit *test)
{
	struct perfctr_x86_pmu_caps caps;
	u32 eax = 5 | 6 << 8 | 48 << 16;

	perfctr_x86_parse_pmu_caps(&caps, eax, 0x7, 3, true, 0xff, 0x7f);
	KUNIT_EXPECT_EQ(test, 0xffU, caps.gp);
	KUNIT_EXPECT_EQ(test, 0x7fU, caps.fixed);
	/* More than the model can address: cut to 16 general, 8 fixed. */
	perfctr_x86_parse_pmu_caps(&caps, eax, 0, 0, true, 0x1ffff, 0x3ff);
	KUNIT_EXPECT_EQ(test, 0xffffU, caps.gp);
	KUNIT_EXPECT_EQ(test, 0xffU, caps.fixed);
}

/* ---- Detection and the static calls of each family ---- */

static const struct family_case {
	unsigned int vendor, family, model;
	bool mmx;
	const struct perfctr_x86_model *want;
} family_cases[] = {
	{ X86_VENDOR_INTEL, 5, 2, false, P5 },
	{ X86_VENDOR_INTEL, 5, 4, true, P5MMX },
	{ X86_VENDOR_INTEL, 15, 0, false, P4 },
	{ X86_VENDOR_INTEL, 15, 1, false, P4 },
	{ X86_VENDOR_INTEL, 15, 2, false, P4M2 },
	{ X86_VENDOR_INTEL, 15, 3, false, P4M3 },
	{ X86_VENDOR_INTEL, 15, 6, false, P4M3 },
	{ X86_VENDOR_INTEL, 6, 15, true, NULL },
	{ X86_VENDOR_CYRIX, 6, 0, true, MII },
	{ X86_VENDOR_CYRIX, 6, 5, true, MII },
	{ X86_VENDOR_CYRIX, 5, 2, false, NULL },
	{ X86_VENDOR_CENTAUR, 5, 4, true, C6 },
	{ X86_VENDOR_CENTAUR, 5, 8, true, WC2 },
	{ X86_VENDOR_CENTAUR, 5, 9, true, WC2 },
	{ X86_VENDOR_CENTAUR, 6, 6, true, VC3 },
	{ X86_VENDOR_CENTAUR, 6, 9, true, VC3 },
	{ X86_VENDOR_CENTAUR, 6, 15, true, NULL },
	{ X86_VENDOR_AMD, 5, 8, true, NULL },
	{ X86_VENDOR_AMD, 15, 2, true, NULL },
};

static void family_case_desc(const struct family_case *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "vendor %u family %u model %u%s",
		 t->vendor, t->family, t->model, t->mmx ? " MMX" : "");
}

KUNIT_ARRAY_PARAM(family_cases, family_cases, family_case_desc);

/* One CPUID identity of family_cases[] (a parameterised case). */
static void detect_each_family(struct kunit *test)
{
	const struct family_case *t = test->param_value;

	KUNIT_EXPECT_PTR_EQ(test, t->want,
			    perfctr_x86_detect(t->vendor, t->family, t->model, t->mmx));
}

static void static_calls_follow_each_family(struct kunit *test)
{
	struct perfctr_x86_ops p6, p5, mmx, mii, c6, vc3, p4, p4m3;

	perfctr_x86_use_model(&perfctr_x86_p6);
	perfctr_x86_get_ops(&p6);
	perfctr_x86_use_model(P5);
	perfctr_x86_get_ops(&p5);
	perfctr_x86_use_model(P5MMX);
	perfctr_x86_get_ops(&mmx);
	perfctr_x86_use_model(MII);
	perfctr_x86_get_ops(&mii);
	perfctr_x86_use_model(C6);
	perfctr_x86_get_ops(&c6);
	perfctr_x86_use_model(VC3);
	perfctr_x86_get_ops(&vc3);
	perfctr_x86_use_model(P4);
	perfctr_x86_get_ops(&p4);
	perfctr_x86_use_model(P4M3);
	perfctr_x86_get_ops(&p4m3);
	/* The P5 family shares its check and CESR write ... */
	KUNIT_EXPECT_PTR_EQ(test, p5.check, mmx.check);
	KUNIT_EXPECT_PTR_EQ(test, p5.check, c6.check);
	KUNIT_EXPECT_PTR_EQ(test, mmx.write_control, mii.write_control);
	KUNIT_EXPECT_PTR_NE(test, p5.check, p6.check);
	/* ... the P5 reads MSRs, the others RDPMC like the P6 family. */
	KUNIT_EXPECT_PTR_NE(test, p5.suspend, mmx.suspend);
	KUNIT_EXPECT_PTR_NE(test, p5.resume, mmx.resume);
	KUNIT_EXPECT_PTR_EQ(test, mmx.suspend, p6.suspend);
	KUNIT_EXPECT_PTR_EQ(test, vc3.resume, p6.resume);
	/* Each family has its own check and control writer. */
	KUNIT_EXPECT_PTR_NE(test, vc3.check, p6.check);
	KUNIT_EXPECT_PTR_NE(test, vc3.write_control, p6.write_control);
	KUNIT_EXPECT_PTR_NE(test, vc3.write_control, mmx.write_control);
	KUNIT_EXPECT_PTR_NE(test, p4.check, p6.check);
	KUNIT_EXPECT_PTR_NE(test, p4.check, vc3.check);
	KUNIT_EXPECT_PTR_NE(test, p4.write_control, p6.write_control);
	KUNIT_EXPECT_PTR_NE(test, p4.write_control, mmx.write_control);
	KUNIT_EXPECT_PTR_EQ(test, p4.check, p4m3.check);
}

/* ---- P6-family interrupt-mode counters ---- */

static const struct perfctr_x86_model *const p6_family[] = {
	&perfctr_x86_p6, &perfctr_x86_k7, ARCH, AMD,
};

static void p6_family_desc(const struct perfctr_x86_model *const *m, char *desc)
{
	strscpy(desc, (*m)->name, KUNIT_PARAM_DESC_SIZE);
}

/* The cases run on each model of p6_family[]: test->param_value points at one. */
KUNIT_ARRAY_PARAM(p6_family, p6_family, p6_family_desc);

static const struct perfctr_x86_model *p6_model(struct kunit *test)
{
	return *(const struct perfctr_x86_model *const *)test->param_value;
}

#define ISEL	(INT | EN | USR | EVENT)

/* What the model needs in counter 1's event select: the P6 enables in EVNTSEL0. */
static u32 sel1(const struct perfctr_x86_model *m, u32 sel)
{
	return m->global_enable ? sel & ~EN : sel;
}

/* @m with a simulated PMU; skipped where no overflow interrupt can exist. */
static void imode_setup(struct kunit *test, const struct perfctr_x86_model *m,
			unsigned int width)
{
	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	sim_setup(test, m, width);
}

/* A state with @na a-mode then @ni i-mode counters, @iresets for the latter. */
static struct perfctr_cpu_state *mkistate(struct kunit *test, unsigned int na,
					  unsigned int ni, const u32 *maps,
					  const u32 *sels, const int *iresets)
{
	struct perfctr_cpu_state *st = mkstate(test, na + ni, maps, sels);
	unsigned int i;

	st->control.nractrs = na;
	st->control.nrictrs = ni;
	for (i = 0; i < ni; i++)
		st->control.ireset[na + i] = iresets[i];
	return st;
}

static int icheck(struct kunit *test, const struct perfctr_x86_model *m,
		  unsigned int na, unsigned int ni, const u32 *maps,
		  const u32 *sels, const int *iresets)
{
	imode_setup(test, m, 48);
	return perfctr_cpu_update_control(mkistate(test, na, ni, maps, sels, iresets), 0);
}

/* What a counter of the simulated width holds after @v was written. */
static u64 sext(s32 v)
{
	return (u64)(s64)v & GENMASK_ULL(sim.width - 1, 0);
}

static void irun(struct perfctr_cpu_state *st, u64 events)
{
	run(st, events);
}

/* A driver operation on @st, with interrupts off as the hooks run it. */
static void irqs_off(void (*op)(struct perfctr_cpu_state *), struct perfctr_cpu_state *st)
{
	unsigned long flags;

	local_irq_save(flags);
	op(st);
	local_irq_restore(flags);
}

static void suspend_now(struct perfctr_cpu_state *st)
{
	irqs_off(perfctr_cpu_suspend, st);
}

static void resume_now(struct perfctr_cpu_state *st)
{
	irqs_off(perfctr_cpu_resume, st);
}

static void imode_accepts_int_with_negative_ireset(struct kunit *test)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = ISEL;
	int ireset = -1;

	imode_setup(test, p6_model(test), 48);
	st = mkistate(test, 0, 1, &map, &sel, &ireset);
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_TRUE(test, perfctr_cstatus_has_ictrs(st->cstatus));
	KUNIT_EXPECT_EQ(test, (u64)(s64)-1, st->pmc[0].start);
}

static void imode_rejects_evntsel_without_int(struct kunit *test)
{
	u32 map = 0, sel = EN | USR | EVENT;
	int ireset = -100;

	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, p6_model(test), 0, 1, &map, &sel, &ireset));
}

static void amode_rejects_int_beside_imode(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	u32 maps[] = { 0, 1 }, sels[2];
	int ireset = -100;

	sels[0] = EN | USR | EVENT;
	sels[1] = sel1(m, ISEL);
	KUNIT_EXPECT_EQ(test, 0, icheck(test, m, 1, 1, maps, sels, &ireset));
	sels[0] = ISEL;		/* the a-mode counter with INT */
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, m, 1, 1, maps, sels, &ireset));
}

static void imode_rejects_nonnegative_ireset(struct kunit *test)
{
	static const int bad[] = { 0, 1, 0x7fffffff }, good[] = { -1, S32_MIN };
	const struct perfctr_x86_model *m = p6_model(test);
	u32 map = 0, sel = ISEL;
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(bad); j++)
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, icheck(test, m, 0, 1, &map, &sel, &bad[j]),
				    "ireset %d", bad[j]);
	for (j = 0; j < ARRAY_SIZE(good); j++)
		KUNIT_EXPECT_EQ_MSG(test, 0, icheck(test, m, 0, 1, &map, &sel, &good[j]),
				    "ireset %d", good[j]);
}

static void arch_fixed_imode_needs_pmi(struct kunit *test)
{
	u32 maps[] = { FIXED(0), FIXED(1) }, sels[2];
	int ireset = -10;

	sels[0] = F_USR;
	sels[1] = F_USR | F_PMI;
	KUNIT_EXPECT_EQ(test, 0, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
	sels[1] = F_USR;		/* i-mode without PMI */
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
	sels[1] = F_PMI;		/* counting nothing */
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
	sels[0] = F_OS | F_PMI;		/* a-mode with PMI */
	sels[1] = F_USR | F_PMI;
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, ARCH, 1, 1, maps, sels, &ireset));
}

static void imode_needs_a_local_apic(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	u32 map = 0, sel = ISEL;
	int ireset = -100;

	KUNIT_EXPECT_EQ(test, 0, icheck(test, m, 0, 1, &map, &sel, &ireset));
	perfctr_x86_no_lapic = true;
	KUNIT_EXPECT_EQ(test, -EINVAL, icheck(test, m, 0, 1, &map, &sel, &ireset));
	perfctr_x86_no_lapic = false;
}

static bool reports_pcint(const struct perfctr_x86_model *m)
{
	struct perfctr_info info = {};

	perfctr_x86_use_model(m);
	perfctr_cpu_fill_info(&info);
	return info.cpu_features & PERFCTR_FEATURE_PCINT;
}

static void pcint_reported_only_where_it_should(struct kunit *test)
{
	static const struct perfctr_x86_model *const others[] = {
		NULL, P5, P5MMX, MII, C6, WC2, VC3,
	};
	static const struct perfctr_x86_model *const p4s[] = { P4, P4M2, P4M3 };
	bool can = IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) &&
		   boot_cpu_has(X86_FEATURE_APIC);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p6_family); i++)
		KUNIT_EXPECT_EQ_MSG(test, can, reports_pcint(p6_family[i]),
				    "%s", p6_family[i]->name);
	for (i = 0; i < ARRAY_SIZE(p4s); i++)
		KUNIT_EXPECT_EQ_MSG(test, can, reports_pcint(p4s[i]), "%s", p4s[i]->name);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		KUNIT_EXPECT_FALSE_MSG(test, reports_pcint(others[i]), "%s",
				       others[i] ? others[i]->name : "generic");
	perfctr_x86_no_lapic = true;
	for (i = 0; i < ARRAY_SIZE(p6_family); i++)
		KUNIT_EXPECT_FALSE_MSG(test, reports_pcint(p6_family[i]),
				       "%s without a local APIC", p6_family[i]->name);
	perfctr_x86_no_lapic = false;
	if (!can)
		kunit_skip(test, "no overflow interrupt on this kernel or CPU");
}

/* A validated state on @m: a-mode counter 0, i-mode counter 1 from @ireset. */
static struct perfctr_cpu_state *istate(struct kunit *test, const struct perfctr_x86_model *m,
					unsigned int width, int ireset)
{
	u32 maps[] = { 0, 1 }, sels[] = { EN | USR | EVENT, sel1(m, ISEL) };
	struct perfctr_cpu_state *st;

	imode_setup(test, m, width);
	st = mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

/* At each model's own width: 40 bits on the P6, 48 on the others. */
static void imode_resume_writes_start_values(struct kunit *test)
{
	const struct perfctr_x86_model *m = p6_model(test);
	struct perfctr_cpu_state *st;
	int ctr, sel;

	st = istate(test, m, m->ctr_width, -1000);
	sim.ctr[1] = 0x1234;		/* what another thread left */
	resume_now(st);
	KUNIT_EXPECT_EQ(test, sext(-1000), sim.ctr[1]);
	KUNIT_EXPECT_EQ(test, 1U, sim.ctr_writes);
	/* Written before its event select starts it. */
	ctr = sim_written(m->perfctr_msr + m->evntsel_stride, 0);
	sel = sim_written(m->evntsel_msr + m->evntsel_stride, 0);
	KUNIT_EXPECT_GE(test, ctr, 0);
	KUNIT_EXPECT_LT(test, ctr, sel);
	KUNIT_EXPECT_EQ(test, (u64)sel1(m, ISEL), sim.evntsel[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
	suspend_now(st);
}

static void arch_fixed_imode_resume_writes_start_value(struct kunit *test)
{
	u32 maps[] = { 2, FIXED(2) }, sels[] = { ISEL, F_OS | F_USR | F_PMI };
	int iresets[] = { -5, -7 };
	struct perfctr_cpu_state *st;

	imode_setup(test, ARCH, 48);
	st = mkistate(test, 0, 2, maps, sels, iresets);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	resume_now(st);
	KUNIT_EXPECT_EQ(test, sext(-5), sim.ctr[2]);
	KUNIT_EXPECT_EQ(test, sext(-7), sim.fixed_ctr[2]);
	KUNIT_EXPECT_EQ(test, (u64)(F_OS | F_USR | F_PMI) << 8, sim.fixed_ctrl);
	KUNIT_EXPECT_LT(test, sim_written(FIXED_CTR_MSR(2), 0), sim_written(FIXED_CTRL_MSR, 0));
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
	suspend_now(st);
}

static void imode_suspend_stops_the_counters(struct kunit *test)
{
	struct perfctr_cpu_state *st = istate(test, &perfctr_x86_k7, 48, -1000);
	struct perfctr_x86_cache *cache = perfctr_x86_this_cache();
	u64 ctr;

	irun(st, 10);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[1]);
	KUNIT_EXPECT_EQ(test, 0ULL, cache->evntsel[1]);
	/* The a-mode counter is not stopped. */
	KUNIT_EXPECT_EQ(test, (u64)(EN | USR | EVENT), sim.evntsel[0]);
	ctr = sim.ctr[1];
	sim_advance(5000);		/* another thread runs */
	KUNIT_EXPECT_EQ(test, ctr, sim.ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim.pmis);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[1].sum);
}

static void arch_fixed_imode_suspend_stops_it(struct kunit *test)
{
	u32 maps[] = { FIXED(0), FIXED(1) }, sels[] = { F_USR, F_USR | F_PMI };
	struct perfctr_cpu_state *st;
	int ireset = -10;
	u64 ctr;

	imode_setup(test, ARCH, 48);
	st = mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irun(st, 3);
	KUNIT_EXPECT_EQ(test, (u64)F_USR, sim.fixed_ctrl);
	KUNIT_EXPECT_EQ(test, (u64)F_USR, perfctr_x86_this_cache()->fixed_ctrl);
	ctr = sim.fixed_ctr[1];
	sim_advance(100);
	KUNIT_EXPECT_EQ(test, ctr, sim.fixed_ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim.pmis);
}

static void imode_same_cpu_resume_writes_no_counter(struct kunit *test)
{
	struct perfctr_cpu_state *st = istate(test, &perfctr_x86_k7, 48, -1000);
	unsigned long flags;

	irun(st, 100);
	KUNIT_EXPECT_EQ(test, (int)smp_processor_id(), st->k1.isuspend_cpu);
	sim.ctr_writes = 0;
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	KUNIT_EXPECT_EQ(test, 0U, sim.ctr_writes);
	/* Its event select (stopped at the suspend) is written again. */
	KUNIT_EXPECT_EQ(test, (u64)ISEL, sim.evntsel[1]);
	sim_advance(50);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, sext(-1000 + 150), st->pmc[1].start);
}

static void imode_resume_elsewhere_rewrites(struct kunit *test)
{
	struct perfctr_cpu_state *st = istate(test, &perfctr_x86_k7, 48, -1000);
	struct perfctr_cpu_state *other;
	u32 map = 1, sel = EN | USR | EVENT;

	irun(st, 100);
	/* Suspended on another CPU: this one's counter is not its. */
	st->k1.isuspend_cpu = smp_processor_id() + 1;
	sim.ctr[1] = 77;
	sim.ctr_writes = 0;
	irun(st, 100);
	KUNIT_EXPECT_EQ(test, 1U, sim.ctr_writes);
	KUNIT_EXPECT_EQ(test, 200ULL, st->pmc[1].sum);
	/* Same CPU, but another state reprogrammed the counter meanwhile. */
	other = mkstate(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(other, 0));
	irun(other, 5);
	KUNIT_EXPECT_EQ(test, 5ULL, other->pmc[0].sum);
	sim.ctr_writes = 0;
	resume_now(st);
	KUNIT_EXPECT_EQ(test, 1U, sim.ctr_writes);
	KUNIT_EXPECT_EQ(test, sext(-1000 + 200), sim.ctr[1]);
	suspend_now(st);
	KUNIT_EXPECT_EQ(test, 200ULL, st->pmc[1].sum);
}

static void ireload_forces_the_counters_rewritten(struct kunit *test)
{
	struct perfctr_cpu_state *st = istate(test, &perfctr_x86_k7, 48, -1000);

	irun(st, 100);
	perfctr_cpu_ireload(st);
	KUNIT_EXPECT_EQ(test, -1, st->k1.isuspend_cpu);
	st->pmc[1].start = (u64)(s64)-40;	/* as identify_overflow sets it */
	sim.ctr_writes = 0;
	resume_now(st);
	KUNIT_EXPECT_EQ(test, 1U, sim.ctr_writes);
	KUNIT_EXPECT_EQ(test, sext(-40), sim.ctr[1]);
	suspend_now(st);
}

/*
 * A K7 state whose control order differs from counter order: a-mode
 * counter 2, then i-mode counters 0, 3 and 1 from @iresets.
 */
static struct perfctr_cpu_state *k7_three_imode(struct kunit *test, int *iresets)
{
	u32 maps[] = { 2, 0, 3, 1 }, sels[] = { EN | USR | EVENT, ISEL, ISEL, ISEL };
	struct perfctr_cpu_state *st;

	imode_setup(test, &perfctr_x86_k7, 48);
	st = mkistate(test, 1, 3, maps, sels, iresets);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void identify_overflow_finds_the_overflown(struct kunit *test)
{
	int iresets[] = { -100, -1000, -50 };
	struct perfctr_cpu_state *st = k7_three_imode(test, iresets);

	sim.ctr[2] = GENMASK_ULL(47, 0) - 10;	/* the a-mode counter passes 0 too */
	irun(st, 150);
	KUNIT_EXPECT_EQ(test, (unsigned int)(BIT(1) | BIT(3)), perfctr_cpu_identify_overflow(st));
	/* Re-armed: called again, it finds none. */
	KUNIT_EXPECT_EQ(test, (u64)(s64)-100, st->pmc[1].start);
	KUNIT_EXPECT_EQ(test, sext(-1000 + 150), st->pmc[2].start);
	KUNIT_EXPECT_EQ(test, (u64)(s64)-50, st->pmc[3].start);
	KUNIT_EXPECT_EQ(test, 0U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, 2U, sim.pmis);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[3].sum);
	perfctr_cpu_ireload(st);
	resume_now(st);
	KUNIT_EXPECT_EQ(test, sext(-100), sim.ctr[0]);
	KUNIT_EXPECT_EQ(test, sext(-1000 + 150), sim.ctr[3]);
	KUNIT_EXPECT_EQ(test, sext(-50), sim.ctr[1]);
	suspend_now(st);
}

static void identify_overflow_returns_the_mask(struct kunit *test)
{
	int iresets[] = { -100, -1000, -150 };
	struct perfctr_cpu_state *st = k7_three_imode(test, iresets);

	sim.ctr[2] = GENMASK_ULL(47, 0) - 10;
	irun(st, 99);			/* -1, -901, -51 */
	KUNIT_EXPECT_EQ(test, 0U, perfctr_cpu_identify_overflow(st));
	irun(st, 1);			/* 0: overflowed, -900, -50 */
	KUNIT_EXPECT_EQ(test, (unsigned int)BIT(1), perfctr_cpu_identify_overflow(st));
	perfctr_cpu_ireload(st);
	irun(st, 50);			/* -50, -850, 0 */
	KUNIT_EXPECT_EQ(test, (unsigned int)BIT(3), perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[3].sum);
}

static void identify_overflow_clears_the_status(struct kunit *test)
{
	u32 maps[] = { 1, FIXED(0), 2 }, sels[] = { ISEL, F_USR | F_PMI, ISEL };
	int iresets[] = { -10, -10, -1000 };
	struct perfctr_cpu_state *st;
	u32 map = 4, sel = ISEL;
	int ireset = -1;
	unsigned int n;

	imode_setup(test, ARCH, 48);
	st = mkistate(test, 0, 3, maps, sels, iresets);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irun(st, 20);
	KUNIT_EXPECT_EQ(test, BIT_ULL(1) | BIT_ULL(32), sim.status);
	KUNIT_EXPECT_EQ(test, 3U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, BIT_ULL(1) | BIT_ULL(32), sim.ovf_cleared);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.status);

	imode_setup(test, AMD, 48);
	st = mkistate(test, 0, 1, &map, &sel, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irun(st, 1);
	KUNIT_EXPECT_EQ(test, 1U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, BIT_ULL(4), sim.ovf_cleared);
	KUNIT_EXPECT_GE(test, sim_written(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 0), 0);

	/* The K7 has no overflow status: nothing written. */
	st = istate(test, &perfctr_x86_k7, 48, -1);
	irun(st, 1);
	n = sim.wrmsrs;
	KUNIT_EXPECT_EQ(test, 2U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, n, sim.wrmsrs);
}

/* Periods of @period events, each overflow handled as vperfctr does. */
static void counts_across_overflow(struct kunit *test, const struct perfctr_x86_model *m,
				   unsigned int width)
{
	struct perfctr_cpu_state *st = istate(test, m, width, -1000);
	unsigned int i, mask, overflows = 0;

	for (i = 0; i < 10; i++) {
		irun(st, 700);
		mask = perfctr_cpu_identify_overflow(st);
		if (mask) {
			KUNIT_EXPECT_EQ(test, (unsigned int)BIT(1), mask);
			overflows++;
			perfctr_cpu_ireload(st);
		}
	}
	/* -1000, -300, +400: overflow; again: every second period. */
	KUNIT_EXPECT_EQ_MSG(test, 5U, overflows, "%s", m->name);
	KUNIT_EXPECT_EQ(test, sim.pmis, overflows);
	KUNIT_EXPECT_EQ(test, 7000ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 7000ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

static void imode_counts_across_overflow(struct kunit *test)
{
	counts_across_overflow(test, &perfctr_x86_p6, 40);
	counts_across_overflow(test, &perfctr_x86_k7, 48);
	counts_across_overflow(test, ARCH, 48);
	counts_across_overflow(test, AMD, 48);
}

/* ---- Architectural perfmon as CPUID describes it ---- */

static const struct perfctr_x86_model *arch_from_cpuid(struct kunit *test, u32 eax,
						       u32 edx, bool full_width)
{
	struct perfctr_x86_pmu_caps caps;
	const struct perfctr_x86_model *m;

	perfctr_x86_parse_pmu_caps(&caps, eax, 0, edx, false, 0, 0);
	m = perfctr_x86_arch_model(&caps, eax & 0xff, full_width, model_buf(test));
	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_setup(test, m, m->ctr_width);
	return m;
}

/* Version 4, 8 general counters of 48 bits, 3 fixed (Skylake). */
static void arch_model_has_the_cpuid_counters(struct kunit *test)
{
	const struct perfctr_x86_model *m = arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3,
							    false);

	KUNIT_EXPECT_EQ(test, (unsigned int)PERFCTR_X86_INTEL_ARCH, m->cpu_type);
	KUNIT_EXPECT_EQ(test, 8U, m->nr_ctrs);
	KUNIT_EXPECT_EQ(test, 3U, m->nr_fixed);
	KUNIT_EXPECT_EQ(test, (u32)MSR_CORE_PERF_GLOBAL_CTRL, m->global_ctrl_msr);
	KUNIT_EXPECT_EQ(test, GENMASK_ULL(47, 0), perfctr_x86_width_mask);
	KUNIT_EXPECT_EQ(test, 0, check_on(test, 7, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, 8, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, 0, check_on(test, FIXED(2), F_USR));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, FIXED(3), F_USR));
	/* No architectural perfmon, or no counter: no model. */
	KUNIT_EXPECT_NULL(test, perfctr_x86_arch_model(&(struct perfctr_x86_pmu_caps){
		.gp = 0x3, .width = 40 }, 0, false, model_buf(test)));
	KUNIT_EXPECT_NULL(test, perfctr_x86_arch_model(&(struct perfctr_x86_pmu_caps){
		.width = 40 }, 2, false, model_buf(test)));
}

/* Version 1 (Core Solo/Duo): an enable bit per counter, nothing global. */
static void arch_v1_model(struct kunit *test)
{
	const struct perfctr_x86_model *m = arch_from_cpuid(test, 1 | 2 << 8 | 40 << 16, 0,
							    false);
	struct perfctr_cpu_state *st;
	u32 map = 1, sel = EN | USR | EVENT;

	KUNIT_EXPECT_EQ(test, (unsigned int)PERFCTR_X86_INTEL_CORE, m->cpu_type);
	KUNIT_EXPECT_STREQ(test, "Intel architectural perfmon v1", m->name);
	KUNIT_EXPECT_EQ(test, 0U, m->nr_fixed);
	KUNIT_EXPECT_EQ(test, 0U, m->global_ctrl_msr);
	/* Unlike the P6, counter 1 alone, enabled in its own event select. */
	KUNIT_EXPECT_EQ(test, 0, check_on(test, 1, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, 1, USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, FIXED(0), F_USR));
	KUNIT_EXPECT_EQ(test, -EINVAL, check_on(test, 2, EN | USR | EVENT));
	st = mkstate(test, 1, &map, &sel);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim.ctr[1] = GENMASK_ULL(39, 0) - 2;
	run(st, 10);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
}

/* FW_WRITE: i-mode counters are loaded through IA32_A_PMCx. */
static void arch_full_width_writes(struct kunit *test)
{
	u32 maps[] = { 0, 3 }, sels[] = { EN | USR | EVENT, EN | INT | USR | EVENT };
	struct perfctr_cpu_state *st;
	int ireset = -5000;

	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3, true);
	st = mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irqs_off(perfctr_cpu_resume, st);
	KUNIT_EXPECT_GE(test, sim_written(MSR_IA32_PMC0 + 3, 0), 0);
	KUNIT_EXPECT_LT(test, sim_written(ARCH->perfctr_msr + 3, 0), 0);
	KUNIT_EXPECT_EQ(test, sext(-5000), sim.ctr[3]);
	irqs_off(perfctr_cpu_suspend, st);
	/* Without FW_WRITE, the legacy counter MSR. */
	arch_from_cpuid(test, 4 | 8 << 8 | 48 << 16, 3, false);
	st = mkistate(test, 1, 1, maps, sels, &ireset);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	irqs_off(perfctr_cpu_resume, st);
	KUNIT_EXPECT_GE(test, sim_written(ARCH->perfctr_msr + 3, 0), 0);
	KUNIT_EXPECT_LT(test, sim_written(MSR_IA32_PMC0 + 3, 0), 0);
	irqs_off(perfctr_cpu_suspend, st);
}

/* ---- P4 i-mode: OVF_PMI_T0, 40-bit counters, the CCCR cleared at suspend ---- */

#define P4_ICCCR	(IQ_CCCR | C_PMI_T0)

/* A validated P4 state with one i-mode counter, IQ_COUNTER0 (12). */
static struct perfctr_cpu_state *p4_istate(struct kunit *test, int ireset)
{
	u32 map = 12, cccr = P4_ICCCR, escr = IQ_ESCR;
	struct perfctr_cpu_state *st;

	if (!IS_ENABLED(CONFIG_PERFCTR_INTERRUPT_SUPPORT) || !boot_cpu_has(X86_FEATURE_APIC))
		kunit_skip(test, "no overflow interrupt without a local APIC");
	st = p4_state(test, P4, 1, &map, &cccr, &escr);
	st->control.nractrs = 0;
	st->control.nrictrs = 1;
	st->control.ireset[0] = ireset;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void p4_imode_resume_writes_start_value(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -1000);
	int ctr, cccr;

	sim.ctr[12] = 0x1234;		/* what another thread left */
	resume_now(st);
	KUNIT_EXPECT_EQ(test, sext(-1000), sim.ctr[12]);
	KUNIT_EXPECT_EQ(test, 1U, sim.ctr_writes);
	ctr = sim_written(P4_CTR_MSR(12), 0);
	cccr = sim_written(CCCR_MSR(12), 0);
	KUNIT_EXPECT_GE(test, ctr, 0);
	KUNIT_EXPECT_LT(test, ctr, cccr);	/* loaded, then started */
	KUNIT_EXPECT_EQ(test, (u64)P4_ICCCR, sim.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 0U, sim.stray);
	suspend_now(st);
}

static void p4_imode_suspend_stops_it(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -1000);

	run(st, 10);
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 10ULL, st->pmc[0].sum);
	sim_advance(10);			/* stopped: counts nothing */
	KUNIT_EXPECT_EQ(test, sext(-990), sim.ctr[12]);
}

static void p4_imode_same_cpu_resume_writes_no_counter(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -1000);

	run(st, 10);
	sim.ctr_writes = 0;
	resume_now(st);
	KUNIT_EXPECT_EQ(test, 0U, sim.ctr_writes);
	KUNIT_EXPECT_EQ(test, (u64)P4_ICCCR, sim.evntsel[12]);
	sim_advance(5);
	suspend_now(st);
	KUNIT_EXPECT_EQ(test, 15ULL, st->pmc[0].sum);
	/* Elsewhere (or after an ireload) the counter is written again. */
	perfctr_cpu_ireload(st);
	resume_now(st);
	KUNIT_EXPECT_EQ(test, 1U, sim.ctr_writes);
	suspend_now(st);
}

static void p4_imode_overflow_found_and_rearmed(struct kunit *test)
{
	struct perfctr_cpu_state *st = p4_istate(test, -100);

	resume_now(st);
	sim_advance(150);
	KUNIT_EXPECT_EQ(test, 1U, sim.pmis);
	KUNIT_EXPECT_TRUE(test, sim.evntsel[12] & C_OVF);
	suspend_now(st);
	/* The suspend cleared the CCCR, and with it the sticky OVF flag. */
	KUNIT_EXPECT_EQ(test, 0ULL, sim.evntsel[12]);
	KUNIT_EXPECT_EQ(test, 1U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, (u64)(s64)-100, st->pmc[0].start);
	KUNIT_EXPECT_EQ(test, 150ULL, st->pmc[0].sum);
	perfctr_cpu_ireload(st);
	resume_now(st);
	KUNIT_EXPECT_EQ(test, sext(-100), sim.ctr[12]);
	sim_advance(40);
	suspend_now(st);
	KUNIT_EXPECT_EQ(test, 0U, perfctr_cpu_identify_overflow(st));
	KUNIT_EXPECT_EQ(test, 190ULL, st->pmc[0].sum);
}

#if defined(CONFIG_PERFCTR_INTERRUPT_SUPPORT) && defined(CONFIG_X86_LOCAL_APIC)
/* ---- The overflow interrupt end to end: LVTPC, the vector, the handler ---- */

#define LVT_BITS	(APIC_LVT_MASKED | APIC_MODE_MASK | APIC_VECTOR_MASK)

static void lvtpc_follows_the_reservation(struct kunit *test)
{
	const struct perfctr_x86_model *m;
	u32 before;

	BUILT_IN_ONLY(test);
	m = boot_vendor_model(test);
	before = apic_read(APIC_LVTPC);
	imode_setup(test, m, 48);
	/* Whatever was there (NMI delivery under perf) comes back at release. */
	apic_write(APIC_LVTPC, APIC_DM_NMI | APIC_LVT_MASKED);
	reserve_or_skip(test);
	KUNIT_EXPECT_EQ(test, (u32)LOCAL_PERFCTR_VECTOR, apic_read(APIC_LVTPC) & LVT_BITS);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_EQ(test, (u32)(APIC_DM_NMI | APIC_LVT_MASKED),
			apic_read(APIC_LVTPC) & LVT_BITS);
	apic_write(APIC_LVTPC, APIC_DM_NMI);
	reserve_or_skip(test);
	perfctr_cpu_release(test_service);
	KUNIT_EXPECT_EQ(test, (u32)APIC_DM_NMI, apic_read(APIC_LVTPC) & LVT_BITS);
	/* Without PCINT (no local APIC) perfctr leaves LVTPC alone. */
	perfctr_x86_no_lapic = true;
	perfctr_x86_use_model(m);
	reserve_or_skip(test);
	KUNIT_EXPECT_EQ(test, (u32)APIC_DM_NMI, apic_read(APIC_LVTPC) & LVT_BITS);
	perfctr_cpu_release(test_service);
	apic_write(APIC_LVTPC, before);
}

static struct perfctr_cpu_state *pmi_state;
static unsigned int pmi_mask, pmi_calls;
static unsigned long pmi_pc;

/*
 * The part of vperfctr_ihandler() that follows the suspend: find the
 * overflown counters and have them reloaded.  The suspend itself runs in
 * the test, interrupts off, before the interrupt is taken: the simulated
 * PMU's accessors are KUnit static stubs, whose lookup takes a spinlock_t
 * that hard interrupt context may not take.  On the P6 and the K7 (the
 * models the PMU allocator maps here) identify_overflow writes no MSR.
 */
static void pmi_ihandler(unsigned long pc)
{
	struct perfctr_cpu_state *st = pmi_state;

	pmi_calls++;
	pmi_pc = pc;
	pmi_mask |= perfctr_cpu_identify_overflow(st);
	if (pmi_mask)
		perfctr_cpu_ireload(st);
}

static void overflow_interrupt_end_to_end(struct kunit *test)
{
	const struct perfctr_x86_model *m;
	struct perfctr_cpu_state *st;
	unsigned long before, flags;
	u32 lvtpc;

	BUILT_IN_ONLY(test);
	m = boot_vendor_model(test);
	st = istate(test, m, m->ctr_width, -100);
	reserve_or_skip(test);
	pmi_state = st;
	pmi_mask = 0;
	pmi_calls = 0;
	pmi_pc = 0;
	perfctr_cpu_set_ihandler(pmi_ihandler);
	before = perfctr_interrupts();
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	sim_advance(150);			/* counter 1 passes 0 ... */
	KUNIT_EXPECT_EQ(test, 1U, sim.pmis);
	/* ... the CPU raises the interrupt, masking LVTPC (Intel) ... */
	apic_write(APIC_LVTPC, LOCAL_PERFCTR_VECTOR | APIC_LVT_MASKED);
	__apic_send_IPI_self(LOCAL_PERFCTR_VECTOR);
	/* ... taken once interrupts are on again, after this suspend. */
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(test, wait_interrupts(before + 1));
	lvtpc = apic_read(APIC_LVTPC) & LVT_BITS;
	/* The resume after the handler reloads the counter from ireset. */
	local_irq_save(flags);
	perfctr_cpu_resume(st);
	KUNIT_EXPECT_EQ(test, sext(-100), sim.ctr[1]);
	sim_advance(30);
	perfctr_cpu_suspend(st);
	local_irq_restore(flags);
	perfctr_cpu_set_ihandler(NULL);
	perfctr_cpu_release(test_service);

	KUNIT_EXPECT_EQ(test, 1U, pmi_calls);
	KUNIT_EXPECT_NE(test, 0UL, pmi_pc);
	KUNIT_EXPECT_EQ(test, (unsigned int)BIT(1), pmi_mask);
	KUNIT_EXPECT_EQ(test, (u32)LOCAL_PERFCTR_VECTOR, lvtpc);	/* re-armed */
	KUNIT_EXPECT_EQ(test, 180ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, sext(-70), st->pmc[1].start);
	KUNIT_EXPECT_EQ(test, 180ULL, st->pmc[0].sum);
}
#endif

/* ---- The privilege bits (perfctr_cpu_counts_kernel()) and unused entries ---- */

/* Does the one-counter control @sel (P4: CCCR IQ_CCCR, ESCR @escr) count kernel mode? */
static bool counts_kernel1(struct kunit *test, const struct perfctr_x86_model *m,
			   u32 map, u32 sel, u32 escr)
{
	struct perfctr_cpu_state *st;

	if (sim_family(m) == SIM_P6)
		sim_setup(test, m, 48);
	else
		simx_setup(test, m, 40);
	st = mkstate(test, 1, &map, &sel);
	st->control.tsc_on = !m->no_tsc;
	st->control.p4.escr[0] = escr;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return perfctr_cpu_counts_kernel(st);
}

static void counts_kernel_follows_the_os_bits(struct kunit *test)
{
	/* P6 family: EVNTSEL's OS bit; a fixed counter's OS field. */
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, &perfctr_x86_p6, 0, EN | USR | EVENT, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, &perfctr_x86_p6, 0, EN | OS | EVENT, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, &perfctr_x86_p6, 0,
					       EN | USR | OS | EVENT, 0));
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, ARCH, FIXED(1), F_USR, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, ARCH, FIXED(1), F_OS, 0));
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, AMD, 3, EN | USR | EVENT, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, AMD, 3, EN | OS | EVENT, 0));
	/* P5 family: CPL 3 only, or CPL 0-2 too; the WinChip cannot tell. */
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, P5, 0, CESR_CPL3 | P5EV, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, P5MMX, 1, CESR_CPL0 | P5EV, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, MII, 0, CESR_CPL0 | CESR_CPL3 | P5EV, 0));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, C6, 0, 0x02, 0));
	/* VIA C3: no privilege bits at all. */
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, VC3, 1, 0x79, 0));
	/* P4: the ESCR's T0_OS. */
	KUNIT_EXPECT_FALSE(test, counts_kernel1(test, P4, 12, IQ_CCCR, IQ_ESCR));
	KUNIT_EXPECT_TRUE(test, counts_kernel1(test, P4, 12, IQ_CCCR, IQ_ESCR | E_T0_OS));
}

static void counts_kernel_false_without_pmcs(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	perfctr_x86_use_model(NULL);
	st->control.tsc_on = 1;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_counts_kernel(st));
}

/* The rules powerpc has always had, on every x86 model too. */
static void unused_entries_must_be_zero(struct kunit *test)
{
	struct perfctr_cpu_state *st = test->priv;

	/* The generic model: no counters, so no evntsel_high either. */
	perfctr_x86_use_model(NULL);
	st->control.tsc_on = 1;
	st->control.evntsel_high[0] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[0] = 0;
	st->control.pmc_map[PERFCTR_NRCTRS - 1] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.pmc_map[PERFCTR_NRCTRS - 1] = 0;
	st->control.ireset[3] = -5;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.ireset[3] = 0;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));

	/* A P6 control: garbage after its one counter, or an a-mode ireset. */
	st = one_counter(test, &perfctr_x86_p6, 0, EN | USR | EVENT);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	st->control.evntsel[1] = EN | USR | EVENT;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel[1] = 0;
	st->control.evntsel_high[5] = 1;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.evntsel_high[5] = 0;
	st->control.ireset[0] = -100;
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.ireset[0] = 0;
	KUNIT_EXPECT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
}

static struct kunit_case perfctr_x86_cases[] = {
	KUNIT_CASE(counts_kernel_follows_the_os_bits),
	KUNIT_CASE(rdpmc_permission_follows_the_mm),
	KUNIT_CASE(rdpmc_knob_off_hides_the_feature),
	KUNIT_CASE(tsc_constant_follows_the_cpu),
	KUNIT_CASE_PARAM(detect_by_feature_not_family, detect_cases_gen_params),
	KUNIT_CASE(v6_rdpmc_user_disable_stays_clear),
	KUNIT_CASE(counts_kernel_false_without_pmcs),
	KUNIT_CASE(unused_entries_must_be_zero),
	KUNIT_CASE(p6_accepts_counter0),
	KUNIT_CASE(p6_accepts_both_counters),
	KUNIT_CASE(p6_rejects_enable_in_evntsel1),
	KUNIT_CASE(p6_rejects_evntsel0_without_enable),
	KUNIT_CASE(p6_rejects_counter1_alone),
	KUNIT_CASE(p6_rejects_reserved_bit21),
	KUNIT_CASE(p6_rejects_reserved_bit19),
	KUNIT_CASE(p6_rejects_int_in_amode),
	KUNIT_CASE(p6_rejects_imode_without_interrupts),
	KUNIT_CASE(p6_rejects_no_cpl),
	KUNIT_CASE(p6_accepts_os_only),
	KUNIT_CASE(p6_rejects_duplicate_map),
	KUNIT_CASE(p6_rejects_map_out_of_range),
	KUNIT_CASE(p6_rejects_too_many_counters),
	KUNIT_CASE(p6_rejects_evntsel_high),
	KUNIT_CASE(p6_rejects_p4_fields),
	KUNIT_CASE(k7_accepts_four_counters),
	KUNIT_CASE(k7_rejects_counter_without_enable),
	KUNIT_CASE(k7_accepts_counter1_alone),
	KUNIT_CASE(k7_rejects_map_4),
	KUNIT_CASE(k7_rejects_reserved_bits),
	KUNIT_CASE(counts_accumulate_over_periods),
	KUNIT_CASE(counts_beyond_2_33_between_folds_48),
	KUNIT_CASE(counts_across_a_40_bit_wrap_beyond_2_32),
	KUNIT_CASE(tsc_folds_64_bits),
	KUNIT_CASE(counts_across_wrap_32),
	KUNIT_CASE(counts_across_wrap_40),
	KUNIT_CASE(counts_across_wrap_48),
	KUNIT_CASE(sample_keeps_counting),
	KUNIT_CASE(two_counters_count_separately),
	KUNIT_CASE(resume_writes_control_once),
	KUNIT_CASE(resume_writes_only_what_differs),
	KUNIT_CASE(unused_counters_are_disabled),
	KUNIT_CASE(new_control_gets_new_id),
	KUNIT_CASE(arch_accepts_general_and_fixed),
	KUNIT_CASE(arch_rejects_counter_without_enable),
	KUNIT_CASE(arch_rejects_anythread),
	KUNIT_CASE(arch_rejects_fixed_anythread),
	KUNIT_CASE(arch_rejects_fixed_pmi_in_amode),
	KUNIT_CASE(arch_rejects_fixed_counting_nothing),
	KUNIT_CASE(arch_rejects_fixed_out_of_range),
	KUNIT_CASE(arch_rejects_duplicate_fixed),
	KUNIT_CASE(arch_rejects_evntsel_high),
	KUNIT_CASE(arch_rejects_map_beyond_counters),
	KUNIT_CASE(arch_accepts_fixed_alone),
	KUNIT_CASE(arch_programs_fixed_ctrl_and_global),
	KUNIT_CASE(arch_counts_general_and_fixed),
	KUNIT_CASE(arch_second_resume_writes_nothing),
	KUNIT_CASE(arch_stops_before_reprogramming),
	KUNIT_CASE(arch_wraps_at_48_bits),
	KUNIT_CASE(amd_accepts_high_event_bits),
	KUNIT_CASE(amd_rejects_host_guest_bits),
	KUNIT_CASE(amd_rejects_counter_without_enable),
	KUNIT_CASE(amd_rejects_map_6),
	KUNIT_CASE(amd_rejects_fixed_maps),
	KUNIT_CASE(amd_writes_64bit_event_select_at_stride_2),
	KUNIT_CASE(amd_counts_six_counters),
	KUNIT_CASE(amd_rejects_seven_counters),
	KUNIT_CASE(static_calls_follow_the_model),
	KUNIT_CASE(model_sets_type_and_features),
	KUNIT_CASE(generic_rejects_pmcs),
	KUNIT_CASE(cstatus_encoding),
	KUNIT_CASE(p5_accepts_both_halves),
	KUNIT_CASE(p5_rejects_reserved_fe00),
	KUNIT_CASE(p5_requires_a_cpl_bit),
	KUNIT_CASE(p5_pmc_map_rules),
	KUNIT_CASE(p5_rejects_imode_high_and_p4_fields),
	KUNIT_CASE(mii_reserved_bits_are_fa00),
	KUNIT_CASE(mii_requires_a_cpl_bit),
	KUNIT_CASE(winchip_needs_no_cpl_reserves_ff00),
	KUNIT_CASE(winchip_rejects_tsc_on),
	KUNIT_CASE_PARAM(p5_family_features, feature_cases_gen_params),
	KUNIT_CASE(p5_packs_both_halves_into_the_cesr),
	KUNIT_CASE(p5_reads_msrs_and_wraps_32),
	KUNIT_CASE(p5mmx_reads_rdpmc_and_wraps_32),
	KUNIT_CASE(mii_counts_across_wrap_48),
	KUNIT_CASE(winchip_counts_without_tsc),
	KUNIT_CASE(p5_resume_writes_cesr_only_when_it_changes),
	KUNIT_CASE(p5_unused_half_is_cleared),
	KUNIT_CASE(vc3_accepts_pmc1_only),
	KUNIT_CASE(vc3_reserved_bits),
	KUNIT_CASE(vc3_rejects_imode_and_p4_fields),
	KUNIT_CASE(vc3_writes_evntsel1_and_wraps_32),
	KUNIT_CASE(p4_escr_map_matches_the_manual),
	KUNIT_CASE(p4_accepts_a_counter_with_fast_rdpmc),
	KUNIT_CASE(p4_pmc_map_rules),
	KUNIT_CASE(p4_rejects_reserved_cccr_bits),
	KUNIT_CASE(p4_extended_cascade),
	KUNIT_CASE(p4_active_thread_rule),
	KUNIT_CASE(p4_needs_enable_or_cascade),
	KUNIT_CASE(p4_ovf_pmi_rules),
	KUNIT_CASE(p4_escr_rules),
	KUNIT_CASE(p4_iq_escr_only_up_to_model_2),
	KUNIT_CASE(p4_rejects_escr_select_out_of_domain),
	KUNIT_CASE(p4_replay_tagging_rules),
	KUNIT_CASE(p4_rejects_escr_of_unused_counter),
	KUNIT_CASE(p4_programs_escrs_cccrs_and_replay_tagging),
	KUNIT_CASE(p4_counts_across_wrap_40),
	KUNIT_CASE(p4_resume_writes_nothing_when_cached),
	KUNIT_CASE(p4_resume_writes_only_what_differs),
	KUNIT_CASE(p4_stops_counters_the_next_control_does_not_use),
	KUNIT_CASE(p4_ht_forbids_the_second_threads),
	KUNIT_CASE(arch_model_has_the_cpuid_counters),
	KUNIT_CASE(arch_v1_model),
	KUNIT_CASE(arch_full_width_writes),
	KUNIT_CASE(hybrid_model_offers_the_union),
	KUNIT_CASE(hybrid_rejects_what_no_cpu_has),
	KUNIT_CASE(hybrid_forbids_cpus_without_the_counter),
	KUNIT_CASE(hybrid_common_counters_forbid_nothing),
	KUNIT_CASE(hybrid_disjoint_counters),
	KUNIT_CASE(hybrid_unknown_cpus_are_forbidden),
	KUNIT_CASE(hybrid_resume_writes_only_this_cpus_counters),
	KUNIT_CASE(hybrid_counts_a_big_core_counter),
	KUNIT_CASE(hybrid_caps_from_leaf_0xa),
	KUNIT_CASE(hybrid_caps_from_leaf_0x23),
	KUNIT_CASE_PARAM(detect_each_family, family_cases_gen_params),
	KUNIT_CASE(static_calls_follow_each_family),
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(pmu_busy_reported_without_taking_it),
	KUNIT_CASE(reserve_takes_the_pmu_from_perf),
	KUNIT_CASE(reserve_refused_while_perf_holds),
	KUNIT_CASE(reserve_forgets_the_cached_controls),
	KUNIT_CASE(release_stops_the_counters),
#ifdef CONFIG_PERF_GUEST_MEDIATED_PMU
	KUNIT_CASE(reserve_and_mediated_vpmu_exclude_each_other),
#endif
	KUNIT_CASE(generic_model_reserves_no_pmc),
#endif
#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
	KUNIT_CASE(self_ipi_reaches_the_handler),
#endif
	KUNIT_CASE_PARAM(imode_accepts_int_with_negative_ireset, p6_family_gen_params),
	KUNIT_CASE_PARAM(imode_rejects_evntsel_without_int, p6_family_gen_params),
	KUNIT_CASE_PARAM(amode_rejects_int_beside_imode, p6_family_gen_params),
	KUNIT_CASE_PARAM(imode_rejects_nonnegative_ireset, p6_family_gen_params),
	KUNIT_CASE(arch_fixed_imode_needs_pmi),
	KUNIT_CASE_PARAM(imode_needs_a_local_apic, p6_family_gen_params),
	KUNIT_CASE(pcint_reported_only_where_it_should),
	KUNIT_CASE_PARAM(imode_resume_writes_start_values, p6_family_gen_params),
	KUNIT_CASE(arch_fixed_imode_resume_writes_start_value),
	KUNIT_CASE(imode_suspend_stops_the_counters),
	KUNIT_CASE(arch_fixed_imode_suspend_stops_it),
	KUNIT_CASE(imode_same_cpu_resume_writes_no_counter),
	KUNIT_CASE(imode_resume_elsewhere_rewrites),
	KUNIT_CASE(ireload_forces_the_counters_rewritten),
	KUNIT_CASE(identify_overflow_finds_the_overflown),
	KUNIT_CASE(identify_overflow_returns_the_mask),
	KUNIT_CASE(identify_overflow_clears_the_status),
	KUNIT_CASE(imode_counts_across_overflow),
	KUNIT_CASE(p4_imode_resume_writes_start_value),
	KUNIT_CASE(p4_imode_suspend_stops_it),
	KUNIT_CASE(p4_imode_same_cpu_resume_writes_no_counter),
	KUNIT_CASE(p4_imode_overflow_found_and_rearmed),
#if defined(CONFIG_PERFCTR_INTERRUPT_SUPPORT) && defined(CONFIG_X86_LOCAL_APIC)
	KUNIT_CASE(lvtpc_follows_the_reservation),
	KUNIT_CASE(overflow_interrupt_end_to_end),
#endif
	{}
};

static struct kunit_suite perfctr_x86_suite = {
	.name = "perfctr_x86",
	.suite_init = perfctr_x86_suite_init,
	.init = perfctr_x86_test_init,
	.exit = perfctr_x86_test_exit,
	.test_cases = perfctr_x86_cases,
};

kunit_test_suite(perfctr_x86_suite);

MODULE_DESCRIPTION("KUnit tests of the perfctr x86 driver on a simulated PMU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

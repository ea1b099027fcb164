// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on a simulated PMU.
 *
 * x86 PMCs never count under QEMU TCG, so the P6-family models are driven
 * here through their real code -- perfctr_cpu_update_control/resume/
 * suspend/sample and the static calls behind them -- with the MSR and
 * RDPMC accessors redirected (KUnit static stubs) to a simulated PMU that
 * counts only what its event selects enable, in counters 32, 40 or 48
 * bits wide.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/slab.h>

#include <asm/apic.h>
#include <asm/nmi.h>
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

struct sim_pmu {
	const struct perfctr_x86_model *model;
	u64 evntsel[PERFCTR_NRCTRS];
	u64 ctr[PERFCTR_NRCTRS];
	u64 fixed_ctr[4];
	u64 fixed_ctrl;
	u64 global;
	unsigned int width;
	unsigned int wrmsrs;
	u32 log[64];		/* the MSRs written, in order */
	unsigned int stray;	/* accesses outside the model's registers */
};

static struct sim_pmu sim;

static void sim_wrmsr(u32 msr, u64 val)
{
	const struct perfctr_x86_model *m = sim.model;
	u32 idx = msr - m->evntsel_msr;

	if (sim.wrmsrs < ARRAY_SIZE(sim.log))
		sim.log[sim.wrmsrs] = msr;
	sim.wrmsrs++;
	if (m->nr_fixed && msr == FIXED_CTRL_MSR)
		sim.fixed_ctrl = val;
	else if (m->global_ctrl_msr && msr == m->global_ctrl_msr)
		sim.global = val;
	else if (idx % m->evntsel_stride == 0 && idx / m->evntsel_stride < m->nr_ctrs)
		sim.evntsel[idx / m->evntsel_stride] = val;
	else
		sim.stray++;
}

static u32 sim_rdpmc_low(u32 map)
{
	if (map >= FIXED(0) && map - FIXED(0) < sim.model->nr_fixed)
		return (u32)sim.fixed_ctr[map - FIXED(0)];
	if (map >= sim.model->nr_ctrs) {
		sim.stray++;
		return 0;
	}
	return (u32)sim.ctr[map];
}

static bool sim_counting(unsigned int i)
{
	u64 sel = sim.evntsel[i];

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

	for (i = 0; i < sim.model->nr_ctrs; i++)
		if (sim_counting(i))
			sim.ctr[i] = (sim.ctr[i] + events) & mask;
	for (i = 0; i < sim.model->nr_fixed; i++)
		if (sim_fixed_counting(i))
			sim.fixed_ctr[i] = (sim.fixed_ctr[i] + events) & mask;
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

static void sim_setup(struct kunit *test, const struct perfctr_x86_model *model,
		      unsigned int width)
{
	memset(&sim, 0, sizeof(sim));
	sim.model = model;
	sim.width = width;
	kunit_activate_static_stub(test, perfctr_x86_wrmsr, sim_wrmsr);
	kunit_activate_static_stub(test, perfctr_x86_rdpmc_low, sim_rdpmc_low);
	perfctr_x86_use_model(model);
}

static int perfctr_x86_test_init(struct kunit *test)
{
	/* The control cache is per CPU: stay on one. */
	migrate_disable();
	test->priv = kunit_kzalloc(test, sizeof(struct perfctr_cpu_state), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void perfctr_x86_test_exit(struct kunit *test)
{
	perfctr_x86_use_model(NULL);
	migrate_enable();
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

/* ---- P6 validation: each rule of low-level-x86.txt, both ways ---- */

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
	struct perfctr_cpu_state *st = one_counter(test, &perfctr_x86_p6, 0,
						   INT | EN | USR | EVENT);

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

#define ARCH	(&perfctr_x86_arch_v2)
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
	void *g[3], *p[3], *k[3];

	perfctr_x86_use_model(NULL);
	perfctr_x86_model_ops(&g[0], &g[1], &g[2]);
	perfctr_x86_use_model(&perfctr_x86_p6);
	perfctr_x86_model_ops(&p[0], &p[1], &p[2]);
	perfctr_x86_use_model(&perfctr_x86_k7);
	perfctr_x86_model_ops(&k[0], &k[1], &k[2]);
	KUNIT_EXPECT_PTR_NE(test, g[0], p[0]);
	KUNIT_EXPECT_PTR_NE(test, g[1], p[1]);
	KUNIT_EXPECT_PTR_NE(test, g[2], p[2]);
	/* P6 and K7 share the P6-family code, parametrised by data. */
	KUNIT_EXPECT_PTR_EQ(test, p[0], k[0]);
	perfctr_x86_use_model(NULL);
	perfctr_x86_model_ops(&p[0], &p[1], &p[2]);
	KUNIT_EXPECT_PTR_EQ(test, g[0], p[0]);
	KUNIT_EXPECT_PTR_EQ(test, g[2], p[2]);
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

static void generic_rejects_pmcs(struct kunit *test)
{
	struct perfctr_cpu_state *st;
	u32 map = 0, sel = EN | USR | EVENT;

	perfctr_x86_use_model(NULL);
	st = mkstate(test, 1, &map, &sel);
	KUNIT_EXPECT_EQ(test, -EINVAL, perfctr_cpu_update_control(st, 0));
	st->control.nractrs = 0;
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

static const struct perfctr_x86_model *boot_vendor_model(struct kunit *test)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		return &perfctr_x86_p6;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		return &perfctr_x86_k7;
	}
	kunit_skip(test, "the PMU allocator's MSR map is for Intel and AMD only");
	return NULL;
}

static void reserve_takes_the_pmu_from_perf(struct kunit *test)
{
	const struct perfctr_x86_model *m = boot_vendor_model(test);

	perfctr_x86_use_model(m);
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(test_service));
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
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(test_service));
	perfctr_cpu_release(test_service);
}

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

static void test_ihandler(unsigned long pc)
{
	ihandler_calls++;
	ihandler_pc = pc;
}

static bool wait_interrupts(unsigned long n)
{
	int i;

	for (i = 0; i < 100000 && perfctr_x86_interrupts() < n; i++)
		cpu_relax();
	return perfctr_x86_interrupts() >= n;
}

static void self_ipi_reaches_the_handler(struct kunit *test)
{
	unsigned long before = perfctr_x86_interrupts();

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

static struct kunit_case perfctr_x86_cases[] = {
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
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(reserve_takes_the_pmu_from_perf),
	KUNIT_CASE(reserve_refused_while_perf_holds),
	KUNIT_CASE(generic_model_reserves_no_pmc),
#endif
#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
	KUNIT_CASE(self_ipi_reaches_the_handler),
#endif
	{}
};

static struct kunit_suite perfctr_x86_suite = {
	.name = "perfctr_x86",
	.init = perfctr_x86_test_init,
	.exit = perfctr_x86_test_exit,
	.test_cases = perfctr_x86_cases,
};

kunit_test_suite(perfctr_x86_suite);

MODULE_DESCRIPTION("KUnit tests of the perfctr x86 driver on a simulated PMU");
MODULE_LICENSE("GPL");

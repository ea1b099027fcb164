// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on its simulated PMU (sim_kunit.c):
 * the P5 family (P5, P5MMX, Cyrix, WinChip) and the VIA C3.
 */
#include "kunit.h"

/* Validate a one- or two-counter control on @m (P5 family, C3). */
static int xcheck(struct kunit *test, const struct perfctr_x86_model *m, unsigned int n,
		  u32 map0, u32 sel0, u32 map1, u32 sel1)
{
	u32 maps[] = { map0, map1 }, sels[] = { sel0, sel1 };
	struct perfctr_cpu_state *st;

	simx_setup(test, m, 40);
	st = sim_state(test, n, maps, sels);
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
			perfctr_cpu_update_control(sim_state(test, 3, maps, sels), 0));
}

static void p5_rejects_imode_high_and_p4_fields(struct kunit *test)
{
	u32 map = 0, sel = CESR_CPL3 | P5EV;
	struct perfctr_cpu_state *st;

	simx_setup(test, MII, 48);
	st = sim_state(test, 1, &map, &sel);
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
	st = sim_state(test, 1, &map, &sel);
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
	st = sim_state(test, 2, maps, sels);
	st->control.tsc_on = !m->no_tsc;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	return st;
}

static void p5_packs_both_halves_into_the_cesr(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, P5MMX, 40, CESR_CPL3 | P5EV,
						CESR_CPL0 | 0x12);

	sim_resume(st);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, (u32)CESR_MSR, sim_hw.log[0]);
	/* pmc_map[0] = 1: counter 0's control is the high half. */
	KUNIT_EXPECT_EQ(test, (u32)((CESR_CPL3 | P5EV) << 16 | CESR_CPL0 | 0x12), sim_hw.cesr);
	sim_advance(5);
	sim_suspend(st);
	/* Stopped at the suspend: a CESR of 0. */
	KUNIT_EXPECT_EQ(test, 2U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.cesr);
	KUNIT_EXPECT_EQ(test, 5ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 5ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static void p5_reads_msrs_and_wraps_32(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, P5, 40, CESR_CPL3 | P5EV,
						CESR_CPL3 | 0x12);
	struct perfctr_x86_ops p5, mmx;

	sim_hw.ctr[1] = 0xffffffc0ULL;	/* the low 32 bits wrap */
	sim_hw.ctr[0] = 0xfffffffffeULL;	/* all 40 bits wrap */
	sim_run(st, 0x100);
	sim_run(st, 0x10);
	KUNIT_EXPECT_EQ(test, 0x110ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0x110ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.rdpmcs);	/* no RDPMC on the P5 */
	KUNIT_EXPECT_EQ(test, 8U, sim_hw.rdmsrs);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
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

	sim_hw.ctr[1] = 0xffffffffULL;
	sim_run(st, 2);
	sim_advance(1000);	/* not ours: stopped */
	sim_run(st, 3);
	KUNIT_EXPECT_EQ(test, 5ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0xffffffffULL + 5, sim_hw.ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.rdmsrs);
	KUNIT_EXPECT_EQ(test, 8U, sim_hw.rdpmcs);
}

static void mii_counts_across_wrap_48(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, MII, 48, CESR_CPL3 | BIT(10) | 0x01,
						CESR_CPL0 | P5EV);

	sim_hw.ctr[0] = GENMASK_ULL(47, 0) - 4;
	sim_hw.ctr[1] = 0x7ffffff0ULL;
	sim_run(st, 77);
	KUNIT_EXPECT_EQ(test, 77ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 77ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 72ULL, sim_hw.ctr[0]);
}

static void winchip_counts_without_tsc(struct kunit *test)
{
	struct perfctr_cpu_state *st = p5_state(test, C6, 40, 0x02, 0x01);

	sim_hw.ctr[1] = 0xfffffff8ULL;
	sim_run(st, 16);
	KUNIT_EXPECT_EQ(test, 16ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 16ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0ULL, st->tsc_sum);
	/* No CPL field: the WinChip's counters cannot be stopped. */
	KUNIT_EXPECT_EQ(test, (u32)(0x02 << 16 | 0x01), sim_hw.cesr);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.wrmsrs);
}

/*
 * The counters stop at every suspend where the CESR has the CPL field
 * (P5, P5MMX, Cyrix): what runs next on the CPU is not counted, and the
 * owner's next start (its mapped page, RDPMC) shows nothing of it.
 */
static void p5_suspended_counters_count_no_foreign_events(struct kunit *test)
{
	const struct perfctr_x86_model *models[] = { P5, P5MMX, MII };
	struct perfctr_cpu_state *st;
	unsigned int k;
	u64 ctr0, ctr1;

	for (k = 0; k < ARRAY_SIZE(models); k++) {
		st = p5_state(test, models[k], 40, CESR_CPL3 | P5EV, CESR_CPL3 | 0x12);
		sim_run(st, 100);
		ctr0 = sim_hw.ctr[0];
		ctr1 = sim_hw.ctr[1];
		sim_advance(1000);		/* the next task's events */
		KUNIT_EXPECT_EQ_MSG(test, ctr0, sim_hw.ctr[0], "%s", models[k]->name);
		KUNIT_EXPECT_EQ_MSG(test, ctr1, sim_hw.ctr[1], "%s", models[k]->name);
		sim_resume(st);
		KUNIT_EXPECT_EQ_MSG(test, ctr1, st->pmc[0].start, "%s", models[k]->name);
		KUNIT_EXPECT_EQ_MSG(test, ctr0, st->pmc[1].start, "%s", models[k]->name);
		sim_advance(5);
		sim_suspend(st);
		KUNIT_EXPECT_EQ_MSG(test, 105ULL, st->pmc[0].sum, "%s", models[k]->name);
		KUNIT_EXPECT_EQ_MSG(test, 105ULL, st->pmc[1].sum, "%s", models[k]->name);
	}
}

static void p5_switch_writes_the_cesr_each_way(struct kunit *test)
{
	u32 map = 0, a = CESR_CPL3 | P5EV, b = CESR_CPL0 | P5EV;
	struct perfctr_cpu_state *sa, *sb, *sc;

	simx_setup(test, P5MMX, 40);
	sa = sim_state(test, 1, &map, &a);
	sb = sim_state(test, 1, &map, &b);
	sc = sim_state(test, 1, &map, &a);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sa, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sb, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(sc, 0));
	/* One write at each resume and one at each suspend (the stop). */
	sim_run(sa, 1);
	sim_run(sa, 1);
	KUNIT_EXPECT_EQ(test, 4U, sim_hw.wrmsrs);
	/* Another control: both counters zeroed first (claim_ctrs). */
	sim_run(sb, 1);
	KUNIT_EXPECT_EQ(test, 8U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 4, sim_written(0x12, 4));
	sim_run(sc, 1);
	KUNIT_EXPECT_EQ(test, 12U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 2ULL, sa->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 1ULL, sb->pmc[0].sum);
}

static void p5_unused_half_is_cleared(struct kunit *test)
{
	struct perfctr_cpu_state *two = p5_state(test, P5MMX, 40, CESR_CPL3 | P5EV,
						 CESR_CPL3 | 0x12);
	u32 map = 0, sel = CESR_CPL0 | P5EV;
	struct perfctr_cpu_state *one = sim_state(test, 1, &map, &sel);

	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(one, 0));
	sim_run(two, 1);
	sim_resume(one);
	KUNIT_EXPECT_EQ(test, sel, sim_hw.cesr);
	sim_suspend(one);
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
	st = sim_state(test, 1, &map, &sel);
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
	st = sim_state(test, 1, &map, &sel);
	st2 = sim_state(test, 1, &map, &sel2);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st2, 0));
	sim_hw.ctr[1] = 0xffffff00ULL;
	sim_run(st, 0x300);
	sim_run(st, 0x1);
	KUNIT_EXPECT_EQ(test, 0x301ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 0x201ULL, sim_hw.ctr[1]);
	KUNIT_EXPECT_EQ(test, 1U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 0x187U, sim_hw.log[0]);
	sim_run(st2, 4);
	/* Another control: PERFCTR1 zeroed (perfctr_x86_claim_ctrs()), EVNTSEL1. */
	KUNIT_EXPECT_EQ(test, 3U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 0xc2U, sim_hw.log[1]);
	KUNIT_EXPECT_EQ(test, 0x79ULL, sim_hw.evntsel[1]);
	KUNIT_EXPECT_EQ(test, 4ULL, st2->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 4ULL, sim_hw.ctr[1]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);	/* never EVNTSEL0, never RDPMC 0 */
	/* A new control id with the same EVNTSEL1: only the counter zeroed. */
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st2, 0));
	sim_run(st2, 4);
	KUNIT_EXPECT_EQ(test, 4U, sim_hw.wrmsrs);
	KUNIT_EXPECT_EQ(test, 0xc2U, sim_hw.log[3]);
	KUNIT_EXPECT_EQ(test, st2->k1.id, perfctr_x86_this_cache()->id);
}

/*
 * Another control's state on the same CPU starts from zero counters: it
 * sees none of the last one's counts, in its start or by RDPMC of either
 * counter (perfctr_x86_claim_ctrs()).
 */
static void p5mmx_next_control_sees_no_counts_of_the_last(struct kunit *test)
{
	struct perfctr_cpu_state *a = p5_state(test, P5MMX, 40, CESR_CPL3 | P5EV,
					       CESR_CPL3 | 0x12);
	u32 map = 0, sel = CESR_CPL3 | P5EV;
	struct perfctr_cpu_state *b = sim_state(test, 1, &map, &sel);

	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(b, 0));
	sim_run(a, 1000);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, 0ULL, b->pmc[0].start);
	KUNIT_EXPECT_EQ(test, 0ULL, perfctr_x86_rdpmc(0));
	KUNIT_EXPECT_EQ(test, 0ULL, perfctr_x86_rdpmc(1));
	sim_advance(5);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, 5ULL, b->pmc[0].sum);
	/* The first state again: its sums whole, and it counts on. */
	sim_run(a, 7);
	KUNIT_EXPECT_EQ(test, 1007ULL, a->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 1007ULL, a->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

/* The VIA C3's one counter is zeroed too, never PERFCTR0 (its TSC). */
static void vc3_next_control_sees_no_counts_of_the_last(struct kunit *test)
{
	u32 map = 1, sel = 0xc0, sel2 = 0x79;
	struct perfctr_cpu_state *a, *b;
	unsigned int i, from;

	simx_setup(test, VC3, 32);
	a = sim_state(test, 1, &map, &sel);
	b = sim_state(test, 1, &map, &sel2);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(a, 0));
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(b, 0));
	sim_run(a, 1000);
	from = sim_hw.wrmsrs;
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, 0ULL, b->pmc[0].start);
	KUNIT_EXPECT_EQ(test, 0ULL, perfctr_x86_rdpmc(1));
	sim_suspend(b);
	for (i = from; i < sim_hw.wrmsrs && i < ARRAY_SIZE(sim_hw.log); i++)
		KUNIT_EXPECT_NE(test, 0xc1U, sim_hw.log[i]);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
}

static struct kunit_case perfctr_x86_p5_cases[] = {
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
	KUNIT_CASE(p5mmx_next_control_sees_no_counts_of_the_last),
	KUNIT_CASE(mii_counts_across_wrap_48),
	KUNIT_CASE(winchip_counts_without_tsc),
	KUNIT_CASE(p5_suspended_counters_count_no_foreign_events),
	KUNIT_CASE(p5_switch_writes_the_cesr_each_way),
	KUNIT_CASE(p5_unused_half_is_cleared),
	KUNIT_CASE(vc3_accepts_pmc1_only),
	KUNIT_CASE(vc3_reserved_bits),
	KUNIT_CASE(vc3_rejects_imode_and_p4_fields),
	KUNIT_CASE(vc3_writes_evntsel1_and_wraps_32),
	KUNIT_CASE(vc3_next_control_sees_no_counts_of_the_last),
	{}
};

static struct kunit_suite perfctr_x86_p5_suite = {
	.name = "perfctr_x86_p5",
	.suite_init = sim_suite_init,
	.init = sim_test_init,
	.exit = sim_test_exit,
	.test_cases = perfctr_x86_p5_cases,
};

kunit_test_suite(perfctr_x86_p5_suite);

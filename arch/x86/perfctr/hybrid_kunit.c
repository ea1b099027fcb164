// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perfctr x86 driver on its simulated PMU (sim_kunit.c):
 * Intel hybrid CPUs: a PMU per core type, forbidden CPUs per
 * control.
 */
#include "kunit.h"

/* ---- Intel hybrid: a PMU per core type, forbidden CPUs per control ---- */

static const struct perfctr_x86_pmu_caps big = { .gp = 0xff, .fixed = 0xf, .width = 48 };
static const struct perfctr_x86_pmu_caps small = { .gp = 0x3f, .fixed = 0x7, .width = 48 };

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
	m = perfctr_x86_hybrid_model(false, sim_model_buf(test));
	KUNIT_ASSERT_NOT_NULL(test, m);
	sim_setup(test, m, m->ctr_width);
	return m;
}

/* The CPUs perfctr_cpu_forbidden() gives for a one-counter control. */
static void forbidden_for(struct kunit *test, u32 map, u32 sel, struct cpumask *mask)
{
	struct perfctr_cpu_state *st = sim_state(test, 1, &map, &sel);

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

static void hybrid_rejects_what_no_cpu_has(struct kunit *test)
{
	hybrid_setup(test, &big, &small, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, 7, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, 8, EN | USR | EVENT));
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, FIXED(3), F_USR));
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, FIXED(4), F_USR));
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
	st = sim_state(test, 3, maps, sels);
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
	st = sim_state(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	perfctr_cpu_forbidden(st, mask);
	KUNIT_EXPECT_TRUE(test, cpumask_equal(mask, cpu_possible_mask));
}

static void hybrid_unknown_cpus_are_forbidden(struct kunit *test)
{
	struct cpumask *mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	struct perfctr_cpu_state *tsc = sim_state(test, 0, NULL, NULL);
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
	KUNIT_EXPECT_NULL(test, perfctr_x86_hybrid_model(false, sim_model_buf(test)));
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
	struct perfctr_cpu_state *st = sim_state(test, 1, &map, &sel);

	sim_hw.gp_here = gp_here;
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	memset(perfctr_x86_this_cache(), 0xff, sizeof(struct perfctr_x86_cache));
	sim_run(st, 100);
	KUNIT_EXPECT_EQ(test, 0U, sim_hw.stray);
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
	KUNIT_ASSERT_EQ(test, 8U, sim_hw.model->nr_ctrs);
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
	st = sim_state(test, 2, maps, sels);
	KUNIT_ASSERT_EQ(test, 0, perfctr_cpu_update_control(st, 0));
	sim_hw.ctr[7] = GENMASK_ULL(47, 0) - 4;
	sim_run(st, 30);
	sim_run(st, 12);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[0].sum);
	KUNIT_EXPECT_EQ(test, 42ULL, st->pmc[1].sum);
	KUNIT_EXPECT_EQ(test, BIT_ULL(7) | BIT_ULL(35), sim_hw.run_global);
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
	/* More than the architectural MSRs address: cut to 10 general, 7 fixed. */
	perfctr_x86_parse_pmu_caps(&caps, eax, 0, 0, true, 0x1ffff, 0x3ff);
	KUNIT_EXPECT_EQ(test, 0x3ffU, caps.gp);
	KUNIT_EXPECT_EQ(test, 0x7fU, caps.fixed);
}

/*
 * An event must suit each core type that has its counter: the efficiency
 * cores' perf puts L1D_PEND_MISS.PENDING on counter 2 only, the
 * performance cores' anywhere; counter 6 exists on performance cores only.
 */
static void hybrid_event_suits_each_core_type_with_the_counter(struct kunit *test)
{
	static const struct perfctr_x86_pmu_caps p = {
		.gp = 0xff, .fixed = 0xf, .width = 48, .type = TOPO_CPU_TYPE_PERFORMANCE };
	static const struct perfctr_x86_pmu_caps e = {
		.gp = 0x3f, .fixed = 0x7, .width = 48, .type = TOPO_CPU_TYPE_EFFICIENCY };
	static const struct sim_constraint perf[] = {
		{ SIM_UEVENT, 0x0148, BIT(2), 0, TOPO_CPU_TYPE_EFFICIENCY },
		{ }
	};

	if (num_online_cpus() < 2)
		kunit_skip(test, "one online CPU: no second core type to ask");
	hybrid_setup(test, &p, &e, nr_cpu_ids);
	sim_use_perf(perf);
	KUNIT_EXPECT_EQ(test, -EINVAL, sim_check_on(test, 0, EN | USR | 0x0148));
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, 2, EN | USR | 0x0148));
	KUNIT_EXPECT_EQ(test, 0, sim_check_on(test, 6, EN | USR | 0x0148));
}

static struct kunit_case perfctr_x86_hybrid_cases[] = {
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
	KUNIT_CASE(hybrid_event_suits_each_core_type_with_the_counter),
	{}
};

static struct kunit_suite perfctr_x86_hybrid_suite = {
	.name = "perfctr_x86_hybrid",
	.suite_init = sim_suite_init,
	.init = sim_test_init,
	.exit = sim_test_exit,
	.test_cases = perfctr_x86_hybrid_cases,
};

kunit_test_suite(perfctr_x86_hybrid_suite);

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
 * P6 family of low-level-x86.txt and its descendants -- Intel P6, AMD
 * K7/K8, Intel architectural perfmon, AMD family 15h+ core counters --
 * with accumulation-mode counters.  The P6-family models are exercised on a
 * simulated PMU by the KUnit suite (x86_kunit.c); boot does not select
 * them yet, because perfctr does not arbitrate with perf_events for the
 * PMU yet: every CPU runs the generic model.  A PMU that does not respond
 * (virtual machines, QEMU TCG) is never trusted.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/cpufeature.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perfctr.h>
#include <linux/processor.h>
#include <linux/static_call.h>
#include <linux/string.h>

#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/tlbflush.h>
#include <asm/tsc.h>

#include <kunit/static_stub.h>

#include "x86.h"

const char *perfctr_cpu_name = "generic x86 with TSC";
static unsigned int perfctr_cpu_type = PERFCTR_X86_GENERIC;
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

DEFINE_STATIC_CALL(perfctr_x86_check_control, generic_check_control);
DEFINE_STATIC_CALL(perfctr_x86_suspend_pmcs, generic_suspend_pmcs);
DEFINE_STATIC_CALL(perfctr_x86_resume_pmcs, generic_resume_pmcs);

/*
 * Hardware accessors.  The KUnit suite redirects them to a simulated PMU;
 * without KUnit the redirection compiles to nothing.
 */
void perfctr_x86_wrmsr(u32 msr, u64 val)
{
	KUNIT_STATIC_STUB_REDIRECT(perfctr_x86_wrmsr, msr, val);
	native_write_msr(msr, val);
}

u32 perfctr_x86_rdpmc_low(u32 map)
{
	KUNIT_STATIC_STUB_REDIRECT(perfctr_x86_rdpmc_low, map);
	return (u32)native_read_pmc(map);
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
};

const struct perfctr_x86_model perfctr_x86_k7 = {
	.name		= "AMD K7/K8",
	.cpu_type	= PERFCTR_X86_AMD_K7,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_K7_EVNTSEL0,
	.perfctr_msr	= MSR_K7_PERFCTR0,
	.evntsel_stride	= 1,
};

const struct perfctr_x86_model perfctr_x86_arch_v2 = {
	.name		= "Intel architectural perfmon v2+",
	.cpu_type	= PERFCTR_X86_INTEL_ARCH,
	.nr_ctrs	= 4,
	.evntsel_msr	= MSR_ARCH_PERFMON_EVENTSEL0,
	.perfctr_msr	= MSR_ARCH_PERFMON_PERFCTR0,
	.evntsel_stride	= 1,
	.nr_fixed	= 3,
	.global_ctrl_msr = MSR_CORE_PERF_GLOBAL_CTRL,
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
};

static const struct perfctr_x86_model *perfctr_model;

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

static int p6_check_fixed(const struct perfctr_x86_model *m,
			  const struct perfctr_cpu_control *cc, unsigned int i,
			  u64 *mask)
{
	unsigned int n = cc->pmc_map[i] - PMC_MAP_FIXED;

	if (n >= m->nr_fixed || *mask & BIT_ULL(32 + n))
		return -EINVAL;
	*mask |= BIT_ULL(32 + n);
	if (cc->evntsel[i] & ~(u32)(FIXED_OS | FIXED_USR) || cc->evntsel_high[i])
		return -EINVAL;
	return cc->evntsel[i] ? 0 : -EINVAL;
}

static int p6_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_x86_model *m = perfctr_model;
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i, nrctrs = cc->nractrs + cc->nrictrs;
	u64 mask = 0;
	u32 evntsel;
	bool enabled;
	int err;

	if (cc->nrictrs)
		return -EINVAL;		/* no overflow interrupt support yet */
	if (nrctrs > m->nr_ctrs + m->nr_fixed)
		return -EINVAL;
	for (i = 0; i < nrctrs; i++) {
		if (cc->pmc_map[i] >= PMC_MAP_FIXED) {
			err = p6_check_fixed(m, cc, i, &mask);
			if (err)
				return err;
			continue;
		}
		if (cc->pmc_map[i] >= m->nr_ctrs || mask & BIT_ULL(cc->pmc_map[i]))
			return -EINVAL;
		mask |= BIT_ULL(cc->pmc_map[i]);
		evntsel = cc->evntsel[i];
		if (evntsel & P6_EVNTSEL_RESERVED || cc->evntsel_high[i] & ~m->high_allowed)
			return -EINVAL;
		if (!(evntsel & P6_EVNTSEL_CPL))
			return -EINVAL;
		if (evntsel & P6_EVNTSEL_INT)	/* a-mode only */
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

	if (cache->id == state->k1.id)
		return;
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
	for (pmc = 0; pmc < m->nr_ctrs; pmc++) {
		if (cache->evntsel[pmc] == want[pmc])
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

static void p6_suspend_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);
	u32 now;

	for (i = 0; i < nrctrs; i++) {
		now = perfctr_x86_rdpmc_low(state->pmc[i].map);
		state->pmc[i].sum += (u32)(now - state->pmc[i].start);
	}
	cr4_clear_bits_irqsoff(X86_CR4_PCE);
}

static void p6_resume_pmcs(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nractrs(state->cstatus);

	p6_write_control(state);
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].start = perfctr_x86_rdpmc_low(state->pmc[i].map);
	/* Only a thread with counters may RDPMC (its fast read needs it). */
	cr4_set_bits_irqsoff(X86_CR4_PCE);
}

static inline u32 perfctr_read_tsc_low(void)
{
	return (u32)rdtsc_ordered();
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
	unsigned int i, nrctrs;
	int err;

	if (cc->tsc_on > 1 || cc->nractrs > PERFCTR_NRCTRS ||
	    cc->nrictrs > PERFCTR_NRCTRS - cc->nractrs)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(cc->_reserved); i++)
		if (cc->_reserved[i])
			return -EINVAL;
	err = static_call(perfctr_x86_check_control)(state, is_global);
	if (err)
		return err;

	nrctrs = cc->nractrs + cc->nrictrs;
	state->cstatus = perfctr_mk_cstatus(cc->tsc_on, cc->nractrs, cc->nrictrs);
	for (i = 0; i < PERFCTR_NRCTRS; i++) {
		state->pmc[i].map = i < nrctrs ? cc->pmc_map[i] : 0;
		state->pmc[i].start = 0;
	}
	state->k1.id = atomic_inc_return(&perfctr_control_id);
	state->k1.isuspend_cpu = -1;
	return 0;
}

/**
 * perfctr_cpu_suspend - stop counting and fold the period into the sums
 * @state: the running state; interrupts off
 */
void perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_x86_suspend_pmcs)(state);
	if (perfctr_cstatus_has_tsc(state->cstatus))
		state->tsc_sum += (u32)(perfctr_read_tsc_low() - state->tsc_start);
}

/**
 * perfctr_cpu_resume - start a counting period
 * @state: the suspended state; interrupts off
 */
void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_x86_resume_pmcs)(state);
	if (perfctr_cstatus_has_tsc(state->cstatus))
		state->tsc_start = perfctr_read_tsc_low();
}

/**
 * perfctr_cpu_sample - fold the counts so far into the sums, keep counting
 * @state: the running state; interrupts off
 */
void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	u32 now;

	if (perfctr_cstatus_nrctrs(state->cstatus)) {
		static_call(perfctr_x86_suspend_pmcs)(state);
		static_call(perfctr_x86_resume_pmcs)(state);
	}
	if (perfctr_cstatus_has_tsc(state->cstatus)) {
		now = perfctr_read_tsc_low();
		state->tsc_sum += (u32)(now - state->tsc_start);
		state->tsc_start = now;
	}
}

/**
 * perfctr_cpu_set_ihandler - install the overflow interrupt handler
 * @handler: called in IRQ context from LOCAL_PERFCTR_VECTOR
 *
 * No model in this driver programs overflow interrupts yet
 * (PERFCTR_FEATURE_PCINT is clear), so only a self-IPI reaches it.
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
 * Return: bit mask of the overflown counters (none without i-mode models).
 */
unsigned int perfctr_cpu_identify_overflow(struct perfctr_cpu_state *state)
{
	return 0;
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

static void perfctr_x86_give_pmu(const struct perfctr_x86_model *m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		release_evntsel_nmi(m->evntsel_msr + i * m->evntsel_stride);
		release_perfctr_nmi(m->perfctr_msr + i * m->evntsel_stride);
	}
}

static bool perfctr_x86_take_pmu(const struct perfctr_x86_model *m)
{
	unsigned int i;

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

	mutex_lock(&perfctr_reserve_mutex);
	if (perfctr_current_service) {
		ret = perfctr_current_service;
	} else if (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && perfctr_model &&
		   !perfctr_x86_take_pmu(perfctr_model)) {
		ret = PERFCTR_PERF_HOLDS;
	} else {
		perfctr_current_service = service;
		perfctr_reserved_model = perfctr_model;
	}
	mutex_unlock(&perfctr_reserve_mutex);
	return ret;
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
		if (IS_ENABLED(CONFIG_X86_LOCAL_APIC) && perfctr_reserved_model)
			perfctr_x86_give_pmu(perfctr_reserved_model,
					     perfctr_reserved_model->nr_ctrs);
		perfctr_current_service = NULL;
		perfctr_reserved_model = NULL;
	}
	mutex_unlock(&perfctr_reserve_mutex);
}

/*
 * Does the PMU count?  perf_events probed it at boot (write, read back),
 * and knows; without perf_events, probe an event-select register the same
 * way with the exception-safe accessors.
 */
static bool __init perfctr_pmu_responds(void)
{
	struct x86_pmu_capability cap;
	u32 msr;
	u64 old, val;

	if (IS_ENABLED(CONFIG_PERF_EVENTS)) {
		if (boot_cpu_has(X86_FEATURE_HYBRID_CPU))
			return true;
		perf_get_x86_pmu_capability(&cap);
		return cap.num_counters_gp > 0;
	}
	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD ||
	    boot_cpu_data.x86_vendor == X86_VENDOR_HYGON)
		msr = MSR_K7_EVNTSEL0;
	else if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
		 boot_cpu_data.x86 >= 6)
		msr = MSR_P6_EVNTSEL0;
	else
		return false;
	if (rdmsrq_safe(msr, &old))
		return false;
	/* An unused event select, disabled: counts nothing. */
	if (wrmsrq_safe(msr, old ^ 0x5a) || rdmsrq_safe(msr, &val)) {
		wrmsrq_safe(msr, old);
		return false;
	}
	wrmsrq_safe(msr, old);
	return val == (old ^ 0x5a);
}

/**
 * perfctr_x86_use_model - run @model's operations from now on
 * @model: a P6-family model, or NULL for the generic one
 *
 * Updates the static calls (and so, on x86, every call site) and the
 * reported CPU type and features.  May sleep.  Used at init and by the
 * KUnit suite; no state may be running counters meanwhile.
 */
void perfctr_x86_use_model(const struct perfctr_x86_model *model)
{
	unsigned int cpu;

	perfctr_model = model;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&perfctr_x86_cache, cpu), 0,
		       sizeof(struct perfctr_x86_cache));
	if (!model) {
		perfctr_cpu_name = "generic x86 with TSC";
		perfctr_cpu_type = PERFCTR_X86_GENERIC;
		perfctr_cpu_features = PERFCTR_FEATURE_RDTSC;
		static_call_update(perfctr_x86_check_control, generic_check_control);
		static_call_update(perfctr_x86_suspend_pmcs, generic_suspend_pmcs);
		static_call_update(perfctr_x86_resume_pmcs, generic_resume_pmcs);
		return;
	}
	perfctr_cpu_name = model->name;
	perfctr_cpu_type = model->cpu_type;
	perfctr_cpu_features = PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_RDPMC;
	static_call_update(perfctr_x86_check_control, p6_check_control);
	static_call_update(perfctr_x86_suspend_pmcs, p6_suspend_pmcs);
	static_call_update(perfctr_x86_resume_pmcs, p6_resume_pmcs);
}

/**
 * perfctr_x86_model_ops - the functions the static calls now point to
 * @check: the control check
 * @suspend: the PMC suspend
 * @resume: the PMC resume
 *
 * For the KUnit suite, to check that the call sites follow the model.
 */
void perfctr_x86_model_ops(void **check, void **suspend, void **resume)
{
	*check = static_call_query(perfctr_x86_check_control);
	*suspend = static_call_query(perfctr_x86_suspend_pmcs);
	*resume = static_call_query(perfctr_x86_resume_pmcs);
}

/**
 * perfctr_cpu_init - detect the CPU and choose its model
 *
 * Return: 0, or -ENODEV without a usable TSC.
 */
int __init perfctr_cpu_init(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC))
		return -ENODEV;

	if (!perfctr_pmu_responds())
		pr_info("PMU not available (absent or not responding, as in most virtual machines): using the generic TSC-only model\n");
	else
		pr_info("no perfctr model for this PMU (vendor %u family %u model %u) yet: using the generic TSC-only model\n",
			boot_cpu_data.x86_vendor, boot_cpu_data.x86,
			boot_cpu_data.x86_model);

	perfctr_x86_use_model(NULL);
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
	info->cpu_khz = tsc_khz ? tsc_khz : cpu_khz;
	info->tsc_to_cpu_mult = 1;
}

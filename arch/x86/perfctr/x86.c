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
 * The only model in this driver so far is the generic one: the TSC alone
 * (tsc_on = 1, no PMCs).  A PMU is detected, but a PMU that does not
 * respond (virtual machines, QEMU TCG) is never trusted, and until a
 * model for it exists the generic model is used on every CPU.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/atomic.h>
#include <linux/cpufeature.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/perfctr.h>
#include <linux/processor.h>
#include <linux/static_call.h>
#include <linux/string.h>

#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/tsc.h>

const char *perfctr_cpu_name __ro_after_init = "generic x86 with TSC";
static unsigned int perfctr_cpu_type __ro_after_init = PERFCTR_X86_GENERIC;
static unsigned int perfctr_cpu_features __ro_after_init;

/* Unique ids for validated controls (the per-CPU control cache key). */
static atomic_t perfctr_control_id = ATOMIC_INIT(0);

/*
 * Model-specific operations.  The TSC part of suspend/resume/sample is
 * common to every model and done here; the models handle the PMCs.
 */
static int generic_check_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_cpu_control *cc = &state->control;
	unsigned int i;

	/* Only the TSC: no PMCs, nothing of the P4. */
	if (cc->nractrs || cc->nrictrs)
		return -EINVAL;
	for (i = 0; i < PERFCTR_NRCTRS; i++)
		if (cc->p4.escr[i])
			return -EINVAL;
	if (cc->p4.pebs_enable || cc->p4.pebs_matrix_vert)
		return -EINVAL;
	return 0;
}

static void generic_suspend_pmcs(struct perfctr_cpu_state *state) { }
static void generic_resume_pmcs(struct perfctr_cpu_state *state) { }

DEFINE_STATIC_CALL(perfctr_x86_check_control, generic_check_control);
DEFINE_STATIC_CALL(perfctr_x86_suspend_pmcs, generic_suspend_pmcs);
DEFINE_STATIC_CALL(perfctr_x86_resume_pmcs, generic_resume_pmcs);

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

	if (cc->tsc_on > 1 || cc->nractrs + cc->nrictrs > PERFCTR_NRCTRS)
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
 * @handler: called in IRQ context on a counter overflow
 *
 * No model in this driver delivers overflow interrupts yet
 * (PERFCTR_FEATURE_PCINT is clear), so the handler is never called.
 */
void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler) { }

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

/* Hardware reservation: one high-level service at a time. */
static DEFINE_MUTEX(perfctr_reserve_mutex);
static const char *perfctr_current_service;

/**
 * perfctr_cpu_reserve - reserve the counters for a high-level service
 * @service: name of the service
 *
 * Return: NULL on success, else the name of the service holding them.
 */
const char *perfctr_cpu_reserve(const char *service)
{
	const char *ret = NULL;

	mutex_lock(&perfctr_reserve_mutex);
	if (perfctr_current_service)
		ret = perfctr_current_service;
	else
		perfctr_current_service = service;
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
	if (WARN_ON(perfctr_current_service != service))
		pr_err("%s releases counters held by %s\n", service,
		       perfctr_current_service ?: "nobody");
	else
		perfctr_current_service = NULL;
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
 * perfctr_cpu_init - detect the CPU and choose its model
 *
 * Return: 0, or -ENODEV without a usable TSC.
 */
int __init perfctr_cpu_init(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC))
		return -ENODEV;

	perfctr_cpu_features = PERFCTR_FEATURE_RDTSC;
	if (!perfctr_pmu_responds())
		pr_info("PMU not available (absent or not responding, as in most virtual machines): using the generic TSC-only model\n");
	else
		pr_info("no perfctr model for this PMU (vendor %u family %u model %u) yet: using the generic TSC-only model\n",
			boot_cpu_data.x86_vendor, boot_cpu_data.x86,
			boot_cpu_data.x86_model);

	/* The generic model's operations are the static calls' defaults. */
	static_call_update(perfctr_x86_check_control, generic_check_control);
	static_call_update(perfctr_x86_suspend_pmcs, generic_suspend_pmcs);
	static_call_update(perfctr_x86_resume_pmcs, generic_resume_pmcs);
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
void __init perfctr_cpu_fill_info(struct perfctr_info *info)
{
	info->cpu_type = perfctr_cpu_type;
	info->cpu_features = perfctr_cpu_features;
	info->cpu_khz = tsc_khz ? tsc_khz : cpu_khz;
	info->tsc_to_cpu_mult = 1;
}

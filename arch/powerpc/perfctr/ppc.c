// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr low-level driver for powerpc: the common part.
 *
 * The "TSC" is the timebase.  The CPU models (ppc64.c: POWER8/9/10,
 * ppc32.c: 604/750/74xx) handle the PMCs; the model is chosen once at
 * boot, and its operations are reached through static calls (an indirect
 * call on ppc64, which has no static-call patching; patched trampolines
 * on ppc32).  The generic model runs the timebase only.
 *
 * The PMU is shared with perf_events through reserve_pmc_hardware(): the
 * first to take it holds it and the performance monitor interrupt (PMI),
 * the other gets -EBUSY.
 */
#define pr_fmt(fmt) "perfctr: " fmt

#include <linux/atomic.h>
#include <linux/compat.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/perfctr.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>
#include <asm/pmc.h>
#include <asm/ptrace.h>
#include <asm/time.h>

#include "ppc.h"

const char *perfctr_cpu_name = "generic PowerPC with timebase";
/* The driver's forbidden CPUs: every CPU has the same PMU, so none. */
cpumask_t perfctr_cpus_forbidden_mask;
static const struct perfctr_ppc_model *perfctr_model;
static perfctr_ihandler_t perfctr_ihandler;

DEFINE_PER_CPU(struct perfctr_ppc_cache, perfctr_ppc_cache);

static int generic_check_control(struct perfctr_cpu_state *state)
{
	const struct perfctr_cpu_control *cc = &state->control;

	if (cc->nractrs || cc->nrictrs || cc->ppc.mmcr0 || cc->ppc.mmcr1 ||
	    cc->ppc.mmcr2 || cc->ppc.mmcra)
		return -EINVAL;
	return 0;
}

static void generic_pmcs(struct perfctr_cpu_state *state) { }

DEFINE_STATIC_CALL(perfctr_ppc_check_control, generic_check_control);
DEFINE_STATIC_CALL(perfctr_ppc_suspend_pmcs, generic_pmcs);
DEFINE_STATIC_CALL(perfctr_ppc_resume_pmcs, generic_pmcs);
DEFINE_STATIC_CALL(perfctr_ppc_sample_pmcs, generic_pmcs);

/**
 * perfctr_ppc_check_counters - the per-counter rules every model shares
 * @cc: the control
 * @nr_pmcs: the model's number of PMCs
 *
 * Each counter maps to its own PMC; a-mode counters have no ireset, and
 * an i-mode counter's ireset is non-negative (it overflows when it turns
 * negative); entries beyond the counters are zero.
 *
 * Return: 0 or -EINVAL.
 */
int perfctr_ppc_check_counters(const struct perfctr_cpu_control *cc,
			       unsigned int nr_pmcs)
{
	unsigned int i, nrctrs = cc->nractrs + cc->nrictrs, used = 0;

	if (nrctrs > nr_pmcs)
		return -EINVAL;
	for (i = 0; i < nrctrs; i++) {
		if (cc->pmc_map[i] >= nr_pmcs || used & BIT(cc->pmc_map[i]))
			return -EINVAL;
		used |= BIT(cc->pmc_map[i]);
		if (i < cc->nractrs ? cc->ireset[i] != 0 : cc->ireset[i] < 0)
			return -EINVAL;
	}
	return 0;
}

/**
 * perfctr_cpu_update_control - validate a new control and install it
 * @state: state whose @state->control was just set by the caller
 * @is_global: ignored on powerpc
 *
 * Must not be called while @state has running i-mode counters.
 *
 * Return: 0, or -EINVAL when the control is invalid for this CPU; then
 * @state is left as it was apart from @state->control.
 */
int perfctr_cpu_update_control(struct perfctr_cpu_state *state, int is_global)
{
	const struct perfctr_cpu_control *cc = &state->control;
	int err;

	err = perfctr_cpu_check_common(cc);
	if (err || cc->_reserved0)
		return -EINVAL;
	if (cc->nrictrs && !(perfctr_model && perfctr_model->features & PERFCTR_FEATURE_PCINT))
		return -EINVAL;
	err = static_call(perfctr_ppc_check_control)(state);
	if (err)
		return err;

	perfctr_cpu_init_state(state, perfctr_new_control_id(), 32);
	return 0;
}

/**
 * perfctr_cpu_counts_kernel - does a control count events of kernel mode?
 * @state: a state whose control perfctr_cpu_update_control() accepted
 *
 * Every model's counters count in supervisor state unless MMCR0[FCS]
 * freezes them there.  On bare metal the kernel runs in hypervisor
 * state, which FCS does not freeze: ppc64 adds MMCR2[FCnH] to such a
 * control (ppc64_load_control()), so FCS means "user only" everywhere.
 *
 * Return: true if @state has counters and MMCR0[FCS] is clear.
 */
bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state)
{
	return perfctr_cstatus_nrctrs(state->cstatus) &&
	       !(state->control.ppc.mmcr0 & MMCR0_FCS);
}

/**
 * perfctr_cpu_rdpmc_get - let user space in @mm read the counters
 * @mm: the mm of a thread whose state has programmable counters
 *
 * Problem-state reads of the PMCs follow the thread's own MMCR0[PMCC],
 * which the control sets and the switch hooks load: nothing is per mm.
 *
 * Return: false, nothing counted.
 */
bool perfctr_cpu_rdpmc_get(struct mm_struct *mm)
{
	return false;
}

/**
 * perfctr_cpu_rdpmc_put - drop a count perfctr_cpu_rdpmc_get() took
 * @mm: its mm; never called on powerpc
 */
void perfctr_cpu_rdpmc_put(struct mm_struct *mm)
{
}

/**
 * perfctr_cpu_unclaim - leave no state's counts for what runs next
 *
 * Nothing is done here.  64-bit Book3S: problem state reads the PMCs
 * only under its own MMCR0[PMCC], which the suspend's freeze value
 * clears.  (The 750 and the 74xx let it read UPMC1-6 at any time.)
 */
void perfctr_cpu_unclaim(void)
{
}

/**
 * perfctr_cpu_forbidden - the CPUs a control's PMU cannot serve
 * @state: a state whose control perfctr_cpu_update_control() accepted
 * @mask: set to the CPUs on which it cannot run
 *
 * Every CPU of a powerpc system has the same PMU: none.
 */
void perfctr_cpu_forbidden(const struct perfctr_cpu_state *state, struct cpumask *mask)
{
	cpumask_clear(mask);
}

/* 64-bit Book3S: ppc64.c has these two, with its PMC work inlined. */
#ifndef CONFIG_PPC_BOOK3S_64
/**
 * perfctr_cpu_suspend - stop counting and fold the period into the sums
 * @state: the running state; interrupts off
 */
void perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_ppc_suspend_pmcs)(state);
	perfctr_tsc_suspend(state, perfctr_read_tb);
}

/**
 * perfctr_cpu_resume - start a counting period
 * @state: the suspended state; interrupts off
 */
void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	perfctr_tsc_resume(state, perfctr_read_tb);
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_ppc_resume_pmcs)(state);
}
#endif

/**
 * perfctr_cpu_sample - fold the counts so far into the sums, keep counting
 * @state: the running state; interrupts off
 */
void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_nrctrs(state->cstatus))
		static_call(perfctr_ppc_sample_pmcs)(state);
	perfctr_tsc_sample(state, perfctr_read_tb);
}

/**
 * perfctr_cpu_set_ihandler - install the overflow interrupt handler
 * @handler: called from the PMI (maybe as an NMI) while perfctr holds
 *	the PMU
 */
void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(perfctr_ihandler, handler);
}

/**
 * perfctr_cpu_identify_overflow - find and re-arm overflown i-mode counters
 * @state: the state, just suspended
 *
 * A PowerPC counter overflows when it turns negative; each one found is
 * reset to its ireset value (loaded at the next resume).
 *
 * Return: bit mask of the overflown counters, in control order.
 */
unsigned int perfctr_cpu_identify_overflow(struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned int mask = 0;

	for (i = perfctr_cstatus_nractrs(state->cstatus); i < nrctrs; i++) {
		if ((s32)state->pmc[i].start < 0) {
			state->pmc[i].start = state->control.ireset[i];
			mask |= BIT(i);
		}
	}
	return mask;
}

/**
 * perfctr_cpu_ireload - force the i-mode counters to be reloaded on resume
 * @state: the suspended state
 */
void perfctr_cpu_ireload(struct perfctr_cpu_state *state)
{
	state->k1.isuspend_cpu = -1;
}

/* The PMI while perfctr holds the PMU: stop counting, tell the owner. */
static void perfctr_ppc_pmi(struct pt_regs *regs)
{
	perfctr_ihandler_t handler = READ_ONCE(perfctr_ihandler);

	perfctr_model->freeze();
	if (handler)
		handler(instruction_pointer(regs));
}

static DEFINE_MUTEX(perfctr_reserve_mutex);
static const char *perfctr_current_service;

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

	unsigned int cpu;

	mutex_lock(&perfctr_reserve_mutex);
	if (perfctr_current_service) {
		ret = perfctr_current_service;
	} else if (perfctr_model && reserve_pmc_hardware(perfctr_ppc_pmi)) {
		ret = "perf_events (hardware events: end the perf session or close its events)";
	} else {
		/* perf_events may have programmed the PMU since: trust no cache. */
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(&perfctr_ppc_cache, cpu), 0,
			       sizeof(struct perfctr_ppc_cache));
		perfctr_current_service = service;
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
		if (perfctr_model)
			release_pmc_hardware();
		WRITE_ONCE(perfctr_ihandler, NULL);
		perfctr_current_service = NULL;
	}
	mutex_unlock(&perfctr_reserve_mutex);
}

/**
 * perfctr_cpu_fill_info - fill the CPU part of struct perfctr_info
 * @info: filled in
 */
void perfctr_cpu_fill_info(struct perfctr_info *info)
{
	info->cpu_type = perfctr_model ? perfctr_model->cpu_type : PERFCTR_PPC_GENERIC;
	/* The timebase ticks at a fixed rate, not with the core's clock. */
	info->cpu_features = PERFCTR_FEATURE_RDTSC | PERFCTR_FEATURE_TSC_CONSTANT |
			     (perfctr_model ? perfctr_model->features : 0);
	info->cpu_khz = ppc_proc_freq / 1000;
	info->tsc_to_cpu_mult = max(1UL, ppc_proc_freq / max(1UL, ppc_tb_freq));
	/* A read of the reservation: asking takes nothing from perf_events. */
	if (perfctr_model && !READ_ONCE(perfctr_current_service) && pmc_hardware_reserved())
		info->cpu_features |= PERFCTR_FEATURE_PMU_BUSY;
	/*
	 * A 32-bit process on a 64-bit kernel is built without _ARCH_PPC64,
	 * so <asm/perfctr.h>'s perfctr_rdpmc() reads the 74xx's UPMC SPR
	 * numbers, which Book3S-64 does not have: SIGILL.  Without RDPMC in
	 * the features it reads through vperfctr_read() (libperfctr does).
	 */
	if (IS_ENABLED(CONFIG_PPC64) && in_compat_syscall())
		info->cpu_features &= ~PERFCTR_FEATURE_RDPMC;
}

/*
 * A CPU coming online, or the boot CPU resuming from sleep, may hold
 * anything in its MMCRs (the CPU's restore code, firmware, a hypervisor):
 * a cache that still named the control last loaded there would spare its
 * reload, and the counters would silently count nothing.  Zero is the
 * cache of a CPU never loaded: the next resume there loads everything.
 */
static int perfctr_ppc_cpu_forget(unsigned int cpu)
{
	memset(per_cpu_ptr(&perfctr_ppc_cache, cpu), 0, sizeof(struct perfctr_ppc_cache));
	return 0;
}

static void perfctr_ppc_syscore_resume(void *data)
{
	perfctr_ppc_cpu_forget(smp_processor_id());
}

static const struct syscore_ops perfctr_ppc_syscore_ops = {
	.resume = perfctr_ppc_syscore_resume,
};

static struct syscore perfctr_ppc_syscore = {
	.ops = &perfctr_ppc_syscore_ops,
};

/**
 * perfctr_cpu_init - detect the CPU and choose its model
 *
 * Return: 0 (the timebase is always there), or a negative errno if the
 * CPU hotplug callback cannot be set up.
 */
int __init perfctr_cpu_init(void)
{
	const struct perfctr_ppc_model *m = NULL;
	int ret;

	if (IS_ENABLED(CONFIG_PPC_BOOK3S_64))
		m = perfctr_ppc64_probe();
	else if (IS_ENABLED(CONFIG_PPC_BOOK3S_32))
		m = perfctr_ppc32_probe();
	if (m && !m->responds()) {
		pr_info("PMU of %s not responding: using the generic timebase-only model\n",
			m->name);
		m = NULL;
	} else if (!m) {
		pr_info("no perfctr model for this PMU (PVR 0x%08lx): using the generic timebase-only model\n",
			mfspr(SPRN_PVR));
	}
	if (m) {
		perfctr_model = m;
		perfctr_cpu_name = m->name;
		static_call_update(perfctr_ppc_check_control, m->check_control);
		static_call_update(perfctr_ppc_suspend_pmcs, m->suspend_pmcs);
		static_call_update(perfctr_ppc_resume_pmcs, m->resume_pmcs);
		static_call_update(perfctr_ppc_sample_pmcs, m->sample_pmcs);
	}
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "powerpc/perfctr:cache",
					perfctr_ppc_cpu_forget, NULL);
	if (ret < 0)
		return ret;
	register_syscore(&perfctr_ppc_syscore);
	return 0;
}

/**
 * perfctr_cpu_exit - undo perfctr_cpu_init()
 */
void perfctr_cpu_exit(void) { }

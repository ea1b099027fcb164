/* SPDX-License-Identifier: GPL-2.0 */
/* perfctr x86 driver internals, shared with its KUnit suite. */
#ifndef _ARCH_X86_PERFCTR_X86_H
#define _ARCH_X86_PERFCTR_X86_H

#include <linux/perfctr.h>
#include <linux/types.h>

/**
 * struct perfctr_x86_model - a P6-family CPU model
 * @name: for perfctr_cpu_name
 * @cpu_type: PERFCTR_X86_* value
 * @nr_ctrs: number of counters
 * @evntsel_msr: MSR of the first event select
 * @perfctr_msr: MSR of the first counter
 * @evntsel_stride: MSR distance between event selects (and counters)
 * @global_enable: the enable bit of event select 0 enables all counters
 * @high_allowed: bits of evntsel_high[] the model accepts
 * @nr_fixed: number of Intel fixed counters
 * @global_ctrl_msr: global enable MSR, 0 if none
 */
struct perfctr_x86_model {
	const char *name;
	unsigned int cpu_type;
	unsigned int nr_ctrs;
	u32 evntsel_msr;
	u32 perfctr_msr;
	unsigned int evntsel_stride;
	bool global_enable;
	u32 high_allowed;
	unsigned int nr_fixed;
	u32 global_ctrl_msr;
};

/**
 * struct perfctr_x86_cache - what one CPU's control registers hold
 * @id: k1.id of the control last loaded, 0 if none
 * @evntsel: value of each event select
 * @fixed_ctrl: value of IA32_FIXED_CTR_CTRL
 * @global: value of the global enable MSR
 */
struct perfctr_x86_cache {
	unsigned int id;
	u64 evntsel[PERFCTR_NRCTRS];
	u64 fixed_ctrl;
	u64 global;
};

extern const struct perfctr_x86_model perfctr_x86_p6;
extern const struct perfctr_x86_model perfctr_x86_k7;
extern const struct perfctr_x86_model perfctr_x86_arch_v2;
extern const struct perfctr_x86_model perfctr_x86_amd_core;

void perfctr_x86_wrmsr(u32 msr, u64 val);
u32 perfctr_x86_rdpmc_low(u32 map);
struct perfctr_x86_cache *perfctr_x86_this_cache(void);
void perfctr_x86_use_model(const struct perfctr_x86_model *model);
void perfctr_x86_model_ops(void **check, void **suspend, void **resume);

#ifdef CONFIG_PERFCTR_INTERRUPT_SUPPORT
void perfctr_x86_set_ihandler(perfctr_ihandler_t handler);
unsigned long perfctr_x86_interrupts(void);
#endif

#endif

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_POWERPC_PERFCTR_H
#define _ASM_POWERPC_PERFCTR_H

#include <uapi/asm/perfctr.h>

#ifdef CONFIG_PPC_BOOK3S_64
#include <asm/hw_irq.h>

/*
 * The performance monitor interrupt is an NMI where only interrupts are
 * soft-disabled; perfctr's state changes mask it as well (the PMI is then
 * replayed when it is unmasked), see include/linux/perfctr.h.
 */
#define perfctr_irq_save(flags)		powerpc_local_irq_pmu_save(flags)
#define perfctr_irq_restore(flags)	powerpc_local_irq_pmu_restore(flags)
#define perfctr_pmi_save(flags)		powerpc_local_irq_pmu_save(flags)
#define perfctr_pmi_restore(flags)	powerpc_local_irq_pmu_restore(flags)
#endif

#endif /* _ASM_POWERPC_PERFCTR_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr's overflow interrupt on LOCAL_PERFCTR_VECTOR.
 *
 * While perfctr holds the PMU with a P6-family model, the APIC_LVTPC of
 * every CPU its counters ran on points at LOCAL_PERFCTR_VECTOR (fixed
 * delivery, an ordinary interrupt that local_irq_save() masks), set at
 * the first resume there, and the event selects of i-mode counters have
 * their INT bit set: a counter passing 0 interrupts here.  When perfctr
 * releases the PMU, each such CPU's APIC_LVTPC gets back what it held
 * (perf_events' NMI delivery, from perf_events_lapic_init()).
 *
 * The handler ACKs the local APIC, re-arms APIC_LVTPC if perfctr holds it
 * (Intel CPUs set its mask bit on delivery), counts the interrupt (the
 * "PCT" row of /proc/interrupts) and calls the handler the high-level
 * service installed with perfctr_cpu_set_ihandler(), with the interrupted
 * instruction pointer.
 */
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/perfctr.h>

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/ptrace.h>

#include "x86.h"

/* Each CPU's APIC_LVTPC before perfctr took it, given back at release. */
static DEFINE_PER_CPU(u32, perfctr_x86_saved_lvtpc);
/* This CPU's APIC_LVTPC is perfctr's. */
static DEFINE_PER_CPU(bool, perfctr_x86_lvtpc_mine);
static perfctr_ihandler_t perfctr_x86_ihandler;

DEFINE_IDTENTRY_SYSVEC(sysvec_perfctr_interrupt)
{
	perfctr_ihandler_t handler = READ_ONCE(perfctr_x86_ihandler);

	apic_eoi();
	if (this_cpu_read(perfctr_x86_lvtpc_mine))
		apic_write(APIC_LVTPC, LOCAL_PERFCTR_VECTOR);
	inc_irq_stat(PERFCTR);
	if (handler)
		handler(instruction_pointer(regs));
}

void perfctr_x86_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(perfctr_x86_ihandler, handler);
}

/*
 * Point this CPU's APIC_LVTPC at LOCAL_PERFCTR_VECTOR, keeping what was
 * there (perf_events' NMI delivery, or the masked entry of a CPU without
 * a perf driver): at the first resume with PMCs on the CPU since perfctr
 * took the PMU.  Interrupts off.
 */
void perfctr_x86_lvtpc_take_cpu(void)
{
	this_cpu_write(perfctr_x86_saved_lvtpc, apic_read(APIC_LVTPC));
	apic_write(APIC_LVTPC, LOCAL_PERFCTR_VECTOR);
	this_cpu_write(perfctr_x86_lvtpc_mine, true);
}

/* Give this CPU's APIC_LVTPC back what it held, if perfctr took it. */
void perfctr_x86_lvtpc_give_cpu(void)
{
	if (!this_cpu_read(perfctr_x86_lvtpc_mine))
		return;
	this_cpu_write(perfctr_x86_lvtpc_mine, false);
	apic_write(APIC_LVTPC, this_cpu_read(perfctr_x86_saved_lvtpc));
}

/* A CPU that came online has its LVTPC set up anew: nothing to give back. */
void perfctr_x86_lvtpc_forget_cpu(unsigned int cpu)
{
	per_cpu(perfctr_x86_lvtpc_mine, cpu) = false;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr's overflow interrupt on LOCAL_PERFCTR_VECTOR.
 *
 * The handler ACKs the local APIC, counts the interrupt (the "PCT" row of
 * /proc/interrupts) and calls the handler the high-level service
 * installed with perfctr_cpu_set_ihandler(), with the interrupted
 * instruction pointer.
 */
#include <linux/percpu.h>
#include <linux/perfctr.h>

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/idtentry.h>
#include <asm/ptrace.h>

#include "x86.h"

static DEFINE_PER_CPU(unsigned long, perfctr_x86_nr_interrupts);
static perfctr_ihandler_t perfctr_x86_ihandler;

DEFINE_IDTENTRY_SYSVEC(sysvec_perfctr_interrupt)
{
	perfctr_ihandler_t handler = READ_ONCE(perfctr_x86_ihandler);

	apic_eoi();
	inc_irq_stat(PERFCTR);
	this_cpu_inc(perfctr_x86_nr_interrupts);
	if (handler)
		handler(instruction_pointer(regs));
}

void perfctr_x86_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(perfctr_x86_ihandler, handler);
}

unsigned long perfctr_x86_interrupts(void)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(perfctr_x86_nr_interrupts, cpu);
	return sum;
}

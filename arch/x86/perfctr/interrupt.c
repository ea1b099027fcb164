// SPDX-License-Identifier: GPL-2.0
/*
 * perfctr's overflow interrupt on LOCAL_PERFCTR_VECTOR.
 *
 * While perfctr holds the PMU with a P6-family model, every CPU's APIC_LVTPC
 * points at LOCAL_PERFCTR_VECTOR (fixed delivery, an ordinary interrupt
 * that local_irq_save() masks), and the event selects of i-mode counters
 * have their INT bit set: a counter passing 0 interrupts here.  When
 * perfctr releases the PMU, each CPU's APIC_LVTPC gets back what it held
 * (perf_events' NMI delivery, from perf_events_lapic_init()).
 *
 * The handler ACKs the local APIC, re-arms APIC_LVTPC if perfctr holds it
 * (Intel CPUs set its mask bit on delivery), counts the interrupt (the
 * "PCT" row of /proc/interrupts) and calls the handler the high-level
 * service installed with perfctr_cpu_set_ihandler(), with the interrupted
 * instruction pointer.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
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
static perfctr_ihandler_t perfctr_x86_ihandler;
static bool perfctr_x86_lvtpc;

DEFINE_IDTENTRY_SYSVEC(sysvec_perfctr_interrupt)
{
	perfctr_ihandler_t handler = READ_ONCE(perfctr_x86_ihandler);

	apic_eoi();
	if (READ_ONCE(perfctr_x86_lvtpc))
		apic_write(APIC_LVTPC, LOCAL_PERFCTR_VECTOR);
	inc_irq_stat(PERFCTR);
	if (handler)
		handler(instruction_pointer(regs));
}

void perfctr_x86_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(perfctr_x86_ihandler, handler);
}

static void perfctr_x86_lvtpc_take_cpu(void *unused)
{
	this_cpu_write(perfctr_x86_saved_lvtpc, apic_read(APIC_LVTPC));
	apic_write(APIC_LVTPC, LOCAL_PERFCTR_VECTOR);
}

static void perfctr_x86_lvtpc_give_cpu(void *unused)
{
	apic_write(APIC_LVTPC, this_cpu_read(perfctr_x86_saved_lvtpc));
}

/*
 * Point every CPU's APIC_LVTPC at LOCAL_PERFCTR_VECTOR, keeping what was
 * there (perf_events' NMI delivery, or the masked entry of a CPU without
 * a perf driver).  May sleep.  The hotplug lock keeps CPUs from coming
 * online meanwhile; those that come later take the setting from
 * perfctr_x86_cpu_online().
 */
void perfctr_x86_lvtpc_take(void)
{
	cpus_read_lock();
	WRITE_ONCE(perfctr_x86_lvtpc, true);
	on_each_cpu(perfctr_x86_lvtpc_take_cpu, NULL, 1);
	cpus_read_unlock();
}

/* Give every CPU's APIC_LVTPC back what it held before.  May sleep. */
void perfctr_x86_lvtpc_give(void)
{
	cpus_read_lock();
	WRITE_ONCE(perfctr_x86_lvtpc, false);
	on_each_cpu(perfctr_x86_lvtpc_give_cpu, NULL, 1);
	cpus_read_unlock();
}

/* A CPU coming online while perfctr holds the PMU gets its LVTPC too. */
static int perfctr_x86_cpu_online(unsigned int cpu)
{
	if (READ_ONCE(perfctr_x86_lvtpc))
		perfctr_x86_lvtpc_take_cpu(NULL);
	return 0;
}

static int __init perfctr_x86_interrupt_init(void)
{
	int ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "x86/perfctr:online",
					    perfctr_x86_cpu_online, NULL);

	return ret < 0 ? ret : 0;
}
device_initcall(perfctr_x86_interrupt_init);

bool perfctr_x86_lvtpc_held(void)
{
	return READ_ONCE(perfctr_x86_lvtpc);
}

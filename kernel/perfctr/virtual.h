/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_PERFCTR_VIRTUAL_H
#define _KERNEL_PERFCTR_VIRTUAL_H

#include <linux/perfctr.h>

#define PERFCTR_DRIVER_VERSION	"3.0"
#define VPERFCTR_SERVICE	"virtual per-thread counters (perfctr)"

/* Filled once by perfctr_init() before any system call can run. */
extern struct perfctr_info perfctr_info;

#ifdef CONFIG_PERFCTR_VIRTUAL
int vperfctr_init(void);
#else
static inline int vperfctr_init(void) { return 0; }
#endif

/* False when no driver could be set up: the system calls fail ENODEV. */
static inline bool perfctr_ready(void)
{
	return perfctr_info.abi_version != 0;
}

#endif

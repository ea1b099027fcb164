/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perfctr user ABI must have one layout in every user ABI of an
 * architecture (x86: i386, x32, x86_64; powerpc: ppc32, ppc64).  Any file
 * including this fails to compile if its ABI sees another layout;
 * kernel/perfctr/init.c asserts the same numbers.
 */
#ifndef _PERFCTR_ABI_LAYOUT_H
#define _PERFCTR_ABI_LAYOUT_H

#if __STDC_HOSTED__
#include <assert.h>
#endif
#include <stddef.h>
#include <linux/perfctr.h>

#if defined(__powerpc__)
#define PERFCTR_ABI_CCTRL_SIZE	152
#define PERFCTR_ABI_IRESET	76
#else
#define PERFCTR_ABI_CCTRL_SIZE	400
#define PERFCTR_ABI_IRESET	308
#endif
#define PERFCTR_ABI_CTRL_SIZE	(16 + PERFCTR_ABI_CCTRL_SIZE + 16)
#define PERFCTR_ABI_STATE_SIZE	(56 + 24 * PERFCTR_NRCTRS + PERFCTR_ABI_CCTRL_SIZE)

static_assert(sizeof(struct perfctr_info) == 64, "perfctr_info");
static_assert(offsetof(struct perfctr_info, cpu_type) == 36, "cpu_type");
static_assert(sizeof(struct perfctr_cpu_mask) == 4, "perfctr_cpu_mask");
static_assert(sizeof(struct perfctr_sum_ctrs) == 8 + 8 * PERFCTR_NRCTRS, "sum_ctrs");
static_assert(sizeof(struct perfctr_pmc_state) == 24, "pmc_state");
static_assert(offsetof(struct perfctr_cpu_state, tsc_sum) == 32, "tsc_sum");
static_assert(offsetof(struct perfctr_cpu_state, tsc_mask) == 48, "tsc_mask");
static_assert(offsetof(struct perfctr_cpu_state, pmc) == 56, "pmc");
static_assert(offsetof(struct perfctr_cpu_state, control) == 56 + 24 * PERFCTR_NRCTRS, "control");
static_assert(sizeof(struct perfctr_cpu_state) == PERFCTR_ABI_STATE_SIZE, "cpu_state");
static_assert(offsetof(struct vperfctr_state, cpu_state) == 8, "vperfctr_state");
static_assert(offsetof(struct vperfctr_state, children) == 8 + PERFCTR_ABI_STATE_SIZE, "children");
static_assert(offsetof(struct vperfctr_children, sum) == 16, "children.sum");
static_assert(sizeof(struct vperfctr_children) == 24 + 8 * PERFCTR_NRCTRS, "vperfctr_children");
static_assert(offsetof(struct vperfctr_state, stops) ==
	      8 + PERFCTR_ABI_STATE_SIZE + 24 + 8 * PERFCTR_NRCTRS, "stops");
static_assert(sizeof(struct perfctr_cpu_control) == PERFCTR_ABI_CCTRL_SIZE, "cpu_control");
static_assert(offsetof(struct perfctr_cpu_control, ireset) == PERFCTR_ABI_IRESET, "ireset");
#if defined(__powerpc__)
static_assert(offsetof(struct perfctr_cpu_control, ppc) == 112, "ppc");
static_assert(offsetof(struct perfctr_cpu_control, ppc.mmcr1) == 120, "ppc.mmcr1");
#endif
static_assert(offsetof(struct vperfctr_control, cpu_control) == 16, "cpu_control");
static_assert(sizeof(struct vperfctr_control) == PERFCTR_ABI_CTRL_SIZE, "vperfctr_control");

#endif

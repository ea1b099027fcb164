/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perfctr user ABI must have one layout in every x86 user ABI (i386,
 * x32, x86_64).  Any file including this fails to compile if its ABI
 * sees another layout; kernel/perfctr/init.c asserts the same numbers.
 */
#ifndef _PERFCTR_ABI_LAYOUT_H
#define _PERFCTR_ABI_LAYOUT_H

#if __STDC_HOSTED__
#include <assert.h>
#endif
#include <stddef.h>
#include <linux/perfctr.h>

#define PERFCTR_ABI_CTRL_SIZE	432
#define PERFCTR_ABI_STATE_SIZE	(32 + 16 * 18 + 400)

static_assert(sizeof(struct perfctr_info) == 64, "perfctr_info");
static_assert(offsetof(struct perfctr_info, cpu_type) == 36, "cpu_type");
static_assert(sizeof(struct perfctr_cpu_mask) == 4, "perfctr_cpu_mask");
static_assert(sizeof(struct perfctr_sum_ctrs) == 8 + 8 * PERFCTR_NRCTRS, "sum_ctrs");
static_assert(sizeof(struct perfctr_pmc_state) == 16, "pmc_state");
static_assert(offsetof(struct perfctr_cpu_state, tsc_sum) == 24, "tsc_sum");
static_assert(offsetof(struct perfctr_cpu_state, pmc) == 32, "pmc");
static_assert(offsetof(struct perfctr_cpu_state, control) == 32 + 16 * 18, "control");
static_assert(sizeof(struct perfctr_cpu_state) == PERFCTR_ABI_STATE_SIZE, "cpu_state");
static_assert(offsetof(struct vperfctr_state, cpu_state) == 8, "vperfctr_state");
static_assert(sizeof(struct perfctr_cpu_control) == 400, "cpu_control");
static_assert(offsetof(struct perfctr_cpu_control, ireset) == 308, "ireset");
static_assert(offsetof(struct vperfctr_control, cpu_control) == 16, "cpu_control");
static_assert(sizeof(struct vperfctr_control) == PERFCTR_ABI_CTRL_SIZE, "vperfctr_control");

#endif

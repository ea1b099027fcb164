/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * likwid-cpumarker.h - the name likwid's tests include (test/testmarker*.c):
 * likwid-marker.h's macros, likwid_marker(3).
 */
#ifndef __PERFCTR_LIKWID_CPUMARKER_H
#define __PERFCTR_LIKWID_CPUMARKER_H

#include <likwid-marker.h>

#endif /* __PERFCTR_LIKWID_CPUMARKER_H */

/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * __printf(), __noreturn, noinline and ARRAY_SIZE() for perfex, the
 * library's events.c and the tests: the kernel's names (checkpatch asks
 * for them in place of the __attribute__ they expand to, at their
 * definitions too: perfctr_attribute() spells the definitions).
 */
#ifndef PERFCTR_COMPILER_H
#define PERFCTR_COMPILER_H

#define perfctr_attribute(x)	__attribute__((x))

#ifndef __printf
#define __printf(a, b)		perfctr_attribute(format(printf, a, b))
#endif
#ifndef __noreturn
#define __noreturn		perfctr_attribute(__noreturn__)
#endif
#ifndef noinline
#define noinline		perfctr_attribute(__noinline__)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#endif

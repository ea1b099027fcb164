/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Calls between the library's files: in the library, not exported. */
#ifndef __PERFCTR_MARKER_INTERNAL_H
#define __PERFCTR_MARKER_INTERNAL_H

/* The results to the file @name ("-": standard error), in PERFCTR_MARKER_FORMAT. */
int marker_write_file(const char *name) __attribute__((visibility("hidden")));

/*
 * libperfctr.c's fork handlers, registered now if they are not yet: a
 * later fork handler that closes a vperfctr must run after them.
 */
void mapped_register_once(void) __attribute__((visibility("hidden")));

#endif /* __PERFCTR_MARKER_INTERNAL_H */

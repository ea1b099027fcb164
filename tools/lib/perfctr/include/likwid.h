/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * likwid.h - the marker part of likwid's likwid.h on libperfctr: the
 * likwid_marker*() functions, with likwid's prototypes, and
 * likwid-marker.h's macros.  Not likwid's topology, perfmon or power
 * APIs.  likwid_marker(3).
 */
#ifndef __PERFCTR_LIKWID_H
#define __PERFCTR_LIKWID_H

#ifdef __cplusplus
extern "C" {
#endif

void likwid_markerInit(void);
void likwid_markerThreadInit(void);
void likwid_markerNextGroup(void);
void likwid_markerClose(void);
int likwid_markerWriteFile(const char *markerfile);
int likwid_markerRegisterRegion(const char *regionTag);
int likwid_markerStartRegion(const char *regionTag);
int likwid_markerStopRegion(const char *regionTag);
int likwid_markerResetRegion(const char *regionTag);
void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events, double *time,
			    int *count);

#ifdef __cplusplus
}
#endif

/* As likwid's likwid.h: the macros too. */
#ifndef LIKWID_MARKER_INIT
#include <likwid-marker.h>
#endif

#endif /* __PERFCTR_LIKWID_H */

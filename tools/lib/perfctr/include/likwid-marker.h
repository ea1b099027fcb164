/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * likwid-marker.h - likwid's marker macros on libperfctr's marker API
 * (perfctr_marker(3)), so that code instrumented for likwid builds
 * unchanged against libperfctr: installed as
 * INCDIR/perfctr/likwid-marker.h, which pkg-config --cflags libperfctr
 * puts on the include path.  As in likwid, the macros do something only
 * when LIKWID_PERFMON is defined, and expand to nothing otherwise.
 * likwid_marker(3) lists the differences from likwid.
 */
#ifndef __PERFCTR_LIKWID_MARKER_H
#define __PERFCTR_LIKWID_MARKER_H

#ifdef LIKWID_PERFMON
#include <perfctr_marker.h>

#define LIKWID_MARKER_INIT		perfctr_marker_init()
#define LIKWID_MARKER_THREADINIT	perfctr_marker_thread_init()
#define LIKWID_MARKER_SWITCH		((void)0)
#define LIKWID_MARKER_REGISTER(tag)	perfctr_marker_register(tag)
#define LIKWID_MARKER_START(tag)	perfctr_marker_start(tag)
#define LIKWID_MARKER_STOP(tag)	perfctr_marker_stop(tag)
#define LIKWID_MARKER_GET(tag, nevents, events, time, count) \
	perfctr_marker_get_likwid(tag, nevents, events, time, count)
#define LIKWID_MARKER_RESET(tag)	perfctr_marker_reset(tag)
#define LIKWID_MARKER_CLOSE		perfctr_marker_close()

#else

#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(tag)
#define LIKWID_MARKER_START(tag)
#define LIKWID_MARKER_STOP(tag)
#define LIKWID_MARKER_GET(tag, nevents, events, time, count)
#define LIKWID_MARKER_RESET(tag)
#define LIKWID_MARKER_CLOSE

#endif /* LIKWID_PERFMON */

#endif /* __PERFCTR_LIKWID_MARKER_H */

/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * likwid-marker.h - likwid's marker macros on libperfctr's marker API
 * (perfctr_marker(3)), so that code instrumented for likwid builds
 * unchanged against libperfctr: installed as
 * INCDIR/perfctr/likwid-marker.h, which pkg-config --cflags libperfctr
 * puts on the include path.  As in likwid (5.2 to 5.4), the macros call
 * likwid.h's likwid_marker*() when LIKWID_PERFMON is defined, and expand
 * to nothing otherwise; the GPU markers are always nothing.
 * likwid_marker(3) lists the differences from likwid.
 */
#ifndef __PERFCTR_LIKWID_MARKER_H
#define __PERFCTR_LIKWID_MARKER_H

#ifdef LIKWID_PERFMON
#include <likwid.h>

#define LIKWID_MARKER_INIT		likwid_markerInit()
#define LIKWID_MARKER_THREADINIT	likwid_markerThreadInit()
#define LIKWID_MARKER_SWITCH		likwid_markerNextGroup()
#define LIKWID_MARKER_REGISTER(regionTag)	likwid_markerRegisterRegion(regionTag)
#define LIKWID_MARKER_START(regionTag)	likwid_markerStartRegion(regionTag)
#define LIKWID_MARKER_STOP(regionTag)	likwid_markerStopRegion(regionTag)
#define LIKWID_MARKER_CLOSE		likwid_markerClose()
#define LIKWID_MARKER_WRITE_FILE(markerfile)	likwid_markerWriteFile(markerfile)
#define LIKWID_MARKER_RESET(regionTag)	likwid_markerResetRegion(regionTag)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count) \
	likwid_markerGetRegion(regionTag, nevents, events, time, count)

#else

#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(regionTag)
#define LIKWID_MARKER_START(regionTag)
#define LIKWID_MARKER_STOP(regionTag)
#define LIKWID_MARKER_CLOSE
#define LIKWID_MARKER_WRITE_FILE(markerfile)
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count)
#define LIKWID_MARKER_RESET(regionTag)

#endif /* LIKWID_PERFMON */

/*
 * likwid's GPU markers (Nvidia: NVMON_ from 5.3, LIKWID_NVMARKER_ in
 * 5.2; AMD: ROCMON_), as likwid defines them without LIKWID_NVMON or
 * LIKWID_ROCMON: no-ops.  The GETs take likwid's 6 arguments (GPU markers
 * on) or its 5 (off).
 */
#define NVMON_MARKER_INIT
#define NVMON_MARKER_THREADINIT
#define NVMON_MARKER_SWITCH
#define NVMON_MARKER_REGISTER(regionTag)
#define NVMON_MARKER_START(regionTag)
#define NVMON_MARKER_STOP(regionTag)
#define NVMON_MARKER_CLOSE
#define NVMON_MARKER_GET(regionTag, ...)
#define NVMON_MARKER_RESET(regionTag)
#define NVMON_MARKER_WRITE_FILE(markerfile)

#define ROCMON_MARKER_INIT
#define ROCMON_MARKER_THREADINIT
#define ROCMON_MARKER_SWITCH
#define ROCMON_MARKER_REGISTER(regionTag)
#define ROCMON_MARKER_START(regionTag)
#define ROCMON_MARKER_STOP(regionTag)
#define ROCMON_MARKER_CLOSE
#define ROCMON_MARKER_GET(regionTag, ...)
#define ROCMON_MARKER_RESET(regionTag)
#define ROCMON_MARKER_WRITE_FILE(filename)

#define LIKWID_NVMARKER_INIT
#define LIKWID_NVMARKER_THREADINIT
#define LIKWID_NVMARKER_SWITCH
#define LIKWID_NVMARKER_REGISTER(regionTag)
#define LIKWID_NVMARKER_START(regionTag)
#define LIKWID_NVMARKER_STOP(regionTag)
#define LIKWID_NVMARKER_CLOSE
#define LIKWID_NVMARKER_GET(regionTag, ...)
#define LIKWID_NVMARKER_RESET(regionTag)

#endif /* __PERFCTR_LIKWID_MARKER_H */

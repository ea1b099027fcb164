/* SPDX-License-Identifier: GPL-2.0 */
/* perfex: event specifiers to a perfctr control. */
#ifndef PERFEX_EVENTS_H
#define PERFEX_EVENTS_H

#include <stdio.h>
#include <libperfctr.h>

struct perfex_events {
	unsigned int n;
	char *name[PERFCTR_NRCTRS];	/* as given, or the full libpfm4 name */
	unsigned long long code[PERFCTR_NRCTRS];	/* the raw encoding */
};

/*
 * Add the event @spec to @cc as its next a-mode counter; 0, or -1 with
 * the reason in @err.
 */
int perfex_add_event(const struct perfctr_info *info, struct perfctr_cpu_control *cc,
		     struct perfex_events *ev, const char *spec, char *err, size_t errlen);
void perfex_list_events(FILE *out, const struct perfctr_info *info);
const char *perfex_event_syntax(void);

#endif

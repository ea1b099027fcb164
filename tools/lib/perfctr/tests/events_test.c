// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of perfex's event encoding (x86, libpfm4): run with
 * LIBPFM_FORCE_PMU=amd64_fam17h_zen2 so that libpfm4's tables do not
 * depend on the host CPU.  Prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include "../events.h"

static int n, fails;

static void check(int ok, const char *name, const char *err)
{
	printf("%sok %d %s%s%s\n", ok ? "" : "not ", ++n, name, ok ? "" : " # ", ok ? "" : err);
	fails += !ok;
}

int main(void)
{
	struct perfctr_info info = { .cpu_type = PERFCTR_X86_AMD_FAM15H };
	struct perfctr_cpu_control cc;
	struct perfex_events ev;
	char err[256] = "";
	int i, r;

	memset(&cc, 0, sizeof(cc));
	memset(&ev, 0, sizeof(ev));
	r = perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS", err, sizeof(err));
	check(!r && cc.evntsel[0] == 0x004100c0 && cc.pmc_map[0] == 0 && cc.nractrs == 1,
	      "libpfm4 name: user mode, INT cleared, first counter", err);
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0@3", err, sizeof(err));
	check(!r && cc.evntsel[1] == 0x4300c0 && cc.pmc_map[1] == 3, "raw evntsel@pmc", err);
	r = perfex_add_event(&info, &cc, &ev, "RETIRED_INSTRUCTIONS:k=1:u=0", err, sizeof(err));
	check(!r && (cc.evntsel[2] & 0x30000) == 0x20000 && cc.pmc_map[2] == 1,
	      "kernel-mode modifier; next free counter", err);
	r = perfex_add_event(&info, &cc, &ev, "0x1000000c0", err, sizeof(err));
	check(!r && cc.evntsel_high[3] == 1 && cc.evntsel[3] == 0xc0,
	      "raw bits 32-63 to evntsel_high", err);
	r = perfex_add_event(&info, &cc, &ev, "NO_SUCH_EVENT", err, sizeof(err));
	check(r && strstr(err, "NO_SUCH_EVENT"), "unknown name refused", err);
	r = perfex_add_event(&info, &cc, &ev, "0x12/0x3/", err, sizeof(err));
	check(r && strstr(err, "invalid"), "bad raw syntax refused", err);
	for (i = 0; i < 2; i++)
		perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	check(r && strstr(err, "too many"), "more events than counters refused", err);
	info.cpu_type = PERFCTR_X86_GENERIC;
	memset(&cc, 0, sizeof(cc));
	r = perfex_add_event(&info, &cc, &ev, "0x4300c0", err, sizeof(err));
	check(r && strstr(err, "no programmable counters"), "generic model refuses events", err);
	printf("1..%d\n", n);
	return fails != 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perfex's output (output.c) on fake counts, on any host: the CSV text
 * exactly, the JSON's fields.  Prints TAP.
 *
 *   perfex_output_test            the checks
 *   perfex_output_test --json N   print case N's JSON (0 or 1), for
 *                                 run-tests.sh to parse with Python
 *   perfex_output_test --json-perf N   likewise, perf stat -j's lines
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../output.h"

static int nr_test, nr_fail;

static void check(int ok, const char *name, const char *got, const char *want)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++nr_test, name);
	if (!ok) {
		nr_fail++;
		printf("# got:\n%s# want:\n%s", got, want ? want : "(see the test)\n");
	}
}

/* The command of case 1: what JSON must escape, and a byte that is not UTF-8. */
static char *const tricky_argv[] = {
	"./a.out", "say \"hi\"", "back\\slash", "tab\tnew\nline", "caf\xc3\xa9", "bad\xff",
	"\x7f", NULL
};

static char *const plain_argv[] = { "./a.out", "-n", "3", NULL };

struct fake {
	struct perfctr_info info;
	struct perfctr_cpu_control cc;
	struct perfex_events ev;
	struct perfex_counts counts;
	struct perfex_report report;
};

/*
 * Case 0: two events (instructions, cycles: an IPC), inheriting, a
 * 2 GHz TSC, exit status 3.  Case 1: --no-inherit, one libpfm4-named
 * event, no cpu_khz, killed by signal 9, the tricky command.
 */
static void fake_case(struct fake *f, int n)
{
	memset(f, 0, sizeof(*f));
	f->info.cpu_type = 0;
	if (n == 2) {
		/* Case 2: case 0 as the means of three runs (-r 3). */
		fake_case(f, 0);
		f->counts.runs = 3;
		f->counts.noise[0] = 0.5;
		f->counts.noise[1] = 0;
		f->counts.noise[2] = 1.25;
		return;
	}
	if (n == 0) {
		f->info.cpu_khz = 2000000;
		f->info.tsc_to_cpu_mult = 1;
		f->cc.nractrs = 2;
		f->cc.pmc_map[0] = 0;
		f->cc.pmc_map[1] = 1;
		f->cc.evntsel[0] = 0x4100c0;
		f->cc.evntsel[1] = 0x41003c;
		f->ev.n = 2;
		f->ev.name[0] = "instructions";
		f->ev.name[1] = "cycles";
		f->ev.code[0] = 0xc0;
		f->ev.code[1] = 0x3c;
		f->counts.inherit = 1;
		f->counts.self.tsc = 3000000;
		f->counts.children.sum.tsc = 1000000;
		f->counts.self.pmc[0] = 6000000;
		f->counts.self.pmc[1] = 3000000;
		f->counts.children.sum.pmc[0] = 1000000;
		f->counts.children.sum.pmc[1] = 1000000;
		f->counts.children.nr_merged = 3;
		f->counts.children.nr_unmerged = 1;
		f->counts.elapsed = 0.5;
		f->counts.ipc = 1;
		f->counts.ipc_inst = 0;
		f->counts.ipc_cyc = 1;
		f->report.argv = plain_argv;
		f->report.status = 3 << 8;	/* exited, status 3 */
	} else {
		f->cc.nractrs = 1;
		f->cc.evntsel[0] = 0x5300c0;
		f->ev.n = 1;
		f->ev.name[0] = "adl_glc::INST_RETIRED:ANY_P:k=0:u=1";
		f->ev.code[0] = 0xc0;
		f->counts.self.tsc = 1000;
		f->counts.self.pmc[0] = 500;
		f->counts.elapsed = 1.25;
		f->report.argv = tricky_argv;
		f->report.status = 9;		/* killed by SIGKILL */
	}
	f->report.info = &f->info;
	f->report.cc = &f->cc;
	f->report.ev = &f->ev;
	f->report.counts = &f->counts;
}

enum { TEXT, JSON, CSV, JSON_PERF };

/* The output of case @n as a malloc()ed string. */
static char *print(int n, int how, const char *sep)
{
	struct fake f;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		perror("open_memstream");
		exit(1);
	}
	fake_case(&f, n);
	if (how == JSON)
		perfex_print_json(m, &f.report);
	else if (how == JSON_PERF)
		perfex_print_json_perf(m, &f.report);
	else if (how == CSV)
		perfex_print_csv(m, &f.report, sep);
	else
		perfex_print_text(m, &f.report);
	fclose(m);
	return buf;
}

static void check_csv(int n, const char *sep, const char *name, const char *want)
{
	char *got = print(n, CSV, sep);

	check(!strcmp(got, want), name, got, want);
	free(got);
}

/* Every one of @keys (NULL-terminated) is in the JSON text of case @n. */
static void check_json(int n, const char *name, const char *const *keys)
{
	char *got = print(n, JSON, NULL);
	int ok = 1;

	for (; *keys; keys++)
		if (!strstr(got, *keys)) {
			printf("# missing: %s\n", *keys);
			ok = 0;
		}
	check(ok, name, got, NULL);
	free(got);
}

int main(int argc, char **argv)
{
	static const char *const json0[] = {
		"{\"format\": 1, \"command\": [\"./a.out\", \"-n\", \"3\"], \"cpu_type\": 0, ",
		"\"cpu_khz\": 2000000, \"tsc\": 4000000, \"tsc_self\": 3000000, ",
		"\"tsc_children\": 1000000, \"tsc_seconds\": 0.002000, ",
		"\"elapsed_seconds\": 0.500000, \"children_merged\": 3, ",
		"\"children_unmerged\": 1, \"children_running\": 0, ",
		"\"events\": [{\"name\": \"instructions\", \"code\": \"0xc0\", \"pmc\": 0, ",
		"\"evntsel\": \"0x004100c0\", \"count\": 7000000, \"self\": 6000000, ",
		"\"children\": 1000000}, {\"name\": \"cycles\"",
		"\"ipc\": 1.7500, \"exit_status\": 3}\n",
		NULL
	};
	static const char *const json1[] = {
		"{\"format\": 1, \"command\": [\"./a.out\", \"say \\\"hi\\\"\", ",
		"\"back\\\\slash\", ",
		"\"tab\\u0009new\\u000aline\", \"caf\xc3\xa9\", \"bad\\ufffd\", \"\\u007f\"], ",
		"\"tsc\": 1000, \"elapsed_seconds\": 1.250000, ",
		"\"name\": \"adl_glc::INST_RETIRED:ANY_P:k=0:u=1\", ",
		"\"count\": 500}], \"signal\": 9}\n",
		NULL
	};
	static const char json_perf0[] =
		"{\"counter-value\" : \"4000000.000000\", \"unit\" : \"\", \"event\" : \"tsc\", \"event-runtime\" : 2000000, \"pcnt-running\" : 100.00, \"self\" : 3000000, \"children\" : 1000000}\n"
		"{\"counter-value\" : \"7000000.000000\", \"unit\" : \"\", \"event\" : \"instructions\", \"event-runtime\" : 2000000, \"pcnt-running\" : 100.00, \"metric-value\" : \"1.750000\", \"metric-unit\" : \"insn per cycle\", \"self\" : 6000000, \"children\" : 1000000}\n"
		"{\"counter-value\" : \"4000000.000000\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : 2000000, \"pcnt-running\" : 100.00, \"self\" : 3000000, \"children\" : 1000000}\n"
		"{\"counter-value\" : \"0.002000\", \"unit\" : \"s\", \"event\" : \"tsc_seconds\"}\n"
		"{\"counter-value\" : \"0.500000\", \"unit\" : \"s\", \"event\" : \"elapsed_seconds\"}\n"
		"";
	static const char json_perf1[] =
		"{\"counter-value\" : \"1000.000000\", \"unit\" : \"\", \"event\" : \"tsc\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00}\n"
		"{\"counter-value\" : \"500.000000\", \"unit\" : \"\", \"event\" : \"adl_glc::INST_RETIRED:ANY_P:k=0:u=1\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00}\n"
		"{\"counter-value\" : \"1.250000\", \"unit\" : \"s\", \"event\" : \"elapsed_seconds\"}\n"
		"";
	char *text;

	if (argc == 3 && !strcmp(argv[1], "--json-perf")) {
		text = print(atoi(argv[2]), JSON_PERF, NULL);
		fputs(text, stdout);
		free(text);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--json")) {
		text = print(atoi(argv[2]), JSON, NULL);
		fputs(text, stdout);
		free(text);
		return 0;
	}
	printf("TAP version 13\n");
	check_csv(0, ",",
		  "CSV: perf stat -x's fields (value, unit, event, runtime, pcnt-running, metric), then self, children",
		  "4000000,,tsc,2000000,100.00,,,3000000,1000000\n"
		  "7000000,,instructions,2000000,100.00,1.75,insn per cycle,6000000,1000000\n"
		  "4000000,,cycles,2000000,100.00,,,3000000,1000000\n"
		  "0.002000,s,tsc_seconds,,,,,0.001500,0.000500\n"
		  "0.500000,s,elapsed_seconds,,,,,,\n"
		  "3,,children_merged,,,,,,\n"
		  "1,,children_unmerged,,,,,,\n"
		  "0,,children_running,,,,,,\n");
	check_csv(1, ":", "CSV: --no-inherit, a name holding the separator is quoted",
		  "1000::tsc::100.00::::\n"
		  "500::\"adl_glc::INST_RETIRED:ANY_P:k=0:u=1\"::100.00::::\n"
		  "1.250000:s:elapsed_seconds::::::\n");
	check_csv(1, "::", "CSV: a separator of two characters",
		  "1000::::tsc::::100.00::::::::\n"
		  "500::::\"adl_glc::INST_RETIRED:ANY_P:k=0:u=1\"::::100.00::::::::\n"
		  "1.250000::s::elapsed_seconds::::::::::::\n");
	check_csv(2, ",", "CSV with -r: perf stat -r's spread after the event",
		  "4000000,,tsc,0.50%,2000000,100.00,,,3000000,1000000\n"
		  "7000000,,instructions,0.00%,2000000,100.00,1.75,insn per cycle,6000000,1000000\n"
		  "4000000,,cycles,1.25%,2000000,100.00,,,3000000,1000000\n"
		  "0.002000,s,tsc_seconds,,,,,,0.001500,0.000500\n"
		  "0.500000,s,elapsed_seconds,,,,,,,\n"
		  "3,,children_merged,,,,,,,\n"
		  "1,,children_unmerged,,,,,,,\n"
		  "0,,children_running,,,,,,,\n");
	text = print(2, JSON_PERF, NULL);
	check(strstr(text, "\"event\" : \"cycles\", \"variance\" : 1.25, \"event-runtime\"") &&
	      strstr(text, "\"event\" : \"instructions\", \"variance\" : 0.00,"),
	      "JSON with -r: perf stat -r -j's variance", text, NULL);
	free(text);
	text = print(2, JSON, NULL);
	check(strstr(text, "\"runs\": 3, \"tsc_noise_pct\": 0.50,") &&
	      strstr(text, "\"count\": 4000000, \"noise_pct\": 1.25,"),
	      "JSON format 1 with -r: runs and each count's spread", text, NULL);
	free(text);
	text = print(2, TEXT, NULL);
	check(strstr(text, "runs\t\t\t") && strstr(text, "\tcycles\t( +-  1.25% )\n") &&
	      strstr(text, "\tinstructions\t( +-  0.00% )\n"),
	      "text with -r: the runs and each count's spread", text, NULL);
	free(text);
	text = print(0, JSON_PERF, NULL);
	check(!strcmp(text, json_perf0), "JSON: perf stat -j's keys, then self, children", text,
	      json_perf0);
	free(text);
	text = print(1, JSON_PERF, NULL);
	check(!strcmp(text, json_perf1), "JSON: perf stat -j's keys, --no-inherit, escapes", text,
	      json_perf1);
	free(text);
	check_json(0, "JSON: format 1, the command, the 2.7-era fields unchanged", json0);
	check_json(1, "JSON: the command's strings escaped, not-UTF-8 bytes replaced", json1);
	text = print(0, TEXT, NULL);
	check(strstr(text, "tsc\t\t\t") && strstr(text, "\tinstructions\n") &&
	      strstr(text, "1.750") && strstr(text, "3 merged, 1 not"),
	      "text: the counts, the IPC, the children", text, NULL);
	free(text);
	printf("1..%d\n", nr_test);
	printf("# %d passed, %d failed\n", nr_test - nr_fail, nr_fail);
	return nr_fail ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perfex's output: the counts as text (the default), as one JSON object
 * (-j) or as CSV (-x SEP, perf stat's -x).  perfex(1) documents the
 * three.
 */
#include <string.h>
#include <sys/wait.h>

#include "compiler.h"
#include "csv.h"
#include "output.h"

/* The length of the valid UTF-8 sequence at @s, or 0 (Python's decoder rules). */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* @s as a JSON string: a byte that is not UTF-8 becomes U+FFFD. */
static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, f);
		} else {
			n = utf8_len(p);
			if (n) {
				fwrite(p, 1, n, f);
				p += n;
			} else {
				fputs("\\ufffd", f);
				p++;
			}
		}
	}
	fputc('"', f);
}

/* Part 0 is the total, 1 the command's own count, 2 its descendants'. */
static unsigned long long count_of(const struct perfex_counts *c, int i, int part)
{
	const struct perfctr_sum_ctrs *s = part == 1 ? &c->self : &c->children.sum;
	unsigned long long v = i < 0 ? s->tsc : s->pmc[i];

	if (part == 0)	/* the total */
		v += i < 0 ? c->self.tsc : c->self.pmc[i];
	return v;
}

/*
 * The TSC's ticks in seconds, where perfctr_info gives the clock: x86's
 * cpu_khz is the TSC's rate, powerpc's the core's, tsc_to_cpu_mult
 * times the timebase's.  The TSC counts while the threads run.
 */
static int tsc_seconds(const struct perfctr_info *info, const struct perfex_counts *c, int part,
		       double *sec)
{
	unsigned int mult = info->tsc_to_cpu_mult ? info->tsc_to_cpu_mult : 1;

	if (!info->cpu_khz)
		return 0;
	*sec = (double)count_of(c, -1, part) * mult / (info->cpu_khz * 1000.0);
	return 1;
}

/* Instructions per cycle of a part, if perfex counts both and some cycles. */
static int ipc_of(const struct perfex_counts *c, int part, double *ipc)
{
	unsigned long long cycles;

	if (!c->ipc)
		return 0;
	cycles = count_of(c, c->ipc_cyc, part);
	if (!cycles)
		return 0;
	*ipc = (double)count_of(c, c->ipc_inst, part) / cycles;
	return 1;
}

static void print_count(FILE *f, const struct perfex_counts *c, int i)
{
	if (c->inherit)
		fprintf(f, "%19llu %19llu ", count_of(c, i, 1), count_of(c, i, 2));
	fprintf(f, "%19llu", count_of(c, i, 0));
}

/* -r: the spread of count @i (-1: the TSC) over the runs, as perf stat prints it. */
static void print_noise(FILE *f, const struct perfex_counts *c, int i)
{
	if (c->runs > 1)
		fprintf(f, "\t( +-%6.2f%% )", c->noise[i + 1]);
}

void perfex_print_text(FILE *f, const struct perfex_report *r)
{
	static const int parts[] = { 1, 2, 0 };	/* self, children, total */
	const struct perfctr_info *info = r->info;
	const struct perfctr_cpu_control *cc = r->cc;
	const struct perfex_counts *c = r->counts;
	unsigned int i, k;
	double v;

	if (c->runs > 1)
		fprintf(f, "runs\t\t\t%19u\t%s\n", c->runs,
			"the counts are their means, +- the spread (perf stat -r's)");
	if (c->inherit)
		fprintf(f, "\t\t\t%19s %19s %19s\n", "self", "children", "total");
	fprintf(f, "tsc\t\t\t");
	print_count(f, c, -1);
	print_noise(f, c, -1);
	fputc('\n', f);
	for (i = 0; i < cc->nractrs; i++) {
		fprintf(f, "event 0x%08X", cc->evntsel[i]);
#ifndef _ARCH_PPC	/* x86 */
		if (cc->p4.escr[i])
			fprintf(f, "/0x%08X", cc->p4.escr[i]);
#endif
		fprintf(f, "@%u\t", cc->pmc_map[i]);
		print_count(f, c, i);
		fprintf(f, "\t%s", r->ev->name[i]);
		print_noise(f, c, i);
		fputc('\n', f);
	}
	if (tsc_seconds(info, c, 0, &v)) {
		fprintf(f, "tsc seconds\t\t");
		for (k = c->inherit ? 0 : 2; k < 3; k++) {
			tsc_seconds(info, c, parts[k], &v);
			fprintf(f, "%19.6f%s", v, k < 2 ? " " : "");
		}
		fprintf(f, "\tthe threads' run time (TSC at %u kHz)\n",
			info->cpu_khz / (info->tsc_to_cpu_mult ? info->tsc_to_cpu_mult : 1));
	}
	if (c->ipc) {
		fprintf(f, "ipc\t\t\t");
		for (k = c->inherit ? 0 : 2; k < 3; k++) {
			if (ipc_of(c, parts[k], &v))
				fprintf(f, "%19.3f%s", v, k < 2 ? " " : "");
			else
				fprintf(f, "%19s%s", "-", k < 2 ? " " : "");
		}
		fprintf(f, "\tinstructions per cycle\n");
	}
	fprintf(f, "elapsed seconds\t\t");
	if (c->inherit)
		fprintf(f, "%19s %19s ", "", "");
	fprintf(f, "%19.6f\twall clock\n", c->elapsed);
	if (c->inherit) {
		fprintf(f, "children\t\t%u merged, %u not %s\n", c->children.nr_merged,
			c->children.nr_unmerged,
			"(changed their control, got no counters, or stopped short)");
		if (c->children.nr_running)
			fprintf(f, "children\t\t%u still running, not counted %s\n",
				c->children.nr_running, "(daemons the command left behind)");
	}
}

/* Unless --no-inherit: the parts of a count, after its total. */
static void json_parts(FILE *f, const struct perfex_counts *c, int i, const char *prefix)
{
	if (c->inherit)
		fprintf(f, ", \"%sself\": %llu, \"%schildren\": %llu", prefix, count_of(c, i, 1),
			prefix, count_of(c, i, 2));
}

void perfex_print_json(FILE *f, const struct perfex_report *r)
{
	const struct perfctr_info *info = r->info;
	const struct perfctr_cpu_control *cc = r->cc;
	const struct perfex_counts *c = r->counts;
	unsigned int i;
	double v;

	fprintf(f, "{\"format\": %d, \"command\": [", PERFEX_JSON_FORMAT);
	for (i = 0; r->argv && r->argv[i]; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, r->argv[i]);
	}
	fprintf(f, "], \"cpu_type\": %u, \"cpu_name\": ", info->cpu_type);
	json_string(f, perfctr_info_cpu_name(info));
	fprintf(f, ", \"cpu_khz\": %u", info->cpu_khz);
	if (c->runs > 1)
		fprintf(f, ", \"runs\": %u, \"tsc_noise_pct\": %.2f", c->runs, c->noise[0]);
	fprintf(f, ", \"tsc\": %llu", count_of(c, -1, 0));
	json_parts(f, c, -1, "tsc_");
	if (tsc_seconds(info, c, 0, &v))
		fprintf(f, ", \"tsc_seconds\": %.6f", v);
	fprintf(f, ", \"elapsed_seconds\": %.6f", c->elapsed);
	if (c->inherit) {
		fprintf(f, ", \"children_merged\": %u, \"children_unmerged\": %u",
			c->children.nr_merged, c->children.nr_unmerged);
		fprintf(f, ", \"children_running\": %u", c->children.nr_running);
	}
	fprintf(f, ", \"events\": [");
	for (i = 0; i < cc->nractrs; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		json_string(f, r->ev->name[i]);
		fprintf(f, ", \"code\": \"0x%llx\", \"pmc\": %u, \"evntsel\": \"0x%08x\"",
			r->ev->code[i], cc->pmc_map[i], cc->evntsel[i]);
		fprintf(f, ", \"count\": %llu", count_of(c, i, 0));
		if (c->runs > 1)
			fprintf(f, ", \"noise_pct\": %.2f", c->noise[i + 1]);
		json_parts(f, c, i, "");
		fputc('}', f);
	}
	fprintf(f, "]");
	if (ipc_of(c, 0, &v))
		fprintf(f, ", \"ipc\": %.4f", v);
	if (WIFEXITED(r->status))
		fprintf(f, ", \"exit_status\": %d", WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		fprintf(f, ", \"signal\": %d", WTERMSIG(r->status));
	fprintf(f, "}\n");
}

/*
 * The run time of the counters in nanoseconds, perf stat's
 * counter-runtime: they count while the threads run, which the TSC
 * measures where perfctr_info gives its clock; 0 if not.
 */
static unsigned long long runtime_ns(const struct perfctr_info *info, const struct perfex_counts *c)
{
	double sec;

	if (!tsc_seconds(info, c, 0, &sec))
		return 0;
	return (unsigned long long)(sec * 1e9 + 0.5);
}

/* perf stat's metric of counter @i (-1: the TSC): the IPC on the instructions line. */
static int metric_of(const struct perfex_counts *c, int i, double *v, const char **unit)
{
	if (i < 0 || !c->ipc || (unsigned int)i != c->ipc_inst || !ipc_of(c, 0, v))
		return 0;
	*unit = "insn per cycle";
	return 1;
}

/*
 * perf stat -x's fields, then perfctr's: value SEP unit SEP event SEP
 * runtime SEP pcnt-running SEP metric-value SEP metric-unit SEP self SEP
 * children; @i -1 is the TSC.
 */
static void csv_count(FILE *f, const struct perfex_report *r, int i, const char *name,
		      const char *sep)
{
	const struct perfex_counts *c = r->counts;
	unsigned long long ns = runtime_ns(r->info, c);
	const char *unit;
	double m;

	fprintf(f, "%llu%s%s", count_of(c, i, 0), sep, sep);
	perfctr_csv_field(f, name, sep);
	if (c->runs > 1)	/* perf stat -r's field after the event */
		fprintf(f, "%s%.2f%%", sep, c->noise[i + 1]);
	fputs(sep, f);
	if (ns)
		fprintf(f, "%llu", ns);
	fprintf(f, "%s100.00%s", sep, sep);
	if (metric_of(c, i, &m, &unit))
		fprintf(f, "%.2f%s%s", m, sep, unit);
	else
		fputs(sep, f);
	fputs(sep, f);
	if (c->inherit)
		fprintf(f, "%llu%s%llu", count_of(c, i, 1), sep, count_of(c, i, 2));
	else
		fputs(sep, f);
	fputc('\n', f);
}

/* A number of the run: value SEP unit SEP name, four empty fields, self SEP children. */
static void csv_line(FILE *f, const struct perfex_counts *c, const char *value,
		     const char *unit, const char *name, const char *self, const char *children,
		     const char *sep)
{
	fprintf(f, "%s%s%s%s%s%s", value, sep, unit, sep, name, c->runs > 1 ? sep : "");
	fprintf(f, "%s%s%s%s%s%s%s%s\n", sep, sep, sep, sep, sep, self, sep, children);
}

void perfex_print_csv(FILE *f, const struct perfex_report *r, const char *sep)
{
	const struct perfex_counts *c = r->counts;
	char v[3][32], buf[32];
	unsigned int i, k;
	double d;

	csv_count(f, r, -1, "tsc", sep);
	for (i = 0; i < r->cc->nractrs; i++)
		csv_count(f, r, i, r->ev->name[i], sep);
	if (tsc_seconds(r->info, c, 0, &d)) {
		for (k = 0; k < 3; k++) {
			tsc_seconds(r->info, c, k, &d);
			snprintf(v[k], sizeof(v[k]), "%.6f", d);
		}
		csv_line(f, c, v[0], "s", "tsc_seconds", c->inherit ? v[1] : "",
			 c->inherit ? v[2] : "", sep);
	}
	snprintf(buf, sizeof(buf), "%.6f", c->elapsed);
	csv_line(f, c, buf, "s", "elapsed_seconds", "", "", sep);
	if (c->inherit) {
		snprintf(buf, sizeof(buf), "%u", c->children.nr_merged);
		csv_line(f, c, buf, "", "children_merged", "", "", sep);
		snprintf(buf, sizeof(buf), "%u", c->children.nr_unmerged);
		csv_line(f, c, buf, "", "children_unmerged", "", "", sep);
		snprintf(buf, sizeof(buf), "%u", c->children.nr_running);
		csv_line(f, c, buf, "", "children_running", "", "", sep);
	}
}

/*
 * perf stat -j's object for counter @i (-1: the TSC), one a line, and
 * perfctr's keys after perf's.
 */
static void json_count(FILE *f, const struct perfex_report *r, int i, const char *name)
{
	const struct perfex_counts *c = r->counts;
	const char *unit;
	double m;

	fprintf(f, "{\"counter-value\" : \"%llu.000000\", \"unit\" : \"\", \"event\" : ",
		count_of(c, i, 0));
	json_string(f, name);
	if (c->runs > 1)	/* perf stat -r -j's */
		fprintf(f, ", \"variance\" : %.2f", c->noise[i + 1]);
	fprintf(f, ", \"event-runtime\" : %llu, \"pcnt-running\" : 100.00",
		runtime_ns(r->info, c));
	if (metric_of(c, i, &m, &unit))
		fprintf(f, ", \"metric-value\" : \"%f\", \"metric-unit\" : \"%s\"", m, unit);
	if (c->inherit)
		fprintf(f, ", \"self\" : %llu, \"children\" : %llu", count_of(c, i, 1),
			count_of(c, i, 2));
	fprintf(f, "}\n");
}

/* A number of seconds of the run: counter-value, unit and event only. */
static void json_seconds(FILE *f, const char *name, double sec)
{
	fprintf(f, "{\"counter-value\" : \"%f\", \"unit\" : \"s\", \"event\" : \"%s\"}\n",
		sec, name);
}

void perfex_print_json_perf(FILE *f, const struct perfex_report *r)
{
	const struct perfex_counts *c = r->counts;
	unsigned int i;
	double d;

	json_count(f, r, -1, "tsc");
	for (i = 0; i < r->cc->nractrs; i++)
		json_count(f, r, i, r->ev->name[i]);
	if (tsc_seconds(r->info, c, 0, &d))
		json_seconds(f, "tsc_seconds", d);
	json_seconds(f, "elapsed_seconds", c->elapsed);
}

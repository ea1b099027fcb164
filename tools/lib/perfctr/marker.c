// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libperfctr's marker API: named regions measured by the fast reads.
 *
 * Each thread has its own virtual counters (perfctr counts per thread)
 * and its own table of regions, reached through a thread-local pointer:
 * a start or a stop takes no lock and, once the region exists in the
 * thread, makes no system call where the fast reads are granted.  The
 * start reads the counters as its last step and the stop as its first,
 * so that a region's counts hold the same fixed overhead whatever its
 * name and place in the table.
 *
 * The events are those of the control in force in the thread that calls
 * perfctr_marker_init(): perfex -e's (perfex sets it up in the command,
 * inherited by its threads), or the program's own vperfctr_control().
 * Without one, those of PERFCTR_MARKER_EVENTS, in perfex's syntax
 * (generic and raw events: the library has no libpfm4), or else the TSC
 * alone.  A thread that did not inherit the control gets a copy of it at
 * its first marker call.
 *
 * As likwid's, the marker says in one line on standard error why it
 * cannot count, and writes its results only when asked: to
 * PERFCTR_MARKER_OUTPUT, one file per process (%p: the pid).  A child of
 * fork() starts without a marker: it does not write its parent's sums.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "csv.h"
#include "events.h"
#include "libperfctr.h"
#include "perfctr_marker.h"
#include "marker.h"

struct mregion {
	char *name;
	unsigned int hash;
	int running;
	struct perfctr_sum_ctrs start;
	struct perfctr_marker_counts sum;
};

struct mthread {
	struct vperfctr *v;		/* NULL once the thread exited */
	int index;			/* 0, 1, ... in the order of their first call */
	int tid;
	unsigned int nregions, size;
	struct mregion *regions;
	struct mthread *next;
};

enum { MARKER_NONE, MARKER_ON, MARKER_CLOSED };

static pthread_mutex_t marker_lock = PTHREAD_MUTEX_INITIALIZER;
static int marker_state;
static struct vperfctr_control marker_control;	/* what threads without one get */
static unsigned int marker_npmcs;
static struct perfctr_info marker_info;
static struct mthread *marker_threads, **marker_tail = &marker_threads;
static int marker_nthreads;
static pthread_key_t marker_key;
static __thread struct mthread *marker_self;
static char *marker_names[PERFCTR_NRCTRS];
static pthread_once_t marker_once = PTHREAD_ONCE_INIT;
static int marker_said;		/* the init's failure told, once */

/* A name the outputs can print unquoted: printable, no blank, quote, comma or backslash. */
static int name_ok(const char *name)
{
	size_t n;

	if (!name || !*name)
		return 0;
	for (n = 0; name[n]; n++) {
		unsigned char c = name[n];

		if (n >= PERFCTR_MARKER_NAME_MAX || c <= ' ' || c >= 0x7f ||
		    c == '"' || c == ',' || c == '\\')
			return 0;
	}
	return 1;
}

static unsigned int name_hash(const char *name)
{
	unsigned int h = 2166136261u;		/* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

static struct mregion *region_find(struct mthread *t, const char *name)
{
	unsigned int h = name_hash(name), i;

	for (i = 0; i < t->nregions; i++)
		if (t->regions[i].hash == h && !strcmp(t->regions[i].name, name))
			return &t->regions[i];
	return NULL;
}

/* The region @name of @t, created at its first use (the only allocation). */
static struct mregion *region_get(struct mthread *t, const char *name)
{
	struct mregion *r;

	if (!name_ok(name)) {
		errno = EINVAL;
		return NULL;
	}
	r = region_find(t, name);
	if (r)
		return r;
	if (t->nregions == t->size) {
		unsigned int size = t->size ? 2 * t->size : 8;

		r = realloc(t->regions, size * sizeof(*r));
		if (!r)
			return NULL;
		t->regions = r;
		t->size = size;
	}
	r = &t->regions[t->nregions];
	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	if (!r->name)
		return NULL;
	r->hash = name_hash(name);
	r->sum.nrpmcs = marker_npmcs;
	t->nregions++;
	return r;
}

static unsigned int control_npmcs(const struct vperfctr_control *c)
{
	return c->cpu_control.nractrs + c->cpu_control.nrictrs;
}

static int control_on(const struct vperfctr_control *c)
{
	return c->cpu_control.tsc_on || control_npmcs(c);
}

static void thread_exit(void *arg)
{
	struct mthread *t = arg;

	vperfctr_close(t->v);
	t->v = NULL;
}

/* The calling thread's entry: its counters opened, and mapped for the fast reads. */
static int thread_add(struct vperfctr *v)
{
	struct mthread *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->v = v;
	t->tid = syscall(SYS_gettid);
	pthread_mutex_lock(&marker_lock);
	t->index = marker_nthreads++;
	*marker_tail = t;
	marker_tail = &t->next;
	pthread_mutex_unlock(&marker_lock);
	marker_self = t;
	pthread_setspecific(marker_key, t);
	return 0;
}

/*
 * The calling thread's counters: those it inherited, or a copy of the
 * marker's control.  An inherited control must count as many PMCs.
 */
int perfctr_marker_thread_init(void)
{
	struct vperfctr_control c;
	struct vperfctr *v;
	int err;

	if (marker_self)
		return 0;
	if (__atomic_load_n(&marker_state, __ATOMIC_ACQUIRE) != MARKER_ON) {
		errno = EINVAL;
		return -1;
	}
	v = vperfctr_open();
	if (!v)
		return -1;
	if (vperfctr_read_state(v, NULL, &c))
		goto fail;
	if (!control_on(&c)) {
		c = marker_control;
		if (vperfctr_control(v, &c))
			goto fail;
	} else if (control_npmcs(&c) != marker_npmcs) {
		errno = EINVAL;
		goto fail;
	}
	if (thread_add(v))
		goto fail;
	return 0;
fail:
	err = errno;
	vperfctr_close(v);
	errno = err;
	return -1;
}

static void names_init(const struct perfex_events *ev)
{
	const char *env = getenv("PERFCTR_MARKER_NAMES");
	char buf[32], *copy, *p, *tok;
	unsigned int i = 0;

	for (; i < ev->n && i < marker_npmcs; i++)
		marker_names[i] = strdup(ev->name[i]);
	if (!i && env && *env) {
		copy = strdup(env);
		for (p = copy; copy && i < marker_npmcs && (tok = strsep(&p, ",")); i++)
			marker_names[i] = strdup(tok);
		free(copy);
	}
	for (; i < marker_npmcs; i++) {
		snprintf(buf, sizeof(buf), "pmc%u", i);
		marker_names[i] = strdup(buf);
	}
}

/*
 * PERFCTR_MARKER_EVENTS into @c, which has the TSC on; as perfex -e: the
 * same syntax and refusals (EINVAL, the reason into @why; EBUSY while
 * another user holds the PMU).
 */
static int env_events(struct vperfctr_control *c, struct perfex_events *ev, char *why,
		      size_t size)
{
	const char *spec = getenv("PERFCTR_MARKER_EVENTS");
	char err[512];

	if (!spec || !*spec)
		return 0;
	if (perfex_add_events(&marker_info, &c->cpu_control, ev, &spec, 1, err, sizeof(err))) {
		snprintf(why, size, "PERFCTR_MARKER_EVENTS: %s", err);
		errno = EINVAL;
		return -1;
	}
	if (c->cpu_control.nractrs && marker_info.cpu_features & PERFCTR_FEATURE_PMU_BUSY) {
		snprintf(why, size, "PERFCTR_MARKER_EVENTS: %s",
			 perfctr_strerror(EBUSY, &marker_info));
		errno = EBUSY;
		return -1;
	}
	return 0;
}

/* Why the init failed, in one line on standard error, once per process (as likwid). */
static void marker_say(const char *why)
{
	int err = errno;

	if (!marker_said) {
		marker_said = 1;
		fprintf(stderr, "perfctr marker: not counting: %s\n", why);
	}
	errno = err;
}

/* fork(): the child has no marker (nor the mappings): it forgets its parent's. */
static void marker_fork_prepare(void)
{
	pthread_mutex_lock(&marker_lock);
}

static void marker_fork_parent(void)
{
	pthread_mutex_unlock(&marker_lock);
}

static void marker_fork_child(void)
{
	struct mthread *t, *next;
	unsigned int i;

	for (t = marker_threads; t; t = next) {
		next = t->next;
		vperfctr_close(t->v);	/* the descriptor: the mapping is gone */
		for (i = 0; i < t->nregions; i++)
			free(t->regions[i].name);
		free(t->regions);
		free(t);
	}
	for (i = 0; i < PERFCTR_NRCTRS; i++) {
		free(marker_names[i]);
		marker_names[i] = NULL;
	}
	if (marker_state != MARKER_NONE)
		pthread_key_delete(marker_key);
	marker_threads = NULL;
	marker_tail = &marker_threads;
	marker_nthreads = 0;
	marker_self = NULL;
	marker_state = MARKER_NONE;
	pthread_mutex_init(&marker_lock, NULL);
}

static void marker_register_fork(void)
{
	/* Child handlers run in the order of registration: libperfctr's first. */
	mapped_register_once();
	pthread_atfork(marker_fork_prepare, marker_fork_parent, marker_fork_child);
}

static void marker_atexit(void)
{
	if (marker_state == MARKER_ON)
		perfctr_marker_close();
}

static int marker_atexit_done;

/*
 * The process's marker, from the calling thread's control: the one in
 * force (perfex's, or the program's), or else the TSC alone, inherited
 * by the threads created afterwards.  Again: nothing (0).
 */
int perfctr_marker_init(void)
{
	char why[600] = "";
	struct perfex_events ev;
	struct vperfctr_control c;
	struct vperfctr *v;
	const char *what;
	int err;

	memset(&ev, 0, sizeof(ev));
	pthread_once(&marker_once, marker_register_fork);
	pthread_mutex_lock(&marker_lock);
	if (marker_state != MARKER_NONE) {
		err = marker_state == MARKER_ON ? 0 : EALREADY;
		pthread_mutex_unlock(&marker_lock);
		errno = err;
		return err ? -1 : 0;
	}
	what = "vperfctr_open";
	v = vperfctr_open();
	if (!v)
		goto fail;
	what = "perfctr_info";
	if (perfctr_info(0, &marker_info))
		goto fail_v;
	what = "vperfctr_read_state";
	if (vperfctr_read_state(v, NULL, &c))
		goto fail_v;
	if (!control_on(&c)) {
		memset(&c, 0, sizeof(c));
		c.cpu_control.tsc_on = 1;
		c.flags = VPERFCTR_CONTROL_INHERIT_THREAD;
		if (env_events(&c, &ev, why, sizeof(why)))
			goto fail_v;
		what = "vperfctr_control";
		if (vperfctr_control(v, &c))
			goto fail_v;
	}
	marker_control = c;
	marker_npmcs = control_npmcs(&c);
	what = "pthread_key_create";
	err = pthread_key_create(&marker_key, thread_exit);
	if (err) {
		errno = err;
		goto fail_v;
	}
	names_init(&ev);
	__atomic_store_n(&marker_state, MARKER_ON, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&marker_lock);
	if (!marker_self && thread_add(v)) {
		err = errno;
		perfctr_marker_close();
		errno = err;
		what = "thread_add";
		goto say;
	}
	if (!marker_atexit_done++)
		atexit(marker_atexit);
	return 0;
fail_v:
	err = errno;
	vperfctr_close(v);
	errno = err;
fail:
	pthread_mutex_unlock(&marker_lock);
say:
	if (!*why)
		snprintf(why, sizeof(why), "%s: %s", what,
			 perfctr_strerror(errno, marker_info.cpu_khz ? &marker_info : NULL));
	marker_say(why);
	return -1;
}

/* Create the region in the calling thread: its first start makes no system call. */
int perfctr_marker_register(const char *name)
{
	if (!marker_self && perfctr_marker_thread_init())
		return -1;
	return region_get(marker_self, name) ? 0 : -1;
}

int perfctr_marker_start(const char *name)
{
	struct mthread *t = marker_self;
	struct mregion *r;

	if (__builtin_expect(!t, 0)) {
		if (perfctr_marker_thread_init())
			return -1;
		t = marker_self;
	}
	r = region_get(t, name);
	if (!r)
		return -1;
	if (r->running) {
		errno = EALREADY;
		return -1;
	}
	/* Last: what follows the read is the same for every region. */
	if (vperfctr_read_ctrs(t->v, &r->start))
		return -1;
	r->running = 1;
	return 0;
}

int perfctr_marker_stop(const char *name)
{
	struct mthread *t = marker_self;
	struct perfctr_sum_ctrs now;
	struct mregion *r;
	unsigned int i;

	if (!t) {
		errno = EINVAL;
		return -1;
	}
	/* First: what precedes the read is the same for every region. */
	if (vperfctr_read_ctrs(t->v, &now))
		return -1;
	if (!name_ok(name)) {
		errno = EINVAL;
		return -1;
	}
	r = region_find(t, name);
	if (!r) {
		errno = ENOENT;
		return -1;
	}
	if (!r->running) {
		errno = EINVAL;
		return -1;
	}
	r->running = 0;
	r->sum.count++;
	r->sum.tsc += now.tsc - r->start.tsc;
	for (i = 0; i < marker_npmcs; i++)
		r->sum.pmc[i] += now.pmc[i] - r->start.pmc[i];
	return 0;
}

static struct mregion *own_region(const char *name)
{
	struct mregion *r;

	if (!marker_self || !name_ok(name)) {
		errno = EINVAL;
		return NULL;
	}
	r = region_find(marker_self, name);
	if (!r)
		errno = ENOENT;
	return r;
}

int perfctr_marker_get(const char *name, struct perfctr_marker_counts *counts)
{
	struct mregion *r = own_region(name);

	if (!r)
		return -1;
	*counts = r->sum;
	return 0;
}

int perfctr_marker_reset(const char *name)
{
	struct mregion *r = own_region(name);

	if (!r)
		return -1;
	memset(&r->sum, 0, sizeof(r->sum));
	r->sum.nrpmcs = marker_npmcs;
	return 0;
}

static double tsc_seconds(unsigned long long tsc)
{
	unsigned int mult = marker_info.tsc_to_cpu_mult ? marker_info.tsc_to_cpu_mult : 1;

	if (!marker_info.cpu_khz)
		return 0;
	return (double)tsc * mult / (marker_info.cpu_khz * 1000.0);
}

void perfctr_marker_get_likwid(const char *name, int *nevents, double *events, double *time,
			       int *count)
{
	struct perfctr_marker_counts c;
	int i, n;

	if (perfctr_marker_get(name, &c)) {
		if (nevents)
			*nevents = 0;
		return;
	}
	n = nevents ? *nevents : 0;
	if (n > (int)c.nrpmcs)
		n = c.nrpmcs;
	for (i = 0; i < n && events; i++)
		events[i] = (double)c.pmc[i];
	if (nevents)
		*nevents = n;
	if (time)
		*time = tsc_seconds(c.tsc);
	if (count)
		*count = (int)c.count;
}

/*
 * Output.  The regions in the order of their first appearance (thread
 * 0's first), each thread's sums and their total.
 */
struct mrow {
	const char *name;
	struct perfctr_marker_counts sum;
};

static void add_counts(struct perfctr_marker_counts *to, const struct perfctr_marker_counts *c)
{
	unsigned int i;

	to->count += c->count;
	to->tsc += c->tsc;
	for (i = 0; i < marker_npmcs; i++)
		to->pmc[i] += c->pmc[i];
	to->nrpmcs = marker_npmcs;
}

/* The distinct region names, each with the sums of all threads. */
static struct mrow *totals(unsigned int *nrows)
{
	struct mrow *rows = NULL, *p;
	struct mthread *t;
	unsigned int n = 0, i, j;

	for (t = marker_threads; t; t = t->next)
		for (i = 0; i < t->nregions; i++) {
			for (j = 0; j < n; j++)
				if (!strcmp(rows[j].name, t->regions[i].name))
					break;
			if (j == n) {
				p = realloc(rows, (n + 1) * sizeof(*rows));
				if (!p) {
					free(rows);
					return NULL;
				}
				rows = p;
				memset(&rows[n], 0, sizeof(rows[n]));
				rows[n++].name = t->regions[i].name;
			}
			add_counts(&rows[j].sum, &t->regions[i].sum);
		}
	*nrows = n;
	if (!rows)
		rows = calloc(1, sizeof(*rows));
	return rows;
}

/* A row of the outputs: @thread is the thread's number or "all"; @tid 0 for "all". */
typedef void row_fn(FILE *f, const char *sep, int w, const char *name, const char *thread,
		    int tid, const struct perfctr_marker_counts *c);

/* Each region's rows: one per thread that used it, then their sum. */
static void print_rows(FILE *f, const char *sep, int w, const struct mrow *rows,
		       unsigned int nrows, row_fn *row)
{
	struct mthread *t;
	struct mregion *r;
	unsigned int k;
	char idx[16];

	for (k = 0; k < nrows; k++) {
		for (t = marker_threads; t; t = t->next) {
			r = region_find(t, rows[k].name);
			if (!r)
				continue;
			snprintf(idx, sizeof(idx), "%d", t->index);
			row(f, sep, w, r->name, idx, t->tid, &r->sum);
		}
		row(f, sep, w, rows[k].name, "all", 0, &rows[k].sum);
	}
}

static void print_text_row(FILE *f, const char *sep, int w, const char *name, const char *thread,
			   int tid, const struct perfctr_marker_counts *c)
{
	unsigned int i;
	char buf[16] = "-";

	if (tid)
		snprintf(buf, sizeof(buf), "%d", tid);
	fprintf(f, "%-*s %6s %8s %12llu %18llu %12.6f", w, name, thread, buf, c->count, c->tsc,
		tsc_seconds(c->tsc));
	for (i = 0; i < marker_npmcs; i++)
		fprintf(f, " %18llu", c->pmc[i]);
	fputc('\n', f);
}

static void print_text(FILE *f, const struct mrow *rows, unsigned int nrows)
{
	unsigned int i, k;
	int w = 6;

	for (k = 0; k < nrows; k++)
		if ((int)strlen(rows[k].name) > w)
			w = strlen(rows[k].name);
	fprintf(f, "perfctr marker: %u regions, %d threads (TSC at %u kHz)\n", nrows,
		marker_nthreads, marker_info.cpu_khz /
		(marker_info.tsc_to_cpu_mult ? marker_info.tsc_to_cpu_mult : 1));
	fprintf(f, "%-*s %6s %8s %12s %18s %12s", w, "region", "thread", "tid", "calls", "tsc",
		"tsc seconds");
	for (i = 0; i < marker_npmcs; i++)
		fprintf(f, " %18s", marker_names[i]);
	fputc('\n', f);
	print_rows(f, NULL, w, rows, nrows, print_text_row);
}

/* A data line's region, thread and tid fields, each followed by @sep. */
static void csv_line_head(FILE *f, const char *sep, const char *name, const char *thread, int tid)
{
	perfctr_csv_field(f, name, sep);
	fprintf(f, "%s%s%s", sep, thread, sep);
	if (tid)
		fprintf(f, "%d", tid);
	fputs(sep, f);
}

static void print_csv_row(FILE *f, const char *sep, int w, const char *name, const char *thread,
			  int tid, const struct perfctr_marker_counts *c)
{
	unsigned int i;

	csv_line_head(f, sep, name, thread, tid);
	fprintf(f, "%llu%s%llu%s%.6f", c->count, sep, c->tsc, sep, tsc_seconds(c->tsc));
	for (i = 0; i < marker_npmcs; i++)
		fprintf(f, "%s%llu", sep, c->pmc[i]);
	fputc('\n', f);
}

static void print_csv(FILE *f, const char *sep, const struct mrow *rows, unsigned int nrows)
{
	unsigned int i;

	fprintf(f, "region%sthread%stid%scalls%stsc%stsc_seconds", sep, sep, sep, sep, sep);
	for (i = 0; i < marker_npmcs; i++) {
		fputs(sep, f);
		if (strstr(marker_names[i], sep) || strchr(marker_names[i], '"'))
			fprintf(f, "pmc%u", i);
		else
			fputs(marker_names[i], f);
	}
	fputc('\n', f);
	print_rows(f, sep, 0, rows, nrows, print_csv_row);
}

/*
 * A row as data lines, one per number: region, thread and tid, then
 * perf stat -x's value, unit and event (calls, tsc, tsc_seconds, the
 * events); no header.
 */
static void print_csv_lines_row(FILE *f, const char *sep, int w, const char *name,
				const char *thread, int tid, const struct perfctr_marker_counts *c)
{
	unsigned int i;

	(void)w;
	csv_line_head(f, sep, name, thread, tid);
	fprintf(f, "%llu%s%scalls\n", c->count, sep, sep);
	csv_line_head(f, sep, name, thread, tid);
	fprintf(f, "%llu%s%stsc\n", c->tsc, sep, sep);
	csv_line_head(f, sep, name, thread, tid);
	fprintf(f, "%.6f%ss%stsc_seconds\n", tsc_seconds(c->tsc), sep, sep);
	for (i = 0; i < marker_npmcs; i++) {
		csv_line_head(f, sep, name, thread, tid);
		fprintf(f, "%llu%s%s", c->pmc[i], sep, sep);
		perfctr_csv_field(f, marker_names[i], sep);
		fputc('\n', f);
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_counts(FILE *f, const struct perfctr_marker_counts *c)
{
	unsigned int i;

	fprintf(f, "\"calls\": %llu, \"tsc\": %llu, \"tsc_seconds\": %.6f, \"counts\": [",
		c->count, c->tsc, tsc_seconds(c->tsc));
	for (i = 0; i < marker_npmcs; i++)
		fprintf(f, "%s%llu", i ? ", " : "", c->pmc[i]);
	fputc(']', f);
}

static void print_json(FILE *f, const struct mrow *rows, unsigned int nrows)
{
	struct mthread *t;
	struct mregion *r;
	unsigned int i, k;
	int n;

	fprintf(f, "{\"format\": 1, \"cpu_khz\": %u, \"threads\": %d, \"events\": [",
		marker_info.cpu_khz, marker_nthreads);
	for (i = 0; i < marker_npmcs; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, marker_names[i]);
	}
	fputs("], \"regions\": [", f);
	for (k = 0; k < nrows; k++) {
		fprintf(f, "%s{\"region\": ", k ? ", " : "");
		json_string(f, rows[k].name);
		fputs(", \"threads\": [", f);
		n = 0;
		for (t = marker_threads; t; t = t->next) {
			r = region_find(t, rows[k].name);
			if (!r)
				continue;
			fprintf(f, "%s{\"thread\": %d, \"tid\": %d, ", n++ ? ", " : "",
				t->index, t->tid);
			json_counts(f, &r->sum);
			fputc('}', f);
		}
		fputs("], \"total\": {", f);
		json_counts(f, &rows[k].sum);
		fputs("}}", f);
	}
	fputs("]}\n", f);
}

/*
 * Every thread's regions to @f.  Threads still running regions must not
 * run meanwhile: their sums are read without a lock.
 */
int perfctr_marker_write(FILE *f, int format, const char *sep)
{
	unsigned int nrows;
	struct mrow *rows;

	if (!f || format < PERFCTR_MARKER_TEXT || format > PERFCTR_MARKER_CSV_LINES ||
	    marker_state == MARKER_NONE) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&marker_lock);
	rows = totals(&nrows);
	if (rows) {
		if (format == PERFCTR_MARKER_TEXT)
			print_text(f, rows, nrows);
		else if (format == PERFCTR_MARKER_CSV)
			print_csv(f, sep && *sep ? sep : ",", rows, nrows);
		else if (format == PERFCTR_MARKER_CSV_LINES)
			print_rows(f, sep && *sep ? sep : ",", 0, rows, nrows,
				   print_csv_lines_row);
		else
			print_json(f, rows, nrows);
	}
	pthread_mutex_unlock(&marker_lock);
	free(rows);
	if (!rows)
		return -1;
	if (fflush(f) || ferror(f)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/*
 * PERFCTR_MARKER_OUTPUT's file of this process: each %p the pid, %% a %.
 * NULL (errno ENAMETOOLONG) if it does not fit @size.
 */
static char *output_name(const char *pattern, char *buf, size_t size)
{
	size_t n = 0;
	int len;

	for (; *pattern; pattern++) {
		if (pattern[0] == '%' && (pattern[1] == 'p' || pattern[1] == '%')) {
			pattern++;
			if (*pattern == 'p')
				len = snprintf(buf + n, size - n, "%d", (int)getpid());
			else
				len = snprintf(buf + n, size - n, "%%");
		} else {
			len = snprintf(buf + n, size - n, "%c", *pattern);
		}
		if (len < 0 || (size_t)len >= size - n) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		n += len;
	}
	buf[n] = 0;
	return buf;
}

/* PERFCTR_MARKER_FORMAT's format, text if unset; a bad one said so. */
static int output_format(void)
{
	const char *fmt = getenv("PERFCTR_MARKER_FORMAT");

	if (fmt && !strcmp(fmt, "csv"))
		return PERFCTR_MARKER_CSV;
	if (fmt && !strcmp(fmt, "json"))
		return PERFCTR_MARKER_JSON;
	if (fmt && !strcmp(fmt, "csv-lines"))
		return PERFCTR_MARKER_CSV_LINES;
	if (fmt && *fmt && strcmp(fmt, "text"))
		fprintf(stderr,
			"perfctr marker: PERFCTR_MARKER_FORMAT=%s: not text, csv, csv-lines or json\n",
			fmt);
	return PERFCTR_MARKER_TEXT;
}

/* The results to the file @name ("-": standard error), in PERFCTR_MARKER_FORMAT. */
int marker_write_file(const char *name)
{
	int format = output_format(), ret, err;
	FILE *f = stderr;

	if (!name || !*name) {
		errno = EINVAL;
		return -1;
	}
	if (marker_state == MARKER_NONE) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(name, "-")) {
		f = fopen(name, "w");
		if (!f)
			return -1;
	}
	ret = perfctr_marker_write(f, format, getenv("PERFCTR_MARKER_SEP"));
	err = errno;
	if (f != stderr && fclose(f) && !ret) {
		ret = -1;
		err = errno;
	}
	errno = err;
	return ret;
}

/*
 * Ends the marker; the results, once, to PERFCTR_MARKER_OUTPUT's file if
 * it is set (none otherwise).  Called at exit if the program did not.
 */
int perfctr_marker_close(void)
{
	const char *out = getenv("PERFCTR_MARKER_OUTPUT");
	char name[4096];
	int ret = 0, err = 0;

	if (marker_state != MARKER_ON) {
		errno = EINVAL;
		return -1;
	}
	if (out && *out) {
		ret = output_name(out, name, sizeof(name)) ? marker_write_file(name) : -1;
		err = errno;
	}
	__atomic_store_n(&marker_state, MARKER_CLOSED, __ATOMIC_RELEASE);
	errno = err;
	return ret;
}

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the patched kernel and run perfctr_bench in the guest
# (perfctr against perf_events, same boot; each part of a state's memory
# from its memory cgroup), then papi_bench (PAPI's perfctr component
# against its perf_event component), on x86_64 and ppc64.  The bench kernels are
# built without the debug checkers of the test kernels (KASAN, lockdep,
# ...), which would weigh on the system calls, not the hooks.  The cost
# of each counter setup, in instructions per context switch on x86_64 and
# ppc64, is counted exactly by the clock under QEMU's -icount (which
# advances one nanosecond per instruction, kernel included); so is the
# cost of the series when unused, against the unpatched kernel of the
# same configuration (ppc64; x86_64 too with BENCH_FULL).
# Writes bench/results.md and bench/results.json.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# make bench builds three kernels beyond make check's: the x86_64 and
# ppc64 bench kernels and the unpatched ppc64 one, whose instructions per
# switch judge the unused series exactly.  BENCH_FULL=1 adds the timed
# unused-series boots (x86_64 and ppc64: unpatched, PERFCTR=n and unused,
# five and three boots each; their differences are within TCG's
# boot-to-boot noise) and the PERFCTR=n kernels: about an hour more.
full=${BENCH_FULL:-0}
bash "$TOP/scripts/build-kernel.sh" x86_64 bench
bash "$TOP/scripts/build-kernel.sh" ppc64 bench
bash "$TOP/scripts/build-kernel.sh" ppc64 bench-base
if ((full)); then
	bash "$TOP/scripts/build-kernel.sh" x86_64 bench-base
	bash "$TOP/scripts/build-kernel.sh" x86_64 bench-off
	bash "$TOP/scripts/build-kernel.sh" ppc64 bench-off
fi
tmp=$CACHE/bench
rm -rf "$tmp"
mkdir -p "$tmp" "$TOP/bench"
run() {	# arch cpu mode out
	bash "$TOP/scripts/run-tests.sh" "$1" "$2" "$3" > "$4" ||
		{ cat "$4"; die "benchmark boot $1/$2 $3 failed"; }
}
# x86_64 under -cpu max (TSC only: no x86 PMU counts under TCG), then
# ppc64 under POWER9 (TSC = timebase, and PMCs that count).
run x86_64 max bench "$tmp/x86_64.patched.txt"
run ppc64 POWER9 bench "$tmp/ppc64.patched.txt"
# PAPI through its perfctr component against its perf_event component
# (tools/papi/tests/papi_bench.c; PAPI built for the guests as make check
# builds it, and cached), on the same bench kernels.
run x86_64 max papi-bench "$tmp/x86_64.papi.txt"
run ppc64 POWER9 papi-bench "$tmp/ppc64.papi.txt"
# libperfctr's marker regions against a perf_event read() pair
# (tools/lib/perfctr/tests/marker_bench.c): time on both, instructions
# where perf_event's hardware counter counts (ppc64).
run x86_64 max bench-marker "$tmp/x86_64.marker.txt"
run ppc64 POWER9 bench-marker "$tmp/ppc64.marker.txt"
# Instructions per switch with each setup of the timed switch rows,
# counted by the clock under QEMU's -icount shift=0 (one CPU): exact, so
# one boot each.
run x86_64 max bench-icount "$tmp/x86_64.icount.txt"
run ppc64 POWER9 bench-icount "$tmp/ppc64.icount.txt"
if ((full)); then
	# The kernels booted in turn; each kernel's median boot is kept.
	for i in 1 2 3 4 5; do
		for m in base off switch; do
			run x86_64 max "bench-$m" "$tmp/x86_64.$m.$i.txt"
		done
		if ((i <= 3)); then
			for m in base off switch; do
				run ppc64 POWER9 "bench-$m" "$tmp/ppc64.$m.$i.txt"
			done
		fi
	done
fi
# The unused series, exactly: the row without counters of an icount
# boot of the unpatched bench kernel (and with BENCH_FULL of the
# PERFCTR=n one; and on x86_64, whose bench-base and bench-off kernels
# only BENCH_FULL builds) against the same row of the patched kernel's
# icount boot above.  That row runs first, before any state has turned the
# switch hooks' static branch on: the series built in and unused.
insn_arches=ppc64 insn_kinds="base switch"
((full)) && insn_arches="x86_64 ppc64" insn_kinds="base off switch"
for a in $insn_arches; do
	c=POWER9; [[ $a == x86_64 ]] && c=max
	for m in $insn_kinds; do
		[[ $m == switch ]] || run "$a" "$c" "bench-icount-$m" "$tmp/$a.icount-$m.txt"
	done
done
python3 - "$tmp" "$TOP/bench" "$insn_arches" "$insn_kinds" "$full" <<'PY'
import json, re, sys
tmp, outdir, INSN_ARCHES = sys.argv[1], sys.argv[2], sys.argv[3].split()
INSN_KINDS, FULL = sys.argv[4].split(), sys.argv[5] == '1'
def rows(path):
    for line in open(path):
        if line.startswith('BENCH-JSON '):
            return json.loads(line[len('BENCH-JSON '):])
    sys.exit(f'no results in {path}')
def notes(path):
    return [l[len('BENCH-NOTE '):].strip() for l in open(path) if l.startswith('BENCH-NOTE ')]
def median_boot(arch, prefix, n):
    boots = sorted((rows(f'{tmp}/{arch}.{prefix}.{i}.txt')[0] for i in range(1, n + 1)),
                   key=lambda r: r['median'])
    # The spread shown is across the boots' medians.
    return dict(boots[n // 2], boots=[r['median'] for r in boots],
                min=boots[0]['median'], max=boots[-1]['median'])
runs, md = [], []
names = {'base': 'kernel without the series',
         'off': 'series applied, PERFCTR=n',
         'switch': 'series, no counters in use'}
def insn_rows(arch):
    # The icount boots' row without counters (its figure: the most
    # frequent window), one boot per kernel; the clock counts every
    # instruction, so boots repeat to a few hundredths.
    out, base, ns = [], None, []
    for k in INSN_KINDS:
        p = f'{tmp}/{arch}.icount' + ('' if k == 'switch' else f'-{k}') + '.txt'
        r = next((r for r in rows(p) if r['what'] == 'switch: no counters'), None)
        if r is None:
            sys.exit(f'no row without counters in {p}')
        r = dict(r, group='unused series (icount)', what=f'switch: {names[k]}')
        if base is None:
            base = r
        else:
            r.update(baseline=base['what'], ratio=r['median'] / base['median'],
                     diff=r['median'] - base['median'])
        out.append(r)
        ns.append(f"instructions per switch by the clock, {names[k]}: {r['median']:.2f}"
                  + ('' if r is base else
                     f"; {r['diff']:+.2f} per switch against the unpatched kernel"))
    return out, ns
for arch, cpu, n, kinds in (('x86_64', 'qemu-tcg max', 5, ('off', 'switch')),
                            ('ppc64', 'qemu-tcg pseries POWER9', 3, ('off', 'switch'))):
    patched = rows(f'{tmp}/{arch}.patched.txt')
    extra = []
    if FULL:
        b = dict(median_boot(arch, 'base', n),
                 what=f'switch: kernel without the series (median of {n} boots)')
        extra = [b]
        for k in kinds:
            r = median_boot(arch, k, n)
            extra.append(dict(r, what=f'switch: {names[k]} (median of {n} boots)',
                              baseline=b['what'], ratio=r['median'] / b['median']))
    for r in extra:
        r['group'] = 'unused series'
    allrows = (patched + rows(f'{tmp}/{arch}.papi.txt') + rows(f'{tmp}/{arch}.marker.txt') +
               rows(f'{tmp}/{arch}.icount.txt') + extra)
    runnotes = (notes(f'{tmp}/{arch}.patched.txt') + notes(f'{tmp}/{arch}.papi.txt') +
                notes(f'{tmp}/{arch}.marker.txt') +
                [n for n in notes(f'{tmp}/{arch}.icount.txt') if '(icount)' in n])
    if arch in INSN_ARCHES:
        ins, ins_notes = insn_rows(arch)
        allrows += ins
        runnotes += ins_notes
    runs.append({'arch': arch, 'cpu': cpu, 'rows': allrows, 'notes': runnotes})
    md += [f'{arch} ({cpu}):', '',
           '| group | what | median | spread (min..max) | baseline | ratio |',
           '|---|---|---:|---:|---|---:|']
    for r in allrows:
        ratio = '1' if not r['baseline'] else f"{r['ratio']:.3f} (1/{1 / r['ratio']:.1f})"
        if 'diff' in r:
            ratio = f"{r['ratio']:.4f} ({r['diff']:+.2f} {r['unit']})"
        md.append(f"| {r['group']} | {r['what']} | {r['median']:.3f} {r['unit']} | "
                  f"{r['min']:.3f}..{r['max']:.3f} | {r['baseline'] or '(baseline)'} | {ratio} |")
    md += [f'- {n}' for n in runs[-1]['notes']] + ['']
with open(f'{outdir}/results.json', 'w') as f:
    json.dump({'runs': runs}, f, indent=1)
open(f'{outdir}/results.md', 'w').write('\n'.join(md))
print('\n'.join(md))
PY
log "wrote bench/results.md and bench/results.json"

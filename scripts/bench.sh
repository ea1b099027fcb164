#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the patched kernel and run perfctr_bench in the guest
# (perfctr against perf_events, same boot; each part of a state's memory
# from its memory cgroup), then papi_bench (PAPI's perfctr component
# against its perf_event component), on x86_64 and ppc64.  The bench kernels are
# built without the debug checkers of the test kernels (KASAN, lockdep,
# ...), which would weigh on the system calls, not the hooks.  The cost
# of the series when unused is counted exactly on ppc64, in instructions
# per context switch (the POWER PMU that QEMU emulates counts every
# instruction, kernel included), against the unpatched kernel of the same
# configuration; and the cost of each counter setup, in instructions per
# context switch on x86_64 and ppc64, by the clock under QEMU's -icount.
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
# The ppc64 kernels in instructions per switch: each boot's figure is
# exact, and moves from boot to boot by a few instructions at most,
# whatever the host load; the median boot is kept.
insn_boots=3 insn_kinds="base switch"
((full)) && insn_boots=5 insn_kinds="base off switch"
for ((i = 1; i <= insn_boots; i++)); do
	for m in $insn_kinds; do
		mode=bench-insns-$m; [[ $m == switch ]] && mode=bench-insns
		run ppc64 POWER9 "$mode" "$tmp/ppc64.insns-$m.$i.txt"
	done
done

python3 - "$tmp" "$TOP/bench" "$insn_boots" "$insn_kinds" "$full" <<'PY'
import json, re, sys
tmp, outdir, INSN_BOOTS = sys.argv[1], sys.argv[2], int(sys.argv[3])
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
def insn_rows():
    # Each boot's figure is its most frequent window (no interrupt; see
    # perfctr_bench.c): the row shows the median boot and the spread
    # across the boots.
    out, base, ns = [], None, []
    for k in INSN_KINDS:
        paths = [f'{tmp}/ppc64.insns-{k}.{i}.txt' for i in range(1, INSN_BOOTS + 1)]
        boots, mins, meds, nmode, invol = [], [], [], [], 0
        for p in paths:
            rows(p)
            t = ' '.join(notes(p))
            m = re.search(r'(\d+) windows of \d+ switches, \d+ of them at the minimum '
                          r'([\d.]+), median ([\d.]+), most frequent ([\d.]+) '
                          r'\((\d+) windows\)', t)
            if not m:
                sys.exit(f'no instructions-per-switch note in {p}')
            boots.append(float(m[4]))
            nmode.append(f'{m[5]}/{m[1]}')
            mins.append(float(m[2]))
            meds.append(float(m[3]))
            # Involuntary switches would mean a preempting wakeup.
            invol += sum(int(x) for x in re.findall(r'involuntary switches [^0-9]*(\d+)', t))
            invol += sum(int(x) for x in re.findall(r'of B in the whole run (\d+)', t))
        s = sorted(boots)
        r = {'group': 'instructions per switch',
             'what': f'switch: {names[k]} ({INSN_BOOTS} boots)',
             'unit': 'insns/switch', 'median': s[len(s) // 2], 'min': s[0],
             'max': s[-1], 'boots': boots, 'boot_minima': mins,
             'boot_medians': meds, 'baseline': None, 'ratio': 1.0}
        if base is None:
            base = r
        else:
            r.update(baseline=base['what'], ratio=r['median'] / base['median'],
                     diff=r['median'] - base['median'])
        out.append(r)
        f = lambda v: ', '.join(f'{x:.2f}' for x in v)
        ns.append(f"instructions per switch, {names[k]}: most frequent window per boot "
                  f"{f(boots)} ({nmode and ', '.join(nmode)} windows); minimum window "
                  f"{f(mins)}; median window {f(meds)}; involuntary switches {invol}"
                  + ('' if r is base else
                     f"; {r['diff']:+.2f} per switch against the unpatched kernel "
                     f"(minima {sorted(mins)[len(mins) // 2] - sorted(base['boot_minima'])[len(mins) // 2]:+.2f})"))
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
    allrows = patched + rows(f'{tmp}/{arch}.papi.txt') + rows(f'{tmp}/{arch}.icount.txt') + extra
    runnotes = (notes(f'{tmp}/{arch}.patched.txt') + notes(f'{tmp}/{arch}.papi.txt') +
                [n for n in notes(f'{tmp}/{arch}.icount.txt') if '(icount)' in n])
    if arch == 'ppc64':
        ins, ins_notes = insn_rows()
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

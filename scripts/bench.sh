#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the patched kernel and run perfctr_bench in the guest
# (perfctr against perf_events, same boot), then boot the unpatched kernel
# with the same configuration for the cost of the series when unused.
# Both are built without the debug checkers of the test kernels (KASAN,
# lockdep, ...), which would weigh on the system calls, not the hooks.
# Writes bench/results.md and bench/results.json.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bash "$TOP/scripts/build-kernel.sh" x86_64 bench
bash "$TOP/scripts/build-kernel.sh" x86_64 bench-base
bash "$TOP/scripts/build-kernel.sh" x86_64 bench-off
tmp=$CACHE/bench
mkdir -p "$tmp" "$TOP/bench"
bash "$TOP/scripts/run-tests.sh" x86_64 max bench > "$tmp/patched.txt" ||
	{ cat "$tmp/patched.txt"; die "benchmark run failed"; }
# The unused-series rows compare kernels, so boots: the unpatched
# kernel, the patched one with PERFCTR=n (code layout alone) and the
# patched one with no counters in use, booted in turn five times; each
# kernel's median boot is kept.  Boot-to-boot noise under TCG is several
# per cent.
for i in 1 2 3 4 5; do
	for m in base off switch; do
		bash "$TOP/scripts/run-tests.sh" x86_64 max "bench-$m" > "$tmp/$m.$i.txt" ||
			{ cat "$tmp/$m.$i.txt"; die "benchmark boot bench-$m failed"; }
	done
done

python3 - "$tmp" "$TOP/bench" <<'PY'
import json, sys
def rows(path):
    for line in open(path):
        if line.startswith('BENCH-JSON '):
            return json.loads(line[len('BENCH-JSON '):])
    sys.exit(f'no results in {path}')
def median_boot(prefix):
    boots = sorted((rows(f'{sys.argv[1]}/{prefix}.{i}.txt')[0] for i in range(1, 6)),
                   key=lambda r: r['median'])
    # The spread shown is across the boots' medians.
    return dict(boots[2], boots=[r['median'] for r in boots],
                min=boots[0]['median'], max=boots[-1]['median'])
patched = rows(f'{sys.argv[1]}/patched.txt')
b = dict(median_boot('base'), what='switch: kernel without the series (median of 5 boots)')
o = median_boot('off')
o = dict(o, what='switch: series applied, PERFCTR=n (median of 5 boots)',
         baseline=b['what'], ratio=o['median'] / b['median'])
p = median_boot('switch')
u = dict(p, what='switch: series, no counters in use (median of 5 boots)',
         baseline=b['what'], ratio=p['median'] / b['median'])
allrows = patched + [b, o, u]
for r in (b, o, u):
    r['group'] = 'unused series'
with open(f'{sys.argv[2]}/results.json', 'w') as f:
    json.dump({'arch': 'x86_64', 'cpu': 'qemu-tcg max', 'rows': allrows}, f, indent=1)
out = ['| group | what | median | spread (min..max) | baseline | ratio |',
       '|---|---|---:|---:|---|---:|']
for r in allrows:
    ratio = '1' if not r['baseline'] else f"{r['ratio']:.3f} (1/{1 / r['ratio']:.1f})"
    out.append(f"| {r['group']} | {r['what']} | {r['median']:.3f} {r['unit']} | "
               f"{r['min']:.3f}..{r['max']:.3f} | {r['baseline'] or '(baseline)'} | {ratio} |")
open(f'{sys.argv[2]}/results.md', 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
PY
log "wrote bench/results.md and bench/results.json"

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
tmp=$CACHE/bench
mkdir -p "$tmp" "$TOP/bench"
bash "$TOP/scripts/run-tests.sh" x86_64 max bench > "$tmp/patched.txt" ||
	{ cat "$tmp/patched.txt"; die "benchmark run failed"; }
# The unused-series rows compare two kernels, so two boots: alternate
# them a few times and keep each kernel's median boot.
for i in 1 2 3; do
	bash "$TOP/scripts/run-tests.sh" x86_64 max bench-base > "$tmp/base.$i.txt" ||
		{ cat "$tmp/base.$i.txt"; die "benchmark run on the unpatched kernel failed"; }
	bash "$TOP/scripts/run-tests.sh" x86_64 max bench-switch > "$tmp/switch.$i.txt" ||
		{ cat "$tmp/switch.$i.txt"; die "benchmark run on the patched kernel failed"; }
done

python3 - "$tmp" "$TOP/bench" <<'PY'
import json, sys
def rows(path):
    for line in open(path):
        if line.startswith('BENCH-JSON '):
            return json.loads(line[len('BENCH-JSON '):])
    sys.exit(f'no results in {path}')
def median_boot(prefix):
    boots = sorted((rows(f'{sys.argv[1]}/{prefix}.{i}.txt')[0] for i in (1, 2, 3)),
                   key=lambda r: r['median'])
    return boots[1]
patched = rows(f'{sys.argv[1]}/patched.txt')
b = dict(median_boot('base'), what='switch: no counters, kernel without the series (median of 3 boots)')
p = median_boot('switch')
u = dict(p, what='switch: no counters, kernel with the series (median of 3 boots)',
         baseline=b['what'], ratio=p['median'] / b['median'])
allrows = patched + [b, u]
for r in allrows:
    r['group'] = r['group'] if r is not u and r is not b else 'unused series'
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

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
bash "$TOP/scripts/run-tests.sh" x86_64 max bench-base > "$tmp/base.txt" ||
	{ cat "$tmp/base.txt"; die "benchmark run on the unpatched kernel failed"; }

python3 - "$tmp/patched.txt" "$tmp/base.txt" "$TOP/bench" <<'PY'
import json, sys
def rows(path):
    for line in open(path):
        if line.startswith('BENCH-JSON '):
            return json.loads(line[len('BENCH-JSON '):])
    sys.exit(f'no results in {path}')
patched, base = rows(sys.argv[1]), rows(sys.argv[2])
b = base[0]
b = dict(b, what='switch: no counters, kernel without the series')
p = next(r for r in patched if r['what'] == 'switch: no counters')
u = dict(p, what='switch: no counters, kernel with the series',
         baseline=b['what'], ratio=p['median'] / b['median'])
allrows = patched + [b, u]
for r in allrows:
    r['group'] = r['group'] if r is not u and r is not b else 'unused series'
with open(f'{sys.argv[3]}/results.json', 'w') as f:
    json.dump({'arch': 'x86_64', 'cpu': 'qemu-tcg max', 'rows': allrows}, f, indent=1)
out = ['| group | what | median | spread (min..max) | baseline | ratio |',
       '|---|---|---:|---:|---|---:|']
for r in allrows:
    ratio = '1' if not r['baseline'] else f"{r['ratio']:.3f} (1/{1 / r['ratio']:.1f})"
    out.append(f"| {r['group']} | {r['what']} | {r['median']:.3f} {r['unit']} | "
               f"{r['min']:.3f}..{r['max']:.3f} | {r['baseline'] or '(baseline)'} | {ratio} |")
open(f'{sys.argv[3]}/results.md', 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
PY
log "wrote bench/results.md and bench/results.json"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "docs": the series' documentation as the kernel builds it.
#  - scripts/kernel-doc -none -Wall on every new header and source file
#    with kernel-doc comments: no warning;
#  - Sphinx (the kernel's own "make htmldocs" with SPHINXDIRS) on the
#    perfctr pages: Documentation/userspace-api/perfctr/ as it is, and
#    the three single pages (driver-api, arch/x86, arch/powerpc) gathered
#    in a scratch directory of a hard-linked copy of the tree, because
#    SPHINXDIRS takes directories and their own directories are large.
#    The kernel-doc directives run too.  No warning or error may name a
#    perfctr file (other warnings -- the missing dot(1), duplicate ABI
#    entries -- are the base tree's, and are ignored).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/src
[[ -d $src ]] || die "no patched tree: run scripts/apply.sh"
group="docs"
p=0 f=0
ok() { echo "$group: ok - $*"; p=$((p + 1)); }
notok() { echo "$group: not ok - $*"; f=$((f + 1)); }

files=(include/uapi/linux/perfctr.h arch/x86/include/uapi/asm/perfctr.h
       arch/powerpc/include/uapi/asm/perfctr.h include/linux/perfctr.h
       kernel/perfctr/*.c arch/x86/perfctr/*.c arch/powerpc/perfctr/*.c)
for file in "${files[@]}"; do
	for path in "$src"/$file; do
		rel=${path#"$src"/}
		out=$("$src/scripts/kernel-doc" -none -Wall "$path" 2>&1)
		if [[ -z $out ]]; then
			ok "kernel-doc -Wall $rel"
		else
			echo "$out" | head -10
			notok "kernel-doc -Wall $rel"
		fi
	done
done

stage=$CACHE/docs-stage out=$CACHE/build/docs
rm -rf "$stage" "$out"
cp -al "$src" "$stage"
mkdir -p "$stage/Documentation/perfctr-pages" "$out"
for page in driver-api/perfctr.rst arch/x86/perfctr.rst arch/powerpc/perfctr.rst; do
	name=${page%/perfctr.rst}
	name=${name//\//-}
	cp "$src/Documentation/$page" "$stage/Documentation/perfctr-pages/$name.rst"
done
cat > "$stage/Documentation/perfctr-pages/index.rst" <<'EOF'
=============
perfctr pages
=============

.. toctree::

   driver-api
   arch-x86
   arch-powerpc
EOF
for dir in userspace-api/perfctr perfctr-pages; do
	log=$out/${dir//\//-}.log
	if ! make -C "$stage" O="$out" SPHINXDIRS="$dir" htmldocs > "$log" 2>&1; then
		tail -20 "$log"
		notok "sphinx $dir (make htmldocs failed)"
		continue
	fi
	bad=$(grep -E 'WARNING|ERROR|CRITICAL' -A2 "$log" |
	      grep -E -B2 'perfctr[-_a-z0-9]*\.(rst|h|c)|/perfctr/[-_a-z0-9]+\.(rst|h|c)|perfctr-pages' || true)
	if [[ -z $bad ]] && [[ -n $(find "$out/Documentation/output/$dir" -name '*.html' 2>/dev/null) ]]; then
		ok "sphinx $dir: built, no warning on a perfctr file"
	else
		echo "$bad" | head -20
		notok "sphinx $dir: built, no warning on a perfctr file"
	fi
done
# The kernel-doc directives pulled the uapi structures in.
if grep -q 'vperfctr_children' "$out/Documentation/output/userspace-api/perfctr/virtual.html" 2>/dev/null &&
   grep -q 'perfctr_cpu_control' "$out/Documentation/output/perfctr-pages/arch-x86.html" 2>/dev/null; then
	ok "kernel-doc directives rendered the uapi structures"
else
	notok "kernel-doc directives rendered the uapi structures"
fi
rm -rf "$stage"

echo "$group: $p passed, $f failed"
[[ -n ${RESULTS:-} ]] && echo "docs sphinx $p $f" >> "$RESULTS"
((f == 0))

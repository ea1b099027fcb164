#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# PAPI as a site installs it: tools/papi/build.sh --prefix (and
# --components example) into a temporary prefix on the host, its build
# directory deleted afterwards (no run path may name it),
# then, without LD_LIBRARY_PATH: the installed papi_component_avail lists
# the perfctr component (active, or disabled with a "perfctr: " reason:
# the host kernel has no perfctr), and a program built the way a tool
# configured --with-papi=PREFIX builds (-I PREFIX/include -L PREFIX/lib
# -Wl,-rpath,PREFIX/lib -lpapi) initialises PAPI, finds the component
# and reads the virtual timer.
#
#   check-papi-install.sh      prints one line per case and
#                              "papi install: N passed, N failed"
set -uo pipefail
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "$CACHE/papi-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
pfx=$work/prefix
pass=0 fail=0

result() {	# ok|not name [detail file]
	if [[ $1 == ok ]]; then
		pass=$((pass + 1)); echo "papi install: ok - $2"
	else
		fail=$((fail + 1)); echo "papi install: not ok - $2"
		[[ -n ${3:-} && -f $3 ]] && tail -5 "$3" | sed 's/^/#   /'
	fi
}

# 1. build.sh --prefix builds and installs, with another of PAPI's
# components besides (example: PAPI's own, needing nothing).
if MAKE_JOBS=${MAKE_JOBS:-2} bash "$TOP/tools/papi/build.sh" --prefix "$pfx" \
	--components example "$work/build" \
	> "$work/build.log" 2>&1 &&
   [[ -x $pfx/bin/papi_component_avail && -f $pfx/include/papi.h && -e $pfx/lib/libpapi.so ]]; then
	result ok "build.sh --prefix installs papi.h, libpapi.so and the utilities"
else
	result not "build.sh --prefix installs papi.h, libpapi.so and the utilities" "$work/build.log"
fi
rm -rf "$work/build"

# 1b. Nothing installed looks for libraries in the build directory: no
# RUNPATH or RPATH names it (it is gone, and was somebody's home).
st=ok
for f in "$pfx"/bin/* "$pfx"/lib/libpapi.so*; do
	[[ -f $f ]] || continue
	head -c4 "$f" | grep -q ELF || continue
	rp=$(readelf -d "$f" 2>/dev/null | grep -E 'R(UN)?PATH' || true)
	if [[ $rp == *"$work/build"* ]]; then
		echo "#   ${f#"$pfx"/}: $rp"
		st=not
	fi
done
result $st "no installed file has a run path into the build directory"

# 2. The installed utility runs from the prefix alone and names the
# component.
if env -u LD_LIBRARY_PATH "$pfx/bin/papi_component_avail" > "$work/avail.log" 2>&1 &&
   { grep -A1 '^Name: *perfctr' "$work/avail.log" | grep -q 'Disabled: perfctr: ' ||
     sed -n '/^Active components:/,$p' "$work/avail.log" | grep -q '^Name: *perfctr'; }; then
	result ok "the installed papi_component_avail lists perfctr (no LD_LIBRARY_PATH)"
	grep -A1 '^Name: *perfctr' "$work/avail.log" | head -2 | sed 's/^/#   /'
else
	result not "the installed papi_component_avail lists perfctr (no LD_LIBRARY_PATH)" "$work/avail.log"
fi
if grep -q '^Name: *example' "$work/avail.log"; then
	result ok "build.sh --components example: the other component is built too"
else
	result not "build.sh --components example: the other component is built too" "$work/avail.log"
fi

# 3. A program built against the prefix, as --with-papi=PREFIX does.
cat > "$work/use.c" <<'EOF'
#include <papi.h>
#include <stdio.h>
int main(void)
{
	long long t0, t1;
	volatile unsigned long x = 0;
	unsigned long i;

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	if (PAPI_get_component_index("perfctr") < 0)
		return 2;
	t0 = PAPI_get_virt_usec();
	for (i = 0; i < 50000000UL; i++)
		x += i;
	t1 = PAPI_get_virt_usec();
	printf("virtual usec %lld\n", t1 - t0);
	return t1 > t0 ? 0 : 3;
}
EOF
if gcc -O2 -I"$pfx/include" -o "$work/use" "$work/use.c" -L"$pfx/lib" -Wl,-rpath,"$pfx/lib" -lpapi \
	> "$work/use.log" 2>&1 &&
   env -u LD_LIBRARY_PATH "$work/use" >> "$work/use.log" 2>&1; then
	result ok "a program linked -Wl,-rpath,PREFIX/lib -lpapi finds perfctr and its timer runs"
else
	result not "a program linked -Wl,-rpath,PREFIX/lib -lpapi finds perfctr and its timer runs" "$work/use.log"
fi
echo "papi install: $pass passed, $fail failed"
if [[ -n ${RESULTS:-} ]]; then echo "papi install $pass $fail" >> "$RESULTS"; fi
((fail == 0))

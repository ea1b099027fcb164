#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/deb.sh on the host, without building a kernel (a minute or two):
# its configuration step on Debian's own amd64 configuration (from the
# linux-config-7.3 package, unpacked into the cache, with the certificate
# names of a Debian /boot/config put back) against the applied tree, out of
# tree so that the tree is not touched.  The library's packages, make
# deb's other step (deb.sh libdeb), are check-debsrc.sh's.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

src=$CACHE/src
[[ -f $src/kernel/perfctr/Kconfig ]] || die "no applied tree in $src: run make apply"
work=$CACHE/deb-check
rm -rf "$work"
mkdir -p "$work"
export PERFCTR_NO_INSTALL=1	# deb.sh: never apt-get install here

n=0 p=0 f=0
ok() { n=$((n + 1)); p=$((p + 1)); echo "ok $n $1"; }
nok() { n=$((n + 1)); f=$((f + 1)); echo "not ok $n $1"; shift; local l; for l in "$@"; do echo "# $l"; done; }
finish() {
	echo "deb: $p passed, $f failed"
	[[ -n ${RESULTS:-} ]] && echo "deb host $p $f" >> "$RESULTS"
	((f == 0))
	exit
}
val() { local v; v=$(grep -m1 "^$2=" "$1" | cut -d= -f2-); echo "${v:-n}"; }

# Debian's configuration: linux-config-7.3 of the base's version, as
# setup.sh fetches linux-source-7.3 (apt-get download into the cache).
ver=$(cat "$CACHE/base-version" 2>/dev/null || true)
deb=$(ls "$CACHE"/deb/linux-config-7.3_*.deb 2>/dev/null | head -n1 || true)
if [[ -z $deb ]]; then
	mkdir -p "$CACHE/deb"
	get() { (cd "$CACHE/deb" && apt-get download -qq "linux-config-7.3${ver:+=$ver}" >/dev/null 2>&1 ||
		 apt-get download -qq linux-config-7.3 >/dev/null 2>&1); }
	get || { [[ $(id -u) == 0 ]] && apt-get update -qq >/dev/null 2>&1 && get; } || true
	deb=$(ls "$CACHE"/deb/linux-config-7.3_*.deb 2>/dev/null | head -n1 || true)
fi
cfgdir=$work/linux-config
amd64=$cfgdir/usr/src/linux-config-7.3/config.amd64_none_amd64.xz
if [[ -n $deb ]] && dpkg-deb -x "$deb" "$cfgdir" && [[ -f $amd64 ]]; then
	ok "linux-config-7.3 $(dpkg-deb -f "$deb" Version): $(basename "$amd64")"
else
	nok "linux-config-7.3's amd64 configuration" "no ${deb:-linux-config-7.3 .deb} or no config.amd64_none_amd64.xz in it"
	finish
fi

# The base: Debian's amd64 configuration with the certificate names that a
# Debian kernel's /boot/config has and linux-config leaves out.
base=$work/config-amd64
xz -dc "$amd64" | sed -e '/^CONFIG_SYSTEM_TRUSTED_KEYS=/d' -e '/CONFIG_SYSTEM_REVOCATION_/d' > "$base"
cat >> "$base" <<'EOT'
CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"
CONFIG_SYSTEM_REVOCATION_LIST=y
CONFIG_SYSTEM_REVOCATION_KEYS="debian/certs/test-revoked-certs.pem"
EOT

# 1. The configuration step, out of tree; the tree must stay as it was.
touch "$work/stamp"
sleep 1
out=$work/o
if bash "$TOP/scripts/deb.sh" SRC="$src" O="$out" config "$base" > "$work/config.log" 2>&1; then
	ok "deb.sh config: Debian's amd64 configuration + perfctr"
else
	nok "deb.sh config: Debian's amd64 configuration + perfctr" "$(grep -v 'note:' "$work/config.log" | tail -6)"
	finish
fi
cfg=$out/.config
for o in CONFIG_PERFCTR CONFIG_PERFCTR_VIRTUAL CONFIG_PERFCTR_INTERRUPT_SUPPORT; do
	[[ $(val "$cfg" $o) == y ]] && ok "$o=y" || nok "$o=y" "$o=$(val "$cfg" $o)"
done
bad=
for o in CONFIG_PERFCTR_X86_KUNIT_TEST CONFIG_PERFCTR_DEBUG_FORBIDDEN CONFIG_KUNIT; do
	[[ $(val "$cfg" $o) == n ]] || bad+=" $o=$(val "$cfg" $o)"
done
[[ -z $bad ]] && ok "test-only options off (KUnit suite, forbidden-CPU knob)" ||
	nok "test-only options off" "on:$bad"
# Debian's own choices, as in the base.
bad=
for o in CONFIG_HARDLOCKUP_DETECTOR CONFIG_HARDLOCKUP_DETECTOR_PERF CONFIG_KVM CONFIG_KVM_INTEL \
	 CONFIG_KVM_AMD CONFIG_PREEMPT_DYNAMIC CONFIG_PREEMPT_LAZY CONFIG_MODULE_SIG \
	 CONFIG_SECURITY_LOCKDOWN_LSM CONFIG_IA32_EMULATION CONFIG_EFI_STUB CONFIG_PERF_EVENTS \
	 CONFIG_NET CONFIG_UNIX CONFIG_LOCALVERSION CONFIG_KERNEL_ZSTD CONFIG_MODULE_COMPRESS_XZ; do
	[[ $(val "$cfg" $o) == "$(val "$base" $o)" ]] || bad+=" $o=$(val "$cfg" $o) (base $(val "$base" $o))"
done
[[ -z $bad ]] && ok "Debian's options kept (KVM=m, HARDLOCKUP_DETECTOR, PREEMPT_DYNAMIC, ...)" ||
	nok "Debian's options kept" "changed:$bad"
mods=$(grep -c '=m$' "$base")
kept=$(comm -12 <(grep '=m$' "$base" | sort) <(grep '=m$' "$cfg" | sort) | wc -l)
((kept * 100 >= mods * 99)) && ok "the base's modules kept: $kept of $mods" ||
	nok "the base's modules kept" "$kept of $mods (less than 99 %)"
if [[ $(val "$base" CONFIG_SYSTEM_TRUSTED_KEYS) == '"debian/certs/debian-uefi-certs.pem"' &&
      $(val "$cfg" CONFIG_SYSTEM_TRUSTED_KEYS) == '""' ]] && ! grep -q '="debian/' "$cfg"; then
	ok "Debian's certificates blanked (SYSTEM_TRUSTED_KEYS, SYSTEM_REVOCATION_KEYS)"
else
	nok "Debian's certificates blanked" "$(grep -E 'TRUSTED_KEYS|REVOCATION_KEYS|="debian/' "$cfg")"
fi
# BTF as pahole allows: kept with pahole >= 1.22, else off and said so.
pv=$(pahole --version 2>/dev/null | sed -n 's/^v\([0-9]*\)\.\([0-9]*\).*/\1\2/p')
if [[ -n $pv ]] && ((pv >= 122)); then want=y; else want=n; fi
if [[ $(val "$cfg" CONFIG_DEBUG_INFO_BTF) == "$want" ]] &&
   { [[ $want == y ]] || grep -q 'DEBUG_INFO_BTF is off' "$work/config.log"; }; then
	ok "DEBUG_INFO_BTF=$want with pahole ${pv:-absent}"
else
	nok "DEBUG_INFO_BTF follows pahole" "pahole ${pv:-absent}: BTF=$(val "$cfg" CONFIG_DEBUG_INFO_BTF)"
fi
# What a configuration writes (not the series' files, which make apply
# may rewrite meanwhile).
changed=$(find "$src" \( -name '.config*' -o -name '.tmp*' -o -name '*.o' -o -name '*.cmd' \
	-o -path "$src/include/config" -o -path "$src/include/generated" \) -newer "$work/stamp" -print -quit)
[[ -z $changed ]] && ok "no configuration output in the applied tree (O=)" ||
	nok "no configuration output in the applied tree" "written: $changed"

# 2. The step refuses what would not give a perfctr kernel.
# refuses N NAME DROP MESSAGE CHECK: the check CHECK, that deb.sh config
# fails with the fragment $work/NAME.config (perfctr-distro.config without
# the lines matching DROP; output in $work/oN, $work/configN.log) and says
# MESSAGE.
refuses() {
	local frag=$work/$2.config log=$work/config$1.log

	grep -v "$3" "$TOP/scripts/config/perfctr-distro.config" > "$frag"
	if ! bash "$TOP/scripts/deb.sh" SRC="$src" O="$work/o$1" PERFCTR_DEB_FRAGMENT="$frag" \
			config "$base" > "$log" 2>&1 &&
	   grep -q "$4" "$log"; then
		ok "$5"
	else
		nok "$5" "$(tail -3 "$log")"
	fi
}
refuses 2 no-perfctr '^CONFIG_PERFCTR' 'CONFIG_PERFCTR=y is missing' \
	"deb.sh config refuses a result without CONFIG_PERFCTR"
refuses 3 keys 'KEYS=' 'names a certificate this tree lacks' \
	"deb.sh config refuses Debian's certificate names"

finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Group "try-setup": make try's set-up (setup.sh --try) takes only what
# the host's try needs.  Run as the unprivileged user "nobody", from a
# copy of the two scripts, into a cache of its own that nobody can reach
# (/var/tmp/perfctr-try-setup: root's home is closed to it; the base
# kernel's download and unpacking stay there, so a warm run takes
# seconds, a cold one a minute or two): it must
# succeed without root (the packages make check installed include make
# try's), leave the machine's apt sources, pins and foreign
# architectures as they were, and leave Linux 7.3's source unpacked.  A
# set-up whose package list names a foreign architecture or a cross
# compiler fails.  Records "try-setup host <passed> <failed>".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

work=${PERFCTR_TRY_SETUP_DIR:-/var/tmp/perfctr-try-setup}
mkdir -p "$work/scripts"
cp "$TOP/scripts/setup.sh" "$TOP/scripts/lib.sh" "$work/scripts/"
p=0 f=0
ok() { p=$((p + 1)); echo "try-setup: ok - $1"; }
nok() { f=$((f + 1)); echo "try-setup: not ok - $1"; }

apt_state() {
	{ find /etc/apt -type f -print0 | sort -z | xargs -0 sha1sum; dpkg --print-foreign-architectures; } 2>/dev/null |
		sha1sum
}

# The package list of --try: the host's packages only.
list=$(sed -n '/^try_pkgs=(/,/^esac/p' "$TOP/scripts/setup.sh")
if [[ -n $list ]] && ! grep -Eq -- '-cross|:i386|:ppc64el|gcc-(powerpc|aarch64|sparc64|riscv64|i686)|papi|meson' <<<"$list"; then
	ok "setup.sh --try lists only the host architecture's packages"
else
	nok "setup.sh --try's package list names foreign or make check's packages:"
	sed 's/^/# /' <<<"$list"
fi

if ! id nobody >/dev/null 2>&1 || ! command -v runuser >/dev/null; then
	nok "no user nobody or no runuser to run make try's set-up unprivileged"
else
	chown -R nobody "$work"
	before=$(apt_state)
	if (cd "$work" && runuser -u nobody -- env PERFCTR_CACHE="$work/cache" HOME="$work" \
		PERFCTR_NO_INSTALL=1 bash "$work/scripts/setup.sh" --try) > "$work.log" 2>&1; then
		ok "setup.sh --try runs as nobody"
	else
		nok "setup.sh --try fails as nobody:"
		sed 's/^/# /' "$work.log"
	fi
	if [[ $(apt_state) == "$before" ]]; then
		ok "apt's sources, pins and architectures unchanged"
	else
		nok "setup.sh --try changed /etc/apt or dpkg's architectures"
	fi
	if [[ -f $work/cache/pristine/Makefile &&
	      $(cat "$work/cache/base-version" 2>/dev/null) == "$(cat "$CACHE/base-version")" ]]; then
		ok "Linux 7.3's source unpacked ($(cat "$work/cache/base-version"))"
	else
		nok "no base kernel in $work/cache/pristine, or not make check's version"
	fi
fi
echo "try-setup: $p passed, $f failed"
[[ -n ${RESULTS:-} ]] && echo "try-setup host $p $f" >> "$RESULTS"
((f == 0))

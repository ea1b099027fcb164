#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Debian packages of a perfctr kernel, and of libperfctr with perfex, for
# a Debian 13 (trixie) machine with trixie-backports (make deb).  The
# kernel is Debian's linux-source-7.3 with the series applied, configured
# from the running kernel's configuration plus perfctr.
#
#   scripts/deb.sh [all]            source, config and build (make deb)
#   scripts/deb.sh deps             (root) trixie-backports if apt lacks it,
#                                   and the build's packages; then build as
#                                   a user
#   scripts/deb.sh source           fetch linux-source-7.3, unpack it into
#                                   DIR and apply the series (patch --fuzz=0)
#   scripts/deb.sh config [BASE]    configure the tree: BASE (default
#                                   /boot/config-$(uname -r); .xz/.gz too)
#                                   + scripts/config/perfctr-distro.config,
#                                   merge_config.sh -m, make olddefconfig,
#                                   then check that perfctr survived
#   scripts/deb.sh build            make bindeb-pkg (linux-image,
#                                   linux-headers, linux-libc-dev), the
#                                   build's module-signing key removed, and
#                                   the library's packages, into DIR
#   scripts/deb.sh libdeb [OUTDIR]  the library's packages alone
#                                   (libperfctr3, libperfctr-dev, perfex):
#                                   dpkg-buildpackage from debian/, lintian
#   scripts/deb.sh secureboot       (root) a root-only signing key in
#                                   /etc/perfctr/secureboot (or KEY= and
#                                   CERT= a site's), the kernel hook that
#                                   signs each perfctr kernel installed
#                                   (scripts/perfctr-sbsign), and the
#                                   installed ones signed
#   scripts/deb.sh SBKEY=k SBCERT=c sign-image DEB
#                                   sign the image inside a built
#                                   linux-image package (build does it when
#                                   SBKEY is set)
#
# Settings, as VAR=value arguments or in the environment:
#   DIR           build directory (default $PERFCTR_CACHE/deb-build)
#   SRC           kernel tree (default DIR/linux-source-7.3)
#   O             configure into this output directory (default: in SRC)
#   LOCALVERSION  appended to the release (7.3.4-perfctr by default)
#   JOBS          parallel jobs (default nproc)
#   DBG=1         also build the big linux-image-*-dbg package
#   LOCALMODCONFIG=1  config: only the modules loaded now (make
#                 localmodconfig): a much shorter build, for this machine
#   FRESH=1       source: unpack again even if the tree is up to date
#   PERFCTR_NO_INSTALL=1  never call apt-get (fail if something is missing)
#   PERFCTR_DEB_FRAGMENT  the perfctr fragment (the checks use it)
#   SBKEY, SBCERT build, sign-image: the Secure Boot key (mode 600, the
#                 user's own) and certificate
#   KEY, CERT     secureboot: install this key and certificate
#   PERFCTR_SB_DIR, PERFCTR_HOOK_DIR, PERFCTR_BOOT  secureboot: where the
#                 key, the hook and the kernels are (/etc/perfctr/secureboot,
#                 /etc/kernel/postinst.d, /boot; the checks move them)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BASE_PKG=linux-source-7.3
BASE_PIN=7.3.4-1~bpo13+1
# What the kernel's bindeb-pkg (scripts/package/mkdebian's Build-Depends),
# Debian's configuration (zstd, BTF through pahole) and libperfctr need.
# Debian 13's libpfm4-dev is 4.13.0+git99: perfex's event names for
# Alder Lake (adl_glc, adl_grt) and Zen 5 (amd64_fam1ah_zen5) too.
deb_pkgs=(build-essential bc bison flex cpio kmod rsync patch xz-utils zstd
	  libelf-dev libdw-dev libssl-dev python3 dwarves debhelper dpkg-dev
	  libpfm4-dev)

while (($#)) && [[ $1 =~ ^(DIR|SRC|O|LOCALVERSION|JOBS|DBG|LOCALMODCONFIG|FRESH|PERFCTR_NO_INSTALL|PERFCTR_DEB_FRAGMENT|SBKEY|SBCERT|KEY|CERT|PERFCTR_SB_DIR|PERFCTR_HOOK_DIR|PERFCTR_BOOT)=(.*)$ ]]; do
	export "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
	shift
done
cmd=${1:-all}
(($#)) && shift
while (($#)) && [[ $1 =~ ^(DIR|SRC|O|LOCALVERSION|JOBS|DBG|LOCALMODCONFIG|FRESH|PERFCTR_NO_INSTALL|PERFCTR_DEB_FRAGMENT|SBKEY|SBCERT|KEY|CERT|PERFCTR_SB_DIR|PERFCTR_HOOK_DIR|PERFCTR_BOOT)=(.*)$ ]]; do
	export "${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
	shift
done

DIR=${DIR:-$CACHE/deb-build}
SRC=${SRC:-$DIR/$BASE_PKG}
JOBS=${JOBS:-$(nproc)}
LOCALVERSION=${LOCALVERSION:-}
FRAG=${PERFCTR_DEB_FRAGMENT:-$TOP/scripts/config/perfctr-distro.config}

can_install() { [[ -z ${PERFCTR_NO_INSTALL:-} && $(id -u) == 0 ]]; }

APT_UPDATED=
apt_update() {
	[[ -n $APT_UPDATED ]] && return 0
	log "apt-get update"
	apt-get update -qq >/dev/null || die "apt-get update failed"
	APT_UPDATED=1
}

# trixie-backports from the archive the machine's own apt sources name (as
# setup.sh does, in the same file), unless apt already knows the package.
apt_sources() {
	local uri list=/etc/apt/sources.list.d/perfctr-backports.sources suites=trixie-backports
	apt-cache policy "$BASE_PKG" 2>/dev/null | grep -q 'Candidate: [0-9]' && return 0
	[[ -f $list ]] && return 0
	can_install || die "apt knows no $BASE_PKG: enable trixie-backports (notes/INSTALL-debian.md)"
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	if [[ -z $uri ]]; then
		uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
	fi
	[[ -n $uri ]] || die "cannot find the Debian archive URI in this machine's apt sources"
	# setup.sh's QEMU comes from bookworm-backports on a Debian 12 machine.
	grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null &&
		suites="$suites bookworm-backports"
	log "adding $suites from the machine's archive"
	cat > "$list" <<EOT
Types: deb
URIs: $uri
Suites: $suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	# Only what is asked for comes from the backports suites.
	: > /etc/apt/preferences.d/perfctr-backports
	for s in $suites; do
		printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$s" \
			>> /etc/apt/preferences.d/perfctr-backports
	done
	APT_UPDATED=
}

install_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	can_install || die "missing packages (apt-get install them as root): ${missing[*]}"
	apt_update
	log "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null || die "cannot install: ${missing[*]}"
}

# The linux-source-7.3 package, in the cache setup.sh uses.
fetch_source() {
	local deb
	mkdir -p "$CACHE/deb"
	deb=$(ls "$CACHE"/deb/${BASE_PKG}_*.deb 2>/dev/null | head -n1 || true)
	if [[ -z $deb ]]; then
		if can_install; then apt_update; apt_sources; apt_update; fi
		(cd "$CACHE/deb" && apt-get download -qq "$BASE_PKG=$BASE_PIN" >/dev/null 2>&1) || {
			log "pinned $BASE_PKG $BASE_PIN is gone; taking the newest $BASE_PKG"
			(cd "$CACHE/deb" && apt-get download -qq "$BASE_PKG" >/dev/null 2>&1) ||
				die "cannot download $BASE_PKG (is trixie-backports enabled?)"
		}
		deb=$(ls "$CACHE"/deb/${BASE_PKG}_*.deb | head -n1)
	fi
	echo "$deb"
}

series_patches() { grep -v '^#\|^[[:space:]]*$' "$TOP/series"; }

# Unpack linux-source-7.3 into DIR and apply the series in series order,
# refusing any fuzz or offset; skipped when the tree already has this
# series on this base (FRESH=1 forces it).
deb_source() {
	local deb ver sum p out
	install_pkgs patch xz-utils
	deb=$(fetch_source)
	ver=$(dpkg-deb -f "$deb" Version)
	sum=$( { echo "$ver"; cat "$TOP/series" "$TOP/localversion-perfctr";
		 for p in $(series_patches); do cat "$TOP/patches/$p"; done; } | sha1sum | cut -c1-40)
	if [[ -z ${FRESH:-} && -f $SRC/.perfctr-series && $(cat "$SRC/.perfctr-series") == "$sum" ]]; then
		log "source: $SRC is $BASE_PKG $ver with this series already"
		return 0
	fi
	log "source: unpacking $BASE_PKG $ver into $SRC"
	mkdir -p "$DIR"
	rm -rf "$SRC" "$DIR/unpack.tmp"
	mkdir -p "$DIR/unpack.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$DIR/unpack.tmp" ./usr/src/$BASE_PKG.tar.xz
	tar -xJf "$DIR/unpack.tmp/usr/src/$BASE_PKG.tar.xz" -C "$DIR/unpack.tmp"
	mv "$DIR/unpack.tmp/$BASE_PKG" "$SRC"
	rm -rf "$DIR/unpack.tmp"
	log "source: applying $(series_patches | wc -l) patches (patch -p1 --fuzz=0)"
	for p in $(series_patches); do
		out=$(patch -p1 --fuzz=0 --forward --no-backup-if-mismatch -d "$SRC" \
			-i "$TOP/patches/$p" 2>&1) || { echo "$out" >&2; die "$p does not apply"; }
		if grep -Ei 'fuzz|offset|hunk.*(fail|ignored)' <<<"$out" >&2; then
			die "$p does not apply cleanly (fuzz or offset)"
		fi
	done
	# The release marker: uname -r ends in -perfctr.
	cp "$TOP/localversion-perfctr" "$SRC/localversion-perfctr"
	echo "$sum" > "$SRC/.perfctr-series"
	log "source: $SRC ready ($(make -s -C "$SRC" kernelversion)$(cat "$SRC/localversion-perfctr"))"
}

# Read a configuration value: the right-hand side, "n" when not set.
cfg_val() {
	local v
	v=$(grep -m1 "^$2=" "$1" | cut -d= -f2-) || true
	echo "${v:-n}"
}

# Check a configured .config (1) against the fragment (2) and the base
# configuration it came from (3); print what is wrong, return 1 if so.
deb_verify() {
	local cfg=$1 frag=$2 base=$3 bad=0 line o v
	# perfctr itself, whatever the fragment says.
	for line in CONFIG_PERFCTR=y CONFIG_PERFCTR_VIRTUAL=y; do
		grep -qx "$line" "$cfg" || {
			log "config: $line is missing from $cfg (now: ${line%%=*}=$(cfg_val "$cfg" "${line%%=*}"))"
			bad=1
		}
	done
	if ! grep -q '^CONFIG_HAVE_PERFCTR=y' "$cfg"; then
		log "config: this architecture has no perfctr driver (HAVE_PERFCTR): x86 and powerpc only"
		bad=1
	fi
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=([ym])$ ]]; then
			grep -qx "$line" "$cfg" || { log "config: $line did not survive olddefconfig"; bad=1; }
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			! grep -q "^${BASH_REMATCH[1]}=" "$cfg" || { log "config: ${BASH_REMATCH[1]} should be off"; bad=1; }
		fi
	done < "$frag"
	# Certificates and keys: empty, the key the build generates, or a file
	# that exists; never Debian's debian/certs/..., which this tree lacks.
	for o in CONFIG_SYSTEM_TRUSTED_KEYS CONFIG_SYSTEM_REVOCATION_KEYS CONFIG_MODULE_SIG_KEY; do
		v=$(cfg_val "$cfg" "$o"); v=${v#\"}; v=${v%\"}
		[[ $v == n || -z $v || $v == certs/signing_key.pem || -f $v || -f $SRC/$v ]] && continue
		log "config: $o=\"$v\" names a certificate this tree lacks (Debian's own): blank it"
		bad=1
	done
	if grep -n '="debian/' "$cfg" >&2; then
		log "config: the options above still name Debian's files"
		bad=1
	fi
	# What olddefconfig had to drop for want of a tool.
	if [[ $(cfg_val "$base" CONFIG_DEBUG_INFO_BTF) == y && $(cfg_val "$cfg" CONFIG_DEBUG_INFO_BTF) != y ]]; then
		log "config: note: DEBUG_INFO_BTF is off (no pahole >= 1.22: apt-get install dwarves, and configure again)"
	fi
	if [[ $(cfg_val "$base" CONFIG_RUST) == y && $(cfg_val "$cfg" CONFIG_RUST) != y ]]; then
		log "config: note: RUST is off (no usable rustc/bindgen): its few Rust drivers are left out"
	fi
	return $bad
}

# Configure SRC (or O) from BASE + the perfctr fragment.
deb_config() {
	local base=${1:-/boot/config-$(uname -r)} out=${O:-$SRC} mk=(make -s -C "$SRC") t
	[[ -f $SRC/Makefile && -f $SRC/kernel/perfctr/Kconfig ]] ||
		die "no perfctr kernel tree at $SRC: run scripts/deb.sh source"
	[[ -r $base ]] || die "no base configuration $base: give one (scripts/deb.sh config FILE)"
	[[ -r $FRAG ]] || die "no fragment $FRAG"
	for t in gcc make flex bison bc; do
		command -v $t >/dev/null || { install_pkgs build-essential flex bison bc; break; }
	done
	if ! command -v pahole >/dev/null && zgrep -q '^CONFIG_DEBUG_INFO_BTF=y' "$base" 2>/dev/null; then
		# BTF (needed by BPF tools) needs pahole: install it, or lose BTF.
		if can_install; then install_pkgs dwarves; fi
	fi
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	[[ $out != "$(cd "$SRC" && pwd)" ]] && mk+=(O="$out")
	case $base in
	*.xz) xz -dc "$base" ;;
	*.gz) gzip -dc "$base" ;;
	*) cat "$base" ;;
	esac > "$out/.config.perfctr-base"
	grep -q '^CONFIG_' "$out/.config.perfctr-base" || die "$base is not a kernel configuration"
	cp "$out/.config.perfctr-base" "$out/.config"
	log "config: $base + $(basename "$FRAG") -> $out/.config"
	KCONFIG_CONFIG=$out/.config "$SRC/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "$FRAG" > "$out/.config.perfctr-merge.log" 2>&1 ||
		{ cat "$out/.config.perfctr-merge.log" >&2; die "merge_config.sh failed"; }
	"${mk[@]}" olddefconfig > "$out/.config.perfctr-olddefconfig.log" 2>&1 ||
		{ cat "$out/.config.perfctr-olddefconfig.log" >&2; die "make olddefconfig failed"; }
	if [[ -n ${LOCALMODCONFIG:-} ]]; then
		[[ -r /proc/modules ]] || die "LOCALMODCONFIG=1 needs the loaded modules (/proc/modules)"
		log "config: keeping only the modules loaded now (localmodconfig)"
		{ yes '' || true; } | "${mk[@]}" localmodconfig > "$out/.config.perfctr-localmod.log" 2>&1 ||
			{ cat "$out/.config.perfctr-localmod.log" >&2; die "make localmodconfig failed"; }
	fi
	deb_verify "$out/.config" "$FRAG" "$out/.config.perfctr-base" ||
		die "the configuration lacks what perfctr needs (see above): $out/.config"
	log "config: ok: $(grep -E '^CONFIG_PERFCTR(_VIRTUAL)?=' "$out/.config" | tr '\n' ' ')the rest as $base ($(diff <(grep '^CONFIG_' "$out/.config.perfctr-base" | sort) <(grep '^CONFIG_' "$out/.config" | sort) | grep -c '^>' || true) lines changed)"
}

# The library's packages, libperfctr3, libperfctr-dev and perfex, from the
# repository's debian/ by dpkg-buildpackage on a copy of its files (the
# build writes into the tree it builds); lintian when it is installed.
deb_libdeb() {
	local outdir=$1 src ver spkg arch b f errs
	install_pkgs build-essential dpkg-dev debhelper libpfm4-dev
	[[ -f $TOP/debian/control && -f $TOP/tools/lib/perfctr/Makefile ]] ||
		die "no debian/ or tools/lib/perfctr in $TOP"
	mkdir -p "$outdir"
	outdir=$(cd "$outdir" && pwd)
	src=$outdir/perfctr-tools
	rm -rf "$src"
	mkdir -p "$src"
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$src"
	else
		tar -C "$TOP" --exclude=.git -cf - . | tar -xf - -C "$src"
	fi
	ver=$(cd "$src" && dpkg-parsechangelog -S Version)
	spkg=$(cd "$src" && dpkg-parsechangelog -S Source)
	arch=$(dpkg --print-architecture)
	log "libdeb: dpkg-buildpackage -us -uc: $spkg $ver (log: $outdir/libdeb-build.log)"
	if ! (cd "$src" && dpkg-buildpackage -us -uc) > "$outdir/libdeb-build.log" 2>&1; then
		tail -20 "$outdir/libdeb-build.log" >&2
		die "dpkg-buildpackage failed: $outdir/libdeb-build.log"
	fi
	rm -rf "$src"
	LIBDEBS=()
	for b in libperfctr3 libperfctr-dev perfex; do
		f=$outdir/${b}_${ver}_$arch.deb
		[[ -f $f ]] || die "dpkg-buildpackage made no $f"
		LIBDEBS+=("$f")
	done
	if command -v lintian >/dev/null; then
		lintian "$outdir/${spkg}_${ver}_$arch.changes" > "$outdir/lintian.log" 2>&1 || true
		errs=$(grep -c '^E:' "$outdir/lintian.log" || true)
		((errs == 0)) || { grep '^E:' "$outdir/lintian.log" >&2; die "lintian: $errs errors"; }
		log "libdeb: lintian: no errors ($(grep -c '^W:' "$outdir/lintian.log" || true) warnings)"
	fi
	log "libdeb: ${LIBDEBS[*]##*/} in $outdir"
}

# Refuse a signing key that others may read or that is not ours.
private_key() {
	local key=$1 owner mode
	[[ -f $key ]] || die "no key $key"
	owner=$(stat -L -c %u "$key")
	mode=$(stat -L -c %a "$key")
	[[ $owner == "$(id -u)" ]] || die "$key belongs to uid $owner, not to uid $(id -u)"
	[[ $mode == *00 ]] || die "$key has mode $mode: group or others may read it (chmod 600)"
}

# Sign the kernel image inside a built linux-image package (SBKEY, SBCERT):
# for a cluster, signed once on the build host, so that the nodes need
# only the certificate enrolled.
deb_sign_image() {
	local deb=$1 work img n=0 md5
	[[ -n ${SBKEY:-} && -n ${SBCERT:-} ]] || die "sign-image: set SBKEY=key.pem and SBCERT=cert.pem"
	[[ -f $deb ]] || die "sign-image: no package $deb"
	[[ -f $SBCERT ]] || die "sign-image: no certificate $SBCERT"
	private_key "$SBKEY"
	command -v sbsign >/dev/null || install_pkgs sbsigntool
	work=$(mktemp -d "${TMPDIR:-/tmp}/perfctr-sign.XXXXXX")
	dpkg-deb -R "$deb" "$work/pkg"
	for img in "$work"/pkg/boot/vmlinuz-*; do
		[[ -f $img ]] || continue
		sbsign --key "$SBKEY" --cert "$SBCERT" --output "$img.signed" "$img" >/dev/null 2>&1 ||
			{ rm -rf "$work"; die "sign-image: sbsign failed on ${img#"$work"/pkg}"; }
		sbverify --cert "$SBCERT" "$img.signed" >/dev/null 2>&1 ||
			{ rm -rf "$work"; die "sign-image: ${img#"$work"/pkg} does not verify after signing"; }
		chmod --reference="$img" "$img.signed"
		mv -f "$img.signed" "$img"
		n=$((n + 1))
	done
	((n)) || { rm -rf "$work"; die "sign-image: no boot/vmlinuz-* in $deb"; }
	md5=$work/pkg/DEBIAN/md5sums
	if [[ -f $md5 ]]; then
		(cd "$work/pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
			sort -z | xargs -0 md5sum) > "$md5"
	fi
	dpkg-deb --root-owner-group -Zxz --build "$work/pkg" "$deb.signed" >/dev/null ||
		{ rm -rf "$work"; die "sign-image: dpkg-deb --build failed"; }
	mv -f "$deb.signed" "$deb"
	rm -rf "$work"
	log "sign-image: $deb: the image signed with $SBCERT"
}

# Secure Boot on this machine (root): a key only root can read, the
# kernel hook that signs each perfctr kernel as it is installed, and the
# perfctr kernels installed now signed.  KEY= and CERT= install a site's
# key instead of making one.
SB_DIR=${PERFCTR_SB_DIR:-/etc/perfctr/secureboot}
HOOK_DIR=${PERFCTR_HOOK_DIR:-/etc/kernel/postinst.d}
BOOT=${PERFCTR_BOOT:-/boot}
deb_secureboot() {
	local key=$SB_DIR/mok.key crt=$SB_DIR/mok.crt der=$SB_DIR/mok.der img rel
	for t in sbsign openssl; do
		command -v $t >/dev/null || { install_pkgs sbsigntool openssl; break; }
	done
	(umask 077 && mkdir -p "$SB_DIR")
	chmod 700 "$SB_DIR"
	if [[ -n ${KEY:-} || -n ${CERT:-} ]]; then
		[[ -f ${KEY:-} && -f ${CERT:-} ]] || die "secureboot: KEY= and CERT= name the site's key and certificate"
		install -m 600 "$KEY" "$key"
		install -m 644 "$CERT" "$crt"
		log "secureboot: $KEY and $CERT installed in $SB_DIR"
	elif [[ ! -f $key ]]; then
		(umask 077 && openssl req -new -x509 -newkey rsa:2048 -nodes -days 3650 -sha256 \
			-subj "/CN=perfctr kernel signing key ($(hostname))/" \
			-keyout "$key" -out "$crt" >/dev/null 2>&1) ||
			die "secureboot: openssl could not make a key"
		chmod 644 "$crt"
		log "secureboot: a new key in $key (mode 600), certificate $crt"
	else
		log "secureboot: keeping the key in $key"
	fi
	private_key "$key"
	openssl x509 -in "$crt" -outform DER -out "$der" || die "secureboot: $crt is not a certificate"
	chmod 644 "$der"
	mkdir -p "$HOOK_DIR"
	install -m 755 "$TOP/scripts/perfctr-sbsign" "$HOOK_DIR/perfctr-sbsign"
	log "secureboot: hook $HOOK_DIR/perfctr-sbsign (signs each perfctr kernel as it is installed)"
	for img in "$BOOT"/vmlinuz-*-perfctr*; do
		[[ -f $img ]] || continue
		rel=${img##*/vmlinuz-}
		PERFCTR_SB_DIR=$SB_DIR sh "$HOOK_DIR/perfctr-sbsign" "$rel" "$img" ||
			die "secureboot: could not sign $img"
	done
	cat <<EOT

Enrol the certificate once (Secure Boot's shim trusts it after that):
  sudo mokutil --import $der     # asks for a one-time password
then reboot and confirm at the console: MokManager, "Enroll MOK",
"Continue", "Yes", the password (notes/INSTALL-debian.md, step 4).
EOT
}

# The module-signing key the build made signs the modules while the
# packages are made; after that nobody needs it, and whoever can read the
# build tree could sign modules this kernel would load.
deb_forget_signing_key() {
	local d f
	for d in "$SRC" ${O:+"$O"}; do
		f=$d/certs/signing_key.pem
		[[ -f $f ]] || continue
		shred -u "$f" 2>/dev/null || rm -f "$f"
		log "build: removed the module-signing key $f (the next build makes a new one)"
	done
}

deb_build() {
	local release pkgver arch image headers libc dbg="" f
	[[ -f $SRC/.config ]] || die "$SRC is not configured: scripts/deb.sh config"
	deb_verify "$SRC/.config" "$FRAG" "${SRC}/.config.perfctr-base" ||
		die "the configuration lacks what perfctr needs: scripts/deb.sh config"
	install_pkgs "${deb_pkgs[@]}"
	[[ ${DBG:-} == 1 ]] || export DEB_BUILD_PROFILES="pkg.linux-upstream.nokerneldbg"
	log "build: make bindeb-pkg -j$JOBS in $SRC (a distribution configuration:"
	log "build: hours on a few cores; log: $DIR/bindeb-pkg.log)"
	if ! (cd "$SRC" && make -j"$JOBS" bindeb-pkg LOCALVERSION="$LOCALVERSION") \
			> "$DIR/bindeb-pkg.log" 2>&1; then
		grep -E 'error|Error' "$DIR/bindeb-pkg.log" | tail -30 >&2
		die "make bindeb-pkg failed: $DIR/bindeb-pkg.log"
	fi
	release=$(cat "$SRC/include/config/kernel.release")
	pkgver=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
	arch=$(dpkg --print-architecture)
	image=$DIR/linux-image-${release}_${pkgver}_$arch.deb
	headers=$DIR/linux-headers-${release}_${pkgver}_$arch.deb
	libc=$DIR/linux-libc-dev_${pkgver}_$arch.deb
	[[ ${DBG:-} == 1 ]] && dbg=$DIR/linux-image-${release}-dbg_${pkgver}_$arch.deb
	for f in "$image" "$headers" "$libc" $dbg; do
		[[ -f $f ]] || die "bindeb-pkg made no $f"
	done
	dpkg-deb -c "$libc" | grep -q '/usr/include/linux/perfctr\.h$' ||
		die "$libc lacks linux/perfctr.h"
	deb_forget_signing_key
	[[ -n ${SBKEY:-} ]] && deb_sign_image "$image"
	deb_libdeb "$DIR"
	cat <<EOT

perfctr kernel $release, packages in $DIR:
  $(basename "$image")${SBKEY:+   (signed for Secure Boot with $SBCERT)}
  $(basename "$headers")
  $(basename "$libc")   (optional: replaces Debian's; <linux/perfctr.h>)
  ${LIBDEBS[0]##*/}  ${LIBDEBS[1]##*/}  ${LIBDEBS[2]##*/}${dbg:+
  $(basename "$dbg")}
Install (then reboot into $release; notes/INSTALL-debian.md):
  cd $DIR && sudo apt install ./$(basename "$image") \\
      ./$(basename "$headers") \\
      ./${LIBDEBS[0]##*/} ./${LIBDEBS[1]##*/} ./${LIBDEBS[2]##*/}
EOT
}

case $cmd in
deps)	if can_install; then apt_update; apt_sources; fi; install_pkgs "${deb_pkgs[@]}"
	log "deps: all there" ;;
all)	deb_source; deb_config "${1:-}"; deb_build ;;
source)	deb_source ;;
config)	deb_config "${1:-}" ;;
build)	deb_build ;;
libdeb)	deb_libdeb "${1:-$DIR}" ;;
secureboot) deb_secureboot ;;
sign-image) (($#)) || die "usage: scripts/deb.sh SBKEY=key SBCERT=cert sign-image linux-image-....deb"
	deb_sign_image "$1" ;;
forget-key) deb_forget_signing_key ;;
*)	die "usage: scripts/deb.sh [VAR=value...] [all|deps|source|config [BASE]|build|libdeb [OUTDIR]|secureboot|sign-image DEB]" ;;
esac

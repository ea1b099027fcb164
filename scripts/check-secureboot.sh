#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Secure Boot for make deb's kernels, on the host, in a scratch directory:
# the kernel hook scripts/perfctr-sbsign, deb.sh secureboot (key, hook,
# the installed kernels signed), deb.sh sign-image (a built linux-image
# package signed on the build host) and the build's module-signing key
# removed.  The "kernel" is a small EFI application made with objcopy
# (sbsign signs any PE/COFF image); sbverify checks each signature.  A few
# seconds.  Records "secureboot <passed> <failed>" in $RESULTS when set.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

work=$CACHE/secureboot
rm -rf "$work"
mkdir -p "$work"

n=0 p=0 f=0
ok() { n=$((n + 1)); p=$((p + 1)); echo "secureboot: ok - $1"; }
nok() { n=$((n + 1)); f=$((f + 1)); echo "secureboot: not ok - $1"; shift; local l; for l in "$@"; do echo "# $l"; done; }
finish() {
	echo "secureboot: $p passed, $f failed"
	[[ -n ${RESULTS:-} ]] && echo "secureboot host $p $f" >> "$RESULTS"
	((f == 0))
	exit
}

for t in sbsign sbverify openssl objcopy gcc dpkg-deb; do
	command -v $t >/dev/null || { nok "tools: $t" "missing (scripts/setup.sh installs sbsigntool)"; finish; }
done
hook=$TOP/scripts/perfctr-sbsign
export PERFCTR_NO_INSTALL=1

# A PE/COFF image: an EFI application that returns.
case $(uname -m) in
x86_64) target=efi-app-x86_64 ;;
aarch64) target=efi-app-aarch64 ;;
*) nok "an EFI image on $(uname -m)" "objcopy has no EFI application target here"; finish ;;
esac
cat > "$work/efi.c" <<'EOT'
unsigned long efi_main(void *image, void *systab)
{
	return 0;
}
EOT
if gcc -O2 -fpic -fno-stack-protector -ffreestanding -c "$work/efi.c" -o "$work/efi.o" &&
   ld -shared -Bsymbolic -nostdlib -e efi_main "$work/efi.o" -o "$work/efi.so" &&
   objcopy --target=$target -j .text -j .data -j .dynamic -j .rela "$work/efi.so" "$work/image" &&
   ! sbverify --list "$work/image" 2>&1 | grep -q '^signature'; then
	ok "an unsigned EFI image to sign ($target)"
else
	nok "an unsigned EFI image ($target)"
	finish
fi

newkey() {	# DIR CN: a key and certificate, mok.key and mok.crt
	mkdir -p "$1"
	(umask 077 && openssl req -new -x509 -newkey rsa:2048 -nodes -days 30 -sha256 \
		-subj "/CN=$2/" -keyout "$1/mok.key" -out "$1/mok.crt" >/dev/null 2>&1)
}
signed_by() { sbverify --cert "$2" "$1" >/dev/null 2>&1; }
sum() { sha256sum "$1" | cut -d' ' -f1; }
newkey "$work/sb" "perfctr test key" && newkey "$work/other" "another key" ||
	{ nok "openssl made the keys"; finish; }

# 1. The hook.
boot=$work/boot
mkdir -p "$boot"
img=$boot/vmlinuz-7.3.4-perfctr
runhook() { PERFCTR_SB_DIR=$1 sh "$hook" "${@:2}" > "$work/hook.log" 2>&1; }

cp "$work/image" "$img"
chmod 644 "$img" "$work/sb/mok.key"
before=$(sum "$img")
if ! runhook "$work/sb" 7.3.4-perfctr "$img" && grep -q 'may read it' "$work/hook.log" &&
   [[ $(sum "$img") == "$before" ]]; then
	ok "hook: a key others may read (mode 644) is refused, the image untouched, the hook fails"
else
	nok "hook: a key others may read is refused" "$(cat "$work/hook.log")"
fi
chmod 600 "$work/sb/mok.key"

mkdir -p "$work/nokey"
cp "$work/sb/mok.crt" "$work/nokey/"
if ! runhook "$work/nokey" 7.3.4-perfctr "$img" && grep -q 'no key' "$work/hook.log" &&
   [[ $(sum "$img") == "$before" ]]; then
	ok "hook: no key and an unsigned image: fails and says so"
else
	nok "hook: no key and an unsigned image fails" "$(cat "$work/hook.log")"
fi

if runhook "$work/sb" 7.3.4-perfctr "$img" && signed_by "$img" "$work/sb/mok.crt" &&
   ! signed_by "$img" "$work/other/mok.crt" && [[ $(stat -c %a "$img") == 644 ]] &&
   [[ ! -e $img.perfctr-sbsign.tmp ]]; then
	ok "hook: a perfctr kernel is signed with the machine's key (sbverify), its mode kept"
else
	nok "hook: a perfctr kernel is signed" "$(cat "$work/hook.log")"
fi

after=$(sum "$img")
if runhook "$work/sb" 7.3.4-perfctr "$img" && grep -q 'already' "$work/hook.log" &&
   [[ $(sum "$img") == "$after" ]]; then
	ok "hook: an image signed already is left as it is (a second install)"
else
	nok "hook: a signed image is left as it is" "$(cat "$work/hook.log")"
fi

if runhook "$work/nokey" 7.3.4-perfctr "$img" && [[ $(sum "$img") == "$after" ]]; then
	ok "hook: a node with the certificate alone accepts an image signed elsewhere"
else
	nok "hook: the certificate alone accepts a signed image" "$(cat "$work/hook.log")"
fi

deb=$boot/vmlinuz-7.3.4-amd64
cp "$work/image" "$deb"
if runhook "$work/sb" 7.3.4-amd64 "$deb" && ! signed_by "$deb" "$work/sb/mok.crt" &&
   cmp -s "$deb" "$work/image"; then
	ok "hook: a kernel that is not perfctr's is not touched"
else
	nok "hook: other kernels untouched" "$(cat "$work/hook.log")"
fi

# 2. deb.sh secureboot: a key in a root-only directory, the hook, the
# installed perfctr kernels signed; again: the same key.
etc=$work/etc
sbdir=$etc/perfctr/secureboot
cp "$work/image" "$img"
secureboot() {
	PERFCTR_SB_DIR=$sbdir PERFCTR_HOOK_DIR=$etc/kernel/postinst.d PERFCTR_BOOT=$boot \
		bash "$TOP/scripts/deb.sh" "$@" secureboot > "$work/secureboot.log" 2>&1
}
if secureboot && [[ $(stat -c %a "$sbdir") == 700 && $(stat -c %a "$sbdir/mok.key") == 600 ]] &&
   [[ $(stat -c %u "$sbdir/mok.key") == "$(id -u)" ]] &&
   cmp -s <(openssl x509 -in "$sbdir/mok.crt" -outform DER) "$sbdir/mok.der" &&
   [[ -x $etc/kernel/postinst.d/perfctr-sbsign ]] && cmp -s "$hook" "$etc/kernel/postinst.d/perfctr-sbsign" &&
   signed_by "$img" "$sbdir/mok.crt" && cmp -s "$deb" "$work/image" &&
   grep -q "mokutil --import $sbdir/mok.der" "$work/secureboot.log"; then
	ok "deb.sh secureboot: key (600, in a 700 directory), DER certificate, hook, the perfctr kernel signed, mokutil's line"
else
	nok "deb.sh secureboot" "$(tail -5 "$work/secureboot.log")"
fi
fp=$(openssl x509 -in "$sbdir/mok.crt" -noout -fingerprint -sha256 2>/dev/null)
if secureboot && [[ -n $fp && $(openssl x509 -in "$sbdir/mok.crt" -noout -fingerprint -sha256) == "$fp" ]] &&
   grep -q 'keeping the key' "$work/secureboot.log"; then
	ok "deb.sh secureboot again: the enrolled key is kept"
else
	nok "deb.sh secureboot again keeps the key" "$(tail -3 "$work/secureboot.log")"
fi
cp "$work/other/mok.key" "$work/site.key"
chmod 600 "$work/site.key"
if secureboot KEY="$work/site.key" CERT="$work/other/mok.crt" &&
   cmp -s "$sbdir/mok.crt" "$work/other/mok.crt" && [[ $(stat -c %a "$sbdir/mok.key") == 600 ]] &&
   signed_by "$img" "$work/other/mok.crt"; then
	ok "deb.sh secureboot KEY= CERT=: a site's key installed root-only, the kernel signed with it"
else
	nok "deb.sh secureboot KEY= CERT=" "$(tail -3 "$work/secureboot.log")"
fi

# 3. deb.sh sign-image: the image inside a linux-image package, signed on
# the build host; the package's md5sums still match.
pkg=$work/pkg
mkdir -p "$pkg/DEBIAN" "$pkg/boot" "$pkg/lib/modules/7.3.4-perfctr"
cp "$work/image" "$pkg/boot/vmlinuz-7.3.4-perfctr"
echo config > "$pkg/boot/config-7.3.4-perfctr"
printf 'Package: linux-image-7.3.4-perfctr\nVersion: 7.3.4-1\nArchitecture: %s\nMaintainer: t <t@t>\nDescription: t\n' \
	"$(dpkg --print-architecture)" > "$pkg/DEBIAN/control"
(cd "$pkg" && md5sum boot/vmlinuz-7.3.4-perfctr boot/config-7.3.4-perfctr > DEBIAN/md5sums)
kdeb=$work/linux-image-7.3.4-perfctr_7.3.4-1.deb
dpkg-deb --root-owner-group -b "$pkg" "$kdeb" >/dev/null
x=$work/x
if SBKEY=$work/sb/mok.key SBCERT=$work/sb/mok.crt bash "$TOP/scripts/deb.sh" sign-image "$kdeb" \
	> "$work/sign.log" 2>&1 && rm -rf "$x" && dpkg-deb -R "$kdeb" "$x" &&
   signed_by "$x/boot/vmlinuz-7.3.4-perfctr" "$work/sb/mok.crt" &&
   (cd "$x" && md5sum --quiet -c DEBIAN/md5sums) >> "$work/sign.log" 2>&1 &&
   cmp -s "$x/boot/config-7.3.4-perfctr" "$pkg/boot/config-7.3.4-perfctr" &&
   [[ $(dpkg-deb -f "$kdeb" Package) == linux-image-7.3.4-perfctr ]]; then
	ok "deb.sh sign-image: the package's image signed, its md5sums right, the rest unchanged"
else
	nok "deb.sh sign-image" "$(tail -5 "$work/sign.log")"
fi
chmod 640 "$work/sb/mok.key"
before=$(sum "$kdeb")
if ! SBKEY=$work/sb/mok.key SBCERT=$work/sb/mok.crt bash "$TOP/scripts/deb.sh" sign-image "$kdeb" \
	> "$work/sign.log" 2>&1 && grep -q 'may read it' "$work/sign.log" && [[ $(sum "$kdeb") == "$before" ]]; then
	ok "deb.sh sign-image refuses a key the group may read, the package untouched"
else
	nok "deb.sh sign-image refuses a readable key" "$(tail -3 "$work/sign.log")"
fi
chmod 600 "$work/sb/mok.key"

# 4. The build's module-signing key does not stay in the build tree.
tree=$work/tree
mkdir -p "$tree/certs"
echo key > "$tree/certs/signing_key.pem"
echo cert > "$tree/certs/signing_key.x509"
if SRC=$tree bash "$TOP/scripts/deb.sh" forget-key > "$work/forget.log" 2>&1 &&
   [[ ! -e $tree/certs/signing_key.pem && -f $tree/certs/signing_key.x509 ]]; then
	ok "deb.sh build's last step: the module-signing key removed from the tree, the certificate kept"
else
	nok "the module-signing key removed" "$(cat "$work/forget.log")"
fi
finish

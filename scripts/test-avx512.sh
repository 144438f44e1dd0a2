#!/usr/bin/env bash
# Runs textcodec test binaries on an emulated CPU with AVX-512 (F, BW, VL, VBMI, VBMI2), for
# machines without it: Bochs (a full-system x86 emulator whose CPU models include EVEX) boots
# Debian's kernel with an initramfs whose /init runs the binaries and powers off; their output
# comes back through the emulated serial port. Emulation says nothing about speed, and Bochs is
# slow (tens of millions of instructions per second): run targeted tests, not the suite.
#
# Usage: scripts/test-avx512.sh [OPTIONS] [-- TEST_ARGS...]
#
#   (no options)     the smoke check (scripts/avx512-smoke.rs: each AVX-512 instruction the
#                    kernels use against scalar code, and a deliberate wrong expectation that
#                    must fail), then the library's unit tests `simd::` (every kernel at every
#                    level the CPU has against the scalar one) and tests/dispatch_levels.rs.
#   --smoke          only the smoke check (proves the emulator executes AVX-512; ~1 min).
#   --lib FILTER     the unit-test filter (default `simd::`); `--lib none` skips them.
#   --test NAME[:FILTER]  an integration test binary of crates/textcodec/tests with an optional
#                    test-name filter, repeatable; replaces the default `dispatch_levels`,
#                    e.g. `--test differential:utf_8` (`--test none`: no integration test).
#   --bin PATH [ARGS...] --   any static x86-64 binary with its arguments (repeatable; built
#                    elsewhere, e.g. with RUSTFLAGS="-C target-feature=+crt-static"), run after
#                    the smoke check instead of the cargo-built tests.
#                    They run in crates/textcodec of the repository (--repo), whose data/ is there.
#   --repo DIR       the repository whose tests are built and whose data/ goes into the guest
#                    (default: this one), e.g. another worktree.
#   --cpu MODEL      the Bochs CPU model (default tigerlake: AVX512F/CD/DQ/BW/VL/IFMA/VBMI/VBMI2/
#                    VP2INTERSECT; corei7_skylake_x has F/CD/DQ/BW/VL only, no VBMI2: textcodec's
#                    level there is AVX2).
#   --timeout SECS   kill the emulator after this long (default 3600).
#   -- TEST_ARGS     passed to every test binary after the filter (e.g. --test-threads=1).
# Environment: TEXTCODEC_* and RUST_TEST_* variables are passed into the guest;
# AVX512_LOGLEVEL=7 shows the guest kernel's boot messages in the serial log.
#
# Each binary's result is a line `test-avx512: RESULT <name> rc=<status>`; the script exits 0
# when every one passed (the smoke check's --wrong run must fail), 1 otherwise. The serial log
# and Bochs' log are kept in target/avx512-emu/run/.
#
# Needs (Debian 12; as root the script installs what is missing):
#   apt-get install bochs bochsbios vgabios xorriso cpio
# and fetches with `apt-get download` into target/avx512-emu/debs (not installed):
#   linux-image-cloud-amd64's kernel image, busybox-static, isolinux, syslinux-common.
# The test binaries are linked statically (glibc's libc.a, from libc6-dev) so the initramfs
# needs no libraries; the repository's data/whatgw and data/corpus go into it at the same
# absolute path, where the tests look for them.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

target=x86_64-unknown-linux-gnu
cache=$repo/target/avx512-emu
cpu_model=tigerlake
timeout_secs=3600
smoke_only=0
src_repo=$repo
lib_filter='simd::'
tests=()
tests_default=1
bins=()
test_args=()

while [ $# -gt 0 ]; do
    case $1 in
        --smoke) smoke_only=1 ;;
        --lib) lib_filter=$2; shift ;;
        --test)
            [ "$tests_default" = 1 ] && tests=() && tests_default=0
            [ "$2" != none ] && tests+=("$2")
            shift ;;
        --bin)
            shift
            spec=$(printf '%q' "$1")
            shift
            while [ $# -gt 0 ] && [ "$1" != -- ]; do spec+=" $(printf '%q' "$1")"; shift; done
            bins+=("$spec") ;;
        --cpu) cpu_model=$2; shift ;;
        --repo) src_repo=$(realpath "$2"); shift ;;
        --timeout) timeout_secs=$2; shift ;;
        --) shift; test_args=("$@"); break ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "test-avx512: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ "$tests_default" = 1 ] && tests=(dispatch_levels)

log() { echo "test-avx512: $*" >&2; }

# --- tools -------------------------------------------------------------------------------------
need=()
command -v bochs-bin >/dev/null || command -v bochs >/dev/null || need+=(bochs)
[ -f /usr/share/bochs/BIOS-bochs-latest ] || need+=(bochsbios)
[ -f /usr/share/vgabios/vgabios.bin ] || need+=(vgabios)
command -v xorriso >/dev/null || need+=(xorriso)
command -v cpio >/dev/null || need+=(cpio)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        log "installing ${need[*]}"
        apt-get install -y --no-install-recommends "${need[@]}" >&2
    else
        log "needs: apt-get install ${need[*]}"
        exit 2
    fi
fi
bochs=$(command -v bochs-bin || command -v bochs)

# --- Debian packages unpacked into the cache -----------------------------------------------------
mkdir -p "$cache/debs" "$cache/root"
fetch() { # fetch PACKAGE: download and unpack once
    local pkg=$1
    if ! ls "$cache/debs/${pkg}"_*.deb >/dev/null 2>&1; then
        (cd "$cache/debs" && apt-get download "$pkg" >&2)
        dpkg-deb -x "$(ls "$cache/debs/${pkg}"_*.deb | head -1)" "$cache/root"
    fi
}
# The metapackage names the current kernel package; the cloud flavour is the smallest with
# the 8250 serial console, ACPI power-off and gzip initramfs built in.
kpkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*\)/\1/p' | head -1)
[ -n "$kpkg" ] || { log "cannot resolve linux-image-cloud-amd64 (apt-get update?)"; exit 2; }
for p in "$kpkg" busybox-static isolinux syslinux-common; do fetch "$p"; done
vmlinuz=$(ls "$cache"/root/boot/vmlinuz-* | head -1)
busybox=$cache/root/bin/busybox
isolinux=$cache/root/usr/lib/ISOLINUX/isolinux.bin
ldlinux=$cache/root/usr/lib/syslinux/modules/bios/ldlinux.c32

# --- the binaries ------------------------------------------------------------------------------
export RUSTFLAGS="-C target-feature=+crt-static"
mkdir -p "$cache/bin"
smoke=$cache/bin/avx512-smoke
rustc --edition 2021 -O -C target-feature=+crt-static --target "$target" \
    scripts/avx512-smoke.rs -o "$smoke"

# Runs: lines of "name<TAB>dir<TAB>command" for /init, the command already shell-quoted.
runs=$cache/runs.txt
: > "$runs"
q_args=""
for a in "${test_args[@]}"; do q_args+=" $(printf '%q' "$a")"; done
add_run() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$runs"; }
crate_dir=$src_repo/crates/textcodec
guest_bins=() # host paths copied into the initramfs's /bin/t/
add_run smoke / "/bin/t/avx512-smoke"
add_run smoke-wrong / "/bin/t/avx512-smoke --wrong"
guest_bins+=("$smoke")

if [ "$smoke_only" = 0 ] && [ ${#bins[@]} -gt 0 ]; then
    for spec in "${bins[@]}"; do
        eval "set -- $spec"
        path=$(realpath "$1"); shift
        name=$(basename "$path")
        cmd="/bin/t/$name"
        for a in "$@"; do cmd+=" $(printf '%q' "$a")"; done
        add_run "$name" "$crate_dir" "$cmd$q_args"
        guest_bins+=("$path")
    done
elif [ "$smoke_only" = 0 ]; then
    cargo_args=()
    [ "$lib_filter" != none ] && cargo_args+=(--lib)
    for t in "${tests[@]}"; do cargo_args+=(--test "${t%%:*}"); done
    if [ ${#cargo_args[@]} -gt 0 ]; then
        log "building ${cargo_args[*]} (static, release)"
        # The executables' paths, from cargo's JSON messages.
        mapfile -t exes < <(cd "$src_repo" && cargo test -p textcodec --release --target "$target" "${cargo_args[@]}" \
            --no-run --message-format=json 2>/dev/null |
            python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m.get("executable") and m["target"]["kind"]!=["bin"]:
        print(m["target"]["name"]+"\t"+("lib" if m["profile"]["test"] and "lib" in m["target"]["kind"] else "test")+"\t"+m["executable"])')
        for line in "${exes[@]}"; do
            IFS=$'\t' read -r tname kind exe <<< "$line"
            if [ "$kind" = lib ]; then
                [ "$lib_filter" = none ] && continue
                name=lib; filter=$lib_filter
            else
                name=$tname; filter=""
                for t in "${tests[@]}"; do
                    [ "${t%%:*}" = "$tname" ] && [ "$t" != "$tname" ] && filter=${t#*:}
                done
            fi
            cmd="/bin/t/$(basename "$exe")"
            [ -n "$filter" ] && cmd+=" $(printf '%q' "$filter")"
            add_run "$name" "$crate_dir" "$cmd$q_args"
            guest_bins+=("$exe")
        done
    fi
fi

# --- the initramfs -----------------------------------------------------------------------------
work=$cache/run-$cpu_model
rm -rf "$work"
mkdir -p "$work/initrd/bin/t" "$work/initrd/proc" "$work/initrd/sys" "$work/initrd/dev" \
    "$work/initrd/tmp" "$work/iso/isolinux"
cp "$busybox" "$work/initrd/bin/busybox"
for b in "${guest_bins[@]}"; do cp "$b" "$work/initrd/bin/t/"; done
cp "$runs" "$work/initrd/runs.txt"
# The environment the tests see: TEXTCODEC_* and RUST_TEST_* variables are passed on.
env | grep -E '^(TEXTCODEC_|RUST_TEST_)' | sed "s/^\([^=]*\)=\(.*\)/export \1='\2'/" > "$work/initrd/env.sh" || true
if [ "$smoke_only" = 0 ]; then
    # The tests read data/ through CARGO_MANIFEST_DIR: the same absolute path in the guest.
    mkdir -p "$work/initrd$src_repo/data" "$work/initrd$crate_dir"
    cp -r "$src_repo/data/whatwg" "$src_repo/data/corpus" "$work/initrd$src_repo/data/"
fi
cat > "$work/initrd/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
export PATH=/bin HOME=/tmp TMPDIR=/tmp RUST_BACKTRACE=1
. /env.sh
echo "test-avx512: guest up after $(cut -d' ' -f1 /proc/uptime) s"
echo "test-avx512: cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "test-avx512: cpuinfo avx512 flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep avx512 | tr '\n' ' ')"
while IFS="$(printf '\t')" read -r name dir cmd; do
    echo "test-avx512: START $name: $cmd"
    start=$(cut -d' ' -f1 /proc/uptime)
    (cd "$dir" && eval "$cmd" 2>&1)
    rc=$?
    echo "test-avx512: RESULT $name rc=$rc seconds=$start..$(cut -d' ' -f1 /proc/uptime)"
done < /runs.txt
echo "test-avx512: DONE"
sync
poweroff -f
EOF
chmod +x "$work/initrd/init"
(cd "$work/initrd" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/iso/isolinux/initrd.gz"
cp "$vmlinuz" "$work/iso/isolinux/vmlinuz"
cp "$isolinux" "$ldlinux" "$work/iso/isolinux/"
mem=$(( ($(stat -c %s "$work/iso/isolinux/initrd.gz") * 6 / 1048576) + 512 ))
# The kernel is told to leave alone what Bochs 2.7's tigerlake model emulates wrongly: its
# CPUID reports PKRU in XCR0 with no size (pku, ospke) and a wrong compacted XSAVE size
# (xsaves, xsavec), either of which makes Linux drop XSAVE and with it AVX and AVX-512; with
# the Ice Lake features on, 6.1 crashes in its exception entry right after "LSM: Security
# Framework initializing" (found by clearing them together; which one is not bisected). The
# AVX-512 instructions themselves stay on: user space reads CPUID, not the kernel's flags
# (the smoke check prints what it detected).
cat > "$work/iso/isolinux/isolinux.cfg" <<EOF
default t
prompt 0
timeout 0
label t
  kernel vmlinuz
  append initrd=initrd.gz earlyprintk=serial,ttyS0,115200 console=ttyS0,115200 loglevel=${AVX512_LOGLEVEL:-4} nokaslr clearcpuid=pku,ospke,xsaves,xsavec,rdpid,umip,fsrm,gfni,vaes,vpclmulqdq,avx512_vnni,avx512_bitalg,avx512_vpopcntdq,movdiri,movdir64b,serialize,la57,sha_ni,clwb,clflushopt,fsgsbase,avx512_vp2intersect,md_clear,flush_l1d,arch_capabilities split_lock_detect=off nopcid noinvpcid ibt=off no5lvl mitigations=off tsc=unstable
EOF
xorriso -as mkisofs -quiet -o "$work/boot.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
    -no-emul-boot -boot-load-size 4 -boot-info-table "$work/iso" 2>/dev/null

cat > "$work/bochsrc" <<EOF
megs: $mem
cpu: model=$cpu_model, count=1, ips=100000000
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0-master: type=cdrom, path=$work/boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$work/serial.log
display_library: rfb, options="timeout=0"
sound: driver=dummy
speaker: enabled=0
clock: sync=none, time0=local
log: $work/bochs.log
panic: action=fatal
error: action=report
info: action=ignore
debug: action=ignore
EOF

# --- run ---------------------------------------------------------------------------------------
log "booting Bochs ($cpu_model, ${mem} MB) with $(wc -l < "$runs") runs; serial log: $work/serial.log"
t0=$(date +%s)
: > "$work/serial.log"
# Debian's Bochs has the debugger built in: it stops before the first instruction unless told
# to continue.
printf 'c\nquit\n' > "$work/debugger.rc"
"$bochs" -q -f "$work/bochsrc" -rc "$work/debugger.rc" > "$work/bochs.out" 2>&1 < /dev/null &
bpid=$!
tail -n +1 -f "$work/serial.log" --pid=$bpid | grep --line-buffered -E '^test-avx512:|^test |^test result|panicked|FAIL|avx512-smoke' &
while kill -0 $bpid 2>/dev/null; do
    if grep -q '^test-avx512: DONE' "$work/serial.log"; then
        sleep 5
        kill $bpid 2>/dev/null || true
        break
    fi
    if [ $(( $(date +%s) - t0 )) -gt "$timeout_secs" ]; then
        log "timeout after $timeout_secs s"
        kill $bpid 2>/dev/null || true
        break
    fi
    sleep 2
done
wait $bpid 2>/dev/null || true
sleep 1
log "emulator ran $(( $(date +%s) - t0 )) s"

# --- verdict -----------------------------------------------------------------------------------
status=0
grep -q '^test-avx512: DONE' "$work/serial.log" || { log "the guest did not finish (see $work/serial.log, $work/bochs.log)"; status=1; }
grep -q 'cpuinfo avx512 flags: .*avx512_vbmi2' "$work/serial.log" || { log "the guest's /proc/cpuinfo lacks avx512vbmi2"; status=1; }
while IFS=$'\t' read -r name _ _; do
    rc=$(sed -n "s/^test-avx512: RESULT $name rc=\([0-9]*\).*/\1/p" "$work/serial.log" | tr -d '\r' | head -1)
    if [ -z "$rc" ]; then
        log "$name: no result"; status=1
    elif [ "$name" = smoke-wrong ]; then
        if [ "$rc" = 1 ]; then log "$name: failed as it must (the deliberate wrong expectation)"; else log "$name: rc=$rc, expected 1"; status=1; fi
    elif [ "$rc" = 0 ]; then
        log "$name: pass"
    else
        log "$name: FAIL rc=$rc"; status=1
    fi
done < "$runs"
[ $status = 0 ] && log "all passed" || log "FAILED"
exit $status

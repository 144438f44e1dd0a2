//! `-o FILE` onto what is not a regular file (devices, FIFOs, descriptors, dangling links),
//! the permissions and owner of a replaced FILE under any umask, and the end by a signal.
//!
//! The devices are made by the tests in a temporary directory (`mknod`: a null-like 1,3 and
//! a full-like 1,7), never the system's `/dev` files; making them needs root (as CI runs),
//! and without it those cases are reported and left out.
#![cfg(unix)]

mod common;

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;

/// `mknod PATH c MAJOR MINOR`; false when not permitted (not root).
fn mknod(path: &Path, major: u32, minor: u32) -> bool {
    let status = Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .stderr(Stdio::null())
        .status()
        .expect("mknod (coreutils)");
    if !status.success() {
        eprintln!(
            "mknod {} c {major} {minor} not permitted: device cases left out",
            path.display()
        );
    }
    status.success()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo (coreutils)");
    assert!(status.success());
}

fn is_char_device(path: &Path) -> bool {
    fs::symlink_metadata(path)
        .unwrap()
        .file_type()
        .is_char_device()
}

#[test]
fn output_onto_a_null_device_writes_into_it() {
    let dir = tempdir();
    let null = dir.path().join("null");
    if !mknod(&null, 1, 3) {
        return;
    }
    let out = run(
        &["encode", "-e", "shift_jis", "-o", null.to_str().unwrap()],
        "日本".as_bytes(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(is_char_device(&null), "the device was replaced");
    assert_eq!(entries(dir.path()), ["null"]);

    // Through a symbolic link: the link and the device stay.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&null, &link).unwrap();
    let out = run(&["convert", "-o", link.to_str().unwrap()], b"abc");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(is_char_device(&null));
    assert_eq!(entries(dir.path()), ["link", "null"]);
}

#[test]
fn output_onto_a_full_device_fails_with_exit_2() {
    let dir = tempdir();
    let full = dir.path().join("full");
    if !mknod(&full, 1, 7) {
        return;
    }
    let f = full.to_str().unwrap();
    for (args, input) in [
        (&["convert", "-o", f][..], &b"abc"[..]),
        (
            &["decode", "-e", "shift_jis", "-o", f],
            &[b'x'; 300_000][..],
        ),
        (&["convert", "-t", "utf-16le", "--add-bom", "-o", f], b""),
    ] {
        let out = run(args, input);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(
            stderr(&out),
            format!("textcodec: cannot write '{f}': No space left on device\n"),
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
        assert!(is_char_device(&full));
        assert_eq!(entries(dir.path()), ["full"]);
    }
}

#[test]
fn output_into_a_fifo_reaches_its_reader() {
    let dir = tempdir();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let text = "Mars est la quatrième planète.\n".repeat(20_000);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            fs::File::open(&fifo)
                .unwrap()
                .read_to_end(&mut got)
                .unwrap();
            got
        })
    };
    let out = run(
        &["encode", "-e", "latin1", "-o", fifo.to_str().unwrap()],
        text.as_bytes(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // (Checked before the reader is joined: a replaced FIFO would leave it waiting.)
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let got = reader.join().unwrap();
    assert_eq!(got, lib_encode(enc("latin1"), &text));
    assert_eq!(entries(dir.path()), ["fifo"]);
}

#[test]
fn output_to_dev_stdout_writes_our_standard_output() {
    let dir = tempdir();
    // A link to /dev/stdout (the link is in the temporary directory; /dev is only read).
    let link = dir.path().join("out");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    let log = dir.path().join("log");
    fs::write(&log, "before\n").unwrap();
    for dest in [
        link.to_str().unwrap(),
        "/dev/stdout",
        "/proc/self/fd/1",
        "/dev/fd/1",
    ] {
        // Standard output appends to the log: the output is added after what was there.
        let stdout = fs::OpenOptions::new().append(true).open(&log).unwrap();
        let status = bin()
            .args(["decode", "-e", "latin1", "-o", dest])
            .stdin(fs::File::open(write_temp(&dir, "in", b"caf\xe9\n")).unwrap())
            .stdout(stdout)
            .status()
            .unwrap();
        assert!(status.success(), "{dest}");
    }
    assert_eq!(
        fs::read_to_string(&log).unwrap(),
        "before\ncafé\ncafé\ncafé\ncafé\n"
    );
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
}

fn write_temp(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = dir.path().join(name);
    fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn output_through_a_dangling_link_creates_its_target() {
    let dir = tempdir();
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    // Relative to the link's directory, as the kernel resolves it.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("sub/new.txt", &link).unwrap();
    let out = run(&["convert", "-o", link.to_str().unwrap()], b"abc");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(sub.join("new.txt")).unwrap(), "abc");
    assert_eq!(entries(&sub), ["new.txt"]);
    assert_eq!(entries(dir.path()), ["link", "sub"]);

    // A dangling link into a missing directory: exit 2, nothing created.
    let bad = dir.path().join("bad");
    std::os::unix::fs::symlink("missing/x.txt", &bad).unwrap();
    let out = run(&["convert", "-o", bad.to_str().unwrap()], b"abc");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).starts_with(&format!("textcodec: cannot write '{}'", bad.display())));
    assert_eq!(entries(dir.path()), ["bad", "link", "sub"]);

    // A loop of links: exit 2.
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    let out = run(&["convert", "-o", a.to_str().unwrap()], b"abc");
    assert_eq!(code(&out), 2);
    assert!(fs::symlink_metadata(&a).unwrap().file_type().is_symlink());
}

/// Runs the binary with `umask` set in the child (through `sh`), standard input empty.
fn run_with_umask(umask: &str, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_textcodec"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn replaced_file_keeps_its_mode_under_every_umask() {
    let dir = tempdir();
    let input = write_temp(&dir, "in.txt", "naïve\n".as_bytes());
    let target = dir.path().join("p");
    let (i, t) = (input.to_str().unwrap(), target.to_str().unwrap());
    for umask in ["000", "022", "077", "027"] {
        for mode in [
            0o666, 0o644, 0o600, 0o640, 0o604, 0o755, 0o700, 0o444, 0o2775, 0o2644, 0o1644, 0o4755,
            0o6755, 0o7777,
        ] {
            fs::write(&target, "old").unwrap();
            fs::set_permissions(&target, fs::Permissions::from_mode(mode)).unwrap();
            assert_eq!(fs::metadata(&target).unwrap().mode() & 0o7777, mode);
            let out = run_with_umask(umask, &["decode", "-e", "utf-8", "-o", t, i]);
            assert_eq!(
                code(&out),
                0,
                "umask {umask} mode {mode:o}: {}",
                stderr(&out)
            );
            assert_eq!(fs::read_to_string(&target).unwrap(), "naïve\n");
            let got = fs::metadata(&target).unwrap().mode() & 0o7777;
            assert_eq!(got, mode, "umask {umask}: {mode:o} became {got:o}");
        }
        // A new file: 0666 less the umask, as any new file.
        fs::remove_file(&target).unwrap();
        let out = run_with_umask(umask, &["decode", "-e", "utf-8", "-o", t, i]);
        assert_eq!(code(&out), 0);
        let mask = u32::from_str_radix(umask, 8).unwrap();
        assert_eq!(
            fs::metadata(&target).unwrap().mode() & 0o7777,
            0o666 & !mask
        );
        assert_eq!(entries(dir.path()), ["in.txt", "p"]);
    }
}

#[test]
fn replaced_file_keeps_its_owner_and_group_where_permitted() {
    let dir = tempdir();
    let target = dir.path().join("p");
    fs::write(&target, "old").unwrap();
    let me = fs::metadata(&target).unwrap().uid();
    if me != 0 {
        eprintln!("not root: giving a file away is not permitted, owner case left out");
        return;
    }
    std::os::unix::fs::chown(&target, Some(1234), Some(5678)).unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o2640)).unwrap();
    let out = run(&["convert", "-o", target.to_str().unwrap()], b"new");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let meta = fs::metadata(&target).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (1234, 5678));
    assert_eq!(meta.mode() & 0o7777, 0o2640);
    assert_eq!(fs::read_to_string(&target).unwrap(), "new");
}

/// Waits (bounded) until a temporary file beside `keep` in `dir` has received data.
fn wait_for_temp(dir: &Path, keep: &str) {
    for _ in 0..2000 {
        let temps: Vec<_> = entries(dir).into_iter().filter(|n| n != keep).collect();
        if let Some(name) = temps.first() {
            if fs::metadata(dir.join(name)).is_ok_and(|m| m.len() > 0) {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the temporary output file never appeared");
}

#[test]
fn a_signal_ends_the_run_by_that_signal_and_leaves_no_temporary_file() {
    for (name, number) in [("TERM", 15), ("HUP", 1), ("INT", 2)] {
        let dir = tempdir();
        let target = dir.path().join("out.txt");
        fs::write(&target, "precious").unwrap();
        let mut child = bin()
            .args([
                "convert",
                "-f",
                "windows-1252",
                "-o",
                target.to_str().unwrap(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The pipe stays open: the run is waiting for more input when the signal comes.
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&vec![b'x'; 1 << 20]).unwrap();
        wait_for_temp(dir.path(), "out.txt");
        let status = Command::new("kill")
            .args([&format!("-{name}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        // Death by the signal: a shell reports 128 + its number.
        assert_eq!(
            out.status.signal(),
            Some(number),
            "SIG{name}: {:?}",
            out.status
        );
        assert_eq!(out.status.code(), None);
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
        assert_eq!(entries(dir.path()), ["out.txt"], "SIG{name}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
    }
}

#[test]
fn a_shell_sees_128_plus_the_signal() {
    let dir = tempdir();
    let pidfile = dir.path().join("pid");
    let fifo = dir.path().join("f");
    mkfifo(&fifo);
    // The shell starts the conversion in the background reading the FIFO, holds the FIFO
    // open for writing (so the input stays open), records the PID and reports the status
    // `wait` gives; it closes the FIFO when it exits.
    let script = format!(
        "\"$0\" convert -o '{out}' < '{fifo}' & exec 4> '{fifo}'; echo $! > '{pid}'; \
         wait $!; echo \"status $?\"",
        out = dir.path().join("out.txt").display(),
        fifo = fifo.display(),
        pid = pidfile.display(),
    );
    let child = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_textcodec"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut pid = String::new();
    for _ in 0..2000 {
        pid = fs::read_to_string(&pidfile).unwrap_or_default();
        if pid.ends_with('\n') {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The temporary output file exists once the handler is installed.
    wait_for_temp_exists(dir.path(), &["f", "pid"]);
    let status = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "status 143\n");
    assert_eq!(entries(dir.path()), ["f", "pid"]);
}

/// Waits (bounded) until `dir` has an entry other than `known`.
fn wait_for_temp_exists(dir: &Path, known: &[&str]) {
    for _ in 0..2000 {
        if entries(dir).iter().any(|n| !known.contains(&n.as_str())) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the temporary output file never appeared");
}

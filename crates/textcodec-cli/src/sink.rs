//! Where the output goes: standard output (unbuffered, we buffer ourselves), or `-o FILE`.
//!
//! `-o FILE` is, by what FILE is when the run starts:
//!
//! - missing, or a regular file (also through symbolic links): a temporary file in the same
//!   directory, renamed over FILE only when the whole run succeeded. An existing FILE's
//!   permission bits (setuid, setgid and sticky included) are given to the new file exactly,
//!   whatever the umask, and its owner and group where the system permits; a new FILE gets
//!   0666 less the umask, as any new file.
//! - a symbolic link whose target does not exist (a dangling link): the target is created,
//!   as a shell redirection `> FILE` does, and the link stays a link.
//! - anything else that exists (a character or block device such as `/dev/null` or
//!   `/dev/full`, a FIFO, a socket): opened and written directly, as a shell redirection
//!   would; there is no file to replace, and a write error (`/dev/full`: no space left on
//!   device) ends the run with exit code 2.
//! - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` (or a link to one):
//!   that open descriptor of this process, written directly (so `-o /dev/stdout >> log`
//!   appends to the log, where a rename would replace it).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::NamedTempFile;

use crate::Failure;

/// The temporary file currently being written, removed by the interrupt handler.
static TEMP_PATH: Mutex<Option<PathBuf>> = Mutex::new(None);

/// On SIGINT, SIGTERM or SIGHUP: remove the temporary output file (if any), then end by
/// that signal (its default action), so that the parent sees death by the signal and a
/// shell reports 128 + its number (130, 143, 129). The lock makes the removal atomic with
/// respect to the final rename.
#[cfg(unix)]
pub fn install_interrupt_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let guard = TEMP_PATH.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(path) = guard.as_ref() {
                let _ = fs::remove_file(path);
            }
            // Restores the default action and raises the signal again; the exit is for a
            // system where that did not end the process.
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
}

#[cfg(not(unix))]
pub fn install_interrupt_handler() {}

fn set_temp_path(path: Option<PathBuf>) {
    *TEMP_PATH.lock().unwrap_or_else(|e| e.into_inner()) = path;
}

pub enum Sink {
    Stdout(Box<dyn Write + Send>),
    /// Something that is not a regular file (a device, a FIFO, an open descriptor), written
    /// as it is.
    Direct {
        file: File,
        dest: PathBuf,
    },
    /// A temporary file renamed over `target` at the end.
    File {
        temp: NamedTempFile,
        /// FILE as given, for messages.
        dest: PathBuf,
        /// Where the temporary file is renamed to: FILE, or what FILE links to.
        target: PathBuf,
        /// The replaced file's metadata, whose permissions and owner the new file takes.
        replaced: Option<Box<fs::Metadata>>,
        _guard: TempGuard,
    },
}

/// What `-o FILE` designates once symbolic links are followed.
enum Resolved {
    /// A descriptor of this process (`/dev/stdout`, `/dev/fd/N`, ...).
    #[cfg(unix)]
    Descriptor(i32),
    /// A path to open directly (not a regular file, or a `/proc` link).
    Direct(PathBuf),
    /// A regular file to replace (`Some` metadata) or create (`None`).
    Regular(PathBuf, Option<fs::Metadata>),
}

/// Follows `dest` through symbolic links (at most 40, as the kernel does).
fn resolve(dest: &Path) -> io::Result<Resolved> {
    let mut path = dest.to_path_buf();
    for _ in 0..40 {
        #[cfg(unix)]
        if let Some(fd) = descriptor_path(&path) {
            return Ok(Resolved::Descriptor(fd));
        }
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Resolved::Regular(path, None))
            }
            Err(e) => return Err(e),
        };
        if !meta.file_type().is_symlink() {
            if meta.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            return Ok(if meta.is_file() {
                Resolved::Regular(path, Some(meta))
            } else {
                Resolved::Direct(path)
            });
        }
        let in_proc = path
            .parent()
            .and_then(|dir| fs::canonicalize(dir).ok())
            .is_some_and(|dir| dir.starts_with("/proc"));
        if in_proc {
            // A "magic" link to an open file of some process: it names no path to
            // rename over.
            return Ok(Resolved::Direct(path));
        }
        let link = fs::read_link(&path)?;
        path = match path.parent() {
            Some(dir) => dir.join(link),
            None => link,
        };
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The standard descriptor a path names: `/dev/stdin` 0, `/dev/stdout` 1, `/dev/stderr` 2,
/// and `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N` and `/proc/PID/fd/N` (this
/// process's PID) for N from 0 to 2. Other descriptors are opened through their link.
#[cfg(unix)]
fn descriptor_path(path: &Path) -> Option<i32> {
    let s = path.to_str()?;
    match s {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let rest = s
        .strip_prefix("/dev/fd/")
        .or_else(|| s.strip_prefix("/proc/self/fd/"))
        .or_else(|| s.strip_prefix("/proc/thread-self/fd/"))
        .or_else(|| {
            s.strip_prefix(&format!("/proc/{}/fd/", std::process::id()))
                .map(|r| &s[s.len() - r.len()..])
        })?;
    rest.parse().ok().filter(|fd| (0..=2).contains(fd))
}

impl Sink {
    pub fn stdout() -> Sink {
        Sink::Stdout(raw_stdout())
    }

    /// The sink for `-o FILE` (see the module documentation).
    pub fn file(dest: &Path) -> Result<Sink, Failure> {
        let cannot =
            |msg: String| Failure::Usage(format!("cannot write '{}': {msg}", dest.display()));
        let (target, replaced) = match resolve(dest).map_err(|e| cannot(io_msg(&e)))? {
            #[cfg(unix)]
            Resolved::Descriptor(fd) => {
                return Ok(Sink::Direct {
                    file: descriptor(fd).map_err(|e| cannot(io_msg(&e)))?,
                    dest: dest.to_path_buf(),
                })
            }
            Resolved::Direct(path) => {
                let file = open_direct(&path).map_err(|e| cannot(io_msg(&e)))?;
                return Ok(Sink::Direct {
                    file,
                    dest: dest.to_path_buf(),
                });
            }
            Resolved::Regular(path, meta) => (path, meta),
        };
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".textcodec-").suffix(".tmp");
        // A new file: 0666 less the umask, as for any new file (`open` applies the umask).
        // A replaced one gets its exact permissions at the end (a write by a non-root user
        // would clear setuid and setgid bits set before it).
        if replaced.is_none() {
            if let Some(p) = default_permissions() {
                builder.permissions(p);
            }
        }
        // The file is made with `TEMP_PATH` locked and recorded before the lock is let go:
        // a signal that comes as the file appears waits for the record, so the handler
        // removes it (it used to find no path and leave the file behind).
        let mut recorded = TEMP_PATH.lock().unwrap_or_else(|e| e.into_inner());
        let temp = builder.tempfile_in(&dir).map_err(|e| cannot(io_msg(&e)))?;
        *recorded = Some(temp.path().to_path_buf());
        drop(recorded);
        Ok(Sink::File {
            temp,
            dest: dest.to_path_buf(),
            target,
            replaced: replaced.map(Box::new),
            _guard: TempGuard,
        })
    }

    pub fn write_all(&mut self, buf: &[u8]) -> Result<(), Failure> {
        if buf.is_empty() {
            return Ok(());
        }
        let r = match self {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Direct { file, .. } => file.write_all(buf),
            Sink::File { temp, .. } => temp.as_file_mut().write_all(buf),
        };
        r.map_err(|e| self.write_error(e))
    }

    fn write_error(&self, e: io::Error) -> Failure {
        match self {
            Sink::Stdout(_) if e.kind() == io::ErrorKind::BrokenPipe => Failure::BrokenPipe,
            Sink::Stdout(_) => {
                Failure::Usage(format!("cannot write to standard output: {}", io_msg(&e)))
            }
            Sink::Direct { dest, .. } | Sink::File { dest, .. } => {
                Failure::Usage(format!("cannot write '{}': {}", dest.display(), io_msg(&e)))
            }
        }
    }

    /// Flushes, and for a regular FILE gives the temporary file FILE's permissions and
    /// owner, then moves it over FILE.
    pub fn finish(self) -> Result<(), Failure> {
        match self {
            Sink::Stdout(mut w) => w.flush().map_err(|e| {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    Failure::BrokenPipe
                } else {
                    Failure::Usage(format!("cannot write to standard output: {}", io_msg(&e)))
                }
            }),
            Sink::Direct { mut file, dest } => file.flush().map_err(|e| {
                Failure::Usage(format!("cannot write '{}': {}", dest.display(), io_msg(&e)))
            }),
            Sink::File {
                temp,
                dest,
                target,
                replaced,
                ..
            } => {
                let fail = |e: &io::Error| {
                    Failure::Usage(format!("cannot write '{}': {}", dest.display(), io_msg(e)))
                };
                if let Some(meta) = &replaced {
                    keep_owner_and_mode(temp.as_file(), meta).map_err(|e| fail(&e))?;
                }
                temp.as_file().sync_all().map_err(|e| fail(&e))?;
                // Hold the lock across the rename so that an interrupt either removes
                // the temporary file before it, or finds nothing to remove after it.
                let mut guard = TEMP_PATH.lock().unwrap_or_else(|e| e.into_inner());
                let r = temp.persist(&target);
                *guard = None;
                drop(guard);
                r.map(|_| ()).map_err(|e| fail(&e.error))
            }
        }
    }
}

/// Gives `file` the owner and group of `meta` where permitted (a user may not give a file
/// away; that is not an error), then exactly its permission bits (`fchmod` ignores the
/// umask; after `fchown`, which clears setuid and setgid).
#[cfg(unix)]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let mine = file.metadata()?;
    if (mine.uid(), mine.gid()) != (meta.uid(), meta.gid()) {
        // Owner and group together, else the group alone (a member of it may).
        if std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(meta.gid()));
        }
    }
    file.set_permissions(fs::Permissions::from_mode(meta.mode() & 0o7777))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> io::Result<()> {
    file.set_permissions(meta.permissions())
}

/// Our standard descriptor `fd` (0, 1 or 2), duplicated (the original stays open for the
/// rest of the process).
#[cfg(unix)]
fn descriptor(fd: i32) -> io::Result<File> {
    use std::os::fd::AsFd;
    let owned = match fd {
        0 => io::stdin().as_fd().try_clone_to_owned(),
        1 => io::stdout().as_fd().try_clone_to_owned(),
        _ => io::stderr().as_fd().try_clone_to_owned(),
    };
    owned.map(File::from)
}

/// Opens something that is not a file to replace, for writing as a shell redirection
/// does (truncated when it is a regular file reached through a descriptor link).
fn open_direct(path: &Path) -> io::Result<File> {
    let regular = fs::metadata(path).is_ok_and(|m| m.is_file());
    fs::OpenOptions::new()
        .write(true)
        .truncate(regular)
        .open(path)
}

/// Forgets the temporary path when the sink is dropped (a failed run: the NamedTempFile
/// removes itself).
pub struct TempGuard;

impl Drop for TempGuard {
    fn drop(&mut self) {
        set_temp_path(None);
    }
}

#[cfg(unix)]
fn default_permissions() -> Option<fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(fs::Permissions::from_mode(0o666))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<fs::Permissions> {
    None
}

/// Standard output without Rust's line buffering: we write large chunks ourselves.
#[cfg(unix)]
fn raw_stdout() -> Box<dyn Write + Send> {
    use std::os::fd::AsFd;
    match io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Box::new(fs::File::from(fd)),
        Err(_) => Box::new(io::stdout()),
    }
}

#[cfg(not(unix))]
fn raw_stdout() -> Box<dyn Write + Send> {
    Box::new(io::stdout())
}

/// An io::Error as a short message, without Rust's "(os error N)" suffix.
pub fn io_msg(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

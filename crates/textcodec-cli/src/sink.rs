//! Where the output goes: standard output (unbuffered, we buffer ourselves), or a temporary
//! file beside `-o FILE` that is renamed over FILE only when the whole run succeeded.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::NamedTempFile;

use crate::Failure;

/// The temporary file currently being written, removed by the interrupt handler.
static TEMP_PATH: Mutex<Option<PathBuf>> = Mutex::new(None);

/// On Ctrl-C, SIGTERM or SIGHUP: remove the temporary output file (if any) and exit 130.
/// The lock makes this atomic with respect to the final rename.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        let guard = TEMP_PATH.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(path) = guard.as_ref() {
            let _ = fs::remove_file(path);
        }
        std::process::exit(130);
    });
}

fn set_temp_path(path: Option<PathBuf>) {
    *TEMP_PATH.lock().unwrap_or_else(|e| e.into_inner()) = path;
}

pub enum Sink {
    Stdout(Box<dyn Write>),
    File {
        temp: NamedTempFile,
        /// FILE as given, for messages.
        dest: PathBuf,
        /// Where the temporary file is renamed to: FILE, or what FILE links to.
        target: PathBuf,
        _guard: TempGuard,
    },
}

impl Sink {
    pub fn stdout() -> Sink {
        Sink::Stdout(raw_stdout())
    }

    /// A temporary file in FILE's directory, with FILE's permissions if it exists (else
    /// 0666 minus the umask, as for any new file).
    pub fn file(dest: &Path) -> Result<Sink, Failure> {
        // A symbolic link stays a link: its target is replaced.
        let target = match fs::symlink_metadata(dest) {
            Ok(m) if m.file_type().is_symlink() => {
                fs::canonicalize(dest).unwrap_or_else(|_| dest.to_path_buf())
            }
            _ => dest.to_path_buf(),
        };
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".textcodec-").suffix(".tmp");
        let perms = match fs::metadata(dest) {
            Ok(m) if m.is_dir() => {
                return Err(Failure::Usage(format!(
                    "cannot write '{}': is a directory",
                    dest.display()
                )))
            }
            Ok(m) => Some(m.permissions()),
            Err(_) => default_permissions(),
        };
        if let Some(p) = perms {
            builder.permissions(p);
        }
        let temp = builder.tempfile_in(&dir).map_err(|e| {
            Failure::Usage(format!("cannot write '{}': {}", dest.display(), io_msg(&e)))
        })?;
        set_temp_path(Some(temp.path().to_path_buf()));
        Ok(Sink::File {
            temp,
            dest: dest.to_path_buf(),
            target,
            _guard: TempGuard,
        })
    }

    pub fn write_all(&mut self, buf: &[u8]) -> Result<(), Failure> {
        if buf.is_empty() {
            return Ok(());
        }
        let r = match self {
            Sink::Stdout(w) => w.write_all(buf),
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
            Sink::File { dest, .. } => {
                Failure::Usage(format!("cannot write '{}': {}", dest.display(), io_msg(&e)))
            }
        }
    }

    /// Flushes, and for `-o` moves the temporary file over FILE.
    pub fn finish(self) -> Result<(), Failure> {
        match self {
            Sink::Stdout(mut w) => w.flush().map_err(|e| {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    Failure::BrokenPipe
                } else {
                    Failure::Usage(format!("cannot write to standard output: {}", io_msg(&e)))
                }
            }),
            Sink::File {
                temp, dest, target, ..
            } => {
                let fail = |e: &io::Error| {
                    Failure::Usage(format!("cannot write '{}': {}", dest.display(), io_msg(e)))
                };
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
fn raw_stdout() -> Box<dyn Write> {
    use std::os::fd::AsFd;
    match io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Box::new(fs::File::from(fd)),
        Err(_) => Box::new(io::stdout()),
    }
}

#[cfg(not(unix))]
fn raw_stdout() -> Box<dyn Write> {
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

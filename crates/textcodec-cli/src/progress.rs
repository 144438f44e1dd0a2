//! A progress bar on standard error, only when it is a terminal and the run takes more
//! than about a second.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears. `TEXTCODEC_PROGRESS_DELAY_MS` overrides it
/// (the tests set 0 to see the bar on a short run).
fn delay() -> Duration {
    std::env::var("TEXTCODEC_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(Duration::from_secs(1), Duration::from_millis)
}

pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    delay: Duration,
    shown: bool,
}

impl Progress {
    /// `total`: the sum of the input sizes when all are regular files. Nothing is ever
    /// drawn unless `allowed` and standard error is a terminal.
    pub fn new(allowed: bool, total: Option<u64>) -> Progress {
        let enabled = allowed && std::io::stderr().is_terminal();
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
            let style = if total.is_some() {
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] [{wide_bar}] {bytes}/{total_bytes} \
                     ({binary_bytes_per_sec}, {eta} left)",
                )
            } else {
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bytes} ({binary_bytes_per_sec})",
                )
            };
            if let Ok(style) = style {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            delay: delay(),
            shown: false,
        }
    }

    /// `n` more input bytes were converted.
    pub fn inc(&mut self, n: usize) {
        if let Some(bar) = &self.bar {
            bar.inc(n as u64);
            if !self.shown && self.start.elapsed() >= self.delay {
                self.shown = true;
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    /// Runs `f` (which writes to standard error) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) if self.shown => bar.suspend(f),
            _ => f(),
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

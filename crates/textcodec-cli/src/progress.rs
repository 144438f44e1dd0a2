//! A progress bar on standard error, only when it is a terminal and the run takes more
//! than about a second; when it was shown, one summary line at the end of the run.

use std::collections::VecDeque;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{HumanBytes, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the bar appears. `TEXTCODEC_PROGRESS_DELAY_MS` overrides it
/// (the tests set 0 to see the bar on a short run).
fn delay() -> Duration {
    std::env::var("TEXTCODEC_PROGRESS_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(Duration::from_secs(1), Duration::from_millis)
}

/// The time left is estimated from the rate over this last stretch of the run, not from
/// the average since the start (which lags when the speed changes, e.g. from one input to
/// the next or when the disk cache runs out).
const RECENT: Duration = Duration::from_secs(5);
/// Samples of the position are taken at most this often.
const SAMPLE: Duration = Duration::from_millis(100);

pub struct Progress {
    bar: Option<ProgressBar>,
    total: Option<u64>,
    start: Instant,
    delay: Duration,
    shown: bool,
    done: u64,
    /// (time, bytes done) over the last [`RECENT`].
    samples: VecDeque<(Instant, u64)>,
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
                     ({binary_bytes_per_sec}, {msg})",
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
        let start = Instant::now();
        Progress {
            bar,
            total,
            start,
            delay: delay(),
            shown: false,
            done: 0,
            samples: VecDeque::from([(start, 0)]),
        }
    }

    /// `n` more input bytes were converted.
    pub fn inc(&mut self, n: usize) {
        self.done += n as u64;
        let Some(bar) = &self.bar else { return };
        bar.inc(n as u64);
        let now = Instant::now();
        if !self.shown && now - self.start >= self.delay {
            self.shown = true;
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        let last = self.samples.back().map_or(self.start, |s| s.0);
        if now - last < SAMPLE && self.samples.len() > 1 {
            return;
        }
        self.samples.push_back((now, self.done));
        while self.samples.len() > 2 && now - self.samples[1].0 >= RECENT {
            self.samples.pop_front();
        }
        if let Some(total) = self.total {
            bar.set_message(time_left(&self.samples, total));
        }
    }

    /// Runs `f` (which writes to standard error) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) if self.shown => bar.suspend(f),
            _ => f(),
        }
    }

    /// Clears the bar; if it was shown, prints one summary line: bytes, time and rate.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            if self.shown {
                crate::print_stderr(&summary(self.done, self.start.elapsed()));
            }
        }
    }
}

/// `"12 s left"`, from the rate between the oldest and newest of `samples`.
fn time_left(samples: &VecDeque<(Instant, u64)>, total: u64) -> String {
    let (Some(&(t0, b0)), Some(&(t1, b1))) = (samples.front(), samples.back()) else {
        return String::new();
    };
    let secs = (t1 - t0).as_secs_f64();
    if b1 <= b0 || secs <= 0.0 {
        return "? left".to_string();
    }
    let rate = (b1 - b0) as f64 / secs;
    let left = total.saturating_sub(b1) as f64 / rate;
    format!(
        "{} left",
        HumanDuration(Duration::from_secs_f64(left.min(1e9)))
    )
}

/// `"1.50 GiB in 3.2 s (480.00 MiB/s)"`.
pub fn summary(bytes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    format!(
        "{} in {:.1} s ({}/s)",
        HumanBytes(bytes),
        secs,
        HumanBytes((bytes as f64 / secs) as u64)
    )
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_follows_the_recent_rate() {
        let t = Instant::now();
        // Only the samples given count (the caller keeps the last 5 s): 10 MB/s over them,
        // so 100 MB left is 10 s; then 1 MB/s (where the average since the start would
        // still say 7 MB/s), so 40 MB left is 40 s.
        let recent: VecDeque<_> = [
            (t + Duration::from_secs(10), 100_000_000),
            (t + Duration::from_secs(15), 150_000_000),
        ]
        .into();
        assert_eq!(time_left(&recent, 250_000_000), "10 seconds left");
        let slower: VecDeque<_> = [
            (t + Duration::from_secs(10), 100_000_000),
            (t + Duration::from_secs(15), 105_000_000),
        ]
        .into();
        assert_eq!(time_left(&slower, 145_000_000), "40 seconds left");
        let stalled: VecDeque<_> = [(t, 5), (t + Duration::from_secs(1), 5)].into();
        assert_eq!(time_left(&stalled, 10), "? left");
    }

    #[test]
    fn summary_line() {
        assert_eq!(
            summary(3 * 1024 * 1024 * 1024, Duration::from_secs(2)),
            "3.00 GiB in 2.0 s (1.50 GiB/s)"
        );
    }
}

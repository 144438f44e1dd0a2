//! The goals of issue 16, measured: textcodec against simdutf on the Unicode paths, on the
//! 32 corpus files (`LANG.txt` and `LANG.html`), in one process, with per-thread CPU time
//! and interleaved rounds. Prints Markdown (see BENCHMARKS.md, "Against simdutf").
//!
//! ```text
//! cargo bench -p textcodec --bench simdutf_goals -- [OPTIONS]
//! scripts/simdutf-goals.sh [OPTIONS]
//!
//!   --config active|avx2|both   active: textcodec at its detected level against simdutf's
//!                               active kernel; avx2: textcodec forced to AVX2
//!                               (dispatch::set_level) against simdutf forced to `haswell`
//!                               (SIMDUTF_FORCE_IMPLEMENTATION=haswell, which simdutf reads
//!                               once, so the program runs itself again with it); both
//!                               (default): one after the other
//!   --workload LIST             comma-separated workload names or prefixes (default all):
//!                               utf8_to_utf16, utf16le_to_utf8, utf16_to_utf8,
//!                               validate_utf8, utf8_to_utf8
//!   --file LIST                 comma-separated parts of file names, e.g. fr.txt,ja,.html
//!   --rounds N                  interleaved rounds per file and workload (default 21)
//!   --sample-ms MS              CPU time of one sample, the calls repeated (default 1)
//!   --src-offset B, --dst-offset B
//!                               where inputs and outputs start past a 4096-byte boundary
//!                               (default 0 and 0; the same for both sides)
//!   --stat paired|min|median    how the samples make a ratio (default paired, see below)
//!   --mbps                      also the MB/s of every contender on every file
//! ```
//!
//! Workloads, each side through the API its users call, into buffers allocated once before
//! the timing (textcodec's sized by its `max_*_buffer_length`), a new textcodec decoder or
//! encoder per call with `last = true`, as a caller converting a whole document does:
//!
//! | workload | textcodec | simdutf |
//! |---|---|---|
//! | `utf8_to_utf16` | UTF-8 `Decoder::decode_to_utf16` | `convert_utf8_to_utf16le` |
//! | `utf16le_to_utf8` | UTF-16LE `Decoder::decode_to_utf8` on the bytes | `convert_utf16le_to_utf8` on the same memory as `u16` |
//! | `utf16_to_utf8` | UTF-8 `Encoder::encode_from_utf16` | `convert_utf16_to_utf8` |
//! | `validate_utf8` | `Encoding::utf8_valid_up_to` | `validate_utf8` |
//! | `utf8_to_utf8` | UTF-8 `Decoder::decode_to_utf8` | `validate_utf8` then `copy_from_slice`; also `copy_from_slice` alone (`memcpy`) and `validate_utf8` alone, the goal's bar being the slower of those two |
//!
//! simdutf's conversions are its validating ones. Before a file's workload is timed, both
//! sides' outputs are compared (a difference is reported and the program exits with 1).
//! Timing: the contenders of a workload take turns, round after round (the order reversed
//! every other round: A B B A A B ...), each sample the calls repeated for about
//! `--sample-ms` of this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`: time the thread was
//! not running, with other programs on the machine, is not counted). The ratio per file is
//! textcodec's throughput over simdutf's: by default (`--stat paired`) the median over the
//! rounds of the ratio within each round, whose two samples ran next to each other under the
//! same load; `--stat min` compares each one's fastest sample, `--stat median` each one's
//! median sample. Under load the fastest samples are the least steady: a file that stays in
//! the L2 cache between two samples runs up to 1.6 times faster than usual in a quiet
//! moment, for one side and not the other. The summary also gives the geometric means by
//! the other two, as a check.

use std::hint::black_box;
use std::process::ExitCode;

use textcodec::dispatch::{detected_level, level, set_level, Level};
use textcodec::{DecoderOptions, EncoderErrorMode, Status};

mod simdutf_safe;
#[allow(dead_code)]
mod workloads;

const FORCE_VAR: &str = "SIMDUTF_FORCE_IMPLEMENTATION";
/// Set in the child run of `--config both`, so it does not start another.
const CHILD_VAR: &str = "TEXTCODEC_SIMDUTF_GOALS_CHILD";

const WORKLOADS: &[(&str, &str)] = &[
    ("utf8_to_utf16", "UTF-8 to UTF-16LE, validating"),
    ("utf16le_to_utf8", "UTF-16LE bytes to UTF-8 (decode)"),
    ("utf16_to_utf8", "UTF-16 units to UTF-8 (encode)"),
    ("validate_utf8", "UTF-8 validation"),
    ("utf8_to_utf8", "UTF-8 to UTF-8, validate and copy"),
];

/// How a contender's samples are compared with textcodec's.
#[derive(Clone, Copy, PartialEq)]
enum Stat {
    /// The median over the rounds of the ratio within each round.
    Paired,
    /// The ratio of the fastest samples.
    Min,
    /// The ratio of the median samples.
    Median,
}

impl Stat {
    const ALL: [Stat; 3] = [Stat::Paired, Stat::Min, Stat::Median];

    fn name(self) -> &'static str {
        match self {
            Stat::Paired => "paired",
            Stat::Min => "min",
            Stat::Median => "median",
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Config {
    /// textcodec's detected level, simdutf's own choice.
    Active,
    /// textcodec forced to AVX2, simdutf forced to `haswell`.
    Avx2,
}

struct Options {
    configs: Vec<Config>,
    workloads: Vec<String>,
    files: Vec<String>,
    rounds: usize,
    sample_ns: u64,
    stat: Stat,
    mbps: bool,
    src_offset: usize,
    dst_offset: usize,
    args: Vec<String>,
}

fn usage() -> ! {
    eprintln!(
        "usage: simdutf_goals [--config active|avx2|both] [--workload LIST] [--file LIST] \
         [--rounds N] [--sample-ms MS] [--stat paired|min|median] [--mbps]"
    );
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        configs: vec![Config::Active, Config::Avx2],
        workloads: Vec::new(),
        files: Vec::new(),
        rounds: 21,
        sample_ns: 1_000_000,
        stat: Stat::Paired,
        mbps: false,
        src_offset: 0,
        dst_offset: 0,
        args: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let takes_value = !matches!(flag.as_str(), "--bench" | "--mbps" | "-h" | "--help");
        let value = if takes_value {
            let v = inline
                .clone()
                .or_else(|| it.next())
                .unwrap_or_else(|| usage());
            if flag != "--config" {
                // Kept for the runs of the other configurations.
                o.args.push(flag.clone());
                o.args.push(v.clone());
            }
            v
        } else {
            String::new()
        };
        match flag.as_str() {
            // What `cargo bench` passes to every bench target.
            "--bench" => {}
            "--config" => {
                o.configs = match value.as_str() {
                    "active" => vec![Config::Active],
                    "avx2" => vec![Config::Avx2],
                    "both" => vec![Config::Active, Config::Avx2],
                    _ => usage(),
                }
            }
            "--workload" => o.workloads = list(&value),
            "--file" => o.files = list(&value),
            "--rounds" => o.rounds = value.parse().unwrap_or_else(|_| usage()),
            "--sample-ms" => {
                let ms: f64 = value.parse().unwrap_or_else(|_| usage());
                o.sample_ns = (ms * 1e6) as u64;
            }
            "--stat" => {
                o.stat = match value.as_str() {
                    "paired" => Stat::Paired,
                    "min" => Stat::Min,
                    "median" => Stat::Median,
                    _ => usage(),
                }
            }
            "--src-offset" => o.src_offset = value.parse().unwrap_or_else(|_| usage()),
            "--dst-offset" => o.dst_offset = value.parse().unwrap_or_else(|_| usage()),
            "--mbps" => {
                o.mbps = true;
                o.args.push(flag);
            }
            "-h" | "--help" => usage(),
            _ => {
                eprintln!("simdutf_goals: unknown argument {arg}");
                usage()
            }
        }
    }
    o.rounds = o.rounds.max(1);
    o
}

fn list(s: &str) -> Vec<String> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec` for the duration of the call, and
    // CLOCK_THREAD_CPUTIME_ID is a clock Linux always has.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// One side of a workload: a name and the measured call (its buffers captured, allocated
/// before), which returns something to keep the work from being optimized away.
struct Contender<'a> {
    name: &'static str,
    run: Box<dyn FnMut() -> usize + 'a>,
}

impl<'a> Contender<'a> {
    fn new(name: &'static str, run: impl FnMut() -> usize + 'a) -> Self {
        Contender {
            name,
            run: Box::new(run),
        }
    }

    /// CPU nanoseconds per call over `iters` calls.
    fn sample(&mut self, iters: u64) -> f64 {
        let t0 = thread_cpu_ns();
        for _ in 0..iters {
            black_box((self.run)());
        }
        (thread_cpu_ns() - t0) as f64 / iters as f64
    }
}

/// Interleaved rounds over `contenders` (A B .. B A A B ..), each sample about `sample_ns`
/// of CPU time: for each contender, its nanoseconds per call in each round.
fn measure(contenders: &mut [Contender], rounds: usize, sample_ns: u64) -> Vec<Vec<f64>> {
    // Warm up and calibrate: how many calls make one sample.
    let iters: Vec<u64> = contenders
        .iter_mut()
        .map(|c| {
            c.sample(1);
            let mut n = 1u64;
            loop {
                let t = c.sample(n) * n as f64;
                if t >= sample_ns as f64 / 4.0 || n >= 1 << 30 {
                    let per_call = t / n as f64;
                    return ((sample_ns as f64 / per_call.max(1.0)).ceil() as u64).max(1);
                }
                n *= 4;
            }
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(rounds); contenders.len()];
    for round in 0..rounds {
        let order: Vec<usize> = if round % 2 == 0 {
            (0..contenders.len()).collect()
        } else {
            (0..contenders.len()).rev().collect()
        };
        for i in order {
            samples[i].push(contenders[i].sample(iters[i]));
        }
    }
    samples
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn corpus(file: &str) -> String {
    let path = format!(
        "{}/../../data/corpus/wikipedia/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The inputs of one file in every form the workloads read.
struct Input {
    file: String,
    utf8: Buf<u8>,
    utf16: Buf<u16>,
    le_bytes: Buf<u8>,
    /// The memory of `le_bytes` as `u16`s, for simdutf's UTF-16LE functions.
    le_units: Buf<u16>,
}

impl Input {
    fn new(file: String, offset: usize) -> Self {
        let text = corpus(&file);
        let utf16: Vec<u16> = text.encode_utf16().collect();
        let le_bytes: Vec<u8> = utf16.iter().flat_map(|u| u.to_le_bytes()).collect();
        let le_units = simdutf_safe::units_of(&le_bytes);
        Input {
            file,
            utf8: Buf::from(text.as_bytes(), offset),
            utf16: Buf::from(&utf16, offset),
            le_bytes: Buf::from(&le_bytes, offset),
            le_units: Buf::from(&le_units, offset),
        }
    }
}

/// `len` elements starting `offset` bytes past a 4096-byte boundary: the same alignment
/// for both sides and in every run (the heap's would change with the allocations before,
/// and the speed of both libraries depends on it; see `--src-offset`).
struct Buf<T> {
    v: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> Buf<T> {
    const PAGE: usize = 4096;

    fn new(len: usize, offset: usize) -> Self {
        let size = std::mem::size_of::<T>();
        assert!(
            offset.is_multiple_of(size),
            "offset {offset} is not a multiple of {size}"
        );
        let v = vec![T::default(); len + Self::PAGE / size];
        let skip =
            (offset % Self::PAGE + Self::PAGE - v.as_ptr() as usize % Self::PAGE) % Self::PAGE;
        Buf {
            v,
            start: skip / size,
            len,
        }
    }

    fn from(data: &[T], offset: usize) -> Self {
        let mut b = Self::new(data.len(), offset);
        b.get_mut().copy_from_slice(data);
        b
    }

    fn get(&self) -> &[T] {
        &self.v[self.start..self.start + self.len]
    }

    fn get_mut(&mut self) -> &mut [T] {
        &mut self.v[self.start..self.start + self.len]
    }
}

/// textcodec's output of a `Decoder` or `Encoder` call into a buffer of its bound, all in
/// one call, or a message.
fn whole<D: Copy>(p: textcodec::Progress, src_len: usize, dst: &[D]) -> Result<Vec<D>, String> {
    if p.status != Status::InputEmpty || p.read != src_len {
        return Err(format!(
            "textcodec stopped after {} of {src_len} units",
            p.read
        ));
    }
    Ok(dst[..p.written].to_vec())
}

fn same<D: PartialEq>(tc: &[D], other: &[D], who: &str) -> Result<(), String> {
    if tc == other {
        return Ok(());
    }
    let at = tc.iter().zip(other).take_while(|(a, b)| a == b).count();
    Err(format!(
        "textcodec and {who} differ at unit {at} (lengths {} and {})",
        tc.len(),
        other.len()
    ))
}

/// The contenders of `workload` on `input`, textcodec first, simdutf second, after checking
/// that their outputs agree.
fn contenders<'a>(
    workload: &str,
    input: &'a Input,
    dst_offset: usize,
) -> Result<Vec<Contender<'a>>, String> {
    let utf8 = textcodec::UTF_8;
    let new_decoder =
        |enc: &'static textcodec::Encoding| enc.new_decoder(DecoderOptions::default());
    let simdutf_failed = || "simdutf rejected the input".to_string();
    Ok(match workload {
        "utf8_to_utf16" => {
            let src = input.utf8.get();
            let len = new_decoder(utf8)
                .max_utf16_buffer_length(src.len())
                .expect("size");
            let mut tc_dst = Buf::<u16>::new(len, dst_offset);
            let p = new_decoder(utf8)
                .decode_to_utf16(src, tc_dst.get_mut(), true)
                .map_err(|e| format!("{e:?}"))?;
            let tc_out = whole(p, src.len(), tc_dst.get())?;
            let mut su_dst = Buf::<u16>::new(src.len(), dst_offset);
            let n =
                simdutf_safe::utf8_to_utf16le(src, su_dst.get_mut()).ok_or_else(simdutf_failed)?;
            same(&tc_out, &su_dst.get()[..n], "simdutf")?;
            vec![
                Contender::new("textcodec", move || {
                    let mut d = new_decoder(utf8);
                    d.decode_to_utf16(black_box(src), tc_dst.get_mut(), true)
                        .map_or(0, |p| p.written)
                }),
                Contender::new("simdutf", move || {
                    simdutf_safe::utf8_to_utf16le(black_box(src), su_dst.get_mut()).unwrap_or(0)
                }),
            ]
        }
        "utf16le_to_utf8" => {
            let le = textcodec::UTF_16LE;
            let src = input.le_bytes.get();
            let units = input.le_units.get();
            let len = new_decoder(le)
                .max_utf8_buffer_length(src.len())
                .expect("size");
            let mut tc_dst = Buf::<u8>::new(len, dst_offset);
            let p = new_decoder(le)
                .decode_to_utf8(src, tc_dst.get_mut(), true)
                .map_err(|e| format!("{e:?}"))?;
            let tc_out = whole(p, src.len(), tc_dst.get())?;
            let mut su_dst = Buf::<u8>::new(3 * units.len(), dst_offset);
            let n = simdutf_safe::utf16le_to_utf8(units, su_dst.get_mut())
                .ok_or_else(simdutf_failed)?;
            same(&tc_out, &su_dst.get()[..n], "simdutf")?;
            same(&tc_out, input.utf8.get(), "the UTF-8 file")?;
            vec![
                Contender::new("textcodec", move || {
                    let mut d = new_decoder(le);
                    d.decode_to_utf8(black_box(src), tc_dst.get_mut(), true)
                        .map_or(0, |p| p.written)
                }),
                Contender::new("simdutf", move || {
                    simdutf_safe::utf16le_to_utf8(black_box(units), su_dst.get_mut()).unwrap_or(0)
                }),
            ]
        }
        "utf16_to_utf8" => {
            let src = input.utf16.get();
            let new_encoder = || utf8.new_encoder(EncoderErrorMode::Html);
            let len = new_encoder()
                .max_buffer_length_from_utf16(src.len())
                .expect("size");
            let mut tc_dst = Buf::<u8>::new(len, dst_offset);
            let p = new_encoder()
                .encode_from_utf16(src, tc_dst.get_mut(), true)
                .map_err(|e| format!("{e:?}"))?;
            let tc_out = whole(p, src.len(), tc_dst.get())?;
            let mut su_dst = Buf::<u8>::new(3 * src.len(), dst_offset);
            let n =
                simdutf_safe::utf16_to_utf8(src, su_dst.get_mut()).ok_or_else(simdutf_failed)?;
            same(&tc_out, &su_dst.get()[..n], "simdutf")?;
            same(&tc_out, input.utf8.get(), "the UTF-8 file")?;
            vec![
                Contender::new("textcodec", move || {
                    let mut e = new_encoder();
                    e.encode_from_utf16(black_box(src), tc_dst.get_mut(), true)
                        .map_or(0, |p| p.written)
                }),
                Contender::new("simdutf", move || {
                    simdutf_safe::utf16_to_utf8(black_box(src), su_dst.get_mut()).unwrap_or(0)
                }),
            ]
        }
        "validate_utf8" => {
            let src = input.utf8.get();
            let valid = textcodec::Encoding::utf8_valid_up_to(src);
            if valid != src.len() {
                return Err(format!(
                    "textcodec finds {valid} of {} bytes valid",
                    src.len()
                ));
            }
            if !simdutf_safe::validate_utf8(src) {
                return Err(simdutf_failed());
            }
            vec![
                Contender::new("textcodec", move || {
                    textcodec::Encoding::utf8_valid_up_to(black_box(src))
                }),
                Contender::new("simdutf", move || {
                    usize::from(simdutf_safe::validate_utf8(black_box(src)))
                }),
            ]
        }
        "utf8_to_utf8" => {
            let src = input.utf8.get();
            let len = new_decoder(utf8)
                .max_utf8_buffer_length(src.len())
                .expect("size");
            let mut tc_dst = Buf::<u8>::new(len, dst_offset);
            let p = new_decoder(utf8)
                .decode_to_utf8(src, tc_dst.get_mut(), true)
                .map_err(|e| format!("{e:?}"))?;
            let tc_out = whole(p, src.len(), tc_dst.get())?;
            same(&tc_out, src, "the input")?;
            let mut su_dst = Buf::<u8>::new(src.len(), dst_offset);
            let n = simdutf_safe::validate_then_copy(src, su_dst.get_mut())
                .ok_or_else(simdutf_failed)?;
            same(&tc_out, &su_dst.get()[..n], "simdutf")?;
            let mut copy_dst = Buf::<u8>::new(src.len(), dst_offset);
            vec![
                Contender::new("textcodec", move || {
                    let mut d = new_decoder(utf8);
                    d.decode_to_utf8(black_box(src), tc_dst.get_mut(), true)
                        .map_or(0, |p| p.written)
                }),
                Contender::new("simdutf", move || {
                    simdutf_safe::validate_then_copy(black_box(src), su_dst.get_mut()).unwrap_or(0)
                }),
                Contender::new("memcpy", move || {
                    let src = black_box(src);
                    let dst = copy_dst.get_mut();
                    dst[..src.len()].copy_from_slice(src);
                    dst[0] as usize
                }),
                Contender::new("simdutf_validate", move || {
                    usize::from(simdutf_safe::validate_utf8(black_box(src)))
                }),
            ]
        }
        _ => unreachable!("unknown workload {workload}"),
    })
}

/// Input bytes of `workload` on `input` (two per UTF-16 unit), for MB/s.
fn input_bytes(workload: &str, input: &Input) -> usize {
    match workload {
        "utf16le_to_utf8" | "utf16_to_utf8" => 2 * input.utf16.len,
        _ => input.utf8.len,
    }
}

/// The results of one workload on one file: ns per call of each contender in each round.
struct Row {
    file: String,
    bytes: usize,
    names: Vec<&'static str>,
    samples: Vec<Vec<f64>>,
}

impl Row {
    fn index(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| *n == name)
            .expect("contender")
    }

    /// textcodec's throughput over that of `reference`, a time made of the contenders'
    /// times in one round (or of their fastest or median times).
    fn ratio_to(&self, stat: Stat, reference: impl Fn(&dyn Fn(&str) -> f64) -> f64) -> f64 {
        let tc = self.index("textcodec");
        match stat {
            Stat::Paired => median(
                (0..self.samples[tc].len())
                    .map(|r| reference(&|n| self.samples[self.index(n)][r]) / self.samples[tc][r])
                    .collect(),
            ),
            Stat::Min | Stat::Median => {
                let pick = |v: &Vec<f64>| {
                    if stat == Stat::Min {
                        v.iter().copied().fold(f64::INFINITY, f64::min)
                    } else {
                        median(v.clone())
                    }
                };
                reference(&|n| pick(&self.samples[self.index(n)])) / pick(&self.samples[tc])
            }
        }
    }

    /// textcodec's throughput over simdutf's.
    fn ratio(&self, stat: Stat) -> f64 {
        self.ratio_to(stat, |t| t("simdutf"))
    }

    /// UTF-8 to UTF-8: textcodec's throughput over the slower of memcpy and simdutf's
    /// validation alone.
    fn ratio_bar(&self, stat: Stat) -> f64 {
        self.ratio_to(stat, |t| t("memcpy").max(t("simdutf_validate")))
    }

    /// MB/s from the median sample.
    fn mbps(&self, name: &str) -> f64 {
        self.bytes as f64 * 1e3 / median(self.samples[self.index(name)].clone())
    }
}

fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}

fn cpu_info() -> (String, Vec<String>) {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let flags = field("flags")
        .split_whitespace()
        .filter(|f| {
            ["avx2", "bmi2"].contains(f) || f.starts_with("avx512") || f.starts_with("sse4")
        })
        .map(str::to_string)
        .collect();
    (field("model name"), flags)
}

/// The runs of the other configurations, each in a new process (simdutf reads
/// `SIMDUTF_FORCE_IMPLEMENTATION` once, at its first call).
fn rerun(config: Config, args: &[String]) -> bool {
    let exe = std::env::current_exe().expect("current_exe");
    let mut cmd = std::process::Command::new(exe);
    cmd.args(args)
        .arg("--config")
        .arg(if config == Config::Avx2 {
            "avx2"
        } else {
            "active"
        })
        .env(CHILD_VAR, "1");
    match config {
        Config::Avx2 => cmd.env(FORCE_VAR, "haswell"),
        Config::Active => cmd.env_remove(FORCE_VAR),
    };
    cmd.status().map(|s| s.success()).unwrap_or(false)
}

fn main() -> ExitCode {
    let o = parse_args();
    let forced = std::env::var(FORCE_VAR).ok();
    // This process runs the first configuration if simdutf's environment is right for it;
    // the others run as children.
    let mine = o.configs[0];
    let env_ok = match mine {
        Config::Active => forced.is_none(),
        Config::Avx2 => forced.as_deref() == Some("haswell"),
    };
    if !env_ok {
        if std::env::var_os(CHILD_VAR).is_some() {
            eprintln!("simdutf_goals: {FORCE_VAR} is not what the configuration needs");
            return ExitCode::FAILURE;
        }
        let mut ok = true;
        for &c in &o.configs {
            ok &= rerun(c, &o.args);
        }
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let mut ok = run(&o, mine, forced.as_deref());
    if std::env::var_os(CHILD_VAR).is_none() {
        for &c in &o.configs[1..] {
            ok &= rerun(c, &o.args);
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Measures and prints one configuration; false if some output differed.
fn run(o: &Options, config: Config, forced: Option<&str>) -> bool {
    let wanted_level = match config {
        Config::Active => detected_level(),
        Config::Avx2 => Level::Avx2,
    };
    let got = set_level(wanted_level);
    let kernel = simdutf_safe::active_kernel();
    let (model, flags) = cpu_info();
    let avx512: Vec<&String> = flags.iter().filter(|f| f.starts_with("avx512")).collect();

    let title = match config {
        Config::Active => "textcodec at its detected level against simdutf's active kernel",
        Config::Avx2 => "textcodec forced to AVX2 against simdutf forced to `haswell`",
    };
    println!("## {title}");
    println!();
    println!("- CPU: {model}; flags: {}", flags.join(" "));
    println!(
        "- AVX-512: {}",
        if avx512.is_empty() {
            "none".to_string()
        } else {
            avx512
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        }
    );
    println!(
        "- textcodec level: {:?} (asked {:?}, detected {:?})",
        level(),
        wanted_level,
        detected_level()
    );
    println!(
        "- simdutf kernel: {} ({FORCE_VAR}={}; read through simdutf's C++ \
         `get_active_implementation()`, which the `simdutf` crate does not expose)",
        kernel.unwrap_or("unknown"),
        forced.unwrap_or("unset")
    );
    println!(
        "- per-thread CPU time, {} interleaved rounds, samples of about {} ms; ratios: {}",
        o.rounds,
        o.sample_ns as f64 / 1e6,
        match o.stat {
            Stat::Paired => "median of the per-round ratios",
            Stat::Min => "fastest samples",
            Stat::Median => "median samples",
        }
    );
    println!();
    if got != wanted_level {
        println!(
            "**textcodec could not be set to {wanted_level:?} on this CPU (it is at {got:?}).**"
        );
        println!();
    }
    if config == Config::Avx2 && kernel != Some("haswell") {
        println!("**simdutf is not on its `haswell` kernel.**");
        println!();
    }

    let mut files = Vec::new();
    for (lang, _) in workloads::LANGS {
        for ext in ["txt", "html"] {
            let f = format!("{lang}.{ext}");
            if o.files.is_empty() || o.files.iter().any(|p| f.contains(p.as_str())) {
                files.push(f);
            }
        }
    }
    let inputs: Vec<Input> = files
        .into_iter()
        .map(|f| Input::new(f, o.src_offset))
        .collect();
    let workloads: Vec<(&str, &str)> = WORKLOADS
        .iter()
        .copied()
        .filter(|(w, _)| {
            o.workloads.is_empty() || o.workloads.iter().any(|p| w.starts_with(p.as_str()))
        })
        .collect();

    let mut ok = true;
    let mut results: Vec<(&str, &str, Vec<Row>)> = Vec::new();
    for &(w, title) in &workloads {
        let mut rows = Vec::new();
        for input in &inputs {
            let mut cs = match contenders(w, input, o.dst_offset) {
                Ok(cs) => cs,
                Err(e) => {
                    eprintln!("simdutf_goals: MISMATCH {w}/{}: {e}", input.file);
                    println!("**{w}/{}: {e}; not measured.**", input.file);
                    println!();
                    ok = false;
                    continue;
                }
            };
            let samples = measure(&mut cs, o.rounds, o.sample_ns);
            rows.push(Row {
                file: input.file.clone(),
                bytes: input_bytes(w, input),
                names: cs.iter().map(|c| c.name).collect(),
                samples,
            });
        }
        results.push((w, title, rows));
    }

    print_summary(o, &results);
    print_per_file(o, &results, &inputs);
    if o.mbps {
        print_mbps(&results);
    }
    ok
}

/// Each file's ratio, with the file's name.
type FileRatios<'a> = Vec<(f64, &'a str)>;

/// One line per goal: geometric mean, lowest, the worst files, how many files miss it.
fn print_summary(o: &Options, results: &[(&str, &str, Vec<Row>)]) {
    let others: Vec<Stat> = Stat::ALL.into_iter().filter(|&s| s != o.stat).collect();
    let others_head: Vec<&str> = others.iter().map(|s| s.name()).collect();
    println!(
        "| workload | goal | files | geomean | lowest | worst files | below goal | geomean by {} |",
        others_head.join(" / ")
    );
    println!("|---|---:|---:|---:|---:|---|---:|---:|");
    for (w, title, rows) in results {
        if rows.is_empty() {
            continue;
        }
        type Measure = fn(&Row, Stat) -> f64;
        let lines: Vec<(String, f64, Measure)> = if *w == "utf8_to_utf8" {
            vec![
                (
                    format!("{title}: textcodec / (simdutf validate + copy)"),
                    1.0,
                    Row::ratio,
                ),
                (
                    format!("{title}: textcodec / slower of (memcpy, simdutf validation)"),
                    0.9,
                    Row::ratio_bar,
                ),
            ]
        } else {
            vec![(format!("{title}: textcodec / simdutf"), 1.0, Row::ratio)]
        };
        for (label, goal, measure) in lines {
            let mut v: FileRatios = rows
                .iter()
                .map(|r| (measure(r, o.stat), r.file.as_str()))
                .collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            let ratios: Vec<f64> = v.iter().map(|x| x.0).collect();
            let worst: Vec<String> = v
                .iter()
                .take(3)
                .map(|(r, f)| format!("{f} {r:.2}"))
                .collect();
            let below = ratios.iter().filter(|&&r| r < goal).count();
            let by_others: Vec<String> = others
                .iter()
                .map(|&s| {
                    let rs: Vec<f64> = rows.iter().map(|r| measure(r, s)).collect();
                    format!("{:.2}", geomean(&rs))
                })
                .collect();
            println!(
                "| {label} | {goal:.1} | {} | **{:.2}** | {:.2} | {} | {below} | {} |",
                ratios.len(),
                geomean(&ratios),
                ratios[0],
                worst.join(", "),
                by_others.join(" / ")
            );
        }
    }
    println!();
}

/// Every file's ratios, one column per workload.
fn print_per_file(o: &Options, results: &[(&str, &str, Vec<Row>)], inputs: &[Input]) {
    let mut head = "| file | KB |".to_string();
    let mut sep = "|---|---:|".to_string();
    for (w, _, rows) in results {
        if rows.is_empty() {
            continue;
        }
        if *w == "utf8_to_utf8" {
            head +=
                " utf8_to_utf8 vs validate+copy | utf8_to_utf8 vs slower of memcpy, validation |";
            sep += "---:|---:|";
        } else {
            head += &format!(" {w} |");
            sep += "---:|";
        }
    }
    println!("{head}");
    println!("{sep}");
    for input in inputs {
        let mut line = format!("| {} | {} |", input.file, input.utf8.len / 1000);
        for (w, _, rows) in results {
            if rows.is_empty() {
                continue;
            }
            let row = rows.iter().find(|r| r.file == input.file);
            let cell =
                |f: &dyn Fn(&Row) -> f64| row.map_or("—".to_string(), |r| format!("{:.2}", f(r)));
            line += &format!(" {} |", cell(&|r| r.ratio(o.stat)));
            if *w == "utf8_to_utf8" {
                line += &format!(" {} |", cell(&|r| r.ratio_bar(o.stat)));
            }
        }
        println!("{line}");
    }
    println!();
}

/// MB/s (10^6 bytes of input per second of CPU time) of every contender.
fn print_mbps(results: &[(&str, &str, Vec<Row>)]) {
    for (w, title, rows) in results {
        let Some(first) = rows.first() else { continue };
        println!("MB/s (median sample), {title} (`{w}`):");
        println!();
        println!("| file | {} |", first.names.join(" | "));
        println!("|---|{}", "---:|".repeat(first.names.len()));
        for r in rows {
            let cells: Vec<String> = r
                .names
                .iter()
                .map(|n| format!("{:.0}", r.mbps(n)))
                .collect();
            println!("| {} | {} |", r.file, cells.join(" | "));
        }
        println!();
    }
}

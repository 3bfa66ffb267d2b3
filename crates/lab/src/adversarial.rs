//! `chaff-lab adversarial`: writes the hostile inputs of `chaff_synth::adversarial` into a
//! folder (for `scripts/adversarial.py`, which times chaff and the other extractors on them);
//! `chaff-lab bench adversarial` runs the shipping `chaff extract` on each and prints time
//! and peak memory against the hardening bounds.

use std::path::PathBuf;

use chaff_cli::common::Status;
use chaff_synth::adversarial::{Scale, write_all};
use clap::Args;

/// Arguments of `chaff-lab adversarial`.
#[derive(Args)]
pub struct AdversarialArgs {
    /// The folder to write into.
    #[arg(long, short)]
    out: PathBuf,
    /// Every count divided by 100.
    #[arg(long)]
    small: bool,
}

/// Runs `chaff-lab adversarial`: one line per input, `name<TAB>path<TAB>what`.
pub fn run(args: AdversarialArgs) -> anyhow::Result<Status> {
    let scale = if args.small {
        Scale::Small
    } else {
        Scale::Full
    };
    for a in write_all(&args.out, scale)? {
        outln!("{}\t{}\t{}", a.name, a.path.display(), a.what)?;
    }
    Ok(Status::Ok)
}

/// Arguments of `chaff-lab bench adversarial`.
#[derive(Args)]
pub struct AdversarialBench {
    /// Where the inputs are written (afresh on every run).
    #[arg(long, default_value = "target/adversarial")]
    dir: PathBuf,
    /// Every count divided by 100 (a quick run; the bounds are for the full sizes).
    #[arg(long)]
    small: bool,
    /// The `chaff` binary (default: the one beside this `chaff-lab`).
    #[arg(long)]
    chaff: Option<PathBuf>,
    /// Only the inputs whose names contain this.
    #[arg(long)]
    only: Option<String>,
}

/// One run of `chaff extract -q FILE` in a child process.
struct Run {
    secs: f64,
    /// CPU time of the child (user and system), seconds.
    cpu: f64,
    /// Peak resident memory of the child (its `ru_maxrss`, the kernel's VmHWM), bytes.
    peak: u64,
    code: Option<i32>,
    stderr: String,
}

fn run_chaff(chaff: &std::path::Path, file: &std::path::Path) -> anyhow::Result<Run> {
    use std::io::Read;
    let err = tempfile_path("stderr");
    let started = std::time::Instant::now();
    let child = std::process::Command::new(chaff)
        .args(["extract", "-q"])
        .arg(file)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&err)?)
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data the kernel fills; `pid` is our own unwaited child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let secs = started.elapsed().as_secs_f64();
    anyhow::ensure!(
        got == pid,
        "wait4 failed: {}",
        std::io::Error::last_os_error()
    );
    let mut stderr = String::new();
    std::fs::File::open(&err)?.read_to_string(&mut stderr)?;
    let _ = std::fs::remove_file(&err);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok(Run {
        secs,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        peak: usage.ru_maxrss.max(0) as u64 * 1024,
        code,
        stderr,
    })
}

fn tempfile_path(what: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chaff-lab-{}-{what}", std::process::id()))
}

/// Runs `chaff-lab bench adversarial`: one line per input with its size, wall time, peak
/// memory, what it costs beyond a tiny page, the bounds and the verdict.
///
/// The memory figure judged is the page's own cost: the child's peak resident memory minus
/// that of the same command on a tiny page (the binary, its built-in models and thread
/// pool, the same for every page). Time likewise: the child's CPU time (user and system)
/// minus the tiny page's, which other processes on a busy machine do not inflate as they do
/// wall time (both are printed; one page is extracted on one thread). Bounds:
/// 2 s per 10 MB and 10x the page's size, each with the floor of a 1 MB page (0.2 s,
/// 10 MB), below which process start-up noise decides. A page that ends in a one-line error
/// holds by the terms and is marked so.
pub fn bench(args: AdversarialBench) -> anyhow::Result<Status> {
    let chaff = match args.chaff {
        Some(c) => c,
        None => std::env::current_exe()?
            .parent()
            .map(|d| d.join("chaff"))
            .ok_or_else(|| anyhow::anyhow!("no folder for chaff-lab"))?,
    };
    anyhow::ensure!(
        chaff.is_file(),
        "{} not found (build chaff-cli)",
        chaff.display()
    );
    let scale = if args.small {
        Scale::Small
    } else {
        Scale::Full
    };
    let inputs = write_all(&args.dir, scale)?;
    let tiny = args.dir.join("tiny.html");
    std::fs::write(
        &tiny,
        "<html><body><p>A tiny page of a few words.</p></body></html>",
    )?;
    // The best of three for the baseline: start-up is what it measures.
    let mut base = run_chaff(&chaff, &tiny)?;
    for _ in 0..2 {
        let r = run_chaff(&chaff, &tiny)?;
        base.secs = base.secs.min(r.secs);
        base.cpu = base.cpu.min(r.cpu);
        base.peak = base.peak.min(r.peak);
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    outln!(
        "baseline (tiny page): {:.3} s wall, {:.3} s CPU, peak {:.1} MB; `{} extract -q FILE`, one process per input; load average {}",
        base.secs,
        base.cpu,
        base.peak as f64 / 1e6,
        chaff.display(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    )?;
    outln!(
        "{:<26} {:>9} {:>7} {:>7} {:>9} {:>9} {:>6} {:>7} {:>8}  outcome",
        "input",
        "MB",
        "wall s",
        "CPU s",
        "peak MB",
        "page MB",
        "x",
        "time",
        "memory"
    )?;
    let mut failed = 0;
    for a in inputs {
        if args.only.as_deref().is_some_and(|o| !a.name.contains(o)) {
            continue;
        }
        let size = std::fs::metadata(&a.path)?.len();
        let r = run_chaff(&chaff, &a.path)?;
        let mb = size as f64 / 1e6;
        let net_secs = (r.cpu - base.cpu).max(0.0);
        let net_mem = r.peak.saturating_sub(base.peak) as f64 / 1e6;
        let time_bound = 0.2 * mb.max(1.0);
        let mem_bound = 10.0 * mb.max(1.0);
        let lines: Vec<&str> = r.stderr.lines().collect();
        // Refused: a failing exit, each cause one line (the page's, then the command's
        // summary when nothing was extracted).
        let one_line_error =
            r.code != Some(0) && lines.len() <= 2 && lines.iter().all(|l| l.starts_with("chaff: "));
        let panicked = r.stderr.contains("panicked") || r.code.is_none();
        let verdict = |ok: bool| {
            if ok {
                "holds"
            } else if one_line_error {
                "error"
            } else {
                "FAILS"
            }
        };
        let (t, m) = (
            verdict(net_secs <= time_bound),
            verdict(net_mem <= mem_bound),
        );
        if panicked || t == "FAILS" || m == "FAILS" {
            failed += 1;
        }
        let outcome = match (r.code, lines.first()) {
            (Some(0), _) => "extracted".to_string(),
            (code, Some(line)) => format!("exit {code:?}: {line}"),
            (code, None) => format!("exit {code:?}"),
        };
        outln!(
            "{:<26} {:>9.2} {:>7.2} {:>7.2} {:>9.1} {:>9.1} {:>6.1} {:>7} {:>8}  {}",
            a.name,
            mb,
            r.secs,
            r.cpu,
            r.peak as f64 / 1e6,
            net_mem,
            net_mem / mb.max(1e-9),
            t,
            m,
            outcome
        )?;
    }
    outln!(
        "bounds: CPU time - baseline <= 2 s per 10 MB, peak - baseline <= 10x the size (floors: 0.2 s, 10 MB); `error`: refused on one line; {failed} inputs fail"
    )?;
    Ok(if failed == 0 {
        Status::Ok
    } else {
        Status::Partial
    })
}

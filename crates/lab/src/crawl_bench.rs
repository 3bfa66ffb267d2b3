//! `chaff-lab bench crawl`: the crawler against a local synthetic site with no delay.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use chaff_cli::common::Status;
use chaff_cli::crawl::crawl_with_progress;
use chaff_crawl::testsite::{TestServer, synthetic_site};
use chaff_crawl::{CrawlConfig, Seed};
use clap::Args;

/// Arguments of `chaff-lab bench crawl`.
#[derive(Args)]
pub struct CrawlBench {
    /// Pages of the synthetic site served on 127.0.0.1.
    #[arg(long, default_value_t = 50_000)]
    pages: usize,
    /// Requests under way at once.
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Requests under way at once to the (single) host.
    #[arg(long, default_value_t = 32)]
    per_host_connections: u32,
    /// Keep the WARC here instead of a temporary folder.
    #[arg(long, value_name = "FILE.warc.gz")]
    out: Option<PathBuf>,
}

/// `chaff bench crawl`: the crawler against a local synthetic site with no delay; prints
/// pages per second and resident memory as the crawl proceeds and at its peak.
pub fn bench(args: CrawlBench) -> anyhow::Result<Status> {
    let server = TestServer::start_with(synthetic_site(args.pages), false)
        .context("cannot start the local test server")?;
    let tmp = tempfile_dir()?;
    let out = args.out.unwrap_or_else(|| tmp.join("bench.warc.gz"));
    let config = CrawlConfig {
        out: out.clone(),
        delay: Duration::ZERO,
        concurrency: args.concurrency.max(1),
        per_host_connections: args.per_host_connections.max(1),
        max_depth: u16::MAX,
        ..CrawlConfig::default()
    };
    let seeds = vec![Seed::Page(format!("{}/", server.base()))];
    let stats = std::sync::Arc::new(chaff_crawl::Stats::default());
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // (pages crawled, resident KiB) every 0.2 s while the crawl runs.
    let sampler = {
        let (stats, done) = (std::sync::Arc::clone(&stats), std::sync::Arc::clone(&done));
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(kib) = proc_status_kib("VmRSS:") {
                    samples.push((stats.stored.load(std::sync::atomic::Ordering::Relaxed), kib));
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            samples
        })
    };
    let start = Instant::now();
    let summary = crawl_with_progress(config, seeds.into_iter(), false, stats);
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let samples = sampler.join().unwrap_or_default();
    let summary = summary?;
    let secs = start.elapsed().as_secs_f64();
    drop(server);
    outln!(
        "crawl: {} pages ({} responses) in {:.2} s: {:.0} pages/s, {:.1} MB of WARC",
        summary.pages_ok,
        summary.stored,
        secs,
        summary.pages_ok as f64 / secs,
        std::fs::metadata(&out).map_or(0.0, |m| m.len() as f64 / 1e6)
    )?;
    let step = (args.pages as u64 / 5).max(1);
    let mut next = step;
    let mut line = String::from("resident memory by pages crawled:");
    for (pages, kib) in &samples {
        if *pages >= next {
            line.push_str(&format!(" {pages}: {:.1} MB;", *kib as f64 / 1024.0));
            next += step;
        }
    }
    outln!("{line}")?;
    outln!(
        "peak resident memory (VmHWM): {}",
        proc_status_kib("VmHWM:")
            .map_or("unknown".into(), |k| format!("{:.1} MB", k as f64 / 1024.0))
    )?;
    if tmp.exists() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Ok(if summary.errors > 0 {
        Status::Partial
    } else {
        Status::Ok
    })
}

fn tempfile_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("chaff-bench-crawl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

/// A `/proc/self/status` field in KiB (Linux), e.g. `VmRSS:` or `VmHWM:`.
pub fn proc_status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

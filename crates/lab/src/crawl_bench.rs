//! `chaff-lab bench crawl`: the crawler against a local synthetic site with no delay.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use chaff_cli::common::Status;
use chaff_cli::crawl::{crawl_with_progress, proc_status_kib};
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
    let mut samples = Vec::new();
    let start = Instant::now();
    let summary = crawl_with_progress(config, seeds.into_iter(), false, Some(&mut samples))?;
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

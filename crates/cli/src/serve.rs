//! `chaff serve`: the HTTP API and the inspector; chaff-server does the work.

use chaff_cli::common::{Status, warn};
use clap::Args;

/// Arguments of `chaff serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Profiles by site (`learn --per-site` output); /v1/learn stores new ones there.
    #[arg(long, value_name = "DIR")]
    profiles: Option<std::path::PathBuf>,
    /// The address to listen on (loopback by default; the server never fetches a URL).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    listen: std::net::SocketAddr,
    /// Pages the inspector offers: files, folders, WARC archives.
    #[arg(long, value_name = "DIR_OR_WARC")]
    pages: Vec<String>,
    /// The largest request body, in bytes (larger ones get 413).
    #[arg(long, default_value_t = chaff_server::DEFAULT_MAX_BODY, value_name = "BYTES")]
    max_body: usize,
    /// Extractions at once (beyond them 64 wait, more get 503); 0: one per core.
    #[arg(long, default_value_t = 0, value_name = "N")]
    concurrency: usize,
    /// A request's time budget: `30s`, `500ms`.
    #[arg(long, default_value = "30s", value_parser = chaff_crawl::parse_duration)]
    timeout: std::time::Duration,
}

/// Runs `chaff serve` until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> anyhow::Result<Status> {
    let server = chaff_server::Server::new(chaff_server::Config {
        profiles: args.profiles,
        pages: args.pages,
        max_body: args.max_body,
        concurrency: args.concurrency,
        timeout: args.timeout,
        ..Default::default()
    })?;
    server.warnings().iter().for_each(warn);
    let ready = |a| eprintln!("chaff: serving on http://{a}/");
    Ok(server.run(args.listen, ready).map(|()| Status::Ok)?)
}

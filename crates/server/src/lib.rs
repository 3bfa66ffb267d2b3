//! `chaff-server`: chaff over HTTP, for services that extract behind an API and for people
//! tuning chaff on their sites.
//!
//! What it is for: the `chaff serve` command's service. [`Server::new`] opens the site
//! profiles and builds one [`chaff::Extractor`]; [`Server::router`] is the axum application:
//! the JSON API (`/v1/extract`, `/v1/segment`, `/v1/inspect`, `/v1/learn`, `/v1/sites`,
//! `/v1/pages`), `/healthz`, `/metrics` (Prometheus text), `/openapi.json` (generated from the
//! handlers' annotations), and the inspector at `/` (static files compiled in). Extraction
//! and learning are CPU work: they run on tokio's blocking threads behind a bound on
//! concurrent work, a bounded queue (503 with `Retry-After` beyond it) and a time budget per
//! request; bodies are capped before they are read whole (413).
//!
//! What it must not know: command-line flags and exit codes (the `chaff` binary parses
//! those), how methods learn or extract (it calls the `chaff` facade: `Extractor`,
//! `Learner`, `Extraction`), and the network beyond its own listening socket: it never
//! fetches a URL; a page's `url` is only its address.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let server = chaff_server::Server::new(chaff_server::Config::default())?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! server.serve(listener, chaff_server::shutdown_signal()).await?;
//! # Ok(()) }
//! ```

mod api;
mod error;
mod inspect;
mod limit;
mod metrics;
mod neutralise;
mod state;
mod ui;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use api::openapi;
pub use error::Error;
pub use neutralise::neutralise;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// A folder of site profiles (as `chaff learn --per-site` writes them); `/v1/learn`
    /// stores new profiles there when it is writable.
    pub profiles: Option<PathBuf>,
    /// Pages the inspector offers (files, folders, WARC archives), read at start.
    pub pages: Vec<String>,
    /// The largest request body accepted, in bytes; larger ones get 413 before they are read
    /// whole.
    pub max_body: usize,
    /// Extractions (or learnings) run at once; 0 for one per core.
    pub concurrency: usize,
    /// Requests that may wait for a turn beyond those running; more get 503.
    pub queue: usize,
    /// A request's time budget, from its start to the end of its extraction; past it the
    /// answer is 503 (still waiting for a turn) or 504 (extraction too slow).
    pub timeout: Duration,
}

/// The default body limit: 8 MiB.
pub const DEFAULT_MAX_BODY: usize = 8 << 20;
/// The default number of requests waiting for a turn.
pub const DEFAULT_QUEUE: usize = 64;
/// The default time budget of a request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The most pages the inspector keeps from `--pages`.
pub const MAX_INSPECTOR_PAGES: usize = 1000;

impl Default for Config {
    fn default() -> Config {
        Config {
            profiles: None,
            pages: Vec::new(),
            max_body: DEFAULT_MAX_BODY,
            concurrency: 0,
            queue: DEFAULT_QUEUE,
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// The service: its state and its routes.
#[derive(Clone)]
pub struct Server {
    state: Arc<state::AppState>,
}

impl Server {
    /// Opens the profiles, builds the extractor and reads the inspector's pages.
    pub fn new(config: Config) -> Result<Server, Error> {
        Ok(Server {
            state: Arc::new(state::AppState::new(config)?),
        })
    }

    /// What the set-up noticed and did not refuse (unreadable pages, ignored models).
    pub fn warnings(&self) -> &[String] {
        &self.state.warnings
    }

    /// The sites with a profile.
    pub fn sites(&self) -> Vec<String> {
        self.state.sites()
    }

    /// The axum application.
    pub fn router(&self) -> axum::Router {
        api::router(Arc::clone(&self.state))
    }

    /// Serves on `listener` until `shutdown` completes, then finishes the requests in flight.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        axum::serve(listener, self.router())
            .with_graceful_shutdown(shutdown)
            .await
    }
}

impl Server {
    /// Serves on `addr`, on a runtime of its own, until Ctrl-C or SIGTERM, then finishes the
    /// requests in flight; `ready` hears the address bound (port 0 asks for any free port).
    pub fn run(
        self,
        addr: std::net::SocketAddr,
        ready: impl FnOnce(std::net::SocketAddr),
    ) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            ready(listener.local_addr()?);
            self.serve(listener, shutdown_signal()).await
        })
    }
}

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        // Without a handler there is nothing to wait for; SIGTERM may still come.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

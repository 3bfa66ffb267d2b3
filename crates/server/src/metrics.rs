//! A small Prometheus registry: requests by route and status, a latency histogram by route,
//! pages extracted, extraction errors and requests in flight, written in the text format.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use tokio::time::Instant;

use crate::state::AppState;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

#[derive(Default)]
struct Latency {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

/// The counters.
#[derive(Default)]
pub(crate) struct Metrics {
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    latency: Mutex<BTreeMap<String, Latency>>,
    pages: AtomicU64,
    errors: AtomicU64,
    in_flight: AtomicI64,
}

impl Metrics {
    /// Counts one extracted page.
    pub(crate) fn page(&self) {
        self.pages.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one failed extraction or learning.
    pub(crate) fn error(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    fn record(&self, route: &str, status: u16, seconds: f64) {
        if let Ok(mut r) = self.requests.lock() {
            *r.entry((route.to_string(), status)).or_default() += 1;
        }
        if let Ok(mut l) = self.latency.lock() {
            let h = l.entry(route.to_string()).or_default();
            for (i, &b) in BUCKETS.iter().enumerate() {
                if seconds <= b {
                    h.counts[i] += 1;
                }
            }
            h.count += 1;
            h.sum += seconds;
        }
    }

    /// The registry in Prometheus's text format.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP chaff_http_requests_total HTTP requests answered, by route and status.\n",
        );
        out.push_str("# TYPE chaff_http_requests_total counter\n");
        if let Ok(r) = self.requests.lock() {
            for ((route, status), n) in r.iter() {
                let _ = writeln!(
                    out,
                    "chaff_http_requests_total{{route=\"{}\",status=\"{status}\"}} {n}",
                    label(route)
                );
            }
        }
        out.push_str(
            "# HELP chaff_http_request_duration_seconds Time to answer a request, by route.\n",
        );
        out.push_str("# TYPE chaff_http_request_duration_seconds histogram\n");
        if let Ok(l) = self.latency.lock() {
            for (route, h) in l.iter() {
                let route = label(route);
                for (i, b) in BUCKETS.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "chaff_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{b}\"}} {}",
                        h.counts[i]
                    );
                }
                let _ = writeln!(
                    out,
                    "chaff_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                    h.count
                );
                let _ = writeln!(
                    out,
                    "chaff_http_request_duration_seconds_sum{{route=\"{route}\"}} {}",
                    h.sum
                );
                let _ = writeln!(
                    out,
                    "chaff_http_request_duration_seconds_count{{route=\"{route}\"}} {}",
                    h.count
                );
            }
        }
        let _ = write!(
            out,
            "# HELP chaff_pages_extracted_total Pages extracted.\n\
             # TYPE chaff_pages_extracted_total counter\n\
             chaff_pages_extracted_total {}\n\
             # HELP chaff_errors_total Extractions and learnings that failed (the page or pages refused, the time budget spent, or an internal error).\n\
             # TYPE chaff_errors_total counter\n\
             chaff_errors_total {}\n\
             # HELP chaff_http_requests_in_flight Requests being answered.\n\
             # TYPE chaff_http_requests_in_flight gauge\n\
             chaff_http_requests_in_flight {}\n",
            self.pages.load(Ordering::Relaxed),
            self.errors.load(Ordering::Relaxed),
            self.in_flight.load(Ordering::Relaxed),
        );
        out
    }
}

/// A label value escaped for the text format.
fn label(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Middleware: counts every request by its route (the matched pattern, `other` for unknown
/// paths, so that a scan cannot grow the registry) and times it.
pub(crate) async fn track(
    State(state): State<Arc<AppState>>,
    req: Request,
    next: Next,
) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "other".to_string(), |m| m.as_str().to_string());
    let start = Instant::now();
    state.metrics.in_flight.fetch_add(1, Ordering::Relaxed);
    let response = next.run(req).await;
    state.metrics.in_flight.fetch_sub(1, Ordering::Relaxed);
    state.metrics.record(
        &route,
        response.status().as_u16(),
        start.elapsed().as_secs_f64(),
    );
    response
}

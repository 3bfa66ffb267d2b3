//! Bounded work: a request is admitted only while fewer than `concurrency + queue` are in
//! (otherwise 503 with `Retry-After` at once, before its body is read); an admitted request
//! waits for one of `concurrency` turns, runs its CPU work on a blocking thread, and gives
//! up waiting when its time budget is spent. Both permits travel into the blocking work and
//! are released only when it really ends, so a request that timed out still counts until
//! its extraction stops: memory stays bounded by the admitted requests.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::error::ApiError;
use crate::state::AppState;

/// The bounds on work.
pub(crate) struct Limits {
    admission: Arc<Semaphore>,
    work: Arc<Semaphore>,
    budget: Duration,
}

/// An admitted request's place: held until its work ends.
pub(crate) struct Admitted {
    _permit: OwnedSemaphorePermit,
    started: Instant,
}

/// The admission in a request's extensions (which must be `Clone`): taken out once by the
/// handler.
#[derive(Clone)]
pub(crate) struct Slot(Arc<std::sync::Mutex<Option<Admitted>>>);

impl Limits {
    pub(crate) fn new(concurrency: usize, queue: usize, budget: Duration) -> Limits {
        let concurrency = match concurrency {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        Limits {
            admission: Arc::new(Semaphore::new(concurrency.saturating_add(queue))),
            work: Arc::new(Semaphore::new(concurrency)),
            budget,
        }
    }

    fn admit(&self) -> Option<Admitted> {
        let permit = Arc::clone(&self.admission).try_acquire_owned().ok()?;
        Some(Admitted {
            _permit: permit,
            started: Instant::now(),
        })
    }

    /// Runs `work` on a blocking thread when a turn is free, within the request's budget.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        admitted: Admitted,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let deadline = admitted.started + self.budget;
        let turn = tokio::time::timeout_at(deadline, Arc::clone(&self.work).acquire_owned()).await;
        let turn = match turn {
            Ok(Ok(turn)) => turn,
            Ok(Err(_)) => return Err(ApiError::busy("the server is shutting down")),
            Err(_) => {
                return Err(ApiError::busy(
                    "the server is busy: no turn came within the time budget",
                ));
            }
        };
        let task = tokio::task::spawn_blocking(move || {
            let out = work();
            drop(turn);
            drop(admitted);
            out
        });
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(out)) => out,
            Ok(Err(e)) => Err(ApiError::internal(format!("the work failed: {e}"))),
            Err(_) => Err(ApiError::new(
                axum::http::StatusCode::GATEWAY_TIMEOUT,
                format!(
                    "the request took longer than its time budget of {:?}",
                    self.budget
                ),
            )),
        }
    }
}

/// Middleware of the routes that do CPU work: admits the request or answers 503 before its
/// body is read.
pub(crate) async fn admit(
    State(state): State<Arc<AppState>>,
    mut req: Request,
    next: Next,
) -> Response {
    match state.limits.admit() {
        Some(a) => {
            req.extensions_mut()
                .insert(Slot(Arc::new(std::sync::Mutex::new(Some(a)))));
            next.run(req).await
        }
        None => ApiError::busy("the server is busy: too many requests in progress").into_response(),
    }
}

/// The admission the middleware gave, taken out of its slot.
pub(crate) fn take(slot: Slot) -> Result<Admitted, ApiError> {
    slot.0
        .lock()
        .ok()
        .and_then(|mut s| s.take())
        .ok_or_else(|| ApiError::internal("a request reached its handler without admission"))
}

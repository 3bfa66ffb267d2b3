//! A page's deadline, seen by the long loops of the methods that run on it.
//!
//! The facade sets the deadline of the page it is working on for the current thread
//! ([`enter`]); a method's long loop asks [`passed`] now and then and, when it has, cuts its
//! work short (its result is then thrown away: the facade reports the page as past its
//! deadline, naming the stage). Methods need no parameter for it, and a thread without a
//! deadline pays one thread-local read per check.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static UNTIL: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Restores the thread's previous deadline when dropped.
#[must_use = "the deadline holds only while the guard lives"]
pub struct Entered {
    previous: Option<Instant>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        UNTIL.with(|u| u.set(self.previous));
    }
}

/// Sets the current thread's deadline (`None`: none) until the guard is dropped.
pub fn enter(until: Option<Instant>) -> Entered {
    Entered {
        previous: UNTIL.with(|u| u.replace(until)),
    }
}

/// Whether the current thread's deadline has passed (false when it has none).
pub fn passed() -> bool {
    UNTIL
        .with(Cell::get)
        .is_some_and(|until| Instant::now() >= until)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_holds_while_entered_and_nests() {
        assert!(!passed());
        {
            let _outer = enter(Some(Instant::now()));
            assert!(passed());
            {
                let _inner = enter(None);
                assert!(!passed());
            }
            assert!(passed());
        }
        assert!(!passed());
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let _g = enter(Some(far));
        assert!(!passed());
    }
}

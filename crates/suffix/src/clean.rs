//! Cleaning by interval union (thesis §3.4.1), with the expressions as regexes.
//!
//! Profiles whose expressions [`crate::tokenmatch`] can read back as token strings are
//! matched there, at a third to a fifth of the cost; this engine serves the others and
//! [`crate::CleanParams::regex_matching`], and is the reference the token matcher is tested
//! against.
//!
//! Applying expressions one after another on the text each leaves behind makes the result
//! depend on their order (the thesis's `aabb` example). The thesis's remedy: match every
//! expression independently on the original text, take the union of all match intervals, and
//! merge intervals separated by fewer than `merge_gap` characters. We do that in one pass
//! for all expressions together instead of m passes:
//!
//! * a lazy DFA over the alternation of all expressions, one pattern, with
//!   [`MatchKind::All`] reports, in one forward scan, every `end` at which some match of
//!   some expression ends (overlapping search);
//! * for each end, a reverse lazy DFA over all expressions, anchored there, finds the
//!   leftmost start of any expression's match ending there, so `[start, end)` is the union
//!   of all matches of all expressions ending at `end` (intervals sharing an end are
//!   nested, so their union is the widest).
//!
//! The union over these intervals is therefore the union over *all* matches of all
//! expressions, a set that by construction does not depend on the expressions' order.
//!
//! Both automata are built from one alternation with the expressions' common beginnings
//! (forward) or endings (reverse) factored out into a trie of atoms (`factored`). Learned
//! expressions are overlapping repeats of the same template text, so they share a lot; a
//! plain alternation instead puts a thread for the start of every expression into every DFA
//! state, and determinising those states was most of the cleaning time. Measured with a probe
//! timing compilation and cleaning of 100 pages' texts (session of 2026-11-28, same matches
//! on every page): SWDE christianbook (519 expressions, 1.0 MB of text) 813-911 ms -> 143-197
//! ms, booksamillion (115, 0.4 MB) 99-103 -> 42-43 ms, a synthetic site (169, 0.5 MB) 131-134
//! -> 26-30 ms; `chaff-lab bench site` ratios 3.57 -> 2.95, 2.94 -> 2.69 and 3.62 -> 3.05.
//!
//! What the rest costs (`examples/cleanprobe.rs`, session of 2026-11-28: christianbook's
//! profile of 519 expressions on 100 pages' texts, 1.0 MB): a new cleaner matches them back
//! to back in 55-61 ms after compiling, and in 141 ms when 32 MB of other memory is touched
//! between pages, as an extraction's other stages do. The steps are bound by cache misses on
//! the automata's transition tables (5-6 MB each way; in template text every byte leads to a
//! new state), and the reverse scans walk about three times the text they cover, because
//! the expressions overlap (1.42 MB of spans for 0.49 MB covered, with the 468 expressions
//! learned from the first 100 pages): fewer steps, not faster ones, is where time is left.
//!
//! Measured alternatives:
//! * a forward DFA with one pattern per expression, reporting every `(expression, end)`
//!   pair, and a reverse search anchored on that expression for each pair (the same union):
//!   its DFA states also tell the expressions apart, so it builds more of them (the
//!   synthetic site: 206-291 ms against 130-224 ms for the plain alternation). The tests
//!   keep it as the reference (`per_expression`);
//! * the plain alternation of all expressions, forward and reverse (the numbers above);
//! * remembering, per position of the text, the state each reverse scan was in there and the
//!   start it went on to find, so that a later scan reaching a position in a remembered state
//!   stops and takes that answer (session of 2026-12-06, `cleanprobe` on christianbook's
//!   profile of 517 expressions and 100 pages: the same matches, no faster). Of the 53,400
//!   scans of a round, 19,000 met an earlier scan's state, but only near their ends: 1.45 MB
//!   of steps against 1.42 MB. Scans from different ends follow different sets of expression
//!   positions until those die out. Nor do ends bunch within whitespace runs, where
//!   expressions ending in `\s*` or `(?:\s+|$)` might share one scan: 1 end in 58 shares its
//!   run with the end before it. A scan walks 27 bytes on average; matching the 100 pages
//!   (1.0 MB forward, 1.42 MB of reverse steps) takes 52-55 ms after compiling, the
//!   transition tables' cache misses, as above.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use regex_automata::hybrid::dfa::{Cache, DFA, OverlappingState};
use regex_automata::nfa::thompson;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Hir, HirKind};

/// A compiled set of cleaning expressions.
pub struct Cleaner {
    engines: Option<(DFA, DFA)>,
    /// Idle caches (forward, reverse, the bytes they held when pooled), kept so the next
    /// page does not build the same DFA states again.
    caches: Mutex<Vec<(Cache, Cache, usize)>>,
    expressions: usize,
}

/// Bytes held by idle caches of every cleaner in the process ([`POOL_BUDGET`] at most).
static POOLED: AtomicUsize = AtomicUsize::new(0);

/// The most idle cache memory all cleaners together keep. An extractor holds one compiled
/// profile per site, each with its own cleaner; without a common bound, every site whose
/// expressions once filled their caches (up to [`CACHE_BYTES`] per direction) would keep
/// them: 3.3 GB extracting the Dragnet pages with per-site suffix profiles. Past the
/// budget a cache is freed after use, and the next page of that site rebuilds its states.
const POOL_BUDGET: usize = 256 << 20;

impl Drop for Cleaner {
    fn drop(&mut self) {
        let pool = match self.caches.get_mut() {
            Ok(pool) => pool,
            Err(poisoned) => poisoned.into_inner(),
        };
        let held: usize = pool.iter().map(|c| c.2).sum();
        POOLED.fetch_sub(held, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Cleaner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cleaner")
            .field("expressions", &self.expressions)
            .finish()
    }
}

/// An error and its causes on one line, at most 300 characters: a syntax error quotes the
/// pattern over several lines, its reason on the line starting `error:`.
fn one_line(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = Vec::new();
    let mut next = Some(e);
    while let Some(e) = next {
        let text = e.to_string();
        let reason = text
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("error:"));
        parts.push(reason.map_or_else(
            || text.split_whitespace().collect::<Vec<_>>().join(" "),
            str::to_string,
        ));
        next = e.source();
    }
    parts.join(": ").chars().take(300).collect()
}

/// Lazy DFA cache per direction and thread; large pattern sets need room to stay fast.
const CACHE_BYTES: usize = 32 << 20;

/// The most expressions one cleaner compiles. Expressions come from site profiles, which
/// are untrusted input; learned models hold hundreds to a few thousand.
pub const MAX_EXPRESSIONS: usize = 100_000;
/// The longest expression compiled, in bytes (64 KiB).
pub const MAX_EXPRESSION_BYTES: usize = 64 << 10;
/// How deeply groups and repetitions may nest in an expression (regex-syntax's parser is
/// not recursive, but its consumers are; learned expressions nest two or three levels).
pub const MAX_NESTING: u32 = 100;
/// The largest compiled NFA of a cleaner, per direction, in bytes (64 MiB): counted
/// repetitions (`(a{1000}){1000}`) and large Unicode classes are refused here rather than
/// built. Matching is by a lazy DFA whose state cache is capped (`CACHE_BYTES`), in time
/// linear in the text: the engines never backtrack.
pub const MAX_NFA_BYTES: usize = 64 << 20;

impl Cleaner {
    /// Compiles the expressions: at most [`MAX_EXPRESSIONS`] of at most
    /// [`MAX_EXPRESSION_BYTES`] each, nesting at most [`MAX_NESTING`] deep, into NFAs of at
    /// most [`MAX_NFA_BYTES`]; the error names the limit passed.
    pub fn new<S: AsRef<str>>(expressions: &[S]) -> Result<Cleaner, String> {
        if expressions.len() > MAX_EXPRESSIONS {
            return Err(format!(
                "{} cleaning expressions, more than the limit of {MAX_EXPRESSIONS}",
                expressions.len()
            ));
        }
        if let Some((i, e)) = expressions
            .iter()
            .enumerate()
            .find(|(_, e)| e.as_ref().len() > MAX_EXPRESSION_BYTES)
        {
            return Err(format!(
                "cleaning expression {} is {} bytes long, more than the limit of {} KiB",
                i + 1,
                e.as_ref().len(),
                MAX_EXPRESSION_BYTES >> 10
            ));
        }
        if expressions.is_empty() {
            return Ok(Cleaner {
                engines: None,
                caches: Mutex::new(Vec::new()),
                expressions: 0,
            });
        }
        let patterns: Vec<&str> = expressions.iter().map(AsRef::as_ref).collect();
        let config = || {
            DFA::config()
                .match_kind(MatchKind::All)
                .cache_capacity(CACHE_BYTES)
        };
        let syntax = || syntax::Config::new().nest_limit(MAX_NESTING);
        let nfa = || {
            thompson::Config::new()
                .nfa_size_limit(Some(MAX_NFA_BYTES))
                .which_captures(thompson::WhichCaptures::None)
        };
        let failed = |e: &(dyn std::error::Error + 'static)| {
            format!(
                "cannot compile cleaning expressions (limits: nesting {MAX_NESTING}, NFA {} MiB): {}",
                MAX_NFA_BYTES >> 20,
                one_line(e)
            )
        };
        // Each expression parsed once, on its own (its flags and nesting its own). The reverse
        // engine keeps them apart; the forward scan needs only where matches end, so it runs
        // over their alternation.
        let hirs = syntax::parse_many_with(&patterns, &syntax()).map_err(|e| failed(&e))?;
        let engine = |nfa: Result<thompson::NFA, thompson::BuildError>| {
            DFA::builder()
                .configure(config())
                .build_from_nfa(nfa.map_err(|e| failed(&e))?)
                .map_err(|e| failed(&e))
        };
        let reverse = engine(
            thompson::Compiler::new()
                .configure(nfa().reverse(true))
                .build_from_hir(&factored(&hirs, Direction::Reverse)),
        )?;
        let forward = engine(
            thompson::Compiler::new()
                .configure(nfa())
                .build_from_hir(&factored(&hirs, Direction::Forward)),
        )?;
        Ok(Cleaner {
            engines: Some((forward, reverse)),
            caches: Mutex::new(Vec::new()),
            expressions: expressions.len(),
        })
    }

    /// Number of expressions.
    pub fn len(&self) -> usize {
        self.expressions
    }

    /// True when there are no expressions.
    pub fn is_empty(&self) -> bool {
        self.expressions == 0
    }

    /// All match intervals of all expressions, unioned (sorted, disjoint), before gap
    /// merging.
    pub fn matches(&self, text: &str) -> Vec<Range<usize>> {
        let Some((fwd, rev)) = &self.engines else {
            return Vec::new();
        };
        let mut caches = match self.caches.lock().ok().and_then(|mut pool| pool.pop()) {
            Some((f, r, held)) => {
                POOLED.fetch_sub(held, Ordering::Relaxed);
                (f, r)
            }
            None => (fwd.create_cache(), rev.create_cache()),
        };
        let mut intervals = Vec::new();
        let input = Input::new(text);
        let mut state = OverlappingState::start();
        loop {
            // The default configuration never gives up, so errors cannot occur; stop quietly
            // if one ever does rather than panic.
            if fwd
                .try_search_overlapping_fwd(&mut caches.0, &input, &mut state)
                .is_err()
            {
                break;
            }
            let Some(hm) = state.get_match() else { break };
            let end = hm.offset();
            let start = leftmost_start(rev, &mut caches.1, text, end).unwrap_or(end);
            if start < end {
                intervals.push(start..end);
            }
        }
        let held = caches.0.memory_usage() + caches.1.memory_usage();
        let room = POOLED
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |pooled| {
                (pooled + held <= POOL_BUDGET).then_some(pooled + held)
            })
            .is_ok();
        if room {
            match self.caches.lock() {
                Ok(mut pool) => pool.push((caches.0, caches.1, held)),
                Err(_) => {
                    POOLED.fetch_sub(held, Ordering::Relaxed);
                }
            }
        }
        union(intervals)
    }

    /// The intervals to remove: all matches unioned, then merged across gaps shorter than
    /// `merge_gap` characters.
    pub fn intervals(&self, text: &str, merge_gap: usize) -> Vec<Range<usize>> {
        merge_gaps(text, self.matches(text), merge_gap)
    }

    /// The text with the intervals removed.
    pub fn clean(&self, text: &str, merge_gap: usize) -> String {
        remove(text, &self.intervals(text, merge_gap))
    }
}

/// Which ends of the expressions a [`factored`] alternation shares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Common beginnings (a trie), for the forward scan.
    Forward,
    /// Common endings, for the reverse scan, which reads expressions from their end.
    Reverse,
}

/// The most alternations a factored expression nests (beyond those of the expressions
/// themselves): the NFA compiler recurses on nesting. Past it, [`factored`] gives the plain
/// alternation, which matches the same strings. The deepest among the sites of Dragnet and
/// trafilatura-eval nests 84 (most 5 to 9); 256 compiles on a test thread's stack in a debug
/// build (`deepest_factoring_compiles`).
const MAX_FACTORED_NESTING: usize = 256;

/// An expression as atoms: the parts of its top-level concatenation, each literal split into
/// its characters, so that expressions beginning (or ending) with the same words share atoms.
fn atoms(hir: &Hir) -> Vec<Hir> {
    let parts = match hir.kind() {
        HirKind::Concat(parts) => parts.as_slice(),
        _ => std::slice::from_ref(hir),
    };
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        match part.kind() {
            HirKind::Literal(lit) => match std::str::from_utf8(&lit.0) {
                Ok(text) => out.extend(text.chars().map(|c| {
                    let mut buf = [0u8; 4];
                    Hir::literal(c.encode_utf8(&mut buf).as_bytes())
                })),
                Err(_) => out.extend(lit.0.iter().map(|&b| Hir::literal([b]))),
            },
            _ => out.push(part.clone()),
        }
    }
    out
}

/// The alternation of all expressions with common beginnings (forward) or endings (reverse)
/// factored out: `ab|ac` becomes `a(?:b|c)`. The strings matched are the same, and the search
/// needs no more than which strings match (the forward scan where any match ends, the
/// reverse scan the leftmost start of any), but the automaton's states hold far fewer NFA
/// states: without it, every DFA state carried a thread for the start of every expression,
/// and determinising the forward DFA was most of the suffix method's extraction time.
fn factored(hirs: &[Hir], direction: Direction) -> Hir {
    // A trie over atoms; a child always has a larger index than its parent.
    struct Node {
        children: Vec<(Hir, usize)>,
        end: bool,
    }
    let mut nodes = vec![Node {
        children: Vec::new(),
        end: false,
    }];
    // The child of a node by a literal atom's bytes (most atoms are one character); other
    // atoms (classes, repetitions) are few per node and found among its children by
    // comparison. Formatting every atom as a key was half of the factoring's time.
    let mut by_literal: rustc_hash::FxHashMap<(usize, [u8; 4], usize), usize> = Default::default();
    for hir in hirs {
        let mut seq = atoms(hir);
        if direction == Direction::Reverse {
            seq.reverse();
        }
        let mut at = 0;
        for atom in seq {
            let literal = match atom.kind() {
                HirKind::Literal(lit) if lit.0.len() <= 4 => {
                    let mut bytes = [0u8; 4];
                    bytes[..lit.0.len()].copy_from_slice(&lit.0);
                    Some((bytes, lit.0.len()))
                }
                _ => None,
            };
            let found = match literal {
                Some((bytes, len)) => by_literal.get(&(at, bytes, len)).copied(),
                None => nodes[at]
                    .children
                    .iter()
                    .find(|(a, _)| *a == atom)
                    .map(|&(_, child)| child),
            };
            at = match found {
                Some(child) => child,
                None => {
                    let child = nodes.len();
                    nodes.push(Node {
                        children: Vec::new(),
                        end: false,
                    });
                    nodes[at].children.push((atom, child));
                    if let Some((bytes, len)) = literal {
                        by_literal.insert((at, bytes, len), child);
                    }
                    child
                }
            };
        }
        nodes[at].end = true;
    }
    // Children before parents: each node's expression from its children's. A node's parts
    // are kept in the order atoms are added to them (the last part first when forward), so a
    // chain of single children costs one push per atom, and are joined at branches.
    let join = |mut parts: Vec<Hir>| {
        if direction == Direction::Forward {
            parts.reverse();
        }
        Hir::concat(parts)
    };
    let mut built: Vec<Option<(Vec<Hir>, usize)>> = (0..nodes.len()).map(|_| None).collect();
    for n in (0..nodes.len()).rev() {
        let node = &mut nodes[n];
        let children = std::mem::take(&mut node.children);
        let (parts, nesting) = if children.len() == 1 && !node.end {
            let (atom, child) = children.into_iter().next().expect("one child");
            let (mut parts, nesting) = built[child].take().unwrap_or_default();
            parts.push(atom);
            (parts, nesting)
        } else {
            let mut alternatives = Vec::with_capacity(children.len() + 1);
            let mut nesting = 0;
            if node.end {
                alternatives.push(Hir::empty());
            }
            for (atom, child) in children {
                let (mut parts, depth) = built[child].take().unwrap_or_default();
                parts.push(atom);
                nesting = nesting.max(depth);
                alternatives.push(join(parts));
            }
            if alternatives.len() > 1 {
                nesting += 1;
            }
            (vec![Hir::alternation(alternatives)], nesting)
        };
        if nesting > MAX_FACTORED_NESTING {
            return Hir::alternation(hirs.to_vec());
        }
        built[n] = Some((parts, nesting));
    }
    built[0]
        .take()
        .map_or_else(|| Hir::alternation(hirs.to_vec()), |(parts, _)| join(parts))
}

/// The leftmost start of any expression's match ending at `end`.
fn leftmost_start(rev: &DFA, cache: &mut Cache, text: &str, end: usize) -> Option<usize> {
    let input = Input::new(text).range(..end).anchored(Anchored::Yes);
    // With MatchKind::All the reverse search runs until the automaton dies and reports the
    // last (leftmost) match start it saw, whichever expression it belongs to.
    rev.try_search_rev(cache, &input)
        .ok()
        .flatten()
        .map(|hm| hm.offset())
}

/// Sorts and unions intervals (touching intervals are joined).
pub fn union(mut intervals: Vec<Range<usize>>) -> Vec<Range<usize>> {
    intervals.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(intervals.len());
    for r in intervals {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Merges consecutive intervals whose gap is shorter than `gap` characters.
pub fn merge_gaps(text: &str, intervals: Vec<Range<usize>>, gap: usize) -> Vec<Range<usize>> {
    if gap == 0 {
        return intervals;
    }
    let mut out: Vec<Range<usize>> = Vec::with_capacity(intervals.len());
    for r in intervals {
        match out.last_mut() {
            Some(last) if text[last.end..r.start].chars().take(gap).count() < gap => {
                last.end = r.end
            }
            _ => out.push(r),
        }
    }
    out
}

/// The text without the given (sorted, disjoint) intervals.
pub fn remove(text: &str, intervals: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for r in intervals {
        out.push_str(&text[last..r.start]);
        last = r.end;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Thesis §3.4.1: text `aabb`, expressions `aabb` and `ab`. Applied in cascade, the order
    /// matters (2 or 4 characters removed); by interval union both orders remove all four.
    #[test]
    fn aabb_is_order_invariant() {
        let a = Cleaner::new(&["aabb", "ab"]).unwrap();
        let b = Cleaner::new(&["ab", "aabb"]).unwrap();
        assert_eq!(a.matches("aabb"), vec![0..4]);
        assert_eq!(b.matches("aabb"), vec![0..4]);
        assert_eq!(a.clean("aabb", 0), "");
        assert_eq!(b.clean("aabb", 0), "");
        // The cascade the thesis warns about, for contrast.
        let cascade = |order: &[&str]| {
            let mut t = "aabb".to_string();
            for r in order {
                t = regex::Regex::new(r)
                    .unwrap()
                    .replace_all(&t, "")
                    .into_owned();
            }
            t
        };
        assert_eq!(cascade(&["ab", "aabb"]), "ab");
        assert_eq!(cascade(&["aabb", "ab"]), "");
    }

    #[test]
    fn gaps_merge() {
        let c = Cleaner::new(&["head", "tail"]).unwrap();
        assert_eq!(c.intervals("head xx tail", 0), vec![0..4, 8..12]);
        assert_eq!(c.intervals("head xx tail", 5), vec![0..12]);
        assert_eq!(c.intervals("head xx tail", 4), vec![0..4, 8..12]);
        assert_eq!(c.clean("head xx tail rest", 5), " rest");
    }

    #[test]
    fn empty_set_and_empty_text() {
        let c = Cleaner::new::<&str>(&[]).unwrap();
        assert!(c.matches("anything").is_empty());
        let c = Cleaner::new(&["x"]).unwrap();
        assert!(c.matches("").is_empty());
    }

    /// Brute force: the union of all matches of each expression, found by trying every
    /// (start, end) pair with an anchored full match.
    fn brute(exprs: &[String], text: &str) -> Vec<Range<usize>> {
        let mut iv = Vec::new();
        for e in exprs {
            let re = regex::Regex::new(&format!("^(?:{e})$")).unwrap();
            for s in 0..=text.len() {
                for t in s + 1..=text.len() {
                    if text.is_char_boundary(s)
                        && text.is_char_boundary(t)
                        && re.is_match(&text[s..t])
                    {
                        iv.push(s..t);
                    }
                }
            }
        }
        union(iv)
    }

    /// The former matcher, kept as the reference: a forward DFA with one pattern per
    /// expression reports every `(expression, end)` pair, and a reverse search anchored on
    /// that expression finds its leftmost start.
    fn per_expression(exprs: &[String], text: &str) -> Vec<Range<usize>> {
        let config = || DFA::config().match_kind(MatchKind::All);
        let fwd = DFA::builder()
            .configure(config())
            .build_many(exprs)
            .unwrap();
        let rev = DFA::builder()
            .configure(config().starts_for_each_pattern(true))
            .thompson(thompson::Config::new().reverse(true))
            .build_many(exprs)
            .unwrap();
        let (mut fc, mut rc) = (fwd.create_cache(), rev.create_cache());
        let input = Input::new(text);
        let mut state = OverlappingState::start();
        let mut iv = Vec::new();
        loop {
            fwd.try_search_overlapping_fwd(&mut fc, &input, &mut state)
                .unwrap();
            let Some(hm) = state.get_match() else { break };
            let end = hm.offset();
            let back = Input::new(text)
                .range(..end)
                .anchored(Anchored::Pattern(hm.pattern()));
            let start = rev
                .try_search_rev(&mut rc, &back)
                .unwrap()
                .map_or(end, |m| m.offset());
            if start < end {
                iv.push(start..end);
            }
        }
        union(iv)
    }

    /// An inline flag stays inside its own expression in the alternation.
    #[test]
    fn flags_do_not_leak() {
        let c = Cleaner::new(&["(?i)ab", "cd"]).unwrap();
        assert_eq!(c.matches("AB CD cd"), vec![0..2, 6..8]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Expressions shaped like learned ones (anchors, whitespace runs, masked numbers)
        /// match exactly as the per-expression matcher did.
        #[test]
        fn same_as_per_expression(
            exprs in proptest::collection::vec(
                (
                    proptest::sample::select(vec!["", "(?:^|\\s+)", "[^\\S\\n]*"]),
                    proptest::collection::vec(
                        proptest::sample::select(vec![
                            "a", "b", "é", "\\n", "\\s*", "[^\\S\\n]+", "[0-9]+",
                            "(?:[0-9,.]*[0-9][0-9,.]*)", "[[:punct:]]*",
                        ]),
                        1..6,
                    ),
                    proptest::sample::select(vec!["", "(?:\\s+|$)", "[^\\S\\n]*"]),
                )
                    .prop_map(|(a, m, z)| format!("{a}{}{z}", m.concat())),
                1..6,
            ),
            text in "[ab0-9., \n\u{a0}é!]{0,40}",
        ) {
            let c = Cleaner::new(&exprs).unwrap();
            prop_assert_eq!(c.matches(&text), per_expression(&exprs, &text));
        }
    }

    fn parsed(exprs: &[&str]) -> Vec<Hir> {
        exprs
            .iter()
            .map(|e| regex_syntax::parse(e).unwrap())
            .collect()
    }

    /// Common beginnings are shared in the forward alternation, common endings in the
    /// reverse one: `ab|ac` is `a[bc]`, `ab|cb` is `[ac]b`.
    #[test]
    fn factoring_shares_beginnings_and_endings() {
        let forward = factored(&parsed(&["ab", "ac"]), Direction::Forward);
        assert_eq!(forward, regex_syntax::parse("a[bc]").unwrap());
        let reverse = factored(&parsed(&["ab", "cb"]), Direction::Reverse);
        assert_eq!(reverse, regex_syntax::parse("[ac]b").unwrap());
        // An expression that is the beginning of another: `ab|abc` is `ab(?:|c)`.
        let prefix = factored(&parsed(&["ab", "abc"]), Direction::Forward);
        assert_eq!(prefix, regex_syntax::parse("ab(?:|c)").unwrap());
    }

    /// `b`, `ab`, `aab`, ... with `n` expressions, as text and parsed: every `a` of their
    /// shared beginning branches, so the factored alternation nests `n - 1` deep.
    fn a_runs_then_b(n: usize) -> (Vec<String>, Vec<Hir>) {
        let exprs: Vec<String> = (0..n).map(|k| format!("{}b", "a".repeat(k))).collect();
        let hirs = parsed(&exprs.iter().map(String::as_str).collect::<Vec<_>>());
        (exprs, hirs)
    }

    /// `b|ab|aab|...`: every `a` of the shared beginning branches, one alternation inside
    /// the next. Past [`MAX_FACTORED_NESTING`] the plain alternation is compiled, with the
    /// same matches.
    #[test]
    fn deep_factoring_falls_back_to_the_plain_alternation() {
        let (exprs, hirs) = a_runs_then_b(MAX_FACTORED_NESTING + 8);
        assert_eq!(
            factored(&hirs, Direction::Forward),
            Hir::alternation(hirs.clone())
        );
        let shallow = &hirs[..MAX_FACTORED_NESTING / 2];
        assert_ne!(
            factored(shallow, Direction::Forward),
            Hir::alternation(shallow.to_vec())
        );
        let text = format!("x {}b y", "a".repeat(MAX_FACTORED_NESTING + 20));
        let c = Cleaner::new(&exprs).unwrap();
        assert_eq!(c.matches(&text), per_expression(&exprs, &text));
        // The longest expression has 7 more `a`s than the limit, the text 20 more: its match
        // starts 13 `a`s after the text's first.
        assert_eq!(c.matches(&text), vec![2 + 13..text.len() - 2]);
    }

    /// The deepest factored alternation allowed compiles and matches on a test thread's
    /// stack (the NFA compiler recurses once per nested alternation).
    #[test]
    fn deepest_factoring_compiles() {
        let (exprs, hirs) = a_runs_then_b(MAX_FACTORED_NESTING);
        assert_ne!(
            factored(&hirs, Direction::Forward),
            Hir::alternation(hirs.clone())
        );
        let text = format!("{}b", "a".repeat(MAX_FACTORED_NESTING + 1));
        let c = Cleaner::new(&exprs).unwrap();
        assert_eq!(c.matches(&text), vec![2..text.len()]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Expressions cut from one sequence of atoms, as mined repeats overlap, so that many
        /// share beginnings and endings: the factored alternations match as the
        /// per-expression matcher did.
        #[test]
        fn overlapping_expressions_as_per_expression(
            base in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "b", "ab", "é", "\\n", "[^\\S\\n]+", "[0-9]+", "\\s*",
                ]),
                4..10,
            ),
            cuts in proptest::collection::vec((0usize..10, 1usize..10, any::<bool>()), 1..8),
            text in "[ab0-9 \n\u{a0}é]{0,40}",
        ) {
            let exprs: Vec<String> = cuts
                .iter()
                .map(|&(from, len, bounded)| {
                    let from = from % base.len();
                    let to = (from + len).min(base.len());
                    let body = base[from..to].concat();
                    if bounded { format!("(?:^|\\s+){body}(?:\\s+|$)") } else { body }
                })
                .collect();
            let c = Cleaner::new(&exprs).unwrap();
            prop_assert_eq!(c.matches(&text), per_expression(&exprs, &text));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn union_of_all_matches(
            exprs in proptest::collection::vec("[ab]{1,3}|a[b ]+a|b a", 1..4),
            text in "[ab ]{0,24}",
            reversed in any::<bool>(),
        ) {
            let mut order = exprs.clone();
            if reversed { order.reverse(); }
            let c = Cleaner::new(&order).unwrap();
            prop_assert_eq!(c.matches(&text), brute(&exprs, &text));
        }
    }
}

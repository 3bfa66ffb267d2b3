//! Maximal repeated token strings with their occurrence and distinct-document counts
//! (thesis §3.2 steps 5–6 and §4.2), in one linear pass over the LCP array.
//!
//! Every repeated string that is *right-maximal* (its occurrences are not all followed by the
//! same token) is an LCP interval `[lb, rb]` of the suffix array with value ℓ: the suffixes in
//! the interval share exactly their first ℓ tokens. A bottom-up traversal of these intervals
//! with a stack (Abouelhoda, Kurtz & Ohlebusch) visits each once. A string is kept only if it
//! is also *left-maximal*: its occurrences are not all preceded by the same token. This is the
//! thesis's rule — a substring that occurs only where a longer string occurs says nothing of
//! its own — in its standard, linearly computable form.
//!
//! Distinct documents per interval use Hui's colour-counting trick: each suffix counts +1,
//! and for every two suffixes of the same document that are neighbours in suffix-array order
//! (among that document's suffixes) one −1 goes to their lowest common ancestor interval,
//! which is the deepest open interval on the stack whose left bound covers the earlier one.
//! Summed over a subtree this gives the number of distinct documents. The thesis's own
//! routine (after Yamamoto & Church) was "empirically close to O(n)" but quadratic in the
//! worst case; this one is O(n log d) with d the stack depth.

/// A maximal repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Repeat {
    /// Position of one occurrence in the text.
    pub start: u32,
    /// Length in tokens.
    pub len: u32,
    /// Number of occurrences.
    pub occurrences: u32,
    /// Number of distinct documents it occurs in.
    pub docs: u32,
}

const EMPTY: i64 = -1;
const MIXED: i64 = -2;

#[inline]
fn combine(a: i64, b: i64) -> i64 {
    if a == EMPTY {
        b
    } else if b == EMPTY || a == b {
        a
    } else {
        MIXED
    }
}

#[derive(Clone, Copy)]
struct Frame {
    lcp: u32,
    lb: u32,
    /// Number of same-document corrections inside this interval's subtree so far.
    corrections: u32,
    /// The common left token of all suffixes seen in the interval, or EMPTY / MIXED.
    left: i64,
}

/// Calls `emit` for every maximal repeat of `text` with at least two occurrences.
///
/// `doc_of[p]` is the document of text position `p`. Documents must be separated in `text` by
/// tokens that occur nowhere else (so that no repeat crosses a document boundary).
// `i` is a suffix-array rank that indexes `sa`, `lcp` and the stack bounds together.
#[allow(clippy::needless_range_loop)]
pub fn maximal_repeats(
    text: &[i32],
    sa: &[i32],
    lcp: &[i32],
    doc_of: &[u32],
    mut emit: impl FnMut(Repeat),
) {
    let n = sa.len();
    if n == 0 {
        return;
    }
    let docs = doc_of.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut last_seen: Vec<u32> = vec![u32::MAX; docs];
    let left_of = |i: usize| -> i64 {
        let p = sa[i] as usize;
        if p == 0 { MIXED } else { text[p - 1] as i64 }
    };
    let mut stack: Vec<Frame> = Vec::with_capacity(64);
    stack.push(Frame {
        lcp: 0,
        lb: 0,
        corrections: 0,
        left: EMPTY,
    });
    let visit_leaf = |stack: &mut Vec<Frame>, last_seen: &mut Vec<u32>, i: usize| {
        let top = stack.len() - 1;
        stack[top].left = combine(stack[top].left, left_of(i));
        let d = doc_of[sa[i] as usize] as usize;
        let j = last_seen[d];
        if j != u32::MAX {
            // Deepest frame with lb <= j: frames' lb are non-decreasing up the stack.
            let k = stack.partition_point(|f| f.lb <= j) - 1;
            stack[k].corrections += 1;
        }
        last_seen[d] = i as u32;
    };
    visit_leaf(&mut stack, &mut last_seen, 0);
    for i in 1..=n {
        let cur = if i < n { lcp[i].max(0) as u32 } else { 0 };
        let mut pending: Option<Frame> = None;
        while stack.len() > 1 && cur < stack[stack.len() - 1].lcp {
            let Some(f) = stack.pop() else { break };
            let rb = (i - 1) as u32;
            let occurrences = rb - f.lb + 1;
            if f.left == MIXED {
                emit(Repeat {
                    start: sa[f.lb as usize] as u32,
                    len: f.lcp,
                    occurrences,
                    docs: occurrences - f.corrections,
                });
            }
            let top = stack.len() - 1;
            if cur <= stack[top].lcp {
                stack[top].corrections += f.corrections;
                stack[top].left = combine(stack[top].left, f.left);
            } else {
                pending = Some(f);
            }
        }
        if i == n {
            break;
        }
        if cur > stack[stack.len() - 1].lcp {
            let frame = match pending {
                Some(f) => Frame { lcp: cur, ..f },
                None => Frame {
                    lcp: cur,
                    lb: (i - 1) as u32,
                    corrections: 0,
                    left: left_of(i - 1),
                },
            };
            stack.push(frame);
        }
        visit_leaf(&mut stack, &mut last_seen, i);
    }
}

/// Reference implementation by enumeration of all substrings; for tests. O(n³).
pub fn maximal_repeats_naive(
    text: &[i32],
    doc_of: &[u32],
    is_separator: impl Fn(i32) -> bool,
) -> Vec<(Vec<i32>, u32, u32)> {
    use std::collections::{BTreeMap, BTreeSet};
    let n = text.len();
    let mut occ: BTreeMap<Vec<i32>, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        for j in i + 1..=n {
            if is_separator(text[j - 1]) {
                break;
            }
            occ.entry(text[i..j].to_vec()).or_default().push(i);
        }
    }
    let mut out = Vec::new();
    for (s, positions) in occ {
        if positions.len() < 2 {
            continue;
        }
        let len = s.len();
        // Left / right contexts; the text start and end count as unique contexts.
        let lefts: BTreeSet<Option<i32>> = positions
            .iter()
            .map(|&p| p.checked_sub(1).map(|q| text[q]))
            .collect();
        let rights: BTreeSet<Option<i32>> = positions
            .iter()
            .map(|&p| text.get(p + len).copied())
            .collect();
        let left_max = lefts.len() > 1 || lefts.contains(&None);
        let right_max = rights.len() > 1 || rights.contains(&None);
        if left_max && right_max {
            let docs: BTreeSet<u32> = positions.iter().map(|&p| doc_of[p]).collect();
            out.push((s, positions.len() as u32, docs.len() as u32));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sa;
    use proptest::prelude::*;

    /// Concatenates documents with unique separators `alphabet + doc`.
    fn corpus(docs: &[Vec<i32>], alphabet: i32) -> (Vec<i32>, Vec<u32>) {
        let mut text = Vec::new();
        let mut doc_of = Vec::new();
        for (d, doc) in docs.iter().enumerate() {
            text.extend_from_slice(doc);
            text.push(alphabet + d as i32);
            doc_of.extend(std::iter::repeat_n(d as u32, doc.len() + 1));
        }
        (text, doc_of)
    }

    fn fast(docs: &[Vec<i32>], alphabet: i32) -> Vec<(Vec<i32>, u32, u32)> {
        let (text, doc_of) = corpus(docs, alphabet);
        let mut t = text.clone();
        let arrays = sa::build(&mut t, (alphabet as usize) + docs.len(), 1).unwrap();
        let mut out = Vec::new();
        maximal_repeats(&text, &arrays.sa, &arrays.lcp, &doc_of, |r| {
            let s = text[r.start as usize..(r.start + r.len) as usize].to_vec();
            out.push((s, r.occurrences, r.docs));
        });
        out.sort();
        out
    }

    fn naive(docs: &[Vec<i32>], alphabet: i32) -> Vec<(Vec<i32>, u32, u32)> {
        let (text, doc_of) = corpus(docs, alphabet);
        let mut out = maximal_repeats_naive(&text, &doc_of, |t| t >= alphabet);
        out.sort();
        out
    }

    #[test]
    fn hand_example() {
        // a b c | a b c | x b c y   (tokens a=0 b=1 c=2 x=3 y=4)
        let docs = vec![vec![0, 1, 2], vec![0, 1, 2], vec![3, 1, 2, 4]];
        let got = fast(&docs, 5);
        // "a b c": 2 occurrences, 2 docs; "b c": 3 occurrences, 3 docs (left context differs).
        // "a b" and "a" and "b" and "c" are not maximal: always extended the same way.
        assert_eq!(got, vec![(vec![0, 1, 2], 2, 2), (vec![1, 2], 3, 3)]);
        assert_eq!(got, naive(&docs, 5));
    }

    #[test]
    fn repeats_within_one_document_count_one_document() {
        let docs = vec![vec![0, 1, 9, 0, 1, 8], vec![7]];
        assert_eq!(fast(&docs, 10), vec![(vec![0, 1], 2, 1)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn agrees_with_naive(docs in proptest::collection::vec(proptest::collection::vec(0i32..4, 0..25), 1..6)) {
            prop_assert_eq!(fast(&docs, 4), naive(&docs, 4));
        }
    }
}

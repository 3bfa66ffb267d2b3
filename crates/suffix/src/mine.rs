//! Mining template strings from one collection (thesis §3.2, steps 3–9).
//!
//! # Continuations of template strings (not in the thesis)
//!
//! A template's variant printed on a few pages falls under the cutoff with the rest of the
//! rare strings: on a synthetic site whose pages print "Posted on «date»" (20 of 20 pages, a
//! template string), five add "| Last updated «date»" in the same text node. Template
//! strings then cover such a line only in part (on that site all of it but "| Last updated"
//! and a day), and the content model, weighing a text node the suffix method cuts in part
//! while the other methods keep it, kept those lines. So a candidate under the cutoff that
//! starts with a template string which does not end its line gives that string followed by
//! the rest of the line within the candidate: what follows template text on its own line, in
//! the same words on at least two pages (step 7's filter), belongs to the template's slot. A
//! line break ends the continuation, since the next block is where a page's own text may
//! start. Strings that *end* with a template string are not extended backwards: the words
//! before a template string on its line are more often the page's own (measured below).
//!
//! Measured on 2026-12-06 with `chaff-lab eval --synthetic --run methods --method
//! suffix,align,forest,subtree` (the four methods weighed by the content model) and
//! `crates/lab/scripts/site_cv.py` (held-out Dragnet training sites), the content model
//! refitted by its recipe on the new evidence (it reads the site's evidence, so it has to be):
//!
//! | | without | with |
//! |---|---|---|
//! | synthetic sites, seeds 6 to 10 (where the change was tried first) | 99.46% of template words removed, 0.03% of content words | 99.57%, 0.02% |
//! | synthetic sites, seeds 1 to 5 (issue 16's figure) | 99.40%, 0.01%; date lines' words kept 313 | 99.54%, 0.04%; 213 |
//! | held-out Dragnet training sites, 4-gram F1; sites within 0.01 of page-level | 0.937; 54 of 59 | 0.941; 52 of 59 |
//!
//! The same fold models given evidence mined without continuations (`--no-continuations`)
//! print 0.941 and 52 of 59 too: on those sites the continuations change next to nothing,
//! and the two sites are the refit's (refits alone have moved that count between 51 and 54).
//! Without the refit, the model fitted on the old evidence kept the long date lines (313
//! words on seeds 1 to 5, as before; template score 0.19 where the new evidence removed the
//! line whole, against 0.73 for a short date line removed whole on the same site), and content
//! words removed rose to 0.08% with continuations forwards only, 0.11% with continuations
//! backwards from a template string as well, which took headlines and sentences.
//!
//! The continuations are many: frequent short phrases of running text ("of the") are
//! template strings on a site of similar pages, and every phrase they begin on two pages
//! continues them. A 100-page synthetic site's expressions go from 169 to 1,529 and SWDE
//! christianbook's first 100 pages' from 466 to 1,119. Matched as regexes
//! ([`crate::clean`]), whose automata grow with them, that cost too much: site learning and
//! extraction against page by page (`chaff-lab bench site --rounds 5`, SWDE booksamillion,
//! christianbook, the synthetic site, MSNBC's 30 pages; the same hour) went from 2.43x,
//! 2.97x, 2.78x and 2.97x to 2.84x, 3.50x, 5.35x and 3.14x, over issue 16's 3x, and the change
//! was first set aside. Matched as token strings ([`crate::tokenmatch`]), where a string
//! costs a few automaton states and a page's tokens are read once whatever their number, it
//! costs little: 2.17x, 2.34x, 2.33x and 2.54x without continuations, 2.26x, 2.40x, 2.49x and
//! 2.52x with them (2026-12-06, 20:44 and 20:53 UTC). Continuing only template strings that
//! begin a line was also tried, to have fewer: still 475 and 1,211 expressions (date lines'
//! variants, "Share this: Digg ..." lines, headlines whose first words begin lines on many
//! pages).

use serde::{Deserialize, Serialize};

use crate::SuffixError;
use crate::cutoff::{self, BINS, Histogram};
use crate::repeats::{Repeat, maximal_repeats};
use crate::sa;
use crate::tokens::{LINE, TokenCorpus};
use crate::trie::Trie;

/// The mining parameters. The defaults are the thesis's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MiningParams {
    /// Strings in fewer documents are dropped (step 7).
    pub min_docs: u32,
    /// Strings of fewer tokens are dropped (step 7: "less than two tokens").
    pub min_tokens: u32,
    /// Also keep, under the cutoff, a template string's continuation on its line (see the
    /// module docs). Only where lines are tokens (the visible-text view). A profile written
    /// before this existed reads `false`: it was mined without.
    #[serde(default)]
    pub line_continuations: bool,
    /// Threads for suffix-array construction.
    #[serde(skip, default = "default_threads")]
    pub threads: usize,
}

fn default_threads() -> usize {
    rayon::current_num_threads()
}

impl Default for MiningParams {
    fn default() -> Self {
        MiningParams {
            min_docs: 2,
            min_tokens: 2,
            line_continuations: true,
            threads: default_threads(),
        }
    }
}

/// A template string found by mining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinedString {
    /// Token ids into the corpus vocabulary.
    pub tokens: Vec<u32>,
    /// Distinct documents it occurs in.
    pub docs: u32,
    /// Occurrences in the whole collection.
    pub occurrences: u32,
}

/// The result of mining one collection.
#[derive(Clone, Debug)]
pub struct Mined {
    /// The histogram of candidate strings by document share, with its cutoff.
    pub histogram: Histogram,
    /// Strings at or above the cutoff, longest first.
    pub template: Vec<MinedString>,
    /// Number of candidate strings (maximal repeats passing the step-7 filters).
    pub candidates: usize,
}

/// Mines `corpus`: suffix array, LCP, maximal repeats with document counts, filters,
/// histogram, cutoff.
pub fn mine(corpus: &mut TokenCorpus, params: &MiningParams) -> Result<Mined, SuffixError> {
    let documents = corpus.documents as u32;
    let alphabet = corpus.alphabet();
    let arrays = sa::build(&mut corpus.text, alphabet, params.threads)?;
    let min_docs = params.min_docs.max(1);
    let min_tokens = params.min_tokens.max(1);
    let mut counts = vec![0u64; BINS];
    let mut candidates: Vec<Repeat> = Vec::new();
    maximal_repeats(&corpus.text, &arrays.sa, &arrays.lcp, &corpus.doc_of, |r| {
        if r.len >= min_tokens && r.docs >= min_docs {
            counts[cutoff::bin_of(r.docs, documents, BINS)] += 1;
            candidates.push(r);
        }
    });
    drop(arrays);
    let (cut, centres, _) = cutoff::cutoff(&counts);
    let (above, below): (Vec<Repeat>, Vec<Repeat>) = candidates
        .iter()
        .partition(|r| cutoff::bin_of(r.docs, documents, BINS) >= cut);
    let mut template: Vec<MinedString> = above
        .iter()
        .map(|r| mined_string(tokens_of(&corpus.text, r), r))
        .collect();
    let line = corpus.vocab.iter().position(|t| t == LINE);
    if let (true, Some(line)) = (params.line_continuations, line) {
        template.extend(continuations(
            &corpus.text,
            &above,
            &below,
            line as i32,
            min_tokens,
        ));
    }
    template.sort_by(|a, b| {
        b.tokens
            .len()
            .cmp(&a.tokens.len())
            .then_with(|| a.tokens.cmp(&b.tokens))
    });
    // A continuation may equal another candidate's (two candidates sharing a line).
    template.dedup_by(|a, b| a.tokens == b.tokens);
    Ok(Mined {
        histogram: Histogram {
            counts,
            documents,
            cutoff: cut,
            centres,
        },
        template,
        candidates: candidates.len(),
    })
}

fn tokens_of<'t>(text: &'t [i32], r: &Repeat) -> &'t [i32] {
    &text[r.start as usize..(r.start + r.len) as usize]
}

fn mined_string(tokens: &[i32], r: &Repeat) -> MinedString {
    MinedString {
        tokens: tokens.iter().map(|&t| t as u32).collect(),
        docs: r.docs,
        occurrences: r.occurrences,
    }
}

/// The continuations of the template strings `above` among the candidates `below` (see the
/// module docs): each candidate that starts with a template string of at least `min_tokens`
/// tokens whose last token is not `line` gives that string and the candidate's tokens up to
/// the next `line` (the longest such template string when several are its prefixes). Each
/// keeps the candidate's counts: every occurrence of the candidate holds it. Linear in the
/// candidates' lengths: the prefix is found by walking a trie of the template strings.
fn continuations(
    text: &[i32],
    above: &[Repeat],
    below: &[Repeat],
    line: i32,
    min_tokens: u32,
) -> Vec<MinedString> {
    // Token ids are indices into the vocabulary (or past it, for separators): never negative.
    let trie = Trie::new(
        above
            .iter()
            .map(|r| tokens_of(text, r).iter().map(|&t| t as u32)),
    );
    let min = min_tokens as usize;
    let mut out = Vec::new();
    for r in below {
        let toks = tokens_of(text, r);
        let n = toks.len();
        let Some(k) = trie.longest_prefix(toks.iter().map(|&t| t as u32)) else {
            continue;
        };
        if k < min || k >= n || toks[k - 1] == line {
            continue;
        }
        let end = toks[k..]
            .iter()
            .position(|&t| t == line)
            .map_or(n, |p| k + p);
        if end > k {
            out.push(mined_string(&toks[..end], r));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::MutableSet;
    use crate::tokens::{TokenizerSpec, build_corpus};
    use proptest::prelude::*;

    fn repeat(start: u32, len: u32) -> Repeat {
        Repeat {
            start,
            len,
            occurrences: 2,
            docs: 2,
        }
    }

    fn strings(mined: &[MinedString]) -> Vec<Vec<u32>> {
        mined.iter().map(|m| m.tokens.clone()).collect()
    }

    #[test]
    fn a_continuation_runs_from_a_template_string_to_the_end_of_its_line() {
        const L: i32 = 0;
        // LINE Posted on D | Last updated D LINE Foo Bar LINE Baz Qux
        let text = [L, 1, 2, 3, 4, 5, 6, 3, L, 7, 8, L, 9, 10];
        // Template strings: "LINE Posted on D", "Foo Bar LINE", "Baz Qux".
        let above = [repeat(0, 4), repeat(9, 3), repeat(12, 2)];
        let below = [
            // Starts with "LINE Posted on D": continued up to the next line break.
            repeat(0, 11),
            // Starts with "Foo Bar LINE", which ends its line: nothing.
            repeat(9, 5),
            // "Posted on D | ..." starts with no template string: nothing.
            repeat(1, 7),
            // Is a template string itself: nothing to add.
            repeat(12, 2),
        ];
        let got = continuations(&text, &above, &below, L, 2);
        assert_eq!(strings(&got), vec![vec![0, 1, 2, 3, 4, 5, 6, 3]]);
    }

    #[test]
    fn a_continuation_needs_a_long_enough_template_prefix_not_ending_its_line() {
        const L: i32 = 0;
        let text = [5, L, 6, 7, 8, L];
        // "5 LINE" ends with a line break; "6" alone is shorter than min_tokens.
        let above = [repeat(0, 2), repeat(2, 1)];
        let below = [repeat(0, 5), repeat(2, 3)];
        assert!(continuations(&text, &above, &below, L, 2).is_empty());
        // With min_tokens 1, "6" is long enough: "6 7 8".
        let got = continuations(&text, &above, &below, L, 1);
        assert_eq!(strings(&got), vec![vec![6, 7, 8]]);
    }

    fn mined(docs: &[&str], line_continuations: bool) -> Vec<Vec<String>> {
        let tokenizer = TokenizerSpec::default().with_lines(true).compile().unwrap();
        let mutable = MutableSet::new(Vec::new()).unwrap();
        let mut corpus = build_corpus(docs, &tokenizer, &mutable);
        let params = MiningParams {
            line_continuations,
            threads: 1,
            ..MiningParams::default()
        };
        let m = mine(&mut corpus, &params).unwrap();
        m.template
            .iter()
            .map(|s| {
                s.tokens
                    .iter()
                    .map(|&t| corpus.vocab[t as usize].clone())
                    .collect()
            })
            .collect()
    }

    /// Ten pages of one template; three print an update line after the byline, two share
    /// a sentence of their own.
    fn pages() -> Vec<String> {
        (0..10)
            .map(|i| {
                let byline = if i < 3 {
                    "Posted by Staff | Updated Today"
                } else {
                    "Posted by Staff"
                };
                let shared = if i >= 8 { "the bridge stays shut" } else { "" };
                format!(
                    "Daily Paper Home News\nstory{i} words{i} here{i} {shared}\n{byline}\n\
                     Copyright Daily Paper\n"
                )
            })
            .collect()
    }

    #[test]
    fn mining_keeps_a_rare_continuation_of_a_template_line() {
        let pages = pages();
        let docs: Vec<&str> = pages.iter().map(String::as_str).collect();
        let update = ["\n", "Posted", "by", "Staff", "|", "Updated", "Today"];
        let with = mined(&docs, true);
        let without = mined(&docs, false);
        assert!(
            without
                .iter()
                .any(|s| s == &["\n", "Posted", "by", "Staff"])
        );
        assert!(!without.iter().any(|s| s == &update));
        assert!(with.iter().any(|s| s == &update), "{with:?}");
        // The pages' shared sentence is not a continuation of anything.
        assert!(!with.iter().any(|s| s.iter().any(|t| t == "bridge")));
        // Everything else is as the thesis mines it.
        let extra: Vec<_> = with.iter().filter(|s| !without.contains(s)).collect();
        assert_eq!(extra, vec![&update.map(String::from).to_vec()]);
    }

    /// How many documents hold `s` as consecutive tokens.
    fn docs_holding(corpus_docs: &[Vec<String>], s: &[String]) -> usize {
        corpus_docs
            .iter()
            .filter(|d| d.windows(s.len()).any(|w| w == s))
            .count()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Against brute force: every continuation is in at least two documents, starts with
        /// a string the thesis's mining keeps, which does not end its line, and holds no
        /// line break after it.
        #[test]
        fn continuations_are_repeated_extensions_of_template_strings_within_a_line(
            docs in proptest::collection::vec(
                proptest::collection::vec(prop_oneof![
                    3 => Just("a"), 3 => Just("b"), 2 => Just("c"), 1 => Just("d"),
                    2 => Just("\n"),
                ], 0..40),
                2..8,
            )
        ) {
            let texts: Vec<String> = docs.iter().map(|d| d.join(" ")).collect();
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let with = mined(&refs, true);
            let without = mined(&refs, false);
            let tokenised: Vec<Vec<String>> = texts
                .iter()
                .map(|t| {
                    let mut out = Vec::new();
                    TokenizerSpec::default()
                        .with_lines(true)
                        .compile()
                        .unwrap()
                        .for_each(t, |tok| out.push(tok.to_string()));
                    out
                })
                .collect();
            for s in with.iter().filter(|s| !without.contains(s)) {
                prop_assert!(docs_holding(&tokenised, s) >= 2, "{s:?}");
                let prefix = without
                    .iter()
                    .filter(|t| t.len() < s.len() && s.starts_with(t))
                    .max_by_key(|t| t.len());
                prop_assert!(prefix.is_some(), "{s:?}");
                let k = prefix.map_or(0, |t| t.len());
                prop_assert!(s[k - 1] != "\n" && s[k..].iter().all(|t| t != "\n"), "{s:?}");
            }
            for s in &without {
                prop_assert!(with.contains(s));
            }
        }
    }
}

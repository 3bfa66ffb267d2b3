//! Matching the mined strings on a page's tokens instead of its characters.
//!
//! Each cleaning expression is a mined token string spelled as a regex ([`crate::regexgen`]):
//! its words joined by separators, its line tokens as runs of whitespace holding a line
//! break, its mutable placeholders as their patterns, token boundaries at both ends. On the
//! texts chaff cleans, matching the strings themselves gives the same intervals for a
//! fraction of the work: tokenise the page as mining did, normalise each token with the same
//! mutable patterns, and run an Aho–Corasick automaton over the token ids. Every automaton
//! state knows the longest mined string that ends there, so each token position yields the
//! widest match ending at it in constant time, and the union of those is the union of all
//! matches ([`crate::clean`] makes the same argument for its reverse scans).
//!
//! A match of tokens `i..=k` covers the text from the end of the word before token `i` to the
//! start of the word after token `k` (the text's ends where there is none): an expression's
//! boundary separators, and its line tokens' `[^\S\n]*\n\s*`, reach that far in every match
//! the regex engine reports, and [`crate::clean::Cleaner::matches`] unions them. Line tokens
//! also stand at the text's ends where it starts or ends with a line break, which the
//! regexes of strings that begin or end with a line token match.
//!
//! # Where it differs from the regexes
//!
//! Without mutable patterns the two are the same language and give the same intervals to the
//! byte (a property test against [`crate::clean::Cleaner`], on mined and on arbitrary string
//! sets, both views). With them, a placeholder's regex accepts every token its pattern
//! matches, while mining gave a token the placeholder of the *first* pattern in the list that
//! matches it. So the regex of a string mined from "12:30" (a time) also matches "2013", which
//! mining normalised as a number, and a string mined from "than $5" also matches "than 150":
//! where patterns overlap, the regexes generalise further than the strings mining counted.
//! Here a page's token matches a string's token when both normalise the same.
//!
//! Measured on 2026-12-06 with `examples/cleanprobe.rs` (a profile learned by `chaff learn`
//! from each site's pages, matched on the text views of its first 100 pages):
//!
//! | site | expressions | bytes matched by both | by the regexes only | by the tokens only | time, regexes → tokens (compiling and matching, 32 MB touched between pages) |
//! |---|---|---|---|---|---|
//! | SWDE christianbook | 517 | 490,060 | 199 | 0 | 150 ms → 27 ms |
//! | SWDE booksamillion | 115 | 215,062 | 374 | 0 | 48 ms → 14 ms |
//! | a synthetic site (seed 1) | 169 | 157,157 | 0 | 0 | 42 ms → 15 ms |
//! | CleanPortalEval MSNBC (30 pages) | 123 | 53,557 | 5 | 0 | 25 ms → 6 ms |
//!
//! The bytes only the regexes take are numbers inside running text ("more than 150 radio
//! stations", "more than 40,000 subscribers", an ISBN in a product description) that a
//! template string with a price or date placeholder reached through the wider pattern. Every
//! figure measured with the four site methods came out the same as with the regexes: synthetic
//! sites 99.40% of template words removed and 0.01% of content words (the suffix method alone
//! 99.20% and 0.03%), CleanPortalEval learned per portal 4-gram F1 0.911, Dragnet test sites
//! of five pages or more 0.950 with 87 of 94 sites within 0.01 of page-level, held-out Dragnet
//! training sites (`site_cv.py`) 0.937 with 54 of 59. Site learning's cost on one core
//! (`chaff-lab bench site`, SWDE christianbook, same hour): 3.17 → 2.54 times page by page.
//!
//! Only profiles whose expressions this module can read back apply: the `\S+` tokeniser (the
//! default), and every expression's display text parsing into tokens whose regex is that
//! expression exactly. Others (a custom tokeniser, hand-edited expressions) are matched by
//! [`crate::clean::Cleaner`], and the method says why in a note
//! ([`crate::CompiledSuffix::regex_fallback`]), which an extractor built on the profile
//! reports among its warnings.

use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::model::SuffixModel;
use crate::mutable::{MutableSet, placeholder};
use crate::regexgen;
use crate::tokens::{LINE, Tokenizer};
use crate::trie::Trie;

/// The most tokens all of a model's strings may hold (about 16 million): the automaton has a
/// state per token at most. A profile past it (profiles are untrusted input) goes to the
/// regex cleaner, whose own limits then refuse it with a clear error.
pub const MAX_TOKENS: usize = 1 << 24;

/// The mined strings of a model, compiled for matching on tokens.
pub struct TokenMatcher {
    tokenizer: Tokenizer,
    mutable: MutableSet,
    /// Normalised token text to symbol.
    symbols: FxHashMap<Box<str>, u32>,
    /// The symbol of the line token, if any string holds one.
    line: Option<u32>,
    automaton: Automaton,
}

impl std::fmt::Debug for TokenMatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenMatcher")
            .field("symbols", &self.symbols.len())
            .field("states", &self.automaton.fail.len())
            .finish()
    }
}

/// Why a model's expressions cannot be matched on tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotTokenMatchable(pub String);

impl TokenMatcher {
    /// Compiles a model's strings, or says why they cannot be matched on tokens.
    pub fn new(model: &SuffixModel) -> Result<TokenMatcher, NotTokenMatchable> {
        let spec = &model.tokenizer;
        if model.expressions.len() > crate::clean::MAX_EXPRESSIONS
            || model
                .expressions
                .iter()
                .any(|e| e.regex.len() > crate::clean::MAX_EXPRESSION_BYTES)
        {
            return Err(NotTokenMatchable("past the cleaner's limits".into()));
        }
        if spec.token != r"\S+" || spec.separator != r"\s+" {
            return Err(NotTokenMatchable(format!(
                "tokeniser {:?} with separator {:?}",
                spec.token, spec.separator
            )));
        }
        let mut strings: Vec<Vec<String>> = Vec::with_capacity(model.expressions.len());
        for (i, e) in model.expressions.iter().enumerate() {
            let tokens = parse_display(&e.text, model);
            let regex =
                regexgen::expression(tokens.iter().map(String::as_str), &model.mutable, spec);
            // Tokenising gives one line token per run of whitespace, never two in a row.
            let doubled_line = tokens.windows(2).any(|w| w[0] == LINE && w[1] == LINE);
            if tokens.is_empty() || doubled_line || regex != e.regex {
                return Err(NotTokenMatchable(format!(
                    "expression {} is not the regex of its string",
                    i + 1
                )));
            }
            strings.push(tokens);
        }
        if strings.iter().map(Vec::len).sum::<usize>() > MAX_TOKENS {
            return Err(NotTokenMatchable(format!(
                "more than {MAX_TOKENS} tokens in all"
            )));
        }
        let mutable = MutableSet::new(model.mutable.clone()).map_err(NotTokenMatchable)?;
        let tokenizer = spec.compile().map_err(NotTokenMatchable)?;
        Ok(TokenMatcher::build(&strings, tokenizer, mutable))
    }

    /// The matcher of normalised token strings (line tokens are [`LINE`]).
    fn build(strings: &[Vec<String>], tokenizer: Tokenizer, mutable: MutableSet) -> TokenMatcher {
        let mut symbols: FxHashMap<Box<str>, u32> = FxHashMap::default();
        let ids: Vec<Vec<u32>> = strings
            .iter()
            .map(|s| {
                s.iter()
                    .map(|t| {
                        let next = symbols.len() as u32;
                        *symbols.entry(t.as_str().into()).or_insert(next)
                    })
                    .collect()
            })
            .collect();
        let line = if tokenizer.lines() {
            symbols.get(LINE).copied()
        } else {
            None
        };
        TokenMatcher {
            tokenizer,
            mutable,
            automaton: Automaton::new(&ids),
            symbols,
            line,
        }
    }

    /// All matches of all strings on `text`, unioned (sorted, disjoint).
    pub fn matches(&self, text: &str) -> Vec<Range<usize>> {
        let tokens = self.tokens(text);
        let mut out: Vec<Range<usize>> = Vec::new();
        let mut state = 0u32;
        for (k, t) in tokens.iter().enumerate() {
            state = match t.symbol {
                Some(s) => self.automaton.step(state, s),
                None => 0,
            };
            let len = self.automaton.longest[state as usize] as usize;
            if len == 0 {
                continue;
            }
            let i = k + 1 - len;
            let start = tokens[i].word_before_end;
            let end = tokens
                .get(k + 1)
                .map_or(text.len(), |n| n.start_word_after());
            if start >= end {
                continue;
            }
            // Ends only grow, so the new interval reaches past every earlier one; it absorbs
            // those it touches, however far back its start reaches.
            let mut start = start;
            while let Some(last) = out.last() {
                if last.end < start {
                    break;
                }
                start = start.min(last.start);
                out.pop();
            }
            out.push(start..end);
        }
        out
    }

    /// The page's tokens, as mining saw them, with where they lie; and line tokens at the
    /// text's ends where it starts or ends with a line break (or is one), which mining never
    /// gives but a regex of a string starting or ending with a line token matches.
    fn tokens(&self, text: &str) -> Vec<PageToken> {
        let lines = self.tokenizer.lines();
        let mut out: Vec<PageToken> = Vec::with_capacity(text.len() / 5);
        let mut seen: FxHashMap<&str, Option<u32>> = FxHashMap::default();
        let mut buf = String::new();
        let mut previous_end = 0usize;
        let line_at = |range: Range<usize>| PageToken {
            symbol: self.line,
            word_before_end: range.start,
            start: range.start,
            is_line: true,
            end: range.end,
        };
        self.tokenizer.for_each_span(text, |t, range| {
            if lines && t == LINE {
                out.push(line_at(range));
                return;
            }
            if out.is_empty() && lines && text[..range.start].contains('\n') {
                out.push(line_at(0..range.start));
            }
            let symbol = *seen.entry(t).or_insert_with(|| {
                let key = if self.mutable.normalize(t, &mut buf) {
                    buf.as_str()
                } else {
                    t
                };
                self.symbols.get(key).copied()
            });
            out.push(PageToken {
                symbol,
                word_before_end: previous_end,
                start: range.start,
                is_line: false,
                end: range.end,
            });
            previous_end = range.end;
        });
        if lines && text[previous_end..].contains('\n') {
            out.push(line_at(previous_end..text.len()));
        }
        out
    }
}

/// One token of a page.
#[derive(Debug, Clone, Copy)]
struct PageToken {
    /// Its symbol, `None` when no mined string holds it.
    symbol: Option<u32>,
    /// Where the last word before it ends (0 at the start of the text): where a match
    /// starting with this token starts.
    word_before_end: usize,
    /// Where it starts (a line token: at the end of the word before it).
    start: usize,
    /// Whether it is a line token.
    is_line: bool,
    /// Where it ends (a line token: at the start of the word after it).
    end: usize,
}

impl PageToken {
    /// Where a match ending with the token before this one ends: the start of the next word,
    /// which is this token's start for a word and its end for a line token.
    fn start_word_after(&self) -> usize {
        if self.is_line { self.end } else { self.start }
    }
}

/// Reads back the tokens of an expression's display text (tokens joined by spaces, mutable
/// placeholders shown as `«regex»`). The caller checks that they give the expression's regex
/// again, so a literal `«` that happens to look like a placeholder cannot slip through.
fn parse_display(text: &str, model: &SuffixModel) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == ' ' {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
            rest = &rest[1..];
            continue;
        }
        if c == '«'
            && let Some((k, len)) = placeholder_at(rest, model)
        {
            current.push(placeholder(k));
            rest = &rest[len..];
            continue;
        }
        current.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

/// The placeholder `«regex»` at the start of `text`: the pattern's index and the bytes it
/// spans (the longest when several patterns' regexes fit).
fn placeholder_at(text: &str, model: &SuffixModel) -> Option<(usize, usize)> {
    let inner = text.strip_prefix('«')?;
    model
        .mutable
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            inner
                .strip_prefix(p.regex.as_str())
                .is_some_and(|r| r.starts_with('»'))
        })
        .max_by_key(|(_, p)| p.regex.len())
        .map(|(k, p)| (k, '«'.len_utf8() + p.regex.len() + '»'.len_utf8()))
}

/// An Aho–Corasick automaton over symbols: a [`Trie`] of the strings with failure links, and
/// the length of the longest string ending at each state.
struct Automaton {
    trie: Trie,
    /// Failure links: the state of the longest proper suffix that is a prefix of a string.
    fail: Vec<u32>,
    /// The longest string that is a suffix of the state's prefix (0: none).
    longest: Vec<u32>,
}

impl Automaton {
    fn new(strings: &[Vec<u32>]) -> Automaton {
        let trie = Trie::new(strings.iter().map(|s| s.iter().copied()));
        // Children of each state, for the breadth-first pass.
        let mut children: Vec<Vec<(u32, u32)>> = vec![Vec::new(); trie.len()];
        for (s, sym, t) in trie.edges() {
            children[s as usize].push((sym, t));
        }
        let mut fail = vec![0u32; trie.len()];
        let mut longest = vec![0u32; trie.len()];
        let mut queue = std::collections::VecDeque::from([0u32]);
        while let Some(s) = queue.pop_front() {
            for &(sym, t) in &children[s as usize] {
                // The longest proper suffix of `t`'s prefix in the trie: from `s`'s, one
                // more symbol (breadth-first, every shallower state's link is set).
                let f = if s == 0 {
                    0
                } else {
                    step(&trie, &fail, fail[s as usize], sym)
                };
                fail[t as usize] = f;
                longest[t as usize] = if trie.is_end(t) {
                    trie.depth(t)
                } else {
                    longest[f as usize]
                };
                queue.push_back(t);
            }
        }
        Automaton {
            trie,
            fail,
            longest,
        }
    }

    /// The state after reading `sym` in `state`.
    fn step(&self, state: u32, sym: u32) -> u32 {
        step(&self.trie, &self.fail, state, sym)
    }
}

/// The state after reading `sym` in `state`: its child by `sym`, else its failure link's,
/// down to the root.
fn step(trie: &Trie, fail: &[u32], mut state: u32, sym: u32) -> u32 {
    loop {
        if let Some(t) = trie.child(state, sym) {
            return t;
        }
        if state == 0 {
            return 0;
        }
        state = fail[state as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::Cleaner;
    use crate::model::{SuffixConfig, View, learn};
    use crate::mutable::{MutablePattern, Scope};
    use proptest::prelude::*;

    fn model(docs: &[&str], view: View, mutable: Vec<MutablePattern>) -> SuffixModel {
        let config = SuffixConfig {
            mutable: Some(mutable),
            ..SuffixConfig::for_view(view)
        };
        learn(docs, &config).expect("learns")
    }

    /// Ranges as pairs, to compare with literals.
    fn pairs(v: Vec<Range<usize>>) -> Vec<(usize, usize)> {
        v.into_iter().map(|r| (r.start, r.end)).collect()
    }

    fn by_regex(m: &SuffixModel, text: &str) -> Vec<Range<usize>> {
        let regexes: Vec<&str> = m.expressions.iter().map(|e| e.regex.as_str()).collect();
        Cleaner::new(&regexes).expect("compiles").matches(text)
    }

    fn by_tokens(m: &SuffixModel, text: &str) -> Vec<Range<usize>> {
        TokenMatcher::new(m).expect("token-matchable").matches(text)
    }

    /// A hand-checked case: the strings "Home News" and "News \n Sport" (the only repeats of
    /// two or more tokens in three pages of one template), matched on a fourth text.
    #[test]
    fn spans_run_from_word_to_word() {
        let docs = [
            "Home News\nSport alpha one",
            "Home News\nSport beta two",
            "Home News\nSport gamma three",
        ];
        let m = model(&docs, View::Text, Vec::new());
        let texts: Vec<&str> = m.expressions.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["Home News \n Sport"]);
        let text = "x  Home News \n Sport\n\ny";
        // From the end of "x" to the start of "y": the separators on both sides go with it.
        assert_eq!(pairs(by_tokens(&m, text)), [(1, 22)]);
        assert_eq!(pairs(by_regex(&m, text)), [(1, 22)]);
        // At the text's ends, the whole leading and trailing whitespace.
        let text = " Home News\nSport ";
        assert_eq!(pairs(by_tokens(&m, text)), [(0, 17)]);
        assert_eq!(pairs(by_regex(&m, text)), [(0, 17)]);
        // Not across a line break the string does not have, nor inside a longer word.
        assert!(by_tokens(&m, "Home\nNews\nSport").is_empty());
        assert!(by_tokens(&m, "Home News Sport").is_empty());
        assert!(by_tokens(&m, "Home Newsy\nSport").is_empty());
    }

    /// Strings that start or end with a line token match line breaks at the text's ends, as
    /// their regexes do.
    #[test]
    fn line_tokens_at_the_ends_of_the_text() {
        let docs = ["a\nMenu\nb", "c\nMenu\nd", "e\nMenu\nf"];
        let m = model(&docs, View::Text, Vec::new());
        let texts: Vec<&str> = m.expressions.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["\n Menu \n"]);
        for text in ["\nMenu\n", "x\nMenu\n", "\nMenu\ny", "x \n Menu \n y"] {
            assert_eq!(by_tokens(&m, text), by_regex(&m, text), "{text:?}");
            assert_eq!(by_tokens(&m, text).len(), 1, "{text:?}");
        }
        assert!(by_tokens(&m, "Menu\n").is_empty());
    }

    /// Overlapping mutable patterns: a string mined from "12:30" holds the time pattern's
    /// placeholder, whose regex also accepts "2013" (which mining gives the number pattern's
    /// placeholder). The regex matches there; the token string does not (module docs).
    #[test]
    fn overlapping_patterns_generalise_less_on_tokens() {
        let t = |r: &str| MutablePattern {
            regex: r.into(),
            scope: Scope::Token,
        };
        let patterns = vec![t("[0-9]+"), t("[0-9:]*[0-9][0-9:]*")];
        let docs = [
            "open at 12:30 today",
            "open at 09:15 now",
            "open at 10:45 ok",
        ];
        let m = model(&docs, View::Text, patterns);
        let texts: Vec<&str> = m.expressions.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["open at «[0-9:]*[0-9][0-9:]*»"]);
        assert_eq!(pairs(by_tokens(&m, "open at 11:00")), [(0, 13)]);
        assert_eq!(pairs(by_regex(&m, "open at 2013")), [(0, 12)]);
        assert!(by_tokens(&m, "open at 2013").is_empty());
    }

    /// A literal `«` in the page text is read back as itself, not as a placeholder.
    #[test]
    fn guillemets_in_the_text_are_literal() {
        let docs = [
            "«Bonjour» monde x",
            "«Bonjour» monde y",
            "«Bonjour» monde z",
        ];
        let m = model(&docs, View::Text, crate::mutable::builtin());
        assert_eq!(pairs(by_tokens(&m, "a «Bonjour» monde b")), [(1, 20)]);
    }

    /// Models the tokens cannot read fall back to the regexes: another tokeniser, an
    /// expression edited by hand, or the model asking for regexes.
    #[test]
    fn other_models_fall_back_to_regexes() {
        let docs = ["Home News x", "Home News y", "Home News z"];
        let m = model(&docs, View::Text, Vec::new());
        assert!(TokenMatcher::new(&m).is_ok());
        let mut edited = m.clone();
        edited.expressions[0].regex = "(?:^|\\s+)Home\\s+Newz(?:\\s+|$)".into();
        assert!(TokenMatcher::new(&edited).is_err());
        let compiled = crate::CompiledSuffix::new(edited).expect("compiles");
        assert!(!compiled.matches_tokens());
        assert_eq!(
            compiled.regex_fallback(),
            Some("expression 1 is not the regex of its string")
        );
        assert_eq!(pairs(compiled.matches("a Home Newz b")), [(1, 12)]);
        let mut other = m.clone();
        other.tokenizer.token = r"\w+".into();
        assert!(TokenMatcher::new(&other).is_err());
        let mut asked = m.clone();
        asked.clean.regex_matching = true;
        let asked = crate::CompiledSuffix::new(asked).expect("compiles");
        assert!(!asked.matches_tokens());
        // Regexes asked for are no fallback.
        assert_eq!(asked.regex_fallback(), None);
        let tokens = crate::CompiledSuffix::new(m).expect("compiles");
        assert!(tokens.matches_tokens());
        assert_eq!(tokens.regex_fallback(), None);
    }

    /// Matching `strings` (tokens separated by spaces, `|` for a line token) on tokens and as
    /// their regexes, without mutable patterns.
    fn both(strings: &[&str], lines: bool, text: &str) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
        let strings: Vec<Vec<String>> = strings
            .iter()
            .map(|s| {
                s.split(' ')
                    .map(|t| {
                        if t == "|" {
                            LINE.to_string()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect()
            })
            .collect();
        let spec = crate::tokens::TokenizerSpec::default().with_lines(lines);
        let regexes: Vec<String> = strings
            .iter()
            .map(|s| regexgen::expression(s.iter().map(String::as_str), &[], &spec))
            .collect();
        let set = MutableSet::new(Vec::new()).expect("empty set");
        let tokenizer = spec.compile().expect("the default tokeniser");
        let tokens = TokenMatcher::build(&strings, tokenizer, set).matches(text);
        let regex = Cleaner::new(&regexes).expect("compiles").matches(text);
        (tokens, regex)
    }

    /// A string that ends inside another string's prefix is found through the failure links
    /// ("b c" inside "a b c" while reading towards "a b c d"), and a long match that starts
    /// before earlier ones swallows them.
    #[test]
    fn suffixes_of_prefixes_and_swallowed_intervals() {
        let (tokens, regex) = both(&["a b c d", "b c"], false, "a b c x");
        assert_eq!(pairs(tokens.clone()), [(1, 6)]);
        assert_eq!(tokens, regex);
        let text = "q b x z c y d e f";
        let (tokens, regex) = both(&["b x", "c y", "q b x z c y d e"], false, text);
        assert_eq!(pairs(tokens.clone()), [(0, 16)]);
        assert_eq!(tokens, regex);
        let (tokens, regex) = both(&["b x", "c y"], false, text);
        assert_eq!(pairs(tokens.clone()), [(1, 6), (7, 12)]);
        assert_eq!(tokens, regex);
    }

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("a".to_string()),
            Just("b".to_string()),
            Just("c".to_string()),
            Just("d.".to_string()),
            Just("(e)".to_string()),
        ]
    }

    fn gap() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => Just(" ".to_string()),
            2 => Just("\n".to_string()),
            1 => Just("  ".to_string()),
            1 => Just(" \n\n ".to_string()),
            1 => Just("\u{a0}".to_string()),
            1 => Just("\t".to_string()),
        ]
    }

    fn text(max: usize) -> impl Strategy<Value = String> {
        (
            gap(),
            proptest::collection::vec((word(), gap()), 0..max),
            any::<bool>(),
        )
            .prop_map(|(lead, parts, leading)| {
                let mut out = if leading { lead } else { String::new() };
                for (w, g) in parts {
                    out.push_str(&w);
                    out.push_str(&g);
                }
                out
            })
    }

    fn string() -> impl Strategy<Value = String> {
        proptest::collection::vec(prop_oneof![4 => word(), 1 => Just("|".to_string())], 1..5)
            .prop_map(|t| t.join(" "))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any set of strings, not only mined ones (nested, overlapping, starting or ending
        /// with line tokens): the same matches as their regexes.
        #[test]
        fn any_strings_match_as_their_regexes(
            strings in proptest::collection::vec(string(), 1..8),
            page in text(30),
            lines in any::<bool>(),
        ) {
            // Line tokens exist only where lines are tokens.
            let strings: Vec<String> = strings
                .iter()
                .map(|s| {
                    let mut t: Vec<&str> = s.split(' ').filter(|t| lines || *t != "|").collect();
                    // One line token per whitespace run, as tokenising gives.
                    t.dedup_by(|a, b| *a == "|" && *b == "|");
                    t.join(" ")
                })
                .filter(|s| !s.is_empty())
                .collect();
            let strings: Vec<&str> = strings.iter().map(String::as_str).collect();
            let (tokens, regex) = both(&strings, lines, &page);
            prop_assert_eq!(tokens, regex);
        }

        /// Without mutable patterns the token strings and their regexes are the same
        /// language, so both give the same unioned matches, to the byte, in both views.
        #[test]
        fn same_matches_as_the_regexes(
            docs in proptest::collection::vec(text(14), 2..6),
            page in text(30),
            raw in any::<bool>(),
        ) {
            let refs: Vec<&str> = docs.iter().map(String::as_str).collect();
            let view = if raw { View::Raw } else { View::Text };
            let m = model(&refs, view, Vec::new());
            prop_assert_eq!(by_tokens(&m, &page), by_regex(&m, &page));
            for d in &refs {
                prop_assert_eq!(by_tokens(&m, d), by_regex(&m, d));
            }
        }
    }
}

//! Tokenisation (thesis §3.2 step 1) and the integer corpus the suffix array is built on
//! (step 2): every distinct token gets an id, documents are concatenated with a separator id
//! that is unique to each document, so that no repeated string can span two documents.
//!
//! The tokenisation parameter is a regex for a token (default `\S+`); cleaning regexes join
//! tokens with its inverse, the separator (default `\s+`, derived automatically when the token
//! pattern is a repeated character class such as `\w+`).

use std::borrow::Cow;
use std::ops::Range;

use rayon::prelude::*;
use regex_syntax::hir::{Class, HirKind};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::mutable::MutableSet;

/// The tokenisation parameter and its inverse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenizerSpec {
    /// Regex matching one token.
    pub token: String,
    /// Regex matching what lies between two tokens.
    pub separator: String,
    /// Line breaks are tokens of their own ([`LINE`]). Used for the visible-text view, whose
    /// lines are the page's blocks: without it a one-word block such as a "Latest" heading
    /// between varying lines could never form a string of two tokens.
    #[serde(default)]
    pub lines: bool,
}

/// The token standing for a line break when [`TokenizerSpec::lines`] is on.
pub const LINE: &str = "\n";

impl Default for TokenizerSpec {
    fn default() -> Self {
        TokenizerSpec {
            token: r"\S+".into(),
            separator: r"\s+".into(),
            lines: false,
        }
    }
}

impl TokenizerSpec {
    /// A spec from a token pattern, deriving the separator as the negated character class
    /// when the pattern is `C+` for a class `C`; otherwise `separator` must be given.
    pub fn new(token: &str, separator: Option<&str>) -> Result<TokenizerSpec, String> {
        let separator = match separator {
            Some(s) => s.to_string(),
            None => derive_separator(token)?,
        };
        for p in [token, &separator] {
            regex_syntax::parse(p).map_err(|e| format!("invalid tokeniser regex {p:?}: {e}"))?;
        }
        Ok(TokenizerSpec {
            token: token.into(),
            separator,
            lines: false,
        })
    }

    /// The same spec with line-break tokens on or off.
    pub fn with_lines(mut self, lines: bool) -> TokenizerSpec {
        self.lines = lines;
        self
    }

    /// Compiles the spec (the token regex within [`crate::clean::MAX_NFA_BYTES`] compiled,
    /// [`TOKEN_DFA_BYTES`] of lazy DFA cache, [`crate::clean::MAX_NESTING`] levels).
    pub fn compile(&self) -> Result<Tokenizer, String> {
        let kind = if self.token == r"\S+" {
            TokenizerKind::Whitespace
        } else {
            // The regex crate's engines are linear-time; its limits, set out here, bound
            // what a hostile token regex can make it build.
            TokenizerKind::Regex(
                regex::RegexBuilder::new(&self.token)
                    .size_limit(crate::clean::MAX_NFA_BYTES)
                    .dfa_size_limit(TOKEN_DFA_BYTES)
                    .nest_limit(crate::clean::MAX_NESTING)
                    .build()
                    .map_err(|e| format!("invalid token regex: {e}"))?,
            )
        };
        Ok(Tokenizer {
            kind,
            lines: self.lines,
        })
    }

    /// A regex matching a token boundary on the left: the text start or a separator.
    pub fn left_boundary(&self) -> String {
        format!("(?:^|{})", self.separator)
    }

    /// A regex matching a token boundary on the right.
    pub fn right_boundary(&self) -> String {
        format!("(?:{}|$)", self.separator)
    }
}

/// The lazy DFA cache of a token regex, in bytes (the regex crate's default, 2 MiB).
pub const TOKEN_DFA_BYTES: usize = 2 << 20;

fn derive_separator(token: &str) -> Result<String, String> {
    if token == r"\S+" {
        return Ok(r"\s+".into());
    }
    let hir =
        regex_syntax::parse(token).map_err(|e| format!("invalid token regex {token:?}: {e}"))?;
    if let HirKind::Repetition(rep) = hir.kind()
        && rep.min == 1
        && rep.max.is_none()
        && let HirKind::Class(class) = rep.sub.kind()
    {
        let mut negated = class.clone();
        negated.negate();
        let is_empty = match &negated {
            Class::Unicode(c) => c.ranges().is_empty(),
            Class::Bytes(c) => c.ranges().is_empty(),
        };
        if !is_empty {
            return Ok(format!("{}+", regex_syntax::hir::Hir::class(negated)));
        }
    }
    Err(format!(
        "cannot derive a separator from the token pattern {token:?}: give one with --separator"
    ))
}

/// A compiled tokeniser.
#[derive(Clone, Debug)]
pub struct Tokenizer {
    kind: TokenizerKind,
    lines: bool,
}

#[derive(Clone, Debug)]
enum TokenizerKind {
    /// `\S+`, split on Unicode whitespace without a regex engine.
    Whitespace,
    /// Any other token regex.
    Regex(regex::Regex),
}

impl Tokenizer {
    /// The `\S+` tokeniser without line tokens.
    pub fn whitespace() -> Tokenizer {
        Tokenizer {
            kind: TokenizerKind::Whitespace,
            lines: false,
        }
    }

    /// Whether line breaks are tokens ([`TokenizerSpec::lines`]).
    pub fn lines(&self) -> bool {
        self.lines
    }

    /// Calls `f` with every token of `text`, in order. With line tokens, every run of line
    /// breaks (and the whitespace around them) between two tokens yields one [`LINE`].
    pub fn for_each<'t>(&self, text: &'t str, mut f: impl FnMut(&'t str)) {
        self.for_each_span(text, |t, _| f(t));
    }

    /// [`Tokenizer::for_each`] with where each token lies in `text`: a word's own bytes, a
    /// line token's the whitespace between the two words around it.
    pub fn for_each_span<'t>(&self, text: &'t str, mut f: impl FnMut(&'t str, Range<usize>)) {
        let base = text.as_ptr() as usize;
        // Words are slices of `text`, so their offsets are their addresses less its own.
        let span = |w: &str| {
            let start = w.as_ptr() as usize - base;
            start..start + w.len()
        };
        if !self.lines {
            return self.words(text, &mut |w| f(w, span(w)));
        }
        // A line token goes before the first word after one or more line breaks, never at
        // the start or the end of the text.
        let mut previous_end: Option<usize> = None;
        for line in text.split('\n') {
            self.words(line, &mut |w| {
                let at = span(w);
                if let Some(end) = previous_end
                    && text[end..at.start].contains('\n')
                {
                    f(LINE, end..at.start);
                }
                previous_end = Some(at.end);
                f(w, at);
            });
        }
    }

    fn words<'t>(&self, text: &'t str, f: &mut dyn FnMut(&'t str)) {
        match &self.kind {
            TokenizerKind::Whitespace => {
                for t in text.split(char::is_whitespace) {
                    if !t.is_empty() {
                        f(t);
                    }
                }
            }
            TokenizerKind::Regex(re) => {
                for m in re.find_iter(text) {
                    if !m.is_empty() {
                        f(m.as_str());
                    }
                }
            }
        }
    }
}

/// Documents as one integer text.
#[derive(Debug)]
pub struct TokenCorpus {
    /// Token ids, each document followed by its own separator id `vocab.len() + doc`.
    pub text: Vec<i32>,
    /// The document of every text position.
    pub doc_of: Vec<u32>,
    /// The normalised text of each token id (mutable-pattern placeholders included).
    pub vocab: Vec<String>,
    /// Number of documents.
    pub documents: usize,
}

impl TokenCorpus {
    /// Size of the alphabet: tokens plus one separator per document.
    pub fn alphabet(&self) -> usize {
        self.vocab.len() + self.documents
    }

    /// True if `id` is a document separator.
    pub fn is_separator(&self, id: i32) -> bool {
        id as usize >= self.vocab.len()
    }

    /// Number of tokens, separators excluded.
    pub fn tokens(&self) -> usize {
        self.text.len() - self.documents
    }
}

/// Tokenises and normalises `docs` into a [`TokenCorpus`], in parallel.
pub fn build_corpus(docs: &[&str], tokenizer: &Tokenizer, mutable: &MutableSet) -> TokenCorpus {
    // 1. Per chunk of documents: local interning of raw tokens.
    let chunk = docs.len().div_ceil(rayon::current_num_threads() * 4).max(1);
    struct Local<'a> {
        vocab: Vec<&'a str>,
        docs: Vec<Vec<u32>>,
    }
    let locals: Vec<Local<'_>> = docs
        .par_chunks(chunk)
        .map(|chunk| {
            let mut map: FxHashMap<&str, u32> = FxHashMap::default();
            // The line token is never normalised (see step 3).
            let mut vocab = Vec::new();
            let mut out = Vec::with_capacity(chunk.len());
            for doc in chunk {
                let mut ids = Vec::with_capacity(doc.len() / 6);
                tokenizer.for_each(doc, |t| {
                    let id = *map.entry(t).or_insert_with(|| {
                        vocab.push(t);
                        (vocab.len() - 1) as u32
                    });
                    ids.push(id);
                });
                out.push(ids);
            }
            Local { vocab, docs: out }
        })
        .collect();

    // 2. Global raw vocabulary and per-chunk remapping.
    let mut raw_map: FxHashMap<&str, u32> = FxHashMap::default();
    let mut raw_vocab: Vec<&str> = Vec::new();
    let remaps: Vec<Vec<u32>> = locals
        .iter()
        .map(|l| {
            l.vocab
                .iter()
                .map(|&t| {
                    *raw_map.entry(t).or_insert_with(|| {
                        raw_vocab.push(t);
                        (raw_vocab.len() - 1) as u32
                    })
                })
                .collect()
        })
        .collect();
    drop(raw_map);

    // 3. Normalise each distinct raw token once.
    let normalised: Vec<Option<String>> = raw_vocab
        .par_iter()
        .map_init(String::new, |buf, t| {
            mutable.normalize(t, buf).then(|| buf.clone())
        })
        .collect();

    // 4. Intern normalised forms.
    let mut norm_map: FxHashMap<Cow<'_, str>, u32> = FxHashMap::default();
    let mut vocab: Vec<String> = Vec::new();
    let raw_to_norm: Vec<u32> = raw_vocab
        .iter()
        .zip(&normalised)
        .map(|(&raw, norm)| {
            let key: Cow<'_, str> = match norm {
                Some(n) => Cow::Borrowed(n.as_str()),
                None => Cow::Borrowed(raw),
            };
            if let Some(&id) = norm_map.get(&key) {
                return id;
            }
            vocab.push(key.to_string());
            let id = (vocab.len() - 1) as u32;
            norm_map.insert(key, id);
            id
        })
        .collect();
    drop(norm_map);

    // 5. The concatenated text.
    let total: usize = locals
        .iter()
        .flat_map(|l| &l.docs)
        .map(|d| d.len() + 1)
        .sum();
    let mut text = Vec::with_capacity(total);
    let mut doc_of = Vec::with_capacity(total);
    let v = vocab.len() as i32;
    let mut d = 0u32;
    for (local, remap) in locals.iter().zip(&remaps) {
        for ids in &local.docs {
            text.extend(
                ids.iter()
                    .map(|&l| raw_to_norm[remap[l as usize] as usize] as i32),
            );
            text.push(v + d as i32);
            doc_of.extend(std::iter::repeat_n(d, ids.len() + 1));
            d += 1;
        }
    }
    TokenCorpus {
        text,
        doc_of,
        vocab,
        documents: docs.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::{self, MutableSet};

    #[test]
    fn separators_derived() {
        assert_eq!(TokenizerSpec::new(r"\S+", None).unwrap().separator, r"\s+");
        let w = TokenizerSpec::new(r"\w+", None).unwrap();
        let re = regex::Regex::new(&w.separator).unwrap();
        assert!(re.is_match(" ,"));
        assert!(!re.is_match("a"));
        assert!(TokenizerSpec::new(r"a|b", None).is_err());
        assert!(TokenizerSpec::new(r"a|b", Some(r"\s+")).is_ok());
    }

    #[test]
    fn tokens_of_the_thesis_example() {
        let mut toks = Vec::new();
        Tokenizer::whitespace().for_each("hello! How  are\u{a0}you?", |t| toks.push(t));
        assert_eq!(toks, ["hello!", "How", "are", "you?"]);
    }

    #[test]
    fn line_tokens() {
        let t = TokenizerSpec::default().with_lines(true).compile().unwrap();
        let mut toks = Vec::new();
        t.for_each("\nLatest\nOne two\n\n three \n", |w| toks.push(w));
        assert_eq!(toks, ["Latest", LINE, "One", "two", LINE, "three"]);
    }

    #[test]
    fn corpus_ids_and_normalisation() {
        let set = MutableSet::new(mutable::builtin()).unwrap();
        let docs = ["I'm 24 years old", "I'm 25 years old today"];
        let c = build_corpus(&docs, &Tokenizer::whitespace(), &set);
        assert_eq!(c.documents, 2);
        let words = |d: u32| -> Vec<i32> {
            c.text
                .iter()
                .zip(&c.doc_of)
                .filter(|&(&t, &dd)| dd == d && !c.is_separator(t))
                .map(|(&t, _)| t)
                .collect()
        };
        // "24" and "25" normalise to the same id; so do "years" (time unit pattern).
        assert_eq!(words(0), words(1)[..4]);
        assert_eq!(c.text.len(), 4 + 1 + 5 + 1);
        assert!(c.is_separator(c.text[4]) && c.is_separator(c.text[10]));
        assert_ne!(c.text[4], c.text[10]);
    }
}

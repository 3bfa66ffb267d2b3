//! Regex synthesis (thesis §3.4): a mined token string becomes a cleaning expression.
//!
//! 1. each token is mapped back to its text, its literal characters escaped, and each
//!    mutable-pattern placeholder re-expanded into that pattern;
//! 2. tokens are joined with the inverse of the tokenisation pattern (`\s+` for `\S+`).
//!
//! So "hello! How are you?" gives `hello!\s+How\s+are\s+you\?` and, with the mutable pattern
//! `[0-9]+`, "I'm 24 years old" gives `I'm\s+(?:[0-9]+)\s+years\s+old`, which matches the text
//! it came from and generalises it ("I'm 25 years old").
//!
//! We add token boundaries on both sides, `(?:^|\s+)` and `(?:\s+|$)`: the thesis's own
//! printed expressions have them (`([\-\s]+|^)` … `([\-\s]+|$)`), and without them `are\s+you`
//! would also match inside "bare you". The boundary whitespace becomes part of the match,
//! which only ever removes separators.

//!
//! With line tokens (the text view), a line break matches `[^\S\n]*\n\s*` — any run of
//! whitespace holding a line break — and words of one line are joined by horizontal
//! whitespace only, so an expression never matches across a line it did not see.

use crate::mutable::{MutablePattern, placeholder_index};
use crate::tokens::{LINE, TokenizerSpec};

/// The regex of the line token.
const LINE_REGEX: &str = r"[^\S\n]*\n\s*";

/// The regex for one normalised token.
pub fn token_regex(token: &str, patterns: &[MutablePattern]) -> String {
    let mut out = String::with_capacity(token.len() + 8);
    let mut literal = String::new();
    for c in token.chars() {
        match placeholder_index(c).and_then(|k| patterns.get(k)) {
            Some(p) => {
                out.push_str(&regex_syntax::escape(&literal));
                literal.clear();
                out.push_str("(?:");
                out.push_str(&p.regex);
                out.push(')');
            }
            None => literal.push(c),
        }
    }
    out.push_str(&regex_syntax::escape(&literal));
    out
}

/// The separator between two tokens of one line.
fn word_separator(spec: &TokenizerSpec) -> &str {
    if spec.lines && spec.separator == r"\s+" {
        r"[^\S\n]+"
    } else {
        &spec.separator
    }
}

/// The cleaning expression for a token string, without boundaries.
pub fn join_tokens<'a>(
    tokens: impl IntoIterator<Item = &'a str>,
    patterns: &[MutablePattern],
    spec: &TokenizerSpec,
) -> String {
    let mut out = String::new();
    let mut previous_is_word = false;
    for t in tokens {
        let is_line = spec.lines && t == LINE;
        if is_line {
            out.push_str(LINE_REGEX);
        } else {
            if previous_is_word {
                out.push_str(word_separator(spec));
            }
            out.push_str(&token_regex(t, patterns));
        }
        previous_is_word = !is_line;
    }
    out
}

/// The cleaning expression for a token string, with token boundaries on both sides (a line
/// token at either end is its own boundary).
pub fn expression<'a>(
    tokens: impl IntoIterator<Item = &'a str> + Clone,
    patterns: &[MutablePattern],
    spec: &TokenizerSpec,
) -> String {
    let is_line = |t: Option<&str>| spec.lines && t == Some(LINE);
    let first = tokens.clone().into_iter().next();
    let last = tokens.clone().into_iter().last();
    let left = if is_line(first) {
        String::new()
    } else {
        spec.left_boundary()
    };
    let right = if is_line(last) {
        String::new()
    } else {
        spec.right_boundary()
    };
    format!("{left}{}{right}", join_tokens(tokens, patterns, spec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutable::{MutablePattern, MutableSet, Scope};

    fn spec() -> TokenizerSpec {
        TokenizerSpec::default()
    }

    /// Thesis §3.4: "hello! How are you?" tokenised by `\S+` and glued with `\s+`.
    #[test]
    fn hello_how_are_you() {
        let tokens = ["hello!", "How", "are", "you?"];
        let joined = join_tokens(tokens, &[], &spec());
        assert_eq!(joined, r"hello!\s+How\s+are\s+you\?");
        let re = regex::Regex::new(&expression(tokens, &[], &spec())).unwrap();
        assert!(re.is_match("hello! How are you?"));
        assert!(re.is_match("x\nhello!  How\tare you? y"));
        assert!(!re.is_match("hello! How bare you?"));
        assert!(!re.is_match("hello! How are you?!"));
    }

    /// Thesis §3.4: "I'm 24 years old" with the mutable pattern `[0-9]+`.
    #[test]
    fn im_24_years_old() {
        let patterns = vec![MutablePattern {
            regex: "[0-9]+".into(),
            scope: Scope::Token,
        }];
        let set = MutableSet::new(patterns.clone()).unwrap();
        let mut norm = Vec::new();
        let mut buf = String::new();
        for t in "I'm 24 years old".split(' ') {
            norm.push(if set.normalize(t, &mut buf) {
                buf.clone()
            } else {
                t.to_string()
            });
        }
        let joined = join_tokens(norm.iter().map(String::as_str), &patterns, &spec());
        assert_eq!(joined, r"I'm\s+(?:[0-9]+)\s+years\s+old");
        let re = regex::Regex::new(&expression(
            norm.iter().map(String::as_str),
            &patterns,
            &spec(),
        ))
        .unwrap();
        assert!(re.is_match("I'm 24 years old"));
        assert!(re.is_match("I'm 25 years old"), "generalises");
        assert!(!re.is_match("I'm old years old"));
    }

    #[test]
    fn line_tokens_match_line_breaks_only() {
        let spec = TokenizerSpec::default().with_lines(true);
        let re =
            regex::Regex::new(&expression(["Latest", LINE, "Read", "more"], &[], &spec)).unwrap();
        assert!(re.is_match("x\nLatest\nRead more\ny"));
        assert!(re.is_match("Latest \n\n Read more"));
        assert!(!re.is_match("Latest Read more"), "no line break");
        assert!(
            !re.is_match("Latest\nRead\nmore"),
            "words of one line stay on one line"
        );
        let re = regex::Regex::new(&expression([LINE, "Latest", LINE], &[], &spec)).unwrap();
        assert!(re.is_match("a\nLatest\nb"));
        assert!(!re.is_match("a Latest\nb"));
    }

    #[test]
    fn metacharacters_are_escaped() {
        let re = regex::Regex::new(&expression(["(c)", "2007*", "a.b"], &[], &spec())).unwrap();
        assert!(re.is_match("(c) 2007* a.b"));
        assert!(!re.is_match("(c) 2007 a.b"));
        assert!(!re.is_match("(c) 2007* axb"));
    }
}

//! Mutable patterns (thesis §3.3): dates, numbers, URLs and the like, which vary between pages
//! inside otherwise identical template text. Before mining, every occurrence is replaced by a
//! placeholder standing for the *strictest regex that matches it* — the pattern itself — so
//! the suffix array sees "Published on Tuesday, 27th" and "Published on Friday, 2nd" as the
//! same string, and the synthesised cleaning regex re-expands the placeholder into the
//! pattern, generalising to dates it never saw.
//!
//! Patterns have a scope:
//! * `token` (the thesis's reading: "every token entirely made by uppercase characters"):
//!   the pattern must match a whole token. The first matching pattern, in list order, wins.
//! * `inside`: the pattern is replaced wherever it occurs inside a token that no `token`
//!   pattern matched (leftmost-first, list order breaks ties). This is our addition for the
//!   raw-HTML view, where a session id or a number sits inside a longer token such as
//!   `href="/news/123?sid=9f3a">Home`.
//!
//! The built-in list reconstructs the thesis's §5.2 list, whose printed form is damaged by
//! text extraction; where a printed pattern can match punctuation alone (`[\d,\.]+`) we
//! require a digit, and we add `hour`, `week`, `month`, `year` to the time units, which the
//! printed list lacks although "2 hours ago" is as common as "5 minutes ago". Digits and
//! word characters are ASCII (`[0-9]`, `[A-Za-z0-9_]`), as in the thesis's boost.regex
//! patterns: a Unicode `\d` or `\w` compiles to hundreds of UTF-8 ranges at every place a
//! cleaning expression uses the pattern, and makes large expression sets too big for the
//! lazy DFA.
//!
//! A user file (`--mutable FILE`) extends the list: one pattern per line, `token: REGEX` or
//! `inside: REGEX` (a bare `REGEX` means `token:`), `#` comments and blank lines ignored.

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use serde::{Deserialize, Serialize};

/// Where a mutable pattern applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Must match a whole token.
    Token,
    /// Replaced wherever it occurs inside a token.
    Inside,
}

/// One mutable pattern.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MutablePattern {
    /// The regex (Rust `regex` syntax).
    pub regex: String,
    /// Where it applies.
    pub scope: Scope,
}

impl MutablePattern {
    fn token(r: &str) -> Self {
        MutablePattern {
            regex: r.to_string(),
            scope: Scope::Token,
        }
    }

    fn inside(r: &str) -> Self {
        MutablePattern {
            regex: r.to_string(),
            scope: Scope::Inside,
        }
    }
}

/// Trailing punctuation a token-scope pattern tolerates ("February," "2007.").
const TRAIL: &str = r"[[:punct:]]*";

/// The built-in list (see the module docs for its provenance).
pub fn builtin() -> Vec<MutablePattern> {
    let t = |p: &str| MutablePattern::token(&format!("(?:{p}){TRAIL}"));
    vec![
        // Ordinals: 27th, 2nd.
        t(r"[0-9]+(?:st|nd|rd|th)"),
        // Months and days, full and abbreviated.
        t("January|February|March|April|May|June|July|August|September|October|November|December"),
        t("Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"),
        t("Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"),
        t("Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun"),
        // Time units: "5 minutes ago", "2 hrs".
        t("hrs?|hours?|days?|weeks?|months?|years?|minutes?|mins?|seconds?|secs?"),
        // Numbers, dates, times, phone numbers, prices (each must contain a digit).
        t(r"[0-9,.]*[0-9][0-9,.]*"),
        t(r"[0-9\-/:.]*[0-9][0-9\-/:.]*"),
        t(r"[$€£¥0-9,.()\[\]\-/:+]*[0-9][$€£¥0-9,.()\[\]\-/:+]*"),
        // Dash runs used as separators.
        t("-+|–|—"),
        // Acronyms U.S.A. and abbreviations Mr. Inc.
        t(r"(?:[[:upper:]]\.){2,}"),
        t(r"[[:upper:]][A-Za-z0-9_]{1,4}\."),
        // Upper-case words (the thesis's UPCASE example).
        t("[[:upper:]]{2,}"),
        // E-mail addresses and URLs.
        t(r"[A-Za-z0-9_.+\-]+@[A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)+"),
        MutablePattern::token(r"(?:https?://|www\.)\S*"),
        // "By"/"by" before an author name.
        MutablePattern::token("[bB]y:?"),
        // Inside tokens: URLs in attributes, session parameters, digit runs.
        MutablePattern::inside(r#"https?://[^\s"'<>]+"#),
        MutablePattern::inside(
            r#"(?i:jsessionid|phpsessid|sessionid|session_id|sid|sessid|s)=[^\s&;"'<>#]+"#,
        ),
        MutablePattern::inside(r"[0-9]+"),
    ]
}

/// Reads and parses a user pattern file; errors name the file.
pub fn load_file(path: &std::path::Path) -> Result<Vec<MutablePattern>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a user pattern file (see the module docs for the format).
pub fn parse_file(text: &str) -> Result<Vec<MutablePattern>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pattern = if let Some(r) = line.strip_prefix("token:") {
            MutablePattern::token(r.trim())
        } else if let Some(r) = line.strip_prefix("inside:") {
            MutablePattern::inside(r.trim())
        } else {
            MutablePattern::token(line)
        };
        if let Err(e) = regex_syntax::parse(&pattern.regex) {
            return Err(format!(
                "line {}: invalid regex {:?}: {e}",
                n + 1,
                pattern.regex
            ));
        }
        out.push(pattern);
    }
    Ok(out)
}

/// First code point used for placeholders: supplementary private use area B, which real text
/// practically never contains (a page that does would see such characters treated as
/// placeholders; harmless for mining, documented here).
const PLACEHOLDER_BASE: u32 = 0x10_0000;
/// At most this many patterns (placeholders must stay below U+10FFFE).
pub const MAX_PATTERNS: usize = 0xFFFD;

/// The placeholder character of pattern `k`.
pub fn placeholder(k: usize) -> char {
    char::from_u32(PLACEHOLDER_BASE + k as u32).unwrap_or('\u{FFFD}')
}

/// The pattern index of a placeholder character.
pub fn placeholder_index(c: char) -> Option<usize> {
    let v = c as u32;
    (PLACEHOLDER_BASE..PLACEHOLDER_BASE + MAX_PATTERNS as u32)
        .contains(&v)
        .then(|| (v - PLACEHOLDER_BASE) as usize)
}

/// A compiled list of mutable patterns.
pub struct MutableSet {
    patterns: Vec<MutablePattern>,
    /// Index into `patterns` of each pattern in `whole` / `inside`.
    whole_ids: Vec<usize>,
    inside_ids: Vec<usize>,
    whole: Option<Regex>,
    inside: Option<Regex>,
}

impl std::fmt::Debug for MutableSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MutableSet")
            .field("patterns", &self.patterns)
            .finish()
    }
}

impl MutableSet {
    /// Compiles the patterns.
    pub fn new(patterns: Vec<MutablePattern>) -> Result<MutableSet, String> {
        if patterns.len() > MAX_PATTERNS {
            return Err(format!("at most {MAX_PATTERNS} mutable patterns"));
        }
        let mut whole_src = Vec::new();
        let mut inside_src = Vec::new();
        let mut whole_ids = Vec::new();
        let mut inside_ids = Vec::new();
        for (i, p) in patterns.iter().enumerate() {
            match p.scope {
                Scope::Token => {
                    whole_src.push(format!(r"(?:{})\z", p.regex));
                    whole_ids.push(i);
                }
                Scope::Inside => {
                    inside_src.push(p.regex.clone());
                    inside_ids.push(i);
                }
            }
        }
        let build = |src: &[String]| -> Result<Option<Regex>, String> {
            if src.is_empty() {
                return Ok(None);
            }
            Regex::new_many(src)
                .map(Some)
                .map_err(|e| format!("invalid mutable pattern: {e}"))
        };
        Ok(MutableSet {
            whole: build(&whole_src)?,
            inside: build(&inside_src)?,
            patterns,
            whole_ids,
            inside_ids,
        })
    }

    /// The patterns, in order; placeholder `k` stands for `patterns()[k]`.
    pub fn patterns(&self) -> &[MutablePattern] {
        &self.patterns
    }

    /// Writes the normalised form of `token` into `out`; returns false (and leaves `out`
    /// empty) when nothing was replaced.
    pub fn normalize(&self, token: &str, out: &mut String) -> bool {
        out.clear();
        if let Some(re) = &self.whole {
            // Anchored at the start, `\z` at the end: a whole-token match. With several
            // patterns matching, the earliest in the list wins (leftmost-first priority).
            let input = Input::new(token).anchored(Anchored::Yes);
            if let Some(m) = re.search(&input) {
                out.push(placeholder(self.whole_ids[m.pattern().as_usize()]));
                return true;
            }
        }
        let Some(re) = &self.inside else { return false };
        let mut last = 0;
        for m in re.find_iter(token) {
            if m.is_empty() {
                continue;
            }
            out.push_str(&token[last..m.start()]);
            out.push(placeholder(self.inside_ids[m.pattern().as_usize()]));
            last = m.end();
        }
        if last == 0 {
            out.clear();
            return false;
        }
        out.push_str(&token[last..]);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(set: &MutableSet, t: &str) -> String {
        let mut out = String::new();
        if set.normalize(t, &mut out) {
            out.chars()
                .map(|c| match placeholder_index(c) {
                    Some(k) => format!("<{k}>"),
                    None => c.to_string(),
                })
                .collect()
        } else {
            t.to_string()
        }
    }

    #[test]
    fn builtin_normalisation() {
        let set = MutableSet::new(builtin()).unwrap();
        let p = set.patterns();
        let idx = |inner: &str| {
            let wrapped = format!("(?:{inner}){TRAIL}");
            p.iter()
                .position(|x| x.regex == wrapped || x.regex == inner)
                .unwrap()
        };
        assert_eq!(
            norm(&set, "27th"),
            format!("<{}>", idx(r"[0-9]+(?:st|nd|rd|th)"))
        );
        assert_eq!(
            norm(&set, "February,"),
            format!(
                "<{}>",
                idx(
                    "January|February|March|April|May|June|July|August|September|October|November|December"
                )
            )
        );
        assert_eq!(
            norm(&set, "24"),
            format!("<{}>", idx(r"[0-9,.]*[0-9][0-9,.]*"))
        );
        assert_eq!(
            norm(&set, "2007-02-27"),
            format!("<{}>", idx(r"[0-9\-/:.]*[0-9][0-9\-/:.]*"))
        );
        assert_eq!(norm(&set, "BBC"), format!("<{}>", idx("[[:upper:]]{2,}")));
        assert_eq!(norm(&set, "hello"), "hello");
        assert_eq!(norm(&set, ","), ",", "punctuation alone is not a number");
        assert_eq!(norm(&set, "Abby"), "Abby", "whole tokens only");
        let inside_digits = idx(r"[0-9]+");
        assert_eq!(
            norm(&set, "page-12.html"),
            format!("page-<{inside_digits}>.html")
        );
        let sid = p
            .iter()
            .position(|x| x.regex.contains("jsessionid"))
            .unwrap();
        assert_eq!(
            norm(&set, r#"href="/a?sid=9f3a1c">Home"#),
            format!(r#"href="/a?<{sid}>">Home"#)
        );
    }

    #[test]
    fn user_file() {
        let pats = parse_file("# comment\n\nfoo\\d\ninside: ab+\ntoken: x+\n").unwrap();
        assert_eq!(pats.len(), 3);
        assert_eq!(pats[1].scope, Scope::Inside);
        assert!(parse_file("(").is_err());
    }

    #[test]
    fn placeholders_round_trip() {
        for k in [0, 1, 500, MAX_PATTERNS - 1] {
            assert_eq!(placeholder_index(placeholder(k)), Some(k));
        }
        assert_eq!(placeholder_index('a'), None);
    }
}

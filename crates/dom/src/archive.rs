//! What web archives inject into the pages they replay, and how it is taken out.
//!
//! The Wayback Machine serves a captured page with three additions of its own:
//!
//! * **Head scripts**: right after the page's `<head …>` tag, `<script>` and `<link>` elements
//!   that load its replay code and styles (`/_static/js/bundle-playback.js`, `wombat.js`,
//!   `ruffle.js`, `athena.js`, `banner-styles.css`, `iconochive.css`, older
//!   `archive.org/includes/analytics.js`, `wbhack.js`…), ending with
//!   `<!-- End Wayback Rewrite JS Include -->`;
//! * **the toolbar**, inside the body, between `<!-- BEGIN WAYBACK TOOLBAR INSERT -->` and
//!   `<!-- END WAYBACK TOOLBAR INSERT -->`: its text (the capture calendar, "success",
//!   "fail", "About this capture") is not the page's, and some extractors return it as the
//!   article;
//! * **a closing notice**: the comments `<!-- FILE ARCHIVED ON … -->` and
//!   `<!-- playback timings (ms): … -->` after the page.
//!
//! [`find_inserts`] locates them; the parser takes them out before building the tree
//! ([`crate::ParseOptions::strip_archive_inserts`], on by default) and records their ranges
//! ([`crate::Document::archive_inserts`]); [`strip_inserts`] cuts them out of bytes for callers
//! that keep their own copy of the source.
//!
//! The rules, chosen so that a page without the markers is never touched:
//!
//! * Toolbar: every BEGIN marker with an END marker after it, markers included. A BEGIN marker
//!   without an END marker is left alone (cutting to the end of the page could lose the
//!   page), and so is everything after it.
//! * Head scripts: the first `<!-- End Wayback Rewrite JS Include -->`, back to the end of the
//!   last `<head …>` tag before it (without one, to the first `<script` or `<link` tag at or
//!   after the start of the page). Between the two there may be only whitespace, `<meta>`
//!   tags (skipped, they stay), then `<script>…</script>`, `<style>…</style>`, `<link>` and
//!   comments, at least one of which names the archive's replay code (one of
//!   [`REPLAY_SIGNATURES`]). Anything else there, or no such name, and nothing is taken.
//! * Notice: a comment whose text starts with `FILE ARCHIVED ON` (after whitespace) and is
//!   closed, together with one `playback timings` comment right after it (whitespace between
//!   them goes too).
//!
//! All markers are ASCII, so the search works on the bytes of the decoded text as well as on
//! raw bytes in any ASCII-compatible encoding. It is linear in the page's size. It reads the
//! text, not the tree: markers inside a script or a comment of the page count too (the
//! archive never puts them there).
//!
//! How the parser takes an insert out without moving source offsets: it replaces the insert
//! by a comment of the same length whose text is U+007F for every byte but the line breaks,
//! which stay, builds the tree, then drops such comments (joining the text nodes on both sides
//! of one). A page's own comment made of nothing but U+007F and line breaks would go too, on
//! a page with inserts.

use std::borrow::Cow;
use std::ops::Range;

use memchr::{memchr, memmem};

const BEGIN: &[u8] = b"<!-- BEGIN WAYBACK TOOLBAR INSERT -->";
const END: &[u8] = b"<!-- END WAYBACK TOOLBAR INSERT -->";
const HEAD_END: &[u8] = b"<!-- End Wayback Rewrite JS Include -->";
const NOTICE: &[u8] = b"FILE ARCHIVED ON";
const TIMINGS: &[u8] = b"playback timings";

/// Strings that name the Wayback Machine's replay code; the head scripts must contain one.
pub const REPLAY_SIGNATURES: &[&str] = &[
    "/_static/",
    "archive.org/includes/",
    "athena.js",
    "wombat.js",
    "bundle-playback.js",
    "playback.bundle.js",
    "ruffle.js",
    "wbhack.js",
    "banner-styles.css",
    "iconochive.css",
    "__wm.",
    "WB_wombat_Init",
    "archive_analytics",
];

/// The kind of an archive insert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InsertKind {
    /// The replay scripts and styles at the start of the head.
    HeadScripts,
    /// The toolbar in the body.
    Toolbar,
    /// The closing comments (`FILE ARCHIVED ON`, `playback timings`).
    Notice,
}

/// One archive insert: its byte range in the text searched, and what it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Insert {
    /// Byte range; starts with `<` and ends with `>`.
    pub range: Range<usize>,
    /// What it is.
    pub kind: InsertKind,
}

/// The archive inserts in `text` (see the module docs), in order and disjoint; empty for a
/// page without them.
pub fn find_inserts(text: &[u8]) -> Vec<Insert> {
    let mut found = Vec::new();
    if let Some(r) = head_scripts(text) {
        found.push(Insert {
            range: r,
            kind: InsertKind::HeadScripts,
        });
    }
    found.extend(toolbars(text).map(|range| Insert {
        range,
        kind: InsertKind::Toolbar,
    }));
    found.extend(notices(text).map(|range| Insert {
        range,
        kind: InsertKind::Notice,
    }));
    found.sort_by_key(|i| i.range.start);
    // Overlaps only come from markers inside other inserts: the earlier insert wins.
    let mut end = 0;
    found.retain(|i| {
        let keep = i.range.start >= end && blankable(&text[i.range.clone()]);
        if keep {
            end = i.range.end;
        }
        keep
    });
    found
}

/// The page without the archive inserts it holds ([`find_inserts`]); borrowed unchanged when
/// it holds none. Works on the bytes of any ASCII-compatible encoding.
///
/// The parser does this by itself ([`crate::ParseOptions::strip_archive_inserts`]) while
/// keeping source spans on the text as given; this is for callers that want the source
/// without the inserts, and whose spans then index the stripped bytes.
pub fn strip_inserts(bytes: &[u8]) -> Cow<'_, [u8]> {
    let inserts = find_inserts(bytes);
    if inserts.is_empty() {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut pos = 0;
    for i in &inserts {
        out.extend_from_slice(&bytes[pos..i.range.start]);
        pos = i.range.end;
    }
    out.extend_from_slice(&bytes[pos..]);
    Cow::Owned(out)
}

/// The filler of [`blank`]: what the parser recognises a blanked insert by.
pub(crate) const FILLER: char = '\u{7f}';

/// `text` with every insert replaced by a comment of the same length in bytes: `<!--`, then
/// [`FILLER`] for every byte of the insert except its line breaks, which stay, then `-->`.
/// Byte offsets and line numbers do not move. `inserts` come from [`find_inserts`] on `text`.
pub(crate) fn blank(text: &str, inserts: &[Insert]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for i in inserts {
        let r = i.range.clone();
        let Some(body) = text.get(r.clone()) else {
            continue;
        };
        if !blankable(body.as_bytes()) {
            continue;
        }
        out.push_str(&text[pos..r.start]);
        out.push_str("<!--");
        for c in body[4..body.len() - 3].chars() {
            if c == '\n' || c == '\r' {
                out.push(c);
            } else {
                out.extend(std::iter::repeat_n(FILLER, c.len_utf8()));
            }
        }
        out.push_str("-->");
        pos = r.end;
    }
    out.push_str(&text[pos..]);
    out
}

/// Whether `insert` can become a comment of the same length and line breaks: at least 7
/// bytes, no line break in the first 4 or the last 3 (always so for what [`find_inserts`]
/// finds, which starts with `<` and a name or `!--` and ends with `-->` or a tag's `>`).
fn blankable(insert: &[u8]) -> bool {
    insert.len() >= 7
        && !insert[..4]
            .iter()
            .chain(&insert[insert.len() - 3..])
            .any(|&b| b == b'\n' || b == b'\r')
}

/// Whether a comment's text is a blanked insert's (see [`blank`]).
pub(crate) fn is_blanked(comment: &str) -> bool {
    comment.contains(FILLER)
        && comment
            .chars()
            .all(|c| c == FILLER || c == '\n' || c == '\r')
}

fn toolbars(text: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let b = pos + memmem::find(text.get(pos..)?, BEGIN)?;
        let e = b + BEGIN.len() + memmem::find(&text[b + BEGIN.len()..], END)? + END.len();
        pos = e;
        Some(b..e)
    })
}

fn notices(text: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        loop {
            let at = pos + memmem::find(text.get(pos..)?, NOTICE)?;
            pos = at + NOTICE.len();
            let Some(open) = comment_opening_before(text, at) else {
                continue;
            };
            let Some(close) = memmem::find(&text[pos..], b"-->") else {
                // Unclosed: nothing after it can be closed either.
                return None;
            };
            let mut end = pos + close + 3;
            pos = end;
            // The timings comment right after it.
            let next = skip_ws(text, end);
            if text[next..].starts_with(b"<!--") {
                let inner = skip_ws(text, next + 4);
                if text[inner..].starts_with(TIMINGS)
                    && let Some(c) = memmem::find(&text[inner..], b"-->")
                {
                    end = inner + c + 3;
                    pos = end;
                }
            }
            return Some(open..end);
        }
    })
}

/// The `<!--` that opens a comment whose text starts (after whitespace) at `at`.
fn comment_opening_before(text: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i > 0 && text[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    let open = i.checked_sub(4)?;
    (&text[open..i] == b"<!--").then_some(open)
}

fn head_scripts(text: &[u8]) -> Option<Range<usize>> {
    let marker = memmem::find(text, HEAD_END)?;
    let end = marker + HEAD_END.len();
    let before = &text[..marker];
    let start = match last_head_tag(before) {
        Some(tag) => tag_end(before, tag)?,
        None => first_tag(before, &[b"script", b"link"])?,
    };
    // Whitespace and the page's own `<meta>` tags may come before the insert.
    let mut pos = start;
    loop {
        pos = skip_ws(before, pos);
        if is_tag_at(before, pos, b"meta") {
            pos = tag_end(before, pos)?;
        } else {
            break;
        }
    }
    let first = pos;
    // Then only replay elements and comments up to the marker.
    while pos < marker {
        pos = if is_tag_at(before, pos, b"script") {
            element_end(before, pos, b"script")?
        } else if is_tag_at(before, pos, b"style") {
            element_end(before, pos, b"style")?
        } else if is_tag_at(before, pos, b"link") {
            tag_end(before, pos)?
        } else if before[pos..].starts_with(b"<!--") {
            pos + 4 + memmem::find(&before[pos + 4..], b"-->")? + 3
        } else {
            return None;
        };
        pos = skip_ws(before, pos);
    }
    let insert = &text[first..marker];
    REPLAY_SIGNATURES
        .iter()
        .any(|s| memmem::find(insert, s.as_bytes()).is_some())
        .then_some(first..end)
}

fn skip_ws(text: &[u8], mut pos: usize) -> usize {
    while pos < text.len() && text[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// Whether a start tag named `name` (lower-case) begins at `pos`.
fn is_tag_at(text: &[u8], pos: usize, name: &[u8]) -> bool {
    text.get(pos) == Some(&b'<')
        && text
            .get(pos + 1..pos + 1 + name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
        && text
            .get(pos + 1 + name.len())
            .is_some_and(|&b| b.is_ascii_whitespace() || b == b'>' || b == b'/')
}

/// Where the last `<head>` start tag in `text` begins.
fn last_head_tag(text: &[u8]) -> Option<usize> {
    let mut end = text.len();
    while let Some(p) = memchr::memrchr(b'<', &text[..end]) {
        if is_tag_at(text, p, b"head") {
            return Some(p);
        }
        end = p;
    }
    None
}

/// Where the first start tag named one of `names` begins.
fn first_tag(text: &[u8], names: &[&[u8]]) -> Option<usize> {
    let mut pos = 0;
    while let Some(p) = memchr(b'<', &text[pos..]).map(|i| pos + i) {
        if names.iter().any(|n| is_tag_at(text, p, n)) {
            return Some(p);
        }
        pos = p + 1;
    }
    None
}

/// One past the `>` that closes the tag starting at `pos` (quoted attribute values may hold
/// `>`).
fn tag_end(text: &[u8], pos: usize) -> Option<usize> {
    let mut quote = None;
    for (i, &b) in text.iter().enumerate().skip(pos + 1) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return Some(i + 1),
            None => {}
        }
    }
    None
}

/// One past the end tag of the raw-text element (`script`, `style`) starting at `pos`.
fn element_end(text: &[u8], pos: usize, name: &[u8]) -> Option<usize> {
    let mut at = tag_end(text, pos)?;
    while let Some(p) = memmem::find(&text[at..], b"</").map(|i| at + i) {
        let after = p + 2 + name.len();
        if text
            .get(p + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && text
                .get(after)
                .is_some_and(|&b| b.is_ascii_whitespace() || b == b'>' || b == b'/')
        {
            return Some(p + memchr(b'>', &text[p..])? + 1);
        }
        at = p + 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "<script src=\"//archive.org/includes/athena.js\" type=\"text/javascript\"></script>\n\
        <script type=\"text/javascript\">window.addEventListener('DOMContentLoaded',function(){var v=archive_analytics.values;v.service='wb';});</script>\n\
        <script type=\"text/javascript\" src=\"/_static/js/bundle-playback.js?v=1\" charset=\"utf-8\"></script>\n\
        <script type=\"text/javascript\" src=\"/_static/js/wombat.js?v=1\" charset=\"utf-8\"></script>\n\
        <script>window.RufflePlayer=window.RufflePlayer||{};</script>\n\
        <script type=\"text/javascript\" src=\"/_static/js/ruffle.js\"></script>\n\
        <script type=\"text/javascript\">\n  __wm.init(\"https://web.archive.org/web\");\n</script>\n\
        <link rel=\"stylesheet\" type=\"text/css\" href=\"/_static/css/banner-styles.css?v=1\" />\n\
        <link rel=\"stylesheet\" type=\"text/css\" href=\"/_static/css/iconochive.css?v=1\" />\n\
        <!-- End Wayback Rewrite JS Include -->";

    fn kinds(text: &str) -> Vec<(InsertKind, &str)> {
        find_inserts(text.as_bytes())
            .into_iter()
            .map(|i| (i.kind, &text[i.range]))
            .collect()
    }

    #[test]
    fn head_scripts_from_the_head_tag_to_the_marker() {
        let page = format!("<html><HEAD profile=\"a>b\">{HEAD}\n<title>T</title></head></html>");
        assert_eq!(kinds(&page), [(InsertKind::HeadScripts, HEAD)]);
        // The page's own `<meta>` first stays; without a head tag the first script starts it.
        let page = format!("<html><head>\n<meta charset=utf-8>\n{HEAD}</head>");
        assert_eq!(kinds(&page), [(InsertKind::HeadScripts, HEAD)]);
        let page = format!("<!DOCTYPE html><html>{HEAD}<title>T</title>");
        assert_eq!(kinds(&page), [(InsertKind::HeadScripts, HEAD)]);
    }

    #[test]
    fn head_scripts_need_only_replay_elements_and_a_replay_name() {
        // The page's title between the head tag and the marker.
        let page = format!("<head><title>T</title>{HEAD}");
        assert!(kinds(&page).is_empty());
        // No replay code named.
        let page = "<head><script src=/a.js></script><!-- End Wayback Rewrite JS Include -->";
        assert!(kinds(page).is_empty());
        // An unclosed script.
        let page =
            "<head><script src=/_static/js/wombat.js><!-- End Wayback Rewrite JS Include -->";
        assert!(kinds(page).is_empty());
    }

    #[test]
    fn toolbars_pair_up_and_an_open_one_is_left() {
        let two = "<!-- BEGIN WAYBACK TOOLBAR INSERT -->x<!-- END WAYBACK TOOLBAR INSERT -->a\
                   <!-- BEGIN WAYBACK TOOLBAR INSERT -->y<!-- END WAYBACK TOOLBAR INSERT -->b";
        assert_eq!(&*strip_inserts(two.as_bytes()), b"ab");
        let open = "<p>a</p><!-- BEGIN WAYBACK TOOLBAR INSERT --><p>b</p>";
        assert!(matches!(strip_inserts(open.as_bytes()), Cow::Borrowed(_)));
        let end_only = "<p>a</p><!-- END WAYBACK TOOLBAR INSERT --><p>b</p>";
        assert!(find_inserts(end_only.as_bytes()).is_empty());
    }

    #[test]
    fn the_notice_and_its_timings() {
        let page = "</html>\n<!--\n     FILE ARCHIVED ON 22:03:55 Oct 08, 2017 AND RETRIEVED FROM THE\n     \
                    INTERNET ARCHIVE ON 14:55:15 May 07, 2020.\n-->\n<!--\nplayback timings (ms):\n  \
                    captures_list: 244.276\n-->\n";
        let found = kinds(page);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, InsertKind::Notice);
        assert!(found[0].1.starts_with("<!--\n     FILE") && found[0].1.ends_with("244.276\n-->"));
        // Not a comment, or not closed: left.
        assert!(kinds("<p>FILE ARCHIVED ON a day</p>").is_empty());
        assert!(kinds("<!-- FILE ARCHIVED ON a day").is_empty());
    }

    #[test]
    fn blanking_keeps_offsets_and_line_breaks() {
        let page = format!(
            "<html><head>{HEAD}\r\n<title>\u{e9}</title></head><body>\
            <!-- BEGIN WAYBACK TOOLBAR INSERT --><p>caf\u{e9} \u{1F600}\n</p><!-- END WAYBACK TOOLBAR INSERT --></body>"
        );
        let inserts = find_inserts(page.as_bytes());
        assert_eq!(inserts.len(), 2);
        let blanked = blank(&page, &inserts);
        assert_eq!(blanked.len(), page.len());
        assert_eq!(
            blanked
                .bytes()
                .filter(|&b| b == b'\n' || b == b'\r')
                .collect::<Vec<_>>(),
            page.bytes()
                .filter(|&b| b == b'\n' || b == b'\r')
                .collect::<Vec<_>>()
        );
        for i in &inserts {
            let c = &blanked[i.range.clone()];
            assert!(c.starts_with("<!--") && c.ends_with("-->"));
            assert!(is_blanked(&c[4..c.len() - 3]));
        }
        assert!(!is_blanked(" a comment "));
        assert!(!is_blanked("\n"));
    }
}

//! CleanEval-format gold text, and the two sets that use it: CleanEval 2007 and
//! CleanPortalEval.
//!
//! The format (`cleaneval/MANIFEST.md`, `cleanportaleval/MANIFEST.md`): an optional first
//! line `URL: <url>` (CleanPortalEval files start with one blank line before it), then the
//! cleaned text with block markers `<p>` (paragraph), `<h>` (heading) and `<l>` (list item)
//! opening blocks. In the real files markers are often indented and about 700 lines carry a
//! second marker mid-line (`<h>Title - <p>Text`), a handful are upper-case, and
//! CleanPortalEval annotators left HTML character references in the text (`&#8217;`,
//! `&rsquo;`, … in 64 of its 71 files).
//!
//! What we keep as gold text: the text without the URL line and without markers, character
//! references decoded (else every `&#8217;` would count as a word `8217` that no extractor
//! outputs), each block and each source line trimmed, blank lines dropped, lines joined with
//! `\n`. Word-level measures see exactly the annotators' words.

use std::path::Path;

use super::{DatasetError, GoldPage, host_of, read_text, require_file, stems_with_suffix};

/// A parsed CleanEval gold file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanEvalGold {
    /// The `URL:` line's value, if the file has one.
    pub url: Option<String>,
    /// The text without URL line and markers (see the module docs).
    pub text: String,
}

impl CleanEvalGold {
    /// Parses the text of a CleanEval gold file (already decoded).
    pub fn parse(raw: &str) -> Self {
        let raw = raw.strip_prefix('\u{feff}').unwrap_or(raw);
        let mut lines = raw.lines().peekable();
        while lines.next_if(|l| l.trim().is_empty()).is_some() {}
        let url = lines
            .next_if(|l| l.trim_start().starts_with("URL:"))
            .map(|l| l.trim_start()["URL:".len()..].trim().to_owned())
            .filter(|u| !u.is_empty());
        let mut out = String::new();
        for line in lines {
            for block in split_markers(line) {
                let block = decode_char_refs(block.trim());
                let block = block.trim();
                if !block.is_empty() {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(block);
                }
            }
        }
        CleanEvalGold { url, text: out }
    }
}

/// Splits a line at its block markers (`<p>`, `<h>`, `<l>`, any case), dropping them.
fn split_markers(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 3 <= bytes.len() {
        let is_marker = bytes[i] == b'<'
            && matches!(bytes[i + 1].to_ascii_lowercase(), b'p' | b'h' | b'l')
            && bytes[i + 2] == b'>';
        if is_marker {
            pieces.push(&line[start..i]);
            i += 3;
            start = i;
        } else {
            i += 1;
        }
    }
    pieces.push(&line[start..]);
    pieces
}

/// Decodes HTML character references: decimal and hexadecimal numeric ones (with the
/// Windows-1252 reading of 128–159 that browsers apply) and the named ones that occur in
/// the gold files plus the common typographic ones. Anything else is left as written.
fn decode_char_refs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let decoded = after
            .find(';')
            .filter(|&semi| semi > 0 && semi <= 10)
            .and_then(|semi| char_ref(&after[..semi]).map(|c| (c, semi)));
        match decoded {
            Some((c, semi)) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn char_ref(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        if let Ok(byte @ 0x80..=0x9f) = u8::try_from(code) {
            return encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&[byte])
                .0
                .chars()
                .next();
        }
        return char::from_u32(code).filter(|&c| c != '\0');
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "sbquo" => '‚',
        "bdquo" => '„',
        "laquo" => '«',
        "raquo" => '»',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "bull" => '•',
        "middot" => '·',
        "prime" => '′',
        "Prime" => '″',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "deg" => '°',
        "euro" => '€',
        "pound" => '£',
        "cent" => '¢',
        "sect" => '§',
        "para" => '¶',
        "times" => '×',
        "eacute" => 'é',
        "egrave" => 'è',
        "aacute" => 'á',
        "agrave" => 'à',
        "oacute" => 'ó',
        "uuml" => 'ü',
        "ouml" => 'ö',
        "auml" => 'ä',
        "ccedil" => 'ç',
        "ntilde" => 'ñ',
        _ => return None,
    })
}

/// Which CleanEval 2007 part to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CleanEvalSplit {
    /// `cleaneval-dev`: 58 pages, all with gold.
    Dev,
    /// `cleaneval-final`: 740 inputs, 681 with gold.
    Final,
    /// Both, dev first.
    #[default]
    Both,
}

/// Reads CleanEval 2007 from `dir` (the folder holding `cleaneval-dev/` and
/// `cleaneval-final/`, each with `input/<n>.html.gz` and `GoldStandard/<n>.txt`).
///
/// A page is a gold file: inputs without gold (59 in the final set) are skipped, since
/// there is nothing to score them against; a gold file without its input is an error. Ids
/// are `dev-<n>` / `final-<n>`, the split is `dev` / `final`, the URL is the `URL:` line and
/// the site its host (every page is from a different site).
pub fn cleaneval(dir: &Path, split: CleanEvalSplit) -> Result<Vec<GoldPage>, DatasetError> {
    let parts: &[&str] = match split {
        CleanEvalSplit::Dev => &["dev"],
        CleanEvalSplit::Final => &["final"],
        CleanEvalSplit::Both => &["dev", "final"],
    };
    let mut pages = Vec::new();
    for part in parts {
        let part_dir = dir.join(format!("cleaneval-{part}"));
        let gold_dir = part_dir.join("GoldStandard");
        let input_dir = part_dir.join("input");
        for stem in stems_with_suffix("CleanEval gold folder", &gold_dir, ".txt")? {
            let html_path = input_dir.join(format!("{stem}.html.gz"));
            require_file("CleanEval page HTML", &html_path)?;
            let gold = CleanEvalGold::parse(&read_text(
                "CleanEval gold text",
                &gold_dir.join(format!("{stem}.txt")),
            )?);
            pages.push(GoldPage {
                id: format!("{part}-{stem}"),
                html_path,
                gold_text: gold.text,
                site: gold.url.as_deref().and_then(host_of),
                url: gold.url,
                split: Some((*part).to_owned()),
                kind: None,
            });
        }
    }
    Ok(pages)
}

/// How CleanPortalEval's two Washington Post blogs are grouped into sites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PortalGrouping {
    /// `washingtonpost.com_blog1` and `_blog2` are one site, `washingtonpost.com_blog`
    /// (4 sites). Blog2 has only two pages, too few for site-level methods on its own.
    #[default]
    MergeWashingtonPost,
    /// Each blog is its own site (5 sites).
    SeparateBlogs,
}

/// The portal of a CleanPortalEval file stem: the stem without its trailing `_<number>`,
/// and, when merging, without the blog number either.
fn portal_of(stem: &str, grouping: PortalGrouping) -> &str {
    let portal = match stem.rsplit_once('_') {
        Some((portal, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => portal,
        _ => stem,
    };
    match grouping {
        PortalGrouping::SeparateBlogs => portal,
        PortalGrouping::MergeWashingtonPost => {
            portal.trim_end_matches(|c: char| c.is_ascii_digit())
        }
    }
}

/// Reads CleanPortalEval from `dir` (the folder holding `input/<portal>_<n>.html.gz` and
/// `GoldStandard/<portal>_<n>.txt`).
///
/// Every input page must have its gold file. Ids are the file stems; the site is the
/// portal (`bbc.co.uk_news`, `blogs.wsj.com_brussels`, `tv.msnbc.com_news`, and the
/// Washington Post blogs grouped as `grouping` says); the URL is the `URL:` line.
pub fn cleanportaleval(
    dir: &Path,
    grouping: PortalGrouping,
) -> Result<Vec<GoldPage>, DatasetError> {
    let input_dir = dir.join("input");
    let gold_dir = dir.join("GoldStandard");
    let mut pages = Vec::new();
    for stem in stems_with_suffix("CleanPortalEval input folder", &input_dir, ".html.gz")? {
        let gold_path = gold_dir.join(format!("{stem}.txt"));
        require_file("CleanPortalEval gold text", &gold_path)?;
        let gold = CleanEvalGold::parse(&read_text("CleanPortalEval gold text", &gold_path)?);
        pages.push(GoldPage {
            site: Some(portal_of(&stem, grouping).to_owned()),
            html_path: input_dir.join(format!("{stem}.html.gz")),
            id: stem,
            gold_text: gold.text,
            url: gold.url,
            split: None,
            kind: None,
        });
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_url_markers_and_references() {
        let raw = "\nURL: http://example.com/a\n<h>A Title\n \n<p>First line of\n a paragraph \
                   isn&#039;t &rsquo;odd&rsquo; &amp; fine &#x2014; ok &#146;\n   <l>item one - \
                   <p>inline para\n<P>upper\n&bogus; & alone &#0;\n";
        let gold = CleanEvalGold::parse(raw);
        assert_eq!(gold.url.as_deref(), Some("http://example.com/a"));
        assert_eq!(
            gold.text,
            "A Title\nFirst line of\na paragraph isn't ’odd’ & fine — ok ’\nitem one -\n\
             inline para\nupper\n&bogus; & alone &#0;"
        );
    }

    #[test]
    fn url_line_is_optional() {
        let gold = CleanEvalGold::parse("\u{feff}   \n<h>  Heading\n<p>Body text");
        assert_eq!(gold.url, None);
        assert_eq!(gold.text, "Heading\nBody text");
        // A URL line later in the file is text, not metadata.
        let gold = CleanEvalGold::parse("<p>x\nURL: http://a.b/");
        assert_eq!(
            (gold.url, gold.text.as_str()),
            (None, "x\nURL: http://a.b/")
        );
        assert_eq!(CleanEvalGold::parse("URL: \n").url, None);
    }

    #[test]
    fn other_angle_brackets_are_text() {
        let gold = CleanEvalGold::parse("<p>a <b> c <CR> <pre> x<p");
        assert_eq!(gold.text, "a <b> c <CR> <pre> x<p");
    }

    #[test]
    fn portals_merge_or_split_the_washington_post_blogs() {
        use PortalGrouping::*;
        assert_eq!(
            portal_of("bbc.co.uk_news_01", MergeWashingtonPost),
            "bbc.co.uk_news"
        );
        assert_eq!(
            portal_of("washingtonpost.com_blog1_12", SeparateBlogs),
            "washingtonpost.com_blog1"
        );
        assert_eq!(
            portal_of("washingtonpost.com_blog2_1", SeparateBlogs),
            "washingtonpost.com_blog2"
        );
        assert_eq!(
            portal_of("washingtonpost.com_blog1_12", MergeWashingtonPost),
            "washingtonpost.com_blog"
        );
        assert_eq!(
            portal_of("washingtonpost.com_blog2_1", MergeWashingtonPost),
            "washingtonpost.com_blog"
        );
        assert_eq!(
            portal_of("tv.msnbc.com_news_30", SeparateBlogs),
            "tv.msnbc.com_news"
        );
        assert_eq!(portal_of("nonumber", SeparateBlogs), "nonumber");
    }
}

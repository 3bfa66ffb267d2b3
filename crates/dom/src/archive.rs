//! What web archives inject into the pages they replay.
//!
//! The Wayback Machine serves a captured page with its own toolbar inside the body, between
//! `<!-- BEGIN WAYBACK TOOLBAR INSERT -->` and `<!-- END WAYBACK TOOLBAR INSERT -->`. Its
//! text (the capture calendar, "success", "fail", "About this capture") is not the page's;
//! one extractor returns it as the article. [`strip_inserts`] cuts it out before parsing.
//! The scripts and styles the archive adds to the head and the comment it appends carry no
//! visible text and are left alone. A BEGIN marker without its END marker is left alone too:
//! cutting to the end of the page could lose the page.

use std::borrow::Cow;

use memchr::memmem;

const BEGIN: &[u8] = b"<!-- BEGIN WAYBACK TOOLBAR INSERT -->";
const END: &[u8] = b"<!-- END WAYBACK TOOLBAR INSERT -->";

/// The page without the archive toolbars it holds (every BEGIN…END pair, markers included);
/// borrowed unchanged when it holds none. The markers are ASCII, so this works on the bytes of
/// any ASCII-compatible encoding; linear in the page's size.
pub fn strip_inserts(bytes: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = memmem::find(bytes, BEGIN) else {
        return Cow::Borrowed(bytes);
    };
    let mut out = Vec::with_capacity(bytes.len());
    let mut pos = 0;
    let mut begin = Some(first);
    while let Some(b) = begin {
        let Some(e) = memmem::find(&bytes[b + BEGIN.len()..], END) else {
            break;
        };
        out.extend_from_slice(&bytes[pos..b]);
        pos = b + BEGIN.len() + e + END.len();
        begin = memmem::find(&bytes[pos..], BEGIN).map(|i| pos + i);
    }
    if pos == 0 {
        return Cow::Borrowed(bytes);
    }
    out.extend_from_slice(&bytes[pos..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn captured(article: &str) -> String {
        format!(
            "<html><head><script src=\"//archive.org/includes/athena.js\"></script>\
             <!-- End Wayback Rewrite JS Include --><title>A</title></head><body>\
             <!-- BEGIN WAYBACK TOOLBAR INSERT --><div id=wm-ipp><a href=#>Go</a> \
             <span>26 captures</span> 12 Jan 2004 - 3 Mar 2020 About this capture</div>\
             <!-- END WAYBACK TOOLBAR INSERT --><article>{article}</article></body></html>\
             <!-- FILE ARCHIVED ON 10:00:00 Jan 01, 2020 AND RETRIEVED FROM THE AN ... -->"
        )
    }

    #[test]
    fn the_toolbar_goes_and_the_page_stays() {
        let page = captured("<p>What the page says.</p>");
        let stripped = strip_inserts(page.as_bytes());
        let doc = crate::parse(&stripped).unwrap();
        let view = crate::TextView::new(&doc);
        assert_eq!(view.text().trim(), "What the page says.");
        assert!(!view.text().contains("captures"));
    }

    #[test]
    fn pages_without_a_whole_insert_are_untouched() {
        let plain = "<p>No archive here.</p>";
        assert!(matches!(strip_inserts(plain.as_bytes()), Cow::Borrowed(_)));
        let open = "<p>a</p><!-- BEGIN WAYBACK TOOLBAR INSERT --><p>b</p>";
        assert_eq!(&*strip_inserts(open.as_bytes()), open.as_bytes());
        let two = "<!-- BEGIN WAYBACK TOOLBAR INSERT -->x<!-- END WAYBACK TOOLBAR INSERT -->a\
                   <!-- BEGIN WAYBACK TOOLBAR INSERT -->y<!-- END WAYBACK TOOLBAR INSERT -->b";
        assert_eq!(&*strip_inserts(two.as_bytes()), b"ab");
    }
}

//! Sets whose gold labels sit on the page itself, per text block: L3S-GN1 (`<span
//! class="x-nc-selN">` around every text block) and KrdWrd CANOLA (`class="krdwrd-tag-N"` on
//! every text-bearing node). They measure template detection in the terms of Chakrabarti et
//! al. (words and links that lie in template regions).
//!
//! A method must not see the labels: [`BlockPage::unlabelled_html`] removes what the
//! annotation added and nothing else, and [`BlockPage::text_gold`] reads the gold of every text
//! node of the labelled page. For L3S-GN1 that is the label classes (the spans stay: the
//! stripped page parses to the same tree). KrdWrd wrapped every text node of the original page
//! in a `<kw>` element to carry its tag; those wrappers go, so the stripped page has the
//! original's markup but the same visible text, and a word's gold is found at its offset in
//! the labelled page's visible text.

use std::fs;
use std::path::{Path, PathBuf};

use chaff_dom::{Document, NodeId};

use super::{DatasetError, read_maybe_gz};

/// Which labelling a page carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockScheme {
    /// L3S-GN1: 0 not content, 1 headline, 2 full text, 3 supplemental, 4 related content,
    /// 5 user comments; text outside any labelled block is not content.
    L3s,
    /// CANOLA: 1 bad (boilerplate), 2 uncertain, 3 good (content); the merge may append the
    /// annotators' agreement (`krdwrd-tag-1-90`); other tags (`undefined`, 7) are not scored.
    Canola,
}

/// The gold class of a text node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockGold {
    /// Template (boilerplate).
    Template,
    /// Content.
    Content,
    /// User comments (L3S class 5): scored both ways.
    Comments,
    /// Not scored (CANOLA's uncertain).
    Unscored,
}

/// One labelled page.
#[derive(Clone, Debug)]
pub struct BlockPage {
    /// File stem.
    pub id: String,
    /// The labelled HTML (gzipped).
    pub html_path: PathBuf,
    /// Its URL, when the set lists it.
    pub url: Option<String>,
    /// Its labelling.
    pub scheme: BlockScheme,
}

fn label_of(scheme: BlockScheme, class: &str) -> Option<u8> {
    let prefix = match scheme {
        BlockScheme::L3s => "x-nc-sel",
        BlockScheme::Canola => "krdwrd-tag-",
    };
    class.split_ascii_whitespace().find_map(|c| {
        // CANOLA's merge also writes the annotators' agreement after the tag
        // (`krdwrd-tag-1-90`: tag 1, 90% of the votes).
        let tag = c.strip_prefix(prefix)?;
        tag.split('-').next()?.parse::<u8>().ok()
    })
}

impl BlockPage {
    /// The page with its labels removed: L3S-GN1's label classes, CANOLA's `<kw>` wrappers
    /// (with their classes). Visible text does not change.
    pub fn unlabelled_html(&self, html: &str) -> String {
        let re = match self.scheme {
            BlockScheme::L3s => "x-nc-sel[0-9]",
            BlockScheme::Canola => "</?kw(?:\\s[^>]*)?>",
        };
        match regex::Regex::new(re) {
            Ok(re) => re.replace_all(html, "").into_owned(),
            Err(_) => html.to_string(),
        }
    }

    /// The gold of every text node of the labelled document (by node id; `None` for other
    /// nodes), from the closest labelled ancestor.
    pub fn text_gold(&self, doc: &Document) -> Vec<Option<BlockGold>> {
        // Closest label, top-down.
        let mut label: Vec<Option<u8>> = vec![None; doc.len()];
        for id in doc.ids() {
            let inherited = doc.parent(id).and_then(|p| label[p.index()]);
            let own = if doc.is_element(id) {
                doc.attr(id, "class").and_then(|c| label_of(self.scheme, c))
            } else {
                None
            };
            label[id.index()] = own.or(inherited);
        }
        doc.ids()
            .map(|id: NodeId| {
                if !doc.is_text(id) {
                    return None;
                }
                Some(match (self.scheme, label[id.index()]) {
                    (BlockScheme::L3s, None | Some(0) | Some(4)) => BlockGold::Template,
                    (BlockScheme::L3s, Some(5)) => BlockGold::Comments,
                    (BlockScheme::L3s, Some(_)) => BlockGold::Content,
                    (BlockScheme::Canola, Some(1)) => BlockGold::Template,
                    (BlockScheme::Canola, Some(3)) => BlockGold::Content,
                    (BlockScheme::Canola, _) => BlockGold::Unscored,
                })
            })
            .collect()
    }
}

fn read_url_map(path: &Path, l3s: bool) -> std::collections::HashMap<String, String> {
    let mut map = std::collections::HashMap::new();
    let Ok(bytes) = read_maybe_gz(path) else {
        return map;
    };
    for line in String::from_utf8_lossy(&bytes).lines() {
        let mut parts = line.split_whitespace();
        if let (Some(k), Some(v)) = (parts.next(), parts.next()) {
            let key = if l3s {
                k.trim_start_matches("<urn:uuid:").trim_end_matches('>')
            } else {
                k
            };
            map.insert(key.to_string(), v.to_string());
        }
    }
    map
}

fn pages_in(
    dir: &Path,
    what: &'static str,
    scheme: BlockScheme,
    urls: &std::collections::HashMap<String, String>,
) -> Result<Vec<BlockPage>, DatasetError> {
    let entries = fs::read_dir(dir).map_err(|e| DatasetError::io(what, dir, e))?;
    let mut pages = Vec::new();
    for e in entries {
        let e = e.map_err(|e| DatasetError::io(what, dir, e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(id) = name.strip_suffix(".html.gz") {
            pages.push(BlockPage {
                id: id.to_string(),
                html_path: e.path(),
                url: urls.get(id).cloned(),
                scheme,
            });
        }
    }
    if pages.is_empty() {
        return Err(DatasetError::Missing {
            what,
            path: dir.to_path_buf(),
        });
    }
    pages.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(pages)
}

/// The L3S-GN1 pages (`annotated/`), with URLs from `url-mapping.txt`.
pub fn l3s_gn1(dir: &Path) -> Result<Vec<BlockPage>, DatasetError> {
    let urls = read_url_map(&dir.join("url-mapping.txt"), true);
    pages_in(
        &dir.join("annotated"),
        "L3S-GN1 annotated pages",
        BlockScheme::L3s,
        &urls,
    )
}

/// The CANOLA pages (`merged/`), with URLs from `urls.txt`.
pub fn canola(dir: &Path) -> Result<Vec<BlockPage>, DatasetError> {
    let urls = read_url_map(&dir.join("urls.txt"), false);
    pages_in(
        &dir.join("merged"),
        "CANOLA merged pages",
        BlockScheme::Canola,
        &urls,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(scheme: BlockScheme) -> BlockPage {
        BlockPage {
            id: "x".into(),
            html_path: PathBuf::new(),
            url: None,
            scheme,
        }
    }

    #[test]
    fn l3s_labels_are_read_and_stripped_without_changing_the_tree() {
        let html = "<body><div><span class=\"x-nc-sel0\">Home</span></div>\
            <p><span class=\"x-nc-sel2\">Story <b>text</b></span></p>\
            <span class=\"x-nc-sel5\">nice post</span>loose</body>";
        let p = page(BlockScheme::L3s);
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let stripped = p.unlabelled_html(html);
        assert!(!stripped.contains("x-nc-sel"));
        let doc2 = chaff_dom::parse(stripped.as_bytes()).unwrap();
        assert_eq!(doc.len(), doc2.len());
        let gold = p.text_gold(&doc);
        let of = |t: &str| {
            let id = doc
                .ids()
                .find(|&i| doc.is_text(i) && doc.text(i) == t)
                .unwrap();
            gold[id.index()]
        };
        assert_eq!(of("Home"), Some(BlockGold::Template));
        assert_eq!(of("text"), Some(BlockGold::Content));
        assert_eq!(of("nice post"), Some(BlockGold::Comments));
        assert_eq!(of("loose"), Some(BlockGold::Template));
    }

    #[test]
    fn canola_uncertain_is_not_scored() {
        let html = "<body><kw class=\"krdwrd-tag-1\">a</kw><kw class=\"x krdwrd-tag-2\">b</kw>\
            <kw class=\"krdwrd-tag-3\">c</kw><kw class=\"krdwrd-tag-1-90\">d</kw>\
            <kw class=\"krdwrd-tag-undefined\">e</kw><kw class=\"krdwrd-tag-7\">f</kw></body>";
        let p = page(BlockScheme::Canola);
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let gold: Vec<BlockGold> = p.text_gold(&doc).into_iter().flatten().collect();
        assert_eq!(
            gold,
            vec![
                BlockGold::Template,
                BlockGold::Unscored,
                BlockGold::Content,
                BlockGold::Template,
                BlockGold::Unscored,
                BlockGold::Unscored
            ]
        );
    }

    #[test]
    fn canola_wrappers_go_and_the_visible_text_stays() {
        let html = "<body><p><kw class=\"krdwrd-tag-3\">Some</kw><sup> </sup>\
            <kw class=\"krdwrd-tag-3\">prose.</kw></p><ul><li><a href=\"/\">\
            <kw class=\"krdwrd-tag-1\">Home</kw></a></li></ul><kwa>kept</kwa></body>";
        let p = page(BlockScheme::Canola);
        let stripped = p.unlabelled_html(html);
        assert_eq!(
            stripped,
            "<body><p>Some<sup> </sup>prose.</p><ul><li><a href=\"/\">Home</a></li></ul>\
            <kwa>kept</kwa></body>"
        );
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let doc2 = chaff_dom::parse(stripped.as_bytes()).unwrap();
        assert_eq!(
            chaff_dom::TextView::new(&doc).text(),
            chaff_dom::TextView::new(&doc2).text()
        );
        assert!(doc2.ids().all(|id| !doc2.is_tag(id, "kw")));
    }
}

//! The wrapper FOREST learns and how it labels a page.
//!
//! A [`ForestModel`] is the top-ranked structural pattern written as an XPath over the page
//! as parsed (no `dfs` attributes are added to pages):
//!
//! * an element type with attributes becomes `/*/*/div[@class='story']`: one `/*` step per
//!   level above the element, so the level of the pattern is part of the expression, and each
//!   attribute compared in its tolerant form — `@a='v'` when every sample page had exactly the
//!   value `v`, otherwise `translate(substring-before(concat(normalize-space(@a),' '),' '),
//!   '0123456789','')='v'` (first token, ASCII digits removed), so that "post wrapper-09" on a
//!   new page still matches `post`. [`ForestModel::relaxed_xpath`] is the same test at any
//!   level (`//div[...]`), used on pages where the levelled expression selects nothing;
//! * an element type without attributes is identified by its `dfs` index; a page without
//!   `dfs` attributes cannot be queried by it, so the wrapper is the union of the positional
//!   paths (`/html[1]/body[1]/div[2]/p[3]`) of the pattern's elements on the sample pages.
//!
//! The `dfs` alternatives are kept in [`ForestModel::dfs`]: where the XPath selects several
//! elements of a page, those at one of the sample pages' `dfs` indices are kept when there
//! are any (the paper's `(@dfs='78' or @dfs='82')` clause), all of them otherwise, so a new
//! page whose layout shifted still gets its match. On the synthetic table-layout sites the
//! generic `td[@valign='top']` matches three cells of every page; the `dfs` clause keeps the
//! article's.
//!
//! [`ForestModel::css`] is an equivalent CSS selector when one exists (exact attribute values,
//! or positional paths), and [`ForestModel::paper_xpath`] writes the pattern in the paper's
//! notation, with its `dfs` alternatives, for people comparing with the paper.
//!
//! Labelling: every node outside the selected subtrees is template, except the ancestors of
//! selected nodes (they hold the content; their own other children are template). When the
//! wrapper selects several nodes all are kept, in document order. When it selects nothing,
//! [`labels_for_selection`] makes everything template, as the paper's extraction gives
//! nothing there, but [`crate::ForestMethod`] abstains on such a page instead: a wrapper that
//! matches nothing is no evidence that the page has no content, and must not delete it on its
//! own (whoever fuses the methods decides). (Before the method seam such pages were labelled
//! all template: leaving them whole instead had scored 0.891 against 0.9xx 4-gram F1 on
//! CleanPortalEval, whose index pages without an article have empty gold texts.)

use chaff_core::{Labels, Role};
use chaff_dom::{Document, NodeId, XPath};
use serde::{Deserialize, Serialize};

use crate::ForestError;

/// How structural patterns were ranked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ranking {
    /// FOREST: informativeness `J × U` (eq. 4–5).
    #[default]
    Informativeness,
    /// Jeffreys' density `J` alone (the paper's Figure 7).
    Density,
    /// Unexpectedness `U` alone (the paper's Figure 7).
    Unexpectedness,
    /// The COVERAGE baseline (eq. 6–7).
    Coverage,
}

/// Where the signifiers came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignifierSource {
    /// The top-k tf-idf terms of each page.
    #[default]
    TfIdf,
    /// Web-feed items (tf-idf for pages no item links to).
    Feeds,
}

/// A learned FOREST wrapper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForestModel {
    /// The generic XPath of the main content.
    pub xpath: String,
    /// The same element test at any level, tried when `xpath` selects nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxed_xpath: Option<String>,
    /// An equivalent CSS selector, where one exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub css: Option<String>,
    /// The pattern in the paper's notation, with its `dfs` alternatives.
    pub paper_xpath: String,
    /// The pattern's level (`html` is 0, `body` 1).
    pub level: u32,
    /// The `dfs` indices of the wrapper's elements on the sample pages (of every united
    /// pattern), sorted: where the XPath selects several elements of a page, those at one of
    /// these indices are kept (when there are any), as the paper's `@dfs` alternatives do.
    pub dfs: Vec<u32>,
    /// On how many sample pages the pattern occurs.
    pub pages: u32,
    /// Its relevance.
    pub relevance: f64,
    /// How many patterns the wrapper unites (more than one for sites with several
    /// templates).
    #[serde(default = "one")]
    pub templates: u32,
    /// How patterns were ranked.
    pub ranking: Ranking,
    /// Where signifiers came from.
    pub signifiers: SignifierSource,
}

fn one() -> u32 {
    1
}

/// A model with its expressions parsed, ready to label many pages.
#[derive(Clone, Debug)]
pub struct CompiledForest {
    xpath: XPath,
    relaxed: Option<XPath>,
    dfs: Vec<u32>,
}

/// The longest wrapper XPath a model may hold, in bytes (16 KiB). A model can come from an
/// untrusted profile; learned wrappers are a few hundred bytes. Nesting is capped by the
/// parser ([`chaff_dom::xpath::MAX_DEPTH`], 100 levels) and evaluation by its work budget.
pub const MAX_XPATH_BYTES: usize = 16 << 10;

/// Parses a wrapper of at most [`MAX_XPATH_BYTES`].
fn parse_wrapper(expr: &str) -> Result<XPath, ForestError> {
    if expr.len() > MAX_XPATH_BYTES {
        return Err(ForestError::XPathTooLong { bytes: expr.len() });
    }
    Ok(XPath::parse(expr)?)
}

impl ForestModel {
    /// Parses the model's expressions (each at most [`MAX_XPATH_BYTES`], nested at most
    /// [`chaff_dom::xpath::MAX_DEPTH`] deep).
    pub fn compile(&self) -> Result<CompiledForest, ForestError> {
        Ok(CompiledForest {
            xpath: parse_wrapper(&self.xpath)?,
            relaxed: self
                .relaxed_xpath
                .as_deref()
                .map(parse_wrapper)
                .transpose()?,
            dfs: {
                let mut d = self.dfs.clone();
                d.sort_unstable();
                d
            },
        })
    }
}

impl CompiledForest {
    /// The elements holding the main content, in document order (none when the wrapper's
    /// evaluation goes over its work budget: [`CompiledForest::try_select`] tells).
    pub fn select(&self, doc: &Document) -> Vec<NodeId> {
        self.try_select(doc).unwrap_or_default()
    }

    /// [`CompiledForest::select`], or the error of a wrapper whose evaluation went over its
    /// work budget (a hostile expression in a profile; see [`chaff_dom::work_budget`]).
    pub fn try_select(&self, doc: &Document) -> Result<Vec<NodeId>, chaff_dom::XPathBudgetError> {
        let mut found = self.xpath.try_select(doc)?;
        if found.is_empty()
            && let Some(relaxed) = &self.relaxed
        {
            found = relaxed.try_select(doc)?;
        }
        found.retain(|&n| doc.is_element(n));
        if found.len() > 1 && !self.dfs.is_empty() {
            let (dfs, _) = crate::page::dfs_and_levels(doc);
            let at_seen = |n: &NodeId| {
                dfs.get(n.index())
                    .is_some_and(|d| self.dfs.binary_search(d).is_ok())
            };
            if found.iter().any(at_seen) {
                found.retain(at_seen);
            }
        }
        Ok(found)
    }
}

/// Labels keeping the subtrees of `selected` (and their ancestors) and removing the rest;
/// all template when nothing is selected.
pub fn labels_for_selection(doc: &Document, selected: &[NodeId]) -> Labels {
    let n = doc.len();
    let mut keep = vec![false; n];
    for &s in selected {
        if s.index() >= n || keep[s.index()] {
            continue;
        }
        for d in doc.subtree(s) {
            keep[d.index()] = true;
        }
        for a in doc.ancestors(s) {
            if keep[a.index()] {
                break;
            }
            keep[a.index()] = true;
        }
    }
    let role = keep
        .iter()
        .map(|&k| if k { Role::Content } else { Role::Template })
        .collect();
    let score = keep.iter().map(|&k| if k { 0.0 } else { 1.0 }).collect();
    Labels::from_parts(score, role)
}

/// Whether a name can be written as is in an XPath name test (an XML NCName, ASCII part).
pub(crate) fn is_xpath_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// An XPath 1.0 string literal for any string (`concat` when it holds both quote kinds).
pub(crate) fn xpath_literal(s: &str) -> String {
    if !s.contains('\'') {
        format!("'{s}'")
    } else if !s.contains('"') {
        format!("\"{s}\"")
    } else {
        let parts: Vec<String> = s.split('\'').map(|p| format!("'{p}'")).collect();
        format!("concat({})", parts.join(", \"'\", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaff_dom::TextView;

    fn model(xpath: &str, relaxed: Option<&str>) -> ForestModel {
        ForestModel {
            xpath: xpath.into(),
            relaxed_xpath: relaxed.map(Into::into),
            css: None,
            paper_xpath: String::new(),
            level: 0,
            dfs: vec![],
            pages: 1,
            relevance: 1.0,
            templates: 1,
            ranking: Ranking::Informativeness,
            signifiers: SignifierSource::TfIdf,
        }
    }

    #[test]
    fn everything_outside_the_selection_is_template() {
        use crate::ForestMethod;
        use chaff_core::{Method, PageInput, Verdict};
        let doc = chaff_dom::parse(
            b"<body><nav>menu</nav><div class=a>x<div class=story><p>text</p></div></div></body>",
        )
        .unwrap();
        let view = TextView::new(&doc);
        let input = PageInput {
            doc: &doc,
            view: &view,
            source: None,
            url: None,
        };
        let method = ForestMethod::default();
        let apply = |m: ForestModel| method.evidence(&method.compile(Some(m)).unwrap(), &input);
        let labels = |v: Verdict| v.evidence().unwrap().labels().clone();
        let l = labels(apply(model("//div[@class='story']", None)));
        assert_eq!(chaff_extract_text(&view, &l), "text");
        // No match: the relaxed expression.
        let relaxed = model("/*/*/div[@class='story']", Some("//div[@class='story']"));
        assert_eq!(chaff_extract_text(&view, &labels(apply(relaxed))), "text");
        // Nothing selected: no opinion, not "all template".
        let none = apply(model("//article", None));
        assert!(none.abstained().unwrap().contains("matches nothing"));
        // A wrapper that does not parse is an error, not "keep everything".
        let err = method.compile(Some(model("//p[", None))).unwrap_err();
        assert!(err.to_string().contains("//p["), "{err}");
    }

    #[test]
    fn several_matches_are_all_kept() {
        let doc = chaff_dom::parse(b"<body><p>a</p><span>b</span><p>c</p></body>").unwrap();
        let view = TextView::new(&doc);
        let labels = labels_for_selection(&doc, &XPath::parse("//p").unwrap().select(&doc));
        assert_eq!(chaff_extract_text(&view, &labels), "a c");
    }

    fn chaff_extract_text(view: &TextView, labels: &Labels) -> String {
        view.segments()
            .iter()
            .filter(|s| !labels.is_removed(s.node))
            .map(|s| view.text()[s.range()].trim())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn literals_quote_anything() {
        assert_eq!(xpath_literal("a"), "'a'");
        assert_eq!(xpath_literal("it's"), "\"it's\"");
        let both = xpath_literal("a'b\"c");
        let doc = chaff_dom::parse(b"<p title='a&#39;b&quot;c'>x</p>").unwrap();
        let xp = XPath::parse(&format!("//p[@title={both}]")).unwrap();
        assert_eq!(xp.select(&doc).len(), 1);
        assert!(is_xpath_name("data-x_1"));
        assert!(!is_xpath_name("v-on:click") && !is_xpath_name("@x") && !is_xpath_name(""));
    }
}

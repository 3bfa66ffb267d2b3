//! What the inspector and `/v1/segment` show of an extraction: every node's fused role and
//! score with each method's say about it, and what a site's profile holds (the suffix
//! method's expressions and document-frequency histogram with its cutoff, FOREST's XPath).

use std::collections::BTreeMap;

use chaff::dom::{Locator, NodeKind};
use chaff::methods::forest::ForestModel;
use chaff::methods::suffix::SuffixModel;
use chaff::{Extraction, Meaning, Profile, Role, Scope, Verdict};
use serde::Serialize;
use utoipa::ToSchema;

/// Elements given a unique selector at most (each costs a pass over the page).
const MAX_SELECTORS: usize = 3000;

/// One method's say about one node.
#[derive(Debug, Serialize, ToSchema)]
pub struct NodeEvidence {
    /// The method's score for the node, in `[0, 1]`, higher meaning more template-like.
    pub score: f32,
    /// The role the method proposes.
    pub role: &'static str,
}

/// A node of the page with its labels.
#[derive(Debug, Serialize, ToSchema)]
pub struct Node {
    /// The node's id (pre-order); the inspector's page carries it as `data-chaff-id`.
    pub id: u32,
    /// Its parent's id.
    pub parent: Option<u32>,
    /// Its tag, or `#text`.
    pub tag: String,
    /// The fused role: `content`, `template` or `menu`.
    pub role: &'static str,
    /// The fused score.
    pub score: f32,
    /// A CSS selector that finds the element alone (elements only, on pages of at most a
    /// few thousand elements).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// A text node's visible text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Character ranges of a text node removed as template although the node stays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<Vec<[u32; 2]>>,
    /// Each method's say about the node, by method name (methods that cover it only).
    pub evidence: BTreeMap<String, NodeEvidence>,
}

/// One method's verdict on the page.
#[derive(Debug, Serialize, ToSchema)]
pub struct MethodSay {
    /// The method's name.
    pub method: String,
    /// `site` or `page`.
    pub scope: &'static str,
    /// What its scores measure: `probability`, `share` or `membership` (absent when it
    /// abstained).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<&'static str>,
    /// How many nodes its evidence covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covered: Option<usize>,
    /// Why it said nothing, when it abstained.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abstained: Option<String>,
    /// The site methods a page-level model weighed, when it did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub informed_by: Vec<&'static str>,
}

/// A page's segmentation: every node's labels and each method's say.
#[derive(Debug, Serialize, ToSchema)]
pub struct Segmentation {
    /// The page's site key.
    pub site: String,
    /// The site whose profile was applied, if one was.
    pub profile: Option<String>,
    /// How sure the decision is, in `[0, 1]`.
    pub confidence: f32,
    /// Why the page has no main content, when it has none: `empty`, `script-only`,
    /// `all-template`.
    pub no_content: Option<&'static str>,
    /// Each method's verdict.
    pub methods: Vec<MethodSay>,
    /// Every element and visible text node, in document order.
    pub nodes: Vec<Node>,
}

pub(crate) fn role_name(r: Role) -> &'static str {
    match r {
        Role::Content => "content",
        Role::Template => "template",
        Role::Menu => "menu",
        Role::Comment => "comment",
    }
}

fn meaning_name(m: Meaning) -> &'static str {
    match m {
        Meaning::Probability => "probability",
        Meaning::Share => "share",
        Meaning::Membership => "membership",
    }
}

fn round(x: f32) -> f32 {
    (x * 1000.0).round() / 1000.0
}

/// The segmentation of an extracted page.
pub(crate) fn segmentation(ex: &Extraction) -> Segmentation {
    let doc = ex.document();
    let view = ex.view();
    let labels = ex.labels();
    let elements = doc.ids().filter(|&n| doc.is_element(n)).count();
    let locator = (elements <= MAX_SELECTORS).then(|| Locator::new(doc));
    let said: Vec<(&str, &chaff::Evidence)> = ex
        .evidence()
        .iter()
        .filter_map(|v| Some((v.method.as_str(), v.verdict.evidence()?)))
        .collect();
    let mut nodes = Vec::new();
    for id in doc.ids() {
        let (tag, text) = match doc.kind(id) {
            NodeKind::Element => (doc.tag(id).to_string(), None),
            NodeKind::Text => match view.segment_of(id) {
                Some(seg) => (
                    "#text".to_string(),
                    Some(view.text()[seg.range()].to_string()),
                ),
                None => continue,
            },
            _ => continue,
        };
        let evidence = said
            .iter()
            .filter(|(_, e)| e.covers(id))
            .filter_map(|(m, e)| {
                Some((
                    m.to_string(),
                    NodeEvidence {
                        score: round(e.score(id)?),
                        role: role_name(e.role(id)?),
                    },
                ))
            })
            .collect();
        nodes.push(Node {
            id: id.0,
            parent: doc.parent(id).map(|p| p.0),
            selector: match (&locator, text.is_none()) {
                (Some(l), true) => l.unique_selector(id),
                _ => None,
            },
            tag,
            role: role_name(labels.role(id)),
            score: round(labels.score(id)),
            text,
            removed: labels
                .partial(id)
                .map(|rs| rs.iter().map(|r| [r.start, r.end]).collect()),
            evidence,
        });
    }
    Segmentation {
        site: ex.site().to_string(),
        profile: ex.profile_site().map(str::to_string),
        confidence: round(ex.confidence()),
        no_content: ex.no_content().map(|n| n.as_str()),
        methods: ex
            .evidence()
            .iter()
            .map(|v| MethodSay {
                method: v.method.clone(),
                scope: match v.scope {
                    Scope::Site => "site",
                    Scope::Page => "page",
                },
                meaning: v.verdict.evidence().map(|e| meaning_name(e.meaning())),
                covered: v.verdict.evidence().map(|e| e.covered_count()),
                abstained: match &v.verdict {
                    Verdict::Abstain(why) => Some(why.clone()),
                    Verdict::Evidence(_) => None,
                },
                informed_by: v.informed_by.to_vec(),
            })
            .collect(),
        nodes,
    }
}

/// The suffix model's document-frequency histogram.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistogramView {
    /// Strings per bin of document share (100 bins).
    pub counts: Vec<u64>,
    /// The documents the shares are relative to.
    pub documents: u32,
    /// Strings in bins at or above this one are template.
    pub cutoff: usize,
}

/// What a site's profile holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct SiteInfo {
    /// The site key.
    pub site: String,
    /// The pages it was learned from.
    pub pages: u32,
    /// The program that learned it.
    pub generator: String,
    /// The methods it has models of.
    pub methods: Vec<String>,
    /// One line on what it holds.
    pub summary: String,
    /// The suffix method's cleaning expressions (regular expressions), longest first.
    pub expressions: Vec<String>,
    /// The suffix method's document-frequency histogram with its cutoff.
    pub histogram: Option<HistogramView>,
    /// FOREST's XPath of the main content.
    pub forest_xpath: Option<String>,
}

/// What a profile holds, for the inspector.
pub(crate) fn site_info(p: &Profile) -> SiteInfo {
    let suffix: Option<SuffixModel> = p
        .methods
        .get("suffix")
        .and_then(|m| serde_json::from_value(m.clone()).ok());
    let forest: Option<ForestModel> = p
        .methods
        .get("forest")
        .and_then(|m| serde_json::from_value(m.clone()).ok());
    SiteInfo {
        site: p.site.clone(),
        pages: p.pages,
        generator: p.generator.clone(),
        methods: p.method_names().iter().map(|s| s.to_string()).collect(),
        summary: p.summary(),
        expressions: p.suffix_regexes().map(str::to_string).collect(),
        histogram: suffix.map(|m| HistogramView {
            counts: m.histogram.counts,
            documents: m.histogram.documents,
            cutoff: m.histogram.cutoff,
        }),
        forest_xpath: forest.map(|f| f.xpath),
    }
}

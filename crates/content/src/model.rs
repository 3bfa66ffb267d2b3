//! The stored content model and how a page's units become labels.

use std::sync::{Arc, OnceLock};

use chaff_core::{
    Evidence, Labels, Meaning, Method, MethodError, PageInput, Role, Scope, SiteVerdict, Verdict,
};
use chaff_dom::{Document, NodeId, NodeKind, TextView};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::context;
use crate::gbdt::Gbdt;
use crate::pagetype::{self, TypeModel};
use crate::site;
use crate::units::{self, Units};

/// The threshold `--favor-precision` selects, chosen on held-out Dragnet training pages
/// (`favor_eval.py --choose`: the training split's sites dealt to five folds, each fold's 174
/// to 242 pages extracted by the model trained without its sites, 966 pages in all, scored
/// together with 4-gram shingles, the comment detector on as it ships): the lowest node
/// threshold of 0.1, 0.15 ... 0.9 that raises precision by at least 0.035 over the default
/// 0.4 with F1 within 0.02 of the default's. Chosen again with the fold models of the
/// content model refitted on 2026-12-06: there precision went from 0.906 to 0.951, recall
/// from 0.940 to 0.875, F1 from 0.923 to 0.912 (0.75, the point before, raised precision by
/// 0.033: with the previous model it went from 0.908 to 0.945, F1 from 0.923 to 0.915; 0.7,
/// the point before the comment detector, raised it by 0.033 once comments were kept apart).
pub const FAVOR_PRECISION_THRESHOLD: f32 = 0.8;
/// The threshold `--favor-recall` keeps a text node at, with [`FAVOR_RECALL_DECIDE`] and
/// [`FAVOR_RECALL_WIDEN`]: a block is kept whole when one of its text nodes reaches 0.3, and
/// a run of nodes at or above 0.05 that holds a kept node is kept with it (hysteresis,
/// [`runs`]). Chosen on the same five held-out folds by the rule: the setting of highest
/// recall whose F1 stays within 0.02 of the default's, over node and block-max decisions at
/// 0.1 to 0.9 and hysteresis from 0.3, 0.4 or 0.5 down to 0.02 to 0.25 under both decisions.
/// With the fold models of 2026-12-06 (the same point chosen again): default P 0.906, R
/// 0.940, F1 0.923; this point P 0.849, R 0.967, F1 0.904 (with the previous model: default
/// P 0.908, R 0.938, F1 0.923; this point P 0.850, R 0.967, F1 0.905). The point
/// before (node 0.4 with hysteresis to 0.03, chosen on folds 1 and 3 without the comment
/// detector) gave R 0.967, F1 0.907 on the five folds. A node the model doubts (a date line,
/// a heading, a list of links inside the article) is kept when it joins the kept text
/// without a confident template node between, and template far from the article stays out
/// however unsure the model is of it. Also measured on held-out fold 1 (153 pages; default
/// R 0.941, P 0.890, F1 0.915) and dropped: filling the gaps between kept nodes (all nodes
/// at or above 0.02 between two kept ones) R 0.953, P 0.873, F1 0.911; a threshold of 0.05
/// inside the deepest element holding 90% of the kept words R 0.967, P 0.858, F1 0.909; a
/// block kept whole when 30% of its words are kept R 0.946, P 0.888, F1 0.916.
pub const FAVOR_RECALL_THRESHOLD: f32 = 0.3;
/// The decision `--favor-recall` takes: a text node on the largest probability in its block.
pub const FAVOR_RECALL_DECIDE: Decide = Decide::BlockMax;
/// What `--favor-recall` adds to the threshold's decision: hysteresis down to 0.05.
pub const FAVOR_RECALL_WIDEN: Widen = Widen::Runs { low: 0.05 };

/// The probability of content at or above which a unit the model judges from the page alone
/// stays kept when the site's evidence comes in ([`ContentMethod::site_guard`]): site
/// evidence may remove what the page alone doubts, not what it is sure of. A site's learned
/// template is built from what repeats, and a notice, a date line or a caption that repeats
/// inside the article is content to most readers; the page-level judgement is the floor.
/// Chosen on training data (2026-12-07, the fold models of that day): on the held-out Dragnet
/// training sites (`site_cv.py`, 59 sites, 414 pages) none / 0.95 / 0.9 / 0.85 / 0.8 / 0.7
/// gave 4-gram F1 0.938 / 0.938 / 0.939 / 0.939 / 0.940 / 0.938 with site evidence and 52 /
/// 52 / 53 / 53 / 53 / 53 sites within 0.01 of page-level (page-level 0.928); of the
/// synthetic sites' 57,719 template words (`chaff-lab eval --synthetic --run methods`),
/// 99.58% / 99.58% / 99.56% / 99.53% / 99.38% removed, 0.01% of content words throughout
/// (the breadcrumbs and date lines the page alone keeps come back as the bound falls). 0.9 is
/// the lowest bound that gains on the sites and keeps issue 16's 99.5% with a margin.
pub const SITE_GUARD: f32 = 0.9;

/// Units whose rows are built and predicted together (and between two looks at the
/// deadline): enough for the trees' walks to overlap, few enough that the rows stay small.
const CHUNK: usize = 256;

/// The `format` field of every content model.
pub const FORMAT: &str = "chaff-content-model";
/// The model layout this build reads.
pub const VERSION: u32 = 1;

/// A trained content model, as stored in JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContentModel {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] for this build.
    pub version: u32,
    /// Feature names in row order; must equal [`units::names`].
    pub features: Vec<String>,
    /// Probability of content at or above which a unit is kept.
    pub threshold: f32,
    /// Names of the site inputs ([`site::names`]) that follow the unit features in every
    /// row; empty for a model that reads no site evidence.
    #[serde(default)]
    pub site: Vec<String>,
    /// The first stage (positive class: content), on [`units`] rows.
    pub gbdt: Gbdt,
    /// Names of the context features the second stage adds ([`context::NAMES`]).
    #[serde(default)]
    pub context: Vec<String>,
    /// The second stage, on a unit's row followed by its context features; when absent
    /// the first stage decides.
    #[serde(default)]
    pub stage2: Option<Gbdt>,
    /// The page-type classifier whose probabilities the second stage reads (zeros
    /// without one).
    #[serde(default)]
    pub page_types: Option<TypeModel>,
    /// Where the training rows came from.
    #[serde(default)]
    pub trained_on: String,
}

const BUILTIN_JSON: &str = include_str!("../model/content.json");

impl ContentModel {
    /// Reads and checks a model file.
    pub fn load(path: &std::path::Path) -> Result<ContentModel, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        ContentModel::from_json(&text).map_err(|e| match e {
            Error::Model(m) => Error::Model(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// Reads and checks a model.
    pub fn from_json(text: &str) -> Result<ContentModel, Error> {
        let model: ContentModel =
            serde_json::from_str(text).map_err(|e| Error::Model(e.to_string()))?;
        model.check()?;
        Ok(model)
    }

    /// Refuses a model of another format, layout or feature set, or with broken trees.
    pub fn check(&self) -> Result<(), Error> {
        if self.format != FORMAT {
            return Err(Error::Model(format!(
                "format {:?}, expected {FORMAT:?}",
                self.format
            )));
        }
        if self.version != VERSION {
            return Err(Error::Model(format!(
                "version {} (this build reads version {VERSION})",
                self.version
            )));
        }
        if !self.site.is_empty() && self.site != site::names() {
            return Err(Error::Model(
                "made for other site inputs (retrain it with this build)".into(),
            ));
        }
        if self.features != units::names() || self.gbdt.features != self.width() {
            return Err(Error::Model(
                "made for another feature set (retrain it with this build)".into(),
            ));
        }
        if let Some(s2) = &self.stage2
            && (self.context != context::NAMES || s2.features != self.width() + context::COUNT)
        {
            return Err(Error::Model(
                "second stage made for other context features (retrain it with this build)".into(),
            ));
        }
        if let Some(s2) = &self.stage2 {
            s2.check().map_err(Error::Model)?;
            if let Some(t) = &self.page_types {
                t.check().map_err(Error::Model)?;
            }
        }
        if !(0.0..=1.0).contains(&self.threshold) {
            return Err(Error::Model(format!(
                "threshold {} outside [0, 1]",
                self.threshold
            )));
        }
        self.gbdt.check().map_err(Error::Model)
    }

    /// The model as JSON (one line; the same model gives the same bytes).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The model of a file when one is named, else the built-in one.
    pub fn load_or_builtin(path: Option<&std::path::Path>) -> Result<ContentModel, Error> {
        match path {
            Some(path) => ContentModel::load(path),
            None => ContentModel::builtin().cloned(),
        }
    }

    /// The model compiled into chaff.
    pub fn builtin() -> Result<&'static ContentModel, Error> {
        static MODEL: OnceLock<Result<ContentModel, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| ContentModel::from_json(BUILTIN_JSON).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::Model(format!("built-in model: {e}")))
    }

    /// Features per first-stage row: the unit's, then the site inputs when the model reads
    /// them.
    pub fn width(&self) -> usize {
        units::width() + self.site.len()
    }

    /// Whether the model reads site evidence.
    pub fn reads_site(&self) -> bool {
        !self.site.is_empty()
    }

    /// Appends unit `k`'s first-stage row to `rows`: its features, then its site inputs
    /// (from `site_rows`, [`site::COUNT`] per unit) or missing values.
    fn append_row(&self, units: &Units, site_rows: Option<&[f32]>, k: usize, rows: &mut Vec<f32>) {
        units.append_row(k, rows);
        if self.reads_site() {
            match site_rows.and_then(|r| r.get(k * site::COUNT..(k + 1) * site::COUNT)) {
                Some(s) => rows.extend_from_slice(s),
                None => rows.extend(std::iter::repeat_n(f32::NAN, site::COUNT)),
            }
        }
    }

    /// The probability that each unit is content, from the page alone.
    pub fn predict(&self, units: &Units) -> Vec<f32> {
        self.predict_with_site(units, None)
    }

    /// The probability that each unit is content, given the site inputs of every unit
    /// ([`site::rows`]; `None`: no site evidence).
    pub fn predict_with_site(&self, units: &Units, site_rows: Option<&[f32]>) -> Vec<f32> {
        let n = units.len();
        let width = self.width();
        let mut rows = Vec::with_capacity(CHUNK.min(n) * (width + context::COUNT));
        // Past the page's deadline (chaff_core::deadline) the rest is not worth computing:
        // the caller throws the page's result away.
        let stopped = || chaff_core::deadline::passed();
        let mut p1 = Vec::with_capacity(n);
        for chunk in (0..n).step_by(CHUNK) {
            if chunk > 0 && stopped() {
                return vec![0.0; n];
            }
            rows.clear();
            for k in chunk..(chunk + CHUNK).min(n) {
                self.append_row(units, site_rows, k, &mut rows);
            }
            self.gbdt.predict_rows(&rows, width, &mut p1);
        }
        let Some(stage2) = &self.stage2 else {
            return p1;
        };
        let types = self.page_types.as_ref().map_or([0.0; 7], |t| {
            t.predict(&pagetype::page_row(units, &|k| units.own(k), &p1))
        });
        let mut ctx = Vec::with_capacity(n * context::COUNT);
        context::rows(units, &p1, &types, &mut ctx);
        let mut p2 = Vec::with_capacity(n);
        for chunk in (0..n).step_by(CHUNK) {
            if stopped() {
                return vec![0.0; n];
            }
            rows.clear();
            for k in chunk..(chunk + CHUNK).min(n) {
                self.append_row(units, site_rows, k, &mut rows);
                rows.extend_from_slice(&ctx[k * context::COUNT..(k + 1) * context::COUNT]);
            }
            stage2.predict_rows(&rows, width + context::COUNT, &mut p2);
        }
        p2
    }

    /// Scores a page: its units and each unit's probability of being content.
    pub fn score(&self, doc: &Document, view: &TextView, url: Option<&str>) -> (Units, Vec<f32>) {
        let units = Units::compute(doc, view, url);
        let p = self.predict(&units);
        (units, p)
    }
}

/// Turns unit probabilities into labels for every node:
///
/// * a unit (text node with words) is template when its probability of content is under
///   `threshold`; its score is one minus that probability;
/// * an element holding unit words is template when none of them is kept; its score is one
///   minus the largest probability under it;
/// * a node without words (an image, whitespace) takes its parent's role, so a logo in a
///   removed header goes with it and a figure in a kept article stays.
pub fn labels(doc: &Document, units: &Units, p_content: &[f32], threshold: f32) -> Labels {
    let n = doc.len();
    let mut words = vec![0u32; n];
    let mut kept = vec![0u32; n];
    let mut best = vec![0f32; n];
    for ((id, w), p) in units.nodes.iter().zip(&units.words).zip(p_content) {
        words[id.index()] = *w;
        best[id.index()] = *p;
        if *p >= threshold {
            kept[id.index()] = *w;
        }
    }
    // Bottom-up: ids are in document order, so children come after their parent.
    for i in (1..n).rev() {
        let id = NodeId(i as u32);
        if let Some(parent) = doc.parent(id) {
            words[parent.index()] += words[i];
            kept[parent.index()] += kept[i];
            best[parent.index()] = best[parent.index()].max(best[i]);
        }
    }
    let mut score = vec![0f32; n];
    let mut role = vec![Role::Content; n];
    for i in 0..n {
        let id = NodeId(i as u32);
        let inherited = doc.parent(id).map(|p| (score[p.index()], role[p.index()]));
        let own = if words[i] > 0 {
            let r = if kept[i] == 0 {
                Role::Template
            } else {
                Role::Content
            };
            Some((1.0 - best[i], r))
        } else {
            None
        };
        let (s, r) = match (own, doc.kind(id)) {
            (Some(o), _) => o,
            (None, NodeKind::Document) => (0.0, Role::Content),
            (None, _) => inherited.unwrap_or((0.0, Role::Content)),
        };
        score[i] = s;
        role[i] = r;
    }
    Labels::from_parts(score, role)
}

/// What the keep-or-drop decision is taken on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Decide {
    /// Each text node on its own probability (the default: measured best).
    #[default]
    Node,
    /// Each block (the closest block-level ancestor of a text node) on the word-weighted
    /// mean probability of its text nodes, kept or dropped whole.
    Block,
    /// Each text node on the largest probability in its block: a block is kept whole when
    /// any of its text nodes is (a caption or a link beside a kept sentence stays).
    BlockMax,
}

/// What a text node's neighbours add to the threshold's decision.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Widen {
    /// Nothing: the threshold decides each text node (or block) alone.
    #[default]
    Off,
    /// Hysteresis in document order: a text node at or above `low` is also kept when it
    /// lies in a run of such nodes, consecutive among the page's text nodes, that holds a
    /// node the threshold keeps ([`runs`]).
    Runs {
        /// The lower threshold (at most the threshold).
        low: f32,
    },
}

/// Hysteresis over the units in document order: every maximal run of consecutive units at
/// or above `low` that holds a unit at or above `high` is raised to at least `high`, so
/// the threshold `high` keeps the whole run; a unit under `low` ends a run.
pub fn runs(p: &[f32], high: f32, low: f32) -> Vec<f32> {
    let mut out = p.to_vec();
    let mut i = 0;
    while i < p.len() {
        if p[i] < low {
            i += 1;
            continue;
        }
        let start = i;
        while i < p.len() && p[i] >= low {
            i += 1;
        }
        if p[start..i].iter().any(|&x| x >= high) {
            for x in &mut out[start..i] {
                *x = x.max(high);
            }
        }
    }
    out
}

/// Each unit's probability raised to the largest of its block's ([`Decide::BlockMax`]).
pub fn block_max(doc: &Document, units: &Units, p: &[f32]) -> Vec<f32> {
    let block_of = blocks(doc, units);
    let mut best: std::collections::HashMap<NodeId, f32> = Default::default();
    for (b, &pk) in block_of.iter().zip(p) {
        if let Some(b) = b {
            let e = best.entry(*b).or_insert(pk);
            *e = e.max(pk);
        }
    }
    block_of
        .iter()
        .zip(p)
        .map(|(b, &pk)| b.and_then(|b| best.get(&b).copied()).unwrap_or(pk))
        .collect()
}

/// Each unit's block: its closest block-level ancestor element.
fn blocks(doc: &Document, units: &Units) -> Vec<Option<NodeId>> {
    units
        .nodes
        .iter()
        .map(|&id| {
            doc.ancestors(id)
                .find(|&a| doc.is_element(a) && chaff_dom::text::is_block(doc.tag(a)))
        })
        .collect()
}

/// Replaces each unit's probability by its block's word-weighted mean ([`Decide::Block`]).
pub fn block_average(doc: &Document, units: &Units, p: &[f32]) -> Vec<f32> {
    let block_of = blocks(doc, units);
    let mut sums: std::collections::HashMap<NodeId, (f64, f64)> = Default::default();
    for k in 0..units.len() {
        if let Some(b) = block_of[k] {
            let e = sums.entry(b).or_default();
            e.0 += f64::from(units.words[k]) * f64::from(p[k]);
            e.1 += f64::from(units.words[k]);
        }
    }
    (0..units.len())
        .map(|k| match block_of[k].and_then(|b| sums.get(&b)) {
            Some((s, w)) if *w > 0.0 => (s / w) as f32,
            _ => p[k],
        })
        .collect()
}

/// The content model behind chaff's method seam: needs no profile; its evidence is, for
/// every node, the probability that it is template ([`Meaning::Probability`]).
#[derive(Clone, Debug)]
pub struct ContentMethod {
    /// The model.
    pub model: Arc<ContentModel>,
    /// Probability of content at or above which a unit is kept (the model's own when
    /// `None`).
    pub threshold: Option<f32>,
    /// What each decision covers.
    pub decide: Decide,
    /// What a text node's neighbours add to the decision.
    pub widen: Widen,
    /// With site evidence, a unit the model keeps at this probability or more from the page
    /// alone keeps that probability ([`SITE_GUARD`]; `None`: the site's evidence decides
    /// alone). It costs a second prediction on pages with site evidence.
    pub site_guard: Option<f32>,
}

/// The end of the precision/recall trade-off a front end asks for (`--favor-precision`,
/// `--favor-recall`); the points are the constants `FAVOR_*` of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Favor {
    /// Keep less: a higher threshold ([`FAVOR_PRECISION_THRESHOLD`]).
    Precision,
    /// Keep more: [`FAVOR_RECALL_THRESHOLD`], [`FAVOR_RECALL_DECIDE`] and
    /// [`FAVOR_RECALL_WIDEN`].
    Recall,
}

impl ContentMethod {
    /// The built-in model at its own threshold.
    pub fn builtin() -> Result<ContentMethod, Error> {
        Ok(ContentMethod::favoring(
            Arc::new(ContentModel::builtin()?.clone()),
            None,
        ))
    }

    /// `model` at the point `favor` names; at the model's own threshold, each text node on
    /// its own, when `None`.
    pub fn favoring(model: Arc<ContentModel>, favor: Option<Favor>) -> ContentMethod {
        let (threshold, decide, widen) = match favor {
            None => (None, Decide::Node, Widen::Off),
            Some(Favor::Precision) => (Some(FAVOR_PRECISION_THRESHOLD), Decide::Node, Widen::Off),
            Some(Favor::Recall) => (
                Some(FAVOR_RECALL_THRESHOLD),
                FAVOR_RECALL_DECIDE,
                FAVOR_RECALL_WIDEN,
            ),
        };
        ContentMethod {
            model,
            threshold,
            decide,
            widen,
            site_guard: Some(SITE_GUARD),
        }
    }
}

impl Method for ContentMethod {
    type PageData = ();
    type Model = ();
    type Compiled = ();

    fn name(&self) -> &'static str {
        "content"
    }

    fn scope(&self) -> Scope {
        Scope::Page
    }

    fn page_data(&self, _page: &PageInput<'_>) {}

    fn learn(&self, _pages: Vec<()>) -> Result<(), MethodError> {
        Err(MethodError::new(
            "the content model learns no site model (train it on labelled pages)",
        ))
    }

    fn compile(&self, _model: Option<()>) -> Result<(), MethodError> {
        Ok(())
    }

    fn evidence(&self, _compiled: &(), page: &PageInput<'_>) -> Verdict {
        self.evidence_given(&(), page, &[])
    }

    fn site_inputs(&self) -> &'static [&'static str] {
        if self.model.reads_site() {
            &site::METHODS
        } else {
            &[]
        }
    }

    fn evidence_given(
        &self,
        _compiled: &(),
        page: &PageInput<'_>,
        site: &[SiteVerdict<'_>],
    ) -> Verdict {
        let units = Units::compute(page.doc, page.view, page.url);
        let site_rows = (self.model.reads_site() && !site.is_empty())
            .then(|| site::rows(page.doc, page.view, &units, site));
        let mut p = self.model.predict_with_site(&units, site_rows.as_deref());
        if let (Some(_), Some(bound)) = (&site_rows, self.site_guard) {
            guard(&mut p, &self.model.predict_with_site(&units, None), bound);
        }
        match self.decide {
            Decide::Node => {}
            Decide::Block => p = block_average(page.doc, &units, &p),
            Decide::BlockMax => p = block_max(page.doc, &units, &p),
        }
        let threshold = self.threshold.unwrap_or(self.model.threshold);
        match self.widen {
            Widen::Off => {}
            Widen::Runs { low } => p = runs(&p, threshold, low),
        }
        let labels = labels(page.doc, &units, &p, threshold);
        Verdict::Evidence(Evidence::new(labels, Meaning::Probability))
    }
}

/// Raises each unit's probability with the site's evidence, `with_site`, to its probability
/// from the page alone, `alone`, where that is at least `bound` ([`SITE_GUARD`]).
fn guard(with_site: &mut [f32], alone: &[f32], bound: f32) {
    for (p, &a) in with_site.iter_mut().zip(alone) {
        if a >= bound && a > *p {
            *p = a;
        }
    }
}

#[cfg(test)]
mod guard_tests {
    use super::*;
    use crate::gbdt::TreeNode;

    #[test]
    fn only_what_the_page_alone_is_sure_of_is_raised() {
        // Units: sure alone and dropped by the site; sure alone and kept higher by the site;
        // doubtful alone and dropped by the site; sure alone at the bound exactly.
        let mut p = vec![0.1, 0.97, 0.2, 0.3];
        guard(&mut p, &[0.95, 0.91, 0.85, 0.9], 0.9);
        assert_eq!(p, vec![0.95, 0.97, 0.2, 0.9]);
    }

    /// A model of one stump on the suffix method's `removed` input: a unit it does not
    /// remove (or a page without site evidence, NaN) scores `kept` log-odds, a removed one -3.
    fn stump(kept: f32) -> ContentModel {
        let width = units::width() + site::COUNT;
        let split = TreeNode::Split {
            feature: units::width() as u32,
            threshold: 0.5,
            left: 1,
            right: 2,
        };
        let trees = vec![vec![
            split,
            TreeNode::Leaf { value: kept },
            TreeNode::Leaf { value: -3.0 },
        ]];
        ContentModel {
            format: FORMAT.into(),
            version: VERSION,
            features: units::names(),
            threshold: 0.4,
            site: site::names(),
            gbdt: Gbdt::new(width, 0.0, trees),
            context: Vec::new(),
            stage2: None,
            page_types: None,
            trained_on: String::new(),
        }
    }

    /// The roles of the page's two paragraphs' text when the suffix method removes the second.
    fn roles(method: &ContentMethod) -> (Role, Role) {
        let doc = chaff_dom::parse(
            b"<html><body><p>The story of the week, told in a dozen plain words here.</p>\
              <p>A notice this site prints under every story it runs.</p></body></html>",
        )
        .expect("parses");
        let view = TextView::new(&doc);
        let texts: Vec<NodeId> = doc.ids().filter(|&i| doc.is_text(i)).collect();
        let mut said = Labels::all_content(doc.len());
        said.set(texts[1], 1.0, Role::Template);
        let suffix = Verdict::Evidence(Evidence::new(said, Meaning::Probability));
        let site = [SiteVerdict {
            method: "suffix",
            verdict: &suffix,
        }];
        let page = PageInput {
            doc: &doc,
            view: &view,
            source: None,
            url: None,
        };
        let Verdict::Evidence(e) = method.evidence_given(&(), &page, &site) else {
            panic!("the content model abstained");
        };
        (e.labels().role(texts[0]), e.labels().role(texts[1]))
    }

    #[test]
    fn site_evidence_removes_what_the_page_alone_doubts_not_what_it_is_sure_of() {
        // Alone, every unit scores sigmoid(3) = 0.953, at least the bound: the notice the
        // suffix method removes (sigmoid(-3) = 0.047 with it) stays.
        let sure = ContentMethod::favoring(Arc::new(stump(3.0)), None);
        assert_eq!(sure.site_guard, Some(SITE_GUARD));
        assert_eq!(roles(&sure), (Role::Content, Role::Content));
        // Without the guard the site's evidence decides alone.
        let open = ContentMethod {
            site_guard: None,
            ..sure.clone()
        };
        assert_eq!(roles(&open), (Role::Content, Role::Template));
        // Alone at sigmoid(1) = 0.731, under the bound: the notice goes, guard or not.
        let doubtful = ContentMethod::favoring(Arc::new(stump(1.0)), None);
        assert_eq!(roles(&doubtful), (Role::Content, Role::Template));
    }
}

#[cfg(test)]
mod block_tests {
    use super::*;

    /// Two blocks: a paragraph of a sentence and a link, and a heading of one text node.
    #[test]
    fn block_max_lifts_a_block_to_its_best_text_node() {
        let doc = chaff_dom::parse(
            b"<body><p>Kept words here. <a href=/>a link</a></p><h2>Alone</h2></body>",
        )
        .unwrap();
        let view = TextView::new(&doc);
        let units = Units::compute(&doc, &view, None);
        assert_eq!(units.len(), 3);
        let p = [0.9, 0.1, 0.3];
        assert_eq!(block_max(&doc, &units, &p), vec![0.9, 0.9, 0.3]);
        let mean = block_average(&doc, &units, &p);
        assert!(mean[0] == mean[1] && mean[0] < 0.9 && mean[0] > 0.1);
        assert_eq!(mean[2], 0.3);
    }

    /// Runs of units at or above 0.1: [0.9, 0.2] holds a unit the threshold 0.4 keeps,
    /// [0.3] and [0.35, 0.15] do not; 0.05 and 0.0 end runs.
    #[test]
    fn runs_raise_a_run_that_holds_a_kept_unit() {
        let p = [0.9, 0.2, 0.05, 0.3, 0.0, 0.35, 0.15];
        assert_eq!(
            runs(&p, 0.4, 0.1),
            vec![0.9, 0.4, 0.05, 0.3, 0.0, 0.35, 0.15]
        );
        assert_eq!(runs(&[0.1, 0.5], 0.4, 0.1), vec![0.4, 0.5]);
        assert_eq!(runs(&[0.3, 0.2], 0.4, 0.1), vec![0.3, 0.2]);
        assert_eq!(runs(&p, 0.4, 0.4), p.to_vec());
        assert!(runs(&[], 0.4, 0.1).is_empty());
    }

    /// A page of four text nodes: the paragraph after the kept one is near the threshold
    /// and kept with it; the one after the gap of 0.05 is not, though as likely.
    #[test]
    fn hysteresis_keeps_the_neighbour_the_threshold_drops() {
        let doc = chaff_dom::parse(
            b"<body><p>The bridge reopened on Monday.</p><p>Traffic returns next week.</p>\
              <div>Share this</div><p>Sponsored links here</p></body>",
        )
        .unwrap();
        let view = TextView::new(&doc);
        let units = Units::compute(&doc, &view, None);
        assert_eq!(units.len(), 4);
        let p = [0.9, 0.2, 0.05, 0.2];
        let kept = |p: &[f32]| {
            let l = labels(&doc, &units, p, 0.4);
            units
                .nodes
                .iter()
                .map(|&id| !l.role(id).is_template())
                .collect::<Vec<_>>()
        };
        assert_eq!(kept(&p), [true, false, false, false]);
        assert_eq!(kept(&runs(&p, 0.4, 0.1)), [true, true, false, false]);
        assert_eq!(kept(&runs(&p, 0.4, 0.01)), [true, true, true, true]);
    }

    /// The model file's stored form reads back as it was written: the reader changes no
    /// value, and the writer keeps the committed bytes.
    #[test]
    fn the_built_in_model_is_written_back_as_committed() {
        let model = ContentModel::from_json(BUILTIN_JSON).unwrap();
        assert_eq!(model.to_json(), BUILTIN_JSON.trim_end());
    }

    /// No favor is the plain method: the model's threshold, each text node alone.
    #[test]
    fn favoring_nothing_is_the_default_method() {
        let model = Arc::new(ContentModel::builtin().unwrap().clone());
        let m = ContentMethod::favoring(model.clone(), None);
        assert_eq!(
            (m.threshold, m.decide, m.widen),
            (None, Decide::Node, Widen::Off)
        );
        let p = ContentMethod::favoring(model.clone(), Some(Favor::Precision));
        assert!(p.threshold.unwrap() > model.threshold);
        let r = ContentMethod::favoring(model.clone(), Some(Favor::Recall));
        assert!(r.threshold.unwrap() <= model.threshold);
        assert_eq!(
            (r.decide, r.widen),
            (FAVOR_RECALL_DECIDE, FAVOR_RECALL_WIDEN)
        );
    }
}

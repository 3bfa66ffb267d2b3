//! The page-level classifier (four logistic regressions by node size) and its application:
//! classifier scores per node, isotonic smoothing on the DOM tree, labels and segments.

use std::sync::{Arc, OnceLock};

use chaff_core::{Evidence, Labels, Meaning, Method, MethodError, PageInput, Role, Scope, Verdict};
use chaff_dom::{Document, NodeId, TextView};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::features::{self, Geometry, PageFeatures};
use crate::logreg::LogReg;

/// The `format` field of a model file.
pub const FORMAT: &str = "chaff-pagelevel-model";
/// The version of the model format this build reads and writes.
pub const VERSION: u32 = 1;

/// The paper's smoothing constant c in γi = c·A/Ai.
pub const DEFAULT_C: f64 = 0.01;
/// Nodes smaller than this (visible characters plus media allowance) are hidden into their
/// parent, as the paper hides nodes under 2,000 square pixels (about one short line of text).
pub const DEFAULT_HIDE_AREA: f64 = 15.0;
/// Smoothed templateness at or above which a node is template.
pub const DEFAULT_THRESHOLD: f64 = 0.5;

/// A trained page-level model, as stored in JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageModel {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] for this build.
    pub version: u32,
    /// Feature names, in order; must equal [`features::NAMES`].
    pub features: Vec<String>,
    /// Upper area bounds of the first three size buckets (the fourth takes the rest).
    pub bucket_bounds: [f64; 3],
    /// One model per size bucket.
    pub buckets: Vec<LogReg>,
    /// Smoothed score at or above which a node is template.
    pub threshold: f64,
    /// Smoothing constant c.
    pub c: f64,
    /// Area under which nodes are hidden into their parent.
    pub hide_area: f64,
    /// What it was trained on.
    #[serde(default)]
    pub trained_on: TrainedOn,
}

/// A model's provenance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainedOn {
    /// Sites.
    pub sites: u32,
    /// Pages.
    pub pages: u32,
    /// Training rows per bucket.
    pub rows: Vec<u32>,
    /// Template (positive) rows per bucket.
    pub positives: Vec<u32>,
    /// Free text: where the data came from.
    #[serde(default)]
    pub note: String,
}

const DEFAULT_MODEL_JSON: &str = include_str!("../model/default.json");

impl PageModel {
    /// The model of a file when one is named, else the built-in one.
    pub fn load_or_builtin(path: Option<&std::path::Path>) -> Result<PageModel, Error> {
        match path {
            Some(path) => PageModel::load(path),
            None => PageModel::builtin().cloned(),
        }
    }

    /// Reads and checks a model file.
    pub fn load(path: &std::path::Path) -> Result<PageModel, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        PageModel::from_json(&text).map_err(|e| match e {
            Error::Model(m) => Error::Model(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// Reads and checks a model from JSON.
    pub fn from_json(text: &str) -> Result<PageModel, Error> {
        let head: serde_json::Value =
            serde_json::from_str(text).map_err(|e| Error::Model(e.to_string()))?;
        if head.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(Error::Model(format!("not a {FORMAT} file")));
        }
        match head.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) => {
                return Err(Error::Model(format!(
                    "model version {v}, this build reads version {VERSION}"
                )));
            }
            None => return Err(Error::Model("no version".into())),
        }
        let m: PageModel = serde_json::from_value(head).map_err(|e| Error::Model(e.to_string()))?;
        m.check()?;
        Ok(m)
    }

    /// Validates the stored numbers against this build's features.
    pub fn check(&self) -> Result<(), Error> {
        if self.features.len() != features::COUNT
            || self
                .features
                .iter()
                .zip(features::NAMES)
                .any(|(a, b)| a != b)
        {
            return Err(Error::Model(
                "the model was trained with another feature set; retrain it with `chaff train`"
                    .into(),
            ));
        }
        if self.buckets.len() != 4 || self.buckets.iter().any(|b| !b.is_valid(features::COUNT)) {
            return Err(Error::Model(
                "the model needs four valid bucket models".into(),
            ));
        }
        let finite = |v: f64| v.is_finite() && v >= 0.0;
        if !(self.bucket_bounds.iter().all(|&b| finite(b))
            && finite(self.c)
            && finite(self.hide_area)
            && (0.0..=1.0).contains(&self.threshold))
        {
            return Err(Error::Model("a parameter is out of range".into()));
        }
        Ok(())
    }

    /// Serialises the model (pretty JSON).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The model built into the binary, trained by `chaff train` on the multi-page sites of
    /// the shared data sets (see `model/README.md`).
    pub fn builtin() -> Result<&'static PageModel, Error> {
        static MODEL: OnceLock<Result<PageModel, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| PageModel::from_json(DEFAULT_MODEL_JSON).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::Model(format!("built-in model: {e}")))
    }

    /// The size bucket of a node of this area.
    pub fn bucket(&self, area: f64) -> usize {
        self.bucket_bounds
            .iter()
            .position(|&b| area < b)
            .unwrap_or(3)
    }
}

/// What each node's distance term counts for in smoothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmoothWeights {
    /// The paper: each node once, plus once per hidden node rolled into it.
    Nodes,
    /// Each node as many times as the words it holds itself (text not under another tree
    /// node), at least as often as [`SmoothWeights::Nodes`] says. The default: see the crate
    /// documentation for why and what it measured.
    Words,
}

/// How to apply a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ApplyOptions {
    /// Smooth the classifier's scores on the tree (PageLevel-Smooth); off gives
    /// PageLevel-Basic.
    pub smooth: bool,
    /// Override of the model's smoothing constant.
    pub c: Option<f64>,
    /// Override of the model's threshold.
    pub threshold: Option<f64>,
    /// How the smoothing's distance weighs nodes.
    pub weights: SmoothWeights,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            smooth: true,
            c: None,
            threshold: None,
            weights: SmoothWeights::Words,
        }
    }
}

/// The scores of one page.
#[derive(Clone, Debug)]
pub struct PageScores {
    /// The nodes of the smoothing tree (classified, not hidden), in document order; the
    /// first is the tree's root (`<body>` or the document).
    pub nodes: Vec<NodeId>,
    /// Parent of each tree node, as an index into `nodes` (the root's is 0).
    pub parent: Vec<u32>,
    /// Classifier templateness of each tree node.
    pub raw: Vec<f32>,
    /// Smoothed templateness (equal to `raw` without smoothing).
    pub smoothed: Vec<f32>,
    /// Area of each tree node.
    pub area: Vec<f64>,
    /// How many nodes each tree node stands for (itself and its hidden descendants).
    pub multiplicity: Vec<u32>,
    /// Visible words under each tree node.
    pub words: Vec<u32>,
    /// Smoothed templateness of every document node: a tree node's own, other nodes their
    /// closest tree ancestor's (0 outside the tree).
    pub per_node: Vec<f32>,
    /// Threshold used.
    pub threshold: f64,
    /// Why smoothing failed, when it did: the scores are then the classifier's as they are.
    pub smoothing_error: Option<String>,
}

/// One segment: a tree node whose smoothed score differs from its tree parent's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Segment {
    /// The segment's root node.
    #[serde(serialize_with = "node_id")]
    pub node: NodeId,
    /// Its smoothed templateness.
    pub score: f32,
    /// Whether that makes it template.
    pub template: bool,
    /// Visible words under it (nested segments included).
    pub words: u32,
}

fn node_id<S: serde::Serializer>(id: &NodeId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(id.0)
}

impl PageScores {
    /// The segments, in document order: the tree root and every node whose smoothed score
    /// differs from its tree parent's.
    pub fn segments(&self) -> Vec<Segment> {
        (0..self.nodes.len())
            .filter(|&k| k == 0 || self.smoothed[k] != self.smoothed[self.parent[k] as usize])
            .map(|k| Segment {
                node: self.nodes[k],
                score: self.smoothed[k],
                template: f64::from(self.smoothed[k]) >= self.threshold,
                words: self.words[k],
            })
            .collect()
    }

    /// Labels: every document node gets its smoothed score; nodes at or above the threshold
    /// are template.
    pub fn labels(&self) -> Labels {
        let role = self
            .per_node
            .iter()
            .map(|&s| {
                if f64::from(s) >= self.threshold {
                    Role::Template
                } else {
                    Role::Content
                }
            })
            .collect();
        Labels::from_parts(self.per_node.clone(), role)
    }
}

/// Applies a model to a page.
pub fn score_page(
    model: &PageModel,
    doc: &Document,
    view: &TextView,
    url: Option<&str>,
    geometry: Option<&dyn Geometry>,
    opts: ApplyOptions,
) -> PageScores {
    let feats = PageFeatures::compute(doc, view, url, geometry);
    let hide = model.hide_area;
    let root = doc.body().unwrap_or(NodeId::ROOT);
    // Tree nodes: the root, and rows at least `hide` in area.
    let mut tree_index = vec![u32::MAX; doc.len()];
    let mut nodes = Vec::new();
    let mut raw = Vec::new();
    let mut area = Vec::new();
    let mut words = Vec::new();
    let mut row_of_root = None;
    for (k, &id) in feats.nodes.iter().enumerate() {
        if id == root {
            row_of_root = Some(k);
        }
    }
    let score_row = |k: usize| -> f32 {
        let a = feats.area[feats.nodes[k].index()];
        let b = model.bucket(a);
        model
            .buckets
            .get(b)
            .map_or(0.0, |m| m.predict(&feats.rows[k]) as f32)
    };
    tree_index[root.index()] = 0;
    nodes.push(root);
    raw.push(row_of_root.map_or(0.0, score_row));
    area.push(feats.area[root.index()]);
    words.push(feats.words[root.index()]);
    let mut hidden_rows = Vec::new();
    for (k, &id) in feats.nodes.iter().enumerate() {
        if id == root {
            continue;
        }
        if feats.area[id.index()] < hide {
            hidden_rows.push(id);
            continue;
        }
        tree_index[id.index()] = nodes.len() as u32;
        nodes.push(id);
        raw.push(score_row(k));
        area.push(feats.area[id.index()]);
        words.push(feats.words[id.index()]);
    }
    // Parents: the closest tree ancestor. Tree nodes come in document order, so one pass with
    // a stack of open tree nodes finds them.
    let mut parent = vec![0u32; nodes.len()];
    let mut stack: Vec<u32> = vec![0];
    for k in 1..nodes.len() {
        let id = nodes[k];
        while let Some(&top) = stack.last() {
            if top == 0 || doc.contains(nodes[top as usize], id) {
                break;
            }
            stack.pop();
        }
        parent[k] = stack.last().copied().unwrap_or(0);
        stack.push(k as u32);
    }
    // Hidden rows add to their closest tree ancestor's multiplicity.
    let mut multiplicity = vec![1u32; nodes.len()];
    let closest = |mut id: NodeId| -> u32 {
        loop {
            let t = tree_index[id.index()];
            if t != u32::MAX {
                return t;
            }
            match doc.parent(id) {
                Some(p) => id = p,
                None => return 0,
            }
        }
    };
    for id in hidden_rows {
        let t = doc.parent(id).map_or(0, closest);
        multiplicity[t as usize] += 1;
    }
    let c = opts.c.unwrap_or(model.c);
    let smoothed = if opts.smooth && nodes.len() > 1 {
        let total = area[0].max(1.0);
        let gamma: Vec<f64> = area.iter().map(|&a| c * total / a.max(1.0)).collect();
        let mult: Vec<u32> = match opts.weights {
            SmoothWeights::Nodes => multiplicity.clone(),
            SmoothWeights::Words => {
                // Words a node holds itself: its words minus its tree children's.
                let mut own: Vec<i64> = words.iter().map(|&w| i64::from(w)).collect();
                for k in 1..nodes.len() {
                    own[parent[k] as usize] -= i64::from(words[k]);
                }
                own.iter()
                    .zip(&multiplicity)
                    .map(|(&o, &m)| u32::try_from(o.max(0)).unwrap_or(u32::MAX).max(m))
                    .collect()
            }
        };
        crate::smoothing::smooth(&parent, &raw, &mult, &gamma).map_err(|e| e.to_string())
    } else {
        Ok(raw.clone())
    };
    let (smoothed, smoothing_error) = match smoothed {
        Ok(s) => (s, None),
        Err(e) => (
            raw.clone(),
            Some(format!("smoothing failed ({e}); classifier scores used")),
        ),
    };
    // Spread to every node: in document order each node takes its own tree value or its
    // parent's spread value.
    let mut per_node = vec![0f32; doc.len()];
    for id in doc.ids() {
        let t = tree_index[id.index()];
        per_node[id.index()] = if t != u32::MAX {
            smoothed[t as usize]
        } else {
            doc.parent(id).map_or(0.0, |p| per_node[p.index()])
        };
    }
    PageScores {
        nodes,
        parent,
        raw,
        smoothed,
        area,
        multiplicity,
        words,
        per_node,
        threshold: opts.threshold.unwrap_or(model.threshold),
        smoothing_error,
    }
}

/// The page-level classifier behind chaff's method seam: needs no profile; its evidence is
/// the (smoothed) probability that each node is template ([`Meaning::Probability`]).
#[derive(Clone, Debug)]
pub struct PageLevelMethod {
    /// The model.
    pub model: Arc<PageModel>,
    /// How to apply it.
    pub options: ApplyOptions,
}

impl PageLevelMethod {
    /// The built-in model with the default options.
    pub fn builtin() -> Result<PageLevelMethod, Error> {
        Ok(PageLevelMethod {
            model: Arc::new(PageModel::builtin()?.clone()),
            options: ApplyOptions::default(),
        })
    }
}

impl Method for PageLevelMethod {
    type PageData = ();
    type Model = ();
    type Compiled = ();

    fn name(&self) -> &'static str {
        "pagelevel"
    }

    fn scope(&self) -> Scope {
        Scope::Page
    }

    fn page_data(&self, _page: &PageInput<'_>) {}

    fn learn(&self, _pages: Vec<()>) -> Result<(), MethodError> {
        Err(MethodError::new(
            "the page-level classifier learns no site model (train it on labelled pages)",
        ))
    }

    fn compile(&self, _model: Option<()>) -> Result<(), MethodError> {
        Ok(())
    }

    fn evidence(&self, _compiled: &(), page: &PageInput<'_>) -> Verdict {
        let scores = score_page(
            &self.model,
            page.doc,
            page.view,
            page.url,
            None,
            self.options,
        );
        Verdict::Evidence(Evidence::new(scores.labels(), Meaning::Probability))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_model_loads() {
        let m = PageModel::builtin().unwrap();
        assert_eq!(m.buckets.len(), 4);
        assert_eq!(m.features.len(), features::COUNT);
    }

    #[test]
    fn foreign_and_future_models_are_refused() {
        assert!(PageModel::from_json("{}").is_err());
        assert!(PageModel::from_json("not json").is_err());
        let mut v: serde_json::Value = serde_json::from_str(DEFAULT_MODEL_JSON).unwrap();
        v["version"] = serde_json::json!(99);
        let e = PageModel::from_json(&v.to_string())
            .unwrap_err()
            .to_string();
        assert!(e.contains("99"), "{e}");
        let mut v: serde_json::Value = serde_json::from_str(DEFAULT_MODEL_JSON).unwrap();
        v["features"][0] = serde_json::json!("other");
        assert!(PageModel::from_json(&v.to_string()).is_err());
    }

    #[test]
    fn scores_cover_every_node_and_segments_start_at_the_root() {
        let html = "<html><body><ul><li><a href=/a>Home</a></li><li><a href=/b>World news</a></li></ul>\
            <article><p>A long paragraph of article text that tells the story in full sentences. \
            It goes on for a while.</p></article></body></html>";
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let m = PageModel::builtin().unwrap();
        for smooth in [false, true] {
            let opts = ApplyOptions {
                smooth,
                ..ApplyOptions::default()
            };
            let s = score_page(m, &doc, &view, None, None, opts);
            assert_eq!(s.per_node.len(), doc.len());
            assert_eq!(s.nodes[0], doc.body().unwrap());
            let seg = s.segments();
            assert_eq!(seg[0].node, s.nodes[0]);
            for k in 1..s.nodes.len() {
                assert!(doc.contains(s.nodes[s.parent[k] as usize], s.nodes[k]));
                if smooth {
                    assert!(s.smoothed[s.parent[k] as usize] <= s.smoothed[k] + 1e-6);
                }
            }
            assert!(
                s.raw
                    .iter()
                    .chain(&s.smoothed)
                    .all(|v| (0.0..=1.0).contains(v))
            );
        }
    }
}

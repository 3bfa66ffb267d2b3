//! A gradient-boosted ensemble of regression trees for binary labels, trained on feature
//! histograms (the LightGBM / XGBoost-hist scheme) and fully deterministic: every sum is
//! taken in a fixed order, and the optional row and feature sampling of stochastic gradient
//! boosting ([`GbdtParams::subsample`], [`GbdtParams::colsample`]; off by default) draws by
//! hashing the tree's and the row's or feature's numbers, not from a generator, so the same
//! rows give the same model bytes on any machine and thread count.
//!
//! Why our own: the maintained Rust GBDT crates either bind a C++ library (LightGBM,
//! XGBoost), which a fresh machine with only Rust cannot build, or do not promise
//! deterministic training. The method is small: log-loss gradients, one histogram of
//! gradient and hessian sums per feature and node (the larger child's by subtracting the
//! smaller's from its parent), the split with the largest regularised gain, leaves of
//! `-G / (H + λ)` times the learning rate.

use std::sync::OnceLock;

#[cfg(target_arch = "x86_64")]
mod wide;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Training parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GbdtParams {
    /// Trees.
    pub trees: usize,
    /// Depth of each tree (levels of splits).
    pub max_depth: usize,
    /// Shrinkage of every leaf.
    pub learning_rate: f64,
    /// L2 penalty on leaf values (λ).
    pub lambda: f64,
    /// Least hessian sum in a child (guards against leaves fitted to a few rows).
    pub min_child_weight: f64,
    /// Least gain for a split.
    pub min_gain: f64,
    /// Histogram bins per feature, at most 255.
    pub bins: usize,
    /// Share of the rows each tree is grown on (stochastic gradient boosting); 1 grows
    /// every tree on every row. The rows are drawn by a hash of the row's and the tree's
    /// numbers, so the same data and parameters still give the same model.
    pub subsample: f64,
    /// Share of the features each tree may split on, drawn the same way; 1 offers all.
    pub colsample: f64,
}

impl Default for GbdtParams {
    fn default() -> Self {
        GbdtParams {
            trees: 100,
            max_depth: 6,
            learning_rate: 0.2,
            lambda: 1.0,
            min_child_weight: 5.0,
            min_gain: 0.0,
            bins: 64,
            subsample: 1.0,
            colsample: 1.0,
        }
    }
}

/// One tree node, in a flat array: a split (`feature`, `threshold`, children) or a leaf.
///
/// Stored as an object with the split's four fields or the leaf's `value`, and read through
/// `WireNode` in one pass: serde's untagged enums buffer every node and try each variant
/// in turn, which made reading the built-in content model most of `chaff`'s start-up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "WireNode", into = "WireNode")]
pub enum TreeNode {
    /// Rows with `x[feature] < threshold` (and NaN) go to `left`, the others to `right`.
    Split {
        /// Feature index.
        feature: u32,
        /// Split value.
        threshold: f32,
        /// Index of the left child.
        left: u32,
        /// Index of the right child.
        right: u32,
    },
    /// A leaf's contribution to the log-odds.
    Leaf {
        /// The value.
        value: f32,
    },
}

/// A [`TreeNode`] as stored: the split's fields, or the leaf's value, and nothing else.
#[derive(Clone, Copy, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireNode {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    feature: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    threshold: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    left: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    right: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    value: Option<f32>,
}

impl TryFrom<WireNode> for TreeNode {
    type Error = String;

    fn try_from(w: WireNode) -> Result<TreeNode, String> {
        match w {
            WireNode {
                feature: Some(feature),
                threshold: Some(threshold),
                left: Some(left),
                right: Some(right),
                value: None,
            } => Ok(TreeNode::Split {
                feature,
                threshold,
                left,
                right,
            }),
            WireNode {
                feature: None,
                threshold: None,
                left: None,
                right: None,
                value: Some(value),
            } => Ok(TreeNode::Leaf { value }),
            _ => Err(
                "a tree node is a split (feature, threshold, left, right) or a leaf (value)".into(),
            ),
        }
    }
}

impl From<TreeNode> for WireNode {
    fn from(node: TreeNode) -> WireNode {
        match node {
            TreeNode::Split {
                feature,
                threshold,
                left,
                right,
            } => WireNode {
                feature: Some(feature),
                threshold: Some(threshold),
                left: Some(left),
                right: Some(right),
                ..WireNode::default()
            },
            TreeNode::Leaf { value } => WireNode {
                value: Some(value),
                ..WireNode::default()
            },
        }
    }
}

/// A trained ensemble: the log-odds of a row is `base` plus one leaf per tree.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Gbdt {
    /// Features a row must have.
    pub features: usize,
    /// Log-odds before any tree.
    pub base: f32,
    /// The trees, each a flat array rooted at index 0.
    pub trees: Vec<Vec<TreeNode>>,
    /// All trees in one array of plain nodes, built on first use (prediction reads this:
    /// no enum to match, one allocation, nodes of a tree side by side).
    #[serde(skip)]
    flat: OnceLock<Flat>,
}

/// The flat form of the trees: every node in one array, and per tree the number of splits
/// on its longest path from the root.
#[derive(Clone, Debug, Default)]
struct Flat {
    nodes: Vec<FlatNode>,
    depths: Vec<usize>,
    /// The same trees, complete, where they are well formed and shallow enough.
    complete: Option<Complete>,
}

/// Every tree grown out to one depth `d` and stored level by level, as a binary heap: the
/// children of split `i` are `2i + 1` and `2i + 2`, and the `2^d` leaves follow the `2^d - 1`
/// splits. A leaf above depth `d` becomes splits whose every descendant leaf holds its value,
/// so the way down from it does not matter.
///
/// Why: a walk then computes each next index instead of loading it, and a split is 8 bytes
/// rather than 16, so the content model's two ensembles take about 150 KB instead of 315 KB
/// and stay nearer the core. The leaves reached, and the sums, are the flat form's.
#[derive(Clone, Debug)]
struct Complete {
    depth: usize,
    /// Every split's feature is below this ([`Complete::of`] checks it).
    features: usize,
    /// `2^depth - 1` splits per tree, tree after tree.
    splits: Vec<CompleteSplit>,
    /// `2^depth` leaf values per tree, tree after tree.
    leaves: Vec<f32>,
    /// The splits laid out for the sixteen-row walk, where the trees are shallow enough.
    #[cfg(target_arch = "x86_64")]
    wide: Option<wide::Levels>,
}

/// A split of the complete form: rows with `x[feature] >= threshold` go right.
#[derive(Clone, Copy, Debug, Default)]
struct CompleteSplit {
    threshold: f32,
    feature: u32,
}

impl Complete {
    /// Deepest trees grown out (2^10 leaves each); deeper ensembles keep the flat walk.
    const MAX_DEPTH: usize = 10;

    /// The complete form takes at most this many times the flat form's nodes (and a few
    /// more), so a model of sparse deep trees (a user's, or a corrupt one) cannot make it
    /// balloon: the content model's complete form has 1.3 times its nodes.
    const MAX_GROWTH: usize = 4;

    /// The complete form of `trees` (each `depth` deep at most), or `None` when a tree is
    /// malformed (a child that does not lie after its parent and inside its tree, a feature
    /// not below `features`), too deep, or so sparse that growing it out would take more
    /// than [`Complete::MAX_GROWTH`] times its nodes.
    fn of(trees: &[Vec<TreeNode>], depths: &[usize], features: usize) -> Option<Complete> {
        let depth = depths.iter().copied().max().unwrap_or(0);
        if depth > Self::MAX_DEPTH || features == 0 {
            return None;
        }
        let inner = (1usize << depth) - 1;
        let nodes: usize = trees.iter().map(Vec::len).sum();
        if (2 * inner + 1) * trees.len() > Self::MAX_GROWTH * nodes + 4096 {
            return None;
        }
        let mut splits = vec![CompleteSplit::default(); inner * trees.len()];
        let mut leaves = vec![0.0f32; (inner + 1) * trees.len()];
        // (node of the tree, its place in the heap, its level)
        let mut stack: Vec<(usize, usize, usize)> = Vec::new();
        for (t, tree) in trees.iter().enumerate() {
            let splits = &mut splits[t * inner..(t + 1) * inner];
            let leaves = &mut leaves[t * (inner + 1)..(t + 1) * (inner + 1)];
            stack.push((0, 0, 0));
            while let Some((k, at, level)) = stack.pop() {
                match *tree.get(k)? {
                    TreeNode::Leaf { value } if level == depth => leaves[at - inner] = value,
                    TreeNode::Leaf { .. } => {
                        stack.push((k, 2 * at + 1, level + 1));
                        stack.push((k, 2 * at + 2, level + 1));
                    }
                    TreeNode::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => {
                        let (left, right) = (left as usize, right as usize);
                        if level == depth || left <= k || right <= k || feature as usize >= features
                        {
                            return None;
                        }
                        splits[at] = CompleteSplit { threshold, feature };
                        stack.push((left, 2 * at + 1, level + 1));
                        stack.push((right, 2 * at + 2, level + 1));
                    }
                }
            }
        }
        Some(Complete {
            depth,
            features,
            #[cfg(target_arch = "x86_64")]
            wide: wide::Levels::of(depth, &splits),
            splits,
            leaves,
        })
    }

    /// As [`Gbdt::predict_rows`] over one block of at most [`LANES`] rows: the log-odds of
    /// each, `base` plus the leaves in tree order; `None` when the block is empty or a row
    /// is narrower than the trees' features.
    ///
    /// The walk reads splits, row values and leaves without bounds checks: they were half
    /// of its instructions, and this loop is most of the content model's time (unchecked,
    /// 13% fewer instructions over an AEB page's whole extraction and 6% less time). Each
    /// read is in bounds by what [`Complete::of`] built and what this function checks
    /// first; the SAFETY notes say which.
    fn block_margins(&self, base: f32, block: &[&[f32]]) -> Option<[f32; LANES]> {
        if block.is_empty() || block.iter().any(|row| row.len() < self.features) {
            return None;
        }
        let inner = (1usize << self.depth) - 1;
        let mut sums = [base; LANES];
        // Always LANES rows, a fixed number the compiler keeps in registers: a short last
        // block walks its last row again in the lanes it lacks, whose sums are not read.
        let lanes: [&[f32]; LANES] =
            std::array::from_fn(|l| block.get(l).or(block.last()).copied().unwrap_or(&[]));
        // Counted by the leaves: a forest of lone leaves has no splits.
        for (t, leaves) in self.leaves.chunks_exact(inner + 1).enumerate() {
            let splits = &self.splits[t * inner..(t + 1) * inner];
            let mut at = [0usize; LANES];
            for _ in 0..self.depth {
                for l in 0..LANES {
                    // SAFETY: after k of the `depth` steps a lane is at a place of level
                    // k, between 2^k - 1 and 2^(k+1) - 2, so before each step it is below
                    // 2^depth - 1 = inner, the length of `splits`.
                    let s = unsafe { *splits.get_unchecked(at[l]) };
                    // SAFETY: `of` admits only features below `self.features`, the places
                    // it leaves unset hold feature 0 (and `of` refuses features == 0), and
                    // every lane's row (a row of `block`, not empty) was checked above to
                    // be at least `self.features` long.
                    let x = unsafe { *lanes[l].get_unchecked(s.feature as usize) };
                    at[l] = 2 * at[l] + 1 + usize::from(x >= s.threshold);
                }
            }
            for (sum, &k) in sums.iter_mut().zip(&at[..block.len()]) {
                // SAFETY: after `depth` steps a lane is at a place of level `depth`,
                // between inner and 2 * inner, and `leaves` has inner + 1 values.
                *sum += unsafe { *leaves.get_unchecked(k - inner) };
            }
        }
        Some(sums)
    }
}

impl Complete {
    /// The log-odds of one row at least [`Complete::features`] wide (`None` for a narrower
    /// one), [`LANES`] trees walked side by side: each step's place is computed from the
    /// split and the row, not loaded from the node, so the walks wait on fewer loads than
    /// in the flat form. The page-type classifier predicts one row per page with seven
    /// ensembles of 100 trees; in the flat form that was about 7% of the metadata's time
    /// (`perf`). Leaves are added in tree order: the same sum, bit for bit.
    fn row_margin(&self, base: f32, row: &[f32]) -> Option<f32> {
        if row.len() < self.features {
            return None;
        }
        let inner = (1usize << self.depth) - 1;
        let mut sum = base;
        for (group, leaves) in self.leaves.chunks(LANES * (inner + 1)).enumerate() {
            let splits = &self.splits[group * LANES * inner..];
            let trees = leaves.len() / (inner + 1);
            let mut at = [0usize; LANES];
            for _ in 0..self.depth {
                for (l, k) in at[..trees].iter_mut().enumerate() {
                    // In bounds: a place before the last step is below `inner`, and every
                    // split's feature is below `self.features` ([`Complete::of`]).
                    let s = splits[l * inner + *k];
                    *k = 2 * *k + 1 + usize::from(row[s.feature as usize] >= s.threshold);
                }
            }
            for (l, &k) in at[..trees].iter().enumerate() {
                sum += leaves[l * (inner + 1) + k - inner];
            }
        }
        Some(sum)
    }
}

impl PartialEq for Gbdt {
    fn eq(&self, other: &Gbdt) -> bool {
        self.features == other.features && self.base == other.base && self.trees == other.trees
    }
}

/// A node of the flat form: a split on `feature` at `value`, or a leaf of `value` when
/// `feature` is [`FlatNode::LEAF`]; children are absolute indices.
#[derive(Clone, Copy, Debug)]
struct FlatNode {
    feature: u32,
    value: f32,
    left: u32,
    right: u32,
}

impl FlatNode {
    const LEAF: u32 = u32::MAX;
}

/// One step down from node `k` for `row` (missing features read as 0): a leaf leads to
/// itself, and an index outside `nodes` (a malformed tree) stays where it is.
fn step(nodes: &[FlatNode], k: usize, row: &[f32]) -> usize {
    let Some(n) = nodes.get(k) else { return k };
    let x = row.get(n.feature as usize).copied().unwrap_or(0.0);
    (if x >= n.value { n.right } else { n.left }) as usize
}

/// The value of the leaf at `k`, or `None` where a walk ended on no leaf.
fn leaf(nodes: &[FlatNode], k: usize) -> Option<f32> {
    nodes
        .get(k)
        .filter(|n| n.feature == FlatNode::LEAF)
        .map(|n| n.value)
}

impl Gbdt {
    /// An ensemble from its parts.
    pub fn new(features: usize, base: f32, trees: Vec<Vec<TreeNode>>) -> Gbdt {
        Gbdt {
            features,
            base,
            trees,
            flat: OnceLock::new(),
        }
    }

    fn flat(&self) -> &Flat {
        self.flat.get_or_init(|| {
            let mut nodes = Vec::with_capacity(self.trees.iter().map(Vec::len).sum());
            let mut depths = Vec::with_capacity(self.trees.len());
            for tree in &self.trees {
                let at = nodes.len() as u32;
                // A leaf's children are itself, so a walk that reached it stays there.
                nodes.extend(tree.iter().enumerate().map(|(k, node)| match *node {
                    TreeNode::Split {
                        feature,
                        threshold,
                        left,
                        right,
                    } => FlatNode {
                        feature,
                        value: threshold,
                        left: at + left,
                        right: at + right,
                    },
                    TreeNode::Leaf { value } => FlatNode {
                        feature: FlatNode::LEAF,
                        value,
                        left: at + k as u32,
                        right: at + k as u32,
                    },
                }));
                depths.push(tree_depth(tree));
            }
            let complete = Complete::of(&self.trees, &depths, self.features);
            Flat {
                nodes,
                depths,
                complete,
            }
        })
    }

    /// The log-odds of one row (`row.len()` must be [`Gbdt::features`]; missing trailing
    /// features read as 0). A row as wide as the model walks the complete form when there
    /// is one (`Complete::row_margin`), others the flat form; a malformed tree (refused
    /// by [`Gbdt::check`] at load) ends its flat walk on no leaf and adds nothing.
    ///
    /// [`LANES`] trees are walked side by side, a level at a time, as [`Gbdt::predict_rows`]
    /// walks rows: one tree at a time, each step waits on the load before it. The leaves
    /// are added in tree order, so the sum is the same as one tree at a time, bit for bit.
    pub fn margin(&self, row: &[f32]) -> f32 {
        let Flat {
            nodes,
            depths,
            complete,
        } = self.flat();
        if let Some(sum) = complete.as_ref().and_then(|c| c.row_margin(self.base, row)) {
            return sum;
        }
        let mut sum = self.base;
        let mut root = 0usize;
        let mut trees = self.trees.iter().zip(depths);
        loop {
            let (mut at, mut lanes, mut depth) = ([0usize; LANES], 0, 0);
            for (tree, &d) in trees.by_ref().take(LANES) {
                at[lanes] = root;
                root += tree.len();
                depth = depth.max(d);
                lanes += 1;
            }
            if lanes == 0 {
                return sum;
            }
            // `depth` steps take every tree to its leaf; a walk at a leaf stays on it.
            for _ in 0..depth {
                for k in &mut at[..lanes] {
                    *k = step(nodes, *k, row);
                }
            }
            for &k in &at[..lanes] {
                if let Some(v) = leaf(nodes, k) {
                    sum += v;
                }
            }
        }
    }

    /// The probability of the positive class for one row.
    pub fn predict(&self, row: &[f32]) -> f32 {
        sigmoid(self.margin(row))
    }

    /// The probability of the positive class for each row of `rows` (row-major, `width`
    /// features each; a last partial row is ignored), appended to `out`: the same values,
    /// bit for bit, as [`Gbdt::predict`] row by row.
    ///
    /// Why: a walk down a tree is a chain of dependent loads, so one row at a time leaves
    /// the processor waiting on each node. Here [`LANES`] rows walk each tree side by side,
    /// a level at a time, and their loads overlap. Every row still adds its trees' leaves in
    /// tree order, so its sum is the same floating-point sum. Rows at least
    /// [`Gbdt::features`] wide walk the trees' complete form (`Complete`), where the next
    /// split's place is computed rather than loaded: the content model's predictions took
    /// about a quarter less time (13% of a scrapinghub-aeb page's extraction against 17%,
    /// `perf`), the same values. Where the CPU has AVX-512F and the trees are at most six
    /// levels deep, sixteen rows walk eight trees at a time in vector registers instead
    /// (`wide.rs`): the prediction over scrapinghub-aeb's units took 32 ms against 45 ms,
    /// the same values.
    pub fn predict_rows(&self, rows: &[f32], width: usize, out: &mut Vec<f32>) {
        if width == 0 {
            return;
        }
        let Flat {
            nodes,
            depths,
            complete,
        } = self.flat();
        #[cfg(target_arch = "x86_64")]
        if let Some(complete) = complete
            && let Some(levels) = &complete.wide
            && wide::predict_rows(complete, levels, self.base, rows, width, out)
        {
            return;
        }
        let rows: Vec<&[f32]> = rows.chunks_exact(width).collect();
        if let Some(complete) = complete {
            for block in rows.chunks(LANES) {
                // Rows narrower than the model take the flat walk, which reads their
                // missing features as 0.
                match complete.block_margins(self.base, block) {
                    Some(sums) => out.extend(sums[..block.len()].iter().map(|&m| sigmoid(m))),
                    None => self.flat_block(nodes, depths, block, out),
                }
            }
            return;
        }
        for block in rows.chunks(LANES) {
            self.flat_block(nodes, depths, block, out);
        }
    }

    /// The flat form's walk over one block of at most [`LANES`] rows, their predictions
    /// appended to `out`.
    fn flat_block(
        &self,
        nodes: &[FlatNode],
        depths: &[usize],
        block: &[&[f32]],
        out: &mut Vec<f32>,
    ) {
        let mut sums = [self.base; LANES];
        let mut root = 0usize;
        for (tree, &depth) in self.trees.iter().zip(depths) {
            let mut at = [root; LANES];
            // `depth` steps take every row to its leaf; a row at a leaf stays on it.
            for _ in 0..depth {
                for (k, row) in at.iter_mut().zip(block) {
                    *k = step(nodes, *k, row);
                }
            }
            for (sum, &k) in sums.iter_mut().zip(&at[..block.len()]) {
                if let Some(v) = leaf(nodes, k) {
                    *sum += v;
                }
            }
            root += tree.len();
        }
        out.extend(sums[..block.len()].iter().map(|&m| sigmoid(m)));
    }

    /// Checks that every split points inside its tree and names a feature, so a corrupt
    /// model is refused at load rather than misapplied.
    pub fn check(&self) -> Result<(), String> {
        for (t, tree) in self.trees.iter().enumerate() {
            if tree.is_empty() {
                return Err(format!("tree {t} is empty"));
            }
            for (k, node) in tree.iter().enumerate() {
                if let TreeNode::Split {
                    feature,
                    left,
                    right,
                    threshold,
                } = node
                {
                    let child_ok = |c: u32| (c as usize) < tree.len() && c as usize > k;
                    if *feature as usize >= self.features
                        || !child_ok(*left)
                        || !child_ok(*right)
                        || threshold.is_nan()
                    {
                        return Err(format!("tree {t} node {k} is malformed"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The number of splits on the longest path from a tree's root (children lie after their
/// parent, so one pass in index order finds every node's depth).
fn tree_depth(tree: &[TreeNode]) -> usize {
    let mut depth = vec![0usize; tree.len()];
    let mut deepest = 0;
    for (k, node) in tree.iter().enumerate() {
        if let TreeNode::Split { left, right, .. } = *node {
            let d = depth[k] + 1;
            for c in [left, right] {
                if let Some(slot) = depth.get_mut(c as usize).filter(|_| c as usize > k) {
                    *slot = d;
                    deepest = deepest.max(d);
                }
            }
        }
    }
    deepest
}

/// Rows [`Gbdt::predict_rows`] walks side by side.
pub const LANES: usize = 8;

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Training rows (row-major; [`train`] bins them into columns).
pub struct Dataset<'a> {
    /// Row-major features, `features` per row.
    pub rows: &'a [f32],
    /// Features per row.
    pub features: usize,
    /// Labels (true: positive class).
    pub labels: &'a [bool],
    /// Row weights.
    pub weights: &'a [f32],
}

/// Per feature, the ascending cut points: bin of `x` = number of cuts `<= x`.
fn cut_points(data: &Dataset<'_>, bins: usize) -> Vec<Vec<f32>> {
    let n = data.labels.len();
    let step = (n / 20_000).max(1);
    (0..data.features)
        .into_par_iter()
        .map(|f| {
            let mut values: Vec<f32> = (0..n)
                .step_by(step)
                .map(|r| data.rows[r * data.features + f])
                .filter(|v| !v.is_nan())
                .collect();
            values.sort_by(f32::total_cmp);
            values.dedup();
            // A feature with missing values (NaN) gets a bin of its own below every value:
            // its first cut is `f32::MIN`, which every number reaches and NaN does not, so a
            // split can send the missing rows alone to the left (prediction sends NaN left,
            // as `NaN >= t` is false).
            let missing = (0..n).any(|r| data.rows[r * data.features + f].is_nan());
            let mut cuts: Vec<f32> = Vec::with_capacity(bins + 1);
            if missing {
                cuts.push(f32::MIN);
            }
            if values.len() <= bins {
                // Cut between consecutive distinct values.
                cuts.extend(values.windows(2).map(|w| midpoint(w[0], w[1])));
                return cuts;
            }
            cuts.extend((1..bins).map(|b| {
                let k = b * values.len() / bins;
                midpoint(values[k - 1], values[k])
            }));
            cuts.dedup();
            cuts
        })
        .collect()
}

fn midpoint(a: f32, b: f32) -> f32 {
    let m = a + (b - a) / 2.0;
    if m > a { m } else { b }
}

/// Histogram entry: sums of gradient and hessian of the rows in one bin.
#[derive(Clone, Copy, Default)]
struct Bin {
    g: f64,
    h: f64,
}

struct Split {
    feature: usize,
    bin: u8,
    gain: f64,
}

/// Trains an ensemble. Deterministic: the same data and parameters give the same model.
pub fn train(data: &Dataset<'_>, params: &GbdtParams) -> Gbdt {
    let n = data.labels.len();
    let nf = data.features;
    let cuts = cut_points(data, params.bins.clamp(2, 255));
    // Column-major bins.
    let columns: Vec<Vec<u8>> = (0..nf)
        .into_par_iter()
        .map(|f| {
            (0..n)
                .map(|r| {
                    let x = data.rows[r * nf + f];
                    cuts[f].partition_point(|c| *c <= x) as u8
                })
                .collect()
        })
        .collect();
    let wsum: f64 = data.weights.iter().map(|w| f64::from(*w)).sum();
    let pos: f64 = data
        .labels
        .iter()
        .zip(data.weights)
        .filter(|(l, _)| **l)
        .map(|(_, w)| f64::from(*w))
        .sum();
    let prior = (pos / wsum.max(1e-12)).clamp(1e-6, 1.0 - 1e-6);
    let base = (prior / (1.0 - prior)).ln() as f32;
    let mut margin = vec![base; n];
    let mut trees = Vec::with_capacity(params.trees);
    let mut grad = vec![0f64; n];
    let mut hess = vec![0f64; n];
    let grower = Grower {
        columns: &columns,
        cuts: &cuts,
        params,
    };
    let sampled = params.subsample < 1.0;
    for t in 0..params.trees {
        for r in 0..n {
            let p = f64::from(sigmoid(margin[r]));
            let w = f64::from(data.weights[r]);
            let y = if data.labels[r] { 1.0 } else { 0.0 };
            grad[r] = w * (p - y);
            hess[r] = w * (p * (1.0 - p)).max(1e-9);
        }
        let rows: Vec<u32> = (0..n as u32)
            .filter(|&r| !sampled || drawn(t, u64::from(r), params.subsample))
            .collect();
        let offered = offered_features(t, nf, params.colsample);
        let tree = grower.grow(rows, &offered, &grad, &hess, &mut margin);
        if sampled {
            // The rows the tree was not grown on take its leaves too, walked as a model
            // walks them: the next tree's gradients are those of the whole ensemble.
            let alone = Gbdt::new(nf, 0.0, vec![tree.clone()]);
            for (r, m) in margin.iter_mut().enumerate() {
                if !drawn(t, r as u64, params.subsample) {
                    *m += alone.margin(&data.rows[r * nf..(r + 1) * nf]);
                }
            }
        }
        trees.push(tree);
    }
    Gbdt::new(nf, base, trees)
}

/// Whether item `item` is drawn for tree `tree` at rate `rate`: a hash (SplitMix64's
/// finaliser) of the two numbers, so a draw needs no generator state and is the same on
/// every run and thread count.
fn drawn(tree: usize, item: u64, rate: f64) -> bool {
    let mut z = (tree as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(item.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(0x2545_F491_4F6C_DD1D);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    ((z >> 11) as f64) / ((1u64 << 53) as f64) < rate
}

/// The features tree `tree` may split on: every one at rate 1, else those drawn, and the
/// first feature when none is.
fn offered_features(tree: usize, features: usize, rate: f64) -> Vec<bool> {
    if rate >= 1.0 {
        return vec![true; features];
    }
    let mut offered: Vec<bool> = (0..features)
        .map(|f| drawn(tree, (1u64 << 40) | f as u64, rate))
        .collect();
    if !offered.contains(&true)
        && let Some(first) = offered.first_mut()
    {
        *first = true;
    }
    offered
}

/// What growing a tree reads.
struct Grower<'a> {
    columns: &'a [Vec<u8>],
    cuts: &'a [Vec<f32>],
    params: &'a GbdtParams,
}

/// A node waiting to be split: its place in the tree, its rows (a range of `order`), its
/// histogram and depth.
struct Pending {
    index: usize,
    lo: usize,
    hi: usize,
    hist: Vec<Vec<Bin>>,
    depth: usize,
}

impl Grower<'_> {
    /// Grows one tree on `order`'s rows, splitting only on `offered` features, and adds
    /// its leaves to those rows' `margin`.
    fn grow(
        &self,
        mut order: Vec<u32>,
        offered: &[bool],
        grad: &[f64],
        hess: &[f64],
        margin: &mut [f32],
    ) -> Vec<TreeNode> {
        let n = order.len();
        let mut tree = vec![TreeNode::Leaf { value: 0.0 }];
        let root_hist = self.histogram(&order, grad, hess);
        let mut stack = vec![Pending {
            index: 0,
            lo: 0,
            hi: n,
            hist: root_hist,
            depth: 0,
        }];
        while let Some(node) = stack.pop() {
            let (g, h) = totals(&node.hist);
            let split = (node.depth < self.params.max_depth)
                .then(|| self.best_split(&node.hist, offered, g, h))
                .flatten();
            let Some(split) = split else {
                let value = (-g / (h + self.params.lambda) * self.params.learning_rate) as f32;
                tree[node.index] = TreeNode::Leaf { value };
                for &r in &order[node.lo..node.hi] {
                    margin[r as usize] += value;
                }
                continue;
            };
            let column = &self.columns[split.feature];
            let rows = &mut order[node.lo..node.hi];
            let mid = node.lo + partition(rows, |r| column[r as usize] <= split.bin);
            let (left, right) = (tree.len(), tree.len() + 1);
            tree.push(TreeNode::Leaf { value: 0.0 });
            tree.push(TreeNode::Leaf { value: 0.0 });
            tree[node.index] = TreeNode::Split {
                feature: split.feature as u32,
                threshold: self.cuts[split.feature][split.bin as usize],
                left: left as u32,
                right: right as u32,
            };
            let left_small = mid - node.lo <= node.hi - mid;
            let small = if left_small {
                &order[node.lo..mid]
            } else {
                &order[mid..node.hi]
            };
            let small_hist = self.histogram(small, grad, hess);
            let large_hist = subtract(node.hist, &small_hist);
            let (left_hist, right_hist) = if left_small {
                (small_hist, large_hist)
            } else {
                (large_hist, small_hist)
            };
            let depth = node.depth + 1;
            stack.push(Pending {
                index: right,
                lo: mid,
                hi: node.hi,
                hist: right_hist,
                depth,
            });
            stack.push(Pending {
                index: left,
                lo: node.lo,
                hi: mid,
                hist: left_hist,
                depth,
            });
        }
        tree
    }

    /// Gradient and hessian sums per feature and bin over `rows`.
    fn histogram(&self, rows: &[u32], grad: &[f64], hess: &[f64]) -> Vec<Vec<Bin>> {
        self.columns
            .par_iter()
            .zip(self.cuts)
            .map(|(column, cuts)| {
                let mut hist = vec![Bin::default(); cuts.len() + 1];
                for &r in rows {
                    let r = r as usize;
                    let bin = &mut hist[column[r] as usize];
                    bin.g += grad[r];
                    bin.h += hess[r];
                }
                hist
            })
            .collect()
    }

    /// The best split of a node with totals `g`, `h`, if any gains.
    fn best_split(&self, hist: &[Vec<Bin>], offered: &[bool], g: f64, h: f64) -> Option<Split> {
        let lambda = self.params.lambda;
        let min_child = self.params.min_child_weight;
        let parent = g * g / (h + lambda);
        let best = hist
            .par_iter()
            .enumerate()
            .map(|(feature, bins)| {
                let (mut gl, mut hl) = (0.0, 0.0);
                let mut best: Option<Split> = None;
                if !offered.get(feature).copied().unwrap_or(false) {
                    return best;
                }
                for (b, bin) in bins.iter().enumerate().take(bins.len().saturating_sub(1)) {
                    gl += bin.g;
                    hl += bin.h;
                    let (gr, hr) = (g - gl, h - hl);
                    if hl < min_child || hr < min_child {
                        continue;
                    }
                    let gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent;
                    if gain > self.params.min_gain && best.as_ref().is_none_or(|s| gain > s.gain) {
                        best = Some(Split {
                            feature,
                            bin: b as u8,
                            gain,
                        });
                    }
                }
                best
            })
            .collect::<Vec<_>>();
        // Reduce in feature order, so ties always go to the lower feature.
        best.into_iter()
            .flatten()
            .fold(None, |acc: Option<Split>, s| match acc {
                Some(a) if a.gain >= s.gain => Some(a),
                _ => Some(s),
            })
    }
}

fn totals(hist: &[Vec<Bin>]) -> (f64, f64) {
    hist.first().map_or((0.0, 0.0), |bins| {
        bins.iter().fold((0.0, 0.0), |(g, h), b| (g + b.g, h + b.h))
    })
}

fn subtract(mut parent: Vec<Vec<Bin>>, child: &[Vec<Bin>]) -> Vec<Vec<Bin>> {
    for (p, c) in parent.iter_mut().zip(child) {
        for (pb, cb) in p.iter_mut().zip(c) {
            pb.g -= cb.g;
            pb.h -= cb.h;
        }
    }
    parent
}

/// Moves the rows for which `left` holds to the front, keeping both groups in their order
/// (so histograms sum in the same order every run). Returns the size of the front group.
fn partition(rows: &mut [u32], left: impl Fn(u32) -> bool) -> usize {
    let (l, r): (Vec<u32>, Vec<u32>) = rows.iter().partition(|&&x| left(x));
    let mid = l.len();
    rows[..mid].copy_from_slice(&l);
    rows[mid..].copy_from_slice(&r);
    mid
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn fit(rows: &[f32], features: usize, labels: &[bool], params: &GbdtParams) -> Gbdt {
        let weights = vec![1.0; labels.len()];
        train(
            &Dataset {
                rows,
                features,
                labels,
                weights: &weights,
            },
            params,
        )
    }

    #[test]
    fn missing_values_get_a_bin_of_their_own() {
        // Missing: positive; 0 and 1: negative; 2 and 3: positive. The lowest real values
        // and the missing ones must not share a bin, or no stump could tell them apart.
        let xs = [f32::NAN, f32::NAN, 0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0];
        let labels = [
            true, true, false, false, false, false, true, true, true, true,
        ];
        let params = GbdtParams {
            trees: 2,
            max_depth: 2,
            learning_rate: 1.0,
            lambda: 0.0,
            min_child_weight: 0.0,
            ..GbdtParams::default()
        };
        let m = fit(&xs, 1, &labels, &params);
        assert!(m.predict(&[f32::NAN]) > 0.9, "{}", m.predict(&[f32::NAN]));
        assert!(m.predict(&[0.0]) < 0.1);
        assert!(m.predict(&[1.0]) < 0.1);
        assert!(m.predict(&[3.0]) > 0.9);
        // The split that isolates missing values stores f32::MIN, which survives JSON.
        let json = serde_json::to_string(&m).unwrap();
        let back: Gbdt = serde_json::from_str(&json).unwrap();
        assert_eq!(back.predict(&[f32::NAN]), m.predict(&[f32::NAN]));
        // Without missing values the cuts are those of the values alone.
        let full = fit(&xs[2..], 1, &labels[2..], &params);
        assert!(full.predict(&[0.0]) < 0.1 && full.predict(&[2.0]) > 0.9);
    }

    #[test]
    fn one_stump_separates_a_threshold() {
        // x < 5 negative, x >= 5 positive; the second feature is noise-free zero.
        let rows: Vec<f32> = (0..10).flat_map(|x| [x as f32, 0.0]).collect();
        let labels: Vec<bool> = (0..10).map(|x| x >= 5).collect();
        let params = GbdtParams {
            trees: 1,
            max_depth: 1,
            learning_rate: 1.0,
            lambda: 0.0,
            min_child_weight: 0.0,
            ..GbdtParams::default()
        };
        let m = fit(&rows, 2, &labels, &params);
        assert_eq!(m.base, 0.0);
        let TreeNode::Split {
            feature, threshold, ..
        } = m.trees[0][0]
        else {
            panic!("no split: {:?}", m.trees[0]);
        };
        assert_eq!((feature, threshold), (0, 4.5));
        // Leaf = -G/H with p = 0.5: G = 5 * 0.5 = 2.5 (all negative side), H = 5 * 0.25.
        assert_eq!(m.margin(&[0.0, 0.0]), -2.0);
        assert_eq!(m.margin(&[9.0, 0.0]), 2.0);
        m.check().unwrap();
    }

    #[test]
    fn a_stump_on_half_the_rows_by_hand() {
        // Two trees of one split at rate 1 on x < 5 / x >= 5 (ten rows each side), grown
        // on the rows the hash draws. Every row, drawn or not, takes the first tree's leaf,
        // so the second tree's gradients are those of the whole ensemble; were the rows not
        // drawn left at the base margin, the second tree's leaves would differ.
        let rows: Vec<f32> = (0..20).map(|x| (x / 2) as f32).collect();
        let labels: Vec<bool> = (0..20).map(|x| x >= 10).collect();
        let params = GbdtParams {
            trees: 2,
            max_depth: 1,
            learning_rate: 1.0,
            lambda: 0.0,
            min_child_weight: 0.0,
            subsample: 0.5,
            ..GbdtParams::default()
        };
        let m = fit(&rows, 1, &labels, &params);
        let by_hand = |tree: usize, margin: &dyn Fn(usize) -> f64| -> (f64, f64) {
            // Leaves -G/H over the drawn rows of each side, with p = sigmoid(margin).
            let mut sums = [(0.0, 0.0); 2];
            for r in (0..20).filter(|&r| drawn(tree, r as u64, 0.5)) {
                let p = 1.0 / (1.0 + (-margin(r)).exp());
                let y = if labels[r] { 1.0 } else { 0.0 };
                let side = usize::from(rows[r] >= 4.5);
                sums[side].0 += p - y;
                sums[side].1 += p * (1.0 - p);
            }
            (-sums[0].0 / sums[0].1, -sums[1].0 / sums[1].1)
        };
        let (l0, r0) = by_hand(0, &|_| 0.0);
        let first = |r: usize| if rows[r] >= 4.5 { r0 } else { l0 };
        let (l1, r1) = by_hand(1, &first);
        let margin = |x: f32| f64::from(m.margin(&[x]));
        assert!(
            (margin(0.0) - (l0 + l1)).abs() < 1e-4,
            "{} {}",
            margin(0.0),
            l0 + l1
        );
        assert!(
            (margin(9.0) - (r0 + r1)).abs() < 1e-4,
            "{} {}",
            margin(9.0),
            r0 + r1
        );
        // Not every row was drawn for either tree, so the draw mattered.
        for t in 0..2 {
            let n = (0..20).filter(|&r| drawn(t, r as u64, 0.5)).count();
            assert!(0 < n && n < 20, "tree {t}: {n} rows drawn");
        }
    }

    #[test]
    fn draws_are_at_their_rate_and_trees_split_only_on_offered_features() {
        for rate in [0.1, 0.5, 0.8] {
            let n = (0..20_000).filter(|&i| drawn(3, i, rate)).count() as f64;
            assert!((n / 20_000.0 - rate).abs() < 0.02, "rate {rate}: {n}");
        }
        // Different trees draw different rows.
        let a: Vec<bool> = (0..64).map(|i| drawn(0, i, 0.5)).collect();
        let b: Vec<bool> = (0..64).map(|i| drawn(1, i, 0.5)).collect();
        assert_ne!(a, b);
        // Eight informative features; each tree may use about a quarter of them.
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..400u32 {
            let row: Vec<f32> = (0..8).map(|f| ((i >> (f % 4)) & 1) as f32).collect();
            labels.push(row[0] + row[1] + row[2] + row[3] >= 2.0);
            rows.extend(row);
        }
        let params = GbdtParams {
            trees: 12,
            max_depth: 2,
            min_child_weight: 1.0,
            colsample: 0.25,
            ..GbdtParams::default()
        };
        let m = fit(&rows, 8, &labels, &params);
        let mut used = HashSet::new();
        for (t, tree) in m.trees.iter().enumerate() {
            let offered = offered_features(t, 8, 0.25);
            for node in tree {
                if let TreeNode::Split { feature, .. } = node {
                    assert!(offered[*feature as usize], "tree {t} split on {feature}");
                    used.insert(*feature);
                }
            }
        }
        assert!(used.len() > 2, "the trees used {used:?}");
        assert_eq!(m, fit(&rows, 8, &labels, &params), "the same draws twice");
    }

    #[test]
    fn learns_an_interaction_with_depth_two_and_is_deterministic() {
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..200 {
            let (a, b) = ((i % 2) as f32, ((i / 2) % 2) as f32);
            rows.extend([a, b, (i % 7) as f32]);
            labels.push(a > 0.5 && b > 0.5);
        }
        let params = GbdtParams {
            trees: 30,
            max_depth: 2,
            min_child_weight: 1.0,
            ..GbdtParams::default()
        };
        let m = fit(&rows, 3, &labels, &params);
        for (row, label) in rows.chunks(3).zip(&labels) {
            assert_eq!(m.predict(row) > 0.5, *label);
        }
        let again = fit(&rows, 3, &labels, &params);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
    }

    /// One split whose left child is itself and whose right child lies outside the tree.
    fn malformed() -> Gbdt {
        Gbdt::new(
            1,
            0.0,
            vec![vec![TreeNode::Split {
                feature: 0,
                threshold: 1.0,
                left: 0,
                right: 7,
            }]],
        )
    }

    #[test]
    fn malformed_trees_are_refused() {
        let m = malformed();
        // Even unchecked, a malformed tree ends its walk.
        assert_eq!(m.margin(&[2.0]), 0.0);
        assert!(m.check().is_err());
        let m = Gbdt::new(1, 0.0, vec![vec![]]);
        assert!(m.check().is_err());
    }

    /// A chain of splits ten deep, each with a leaf on its left: 21 nodes, where the complete
    /// form would take 2,047 a tree.
    fn chain(depth: u32) -> Vec<TreeNode> {
        let mut tree = Vec::new();
        for level in 0..depth {
            let at = tree.len() as u32;
            tree.push(TreeNode::Split {
                feature: 0,
                threshold: level as f32,
                left: at + 1,
                right: at + 2,
            });
            tree.push(TreeNode::Leaf {
                value: level as f32,
            });
        }
        tree.push(TreeNode::Leaf { value: -1.0 });
        tree
    }

    #[test]
    fn sparse_deep_trees_keep_the_flat_walk() {
        let few = Gbdt::new(1, 0.0, vec![chain(10)]);
        assert!(few.flat().complete.is_some(), "small enough to grow out");
        let many = Gbdt::new(1, 0.0, vec![chain(10); 64]);
        assert!(
            many.flat().complete.is_none(),
            "64 chains would grow 98 times"
        );
        let deep = Gbdt::new(1, 0.0, vec![chain(11)]);
        assert!(
            deep.flat().complete.is_none(),
            "deeper than the complete form goes"
        );
        // Either way, the same predictions: x0 = 4.5 leaves the chain at level 5.
        for m in [&few, &many, &deep] {
            let mut out = Vec::new();
            m.predict_rows(&[4.5], 1, &mut out);
            let want = m.trees.len() as f32 * 5.0;
            assert_eq!(out, vec![sigmoid(want)]);
        }
    }

    #[test]
    fn the_unchecked_walk_refuses_an_empty_block_and_narrow_rows() {
        // Three features; the chain splits on feature 0 only, but rows must be as wide as
        // the model says before the walk reads them unchecked.
        let m = Gbdt::new(3, 0.0, vec![chain(4)]);
        let complete = m.flat().complete.as_ref().expect("grown out");
        assert!(complete.block_margins(0.0, &[]).is_none());
        let wide = [2.5f32, 0.0, 0.0];
        let narrow = [2.5f32, 0.0];
        assert!(complete.block_margins(0.0, &[&wide, &narrow]).is_none());
        let sums = complete.block_margins(0.0, &[&wide, &wide]).unwrap();
        assert_eq!(
            &sums[..2],
            &[3.0, 3.0],
            "x0 = 2.5 leaves the chain at level 3"
        );
        // A model of three features given rows of two takes the flat walk.
        let mut out = Vec::new();
        m.predict_rows(&narrow, 2, &mut out);
        assert_eq!(out, vec![sigmoid(3.0)]);
    }

    #[test]
    fn nodes_are_stored_as_their_fields_and_a_mixed_node_is_refused() {
        let split = TreeNode::Split {
            feature: 3,
            threshold: 0.5,
            left: 1,
            right: 2,
        };
        let leaf = TreeNode::Leaf { value: -0.25 };
        let text = serde_json::to_string(&[split, leaf]).unwrap();
        assert_eq!(
            text,
            r#"[{"feature":3,"threshold":0.5,"left":1,"right":2},{"value":-0.25}]"#
        );
        let back: Vec<TreeNode> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, vec![split, leaf]);
        for bad in [
            r#"{"feature":3,"threshold":0.5,"left":1}"#,
            r#"{"feature":3,"threshold":0.5,"left":1,"right":2,"value":1.0}"#,
            r#"{"value":1.0,"weight":2}"#,
            r#"{}"#,
        ] {
            assert!(serde_json::from_str::<TreeNode>(bad).is_err(), "{bad}");
        }
    }

    /// Tree 1: x0 < 1 is a leaf of 1; else x1 < 5 gives 2, else 3 (depth 2). Tree 2: a
    /// leaf of 10 (depth 0). NaN goes left.
    #[test]
    fn rows_side_by_side_by_hand() {
        let t1 = vec![
            TreeNode::Split {
                feature: 0,
                threshold: 1.0,
                left: 1,
                right: 2,
            },
            TreeNode::Leaf { value: 1.0 },
            TreeNode::Split {
                feature: 1,
                threshold: 5.0,
                left: 3,
                right: 4,
            },
            TreeNode::Leaf { value: 2.0 },
            TreeNode::Leaf { value: 3.0 },
        ];
        let t2 = vec![TreeNode::Leaf { value: 10.0 }];
        assert_eq!((tree_depth(&t1), tree_depth(&t2)), (2, 0));
        let m = Gbdt::new(2, -0.5, vec![t1, t2]);
        let rows = [0.0, 9.0, 2.0, 1.0, 2.0, 7.0, f32::NAN, 9.0, 3.0, f32::NAN];
        let mut out = Vec::new();
        m.predict_rows(&rows, 2, &mut out);
        let want: Vec<f32> = [11.0, 12.0, 13.0, 11.0, 12.0]
            .iter()
            .map(|v| sigmoid(v - 0.5))
            .collect();
        assert_eq!(out, want);
        // A last partial row is not read; no width, no rows.
        m.predict_rows(&rows[..3], 2, &mut out);
        assert_eq!(out.len(), 6);
        m.predict_rows(&rows, 0, &mut out);
        assert_eq!(out.len(), 6);
        // A malformed tree adds nothing, as one row at a time.
        let bad = malformed();
        let mut out = Vec::new();
        bad.predict_rows(&[2.0, 0.5], 1, &mut out);
        assert_eq!(out, vec![bad.predict(&[2.0]), bad.predict(&[0.5])]);
    }

    /// A random valid tree over `features` features from `seed`: nodes split while the
    /// generator says so, at most `max_depth` levels deep, children after their parent.
    fn random_tree(seed: u64, features: u32, max_depth: usize) -> Vec<TreeNode> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut tree = vec![TreeNode::Leaf { value: 0.0 }];
        let mut open = vec![(0usize, 0usize)];
        while let Some((k, depth)) = open.pop() {
            if depth < max_depth && next() % 3 != 0 {
                let (left, right) = (tree.len(), tree.len() + 1);
                tree.push(TreeNode::Leaf { value: 0.0 });
                tree.push(TreeNode::Leaf { value: 0.0 });
                tree[k] = TreeNode::Split {
                    feature: (next() % u64::from(features)) as u32,
                    threshold: (next() % 21) as f32 / 2.0 - 5.0,
                    left: left as u32,
                    right: right as u32,
                };
                open.push((left, depth + 1));
                open.push((right, depth + 1));
            } else {
                tree[k] = TreeNode::Leaf {
                    value: (next() % 2001) as f32 / 1000.0 - 1.0,
                };
            }
        }
        tree
    }

    /// One tree at a time, each from its root to its leaf: what [`Gbdt::margin`] must sum.
    fn margin_tree_by_tree(m: &Gbdt, row: &[f32]) -> f32 {
        let mut sum = m.base;
        for tree in &m.trees {
            let mut k = 0usize;
            while let Some(TreeNode::Split {
                feature,
                threshold,
                left,
                right,
            }) = tree.get(k)
            {
                let x = row.get(*feature as usize).copied().unwrap_or(0.0);
                k = if x >= *threshold { *right } else { *left } as usize;
            }
            if let Some(TreeNode::Leaf { value }) = tree.get(k) {
                sum += value;
            }
        }
        sum
    }

    use proptest::prelude::*;

    /// A row's value for the property tests: tenths from -6 to 6, or missing.
    fn cell() -> impl Strategy<Value = f32> {
        prop_oneof![(-60i32..60).prop_map(|v| v as f32 / 10.0), Just(f32::NAN)]
    }

    proptest! {
        /// Trees walked side by side sum to the walk one tree at a time, bit for bit.
        #[test]
        fn trees_side_by_side_sum_as_one_at_a_time(
            seeds in proptest::collection::vec(any::<u64>(), 1..30),
            row in proptest::collection::vec(
                cell(),
                0..6,
            ),
        ) {
            let trees = seeds.iter().map(|&s| random_tree(s, 6, 6)).collect();
            let m = Gbdt::new(6, 0.25, trees);
            prop_assert!(m.check().is_ok());
            prop_assert_eq!(m.margin(&row).to_bits(), margin_tree_by_tree(&m, &row).to_bits());
        }

        /// A row as wide as the model (the complete form's walk) sums as the trees one at
        /// a time too, bit for bit, and a forest of lone leaves as well.
        #[test]
        fn a_full_row_sums_as_one_tree_at_a_time(
            seeds in proptest::collection::vec(any::<u64>(), 0..30),
            row in proptest::collection::vec(
                cell(),
                6,
            ),
            depth in 0usize..6,
        ) {
            let trees = seeds.iter().map(|&s| random_tree(s, 6, depth)).collect();
            let m = Gbdt::new(6, 0.25, trees);
            prop_assert!(m.check().is_ok());
            prop_assert!(m.flat().complete.is_some());
            prop_assert_eq!(m.margin(&row).to_bits(), margin_tree_by_tree(&m, &row).to_bits());
        }

        /// Rows walked side by side, in the complete form or the flat one, give each row's
        /// probability as [`Gbdt::predict`] (the flat form, trees side by side) does, bit
        /// for bit.
        #[test]
        fn side_by_side_is_row_by_row(
            seeds in proptest::collection::vec(any::<u64>(), 1..12),
            cells in proptest::collection::vec(
                cell(),
                0..200,
            ),
            width in 1usize..6,
            short in any::<bool>(),
        ) {
            // Rows as wide as the model walk its complete form; rows a feature short, the
            // flat one (the missing feature reads as 0).
            let features = width + usize::from(short);
            let trees = seeds.iter().map(|&s| random_tree(s, features as u32, 6)).collect();
            let m = Gbdt::new(features, 0.25, trees);
            prop_assert_eq!(m.flat().complete.is_some(), true);
            prop_assert!(m.check().is_ok());
            let mut out = Vec::new();
            m.predict_rows(&cells, width, &mut out);
            let want: Vec<f32> = cells.chunks_exact(width).map(|r| m.predict(r)).collect();
            prop_assert_eq!(
                out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }

        /// The sixteen-row AVX-512 walk gives the scalar complete walk's probabilities, bit
        /// for bit: trees one to six levels deep, blocks of sixteen and a short last one,
        /// missing values, rows wider than the trees' features.
        #[cfg(target_arch = "x86_64")]
        #[test]
        fn the_wide_walk_is_the_scalar_walk(
            seeds in proptest::collection::vec(any::<u64>(), 1..40),
            cells in proptest::collection::vec(
                cell(),
                0..400,
            ),
            features in 1u32..7,
            extra in 0usize..3,
            depth in 1usize..=6,
        ) {
            if !wide::available() {
                eprintln!("skipped: this machine has no AVX-512F, so the wide walk never runs");
                return Ok(());
            }
            let trees = seeds.iter().map(|&s| random_tree(s, features, depth)).collect();
            let m = Gbdt::new(features as usize, 0.25, trees);
            prop_assert!(m.check().is_ok());
            let complete = m.flat().complete.as_ref().expect("shallow trees grow out");
            // Trees of lone leaves have no split to walk, and no wide form.
            prop_assert_eq!(complete.wide.is_some(), complete.depth > 0);
            let Some(levels) = complete.wide.as_ref() else { return Ok(()) };
            let width = features as usize + extra;
            let mut wide_out = Vec::new();
            prop_assert!(wide::predict_rows(complete, levels, m.base, &cells, width, &mut wide_out));
            let mut scalar = Vec::new();
            for block in cells.chunks_exact(width).collect::<Vec<_>>().chunks(LANES) {
                let sums = complete.block_margins(m.base, block).expect("rows wide enough");
                scalar.extend(sums[..block.len()].iter().map(|&s| sigmoid(s)));
            }
            prop_assert_eq!(wide_out.len(), cells.len() / width);
            prop_assert_eq!(
                wide_out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                scalar.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }
    }

    /// Trees deeper than the wide walk's six levels keep the scalar walk.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn seven_levels_have_no_wide_form() {
        let mut tree = Vec::new();
        for k in 0..7u32 {
            // Split k at index 2k, its right leaf at 2k + 1, the next split at 2k + 2.
            tree.push(TreeNode::Split {
                feature: k % 3,
                threshold: 0.5,
                left: 2 * k + 2,
                right: 2 * k + 1,
            });
            tree.push(TreeNode::Leaf { value: k as f32 });
        }
        tree.push(TreeNode::Leaf { value: 7.0 });
        let m = Gbdt::new(3, 0.0, vec![tree]);
        assert!(m.check().is_ok());
        let complete = m.flat().complete.as_ref().expect("seven levels grow out");
        assert_eq!(complete.depth, 7);
        assert!(complete.wide.is_none());
    }
}

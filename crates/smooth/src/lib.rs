//! `chaff-smooth`: regularised tree isotonic smoothing, after Chakrabarti, Kumar & Punera,
//! "Page-level template detection via isotonic smoothing" (WWW 2007), section 4 and 5.3.
//!
//! What it is for: a scorer (any method) gives every node of a rooted tree a templateness
//! score in `[0, 1]`; smoothing replaces those scores by the closest scores (L1) that are
//! monotone down the tree — a parent is never more of a template than any of its children
//! ("a node is a template iff all its children are") — while paying a penalty for each
//! place where the score changes. The nodes where it changes are the page's *segments*.
//!
//! What it must not know: HTML, the DOM, features, classifiers, profiles, files. It sees a
//! tree as a parent array in depth-first pre-order (`parent[i] < i`, root 0, the subtree of
//! `i` is a contiguous range starting at `i`; `parent[0]` is not read), a score and a size
//! per node. `chaff_dom` node ids are such an order.
//!
//! # The problem (section 4)
//!
//! Given observed scores `x(i)` with multiplicities `m(i)` and penalties `γ(i) ≥ 0`, find
//! `y` with
//!
//! * (1) `y(parent(i)) ≤ y(i)` for every non-root node (paper: "the templateness score of a
//!   node is at most the least of its children's scores");
//! * minimal `c(y) = Σ_{i ∈ ŷ} γ(i) + Σ_i m(i)·|x(i) − y(i)|`, where `ŷ` — the paper's
//!   *compressed score* — is the set of nodes where `y` is defined anew: the root and every
//!   node whose value differs from its parent's. "Compressed" is the paper's name for this
//!   sectioning of the tree, not a quantisation of the scores; nothing is quantised here.
//!
//! Section 5.3 fixes the instance for pages: a node smaller than 2,000 (square pixels) is
//! *hidden*: not scored, not smoothed, rolled into its parent, which then counts once more
//! (`m = k + 1` for `k` hidden nodes) — [`contract`] does this, rolling every hidden node into
//! its nearest visible ancestor; and `γ(i) = c · A / A(i)` with `c = 0.01`, `A(i)` the node's
//! area and `A` the page's (the root's). [`SmoothConfig::PAPER`] holds these defaults; the
//! caller chooses what "size" measures (rendered area, or a text+media extent). The two
//! other penalties the paper tried (`c·N/N(i)` by subtree node counts, `c·A(parent)/A(i)`)
//! are [`Penalty`] variants, for experiments like its Figures 2 and 3.
//!
//! # Algorithms (both exact)
//!
//! Lemma 3 of the paper: some optimal `y` takes only observed values. So every function
//! below lives on the *candidate grid* `v_0 < … < v_{K−1}` of the distinct observed scores,
//! and both algorithms are exact for it — which by Lemma 3 means exact for the problem.
//!
//! For node `i` and a value `v` of the node itself, and `p` of its parent:
//!
//! * `S_i(v) = m(i)·|x(i) − v| + Σ_{c child of i} E_c(v)` — the subtree's best cost when
//!   `y(i) = v` and `i` opens no segment;
//! * `E_i(p) = min(S_i(p), γ(i) + min_{v > p} S_i(v))` — stay in the parent's segment, or
//!   open one at a larger value (the paper's `err(i, p)`, its `err0` being `γ(i) + S_i`);
//! * the optimum is `γ(root) + min_v S_root(v)`; a top-down pass replays the choices.
//!
//! [`solve_naive`] is the dynamic programme as printed (`BuildError`, `IsotoneSmooth`): tables
//! `err(i, j)` and `val(i, j)` over all pairs of nodes, `O(n²)` time and memory (step 4 walks
//! the candidates presorted by value rather than through a heap). It is the reference; it
//! refuses trees above [`NAIVE_MAX_NODES`].
//!
//! [`solve`] (the default, used by [`smooth`]) computes the same functions, but stores each
//! `E_i` sparsely: as the grid indices where it bends, the function being linear *in the
//! value* `v` between them. Sums of such functions are such functions (merge the bend
//! lists); on a piece `(a, b)` where `S_i` is linear, `min_{u > t} S_i(u)` matters only through
//! `M = min_{u ≥ b} S_i(u)` (a linear piece beats itself), so `E_i` there is `S_i` clipped at
//! the level `γ(i) + M`: at most two new bends, at the grid points either side of the
//! crossing (found by binary search). One right-to-left sweep per node does it, and records
//! for which parent values the node opens a segment, and at which value. The children's
//! bend lists sit contiguously on one stack (pre-order makes siblings' lists adjacent), so a
//! node's merge is a stable sort of sorted runs.
//!
//! Time is `O(Σ_i |S_i|)` plus the sorts, where `|S_i|` is the number of bends of `S_i`: at
//! most the children's bends plus one, and at most the grid size `K`. So it is never worse
//! than the dense `O(n·K)` programme (and the naive `O(n²)`), and is `O(n · depth)` when
//! bends stay near the subtree's size, as they do on pages; clipping removes more. Memory is
//! `O(n + max_i |S_i| + Σ_i clips(i))`. Measured (`cargo bench -p chaff-smooth`, see the
//! bench for the tree shapes): 50,000-node page-shaped trees (30-40 levels) smooth in about
//! 40 ms of CPU; the worst shape is a long path with all scores distinct, where half the grid
//! stays bent at every level and time grows as `n²` (10,000 nodes: 0.5 s; 100,000: about a
//! minute). Pages are at most 512 deep once `chaff_dom` has flattened them, which caps
//! `Σ |S_i|` at `512 · n`: 50,000 distinct scores under a 512-deep chain take 0.5-0.9 s. A
//! path with few distinct scores (100,000 nodes, 5 scores) is instant.
//!
//! Floating point: bends are exact grid indices and values carry rounding only; the reported
//! cost is recomputed from the returned `y` (see [`objective`]).
//!
//! # Deviations and readings
//!
//! * The printed `BuildError` treats the root like other nodes but with `err(root, j) =
//!   min_{x(k) > x(j)} err0(k)`, and `IsotoneSmooth` then takes the best *index* `j` as the
//!   root's value: read literally the root could never take the smallest score. Both
//!   algorithms use `min_k err0(k)` at the root, which is what the text describes.
//! * Penalties may be `+∞` (a node of size 0 never opens a segment); the algorithms compare
//!   `S_i(p)` with `γ + …` rather than computing `err0 − γ`, so `∞ − ∞` never arises.
//! * A multiplicity of 0 (low-level [`Problem`] only) means the node carries no score: it is
//!   still constrained and may open segments, but its score is not read. The candidate grid
//!   is made of observed scores only; Lemma 3 holds for it (a segment's value moves to a
//!   weighted median of its observed members).
//! * Scores must be finite and in `[0, 1]` (the paper's `x : T → [0, 1]`); anything else is an
//!   error, not clamped. Scores of hidden nodes are not read.
//! * Ties (equal cost) favour staying in the parent's segment in [`solve`]; [`solve_naive`]
//!   breaks them as printed. Both return an optimum; the two may differ on tied instances.

mod fast;
mod naive;
mod tree;

pub use fast::solve;
pub use naive::{NAIVE_MAX_NODES, solve_naive};
pub use tree::{Contracted, contract, objective, segments};

/// Why a tree, its scores or the configuration cannot be smoothed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SmoothError {
    /// An input vector does not have one entry per node.
    #[error("{what} has {got} entries, the tree has {nodes} nodes")]
    LengthMismatch {
        /// Which input.
        what: &'static str,
        /// Nodes in the tree.
        nodes: usize,
        /// Entries given.
        got: usize,
    },
    /// More nodes than `u32` ids can number.
    #[error("the tree has {0} nodes, more than node ids (u32) can number")]
    TooManyNodes(usize),
    /// The parent array is not a depth-first pre-order.
    #[error(
        "node {node} has parent {parent}, which is not an ancestor of node {prev} (the ids are not a depth-first pre-order)"
    )]
    NotPreorder {
        /// The node.
        node: usize,
        /// Its parent.
        parent: u32,
        /// The node before it.
        prev: usize,
    },
    /// A score outside `[0, 1]`.
    #[error("node {node} has score {score}, outside [0, 1]")]
    BadScore {
        /// The node.
        node: usize,
        /// Its score.
        score: f32,
    },
    /// A negative or non-finite size.
    #[error("node {node} has size {size}; sizes must be finite and non-negative")]
    BadSize {
        /// The node.
        node: usize,
        /// Its size.
        size: f64,
    },
    /// A negative penalty.
    #[error("node {node} has penalty {penalty}; penalties must be non-negative (∞ allowed)")]
    BadPenalty {
        /// The node.
        node: usize,
        /// Its penalty.
        penalty: f64,
    },
    /// No node carries a score.
    #[error("no node carries a score (every multiplicity is 0)")]
    NothingObserved,
    /// A configuration value out of range.
    #[error("invalid configuration: {0}")]
    BadConfig(&'static str),
    /// The quadratic reference algorithm was given too large a tree.
    #[error(
        "the naive algorithm needs O(n²) memory and is limited to {max} nodes; this tree has {nodes}"
    )]
    NaiveTooLarge {
        /// Nodes in the tree.
        nodes: usize,
        /// The limit.
        max: usize,
    },
    /// A solution is not monotone on the tree.
    #[error("node {node} has value {value} below its parent's {parent_value}")]
    Infeasible {
        /// The node.
        node: usize,
        /// Its value.
        value: f32,
        /// Its parent's value.
        parent_value: f32,
    },
}

/// A smoothing problem as the algorithms see it: a pre-order tree whose every node carries
/// its own score, multiplicity and penalty (hidden nodes already rolled in; see [`contract`]).
#[derive(Debug, Clone, Copy)]
pub struct Problem<'a> {
    /// `parent[i] < i` for `i > 0`, depth-first pre-order; `parent[0]` is not read.
    pub parent: &'a [u32],
    /// Observed score `x(i)` in `[0, 1]`; not read where `multiplicity[i] == 0`.
    pub score: &'a [f32],
    /// How many times `x(i)` counts in the L1 distance (`k + 1` with `k` hidden nodes).
    pub multiplicity: &'a [u32],
    /// `γ(i) ≥ 0`, paid when node `i` opens a segment (always paid by the root); may be `+∞`.
    pub penalty: &'a [f64],
}

/// An optimal solution of a [`Problem`].
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// `y(i)` per node: monotone (`y(parent) ≤ y(child)`), each an observed score.
    pub value: Vec<f32>,
    /// `c(y)`: penalties of the segment roots (root included) plus the weighted L1 distance.
    pub cost: f64,
}

/// Parameters of [`smooth`]; [`SmoothConfig::PAPER`] (the `Default`) holds section 5.3's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SmoothConfig {
    /// `c` in `γ(i) = c · A / A(i)`.
    pub c: f64,
    /// Non-root nodes with `size < min_size` are hidden (rolled into their nearest visible
    /// ancestor with multiplicity). The paper's 2,000 is in square pixels; 0 hides nothing.
    pub min_size: f64,
    /// Which of section 5.3's penalty functions multiplies `c`.
    pub penalty: Penalty,
}

/// The penalty functions section 5.3 tried; the paper settled on [`Penalty::AreaRatio`].
/// Counts and sizes are those of the input tree (hidden nodes included). A ratio `a / b`
/// with `b = 0` is `+∞` (the node never opens a segment), or 1 when `a = 0` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Penalty {
    /// `γ(i) = c · A / A(i)`: the page's size over the node's (the paper's choice).
    #[default]
    AreaRatio,
    /// `γ(i) = c · N / N(i)`: the number of nodes over the number in `i`'s subtree.
    SubtreeNodeRatio,
    /// `γ(i) = c · A(parent(i)) / A(i)`: hard to split off a child that fills its parent
    /// (`c` at the root).
    ParentAreaRatio,
}

impl SmoothConfig {
    /// Section 5.3: `γ(i) = 0.01 · A / A(i)`, nodes under 2,000 square pixels hidden.
    pub const PAPER: SmoothConfig = SmoothConfig {
        c: 0.01,
        min_size: 2000.0,
        penalty: Penalty::AreaRatio,
    };
}

impl Default for SmoothConfig {
    fn default() -> Self {
        Self::PAPER
    }
}

/// A page's tree as the caller has it: every node, with its score and size.
#[derive(Debug, Clone, Copy)]
pub struct SmoothInput<'a> {
    /// `parent[i] < i` for `i > 0`, depth-first pre-order; `parent[0]` is not read.
    pub parent: &'a [u32],
    /// Templateness in `[0, 1]` per node; read only for visible nodes (hidden ones may hold
    /// anything, e.g. NaN when they were not scored).
    pub score: &'a [f32],
    /// Size per node (area, or text+media extent), finite and `≥ 0`; `size[0]` is `A`.
    pub size: &'a [f64],
}

/// The smoothed tree: a value per node and the segments they form.
#[derive(Debug, Clone, PartialEq)]
pub struct Smoothed {
    /// Smoothed templateness per node of the input tree (hidden nodes get the value of the
    /// visible node they were rolled into).
    pub value: Vec<f32>,
    /// `c(y)` of the contracted problem (the paper's objective).
    pub cost: f64,
    /// Segment roots in pre-order: the root and every node whose value differs from its
    /// parent's. A segment is a root's subtree minus the subtrees of deeper segment roots;
    /// its templateness is `value[root]`.
    pub segments: Vec<u32>,
    /// Per node, the segment root it belongs to (its nearest ancestor-or-self in `segments`).
    pub segment_of: Vec<u32>,
}

impl Smoothed {
    /// `(segment root, templateness)` pairs in pre-order, as `chaff segment` prints them.
    pub fn segment_values(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.segments.iter().map(|&s| {
            let v = self.value.get(s as usize).copied().unwrap_or(f32::NAN);
            (s, v)
        })
    }
}

/// Smooths a page's scores with section 5.3's instance (hiding, `γ(i) = c·A/A(i)`) and the
/// fast exact algorithm [`solve`].
pub fn smooth(input: &SmoothInput<'_>, config: &SmoothConfig) -> Result<Smoothed, SmoothError> {
    smooth_with(input, config, solve)
}

/// As [`smooth`], with the paper's `O(n²)` dynamic programme [`solve_naive`] (reference).
pub fn smooth_naive(
    input: &SmoothInput<'_>,
    config: &SmoothConfig,
) -> Result<Smoothed, SmoothError> {
    smooth_with(input, config, solve_naive)
}

fn smooth_with(
    input: &SmoothInput<'_>,
    config: &SmoothConfig,
    solver: fn(&Problem<'_>) -> Result<Solution, SmoothError>,
) -> Result<Smoothed, SmoothError> {
    let contracted = contract(input, config)?;
    let solution = solver(&contracted.problem())?;
    let value: Vec<f32> = contracted
        .owner
        .iter()
        .map(|&o| solution.value.get(o as usize).copied().unwrap_or(f32::NAN))
        .collect();
    let (segments, segment_of) = segments(input.parent, &value);
    Ok(Smoothed {
        value,
        cost: solution.cost,
        segments,
        segment_of,
    })
}

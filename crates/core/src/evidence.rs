//! Evidence: what one method says about one page, and how sure it is that it has anything
//! to say.
//!
//! Methods measure different things. A suffix model knows which share of a text node its
//! expressions matched; an alignment model how well a node's tokens aligned to the site's
//! template; FOREST whether a node lies inside its wrapper; the page-level classifier a
//! probability. [`Evidence`] keeps each method's per-node scores together with the
//! [`Meaning`] of those scores and the nodes the method covers, so a fuser can weigh them
//! instead of taking the maximum of numbers that mean different things. A method with
//! nothing to say answers [`Verdict::Abstain`] with its reason: a FOREST wrapper that matches
//! nothing on a page abstains instead of declaring the whole page template.

use chaff_dom::NodeId;

use crate::{Labels, Role};

/// What a method's per-node score measures. Every score is in `[0, 1]`, higher meaning
/// more template-like, but the scales differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    /// A calibrated probability that the node is template (the page-level classifier).
    Probability,
    /// The share of the node's text or tokens matched by the site's template (suffix
    /// expressions, aligned template tokens).
    Share,
    /// Membership, 0 or 1: inside or outside a region the method found (FOREST's wrapper,
    /// the main menu, a subtree repeated across the site).
    Membership,
}

/// One method's evidence about one page: a score and a proposed role for every node, the
/// nodes the method covers, and cuts inside text nodes for methods that work on strings.
///
/// Invariant: the labels cover the whole document; `covered` is `None` (every node) or has
/// one entry per node.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    labels: Labels,
    covered: Option<Vec<bool>>,
    meaning: Meaning,
    note: Option<String>,
}

impl Evidence {
    /// Evidence about every node of the page.
    pub fn new(labels: Labels, meaning: Meaning) -> Evidence {
        Evidence {
            labels,
            covered: None,
            meaning,
            note: None,
        }
    }

    /// Evidence about the nodes marked in `covered` only; the others carry no opinion.
    ///
    /// # Panics
    /// If `covered` and the labels differ in length (a programming error).
    pub fn partial(labels: Labels, covered: Vec<bool>, meaning: Meaning) -> Evidence {
        assert_eq!(labels.len(), covered.len(), "evidence: coverage length");
        Evidence {
            labels,
            covered: Some(covered),
            meaning,
            note: None,
        }
    }

    /// The same evidence with a warning attached: something the method noticed that a user
    /// should hear of (a step that failed and what was used instead).
    pub fn with_note(mut self, note: impl Into<String>) -> Evidence {
        self.note = Some(note.into());
        self
    }

    /// The warning attached, if any.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The method's labels: the role it proposes and its score for every node.
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// The labels, taken out.
    pub fn into_labels(self) -> Labels {
        self.labels
    }

    /// What the scores measure.
    pub fn meaning(&self) -> Meaning {
        self.meaning
    }

    /// Whether the method has an opinion on this node.
    pub fn covers(&self, id: NodeId) -> bool {
        self.covered.as_ref().is_none_or(|c| c[id.index()])
    }

    /// The node's score when the method covers it.
    pub fn score(&self, id: NodeId) -> Option<f32> {
        self.covers(id).then(|| self.labels.score(id))
    }

    /// The role the method proposes for the node when it covers it.
    pub fn role(&self, id: NodeId) -> Option<Role> {
        self.covers(id).then(|| self.labels.role(id))
    }

    /// How many nodes the method covers.
    pub fn covered_count(&self) -> usize {
        match &self.covered {
            None => self.labels.len(),
            Some(c) => c.iter().filter(|&&b| b).count(),
        }
    }
}

/// A method's answer for one page.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Per-node evidence.
    Evidence(Evidence),
    /// No opinion on this page, and why (no model for the site, a wrapper that matches
    /// nothing, a page too small to judge...).
    Abstain(String),
}

impl Verdict {
    /// The evidence, unless the method abstained.
    pub fn evidence(&self) -> Option<&Evidence> {
        match self {
            Verdict::Evidence(e) => Some(e),
            Verdict::Abstain(_) => None,
        }
    }

    /// Why the method abstained, if it did.
    pub fn abstained(&self) -> Option<&str> {
        match self {
            Verdict::Evidence(_) => None,
            Verdict::Abstain(why) => Some(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_hides_scores_outside_it() {
        let labels = Labels::from_parts(
            vec![0.2, 0.9, 0.4],
            vec![Role::Content, Role::Template, Role::Content],
        );
        let e = Evidence::partial(labels.clone(), vec![true, false, true], Meaning::Share);
        assert_eq!(e.score(NodeId(0)), Some(0.2));
        assert_eq!(e.score(NodeId(1)), None);
        assert_eq!(e.role(NodeId(1)), None);
        assert_eq!(e.covered_count(), 2);
        let all = Evidence::new(labels, Meaning::Probability);
        assert_eq!(all.role(NodeId(1)), Some(Role::Template));
        assert_eq!(all.covered_count(), 3);
        let v = Verdict::Abstain("nothing matched".into());
        assert_eq!(v.abstained(), Some("nothing matched"));
        assert!(v.evidence().is_none());
    }
}

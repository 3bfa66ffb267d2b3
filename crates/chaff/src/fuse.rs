//! Fusion: every method's evidence about a page in, one set of labels and a confidence out.
//!
//! The [`Fuser`] trait is the seam a learned model plugs into. [`UnionFuser`], the default:
//! with site evidence, a page-level model that read it (the content model, whose inputs
//! include the suffix, align, forest and subtree evidence; its vote is `informed_by` them)
//! decides for those methods (it keeps, whatever they say, what it is sure of from the page
//! alone: `chaff_content::SITE_GUARD`; their cuts inside text nodes apply only on a page whose
//! text is one node, a plain-text page, where a model of whole nodes cannot separate anything: on
//! held-out Dragnet training sites applying them everywhere lost 0.003 4-gram F1), and other
//! site methods still remove what they remove; with site evidence
//! and no such model, a node goes when any site method removes it (FOREST's wrapper picks
//! the content subtree and the others still remove inside it); without site evidence, the
//! page-level classifier (a method whose scores are probabilities) decides. Page-level region detectors (membership scores, such as the menu detector) remove
//! their region in both cases. A method that abstains, or a node a method does not cover,
//! counts as no opinion, never as "content".

use chaff_core::{Evidence, Labels, Meaning, PageInput, Role, Scope, Verdict};
use chaff_dom::NodeId;

/// One method's answer about a page, as a fuser sees it.
#[derive(Clone, Copy, Debug)]
pub struct Vote<'a> {
    /// The method's name.
    pub method: &'a str,
    /// Site- or page-level.
    pub scope: Scope,
    /// Its evidence, or why it has none.
    pub verdict: &'a Verdict,
    /// The site methods whose evidence the verdict already weighed (a page-level model that
    /// reads them); empty for the others.
    pub informed_by: &'a [&'static str],
}

/// What a fuser decides.
#[derive(Clone, Debug)]
pub struct Fused {
    /// The labels the outputs are rendered from.
    pub labels: Labels,
    /// How sure the decision is, in `[0, 1]`.
    pub confidence: f32,
}

/// Turns the evidence of every method into labels.
pub trait Fuser: Send + Sync {
    /// Fuses the votes about one page.
    fn fuse(&self, page: &PageInput<'_>, votes: &[Vote<'_>]) -> Fused;

    /// Whether the fuser reads a page-level method's evidence on a page that has site
    /// evidence (`site_evidence`): the extractor does not compute what would be ignored.
    /// True by default.
    fn consults(&self, method: &str, site_evidence: bool) -> bool {
        let _ = (method, site_evidence);
        true
    }
}

/// The default fuser: a page-level model that weighed the site's evidence where there is
/// one, else the union of the site methods' removals, else the page-level classifier;
/// page-level region detectors always. See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct UnionFuser;

impl Fuser for UnionFuser {
    fn fuse(&self, page: &PageInput<'_>, votes: &[Vote<'_>]) -> Fused {
        let evidence = |scope: Scope, region: bool| {
            votes
                .iter()
                .filter(move |v| v.scope == scope)
                .filter_map(|v| v.verdict.evidence())
                .filter(move |e| (e.meaning() == Meaning::Membership) == region)
        };
        let n = page.doc.len();
        let mut labels = Labels::all_content(n);
        let informed: Vec<&Vote<'_>> = votes
            .iter()
            .filter(|v| v.scope == Scope::Page && !v.informed_by.is_empty())
            .filter(|v| v.verdict.evidence().is_some())
            .collect();
        let weighed = |method: &str| informed.iter().any(|v| v.informed_by.contains(&method));
        let site_evidence = votes
            .iter()
            .any(|v| v.scope == Scope::Site && v.verdict.evidence().is_some());
        if !site_evidence {
            for e in evidence(Scope::Page, false) {
                union_covered(&mut labels, e);
            }
        } else {
            // A model that weighed site methods' evidence decides in their place; the site
            // methods it does not read still remove what they remove.
            for v in &informed {
                if let Some(e) = v
                    .verdict
                    .evidence()
                    .filter(|e| e.meaning() != Meaning::Membership)
                {
                    union_covered(&mut labels, e);
                }
            }
            let one_node = single_text_node(page);
            for v in votes.iter().filter(|v| v.scope == Scope::Site) {
                match v.verdict.evidence() {
                    Some(e) if weighed(v.method) && one_node => add_cuts(&mut labels, e),
                    Some(_) if weighed(v.method) => {}
                    Some(e) => union_covered(&mut labels, e),
                    None => {}
                }
            }
        }
        for e in evidence(Scope::Page, true) {
            union_covered(&mut labels, e);
        }
        let confidence = decision_margin(page, &labels);
        Fused { labels, confidence }
    }

    /// The page-level classifiers are not consulted where a site method spoke.
    fn consults(&self, method: &str, site_evidence: bool) -> bool {
        !(site_evidence && matches!(method, "pagelevel" | "content"))
    }
}

/// Folds the nodes `e` covers into `labels`: removed when `e` removes them, the larger score,
/// partial cuts added to nodes that stay.
fn union_covered(labels: &mut Labels, e: &Evidence) {
    let theirs = e.labels();
    if e.covered_count() == theirs.len() {
        labels.union(theirs);
        return;
    }
    let mut masked = Labels::all_content(theirs.len());
    for i in 0..theirs.len() {
        let id = NodeId(i as u32);
        if let (Some(score), Some(role)) = (e.score(id), e.role(id)) {
            masked.set(id, score, role);
        }
    }
    for (id, ranges) in theirs.partials() {
        if e.covers(*id) {
            masked.set_partial(*id, ranges.clone());
        }
    }
    labels.union(&masked);
}

/// Whether all of the page's visible text is one text node (a plain-text page, read as one
/// `<pre>`): a model that judges whole nodes cannot separate anything there.
fn single_text_node(page: &PageInput<'_>) -> bool {
    let text = page.view.text();
    page.view
        .segments()
        .iter()
        .filter(|s| text.get(s.range()).is_some_and(|t| !t.trim().is_empty()))
        .nth(1)
        .is_none()
}

/// Adds `e`'s cuts inside text nodes (a string method's removals) to the nodes `labels`
/// keeps: a model that judges whole nodes cannot make them, and they are the site's own
/// repeated strings.
fn add_cuts(labels: &mut Labels, e: &Evidence) {
    for (id, ranges) in e.labels().partials() {
        if e.covers(*id) && !labels.role(*id).is_template() {
            let mut all = labels.partial(*id).map(<[_]>::to_vec).unwrap_or_default();
            all.extend(ranges.iter().cloned());
            labels.set_partial(*id, all);
        }
    }
}

/// How far the fused scores of the page's text lie from the undecided middle: the mean of
/// `|2s − 1|` over text nodes, weighted by their words, where `s` is the node's score moved
/// to the side its role says (a removed node counts at least 0.5 template). 0 for a page
/// without text.
fn decision_margin(page: &PageInput<'_>, labels: &Labels) -> f32 {
    let (mut sum, mut words) = (0.0f64, 0.0f64);
    for seg in page.view.segments() {
        let w = chaff_dom::text::count_words(&page.view.text()[seg.range()]) as f64;
        if w == 0.0 {
            continue;
        }
        let s = labels.score(seg.node).clamp(0.0, 1.0) as f64;
        let s = match labels.role(seg.node) {
            Role::Content => s.min(0.5),
            Role::Template | Role::Menu | Role::Comment => s.max(0.5),
        };
        sum += w * (2.0 * s - 1.0).abs();
        words += w;
    }
    if words == 0.0 {
        0.0
    } else {
        (sum / words) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(html: &str) -> (chaff_dom::Document, chaff_dom::TextView) {
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = chaff_dom::TextView::new(&doc);
        (doc, view)
    }

    fn input<'a>(doc: &'a chaff_dom::Document, view: &'a chaff_dom::TextView) -> PageInput<'a> {
        PageInput {
            doc,
            view,
            source: None,
            url: None,
        }
    }

    fn removing(doc: &chaff_dom::Document, tag: &str, meaning: Meaning) -> Verdict {
        let mut l = Labels::all_content(doc.len());
        let node = doc.find_tag(tag).unwrap();
        l.set_subtree(doc, node, 0.9, Role::Template);
        Verdict::Evidence(Evidence::new(l, meaning))
    }

    #[test]
    fn site_evidence_overrides_the_classifier_and_abstention_is_no_opinion() {
        let (doc, view) = page("<nav>Home News</nav><main>Story text</main><footer>c</footer>");
        let site = removing(&doc, "nav", Meaning::Share);
        let classifier = removing(&doc, "main", Meaning::Probability);
        let abstain = Verdict::Abstain("no match".into());
        let votes = [
            Vote {
                method: "suffix",
                scope: Scope::Site,
                verdict: &site,
                informed_by: &[],
            },
            Vote {
                method: "forest",
                scope: Scope::Site,
                verdict: &abstain,
                informed_by: &[],
            },
            Vote {
                method: "pagelevel",
                scope: Scope::Page,
                verdict: &classifier,
                informed_by: &[],
            },
        ];
        let fused = UnionFuser.fuse(&input(&doc, &view), &votes);
        assert!(fused.labels.is_removed(doc.find_tag("nav").unwrap()));
        assert!(!fused.labels.is_removed(doc.find_tag("main").unwrap()));
        // Without site evidence the classifier decides.
        let fused = UnionFuser.fuse(&input(&doc, &view), &votes[1..]);
        assert!(fused.labels.is_removed(doc.find_tag("main").unwrap()));
        assert!(!fused.labels.is_removed(doc.find_tag("nav").unwrap()));
    }

    #[test]
    fn uncovered_nodes_are_left_alone_and_regions_always_apply() {
        let (doc, view) = page("<nav>Home News</nav><main>Story text</main>");
        let mut l = Labels::all_content(doc.len());
        for id in doc.ids() {
            l.set(id, 1.0, Role::Template);
        }
        let covered: Vec<bool> = doc.ids().map(|id| doc.is_tag(id, "nav")).collect();
        let partial = Verdict::Evidence(Evidence::partial(l, covered, Meaning::Share));
        let menu = removing(&doc, "main", Meaning::Membership);
        let votes = [
            Vote {
                method: "x",
                scope: Scope::Site,
                verdict: &partial,
                informed_by: &[],
            },
            Vote {
                method: "menu",
                scope: Scope::Page,
                verdict: &menu,
                informed_by: &[],
            },
        ];
        let fused = UnionFuser.fuse(&input(&doc, &view), &votes);
        let nav = doc.find_tag("nav").unwrap();
        assert!(fused.labels.is_removed(nav));
        // The nav's text node is not covered (only the element is), so it is not removed by
        // that evidence; the menu region removes main.
        assert!(!fused.labels.is_removed(doc.find_tag("body").unwrap()));
        assert!(fused.labels.is_removed(doc.find_tag("main").unwrap()));
    }

    fn vote<'a>(
        method: &'a str,
        scope: Scope,
        verdict: &'a Verdict,
        informed_by: &'a [&'static str],
    ) -> Vote<'a> {
        Vote {
            method,
            scope,
            verdict,
            informed_by,
        }
    }

    #[test]
    fn an_informed_model_decides_for_the_methods_it_weighed_and_the_others_still_remove() {
        let (doc, view) = page("<nav>Home News</nav><main>Story text here</main><aside>Ad</aside>");
        let text = |tag: &str| doc.first_child(doc.find_tag(tag).unwrap()).unwrap();
        // Suffix removes the nav and cuts "Story " out of the main text.
        let mut s = Labels::all_content(doc.len());
        s.set_subtree(&doc, doc.find_tag("nav").unwrap(), 1.0, Role::Template);
        s.set_partial(text("main"), std::iter::once(0..6).collect());
        let suffix = Verdict::Evidence(Evidence::new(s, Meaning::Share));
        // A method the model does not read removes the aside.
        let other = removing(&doc, "aside", Meaning::Membership);
        // The model, having weighed suffix, keeps the nav (it disagrees) and the main text.
        let mut m = Labels::all_content(doc.len());
        m.set(text("aside"), 0.2, Role::Content);
        let model = Verdict::Evidence(Evidence::new(m, Meaning::Probability));
        let votes = [
            vote("suffix", Scope::Site, &suffix, &[]),
            vote("custom", Scope::Site, &other, &[]),
            vote("content", Scope::Page, &model, &["suffix"]),
        ];
        let fused = UnionFuser.fuse(&input(&doc, &view), &votes);
        assert!(!fused.labels.is_removed(text("nav")), "the model decides");
        assert!(fused.labels.is_removed(doc.find_tag("aside").unwrap()));
        // The model judged the main text whole: suffix's cut inside it is not applied.
        assert_eq!(fused.labels.partial(text("main")), None);
        // Uninformed, the same votes unite the site removals.
        let mut plain = votes;
        plain[2].informed_by = &[];
        let fused = UnionFuser.fuse(&input(&doc, &view), &plain);
        assert!(fused.labels.is_removed(text("nav")));
    }

    #[test]
    fn on_a_page_of_one_text_node_the_weighed_methods_cuts_apply() {
        let (doc, view) = page("<pre>Posted by staff. Story text here. Share this</pre>");
        let node = doc.first_child(doc.find_tag("pre").unwrap()).unwrap();
        let mut s = Labels::all_content(doc.len());
        s.set_partial(node, vec![0..16, 34..44]);
        let suffix = Verdict::Evidence(Evidence::new(s, Meaning::Share));
        let model = Verdict::Evidence(Evidence::new(
            Labels::all_content(doc.len()),
            Meaning::Probability,
        ));
        let votes = [
            vote("suffix", Scope::Site, &suffix, &[]),
            vote("content", Scope::Page, &model, &["suffix"]),
        ];
        let fused = UnionFuser.fuse(&input(&doc, &view), &votes);
        assert_eq!(fused.labels.partial(node), Some(&[0..16, 34..44][..]));
    }

    #[test]
    fn confidence_is_the_word_weighted_margin() {
        let (doc, view) = page("<p>one two three</p><p>four</p>");
        let mut l = Labels::all_content(doc.len());
        let texts: Vec<NodeId> = doc.ids().filter(|&i| doc.is_text(i)).collect();
        l.set(texts[0], 0.0, Role::Content); // margin 1, 3 words
        l.set(texts[1], 0.5, Role::Content); // margin 0, 1 word
        let c = decision_margin(&input(&doc, &view), &l);
        assert!((c - 0.75).abs() < 1e-6, "{c}");
    }
}

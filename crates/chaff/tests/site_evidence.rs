//! The site methods' evidence as the content model's inputs: what each method says of a
//! generated site's template and content, that a page without site evidence gets exactly
//! the page-level result, that the site guard touches only what the page alone is sure of,
//! and that a profile read back from disk gives the same evidence.

use chaff::corpus::{Media, Page};
use chaff::{Extraction, Extractor, Learner, Profile, Registry, SiteChoice};
use chaff_content::site;
use chaff_synth::{Label, SynthSite};

const METHODS: [&str; 4] = ["suffix", "align", "forest", "subtree"];

fn site(style: u32) -> SynthSite {
    chaff_synth::generate_sites_with(7, 3, 21, None).swap_remove(style as usize)
}

fn corpus_page(p: &chaff_synth::SynthPage) -> Result<Page, chaff::corpus::CorpusError> {
    Ok(Page {
        source: p.file.clone(),
        url: Some(p.url.clone()),
        bytes: p.html.as_bytes().to_vec(),
        charset: None,
        folder: None,
        media: Media::Html,
    })
}

/// The site learned from its first 20 pages (the 21st is new to the profile).
fn learn(site: &SynthSite) -> Profile {
    let registry = Registry::builtin().unwrap();
    let learner = Learner::new(&registry, &METHODS).unwrap();
    let pages = site.pages[..20].iter().map(corpus_page);
    let mut learned = learner.learn(pages, &SiteChoice::Single, &|_| {}).unwrap();
    assert_eq!(learned.profiles.len(), 1);
    learned.profiles.remove(0)
}

fn site_rows(out: &Extraction) -> (chaff_content::Units, Vec<f32>) {
    let said = out.site_verdicts();
    let units = chaff_content::Units::compute(out.document(), out.view(), out.url());
    let rows = site::rows(out.document(), out.view(), &units, &said);
    (units, rows)
}

#[test]
fn each_method_removes_the_template_and_keeps_the_content_of_a_generated_site() {
    for style in 0..3 {
        let s = site(style);
        let profile = learn(&s);
        let ex = Extractor::builder()
            .profile_for_every_page(profile)
            .build()
            .unwrap();
        let page = &s.pages[20];
        let out = ex.extract(page.html.as_bytes(), Some(&page.url)).unwrap();
        let (units, rows) = site_rows(&out);
        // The extractor parses the page as the generator does: the same node ids.
        assert_eq!(out.document().len(), page.labels.len());
        for (m, name) in METHODS.iter().enumerate() {
            // Word-weighted mean of `removed` over the units of one label.
            let mean = |want: &dyn Fn(Label) -> bool| {
                let (mut sum, mut words) = (0.0, 0.0);
                for (k, id) in units.nodes.iter().enumerate() {
                    let r = rows[k * site::COUNT + m * 4];
                    if want(page.labels[id.index()]) && !r.is_nan() {
                        sum += r * units.words[k] as f32;
                        words += units.words[k] as f32;
                    }
                }
                (words > 0.0).then(|| sum / words)
            };
            let template = mean(&|l| matches!(l, Label::Template | Label::Menu));
            let content = mean(&|l| l == Label::Content);
            let (Some(t), Some(c)) = (template, content) else {
                panic!("{} style {style}: {name} gave no evidence", s.style);
            };
            // Each method sees part of the template (FOREST on a table layout keeps the
            // whole cell its wrapper names, template lists included: 18% removed) and
            // almost none of the content.
            assert!(
                t > c + 0.15,
                "{} {name}: template removed {t}, content {c}",
                s.style
            );
            assert!(c < 0.05, "{} {name}: content removed {c}", s.style);
        }
        // The content model weighed them: its verdict says so.
        let content = out
            .evidence()
            .iter()
            .find(|v| v.method == "content")
            .unwrap();
        assert_eq!(content.informed_by, METHODS);
        // And the record tells the user.
        let record = out.record(chaff::Format::Text);
        let said = record["methods"].as_array().unwrap();
        let content = said.iter().find(|m| m["method"] == "content").unwrap();
        assert_eq!(content["informed_by"], serde_json::json!(METHODS));
        // The four site methods, then the default page-level methods.
        let names: Vec<&str> = said.iter().filter_map(|m| m["method"].as_str()).collect();
        let mut expected = METHODS.to_vec();
        expected.extend(chaff::DEFAULT_PAGE_METHODS);
        assert_eq!(names, expected);
    }
}

#[test]
fn a_page_without_site_evidence_gets_the_page_level_result_exactly() {
    let s = site(0);
    let registry = Registry::builtin().unwrap();
    let pages = s.pages[..20].iter().map(corpus_page);
    let learner = Learner::new(&registry, &["forest"]).unwrap();
    let forest = learner
        .learn(pages, &SiteChoice::Single, &|_| {})
        .unwrap()
        .profiles
        .remove(0);
    let plain = Extractor::builder().build().unwrap();
    // A page where the site's FOREST wrapper matches nothing: FOREST abstains, no other
    // site method is in the profile, so the content model decides from the page alone.
    let html = "<html><body><section><p>Nothing of this site's template appears here at \
                all, only a plain paragraph of text.</p><p>A second paragraph follows it.</p>\
                </section><footer>Contact us</footer></body></html>";
    let with_forest = Extractor::builder()
        .profile_for_every_page(forest)
        .build()
        .unwrap();
    let a = with_forest.extract(html.as_bytes(), None).unwrap();
    let said = a.evidence().iter().find(|v| v.method == "forest").unwrap();
    assert!(said.verdict.abstained().is_some(), "{:?}", said.verdict);
    let b = plain.extract(html.as_bytes(), None).unwrap();
    assert_eq!(a.labels(), b.labels());
    assert_eq!(a.text(), b.text());
    // A profile with no model at all: the same.
    let empty = Extractor::builder()
        .profile_for_every_page(Profile::new("x", 0))
        .build()
        .unwrap();
    let c = empty.extract(html.as_bytes(), None).unwrap();
    assert_eq!(c.labels(), b.labels());
    // And a site-aware model given missing site inputs predicts what it predicts from the
    // page alone.
    let page = &s.pages[20];
    let out = plain.extract(page.html.as_bytes(), None).unwrap();
    let model = chaff_content::ContentModel::builtin().unwrap();
    let units = chaff_content::Units::compute(out.document(), out.view(), None);
    let nan = vec![f32::NAN; units.len() * site::COUNT];
    assert_eq!(
        model.predict(&units),
        model.predict_with_site(&units, Some(&nan))
    );
    // Missing is not zero: inputs saying "every method keeps everything" move the
    // probabilities, missing ones do not.
    let zero = vec![0.0; units.len() * site::COUNT];
    assert_ne!(
        model.predict(&units),
        model.predict_with_site(&units, Some(&zero))
    );
}

#[test]
fn a_profile_written_and_read_back_gives_the_same_evidence() {
    let s = site(1);
    let profile = learn(&s);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("site.json");
    profile.save(&path).unwrap();
    let back = Profile::load(&path).unwrap();
    let page = &s.pages[20];
    let extract = |p: Profile| {
        Extractor::builder()
            .profile_for_every_page(p)
            .build()
            .unwrap()
            .extract(page.html.as_bytes(), Some(&page.url))
            .unwrap()
    };
    let (a, b) = (extract(profile), extract(back));
    let verdicts = |e: &Extraction| {
        e.evidence()
            .iter()
            .map(|v| (v.method.clone(), v.verdict.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(verdicts(&a), verdicts(&b));
    let (ra, rb) = (site_rows(&a).1, site_rows(&b).1);
    assert_eq!(ra.len(), rb.len());
    assert!(
        ra.iter()
            .zip(&rb)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
    );
    assert_eq!(a.labels(), b.labels());
}

/// The built-in model on a learned site: every unit the page alone is sure of is kept, and the
/// guard leaves every other unit's decision as the site's evidence made it. (On these pages
/// the site's evidence drops none of the sure units even without the guard, so this does not
/// see the guard raise one: `chaff_content::model`'s hand-computed test does.)
#[test]
fn on_a_learned_site_the_guard_touches_only_what_the_page_alone_is_sure_of() {
    use chaff_content::{ContentMethod, ContentModel, SITE_GUARD, Units};
    use chaff_core::{Method, PageInput, Verdict};
    let guarded = ContentMethod::builtin().unwrap();
    assert_eq!(guarded.site_guard, Some(SITE_GUARD));
    let mut open = guarded.clone();
    open.site_guard = None;
    let model = ContentModel::builtin().unwrap();
    let mut sure = 0;
    for style in 0..3 {
        let s = site(style);
        let ex = Extractor::builder()
            .profile_for_every_page(learn(&s))
            .build()
            .unwrap();
        for page in &s.pages {
            let out = ex.extract(page.html.as_bytes(), Some(&page.url)).unwrap();
            let said = out.site_verdicts();
            let input = PageInput {
                doc: out.document(),
                view: out.view(),
                source: None,
                url: out.url(),
            };
            let labels = |m: &ContentMethod| match m.evidence_given(&(), &input, &said) {
                Verdict::Evidence(e) => e.labels().clone(),
                other => panic!("{other:?}"),
            };
            let (with_guard, without) = (labels(&guarded), labels(&open));
            let units = Units::compute(out.document(), out.view(), out.url());
            let alone = model.predict(&units);
            for (k, &id) in units.nodes.iter().enumerate() {
                if alone[k] >= SITE_GUARD {
                    // What the page alone keeps at the bound or above stays.
                    sure += 1;
                    assert!(!with_guard.role(id).is_template(), "{}: unit {k}", page.url);
                } else {
                    // Elsewhere the site's evidence decides as it did without the guard.
                    assert_eq!(
                        with_guard.role(id),
                        without.role(id),
                        "{}: unit {k}",
                        page.url
                    );
                }
            }
        }
    }
    assert!(sure > 500, "{sure}");
}

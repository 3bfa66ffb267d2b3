//! A method defined here, registered once, goes through learning, the profile on disk, the
//! profile store and extraction with no other change anywhere.

use chaff::corpus::{Media, Page};
use chaff::{
    Evidence, Extractor, Labels, Learner, Meaning, Method, MethodError, ProfileStore, Registry,
    Scope, SiteChoice, Verdict,
};
use chaff_core::PageInput;
use serde::{Deserialize, Serialize};

/// Keeps every node, and remembers how many words the site's pages had.
struct KeepAll;

#[derive(Serialize, Deserialize)]
struct KeepAllModel {
    words: usize,
}

impl Method for KeepAll {
    type PageData = usize;
    type Model = KeepAllModel;
    type Compiled = usize;

    fn name(&self) -> &'static str {
        "keep-all"
    }

    fn scope(&self) -> Scope {
        Scope::Site
    }

    fn page_data(&self, page: &PageInput<'_>) -> usize {
        page.view.text().split_whitespace().count()
    }

    fn learn(&self, pages: Vec<usize>) -> Result<KeepAllModel, MethodError> {
        Ok(KeepAllModel {
            words: pages.iter().sum(),
        })
    }

    fn compile(&self, model: Option<KeepAllModel>) -> Result<usize, MethodError> {
        model
            .map(|m| m.words)
            .ok_or_else(|| MethodError::new("keep-all needs a model"))
    }

    fn evidence(&self, _words: &usize, page: &PageInput<'_>) -> Verdict {
        let evidence = Evidence::new(Labels::all_content(page.doc.len()), Meaning::Probability);
        Verdict::Evidence(evidence.with_note("kept everything"))
    }
}

fn page(i: usize) -> String {
    format!(
        "<html><body><nav><a href=/>Home</a> <a href=/a>Archive</a> <a href=/b>About us</a></nav>\
         <main><p>Story {i} says something of its own.</p></main>\
         <footer>Copyright Example, all rights reserved</footer></body></html>"
    )
}

/// Page `i` of example.org, as a reader gives it.
fn example_page(i: usize) -> Page {
    Page {
        source: format!("p{i}.html"),
        url: Some(format!("https://example.org/{i}")),
        bytes: page(i).into_bytes(),
        charset: None,
        folder: None,
        media: Media::Html,
    }
}

#[test]
fn a_method_registered_once_is_learned_stored_loaded_and_applied() {
    let mut registry = Registry::builtin().unwrap();
    registry.register(KeepAll);
    let pages = (0..4).map(|i| Ok(example_page(i)));
    let learner = Learner::new(&registry, &["keep-all"]).unwrap();
    let learned = learner.learn(pages, &SiteChoice::Single, &|_| {}).unwrap();
    let profile = &learned.profiles[0];
    assert_eq!(profile.method_names(), ["keep-all"]);
    assert!(profile.methods["keep-all"]["words"].as_u64().unwrap() > 40);

    let dir = tempfile::tempdir().unwrap();
    profile.save(&dir.path().join("example.org.json")).unwrap();
    let store = ProfileStore::open(dir.path()).unwrap();
    let ex = Extractor::builder()
        .registry(registry)
        .store(store)
        .build()
        .unwrap();
    let out = ex
        .extract(page(9).as_bytes(), Some("https://example.org/9"))
        .unwrap();
    assert_eq!(out.profile_site(), Some("example.org"));
    let mine = out
        .evidence()
        .iter()
        .find(|v| v.method == "keep-all")
        .unwrap();
    assert!(mine.verdict.evidence().is_some());
    // The only site evidence keeps everything, so nothing is removed.
    assert!(out.text().contains("Copyright Example"));
    // What the method noticed reaches the user.
    assert_eq!(out.warnings(), ["keep-all: kept everything"]);
    assert_eq!(
        out.record(chaff::Format::Text)["warnings"][0],
        "keep-all: kept everything"
    );

    // A page of another site gets the page-level methods only.
    let other = ex
        .extract(page(9).as_bytes(), Some("https://other.org/9"))
        .unwrap();
    assert_eq!(other.profile_site(), None);
    assert!(other.evidence().iter().all(|v| v.method != "keep-all"));
}

#[test]
fn a_profile_of_an_unknown_method_is_reported_not_silently_dropped() {
    let mut profile = chaff::Profile::new("example.org", 3);
    profile
        .methods
        .insert("from-the-future".into(), serde_json::json!({}));
    let mut store = ProfileStore::new();
    store.insert(profile);
    let ex = Extractor::builder().store(store).build().unwrap();
    assert!(
        ex.warnings()[0].contains("from-the-future"),
        "{:?}",
        ex.warnings()
    );
}

#[test]
fn the_record_carries_the_pages_metadata() {
    let html = br#"<html lang="de"><head><title>Regen | Beispiel</title>
        <meta property="og:site_name" content="Beispiel">
        <meta name="author" content="Erika Muster"></head>
        <body><article><p>Es regnet seit Tagen in der ganzen Stadt, und die Keller laufen voll.
        Die Feuerwehr pumpt rund um die Uhr.</p></article></body></html>"#;
    let out = chaff::extract(html, Some("https://www.beispiel.de/regen")).unwrap();
    let m = out.metadata();
    assert_eq!(m.title.as_deref(), Some("Regen"));
    assert_eq!(m.authors, ["Erika Muster"]);
    assert_eq!(m.language.as_deref(), Some("de"));
    let record = out.record(chaff::Format::Text);
    assert_eq!(record["metadata"]["title"], "Regen");
    assert_eq!(record["metadata"]["sources"]["authors"], "meta");
}

/// Remembers the story number of each page, in the order learning merged them.
struct StoryOrder;

impl Method for StoryOrder {
    type PageData = usize;
    type Model = Vec<usize>;
    type Compiled = ();

    fn name(&self) -> &'static str {
        "story-order"
    }

    fn scope(&self) -> Scope {
        Scope::Site
    }

    fn page_data(&self, page: &PageInput<'_>) -> usize {
        let text = page.view.text();
        let after = text.split("Story ").nth(1).unwrap_or("");
        after
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(usize::MAX)
    }

    fn learn(&self, pages: Vec<usize>) -> Result<Vec<usize>, MethodError> {
        Ok(pages)
    }

    fn compile(&self, _model: Option<Vec<usize>>) -> Result<(), MethodError> {
        Ok(())
    }

    fn evidence(&self, _compiled: &(), _page: &PageInput<'_>) -> Verdict {
        Verdict::Abstain("orders only".into())
    }
}

#[test]
fn learning_merges_every_page_in_input_order_and_reports_the_ones_it_cannot_read() {
    let mut registry = Registry::builtin().unwrap();
    registry.register(StoryOrder);
    // Many more pages than the pool has in flight, with an input that cannot be read and a
    // page that is not HTML among them.
    let pages = (0..150).map(|i| match i {
        40 => Err(chaff::corpus::CorpusError::StdinTwice),
        90 => Ok(Page {
            source: "image.png".into(),
            url: Some("https://example.org/image.png".into()),
            bytes: [&b"\x89PNG\r\n\x1a\n"[..], &[0u8; 4096]].concat(),
            charset: None,
            folder: None,
            media: Media::Html,
        }),
        _ => Ok(example_page(i)),
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let learner = Learner::new(&registry, &["story-order"]).unwrap();
    let learned = pool
        .install(|| learner.learn(pages, &SiteChoice::Single, &|_| {}))
        .unwrap();
    let order: Vec<usize> =
        serde_json::from_value(learned.profiles[0].methods["story-order"].clone()).unwrap();
    let expected: Vec<usize> = (0..150).filter(|i| *i != 40 && *i != 90).collect();
    assert_eq!(order, expected);
    assert_eq!(learned.page_errors.len(), 2, "{:?}", learned.page_errors);
}

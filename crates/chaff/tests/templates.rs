//! A site of two templates is learned as two, each page is read with its own template, a
//! page of neither is read page by page (exactly the page-level result), and the profile
//! keeps all of this through a file.

use chaff::corpus::{CorpusError, Media, Page};
use chaff::{Extractor, Learner, Profile, Registry, SiteChoice, Verdict};

const METHODS: [&str; 2] = ["suffix", "subtree"];

const STORIES: [&str; 6] = [
    "The council voted on Monday to close the old bridge for repairs after engineers found cracks in two arches.",
    "A bakery on the high street won the regional prize for its rye bread, the third win in five years.",
    "The river rose a metre overnight and the lower fields flooded, though no house took water.",
    "Tickets for the summer festival sold out within an hour, and the organisers promised a second weekend.",
    "The school's new library opened with four thousand books given by former pupils and their families.",
    "Night buses will run every twenty minutes from next month, the transport board said on Friday.",
];

fn article(i: usize) -> String {
    let story = STORIES[i % STORIES.len()];
    format!(
        "<html><head><title>Story {i}</title></head><body>\
         <div class=masthead><a href=/>The Valley Courier</a> <a href=/news>News</a> <a href=/sport>Sport</a></div>\
         <article class=story><h1>Story number {i} of the week</h1><p class=lede>{story}</p>\
         <p>{story} Residents said they had waited a long time for news like this.</p></article>\
         <footer class=foot><p>Copyright The Valley Courier. All rights reserved.</p></footer></body></html>"
    )
}

fn gallery(i: usize) -> String {
    let story = STORIES[(i + 3) % STORIES.len()];
    format!(
        "<html><head><title>Pictures {i}</title></head><body>\
         <table class=frame><tr><td class=side><span>Valley Courier pictures</span><span>Browse all galleries</span></td>\
         <td class=main><h2 class=caption>Gallery {i}: the week in pictures</h2><em>{story}</em>\
         <img class=shot src=a.jpg><img class=shot src=b.jpg></td></tr></table>\
         <form class=search><input name=q><button>Search the archive</button></form></body></html>"
    )
}

const STRAY: &str = "<html><body><pre>Plain text page: an old press release kept as it was \
    typed, with nothing of the site's frame around it and several sentences of its own.</pre>\
    </body></html>";

fn page(i: usize, html: String) -> Result<Page, CorpusError> {
    Ok(Page {
        source: format!("p{i}.html"),
        url: Some(format!("https://courier.example/p{i}")),
        bytes: html.into_bytes(),
        charset: None,
        folder: None,
        media: Media::Html,
    })
}

fn learn() -> Profile {
    let registry = Registry::builtin().unwrap();
    let learner = Learner::new(&registry, &METHODS).unwrap();
    let pages = (0..6)
        .map(|i| page(i, article(i)))
        .chain((0..4).map(|i| page(10 + i, gallery(i))))
        .chain([page(20, STRAY.to_string())]);
    let mut learned = learner.learn(pages, &SiteChoice::Single, &|_| {}).unwrap();
    assert_eq!(learned.profiles.len(), 1);
    assert_eq!(
        learned.unmatched,
        vec![("courier.example".to_string(), 1, 11)]
    );
    learned.profiles.remove(0)
}

fn site_verdicts(out: &chaff::Extraction) -> Vec<&Verdict> {
    out.evidence()
        .iter()
        .filter(|v| v.scope == chaff::Scope::Site)
        .map(|v| &v.verdict)
        .collect()
}

#[test]
fn a_site_of_two_templates_is_learned_as_two() {
    let profile = learn();
    assert_eq!(profile.pages, 6);
    assert_eq!(profile.templates.len(), 1);
    assert_eq!(profile.templates[0].pages, 4);
    assert_eq!(profile.sketches.len(), 6);
    assert_eq!(profile.templates[0].sketches.len(), 4);
    assert!(
        profile
            .summary()
            .contains("and 1 other templates of 4 pages")
    );
    // Each template learned its own frame: the gallery's side column is not the article's.
    let main = profile.methods["suffix"].to_string();
    let other = profile.templates[0].methods["suffix"].to_string();
    assert!(main.contains("Courier"), "{main}");
    assert!(other.contains("galleries"), "{other}");
    assert!(!main.contains("galleries"), "{main}");
}

#[test]
fn each_page_is_read_with_its_template_and_a_stray_page_alone() {
    let profile = learn();
    // Through a file, as `chaff learn` then `chaff extract --profile` would.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.json");
    profile.save(&path).unwrap();
    let reloaded = Profile::load(&path).unwrap();
    assert_eq!(reloaded, profile);
    let ex = Extractor::builder()
        .profile_for_every_page(reloaded)
        .build()
        .unwrap();
    let plain = Extractor::builder()
        .registry(Registry::builtin().unwrap())
        .build()
        .unwrap();
    let url = Some("https://courier.example/new");
    for html in [article(7), gallery(9)] {
        let out = ex.extract(html.as_bytes(), url).unwrap();
        let verdicts = site_verdicts(&out);
        assert_eq!(verdicts.len(), METHODS.len());
        assert!(
            verdicts.iter().all(|v| v.evidence().is_some()),
            "{verdicts:?}"
        );
    }
    let out = ex.extract(STRAY.as_bytes(), url).unwrap();
    let verdicts = site_verdicts(&out);
    assert_eq!(verdicts.len(), METHODS.len());
    for v in verdicts {
        match v {
            Verdict::Abstain(why) => assert!(why.contains("resembles none of the 2 templates")),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(out.profile_site(), None);
    let alone = plain.extract(STRAY.as_bytes(), url).unwrap();
    assert_eq!(out.text(), alone.text());
    assert!(out.text().contains("old press release"));
}

#[test]
fn a_site_whose_pages_share_no_template_is_not_learned() {
    let registry = Registry::builtin().unwrap();
    let learner = Learner::new(&registry, &METHODS).unwrap().min_pages(3);
    let unlike = || {
        [
            page(0, article(0)),
            page(1, gallery(1)),
            page(2, STRAY.into()),
        ]
    };
    let per_site = |l: &Learner| l.learn(unlike().into_iter(), &SiteChoice::PerSite, &|_| {});
    let learned = per_site(&learner).unwrap();
    assert!(learned.profiles.is_empty());
    assert_eq!(learned.skipped.len(), 1);
    assert!(
        learned.skipped[0].2.contains("no template is shared by 3"),
        "{:?}",
        learned.skipped
    );
    // One template for all pages when asked.
    let learned = per_site(&learner.split_templates(false)).unwrap();
    assert_eq!(learned.profiles.len(), 1);
    assert!(learned.profiles[0].sketches.is_empty());
}

#[test]
fn a_profile_of_several_templates_without_sketches_is_refused() {
    let mut profile = learn();
    profile.templates[0].sketches.clear();
    let err = Profile::from_json(&profile.to_json(), "p.json").unwrap_err();
    assert!(
        err.to_string().contains("needs every template's sketches"),
        "{err}"
    );
    // A version 1 profile (one template, no sketches) still reads and applies to every page.
    let mut v1 = learn();
    v1.version = 1;
    v1.sketches.clear();
    v1.templates.clear();
    let v1 = Profile::from_json(&v1.to_json(), "v1.json").unwrap();
    let ex = Extractor::builder()
        .profile_for_every_page(v1)
        .build()
        .unwrap();
    let out = ex
        .extract(STRAY.as_bytes(), Some("https://courier.example/x"))
        .unwrap();
    assert!(
        site_verdicts(&out)
            .iter()
            .all(|v| !matches!(v, Verdict::Abstain(w) if w.contains("resembles")))
    );
}

//! `extract --learn` parses a page once: the parses learning keeps (within a budget) are what
//! extraction reads, with the same result as parsing the pages again, and a parse made
//! otherwise than the extractor would make it is not used.

use chaff::corpus::{CorpusError, Media, Page};
use chaff::{Extractor, Learner, LoadOptions, Parsed, Registry, SiteFrom, load_page};
use chaff_synth::SynthSite;

const METHODS: [&str; 4] = ["suffix", "align", "forest", "subtree"];

fn sites() -> Vec<SynthSite> {
    chaff_synth::generate_sites_with(11, 2, 8, None)
}

fn pages(sites: &[SynthSite]) -> Vec<Page> {
    sites
        .iter()
        .flat_map(|s| s.pages.iter().map(move |p| (s, p)))
        .map(|(s, p)| Page {
            source: format!("{}/{}", s.domain, p.file),
            url: Some(p.url.clone()),
            bytes: p.html.as_bytes().to_vec(),
            charset: None,
            folder: None,
            media: Media::Html,
        })
        .collect()
}

fn stream(pages: &[Page]) -> impl Iterator<Item = Result<Page, CorpusError>> + '_ {
    pages.iter().cloned().map(Ok)
}

/// Learns the sites keeping parses within `budget`, and extracts every page both ways.
fn both_ways(pages: &[Page], budget: u64) -> (Parsed, Vec<String>, Vec<String>) {
    let registry = Registry::builtin().unwrap();
    let learner = Learner::new(&registry, &METHODS).unwrap();
    let (learned, parsed) = learner
        .learn_sites_keeping(stream(pages), stream(pages), budget, &|_| {})
        .unwrap();
    assert_eq!(learned.profiles.len(), 2);
    let ex = Extractor::builder()
        .store(learned.profiles.into_iter().collect())
        .build()
        .unwrap();
    let texts = |all: chaff::ExtractAll<'_, _>| -> Vec<String> {
        all.map(|e| e.result.unwrap().text().to_string()).collect()
    };
    let again = texts(ex.extract_all(stream(pages), 5));
    // A copy goes to the extraction, so that the test can still look at what was kept.
    let from_parses = texts(ex.extract_all_parsed(stream(pages), 5, parsed.clone()));
    (parsed, again, from_parses)
}

#[test]
fn learning_keeps_parses_within_its_budget_and_extraction_gives_the_same_texts() {
    let sites = sites();
    let pages = pages(&sites);
    let total: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    // Everything kept, half, nothing.
    for budget in [total, total / 2, 0] {
        let (parsed, again, from_parses) = both_ways(&pages, budget);
        assert_eq!(again, from_parses, "budget {budget}");
        assert!(parsed.kept_bytes() <= budget);
        match budget {
            0 => assert!(parsed.is_empty()),
            b if b == total => assert_eq!(parsed.len(), pages.len()),
            _ => {
                assert!(
                    !parsed.is_empty() && parsed.len() < pages.len(),
                    "{}",
                    parsed.len()
                );
                // The first pages read are the ones kept.
                let mut parsed = parsed;
                assert!(parsed.take(&pages[0].source).is_some());
                assert!(parsed.take(&pages[pages.len() - 1].source).is_none());
            }
        }
    }
}

#[test]
fn a_parse_of_another_page_or_made_otherwise_is_not_used() {
    let sites = sites();
    let pages = pages(&sites);
    let registry = Registry::builtin().unwrap();
    let learner = Learner::new(&registry, &METHODS).unwrap();
    let (learned, _) = learner
        .learn_sites_keeping(stream(&pages), stream(&pages), 0, &|_| {})
        .unwrap();
    let ex = Extractor::builder()
        .store(learned.profiles.into_iter().collect())
        .build()
        .unwrap();
    let page = pages[3].clone();
    let expected = ex.extract_page(page.clone()).unwrap();
    assert!(expected.profile_site().is_some());
    let opts = ex.load_options().clone();
    // Another page's parse: the page is parsed from its bytes.
    let other = load_page(pages[4].clone(), &opts).unwrap();
    let out = ex
        .extract_page_parsed(page.clone(), Some(other), &opts)
        .unwrap();
    assert_eq!(out.text(), expected.text());
    assert_eq!(out.source(), page.source);
    // A parse whose site was named from its folder, where this extractor names it from
    // its URL: used, the page would get no profile.
    let folder = LoadOptions {
        site_from: SiteFrom::Folder,
        ..opts.clone()
    };
    let mut elsewhere = page.clone();
    elsewhere.folder = Some("elsewhere".into());
    elsewhere.url = None;
    let foreign = load_page(elsewhere, &folder).unwrap();
    assert_eq!(foreign.site.as_str(), "elsewhere");
    let out = ex
        .extract_page_parsed(page.clone(), Some(foreign), &folder)
        .unwrap();
    assert_eq!(out.profile_site(), expected.profile_site());
    assert_eq!(out.text(), expected.text());
    // Its own parse, made as the extractor makes them: used, the same result.
    let own = load_page(page.clone(), &opts).unwrap();
    let out = ex.extract_page_parsed(page, Some(own), &opts).unwrap();
    assert_eq!(out.text(), expected.text());
    assert_eq!(out.profile_site(), expected.profile_site());
}

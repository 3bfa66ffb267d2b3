//! Real pages from the shared evaluation data, when it is there (it is not
//! part of the repository; CI has it beside the checkout).

use std::collections::BTreeMap;
use std::path::PathBuf;

use chaff_corpus::{Pages, PagesOptions, SiteKeySource, site_key};

fn datasets() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the shared data sets are missing, and CI must run the tests that need them"
        );
        println!("skipped: no shared datasets at {}", dir.display());
        None
    }
}

#[test]
fn swde_sites_by_folder() {
    let Some(data) = datasets() else { return };
    let root = data.join("swde-books-subset/html");
    if !root.is_dir() {
        println!("skipped: {} is missing", root.display());
        return;
    }
    let pages = Pages::from_args(&[root.display().to_string()], PagesOptions::default()).unwrap();
    let mut per_site: BTreeMap<String, usize> = BTreeMap::new();
    let mut previous = String::new();
    for item in pages {
        let page = item.unwrap();
        assert!(page.bytes.len() > 100, "{} is nearly empty", page.source);
        assert!(
            page.source > previous,
            "order: {} after {previous}",
            page.source
        );
        previous = page.source.clone();
        let key = site_key(page.url.as_deref(), None, page.folder.as_deref());
        assert_eq!(key.source(), SiteKeySource::Folder);
        *per_site.entry(key.to_string()).or_default() += 1;
    }
    assert_eq!(per_site.len(), 2, "{per_site:?}");
    assert!(per_site.values().all(|&n| n >= 100), "{per_site:?}");
}

#[test]
fn cleanportaleval_by_glob() {
    let Some(data) = datasets() else { return };
    let pattern = format!(
        "{}/cleanportaleval/input/bbc.co.uk_*.html.gz",
        data.display()
    );
    let Ok(pages) = Pages::from_args(std::slice::from_ref(&pattern), PagesOptions::default())
    else {
        println!("skipped: nothing matches {pattern}");
        return;
    };
    let mut count = 0;
    for item in pages {
        let page = item.unwrap();
        let lower = page.bytes.to_ascii_lowercase();
        assert!(
            lower.windows(5).any(|w| w == b"<html"),
            "{} does not look like HTML",
            page.source
        );
        count += 1;
    }
    assert!(count >= 5, "only {count} pages");
}

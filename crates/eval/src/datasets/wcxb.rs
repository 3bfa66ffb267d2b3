//! WCXB (Web Content Extraction Benchmark), the development split as `wcxb-dev/` holds it:
//! `html/<id>.html.gz` and `ground-truth/<id>.json` with the URL, the page type under
//! `_internal.page_type.primary` and the gold under `ground_truth` (`main_content`, `with`
//! and `without` snippets, title, author, date).
//!
//! The page type goes to [`GoldPage::kind`] (`category`, an older upstream name, is read as
//! `collection`); the site is the URL's host, so cross-validation can split by domain. A
//! null or absent `main_content` is an empty gold text (the page has no main content).

use std::path::Path;

use serde::Deserialize;

use super::{DatasetError, GoldPage, host_of, read_text, require_file, stems_with_suffix};

/// WCXB's snippet checks for one page: short strings the main content must contain
/// (`with`) and boilerplate strings it must not (`without`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WcxbGold {
    /// Snippets that must be extracted.
    pub with: Vec<String>,
    /// Snippets that must not be.
    pub without: Vec<String>,
}

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    url: Option<String>,
    #[serde(default, rename = "_internal")]
    internal: Option<Internal>,
    #[serde(default)]
    ground_truth: Option<Truth>,
}

#[derive(Deserialize)]
struct Internal {
    #[serde(default)]
    page_type: Option<serde_json::Value>,
}

#[derive(Deserialize, Default)]
struct Truth {
    #[serde(default)]
    main_content: Option<String>,
    #[serde(default)]
    with: Option<Vec<String>>,
    #[serde(default)]
    without: Option<Vec<String>>,
}

fn page_type(internal: Option<&Internal>) -> String {
    let value = internal.and_then(|i| i.page_type.as_ref());
    let name = match value {
        Some(serde_json::Value::Object(map)) => map.get("primary").and_then(|v| v.as_str()),
        Some(serde_json::Value::String(s)) => Some(s.as_str()),
        _ => None,
    }
    .unwrap_or("article");
    if name == "category" {
        "collection".to_owned()
    } else {
        name.to_owned()
    }
}

/// Reads every page of a WCXB split folder, in id order, with its snippet checks.
pub fn wcxb(dir: &Path) -> Result<Vec<(GoldPage, WcxbGold)>, DatasetError> {
    let truth_dir = dir.join("ground-truth");
    let html_dir = dir.join("html");
    let mut pages = Vec::new();
    for id in stems_with_suffix("WCXB ground-truth folder", &truth_dir, ".json")? {
        let truth_path = truth_dir.join(format!("{id}.json"));
        let text = read_text("WCXB ground truth", &truth_path)?;
        let file: File = serde_json::from_str(&text).map_err(|source| DatasetError::Json {
            path: truth_path.clone(),
            line: None,
            source,
        })?;
        let html_path = html_dir.join(format!("{id}.html.gz"));
        require_file("WCXB page HTML", &html_path)?;
        let truth = file.ground_truth.unwrap_or_default();
        let page = GoldPage {
            site: file.url.as_deref().and_then(host_of),
            gold_text: truth.main_content.unwrap_or_default(),
            url: file.url,
            kind: Some(page_type(file.internal.as_ref())),
            split: None,
            html_path,
            id,
        };
        let snippets = WcxbGold {
            with: truth.with.unwrap_or_default(),
            without: truth.without.unwrap_or_default(),
        };
        pages.push((page, snippets));
    }
    Ok(pages)
}

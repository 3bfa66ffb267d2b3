//! Mozilla Readability's test pages (`mozilla-readability-testpages/test-pages/<name>/`):
//! `source.html.gz` is the page and `expected.html.gz` the article Readability.js keeps,
//! reviewed by its maintainers. The gold text is the visible text of the expected HTML, as
//! chaff's own parser reads it (entities decoded, whitespace collapsed, a line per block).
//! Directories without both files are skipped, as the set's own runner skips them.

use std::path::Path;

use super::{DatasetError, GoldPage, read_maybe_gz, stems_with_suffix};

/// Reads the test pages under `dir` (the set's folder, holding `test-pages/`).
pub fn readability_testpages(dir: &Path) -> Result<Vec<GoldPage>, DatasetError> {
    let root = dir.join("test-pages");
    let mut names = stems_with_suffix("Readability test-pages folder", &root, "")?;
    names.retain(|name| root.join(name).is_dir());
    let mut pages = Vec::new();
    for name in names {
        let folder = root.join(&name);
        let source = folder.join("source.html.gz");
        let expected = folder.join("expected.html.gz");
        if !source.is_file() || !expected.is_file() {
            continue;
        }
        let bytes = read_maybe_gz(&expected).map_err(|e| DatasetError::Io {
            path: expected.clone(),
            source: e,
        })?;
        let gold_text = match chaff_dom::parse(&bytes) {
            Ok(doc) => chaff_dom::TextView::new(&doc).text().to_owned(),
            Err(_) => String::new(),
        };
        pages.push(GoldPage {
            id: name,
            html_path: source,
            gold_text,
            site: None,
            url: None,
            split: None,
            kind: None,
        });
    }
    Ok(pages)
}

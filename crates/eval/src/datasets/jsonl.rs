//! A generic JSON Lines gold format, for sets prepared outside this crate.
//!
//! One JSON object a line: `{"id": …, "html_path": …, "gold_text": …, "site": …}`, with
//! optional `url` and `split`; `site` may be absent or null. A relative `html_path` is
//! relative to the folder of the JSONL file, so a set can be moved as one folder. Blank
//! lines are skipped. The file itself may be gzipped (`.jsonl.gz`).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{DatasetError, GoldPage, read_maybe_gz, require_file};

/// Unknown fields are ignored, so a set may carry extra metadata.
#[derive(Deserialize)]
struct Record {
    id: String,
    html_path: PathBuf,
    gold_text: String,
    #[serde(default)]
    site: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    split: Option<String>,
}

/// Reads a JSON Lines gold file. Every `html_path` must exist and ids must be unique; a bad
/// line is reported with its number.
pub fn jsonl(path: &Path) -> Result<Vec<GoldPage>, DatasetError> {
    let bytes = read_maybe_gz(path).map_err(|e| DatasetError::io("JSONL gold file", path, e))?;
    let text = String::from_utf8(bytes).map_err(|e| DatasetError::Format {
        path: path.to_path_buf(),
        line: 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        message: "not valid UTF-8 (JSON Lines must be UTF-8)".to_owned(),
    })?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut pages = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: Record = serde_json::from_str(line).map_err(|source| DatasetError::Json {
            path: path.to_path_buf(),
            line: Some(index + 1),
            source,
        })?;
        if !seen.insert(record.id.clone()) {
            return Err(DatasetError::Format {
                path: path.to_path_buf(),
                line: index + 1,
                message: format!("duplicate id {:?}", record.id),
            });
        }
        let html_path = base.join(&record.html_path);
        require_file("JSONL page HTML", &html_path)?;
        pages.push(GoldPage {
            id: record.id,
            html_path,
            gold_text: record.gold_text,
            site: record.site,
            url: record.url,
            split: record.split,
            kind: None,
        });
    }
    Ok(pages)
}

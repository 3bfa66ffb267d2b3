//! The Dragnet set (Peters & Lecocq 2013).
//!
//! Layout (`dragnet/MANIFEST.md`): `html/<id>.html.gz`, gold `corrected/<id>.html.corrected.txt`,
//! upstream split lists `training.txt` / `test.txt` (one id a line), and our own
//! `sites.tsv` (`page_id  site_key  site_page_count  split  how_inferred`, with a header).
//!
//! A gold file holds the article, then optionally a delimiter line `!@#$%^&*()  COMMENTS`
//! and the user comments. In the shared copy 23 of the 421 files with comments have a typo
//! in the delimiter (`!@#$%^&*() COMMENTS`, `@#$%^&*() COMMENTS`, `!@ $%^&*()  COMMENTS`,
//! trailing tabs, …), so we accept any line made only of the symbols `!@#$%^&*()` and
//! whitespace (at least four symbols) followed by `COMMENTS`. The gold files mix UTF-8,
//! UTF-16 and Windows-1252; they are decoded before splitting.

use std::collections::HashMap;
use std::path::Path;

use super::{DatasetError, GoldPage, read_text, require_file, stems_with_suffix};

/// A Dragnet gold file split into its two parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DragnetGold {
    /// The text before the comments delimiter, trimmed.
    pub article: String,
    /// The text after it, trimmed; `None` when the file has no delimiter.
    pub comments: Option<String>,
}

impl DragnetGold {
    /// Splits a decoded gold file at its first comments-delimiter line.
    pub fn parse(raw: &str) -> Self {
        let mut offset = 0;
        for line in raw.split_inclusive('\n') {
            if is_comments_delimiter(line) {
                return DragnetGold {
                    article: raw[..offset].trim().to_owned(),
                    comments: Some(raw[offset + line.len()..].trim().to_owned()),
                };
            }
            offset += line.len();
        }
        DragnetGold {
            article: raw.trim().to_owned(),
            comments: None,
        }
    }

    /// The text the caller asked for.
    pub fn text(&self, which: DragnetText) -> String {
        match (which, &self.comments) {
            (DragnetText::Article, _) | (DragnetText::ArticleAndComments, None) => {
                self.article.clone()
            }
            (DragnetText::Comments, comments) => comments.clone().unwrap_or_default(),
            (DragnetText::ArticleAndComments, Some(comments)) => {
                if self.article.is_empty() {
                    comments.clone()
                } else {
                    format!("{}\n{comments}", self.article)
                }
            }
        }
    }
}

fn is_comments_delimiter(line: &str) -> bool {
    let Some(prefix) = line.trim_end().strip_suffix("COMMENTS") else {
        return false;
    };
    let symbols = prefix.chars().filter(|c| "!@#$%^&*()".contains(*c)).count();
    symbols >= 4
        && prefix
            .chars()
            .all(|c| c.is_whitespace() || "!@#$%^&*()".contains(c))
}

/// Which part of a Dragnet gold file becomes [`GoldPage::gold_text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DragnetText {
    /// The article only — the usual main-content gold.
    #[default]
    Article,
    /// The user comments only (empty for pages without comments).
    Comments,
    /// Article then comments, as Dragnet's "content + comments" task scores them.
    ArticleAndComments,
}

/// Reads the Dragnet set in `dir`.
///
/// Every `html/*.html.gz` page must have its gold file. The site comes from `sites.tsv`
/// and the split (`train` / `test`) from the upstream `training.txt` / `test.txt`, falling
/// back to the split column of `sites.tsv`; these metadata files are optional (a missing
/// one leaves the fields `None`), but a malformed `sites.tsv` line is an error. There are
/// no URLs in this set.
pub fn dragnet(dir: &Path, which: DragnetText) -> Result<Vec<GoldPage>, DatasetError> {
    let html_dir = dir.join("html");
    let gold_dir = dir.join("corrected");
    let sites = read_sites(&dir.join("sites.tsv"))?;
    let mut splits: HashMap<String, &'static str> = HashMap::new();
    for (file, split) in [("training.txt", "train"), ("test.txt", "test")] {
        let path = dir.join(file);
        if path.is_file() {
            for id in read_text("Dragnet split list", &path)?.split_whitespace() {
                splits.insert(id.to_owned(), split);
            }
        }
    }
    let mut pages = Vec::new();
    for id in stems_with_suffix("Dragnet HTML folder", &html_dir, ".html.gz")? {
        let gold_path = gold_dir.join(format!("{id}.html.corrected.txt"));
        require_file("Dragnet gold text", &gold_path)?;
        let gold = DragnetGold::parse(&read_text("Dragnet gold text", &gold_path)?);
        let site = sites.get(&id);
        let split = splits
            .get(&id)
            .map(|s| (*s).to_owned())
            .or_else(|| site.map(|s| s.split.clone()));
        pages.push(GoldPage {
            html_path: html_dir.join(format!("{id}.html.gz")),
            gold_text: gold.text(which),
            site: site.map(|s| s.site.clone()),
            url: None,
            split,
            kind: None,
            id,
        });
    }
    Ok(pages)
}

struct SiteRow {
    site: String,
    split: String,
}

/// Reads `sites.tsv` into page id → site and split; an absent file gives an empty map.
fn read_sites(path: &Path) -> Result<HashMap<String, SiteRow>, DatasetError> {
    let mut rows = HashMap::new();
    if !path.is_file() {
        return Ok(rows);
    }
    let text = read_text("Dragnet sites.tsv", path)?;
    for (index, line) in text.lines().enumerate() {
        if (index == 0 && line.starts_with("page_id")) || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(id), Some(site), Some(split)) = (fields.first(), fields.get(1), fields.get(3))
        else {
            return Err(DatasetError::Format {
                path: path.to_path_buf(),
                line: index + 1,
                message: format!(
                    "expected at least 4 tab-separated fields (page_id, site_key, \
                     site_page_count, split), found {}",
                    fields.len()
                ),
            });
        };
        rows.insert(
            id.trim().to_owned(),
            SiteRow {
                site: site.trim().to_owned(),
                split: split.trim().to_owned(),
            },
        );
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_article_and_comments() {
        let gold =
            DragnetGold::parse("\nTitle\n\nBody text.\n!@#$%^&*()  COMMENTS\n\nNice post!\n");
        assert_eq!(gold.article, "Title\n\nBody text.");
        assert_eq!(gold.comments.as_deref(), Some("Nice post!"));
        assert_eq!(gold.text(DragnetText::Article), "Title\n\nBody text.");
        assert_eq!(gold.text(DragnetText::Comments), "Nice post!");
        assert_eq!(
            gold.text(DragnetText::ArticleAndComments),
            "Title\n\nBody text.\nNice post!"
        );
    }

    #[test]
    fn no_delimiter_means_no_comments() {
        let gold = DragnetGold::parse("Just an article about COMMENTS\n");
        assert_eq!(gold.article, "Just an article about COMMENTS");
        assert_eq!(gold.comments, None);
        assert_eq!(gold.text(DragnetText::Comments), "");
        assert_eq!(gold.text(DragnetText::ArticleAndComments), gold.article);
    }

    #[test]
    fn accepts_delimiter_typos_seen_in_the_data() {
        for line in [
            "!@#$%^&*()  COMMENTS",
            "!@#$%^&*() COMMENTS",
            "@#$%^&*() COMMENTS",
            "!@ $%^&*()  COMMENTS",
            "  #$%^&*()  COMMENTS",
            "!@#$%^&*()  \tCOMMENTS",
            "!@#$%^&*()  COMMENTS\t\r\n",
            "!@#$%^&**()  COMMENTS",
        ] {
            assert!(is_comments_delimiter(line), "{line:?}");
        }
        for line in [
            "COMMENTS",
            "See COMMENTS",
            "!! COMMENTS",
            "!@#$%^&*() COMMENTS here",
        ] {
            assert!(!is_comments_delimiter(line), "{line:?}");
        }
    }

    #[test]
    fn only_the_first_delimiter_splits() {
        let gold = DragnetGold::parse("a\n!@#$%^&*() COMMENTS\nb\n!@#$%^&*() COMMENTS\nc");
        assert_eq!(gold.article, "a");
        assert_eq!(gold.comments.as_deref(), Some("b\n!@#$%^&*() COMMENTS\nc"));
    }
}

//! Fixture helpers shared by the integration tests: everything is generated
//! in temporary folders, nothing is read from the repository.
#![allow(dead_code)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use chaff_corpus::{CorpusError, Page};
use flate2::Compression;
use flate2::write::GzEncoder;

/// Writes a file, creating its folders.
pub fn put(root: &Path, rel: &str, bytes: &[u8]) -> PathBuf {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, bytes).unwrap();
    path
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `Ok` pages and `Err` messages, in order.
pub fn split(items: impl Iterator<Item = Result<Page, CorpusError>>) -> (Vec<Page>, Vec<String>) {
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    for item in items {
        match item {
            Ok(p) => pages.push(p),
            Err(e) => errors.push(e.to_string()),
        }
    }
    (pages, errors)
}

/// Page sources relative to `root`, for readable assertions.
pub fn rel_sources(pages: &[Page], root: &Path) -> Vec<String> {
    let root = format!("{}/", root.display());
    pages
        .iter()
        .map(|p| {
            p.source
                .strip_prefix(&root)
                .unwrap_or(&p.source)
                .to_string()
        })
        .collect()
}

/// A small but not tiny HTML page, so that cuts land inside bodies.
pub fn html(title: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>{title}</title></head><body>{}</body></html>",
        format!("<p>{title} paragraph with some words.</p>").repeat(20)
    )
}

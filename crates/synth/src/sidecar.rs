//! Writing a site to a folder and reading its `labels.json` sidecar back.
//!
//! # Sidecar format (`labels.json`, format version 1)
//!
//! ```json
//! {
//!   "format": "chaff-synth-labels",
//!   "version": 1,
//!   "seed": 7, "site_index": 0,
//!   "domain": "www.example.co.uk", "name": "The Example Gazette", "style": "html5",
//!   "label_legend": ["structure", "content", "template", "menu"],
//!   "region_legend": ["structure", "content", "header", "menu", ...],
//!   "pages": [
//!     {
//!       "file": "page-000.html", "url": "https://...", "title": "...", "style": "html5",
//!       "short": false, "nodes": 812, "content_root": 143, "menu_root": 40,
//!       "labels": [0, 40, 2, 12, 3, 30, ...],
//!       "regions": [0, 40, 2, 12, 3, 30, ...]
//!     }
//!   ]
//! }
//! ```
//!
//! `labels` and `regions` are run-length encoded over node ids in `chaff_dom` pre-order: a flat
//! array of `(code, run length)` pairs, where `code` indexes the matching legend (the legend
//! order is [`Label::ALL`] / [`Region::ALL`] and never changes within a format version). The run
//! lengths of each array sum to `nodes`. `content_root` and `menu_root` are node ids. A
//! page's label is always its region's label, so `labels` is redundant with `regions`; it is
//! stored so that readers that only want labels need no region table.

use std::fs;
use std::path::Path;

use chaff_dom::NodeId;
use serde::{Deserialize, Serialize};

use crate::label::{Label, Region};
use crate::{Style, SynthError, SynthSite};

/// The sidecar's file name inside a site folder.
pub const LABELS_FILE: &str = "labels.json";

const FORMAT: &str = "chaff-synth-labels";
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct SidecarJson {
    format: String,
    version: u32,
    seed: u64,
    site_index: u32,
    domain: String,
    name: String,
    style: String,
    label_legend: Vec<String>,
    region_legend: Vec<String>,
    pages: Vec<PageJson>,
}

#[derive(Serialize, Deserialize)]
struct PageJson {
    file: String,
    url: String,
    title: String,
    style: String,
    short: bool,
    nodes: usize,
    content_root: u32,
    menu_root: u32,
    labels: Vec<u32>,
    regions: Vec<u32>,
}

/// The labels of one page, as read back from a sidecar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageLabels {
    /// File name of the page inside the site folder.
    pub file: String,
    /// The page's URL.
    pub url: String,
    /// The article's headline.
    pub title: String,
    /// The page's markup style.
    pub style: Style,
    /// Whether this is one of the site's very short (single-paragraph) pages.
    pub short: bool,
    /// The smallest element containing all content.
    pub content_root: NodeId,
    /// The main menu's container element.
    pub menu_root: NodeId,
    /// Label of every node, indexed by node id.
    pub labels: Vec<Label>,
    /// Region of every node, indexed by node id.
    pub regions: Vec<Region>,
}

/// A site's sidecar, as read back by [`read_labels`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteLabels {
    /// The seed the site was generated from.
    pub seed: u64,
    /// The site's index within its seed.
    pub site_index: u32,
    /// The site's domain.
    pub domain: String,
    /// The site's display name.
    pub name: String,
    /// The site's markup style.
    pub style: Style,
    /// One entry per page, in page order.
    pub pages: Vec<PageLabels>,
}

fn rle(codes: impl Iterator<Item = u8>) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for c in codes {
        let c = u32::from(c);
        let n = out.len();
        if n >= 2 && out[n - 2] == c {
            out[n - 1] += 1;
        } else {
            out.push(c);
            out.push(1);
        }
    }
    out
}

fn unrle<T>(
    runs: &[u32],
    nodes: usize,
    decode: impl Fn(u8) -> Option<T>,
    what: &str,
    file: &str,
) -> Result<Vec<T>, SynthError>
where
    T: Copy,
{
    let bad = |msg: String| SynthError::Format(format!("{file}: {what}: {msg}"));
    if !runs.len().is_multiple_of(2) {
        return Err(bad("odd number of entries".into()));
    }
    let mut out = Vec::with_capacity(nodes);
    for pair in runs.chunks_exact(2) {
        let code = u8::try_from(pair[0]).map_err(|_| bad(format!("code {}", pair[0])))?;
        let v = decode(code).ok_or_else(|| bad(format!("unknown code {code}")))?;
        let len = pair[1] as usize;
        if out.len() + len > nodes {
            return Err(bad("runs longer than the node count".into()));
        }
        out.extend(std::iter::repeat_n(v, len));
    }
    if out.len() != nodes {
        return Err(bad(format!("runs cover {} of {nodes} nodes", out.len())));
    }
    Ok(out)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
/// crash leaves the old file or the new one, never half of one.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SynthError> {
    use std::io::Write;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| SynthError::Io(e.error))?;
    Ok(())
}

/// Writes every page as `dir/<file>` and the sidecar as `dir/labels.json`, creating `dir`.
pub fn write_site(site: &SynthSite, dir: &Path) -> Result<(), SynthError> {
    fs::create_dir_all(dir)?;
    for p in &site.pages {
        write_atomic(&dir.join(&p.file), p.html.as_bytes())?;
    }
    let json = SidecarJson {
        format: FORMAT.to_string(),
        version: VERSION,
        seed: site.seed,
        site_index: site.site_index,
        domain: site.domain.clone(),
        name: site.name.clone(),
        style: site.style.name().to_string(),
        label_legend: Label::ALL.iter().map(|l| l.name().to_string()).collect(),
        region_legend: Region::ALL.iter().map(|r| r.name().to_string()).collect(),
        pages: site
            .pages
            .iter()
            .map(|p| PageJson {
                file: p.file.clone(),
                url: p.url.clone(),
                title: p.title.clone(),
                style: site.style.name().to_string(),
                short: p.short,
                nodes: p.labels.len(),
                content_root: p.content_root.0,
                menu_root: p.menu_root.0,
                labels: rle(p.labels.iter().map(|l| l.code())),
                regions: rle(p.regions.iter().map(|r| r.code())),
            })
            .collect(),
    };
    // One page per line keeps the file diffable and greppable without making it large.
    let mut out = String::new();
    out.push_str("{\n");
    let head = serde_json::json!({
        "format": json.format,
        "version": json.version,
        "seed": json.seed,
        "site_index": json.site_index,
        "domain": json.domain,
        "name": json.name,
        "style": json.style,
        "label_legend": json.label_legend,
        "region_legend": json.region_legend,
    });
    for key in [
        "format",
        "version",
        "seed",
        "site_index",
        "domain",
        "name",
        "style",
        "label_legend",
        "region_legend",
    ] {
        out.push_str(&format!(
            "  {}: {},\n",
            serde_json::to_string(key)?,
            serde_json::to_string(&head[key])?
        ));
    }
    out.push_str("  \"pages\": [\n");
    for (i, p) in json.pages.iter().enumerate() {
        out.push_str("    ");
        out.push_str(&serde_json::to_string(p)?);
        out.push_str(if i + 1 < json.pages.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    out.push_str("  ]\n}\n");
    write_atomic(&dir.join(LABELS_FILE), out.as_bytes())?;
    Ok(())
}

/// Reads `dir/labels.json` back, checking the format, legends and run lengths.
pub fn read_labels(dir: &Path) -> Result<SiteLabels, SynthError> {
    let text = fs::read_to_string(dir.join(LABELS_FILE))?;
    let json: SidecarJson = serde_json::from_str(&text)?;
    if json.format != FORMAT || json.version != VERSION {
        return Err(SynthError::Format(format!(
            "not a {FORMAT} v{VERSION} file: {} v{}",
            json.format, json.version
        )));
    }
    let labels_ok = json
        .label_legend
        .iter()
        .map(String::as_str)
        .eq(Label::ALL.iter().map(|l| l.name()));
    let regions_ok = json
        .region_legend
        .iter()
        .map(String::as_str)
        .eq(Region::ALL.iter().map(|r| r.name()));
    if !labels_ok || !regions_ok {
        return Err(SynthError::Format("unexpected legend".into()));
    }
    let style = parse_style(&json.style)?;
    let mut pages = Vec::with_capacity(json.pages.len());
    for p in json.pages {
        let labels = unrle(&p.labels, p.nodes, Label::from_code, "labels", &p.file)?;
        let regions = unrle(&p.regions, p.nodes, Region::from_code, "regions", &p.file)?;
        if p.content_root as usize >= p.nodes || p.menu_root as usize >= p.nodes {
            return Err(SynthError::Format(format!(
                "{}: root id out of range",
                p.file
            )));
        }
        pages.push(PageLabels {
            style: parse_style(&p.style)?,
            file: p.file,
            url: p.url,
            title: p.title,
            short: p.short,
            content_root: NodeId(p.content_root),
            menu_root: NodeId(p.menu_root),
            labels,
            regions,
        });
    }
    Ok(SiteLabels {
        seed: json.seed,
        site_index: json.site_index,
        domain: json.domain,
        name: json.name,
        style,
        pages,
    })
}

fn parse_style(s: &str) -> Result<Style, SynthError> {
    Style::from_name(s).ok_or_else(|| SynthError::Format(format!("unknown style {s:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rle_round_trips() {
        let codes = [0u8, 0, 0, 2, 2, 3, 0, 1, 1, 1];
        let runs = rle(codes.iter().copied());
        assert_eq!(runs, vec![0, 3, 2, 2, 3, 1, 0, 1, 1, 3]);
        let back = unrle(&runs, codes.len(), Label::from_code, "labels", "x").unwrap();
        assert_eq!(back.iter().map(|l| l.code()).collect::<Vec<_>>(), codes);
        assert!(unrle(&runs, 9, Label::from_code, "labels", "x").is_err());
        assert!(unrle(&[9, 1], 1, Label::from_code, "labels", "x").is_err());
    }
}

//! `chaff-lab segment`: each page's segments with their templateness, by the page-level method
//! (Chakrabarti, Kumar & Punera), which needs no profile.

use anyhow::bail;
use chaff::LoadOptions;
use chaff::load_page;
use chaff::methods::pagelevel::score_page;
use clap::{Args, ValueEnum};
use serde::Serialize;

use chaff_cli::common::{self, InputArgs, Status};
use chaff_cli::flags::ModelArgs;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SegmentFormat {
    /// An indented outline.
    Text,
    /// JSON Lines, one object per page.
    Json,
}

#[derive(Args)]
/// Arguments of `chaff-lab segment`.
pub struct SegmentArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    model: ModelArgs,
    /// Output format: an indented outline, or JSON Lines (one object per page).
    #[arg(long, short, value_enum, default_value = "text")]
    format: SegmentFormat,
}

#[derive(Serialize)]
struct SegmentRecord {
    node: u32,
    selector: String,
    depth: usize,
    templateness: f32,
    template: bool,
    words: u32,
    text: String,
}

/// A selector for a segment root; a text node is named by its parent's selector and
/// `::text` (CSS has no selector for text).
fn node_selector(doc: &chaff::dom::Document, node: chaff::dom::NodeId) -> String {
    if doc.is_text(node) {
        let parent = doc
            .parent(node)
            .and_then(|p| chaff::dom::select::unique_selector(doc, p))
            .unwrap_or_default();
        format!("{parent}::text")
    } else {
        chaff::dom::select::unique_selector(doc, node).unwrap_or_default()
    }
}

/// The first words of a node's visible text.
fn snippet(page: &chaff::LoadedPage, node: chaff::dom::NodeId, words: usize) -> String {
    let end = page.doc.subtree_end(node);
    let mut out = Vec::new();
    for seg in page.view.segments() {
        if seg.node.0 >= node.0 && seg.node.0 < end.0 {
            for w in page
                .view
                .text()
                .get(seg.range())
                .unwrap_or("")
                .split_whitespace()
            {
                out.push(w);
                if out.len() >= words {
                    return format!("{} …", out.join(" "));
                }
            }
        }
    }
    out.join(" ")
}

/// Runs `chaff-lab segment`.
pub fn run(args: SegmentArgs) -> anyhow::Result<Status> {
    let model = args.model.load()?;
    let opts = args.model.apply()?;
    let load = LoadOptions {
        parse: args.input.parse_options(),
        ..LoadOptions::default()
    };
    let mut status = Status::Ok;
    let mut any = false;
    for page in args.input.pages()? {
        let page = match page
            .map_err(chaff::Error::from)
            .and_then(|p| load_page(p, &load))
        {
            Ok(p) => p,
            Err(e) => {
                common::warn(&e);
                status = Status::Partial;
                continue;
            }
        };
        any = true;
        let scores = score_page(
            &model,
            &page.doc,
            &page.view,
            page.url.as_deref(),
            None,
            opts,
        );
        let segments = scores.segments();
        // Depth among segments: how many segment ancestors each has.
        let mut records = Vec::with_capacity(segments.len());
        let mut open: Vec<chaff::dom::NodeId> = Vec::new();
        for s in &segments {
            while open
                .last()
                .is_some_and(|&top| !page.doc.contains(top, s.node))
            {
                open.pop();
            }
            records.push(SegmentRecord {
                node: s.node.0,
                selector: node_selector(&page.doc, s.node),
                depth: open.len(),
                templateness: (s.score * 1000.0).round() / 1000.0,
                template: s.template,
                words: s.words,
                text: snippet(&page, s.node, 12),
            });
            open.push(s.node);
        }
        match args.format {
            SegmentFormat::Json => {
                let v = serde_json::json!({"source": page.source, "segments": records});
                outln!("{v}")?;
            }
            SegmentFormat::Text => {
                outln!("# {}", page.source)?;
                for r in &records {
                    outln!(
                        "{}{:.3} {} {} ({} words) {}",
                        "  ".repeat(r.depth),
                        r.templateness,
                        if r.template { "template" } else { "content " },
                        r.selector,
                        r.words,
                        r.text
                    )?;
                }
            }
        }
    }
    if !any {
        bail!("no page could be read");
    }
    Ok(status)
}

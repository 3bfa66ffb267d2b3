//! `chaff-lab xpath EXPR PAGE...`: evaluates an XPath expression (the subset `chaff::dom::xpath`
//! supports) on pages, so that a user can check and edit a wrapper.

use chaff::corpus::{JsonlWriter, WriteOutcome};
use chaff::dom::XPath;
use chaff::{LoadOptions, load_page};
use clap::{Args, ValueEnum};

use chaff_cli::common::{self, InputArgs, Status};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum XPathFormat {
    /// One match per line: its string value (text of an element, value of an attribute),
    /// whitespace collapsed, after a `source<TAB>` prefix when there are several pages.
    Text,
    /// JSON Lines, one object per page: {"source", "matches": [...], "values": [...]} with
    /// each matched node's id, tag, unique CSS selector (elements) and text, and the
    /// expression's string values (attribute values, or the one value of `count(...)`).
    Json,
}

#[derive(Args)]
pub struct XPathArgs {
    /// The expression, e.g. `//div[contains(@class,'story')]//p` or `//a/@href`.
    #[arg(value_name = "EXPR")]
    expr: String,
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "text")]
    format: XPathFormat,
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn run(args: XPathArgs) -> anyhow::Result<Status> {
    let xpath = XPath::parse(&args.expr).map_err(|e| anyhow::anyhow!("{e}"))?;
    let load = LoadOptions {
        parse: args.input.parse_options(),
        ..LoadOptions::default()
    };
    let pages: Vec<_> = args.input.pages()?.collect();
    let several = pages.len() > 1;
    let mut status = Status::Ok;
    let mut out = JsonlWriter::new(std::io::stdout().lock(), "stdout");
    let mut seen = 0usize;
    for page in pages {
        seen += 1;
        let loaded = match page
            .map_err(chaff::Error::from)
            .and_then(|p| load_page(p, &load))
        {
            Ok(l) => l,
            Err(e) => {
                common::warn(&e);
                status = Status::Partial;
                continue;
            }
        };
        let doc = &loaded.doc;
        match args.format {
            XPathFormat::Text => {
                for value in xpath.select_values(doc) {
                    let value = collapse(&value);
                    if several {
                        outln!("{}\t{value}", loaded.source)?;
                    } else {
                        outln!("{value}")?;
                    }
                }
            }
            XPathFormat::Json => {
                let matches: Vec<serde_json::Value> = xpath
                    .select(doc)
                    .into_iter()
                    .map(|id| {
                        let element = doc.is_element(id);
                        serde_json::json!({
                            "node": id.0,
                            "tag": if element { doc.tag(id) } else { "#text" },
                            "selector": if element { chaff::dom::unique_selector(doc, id) } else { None },
                            "text": collapse(&doc.subtree_text(id)),
                        })
                    })
                    .collect();
                let values = xpath.select_values(doc);
                let record = serde_json::json!({
                    "source": loaded.source,
                    "matches": matches,
                    "values": values,
                });
                if out.write(&record)? == WriteOutcome::Closed {
                    return Ok(status);
                }
            }
        }
    }
    out.flush()?;
    if seen == 0 {
        anyhow::bail!("no pages found in the inputs");
    }
    Ok(status)
}

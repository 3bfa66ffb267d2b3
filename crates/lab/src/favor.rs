//! `chaff-lab favor`: the held-out evidence behind `--favor-precision` and
//! `--favor-recall`. Reads one fold of the Dragnet training split's sites (as
//! `train-content --holdout K/N` leaves it out; the test split is never read), extracts its
//! pages with that fold's content model through the facade (`Extractor::extract`, as
//! `chaff extract` does) under each setting asked for, and writes one JSON line per page and
//! setting (`setting`, `id`, `text`) for `crates/lab/scripts/favor_eval.py --choose` to
//! score. `--dump FILE` also writes, per page, every text node the model judges: its
//! probability of content, words, text and ancestors (index and tag), to study what a
//! setting misses.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, bail};
use chaff::methods::content::{ContentMethod, ContentModel, Units};
use chaff::{Extractor, Registry};
use chaff_cli::common::Status;
use chaff_content::model::{Decide, Widen};
use clap::Args;
use rayon::prelude::*;

/// Arguments of `chaff-lab favor`.
#[derive(Args)]
pub struct FavorArgs {
    /// The fold's content model (`train-content --holdout K/N -o FILE`).
    #[arg(long, value_name = "FILE")]
    model: PathBuf,
    /// The fold of the Dragnet training split's sites to extract, e.g. `2/5`.
    #[arg(long, value_name = "K/N")]
    holdout: String,
    /// Settings, each `node:T`, `block:T` or `block-max:T` (T: the threshold), with
    /// `:LOW` added for hysteresis down to LOW ([`Widen::Runs`]).
    #[arg(long, value_delimiter = ',')]
    setting: Vec<String>,
    /// Where the texts go (JSON Lines).
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Where the per-node dump goes (JSON Lines, a page a line).
    #[arg(long, value_name = "FILE")]
    dump: Option<PathBuf>,
    /// The shared data sets folder (default: found beside the workspace).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
}

/// A setting's content method: `KIND:T` or `KIND:T:LOW` (hysteresis down to LOW).
fn method(model: &Arc<ContentModel>, setting: &str) -> anyhow::Result<ContentMethod> {
    let mut parts = setting.split(':');
    let kind = parts.next().unwrap_or_default();
    let mut number = |what: &str| -> anyhow::Result<Option<f32>> {
        parts
            .next()
            .map(|t| t.parse::<f32>())
            .transpose()
            .with_context(|| format!("setting {setting:?}: bad {what}"))
    };
    let threshold = number("threshold")?
        .with_context(|| format!("setting {setting:?}: expected KIND:THRESHOLD[:LOW]"))?;
    let widen = match number("low threshold")? {
        Some(low) => Widen::Runs { low },
        None => Widen::Off,
    };
    let decide = match kind {
        "node" => Decide::Node,
        "block" => Decide::Block,
        "block-max" => Decide::BlockMax,
        other => bail!("setting {setting:?}: unknown kind {other:?}"),
    };
    let mut method = ContentMethod::favoring(model.clone(), None);
    method.threshold = Some(threshold);
    method.decide = decide;
    method.widen = widen;
    Ok(method)
}

/// Runs `chaff-lab favor`.
pub fn run(args: FavorArgs) -> anyhow::Result<Status> {
    let (k, n) = args
        .holdout
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?)))
        .filter(|&(k, n)| n >= 2 && (1..=n).contains(&k))
        .context("--holdout takes K/N with 1 <= K <= N, N >= 2")?;
    let root = match &args.data {
        Some(d) => d.clone(),
        None => chaff_eval::datasets_dir()
            .context("cannot find the shared data sets: pass --data DIR or set CHAFF_SHARED")?,
    };
    let pages: Vec<_> = chaff_eval::dragnet(&root.join("dragnet"), Default::default())?
        .into_iter()
        .filter(|p| p.split.as_deref() == Some("train"))
        .filter(|p| {
            p.site
                .as_deref()
                .is_some_and(|s| crate::content::fold_of(s, n) == k - 1)
        })
        .collect();
    let model = Arc::new(ContentModel::load(&args.model)?);
    let extractors: Vec<(String, Extractor)> = args
        .setting
        .iter()
        .map(|s| {
            let mut registry = Registry::builtin()?;
            registry.register(method(&model, s)?);
            Ok((s.clone(), Extractor::builder().registry(registry).build()?))
        })
        .collect::<anyhow::Result<_>>()?;
    let plain = {
        let mut registry = Registry::builtin()?;
        registry.register(method(&model, "node:0.4")?);
        Extractor::builder().registry(registry).build()?
    };
    let lines: Vec<(Vec<String>, Option<String>)> = pages
        .par_iter()
        .map(|page| {
            let Ok(bytes) = chaff_eval::read_maybe_gz(&page.html_path) else {
                return (Vec::new(), None);
            };
            let texts = extractors
                .iter()
                .map(|(s, ex)| {
                    let text = ex
                        .extract(&bytes, None)
                        .map(|e| e.text().to_owned())
                        .unwrap_or_default();
                    serde_json::json!({"setting": s, "id": page.id, "text": text}).to_string()
                })
                .collect();
            let dump = args.dump.as_ref().and_then(|_| {
                let e = plain.extract(&bytes, None).ok()?;
                let (doc, view) = (e.document(), e.view());
                let units = Units::compute(doc, view, None);
                let p = model.predict(&units);
                let rows: Vec<serde_json::Value> = units
                    .nodes
                    .iter()
                    .zip(&units.words)
                    .zip(&p)
                    .map(|((&id, &w), &pk)| {
                        let text = view
                            .segment_of(id)
                            .and_then(|s| view.text().get(s.range()))
                            .unwrap_or("");
                        let up: Vec<(u32, String)> = doc
                            .ancestors(id)
                            .map(|a| {
                                let mut name = doc.tag(a).to_owned();
                                for key in ["id", "class"] {
                                    if let Some(v) = doc.attr(a, key) {
                                        name.push_str(if key == "id" { "#" } else { "." });
                                        name.push_str(v);
                                    }
                                }
                                (a.0, name)
                            })
                            .collect();
                        serde_json::json!([pk, w, text, up])
                    })
                    .collect();
                Some(serde_json::json!({"id": page.id, "units": rows}).to_string())
            });
            (texts, dump)
        })
        .collect();
    let write = |path: &PathBuf, lines: Vec<&String>| -> anyhow::Result<()> {
        let mut text = String::new();
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        chaff_corpus::sink::atomic_write(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    };
    if let Some(path) = &args.out {
        write(path, lines.iter().flat_map(|(t, _)| t).collect())?;
    }
    if let Some(path) = &args.dump {
        write(path, lines.iter().filter_map(|(_, d)| d.as_ref()).collect())?;
    }
    eprintln!("{} held-out pages of fold {k}/{n}", pages.len());
    Ok(Status::Ok)
}

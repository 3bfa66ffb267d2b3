//! `chaff-lab train-menu`: the menu detector's (Alarte, Insa & Silva) weights and thresholds
//! fitted to labelled pages.

use std::path::PathBuf;

use chaff_menu::MenuParams;
use clap::{Args, ValueEnum};

use chaff_cli::common::Status;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TrainMethod {
    /// The scored-element model (the default detector).
    Model,
    /// The paper's section 4.1 grid over its six weights and two thresholds.
    Paper,
}

/// Arguments of `chaff-lab train-menu`.
#[derive(Args)]
pub struct TrainMenuArgs {
    /// What to fit.
    #[arg(long, value_enum, default_value = "model")]
    method: TrainMethod,
    /// Labelled pages in the format of ../shared/datasets/menu-labels/labels.json.
    #[arg(long, value_name = "FILE")]
    labels: PathBuf,
    /// Cross-validation folds, by site (0 or 1: none).
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Where to write the fitted parameters (JSON, for `chaff menu --params`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `chaff-lab train-menu`.
pub fn train(args: TrainMenuArgs) -> anyhow::Result<Status> {
    let show = |what: &str, s: &chaff_menu::eval::Summary| {
        outln!(
            "{what:<28} pages {:>4}  P {:>6.2}  R {:>6.2}  F1 {:>6.2}  perfect {:>5.1}%",
            s.pages,
            100.0 * s.precision,
            100.0 * s.recall,
            100.0 * s.f1,
            100.0 * s.perfect
        )
    };
    if let TrainMethod::Model = args.method {
        let opts = chaff_menu::model::FitOptions::default();
        let (model, fitted, cv) =
            chaff_menu::model::fit_from_labels(&args.labels, args.folds, &opts)
                .map_err(|e| anyhow::anyhow!("{}: {e}", args.labels.display()))?;
        outln!("model of {} features", chaff_menu::model::FEATURES)?;
        show("fitted (on its own pages)", &fitted)?;
        if let Some(cv) = &cv {
            show(
                &format!("{}-fold cross-validation", cv.models.len()),
                &cv.pooled,
            )?;
        }
        if let Some(path) = &args.output {
            let params = MenuParams {
                model,
                ..MenuParams::default()
            };
            chaff::corpus::atomic_write(path, params.to_json().as_bytes())?;
            eprintln!("chaff: parameters -> {}", path.display());
        }
        return Ok(Status::Ok);
    }
    let grid = chaff_menu::train::Grid::paper();
    let (trained, cv) = chaff_menu::train::train_from_labels(&args.labels, &grid, args.folds)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.labels.display()))?;
    outln!("{} combinations of the paper's grid", trained.combinations)?;
    show("fitted (on its own pages)", &trained.summary)?;
    if let Some(cv) = &cv {
        show(
            &format!("{}-fold cross-validation", cv.folds.len()),
            &cv.pooled,
        )?;
    }
    if let Some(path) = &args.output {
        chaff::corpus::atomic_write(path, trained.params.to_json().as_bytes())?;
        eprintln!("chaff: parameters -> {}", path.display());
    }
    Ok(Status::Ok)
}

//! Plots: the document-frequency histogram with the chosen cutoff (thesis Figure 3.2), and
//! line charts (the FOREST paper's Figures 5 and 6).

use std::path::Path;

use anyhow::Context;
use chaff_suffix::cutoff::Histogram;
use plotters::prelude::*;

/// Arguments of `chaff-lab plot-histogram`.
#[derive(clap::Args)]
pub struct HistogramArgs {
    /// A profile with a suffix model (as `chaff learn` writes it).
    #[arg(value_name = "PROFILE")]
    profile: std::path::PathBuf,
    /// Where to write the SVG.
    #[arg(short, long, value_name = "FILE.svg")]
    output: std::path::PathBuf,
}

/// Runs `chaff-lab plot-histogram`: the suffix model's document-frequency histogram with its
/// cutoff (thesis Figure 3.2).
pub fn plot_histogram(args: HistogramArgs) -> anyhow::Result<chaff_cli::common::Status> {
    let profile = chaff::Profile::load(&args.profile)?;
    let model = profile
        .methods
        .get("suffix")
        .context("the profile has no suffix model")?;
    let model: chaff_suffix::SuffixModel = serde_json::from_value(model.clone())
        .with_context(|| format!("{}: invalid suffix model", args.profile.display()))?;
    histogram(&args.output, &profile.site, &model.histogram)?;
    Ok(chaff_cli::common::Status::Ok)
}

/// Draws the histogram (log-scaled counts) with the cutoff bin marked, as SVG.
pub fn histogram(path: &Path, site: &str, h: &Histogram) -> anyhow::Result<()> {
    let max = h.counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 480)).into_drawing_area();
        draw_histogram(&root, site, h, max)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("cannot draw {}", path.display()))?;
    }
    chaff::corpus::atomic_write(path, svg.as_bytes())?;
    Ok(())
}

fn draw_histogram(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    site: &str,
    h: &Histogram,
    max: f64,
) -> Result<(), Box<dyn std::error::Error>> {
    {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!(
                    "{site}: strings by share of {} pages (cutoff at bin {})",
                    h.documents, h.cutoff
                ),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0u32..h.counts.len() as u32, (0.8f64..max * 1.5).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("share of pages (%)")
            .y_desc("strings")
            .disable_x_mesh()
            .draw()?;
        chart.draw_series(h.counts.iter().enumerate().filter(|(_, c)| **c > 0).map(
            |(i, &c)| {
                let colour = if i >= h.cutoff {
                    RED.mix(0.7)
                } else {
                    BLUE.mix(0.6)
                };
                Rectangle::new([(i as u32, 0.8), (i as u32 + 1, c as f64)], colour.filled())
            },
        ))?;
        let cut = h.cutoff as u32;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(cut, 0.8), (cut, max * 1.5)],
            BLACK.stroke_width(2),
        )))?;
        root.present()?;
        Ok(())
    }
}

/// One line of a line chart: its name and its points.
pub struct Line {
    /// The legend entry.
    pub name: String,
    /// (x, y) points in x order.
    pub points: Vec<(f64, f64)>,
}

/// Draws lines with points and a legend, y from 0 to 1, as SVG (the FOREST paper's Figures
/// 5 and 6).
pub fn lines(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    lines: &[Line],
) -> anyhow::Result<()> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        draw_lines(&root, title, x_desc, y_desc, lines)
            .map_err(|e| anyhow::anyhow!("{e}"))
            .with_context(|| format!("cannot draw {}", path.display()))?;
    }
    chaff::corpus::atomic_write(path, svg.as_bytes())?;
    Ok(())
}

fn draw_lines(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    lines: &[Line],
) -> Result<(), Box<dyn std::error::Error>> {
    root.fill(&WHITE)?;
    let xs = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
    let (lo, hi) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let (lo, hi) = if lo <= hi {
        (lo, hi.max(lo + 1.0))
    } else {
        (0.0, 1.0)
    };
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(lo..hi, 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()?;
    for (i, line) in lines.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(
                line.points.iter().copied(),
                colour.stroke_width(2),
            ))?
            .label(line.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(
            line.points
                .iter()
                .map(|&p| Circle::new(p, 3, colour.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

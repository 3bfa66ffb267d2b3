//! Scores the menu detector on `shared/datasets/menu-labels` (and on synthetic sites): the
//! paper's weights, and weights trained with section 4.1's grid under site-wise
//! cross-validation; detection time per page (features + detection, parsing excluded).
//!
//! ```text
//! cargo run --release -p chaff-menu --example menu_eval [-- [--labels FILE] [--folds K]
//!     [--readings] [--pages] [--synth N]]
//! ```
//! `--readings` also sweeps the readings of the ambiguous definitions (paper weights and CV);
//! `--pages` prints every page's score; `--synth N` sets the number of synthetic sites (default
//! 9, 0 to skip).
//!
//! `--model` evaluates the default detector ([`chaff_menu::model`]) instead: cross-validated by
//! site on the labelled pages, with generated sites in every fold's training set as in the
//! built-in model, then fitted to all of them (the weights it prints are the built-in ones),
//! and on held-out generated sites. Environment knobs for the measurements in the crate docs:
//! `MENU_SYNTH_TRAIN` (generated sites in training, default 6), `MENU_SYNTH_WEIGHT` (their
//! pages' weight, 0.7), `MENU_RANK_ONLY` (their pages leave "no menu" out), `MENU_L2`,
//! `MENU_STEPS`, `MENU_TUNE_NULL` (the null threshold that maximises the training pages' F1),
//! `MENU_DROP` (comma-separated feature names left out of fitting), `MENU_SYNTH_SEED` (the
//! evaluation sites' seed, 2024), `MENU_DEBUG`.

use std::path::PathBuf;
use std::time::Instant;

use chaff_menu::eval::{LabelledPage, PageScore, Summary, load_labelled, summarize};
use chaff_menu::features::{
    Characters, Children, Descendants, LinkRatio, MenuSelection, Representative,
};
use chaff_menu::train::{Grid, TrainPage, cross_validate, train};
use chaff_menu::{MenuParams, NodeFeatures, Readings, detect_features, detect_with_siblings};

fn main() {
    let mut labels = PathBuf::from("../shared/datasets/menu-labels/labels.json");
    if !labels.exists() {
        labels = PathBuf::from("/work/shared/datasets/menu-labels/labels.json");
    }
    let mut folds = 5usize;
    let mut sweep = false;
    let mut per_page = false;
    let mut sweep_all = false;
    let mut model_only = false;
    let mut synth_sites = 9usize;
    let mut params = MenuParams::PAPER;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--labels" => labels = args.next().map(PathBuf::from).unwrap_or(labels),
            "--folds" => folds = args.next().and_then(|v| v.parse().ok()).unwrap_or(folds),
            "--readings" => sweep = true,
            "--sweep-all" => sweep_all = true,
            "--pages" => per_page = true,
            "--model" => model_only = true,
            "--params" => {
                let text = args.next().unwrap_or_default();
                params = MenuParams::from_json(&text).unwrap_or_else(|e| {
                    eprintln!("--params: {e}");
                    std::process::exit(2)
                });
            }
            "--synth" => synth_sites = args.next().and_then(|v| v.parse().ok()).unwrap_or(9),
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }

    if sweep_all {
        let pages = load_labelled(&labels).expect("labels");
        all_readings(&pages, folds);
        return;
    }
    if model_only {
        let pages = load_labelled(&labels).expect("labels");
        model_eval(&pages, folds, synth_sites);
        return;
    }
    if labels.exists() {
        labelled(&labels, folds, sweep, per_page, &params);
    } else {
        println!(
            "menu-labels: skipped ({} not found; the shared data sets are absent)",
            labels.display()
        );
    }
    if synth_sites > 0 {
        synthetic(synth_sites, &params);
    }
}

fn header() {
    println!(
        "| {:<34} | {:>6} | {:>6} | {:>6} | {:>7} | {:>9} | {:>8} |",
        "run", "P", "R", "F1", "perfect", "non-null F1", "null acc"
    );
    println!(
        "|{:-<36}|{:->8}|{:->8}|{:->8}|{:->9}|{:->11}|{:->10}|",
        "", "", "", "", "", "", ""
    );
}

fn row(name: &str, s: &Summary) {
    println!(
        "| {:<34} | {:>6.2} | {:>6.2} | {:>6.2} | {:>6.1}% | {:>11.2} | {:>7}/{} |",
        name,
        100.0 * s.precision,
        100.0 * s.recall,
        100.0 * s.f1,
        100.0 * s.perfect,
        100.0 * s.nonnull_f1,
        (s.null_accuracy * s.null_pages as f64).round() as usize,
        s.null_pages
    );
}

fn labelled(
    labels: &std::path::Path,
    folds: usize,
    sweep: bool,
    per_page: bool,
    base: &MenuParams,
) {
    let t = Instant::now();
    let pages = match load_labelled(labels) {
        Ok(p) => p,
        Err(e) => {
            println!("menu-labels: skipped ({e})");
            return;
        }
    };
    println!(
        "menu-labels: {} pages, {} sites, parsed in {:.2} s",
        pages.len(),
        {
            let mut s: Vec<&str> = pages.iter().map(|p| p.entry.site.as_str()).collect();
            s.sort_unstable();
            s.dedup();
            s.len()
        },
        t.elapsed().as_secs_f64()
    );
    let by_link_texts = pages
        .iter()
        .filter(|p| matches!(p.gold, chaff_menu::eval::Gold::LinkTexts(_)))
        .count();
    let unresolved = pages
        .iter()
        .filter(|p| p.gold == chaff_menu::eval::Gold::Unresolved)
        .count();
    println!(
        "gold elements: {} by selector, {by_link_texts} by link texts, {unresolved} unresolved, {} null",
        pages
            .iter()
            .filter(|p| matches!(p.gold, chaff_menu::eval::Gold::Selector(_)))
            .count(),
        pages.iter().filter(|p| p.gold.is_null()).count()
    );
    let null: Vec<bool> = pages.iter().map(|p| p.gold.is_null()).collect();

    println!();
    header();
    let paper = *base;
    let (strict, lenient) = score_all(&pages, &paper);
    row("paper weights", &summarize(&strict, &null));
    row("paper weights (lenient)", &summarize(&lenient, &null));

    // Definition 5 with the other page of the same site, where there is one.
    let mut def5 = Vec::new();
    let mut def5_null = Vec::new();
    let mut base = Vec::new();
    for (i, p) in pages.iter().enumerate() {
        let sibs: Vec<&chaff_dom::Document> = pages
            .iter()
            .enumerate()
            .filter(|&(j, q)| j != i && q.entry.site == p.entry.site)
            .map(|(_, q)| &q.doc)
            .collect();
        if sibs.is_empty() {
            continue;
        }
        def5.push(p.score(detect_with_siblings(&p.doc, &sibs, &paper)));
        base.push(strict[i]);
        def5_null.push(null[i]);
    }
    row(
        &format!("paper, {} pages with a sibling", base.len()),
        &summarize(&base, &def5_null),
    );
    row("  same pages + Definition 5", &summarize(&def5, &def5_null));

    let grid = Grid {
        readings: paper.readings,
        ..Grid::paper()
    };
    let t = Instant::now();
    let tpages: Vec<TrainPage> = pages
        .iter()
        .map(|p| TrainPage::new(&p.doc, p.gold, &p.entry.site, &grid.readings))
        .collect();
    let prep = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let cv = cross_validate(&tpages, &grid, folds).expect("cross-validation");
    let cv_time = t.elapsed().as_secs_f64();
    row(&format!("trained, {folds}-fold CV by site"), &cv.pooled);
    let t = Instant::now();
    let full = train(&tpages, &grid).expect("training");
    let train_time = t.elapsed().as_secs_f64();
    row("trained on all pages (in-sample)", &full.summary);
    println!();
    println!(
        "grid: {} combinations ({} weight vectors x {} threshold pairs), {} pages; features {:.3} s, \
         one full grid pass {:.2} s, CV (one pass, {} folds) {:.2} s, on {} threads",
        full.combinations,
        grid.weight_vectors().len(),
        grid.thresholds().len(),
        tpages.len(),
        prep,
        train_time,
        folds,
        cv_time,
        rayon::current_num_threads()
    );
    for (i, f) in cv.folds.iter().enumerate() {
        println!(
            "  fold {i}: test F1 {:.2} on {} pages; {}",
            100.0 * f.test.f1,
            f.test.pages,
            params_line(&f.params)
        );
    }
    println!("  all pages: {}", params_line(&full.params));

    timing(&pages, &paper);

    if per_page {
        println!();
        println!("per page (paper weights / CV):");
        for (i, p) in pages.iter().enumerate() {
            let pred = detect_features(&NodeFeatures::compute(&p.doc, &paper.readings), &paper);
            let f = NodeFeatures::compute(&p.doc, &paper.readings);
            let sel = pred
                .map(|e| chaff_dom::unique_selector(&p.doc, f.node(e)).unwrap_or_default())
                .unwrap_or_else(|| "null".into());
            println!(
                "  {:>5.2} {:>5.2}  {:<28} gold {:<28} pred {}",
                strict[i].f1,
                cv.page_scores[i].f1,
                p.entry.site,
                p.entry.menu.as_deref().unwrap_or("null"),
                sel
            );
        }
    }

    if sweep {
        readings_sweep(&pages, &null, folds, paper.readings);
    }
}

fn params_line(p: &MenuParams) -> String {
    let w = p.weights;
    format!(
        "menu {:.2} root {:.2} | amp {:.2} link {:.2} text {:.2} ul {:.2} rep {:.2} pos {:.2}",
        p.menu_threshold,
        p.root_threshold,
        w.amplitude,
        w.link,
        w.text,
        w.ul,
        w.representative,
        w.position
    )
}

fn score_all(pages: &[LabelledPage], params: &MenuParams) -> (Vec<PageScore>, Vec<PageScore>) {
    pages
        .iter()
        .map(|p| {
            let f = NodeFeatures::compute(&p.doc, &params.readings);
            let pred = detect_features(&f, params).map(|e| f.node(e));
            (p.score(pred), p.score_lenient(pred))
        })
        .unzip()
}

fn timing(pages: &[LabelledPage], params: &MenuParams) {
    // One core: features + detection, parsing excluded; best of 5 rounds.
    let mut best = f64::INFINITY;
    let nodes: usize = pages.iter().map(|p| p.doc.len()).sum();
    for _ in 0..5 {
        let t = Instant::now();
        let mut found = 0usize;
        for p in pages {
            let f = NodeFeatures::compute(&p.doc, &params.readings);
            found += usize::from(detect_features(&f, params).is_some());
        }
        std::hint::black_box(found);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "speed: {:.3} ms per page (features + detection, one core, parsing excluded; {} pages, {:.0} nodes per page)",
        1000.0 * best / pages.len() as f64,
        pages.len(),
        nodes as f64 / pages.len() as f64
    );
}

fn readings_sweep(pages: &[LabelledPage], null: &[bool], folds: usize, d: Readings) {
    println!();
    println!("readings sweep (one reading changed at a time from the defaults):");
    header();
    let mut variants: Vec<(String, Readings)> = vec![("defaults".into(), d)];
    for lr in [
        LinkRatio::HalfPlusDensity,
        LinkRatio::Density,
        LinkRatio::DoubleDensity,
        LinkRatio::Literal,
    ] {
        for ld in [Descendants::AllNodes, Descendants::Elements] {
            if lr == d.link_ratio && ld == d.link_descendants {
                continue;
            }
            variants.push((
                format!("link {lr:?}/{ld:?}"),
                Readings {
                    link_ratio: lr,
                    link_descendants: ld,
                    ..d
                },
            ));
        }
    }
    for ac in [Children::Elements, Children::NonBlank, Children::AllNodes] {
        if ac != d.amplitude_children {
            variants.push((
                format!("amplitude {ac:?}"),
                Readings {
                    amplitude_children: ac,
                    ..d
                },
            ));
        }
    }
    for ch in [Characters::Visible, Characters::All] {
        if ch != d.characters {
            variants.push((
                format!("characters {ch:?}"),
                Readings {
                    characters: ch,
                    ..d
                },
            ));
        }
    }
    for r in [Representative::Exact, Representative::Substring] {
        if r != d.representative {
            variants.push((
                format!("representative {r:?}"),
                Readings {
                    representative: r,
                    ..d
                },
            ));
        }
    }
    for m in [MenuSelection::Subtree, MenuSelection::Children] {
        if m != d.menu_selection {
            variants.push((
                format!("alg2 {m:?}"),
                Readings {
                    menu_selection: m,
                    ..d
                },
            ));
        }
    }
    for (name, r) in variants {
        let params = MenuParams {
            readings: r,
            ..MenuParams::PAPER
        };
        let (strict, _) = score_all(pages, &params);
        row(&format!("{name} paper"), &summarize(&strict, null));
        let grid = Grid {
            readings: r,
            ..Grid::paper()
        };
        let tp: Vec<TrainPage> = pages
            .iter()
            .map(|p| TrainPage::new(&p.doc, p.gold, &p.entry.site, &r))
            .collect();
        let cv = cross_validate(&tp, &grid, folds).expect("cv");
        row(&format!("{name} CV"), &cv.pooled);
        let full = train(&tp, &grid).expect("train");
        row(&format!("{name} in-sample"), &full.summary);
    }
}

fn synthetic(n: usize, base: &MenuParams) {
    println!();
    let sites = chaff_synth::generate_sites(2024, n, 10);
    let mut scores = Vec::new();
    let mut by_style: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    let mut tpages = Vec::new();
    let mut def5 = Vec::new();
    for site in &sites {
        let docs: Vec<chaff_dom::Document> =
            site.pages.iter().filter_map(|p| p.parse().ok()).collect();
        for (page, doc) in site.pages.iter().zip(&docs) {
            let f = NodeFeatures::compute(doc, &base.readings);
            let pred = detect_features(&f, base).map(|e| f.node(e));
            let leaves = chaff_menu::eval::LeafCounts::new(doc);
            let gold = chaff_menu::eval::Gold::Selector(page.menu_root);
            let s = chaff_menu::eval::score(doc, &leaves, gold, pred);
            by_style.entry(site.style.name()).or_default().push(s.f1);
            scores.push(s);
            let sibs: Vec<&chaff_dom::Document> = docs
                .iter()
                .filter(|d| !std::ptr::eq(*d, doc))
                .take(3)
                .collect();
            def5.push(chaff_menu::eval::score(
                doc,
                &leaves,
                gold,
                detect_with_siblings(doc, &sibs, base),
            ));
            tpages.push(TrainPage::new(doc, gold, &site.domain, &base.readings));
        }
    }
    let null = vec![false; scores.len()];
    println!("synthetic sites ({n} sites x 10 pages, seed 2024):");
    header();
    row("paper weights", &summarize(&scores, &null));
    row("paper weights + Definition 5", &summarize(&def5, &null));
    let grid = Grid {
        readings: base.readings,
        ..Grid::paper()
    };
    let cv = cross_validate(&tpages, &grid, 3).expect("cv");
    row("trained, 3-fold CV by site", &cv.pooled);
    let full = train(&tpages, &grid).expect("train");
    row("trained on all (in-sample)", &full.summary);
    println!("  all sites: {}", params_line(&full.params));
    for (style, v) in by_style {
        println!(
            "  paper weights, {style}: F1 {:.2} on {} pages",
            100.0 * v.iter().sum::<f64>() / v.len() as f64,
            v.len()
        );
    }
}

fn all_readings(pages: &[LabelledPage], folds: usize) {
    use chaff_menu::features::Roots;
    use chaff_menu::train::{cross_validate_with, evaluate_grid, train_with};
    let null: Vec<bool> = pages.iter().map(|p| p.gold.is_null()).collect();
    let mut rows = Vec::new();
    for lr in [
        LinkRatio::HalfPlusDensity,
        LinkRatio::Density,
        LinkRatio::DoubleDensity,
    ] {
        for ld in [Descendants::AllNodes, Descendants::Elements] {
            for ac in [Children::Elements, Children::NonBlank, Children::AllNodes] {
                for rep in [Representative::Exact, Representative::Substring] {
                    for roots in [Roots::All, Roots::Outermost] {
                        let r = Readings {
                            link_ratio: lr,
                            link_descendants: ld,
                            amplitude_children: ac,
                            representative: rep,
                            roots,
                            ..Readings::default()
                        };
                        let params = MenuParams {
                            readings: r,
                            ..MenuParams::PAPER
                        };
                        let (strict, _) = score_all(pages, &params);
                        let paper = summarize(&strict, &null);
                        let grid = Grid {
                            readings: r,
                            ..Grid::paper()
                        };
                        let tp: Vec<TrainPage> = pages
                            .iter()
                            .map(|p| TrainPage::new(&p.doc, p.gold, &p.entry.site, &r))
                            .collect();
                        let scores = evaluate_grid(&tp, &grid);
                        let cv = cross_validate_with(&tp, &scores, folds).expect("cv");
                        let full = train_with(&tp, &scores).expect("train");
                        let name = format!("{lr:?}/{ld:?} amp {ac:?} rep {rep:?} roots {roots:?}");
                        println!(
                            "{name:<70} paper {:.2} cv {:.2} in {:.2}",
                            100.0 * paper.f1,
                            100.0 * cv.pooled.f1,
                            100.0 * full.summary.f1
                        );
                        rows.push((cv.pooled.f1, paper.f1, full.summary.f1, name));
                    }
                }
            }
        }
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("\nbest by CV F1:");
    for (cv, paper, full, name) in rows.iter().take(15) {
        println!(
            "{name:<70} paper {:.2} cv {:.2} in {:.2}",
            100.0 * paper,
            100.0 * cv,
            100.0 * full
        );
    }
}

fn model_eval(pages: &[LabelledPage], folds: usize, synth_sites: usize) {
    use chaff_menu::model::{self, FEATURE_NAMES, FitOptions, ModelPage};
    let null: Vec<bool> = pages.iter().map(|p| p.gold.is_null()).collect();
    let r = Readings::default();
    let (tp, mp) = model::prepare_labelled(pages, &r);
    let oracle: Vec<PageScore> = mp
        .iter()
        .map(|p| {
            if p.null {
                PageScore::all(1.0)
            } else {
                p.scores
                    .iter()
                    .copied()
                    .max_by(|a, b| a.f1.total_cmp(&b.f1))
                    .unwrap_or_default()
            }
        })
        .collect();
    header();
    row("candidates' oracle", &summarize(&oracle, &null));
    let mut opts = FitOptions::default();
    if let Some(v) = std::env::var("MENU_L2").ok().and_then(|v| v.parse().ok()) {
        opts.l2 = v;
    }
    if let Some(v) = std::env::var("MENU_STEPS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        opts.steps = v;
    }
    opts.tune_null = std::env::var_os("MENU_TUNE_NULL").is_some();
    // Generated sites (another seed than the synthetic evaluation's) that may join training.
    let synth_train: usize = std::env::var("MENU_SYNTH_TRAIN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(model::DEFAULT_SYNTH_SITES);
    let extra: Vec<ModelPage> =
        chaff_synth::generate_sites(model::DEFAULT_SYNTH_SEED, synth_train, 3)
            .iter()
            .flat_map(|site| {
                site.pages.iter().filter_map(|page| {
                    let doc = page.parse().ok()?;
                    let gold = chaff_menu::eval::Gold::Selector(page.menu_root);
                    let t = TrainPage::new(&doc, gold, &site.domain, &r);
                    let mut m = ModelPage::new(&doc, &t);
                    m.rank_only = std::env::var_os("MENU_RANK_ONLY").is_some();
                    m.weight = std::env::var("MENU_SYNTH_WEIGHT")
                        .ok()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(model::DEFAULT_SYNTH_WEIGHT);
                    Some(m)
                })
            })
            .collect();
    // `MENU_DROP=a,b`: leave features out (their column is zeroed, so their weight stays 0).
    let drop: Vec<usize> = std::env::var("MENU_DROP")
        .unwrap_or_default()
        .split(',')
        .filter_map(|n| FEATURE_NAMES.iter().position(|f| *f == n.trim()))
        .collect();
    let (mut mp, mut extra) = (mp, extra);
    for p in mp.iter_mut().chain(extra.iter_mut()) {
        for r in &mut p.rows {
            for &k in &drop {
                r[k] = 0.0;
            }
        }
    }
    let cv = model::cross_validate(&mp, &tp, &extra, folds, &opts);
    row(&format!("model, {folds}-fold CV by site"), &cv.pooled);
    let all: Vec<&ModelPage> = mp.iter().chain(&extra).collect();
    let full = model::fit(&all, &opts);
    let ins: Vec<PageScore> = mp.iter().map(|p| p.score(&full)).collect();
    row("model in-sample", &summarize(&ins, &null));
    println!(
        "model on all pages (null threshold {:.4}):",
        full.null_threshold
    );
    for (n, w) in FEATURE_NAMES.iter().zip(full.weights) {
        println!("  {n:<20} {w:>8.4}");
    }
    println!("weights: {:?}", full.weights);
    // Definition 5 with the built-in model, on the pages whose site has another page here.
    let (mut base, mut def5, mut dn) = (Vec::new(), Vec::new(), Vec::new());
    let params = MenuParams::default();
    for (i, p) in pages.iter().enumerate() {
        let sibs: Vec<&chaff_dom::Document> = pages
            .iter()
            .enumerate()
            .filter(|&(j, q)| j != i && q.entry.site == p.entry.site)
            .map(|(_, q)| &q.doc)
            .collect();
        if sibs.is_empty() {
            continue;
        }
        // The model of the page's fold (fitted without its site).
        let fold = MenuParams {
            model: cv.models[cv.page_fold[i]],
            ..params
        };
        base.push(p.score(chaff_menu::detect(&p.doc, &fold)));
        def5.push(p.score(detect_with_siblings(&p.doc, &sibs, &fold)));
        dn.push(null[i]);
    }
    row(
        &format!("CV, {} pages with a sibling", base.len()),
        &summarize(&base, &dn),
    );
    row("  CV, same pages + Definition 5", &summarize(&def5, &dn));
    let lenient: Vec<PageScore> = pages
        .iter()
        .map(|p| p.score_lenient(chaff_menu::detect(&p.doc, &params)))
        .collect();
    row("built-in, lenient (in-sample)", &summarize(&lenient, &null));
    println!("\nCV failures:");
    for (i, p) in pages.iter().enumerate() {
        let s = cv.page_scores[i];
        if s.perfect() {
            continue;
        }
        let m = cv.models[cv.page_fold[i]];
        let c = model::Candidates::compute(&p.doc);
        let pred = c
            .detect(&m)
            .map(|e| chaff_dom::unique_selector(&p.doc, c.features.node(e)).unwrap_or_default())
            .unwrap_or_else(|| "null".into());
        println!(
            "  {:>5.2} (P {:.2} R {:.2}) {:<26} gold {:<30} pred {}",
            s.f1,
            s.precision,
            s.recall,
            p.entry.site,
            p.entry.menu.as_deref().unwrap_or("null"),
            pred
        );
    }
    // Speed: candidates + scoring, one core.
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let mut found = 0usize;
        for p in pages {
            found += usize::from(model::detect(&p.doc, &full).is_some());
        }
        std::hint::black_box(found);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "speed: {:.3} ms per page (model, one core, parsing excluded)",
        1000.0 * best / pages.len() as f64
    );
    if synth_sites == 0 {
        return;
    }
    let seed: u64 = std::env::var("MENU_SYNTH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2024);
    let sites = chaff_synth::generate_sites(seed, synth_sites, 10);
    let mut scores = Vec::new();
    let mut stp = Vec::new();
    let mut smp = Vec::new();
    let mut by_style: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    for site in &sites {
        for page in &site.pages {
            let Ok(doc) = page.parse() else { continue };
            let leaves = chaff_menu::eval::LeafCounts::new(&doc);
            let gold = chaff_menu::eval::Gold::Selector(page.menu_root);
            let pred = model::detect(&doc, &full);
            let s = chaff_menu::eval::score(&doc, &leaves, gold, pred);
            if !s.perfect() && std::env::var_os("MENU_DEBUG").is_some() {
                let c = model::Candidates::compute(&doc);
                let top = c.best(&full).map(|(i, sc)| {
                    let n = c.features.node(c.elems[i]);
                    format!(
                        "{} score {sc:.2} f1 {:.2}",
                        chaff_dom::unique_selector(&doc, n).unwrap_or_default(),
                        chaff_menu::eval::score(&doc, &leaves, gold, Some(n)).f1
                    )
                });
                println!(
                    "  synth {} {}: top {top:?} gold {} pred {}",
                    site.style.name(),
                    site.domain,
                    chaff_dom::unique_selector(&doc, page.menu_root).unwrap_or_default(),
                    pred.and_then(|n| chaff_dom::unique_selector(&doc, n))
                        .unwrap_or_else(|| "null".into())
                );
            }
            by_style.entry(site.style.name()).or_default().push(s.f1);
            scores.push(s);
            let t = TrainPage::new(&doc, gold, &site.domain, &r);
            smp.push(ModelPage::new(&doc, &t));
            stp.push(t);
        }
    }
    let sn = vec![false; scores.len()];
    println!("\nsynthetic sites ({synth_sites} x 10, seed {seed}):");
    header();
    row(
        "built-in recipe (labels + gen. sites)",
        &summarize(&scores, &sn),
    );
    let scv = model::cross_validate(&smp, &stp, &[], 3, &opts);
    row("model, 3-fold CV by synthetic site", &scv.pooled);
    for (style, v) in by_style {
        println!(
            "  built-in recipe, {style}: F1 {:.2} on {} pages",
            100.0 * v.iter().sum::<f64>() / v.len() as f64,
            v.len()
        );
    }
}

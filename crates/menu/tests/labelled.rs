//! Guards the measured accuracy on the hand-labelled `menu-labels` development set (68 pages,
//! 46 sites). Skips, saying why, when the shared data sets are absent (`../shared` beside the
//! repository, or `$CHAFF_SHARED`).

use std::path::PathBuf;

use chaff_menu::eval::{PageScore, load_labelled, summarize};
use chaff_menu::model::{self, FitOptions, ModelPage};
use chaff_menu::train::TrainPage;
use chaff_menu::{MenuParams, Readings};

fn labels() -> Option<PathBuf> {
    let shared = std::env::var_os("CHAFF_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let path = shared.join("datasets/menu-labels/labels.json");
    if path.exists() {
        Some(path)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the shared data sets are missing, and CI must run the tests that need them"
        );
        eprintln!(
            "skipping: {} not found (set CHAFF_SHARED to run this test)",
            path.display()
        );
        None
    }
}

#[test]
fn labelled_set_paper_preset_and_cross_validated_model() {
    let Some(path) = labels() else { return };
    let pages = load_labelled(&path).expect("the labelled pages load");
    assert_eq!(pages.len(), 68);
    let null: Vec<bool> = pages.iter().map(|p| p.gold.is_null()).collect();

    // The paper's method with its weights: F1 47.0 measured.
    let paper: Vec<PageScore> = pages
        .iter()
        .map(|p| p.score(chaff_menu::detect(&p.doc, &MenuParams::PAPER)))
        .collect();
    let paper = summarize(&paper, &null);
    println!("paper preset: F1 {:.2}", 100.0 * paper.f1);
    assert!((0.44..0.50).contains(&paper.f1), "{paper:?}");

    // The model, fitted without each fold's sites (5 folds by site): F1 95.6 measured.
    let r = Readings::default();
    let (tp, mp) = model::prepare_labelled(&pages, &r);
    // Every fold also fits to the built-in model's generated sites (never scored here).
    let extra: Vec<ModelPage> =
        chaff_synth::generate_sites(model::DEFAULT_SYNTH_SEED, model::DEFAULT_SYNTH_SITES, 3)
            .iter()
            .flat_map(|site| {
                site.pages.iter().map(|page| {
                    let doc = page.parse().expect("synthetic pages parse");
                    let gold = chaff_menu::eval::Gold::Selector(page.menu_root);
                    let t = TrainPage::new(&doc, gold, &site.domain, &r);
                    ModelPage {
                        weight: model::DEFAULT_SYNTH_WEIGHT,
                        ..ModelPage::new(&doc, &t)
                    }
                })
            })
            .collect();
    let cv = model::cross_validate(&mp, &tp, &extra, 5, &FitOptions::default());
    println!(
        "model, 5-fold CV by site: P {:.2} R {:.2} F1 {:.2}, {:.1}% perfect",
        100.0 * cv.pooled.precision,
        100.0 * cv.pooled.recall,
        100.0 * cv.pooled.f1,
        100.0 * cv.pooled.perfect
    );
    assert!(cv.pooled.f1 >= 0.94, "{:?}", cv.pooled);

    // The built-in model was fitted to these very pages: its score here is in-sample (97.1
    // measured) and only guards that the constants match the fitting code.
    let default: Vec<PageScore> = pages
        .iter()
        .map(|p| p.score(chaff_menu::detect(&p.doc, &MenuParams::default())))
        .collect();
    let default = summarize(&default, &null);
    println!("built-in model (in-sample): F1 {:.2}", 100.0 * default.f1);
    assert!(default.f1 >= 0.95, "{default:?}");
}

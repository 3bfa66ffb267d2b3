//! `chaff segment`, `chaff extract`, `chaff train` and the page-level acceptance figures
//! (L3S-GN1, when `../shared` is present).

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn chaff(args: &[&str]) -> Output {
    common::command(args).output().expect("chaff runs")
}

fn example(page: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/site")
        .join(page)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn extract_keeps_the_article_and_drops_the_site_chrome() {
    let out = stdout(&chaff(&["extract", &example("page-000.html")]));
    assert!(
        out.contains("Blaims would not vang a fowenflar grel"),
        "{out}"
    );
    assert!(!out.contains("Cookie settings"), "footer kept: {out}");
    assert!(
        !out.contains("Independent reporting since 1968"),
        "header kept: {out}"
    );
    // Basic (unsmoothed) scores and every output format work too.
    for format in ["markdown", "html", "json"] {
        let o = chaff(&[
            "extract",
            "--no-smooth",
            "--format",
            format,
            &example("page-001.html"),
        ]);
        assert!(!stdout(&o).is_empty());
    }
}

#[test]
fn segment_prints_nested_segments_with_templateness() {
    let out = stdout(&chaff(&[
        "segment",
        "--format",
        "json",
        &example("page-000.html"),
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1);
    let v: serde_json::Value = serde_json::from_str(lines[0]).expect("JSON");
    let segs = v["segments"].as_array().expect("segments");
    assert_eq!(segs[0]["selector"], "body");
    assert_eq!(segs[0]["depth"], 0);
    assert!(segs.iter().any(|s| s["template"] == true));
    assert!(
        segs.iter()
            .any(|s| s["template"] == false && s["depth"] == 1)
    );
    for s in segs {
        let t = s["templateness"].as_f64().expect("score");
        assert!((0.0..=1.0).contains(&t));
        assert_eq!(s["template"] == true, t >= 0.5, "{s}");
    }
    // Nested segments: a smoothed score never falls below its enclosing segment's.
    let mut stack: Vec<(u64, f64)> = Vec::new();
    for s in segs {
        let depth = s["depth"].as_u64().expect("depth");
        let t = s["templateness"].as_f64().expect("score");
        stack.truncate(depth as usize);
        if let Some(&(_, parent)) = stack.last() {
            assert!(t >= parent, "{s}");
        }
        stack.push((depth, t));
    }
    let text = stdout(&chaff(&["segment", &example("page-000.html")]));
    assert!(text.starts_with("# "));
    assert!(text.contains("template nav.main-nav"), "{text}");
}

#[test]
fn train_writes_a_model_that_extract_uses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("model.json");
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/site");
    let o = chaff(&[
        "train",
        "-q",
        "--out",
        model.to_str().expect("utf-8"),
        site.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).expect("model")).expect("JSON");
    assert_eq!(m["format"], "chaff-pagelevel-model");
    assert_eq!(m["buckets"].as_array().map(Vec::len), Some(4));
    assert_eq!(m["trained_on"]["sites"], 1);
    let out = stdout(&chaff(&[
        "extract",
        "--model",
        model.to_str().expect("utf-8"),
        &example("page-002.html"),
    ]));
    assert!(!out.trim().is_empty());
}

#[test]
fn bad_models_and_lone_pages_are_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\":\"chaff-pagelevel-model\",\"version\":7}").expect("write");
    let o = chaff(&[
        "extract",
        "--model",
        bad.to_str().expect("utf-8"),
        &example("page-000.html"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("version 7"), "{err}");
    // One page is no site: nothing can repeat, so there is nothing to learn.
    let lone: PathBuf = dir.path().join("lone");
    std::fs::create_dir(&lone).expect("mkdir");
    std::fs::copy(example("page-000.html"), lone.join("a.html")).expect("copy");
    let out = dir.path().join("m.json");
    let o = chaff(&[
        "train",
        "-q",
        "--out",
        out.to_str().expect("utf-8"),
        lone.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("two or more"));
    assert!(!out.exists(), "no model written on failure");
    // Binary junk is reported per page, not a panic.
    let junk = dir.path().join("junk.html");
    std::fs::write(&junk, [0u8, 159, 146, 150, 0, 1, 2, 3].repeat(100)).expect("write");
    let o = chaff(&["segment", junk.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
}

/// L3S-GN1 with the built-in model (trained on other sets): template words found with an
/// f-measure of at least 0.85 (user comments counted as content, as in the gold's own
/// content classes), and smoothing better than the classifier alone.
#[test]
fn l3s_gn1_template_words() {
    let Some(r) = eval_json(&["--dataset", "l3s-gn1"]) else {
        return;
    };
    let f = |smooth| word_f(&r, smooth);
    eprintln!("l3s-gn1 word F: basic {} smooth {}", f(false), f(true));
    assert!(f(true) >= 0.85, "{r}");
    assert!(f(true) > f(false), "{r}");
}

/// `chaff eval ARGS --json` on a shared data set, or `None` (with the reason printed) when
/// the shared data sets are absent.
fn eval_json(args: &[&str]) -> Option<serde_json::Value> {
    common::datasets()?;
    let mut all = vec!["eval", "--json"];
    all.extend_from_slice(args);
    let o = chaff(&all);
    Some(serde_json::from_str(&stdout(&o)).expect("JSON"))
}

fn word_f(r: &serde_json::Value, smooth: bool) -> f64 {
    r.as_array()
        .expect("runs")
        .iter()
        .find(|x| x["smoothing"] == smooth)
        .and_then(|x| x["words"]["comments_content"]["f"].as_f64())
        .expect("f")
}

/// CANOLA with the built-in model: the figure the 0.85 is not met on (0.678
/// smoothed, 0.675 alone when this was written), guarded against regressions, smoothing
/// included; and the cross-set experiment of `train --blocks`: a model trained on CANOLA's
/// human labels finds L3S-GN1's template words better than the built-in model (0.887 when
/// this was written).
#[test]
fn canola_template_words_and_cross_set_training() {
    let Some(r) = eval_json(&["--dataset", "canola-krdwrd"]) else {
        return;
    };
    eprintln!(
        "canola word F: basic {} smooth {}",
        word_f(&r, false),
        word_f(&r, true)
    );
    assert!(word_f(&r, true) >= 0.67, "{r}");
    assert!(word_f(&r, true) > word_f(&r, false), "{r}");
    assert_eq!(
        r[0]["pages"], 208,
        "every page's text survives stripping: {r}"
    );

    let dir = std::env::temp_dir().join(format!("chaff-blocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let model = dir.join("canola.json");
    let model = model.to_str().expect("utf-8");
    let o = chaff(&["train", "-q", "--blocks", "canola-krdwrd", "--out", model]);
    stdout(&o);
    let r = eval_json(&["--dataset", "l3s-gn1", "--model", model]).expect("data sets found above");
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "l3s-gn1 word F of the CANOLA-trained model: {}",
        word_f(&r, true)
    );
    assert!(word_f(&r, true) >= 0.88, "{r}");
}

/// `eval --cv K`: each fold of CANOLA scored by a model trained on the human labels of the
/// other folds (0.822 smoothed, 0.817 alone with five folds when this was written), which
/// is well above the built-in model's figure on the same pages and below the 0.85.
#[test]
fn canola_cross_validation_on_its_own_labels() {
    let Some(r) = eval_json(&["--dataset", "canola-krdwrd", "--cv", "5"]) else {
        return;
    };
    eprintln!(
        "canola 5-fold word F: basic {} smooth {}",
        word_f(&r, false),
        word_f(&r, true)
    );
    assert!(word_f(&r, true) >= 0.80, "{r}");
    assert!(word_f(&r, true) > word_f(&r, false), "{r}");
    let o = chaff(&["eval", "--dataset", "canola-krdwrd", "--cv", "1"]);
    assert_eq!(o.status.code(), Some(2), "one fold is refused");
}

/// Bad label files for `train-menu` are one clear line and exit 2.
#[test]
fn train_menu_refuses_bad_labels() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"menu_threshold\": \"high\"}").expect("write");
    for labels in [bad.to_str().expect("utf-8"), "/nonexistent/labels.json"] {
        let o = chaff(&["train-menu", "--labels", labels]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("chaff-lab: error: "), "{err}");
    }
}

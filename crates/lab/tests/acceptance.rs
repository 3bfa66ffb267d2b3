//! The acceptance figures of the suffix-array method, checked through the `chaff eval`
//! command users run: synthetic sites (always), and the shared evaluation sets when
//! `../shared` is present (skipped with a printed reason otherwise).

mod common;

fn eval(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["eval"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = common::command(&all).output().expect("chaff-lab runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("JSON report")
}

fn share(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// 20-page sites, 5 seeds, 3 markup styles: at least 99% of template words and at most 1% of
/// content words removed.
#[test]
fn synthetic_sites_meet_the_targets() {
    let r = eval(&[
        "--synthetic",
        "--seeds",
        "5",
        "--sites",
        "3",
        "--pages",
        "20",
    ]);
    let all = &r["overall"];
    let (t, c) = (
        share(all, "template_removed_share"),
        share(all, "content_removed_share"),
    );
    eprintln!(
        "synthetic: template removed {:.2}%, content removed {:.2}%",
        100.0 * t,
        100.0 * c
    );
    assert!(t >= 0.99, "template removed {t}");
    assert!(c <= 0.01, "content removed {c}");
    assert_eq!(
        share(all, "menu_words"),
        share(all, "menu_removed"),
        "the main menu is always removed"
    );
}

/// The alignment method's template tokens on synthetic sites (the paper's Table 2 layout):
/// against the generator's layout tokens, at t = 16, precision and recall of at least 0.95
/// (measured 0.967 / 0.972 on these 2 seeds, 0.969 / 0.981 on 5); the figures with node
/// labels as truth guarded at their measured level (0.942 / 0.902 here); and the paper's
/// trend: precision grows with t.
#[test]
fn alignment_template_tokens_on_synthetic_sites() {
    let r = eval(&[
        "--synthetic",
        "--run",
        "align",
        "--sweep",
        "2,16",
        "--pages",
        "40",
        "--seeds",
        "2",
    ]);
    let rows = r["sweep"].as_array().expect("sweep rows");
    let (t2, t16) = (&rows[0], &rows[1]);
    eprintln!("align sweep: {rows:?}");
    assert_eq!(t16["t"], 16);
    let (main, labels) = (&t16["tokens"]["main"], &t16["tokens"]["labels"]);
    assert!(share(main, "precision") >= 0.95, "{t16}");
    assert!(share(main, "recall") >= 0.95, "{t16}");
    assert!(share(labels, "precision") >= 0.93, "{t16}");
    assert!(share(labels, "recall") >= 0.89, "{t16}");
    // What `clean` removes never holds a token of the article.
    assert!(share(&t16["removed"]["main"], "precision") >= 0.99, "{t16}");
    assert!(
        share(main, "precision") > share(&t2["tokens"]["main"], "precision"),
        "{rows:?}"
    );
}

/// The closed world, where every linked headline is also a sampled page, is harder for a
/// frequency method; guard it against regressions (measured at 99.5% / 0.97%).
#[test]
fn synthetic_closed_world_does_not_regress() {
    let r = eval(&["--synthetic", "--archive", "20"]);
    let all = &r["overall"];
    let (t, c) = (
        share(all, "template_removed_share"),
        share(all, "content_removed_share"),
    );
    eprintln!(
        "closed world: template removed {:.2}%, content removed {:.2}%",
        100.0 * t,
        100.0 * c
    );
    assert!(t >= 0.99, "template removed {t}");
    assert!(c <= 0.015, "content removed {c}");
}

fn shared_available() -> bool {
    common::datasets().is_some()
}

/// CleanPortalEval, learning on each portal's pages: cleaning beats the page's whole text, and
/// of the words removed at most 3% belong to the gold main text.
#[test]
fn cleanportaleval_portals() {
    if !shared_available() {
        return;
    }
    let r = eval(&["--dataset", "cleanportaleval"]);
    let all = &r["overall"];
    eprintln!("cleanportaleval: {all}");
    assert!(share(all, "f1") > share(all, "f1_full") + 0.1);
    assert!(share(all, "removed_gold_share") <= 0.03);
    for site in r["sites"].as_array().expect("sites") {
        assert!(share(site, "f1") > share(site, "f1_full"), "{site}");
    }
}

/// The dragnet sites with at least ten pages: the same two checks, over the set.
#[test]
fn dragnet_sites_with_ten_pages() {
    if !shared_available() {
        return;
    }
    let r = eval(&["--dataset", "dragnet", "--min-site-pages", "10"]);
    let all = &r["overall"];
    eprintln!("dragnet: {all}");
    assert!(share(all, "f1") > share(all, "f1_full") + 0.1);
    assert!(share(all, "removed_gold_share") <= 0.03);
}

//! The recipe end to end on hand-made pages: labels from gold text, a model fitted twice
//! gives the same bytes, the model survives a JSON round trip and a wrong version or
//! feature set is refused.

use chaff_content::ContentModel;
use chaff_content::gbdt::GbdtParams;
use chaff_content::train::{Examples, Gold, TrainOptions, fit, page_examples};
use chaff_core::{Evidence, Labels, Meaning, Role, SiteVerdict, Verdict};
use chaff_dom::TextView;

fn page(k: usize) -> (String, String) {
    let story = format!(
        "Story {k} begins with a sentence long enough to be prose. It goes on with a second \
         sentence about the town council and its plans for the bridge number {k}."
    );
    let html = format!(
        "<html><body><nav><ul><li><a href=/a>Home</a></li><li><a href=/b>World</a></li>\
         <li><a href=/c>Sport and weather</a></li></ul></nav>\
         <article><h1>Headline {k}</h1><p>{story}</p><p>More of story {k} in a second paragraph \
         that the reader came for.</p></article>\
         <footer>Copyright 2024 The Daily Example. All rights reserved.</footer></body></html>"
    );
    let gold = format!(
        "Headline {k}\n\n{story}\n\nMore of story {k} in a second paragraph that the reader came for."
    );
    (html, gold)
}

fn examples() -> Examples {
    let mut all = Examples::default();
    for k in 0..12 {
        let (html, gold) = page(k);
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        all.extend(page_examples(&doc, &view, None, &Gold::Text(&gold), &[]));
    }
    all
}

fn options() -> TrainOptions {
    TrainOptions {
        gbdt: GbdtParams {
            trees: 20,
            max_depth: 3,
            min_child_weight: 1.0,
            ..GbdtParams::default()
        },
        ..TrainOptions::default()
    }
}

#[test]
fn gold_labels_the_article_and_not_the_template() {
    let ex = examples();
    assert_eq!(ex.pages, 12);
    assert_eq!(
        ex.gold_words, ex.gold_aligned,
        "every gold word is on its page"
    );
    // Per page: 3 menu items, headline, two paragraphs, footer.
    assert_eq!(ex.len(), 12 * 7);
    let per_page: Vec<bool> = ex.content[..7].to_vec();
    assert_eq!(per_page, [false, false, false, true, true, true, false]);
    let w: f32 = ex.weights[..7].iter().sum();
    assert!((w - 100.0).abs() < 1e-3, "a page weighs 100, got {w}");
}

#[test]
fn the_recipe_is_deterministic_and_the_model_round_trips() {
    let ex = examples();
    let a = fit(&ex, &options(), "hand-made pages").to_json();
    let b = fit(&ex, &options(), "hand-made pages").to_json();
    assert_eq!(a, b, "same data, same bytes");
    let model = ContentModel::from_json(&a).unwrap();
    assert!(model.stage2.is_some());
    assert_eq!(model.to_json(), a);
    // The fitted model keeps the article of an unseen page of the same kind.
    let (html, _) = page(99);
    let doc = chaff_dom::parse(html.as_bytes()).unwrap();
    let view = TextView::new(&doc);
    let (units, p) = model.score(&doc, &view, None);
    let kept: Vec<bool> = p.iter().map(|p| *p >= model.threshold).collect();
    assert_eq!(units.len(), 7);
    assert_eq!(kept, [false, false, false, true, true, true, false]);
}

#[test]
fn other_versions_and_feature_sets_are_refused() {
    let json = fit(&examples(), &options(), "").to_json();
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["version"] = serde_json::json!(2);
    let e = ContentModel::from_json(&v.to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("version 2"), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["features"][0] = serde_json::json!("something_else");
    assert!(ContentModel::from_json(&v.to_string()).is_err());
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["gbdt"]["trees"][0][0]["left"] = serde_json::json!(0);
    assert!(
        ContentModel::from_json(&v.to_string()).is_err(),
        "a split pointing back"
    );
    assert!(ContentModel::from_json("{").is_err());
}

#[test]
fn the_builtin_model_loads() {
    let m = ContentModel::builtin().unwrap();
    assert!(!m.gbdt.trees.is_empty());
}

/// The suffix method's verdict on a page: unit `k` removed whole when `removed`, every
/// other node kept.
fn suffix_verdict(doc: &chaff_dom::Document, unit: chaff_dom::NodeId, removed: bool) -> Verdict {
    let mut labels = Labels::all_content(doc.len());
    if removed {
        labels.set(unit, 1.0, Role::Template);
    }
    Verdict::Evidence(Evidence::new(labels, Meaning::Share))
}

fn said(verdict: &Verdict) -> [SiteVerdict<'_>; 1] {
    [SiteVerdict {
        method: "suffix",
        verdict,
    }]
}

#[test]
fn site_inputs_teach_what_the_page_alone_cannot_show() {
    // Every page has the same promotional sentence in the article. On half the pages the
    // gold keeps it; on the other half it is template, and only there does the site's
    // suffix evidence remove it: the page's own features cannot tell the halves apart.
    let promo = "Read more stories like this one in our weekly newsletter for members.";
    let mut all = Examples::default();
    for k in 0..16 {
        let (html, gold) = page(k);
        let html = html.replace("</article>", &format!("<p>{promo}</p></article>"));
        let doc = chaff_dom::parse(html.as_bytes()).unwrap();
        let view = TextView::new(&doc);
        let units = chaff_content::Units::compute(&doc, &view, None);
        // Not by parity: the second stage's out-of-fold halves are the even and odd pages,
        // and each must see both kinds.
        let template = k % 4 < 2;
        let gold = if template {
            gold
        } else {
            format!("{gold}\n\n{promo}")
        };
        let verdict = suffix_verdict(&doc, units.nodes[6], template);
        all.extend(page_examples(
            &doc,
            &view,
            None,
            &Gold::Text(&gold),
            &said(&verdict),
        ));
    }
    let model = fit(&all, &options(), "");
    assert!(model.reads_site());
    let (html, _) = page(99);
    let html = html.replace("</article>", &format!("<p>{promo}</p></article>"));
    let doc = chaff_dom::parse(html.as_bytes()).unwrap();
    let view = TextView::new(&doc);
    let units = chaff_content::Units::compute(&doc, &view, None);
    let inputs = |removed: bool| {
        let verdict = suffix_verdict(&doc, units.nodes[6], removed);
        chaff_content::site::rows(&doc, &view, &units, &said(&verdict))
    };
    let removed = model.predict_with_site(&units, Some(&inputs(true)));
    let kept = model.predict_with_site(&units, Some(&inputs(false)));
    assert!(
        removed[6] < 0.2 && kept[6] > 0.8,
        "{} {}",
        removed[6],
        kept[6]
    );
    // The article is content either way.
    assert!(removed[4] > 0.8 && kept[4] > 0.8);
    // A model for other site inputs is refused.
    let mut v: serde_json::Value = serde_json::from_str(&model.to_json()).unwrap();
    v["site"][0] = serde_json::json!("site_other_removed");
    let e = ContentModel::from_json(&v.to_string())
        .unwrap_err()
        .to_string();
    assert!(e.contains("site inputs"), "{e}");
}

use proptest::prelude::*;

use super::*;

fn doc(html: &str) -> Document {
    chaff_dom::parse(html.as_bytes()).expect("parses")
}

/// A page of the "article" template: the same frame, any words.
fn article(words: &str) -> Document {
    doc(&format!(
        "<html><body><div class=top><ul class=menu><li><a>Home</a></li></ul></div>\
         <article class=post><h1>{words}</h1><p class=lede>{words}</p><p>{words}</p></article>\
         <footer class=foot><p>Contact</p></footer></body></html>"
    ))
}

/// A page of the "gallery" template: other elements, other classes.
fn gallery(words: &str) -> Document {
    doc(&format!(
        "<html><body><table class=grid><tr><td><img class=thumb><span>{words}</span></td></tr>\
         </table><section class=credits><em>{words}</em><b>x</b></section>\
         <form class=search><input><button>Go</button></form></body></html>"
    ))
}

fn sketches_of(sets: &[std::collections::BTreeSet<u64>]) -> Vec<Sketch> {
    sets.iter()
        .map(|s| Sketch::of_hashes(s.iter().copied()))
        .collect()
}

#[test]
fn pages_of_one_template_are_alike_whatever_they_say() {
    let a = Sketch::of(&article("Council votes"));
    let b = Sketch::of(&article("A different story altogether"));
    assert_eq!(a, b);
    assert_eq!(a.similarity(&b), 1.0);
}

#[test]
fn pages_of_different_templates_are_not() {
    let a = Sketch::of(&article("words"));
    let g = Sketch::of(&gallery("words"));
    assert!(a.similarity(&g) < 0.3, "{}", a.similarity(&g));
}

#[test]
fn similarity_of_known_sets_is_near_their_jaccard() {
    // 2,000 shared hashes and 1,000 of each page's own: Jaccard 2000 / 4000 = 0.5.
    let a = Sketch::of_hashes((0..3000).map(|i: u64| i * 7 + 1));
    let b = Sketch::of_hashes((1000..4000).map(|i: u64| i * 7 + 1));
    let s = a.similarity(&b);
    assert!((s - 0.5).abs() < 0.12, "{s}");
}

#[test]
fn empty_pages_resemble_nothing() {
    let empty = Sketch::of_hashes(std::iter::empty());
    assert_eq!(empty.similarity(&empty), 0.0);
    assert_eq!(empty.mean_similarity(&[]), 1.0);
}

#[test]
fn a_site_of_two_templates_splits_in_two_and_strays_match_neither() {
    let mut sketches = Vec::new();
    for i in 0..5 {
        sketches.push(Sketch::of(&article(&format!("story {i}"))));
        sketches.push(Sketch::of(&gallery(&format!("photo {i}"))));
    }
    sketches.push(Sketch::of(&doc(
        "<html><body><pre>a stray page</pre></body></html>",
    )));
    let s = split(&sketches, 2, MIN_SIMILARITY);
    assert_eq!(s.templates.len(), 2);
    assert_eq!(s.templates[0].1, vec![0, 2, 4, 6, 8]);
    assert_eq!(s.templates[1].1, vec![1, 3, 5, 7, 9]);
    assert_eq!(s.unmatched, vec![10]);
    assert_eq!(s.templates[0].0.len(), 5);
    let new_gallery = Sketch::of(&gallery("another"));
    let reps = s.templates.iter().map(|t| t.0.as_slice());
    assert_eq!(route(&new_gallery, reps, MIN_SIMILARITY).0, Some(1));
}

#[test]
fn templates_of_too_few_pages_are_dropped() {
    let mut sketches: Vec<Sketch> = (0..4)
        .map(|i| Sketch::of(&article(&i.to_string())))
        .collect();
    sketches.push(Sketch::of(&gallery("one")));
    let s = split(&sketches, 2, MIN_SIMILARITY);
    assert_eq!(s.templates.len(), 1);
    assert_eq!(s.templates[0].1, vec![0, 1, 2, 3]);
    assert_eq!(s.unmatched, vec![4]);
    let none = Split {
        templates: vec![],
        unmatched: (0..5).collect(),
    };
    assert_eq!(split(&sketches, 5, MIN_SIMILARITY), none);
}

#[test]
fn sketches_round_trip_through_hex_and_bad_hex_is_refused() {
    let a = Sketch::of(&article("x"));
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(json.len(), SKETCH_BINS * 8 + 2);
    assert_eq!(serde_json::from_str::<Sketch>(&json).unwrap(), a);
    assert!(serde_json::from_str::<Sketch>("\"00ff\"").is_err());
    let bad = format!("\"{}\"", "zz".repeat(SKETCH_BINS * 4));
    assert!(serde_json::from_str::<Sketch>(&bad).is_err());
    let multibyte = format!("\"{}\"", "é".repeat(SKETCH_BINS * 4));
    assert!(serde_json::from_str::<Sketch>(&multibyte).is_err());
}

/// Average linkage recomputed from scratch at every step: every pair of clusters' mean
/// similarity over all their members' pairs.
fn brute_force(sketches: &[Sketch], min: f32) -> Vec<Vec<usize>> {
    let mut clusters: Vec<Vec<usize>> = (0..sketches.len()).map(|i| vec![i]).collect();
    loop {
        let mut best: Option<(f64, usize, usize)> = None;
        for a in 0..clusters.len() {
            for b in a + 1..clusters.len() {
                let mut s = 0f64;
                for &i in &clusters[a] {
                    for &j in &clusters[b] {
                        s += f64::from(sketches[i].similarity(&sketches[j]));
                    }
                }
                let mean = s / (clusters[a].len() * clusters[b].len()) as f64;
                if best.is_none_or(|(m, _, _)| mean > m) {
                    best = Some((mean, a, b));
                }
            }
        }
        match best {
            Some((m, a, b)) if m >= f64::from(min) => {
                let moved = clusters.remove(b);
                clusters[a].extend(moved);
                clusters[a].sort_unstable();
            }
            _ => return clusters,
        }
    }
}

proptest! {
    #[test]
    fn clustering_is_average_linkage(
        sets in proptest::collection::vec(proptest::collection::btree_set(0u64..40, 0..30), 0..9),
        min in 0.05f32..0.95,
    ) {
        let sketches = sketches_of(&sets);
        prop_assert_eq!(cluster(&sketches, min), brute_force(&sketches, min));
    }

    #[test]
    fn similarity_is_symmetric_and_a_share(
        a in proptest::collection::btree_set(any::<u64>(), 0..200),
        b in proptest::collection::btree_set(any::<u64>(), 0..200),
    ) {
        let (x, y) = (Sketch::of_hashes(a.iter().copied()), Sketch::of_hashes(b.iter().copied()));
        let s = x.similarity(&y);
        prop_assert_eq!(s, y.similarity(&x));
        prop_assert!((0.0..=1.0).contains(&s));
        if a == b && !a.is_empty() {
            prop_assert_eq!(s, 1.0);
        }
    }

    #[test]
    fn every_page_is_in_the_template_it_routes_to_or_unmatched(
        sets in proptest::collection::vec(proptest::collection::btree_set(0u64..30, 1..20), 0..12),
        min_pages in 1usize..4,
    ) {
        let sketches = sketches_of(&sets);
        let s = split(&sketches, min_pages, MIN_SIMILARITY);
        let mut seen: Vec<usize> = s.templates.iter().flat_map(|t| t.1.iter().copied())
            .chain(s.unmatched.iter().copied()).collect();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..sketches.len()).collect::<Vec<_>>());
        let reps = || s.templates.iter().map(|t| t.0.as_slice());
        for (t, (r, pages)) in s.templates.iter().enumerate() {
            prop_assert!(pages.len() >= min_pages);
            prop_assert!(!r.is_empty() && r.len() <= REPRESENTATIVES);
            for &p in pages {
                prop_assert_eq!(route(&sketches[p], reps(), MIN_SIMILARITY).0, Some(t));
            }
        }
        for &p in &s.unmatched {
            prop_assert_eq!(route(&sketches[p], reps(), MIN_SIMILARITY).0, None);
        }
    }
}

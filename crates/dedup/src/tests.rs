//! Hand-computable cases; the estimate against exact Jaccard similarity; the index against a
//! brute-force comparison with every kept text; saving and loading, and damaged files.

use std::collections::HashSet;

use proptest::prelude::*;

use super::*;

fn sig(text: &str) -> Signature {
    Signature::of(text, &Config::default()).expect("words")
}

const STORY: &str = "The council voted on Monday to close the old bridge for repairs. Engineers found \
    cracks in two of its arches last spring, and the work is expected to take most of the \
    coming year. Traffic will be sent over the ring road, which the council says can carry \
    the extra load. Shop owners near the bridge asked for help with the months of lost trade.";

const OTHER: &str = "Heavy rain flooded the market square and several shops closed early. The \
    river rose two metres in a night, and the fire brigade pumped out cellars until dawn.";

/// The words of a text as the signature reads them (the test's own, allocating version).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.chars().flat_map(char::to_lowercase).collect())
        .collect()
}

/// The exact Jaccard similarity of two texts' shingle sets.
fn jaccard(a: &str, b: &str, k: usize) -> f64 {
    let set = |t: &str| -> HashSet<Vec<String>> {
        let w = words(t);
        let k = k.min(w.len()).max(1);
        w.windows(k).map(<[String]>::to_vec).collect()
    };
    let (a, b) = (set(a), set(b));
    a.intersection(&b).count() as f64 / a.union(&b).count().max(1) as f64
}

/// `n` words of a pseudo-English vocabulary, drawn from `seed` (a few frequent words, many
/// rare ones, as in prose).
fn prose(seed: u64, n: usize) -> String {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = mix(s.wrapping_add(0x9e37_79b9_7f4a_7c15));
            let r = (s >> 40) % 1000;
            if r < 300 {
                ["the", "of", "and", "a", "to", "in"][(r % 6) as usize].to_string()
            } else {
                format!("w{}", (s >> 20) % 5000)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` with the words at `at` (modulo its length) replaced by words it does not hold.
fn edit(text: &str, at: &[usize]) -> String {
    let mut w: Vec<String> = text.split(' ').map(str::to_string).collect();
    let n = w.len();
    for (j, &i) in at.iter().enumerate() {
        w[i % n] = format!("changed{j}");
    }
    w.join(" ")
}

#[test]
fn identical_texts_are_one_and_words_without_case_or_punctuation() {
    assert_eq!(sig(STORY).similarity(&sig(STORY)), 1.0);
    assert_eq!(
        sig(STORY).changed_words(&sig(STORY), &Config::default()),
        0.0
    );
    assert_eq!(sig("Rain, RAIN; rain!"), sig("rain rain rain"));
    assert_eq!(sig("Straße ÉCOLE naïve"), sig("straße école NAÏVE"));
    assert!(Signature::of(" ,;! ", &Config::default()).is_none());
    assert_eq!(sig("one two-three, four").words(), 4);
}

#[test]
fn disjoint_texts_are_zero() {
    assert_eq!(sig(STORY).similarity(&sig(OTHER)), 0.0);
    assert!(!sig(STORY).is_near(&sig(OTHER), &Config::default()));
}

#[test]
fn the_tolerance_is_a_few_words_a_share_of_long_texts_and_never_most_of_a_short_one() {
    let c = Config::default();
    assert_eq!(c.tolerance(10.0), 2.0); // a fifth of 10 words
    assert_eq!(c.tolerance(50.0), 5.0); // the fixed few
    assert_eq!(c.tolerance(400.0), 20.0); // 5 % of 400
    assert!(c.is_short(99) && !c.is_short(100));
}

#[test]
fn changed_words_inverts_the_jaccard_estimate() {
    // Two 102-word texts with 3-word shingles: 100 shingles each. At an estimated similarity
    // of 0.5 the sets share 66.7 shingles and differ in 66.7, which is 66.7 / 6 = 11.1 words.
    let a = Signature::from_parts([7; HASHES], 102);
    let mut slots = [7; HASHES];
    for s in &mut slots[..HASHES / 2] {
        *s = 8;
    }
    let b = Signature::from_parts(slots, 102);
    assert_eq!(a.similarity(&b), 0.5);
    let c = Config::default();
    assert!((a.changed_words(&b, &c) - 200.0 / 3.0 / 6.0).abs() < 1e-9);
    assert!(!a.is_near(&b, &c));
}

#[test]
fn a_few_changed_words_stay_near_in_short_and_long_texts_and_other_texts_do_not() {
    let c = Config::default();
    // 30 and 300 words, three scattered words changed.
    for n in [30, 300] {
        let text = prose(n as u64, n);
        let edited = edit(&text, &[n / 6, n / 2, 5 * n / 6]);
        let (a, b) = (sig(&text), sig(&edited));
        assert!(a.is_near(&b, &c), "{n} words: {}", a.changed_words(&b, &c));
        let other = prose(n as u64 + 1000, n);
        assert!(!a.is_near(&sig(&other), &c), "{n} words");
    }
    // The date of a story changed, and a few words.
    let edited = STORY.replace("Monday", "Tuesday").replace("two", "three");
    assert!(sig(STORY).is_near(&sig(&edited), &c));
    // Two different 12-word texts sharing half their words are not "a few words" apart.
    let a = "the mayor said on monday that the bridge will close in june";
    let b = "the mayor said on friday that the library will open in may";
    assert!(!sig(a).is_near(&sig(b), &c));
}

#[test]
fn the_estimate_has_no_bias() {
    // Over many pairs with known overlap, the mean error of the estimate is small (each
    // estimate is a mean of 64 slot agreements, standard deviation at most 0.0625).
    let mut total = 0.0;
    let mut n = 0.0;
    for seed in 0..200u64 {
        let base = prose(seed, 120);
        let edited = edit(&base, &[(seed as usize * 7) % 120, 40, 41, 90]);
        let exact = jaccard(&base, &edited, 3);
        total += sig(&base).similarity(&sig(&edited)) - exact;
        n += 1.0;
    }
    assert!((total / n).abs() < 0.01, "mean error {}", total / n);
}

#[test]
fn the_index_points_duplicates_at_the_first_kept_text_and_keeps_only_those() {
    let mut index = Index::new(Config::default());
    let edited = STORY.replace("Monday", "Tuesday");
    assert_eq!(index.insert(sig(STORY)), (0, None));
    assert_eq!(index.insert(sig(OTHER)), (1, None));
    assert_eq!(index.insert(sig(&edited)), (2, Some(0)));
    assert_eq!(index.insert(sig(STORY)), (3, Some(0)));
    assert_eq!(index.nearest(&sig(&edited)), Some(0));
    assert_eq!((index.len(), index.kept()), (4, 2));
}

#[test]
fn seen_names_the_first_text_of_each_cluster() {
    let a = "The council voted on Monday to close the old bridge for repairs after engineers found cracks in two of its arches last spring.";
    let b = "A recipe for bread: flour, water, salt and yeast, kneaded for ten minutes and left to rise overnight in a cool kitchen corner.";
    let mut seen = Seen::new(Config::default());
    assert_eq!(seen.duplicate_of("p1", a), None);
    assert_eq!(seen.duplicate_of("p2", b), None);
    assert_eq!(seen.duplicate_of("p3", a), Some("p1"));
    assert_eq!(seen.duplicate_of("p4", " ... "), None);
    assert_eq!(seen.kept(), &["p1", "p2"]);
    assert_eq!(seen.len(), 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The estimated similarity is within 0.3 (almost five standard deviations) of the exact
    /// Jaccard similarity of the shingle sets.
    #[test]
    fn the_estimate_follows_the_jaccard_similarity(
        seed in 0u64..1000,
        len in 5usize..200,
        at in proptest::collection::vec(0usize..200, 0..40),
        shingle in 1usize..6,
    ) {
        let config = Config { shingle, ..Config::default() };
        let a = prose(seed, len);
        let b = edit(&a, &at);
        let est = Signature::of(&a, &config).unwrap().similarity(&Signature::of(&b, &config).unwrap());
        let exact = jaccard(&a, &b, shingle);
        prop_assert!((est - exact).abs() <= 0.3, "estimate {est}, exact {exact}");
    }

    /// The index decides every text as a comparison with every kept text would: near the
    /// earliest kept text it is near, or kept. Near pairs here are at least 0.73 alike, where
    /// the bands miss a pair with probability under 10⁻⁵.
    #[test]
    fn the_index_agrees_with_brute_force(
        picks in proptest::collection::vec((0usize..6, proptest::collection::vec(0usize..1000, 0..3)), 1..40)
    ) {
        let config = Config::default();
        // Three short bases (below 100 words, also in the short bands) and three long ones.
        let bases: Vec<String> = (0..6u64)
            .map(|b| prose(b + 77, if b < 3 { 40 } else { 150 }))
            .collect();
        let sigs: Vec<Signature> = picks
            .iter()
            .map(|(b, at)| sig(&edit(&bases[*b], at)))
            .collect();
        let mut index = Index::new(config);
        let mut kept: Vec<usize> = Vec::new();
        for (i, s) in sigs.iter().enumerate() {
            let want = kept.iter().copied().find(|&k| sigs[k].is_near(s, &config));
            let (id, got) = index.insert(s.clone());
            prop_assert_eq!(id, i as u64);
            prop_assert_eq!(got, want.map(|k| k as u64), "text {}", i);
            if want.is_none() {
                kept.push(i);
            }
        }
        prop_assert_eq!(index.kept(), kept.len());
    }
}

/// A small saved index: three texts, one a duplicate.
fn saved(dir: &std::path::Path) -> std::path::PathBuf {
    let mut seen = Seen::new(Config::default());
    seen.duplicate_of("https://a.example/story".to_string(), STORY);
    seen.duplicate_of("https://a.example/flood".to_string(), OTHER);
    seen.duplicate_of("https://b.example/copy".to_string(), STORY);
    let path = dir.join("seen.idx");
    seen.save(&path).expect("save");
    path
}

#[test]
fn a_saved_index_finds_duplicates_of_an_earlier_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(dir.path());
    let mut seen = Seen::<String>::load(&path, Config::default()).expect("load");
    assert_eq!(seen.len(), 3);
    assert_eq!(
        seen.kept(),
        &["https://a.example/story", "https://a.example/flood"]
    );
    let edited = STORY.replace("Monday", "Friday");
    assert_eq!(
        seen.duplicate_of("https://c.example/x".into(), &edited)
            .as_deref(),
        Some("https://a.example/story")
    );
    assert_eq!(
        seen.duplicate_of(
            "https://c.example/y".into(),
            "something new entirely, about hills"
        ),
        None
    );
    // Saved again over the same file, loaded again: the new kept text is there.
    seen.save(&path).unwrap();
    let again = Seen::<String>::load(&path, Config::default()).unwrap();
    assert_eq!(again.kept().len(), 3);
    assert_eq!(again.len(), 5);
    // No temporary file is left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn loading_tells_a_missing_file_another_config_version_or_format() {
    let dir = tempfile::tempdir().unwrap();
    let missing = Seen::<String>::load(dir.path().join("none"), Config::default()).unwrap_err();
    assert!(missing.is_not_found(), "{missing}");

    let path = saved(dir.path());
    let other = Config {
        shingle: 5,
        ..Config::default()
    };
    let err = Seen::<String>::load(&path, other).unwrap_err();
    assert!(matches!(err, DedupError::Config { .. }), "{err}");
    assert!(err.to_string().contains("3-word shingles"), "{err}");

    let bytes = std::fs::read(&path).unwrap();
    let mut v2 = bytes.clone();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(&path, &v2).unwrap();
    let err = Seen::<String>::load(&path, Config::default()).unwrap_err();
    assert!(
        matches!(
            err,
            DedupError::Version {
                found: 2,
                supported: 1,
                ..
            }
        ),
        "{err}"
    );

    let mut magic = bytes.clone();
    magic[..8].copy_from_slice(b"PK\x03\x04zip!");
    std::fs::write(&path, &magic).unwrap();
    let err = Seen::<String>::load(&path, Config::default()).unwrap_err();
    assert!(matches!(err, DedupError::NotAnIndex { .. }), "{err}");

    std::fs::write(&path, b"").unwrap();
    let err = Seen::<String>::load(&path, Config::default()).unwrap_err();
    assert!(matches!(err, DedupError::NotAnIndex { .. }), "{err}");
}

#[test]
fn every_truncation_and_every_bit_flip_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = saved(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    let damaged = dir.path().join("damaged.idx");
    for len in 0..bytes.len() {
        std::fs::write(&damaged, &bytes[..len]).unwrap();
        let err = Seen::<String>::load(&damaged, Config::default()).unwrap_err();
        assert!(
            matches!(
                err,
                DedupError::Truncated { .. } | DedupError::NotAnIndex { .. }
            ),
            "cut at {len}: {err}"
        );
    }
    for bit in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        std::fs::write(&damaged, &b).unwrap();
        assert!(
            Seen::<String>::load(&damaged, Config::default()).is_err(),
            "bit {bit} flipped loads"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    std::fs::write(&damaged, &longer).unwrap();
    let err = Seen::<String>::load(&damaged, Config::default()).unwrap_err();
    assert!(matches!(err, DedupError::Corrupt { .. }), "{err}");
}

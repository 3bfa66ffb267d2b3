//! Hand-computable cases, and the index against a brute-force comparison of every pair.

use proptest::prelude::*;

use super::*;

fn sig(text: &str) -> Signature {
    Signature::of(text, &Config::default()).expect("words")
}

const STORY: &str = "The council voted on Monday to close the old bridge for repairs. Engineers found \
    cracks in two of its arches last spring, and the work is expected to take most of the \
    coming year. Traffic will be sent over the ring road, which the council says can carry \
    the extra load. Shop owners near the bridge asked for help with the months of lost trade.";

#[test]
fn identical_texts_are_one_and_words_without_case_or_punctuation() {
    assert_eq!(sig(STORY).similarity(&sig(STORY)), 1.0);
    assert_eq!(sig("Rain, RAIN; rain!"), sig("rain rain rain"));
    assert!(Signature::of(" ,;! ", &Config::default()).is_none());
}

#[test]
fn a_changed_date_or_a_few_words_stay_near_a_different_story_does_not() {
    let edited = STORY.replace("Monday", "Tuesday").replace("two", "three");
    let s = sig(STORY).similarity(&sig(&edited));
    assert!(s >= 0.6, "{s}");
    let other = "Heavy rain flooded the market square and several shops closed early. The \
        river rose two metres in a night, and the fire brigade pumped out cellars until dawn.";
    assert!(sig(STORY).similarity(&sig(other)) < 0.1);
}

#[test]
fn the_estimate_follows_the_jaccard_similarity() {
    // 100 distinct words; shingles of one word make the sets exactly the word sets.
    let words: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
    let a = words[..80].join(" ");
    let b = words[20..].join(" ");
    let config = Config {
        shingle: 1,
        ..Config::default()
    };
    let est = Signature::of(&a, &config)
        .unwrap()
        .similarity(&Signature::of(&b, &config).unwrap());
    // |A ∩ B| = 60, |A ∪ B| = 100.
    assert!((est - 0.6).abs() < 0.2, "{est}");
}

#[test]
fn the_index_points_duplicates_at_the_first_text_of_their_cluster() {
    let mut index = Index::new(Config::default());
    let edited = STORY.replace("Monday", "Tuesday");
    assert_eq!(index.insert(sig(STORY)), (0, None));
    assert_eq!(
        index.insert(sig("Something else entirely, about rain in the hills.")),
        (1, None)
    );
    assert_eq!(index.insert(sig(&edited)), (2, Some(0)));
    assert_eq!(index.insert(sig(STORY)), (3, Some(0)));
    assert_eq!(index.len(), 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Every pair the index reports is alike by the threshold, and every pair of identical
    /// texts is reported (their signatures share every band).
    #[test]
    fn the_index_agrees_with_brute_force(
        picks in proptest::collection::vec((0usize..6, any::<bool>()), 1..30)
    ) {
        let bases = [
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu",
            "one two three four five six seven eight nine ten eleven twelve",
            "red orange yellow green blue indigo violet black white grey pink brown",
            "north south east west up down left right in out over under",
            "spring summer autumn winter rain snow sun wind hail fog frost dew",
            "cat dog bird fish horse cow sheep goat pig duck goose hen",
        ];
        let texts: Vec<String> = picks
            .iter()
            .map(|&(b, edit)| {
                if edit { format!("{} extra", bases[b]) } else { bases[b].to_string() }
            })
            .collect();
        let config = Config::default();
        let sigs: Vec<Signature> = texts.iter().map(|t| Signature::of(t, &config).unwrap()).collect();
        let mut index = Index::new(config);
        for (i, s) in sigs.iter().enumerate() {
            let (id, dup) = index.insert(s.clone());
            prop_assert_eq!(id as usize, i);
            let first_same = texts[..i].iter().position(|t| *t == texts[i]);
            match dup {
                Some(k) => prop_assert!(sigs[k as usize].similarity(s) >= config.threshold
                    || texts[..i].iter().any(|t| Signature::of(t, &config).unwrap().similarity(s) >= config.threshold)),
                None => prop_assert!(first_same.is_none(), "identical text {} missed", i),
            }
        }
    }
}

#[test]
fn seen_names_the_first_text_of_each_cluster() {
    let a = "The council voted on Monday to close the old bridge for repairs after engineers found cracks in two of its arches last spring.";
    let b = "A recipe for bread: flour, water, salt and yeast, kneaded for ten minutes and left to rise overnight in a cool kitchen corner.";
    let mut seen = Seen::new(Config::default());
    assert_eq!(seen.duplicate_of("p1", a), None);
    assert_eq!(seen.duplicate_of("p2", b), None);
    assert_eq!(seen.duplicate_of("p3", a), Some("p1"));
    assert_eq!(seen.duplicate_of("p4", "too short"), None);
}

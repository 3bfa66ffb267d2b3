//! Hand-computed cases for the measures, and properties they must keep on any input.

use super::*;
use proptest::prelude::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn counts(tp: u64, fp: u64, fn_: u64) -> Counts {
    Counts { tp, fp, fn_ }
}

#[test]
fn tokenizer_matches_python_unicode_word_class() {
    // Expected lists are what CPython 3.11 `re.findall(r'\w+', s, re.UNICODE)` returns.
    assert_eq!(
        tokenize("Ünïcödé naïve CAFÉ, don't e-mail hello_world!"),
        [
            "Ünïcödé",
            "naïve",
            "CAFÉ",
            "don",
            "t",
            "e",
            "mail",
            "hello_world"
        ]
    );
    assert_eq!(
        tokenize("東京は２０２０年 x²+y² ½ Ⅻ ٣٤"),
        ["東京は２０２０年", "x²", "y²", "½", "Ⅻ", "٣٤"]
    );
    // Combining marks are not word characters in Python: Devanagari vowel signs and
    // viramas, and a decomposed accent, split or end tokens.
    assert_eq!(tokenize("हिन्दी"), ["ह", "न", "द"]);
    assert_eq!(tokenize("cafe\u{301} ok"), ["cafe", "ok"]);
    // Zero-width joiner and connector punctuation other than `_` separate tokens.
    assert_eq!(tokenize("a\u{200d}b \u{203f}x"), ["a", "b", "x"]);
    assert_eq!(tokenize("émoji 🎉 end"), ["émoji", "end"]);
    assert_eq!(tokenize("Straße  İstanbul"), ["Straße", "İstanbul"]);
    assert!(tokenize("  ... --- !!! \n\t").is_empty());
}

#[test]
fn ngrams_follow_aeb_short_text_rule() {
    let t = ["a", "b", "c", "d", "e"];
    let grams: Vec<_> = ngrams(&t, 4).collect();
    assert_eq!(grams, [&t[0..4], &t[1..5]]);
    let short = ["a", "b"];
    assert_eq!(ngrams(&short, 4).collect::<Vec<_>>(), [&short[..]]);
    assert_eq!(ngrams(&[], 4).count(), 0);
    assert_eq!(ngrams(&t, 1).count(), 5);
}

#[test]
fn identical_texts_score_one() {
    let text = "The quick brown fox jumps over the lazy dog.";
    let page = score_page("p", text, text);
    for s in [page.shingle4, page.bigram, page.bag] {
        assert_eq!((s.precision, s.recall, s.f1), (1.0, 1.0, 1.0));
    }
    assert_eq!(page.shingle4.counts, counts(6, 0, 0));
    assert_eq!(page.bigram.counts, counts(8, 0, 0));
    assert_eq!(page.bag.counts, counts(9, 0, 0));
    assert!(page.exact_match);
}

#[test]
fn disjoint_texts_score_zero() {
    let page = score_page("p", "alpha beta gamma delta", "one two three four");
    assert_eq!(page.shingle4.counts, counts(0, 1, 1));
    for s in [page.shingle4, page.bigram, page.bag] {
        assert_eq!((s.precision, s.recall, s.f1), (0.0, 0.0, 0.0));
    }
    assert!(!page.exact_match);
}

#[test]
fn empty_gold() {
    let s = shingle4("a b c d e", "");
    assert_eq!(s.counts, counts(0, 2, 0));
    // fp > 0 so not "nothing wrong"; tp = 0 so precision 0; recall: tp = fn = 0 → 0.
    assert_eq!((s.precision, s.recall), (0.0, 0.0));
    assert!(s.counts.has_prediction() && !s.counts.has_gold());
}

#[test]
fn empty_prediction() {
    let s = shingle4("", "a b c d e");
    assert_eq!(s.counts, counts(0, 0, 2));
    assert_eq!((s.precision, s.recall), (0.0, 0.0));
    assert!(!s.counts.has_prediction() && s.counts.has_gold());
    // Punctuation alone has no tokens: the same as an empty prediction.
    assert_eq!(shingle4("— … !!", "a b c d e"), s);
}

#[test]
fn both_empty_is_perfect_but_enters_no_mean() {
    let s = shingle4("", "  ");
    assert_eq!(s.counts, counts(0, 0, 0));
    assert_eq!((s.precision, s.recall, s.f1), (1.0, 1.0, 1.0));
    assert!(!s.counts.has_prediction() && !s.counts.has_gold());
}

#[test]
fn texts_shorter_than_four_tokens_form_one_short_shingle() {
    assert_eq!(shingle4("hello world", "Hello, world!").precision, 0.0);
    assert_eq!(
        shingle4("hello world", "hello, world!").counts,
        counts(1, 0, 0)
    );
    // A short shingle never matches a full one, even when it is its prefix.
    assert_eq!(shingle4("a b c", "a b c d").counts, counts(0, 1, 1));
    assert_eq!(shingle4("hello", "hello world").counts, counts(0, 1, 1));
    let bag = bag_of_words("hello", "hello world");
    assert_eq!((bag.precision, bag.recall), (1.0, 0.5));
    // A one-token text is one 1-gram for the bigram measure too.
    assert_eq!(bigram_set("hello", "hello").counts, counts(1, 0, 0));
    assert_eq!(bigram_set("hello", "hello world").counts, counts(0, 1, 1));
}

#[test]
fn repeated_shingles_count_as_multiset_bigrams_as_set() {
    let gold = "a b c d a b c d";
    // Gold shingles: abcd ×2, bcda, cdab, dabc.
    let s = shingle4("a b c d", gold);
    assert_eq!(s.counts, counts(1, 0, 4));
    assert_eq!((s.precision, s.recall), (1.0, 0.2));
    // Gold bigram set {ab, bc, cd, da}: the repeated ab counts once.
    let b = bigram_set("a b c d", gold);
    assert_eq!(b.counts, counts(3, 0, 1));
    assert_eq!(b.recall, 0.75);
    let w = bag_of_words("a b c d", gold);
    assert_eq!(w.counts, counts(4, 0, 4));
    // Predicting a shingle more often than the gold has it is a false positive.
    let over = shingle4("x x x x x", "x x x x");
    assert_eq!(over.counts, counts(1, 1, 0));
    assert_eq!((over.precision, over.recall), (0.5, 1.0));
    assert_eq!(bigram_set("x x x x x", "x x x x").counts, counts(1, 0, 0));
}

#[test]
fn case_and_punctuation() {
    // No lower-casing: a capital changes the token.
    assert_eq!(
        shingle4("The cat sat down", "the cat sat down").counts,
        counts(0, 1, 1)
    );
    // Punctuation and whitespace differences do not matter.
    let s = shingle4("It's — a “test”, isn't it?", "It s a test isn t it");
    assert_eq!((s.precision, s.recall), (1.0, 1.0));
    let u = bag_of_words("Ünïcödé naïve café", "naïve café ünïcödé");
    assert_eq!(u.counts, counts(2, 1, 1));
}

#[test]
fn normalisation_keeps_the_ratios() {
    let c = counts(2, 1, 3);
    assert!(close(c.precision(), 2.0 / 3.0));
    assert!(close(c.recall(), 2.0 / 5.0));
    let s = Scores::from_counts(c);
    assert!(close(s.f1, 2.0 * (2.0 / 3.0) * 0.4 / (2.0 / 3.0 + 0.4)));
}

#[test]
fn set_means_follow_aeb_page_selection() {
    let pages = vec![
        score_page(
            "identical",
            "one two three four five",
            "one two three four five",
        ),
        score_page("no-prediction", "", "one two three four five"),
        score_page("no-gold", "one two three four five", ""),
        score_page("both-empty", "", ""),
    ];
    let report = aggregate(pages);
    let m = report.shingle4;
    // Precision over pages with a prediction: identical (1) and no-gold (0).
    assert_eq!((m.precision, m.precision_pages), (0.5, 2));
    // Recall over pages with a gold: identical (1) and no-prediction (0).
    assert_eq!((m.recall, m.recall_pages), (0.5, 2));
    assert_eq!(m.f1_of_means, 0.5);
    assert_eq!(m.f1_pages, 3);
    assert!(close(m.mean_f1, 1.0 / 3.0));
    // Exact matches: identical and both-empty.
    assert_eq!(report.accuracy, 0.5);
    assert_eq!(report.pages.len(), 4);
    assert!(report.removal.is_none());
}

#[test]
fn f1_of_means_is_not_mean_of_f1() {
    let pages = vec![
        score_page("a", "w1 w2 w3 w4 w5 w6 w7", "w1 w2 w3 w4"),
        score_page("b", "v1 v2 v3 v4", "v1 v2 v3 v4 v5 v6 v7"),
    ];
    let m = aggregate(pages).shingle4;
    // Page a: tp 1, fp 3 → P 0.25, R 1. Page b: P 1, R 0.25.
    assert!(close(m.precision, 0.625));
    assert!(close(m.recall, 0.625));
    assert!(close(m.f1_of_means, 0.625));
    assert!(close(m.mean_f1, 0.4));
}

#[test]
fn empty_set_reports_zero_not_nan() {
    let report = aggregate(Vec::new());
    assert_eq!(report.shingle4.precision, 0.0);
    assert_eq!(report.shingle4.f1_of_means, 0.0);
    assert_eq!(report.accuracy, 0.0);
}

#[test]
fn removal_counts_gold_words_among_removed() {
    let full = "Home News Sport the cat sat on the mat Contact";
    let clean = removal_score(full, "the cat sat on the mat", "the cat sat on the mat");
    assert_eq!(
        (clean.removed_words, clean.removed_gold_words, clean.share),
        (4, 0, 0.0)
    );
    // Removed: Home News Sport the on mat Contact (7); of them the, on, mat are gold.
    let greedy = removal_score(full, "Title the cat sat", "the cat sat on the mat");
    assert_eq!((greedy.removed_words, greedy.removed_gold_words), (7, 3));
    assert!(close(greedy.share, 3.0 / 7.0));
    // Alignment, not bags: the removed template "the" is not the gold "the".
    let aligned = removal_score("the news today the cat sat", "the cat sat", "the cat sat");
    assert_eq!((aligned.removed_words, aligned.removed_gold_words), (3, 0));
    let nothing = removal_score(full, full, "the cat");
    assert_eq!((nothing.removed_words, nothing.share), (0, 0.0));

    let pages = vec![
        score_page_with_full(
            "a",
            full,
            "the cat sat on the mat",
            "the cat sat on the mat",
        ),
        score_page_with_full("b", full, "Title the cat sat", "the cat sat on the mat"),
        score_page("c", "x", "x"),
    ];
    let summary = aggregate(pages)
        .removal
        .expect("two pages carry a removal score");
    assert_eq!(summary.pages, 2);
    assert_eq!((summary.removed_words, summary.removed_gold_words), (11, 3));
    assert!(close(summary.share, 3.0 / 11.0));
    assert!(close(summary.mean_share, 1.5 / 7.0));
    assert!(close(summary.max_share, 3.0 / 7.0));
}

#[test]
fn reports_serialise_with_fn_field() {
    let report = aggregate(vec![score_page("p", "a b", "a b c")]);
    let json = serde_json::to_value(&report).expect("report serialises");
    assert_eq!(json["pages"][0]["bag"]["counts"]["fn"], 1);
    assert!(json["pages"][0].get("removal").is_none());
    let back: SetReport = serde_json::from_value(json).expect("report deserialises");
    assert_eq!(back, report);
}

/// Texts over a small vocabulary, so that random pairs overlap often.
fn text() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "a", "b", "c", "The", "the", "naïve", "x_y", "12", ",", "!", "—", "\n", "東京",
    ]);
    prop::collection::vec(word, 0..40).prop_map(|w| w.join(" "))
}

fn all_measures(p: &str, g: &str) -> [Scores; 3] {
    [shingle4(p, g), bigram_set(p, g), bag_of_words(p, g)]
}

proptest! {
    #[test]
    fn measures_are_in_unit_interval(p in text(), g in text()) {
        for s in all_measures(&p, &g) {
            for v in [s.precision, s.recall, s.f1] {
                prop_assert!((0.0..=1.0).contains(&v), "{v} out of range");
            }
        }
        let r = removal_score(&format!("{p} {g}"), &p, &g);
        prop_assert!((0.0..=1.0).contains(&r.share));
        prop_assert!(r.removed_gold_words <= r.removed_words);
    }

    #[test]
    fn swapping_sides_swaps_precision_and_recall(p in text(), g in text()) {
        for (a, b) in all_measures(&p, &g).into_iter().zip(all_measures(&g, &p)) {
            prop_assert_eq!(a.precision, b.recall);
            prop_assert_eq!(a.recall, b.precision);
            prop_assert_eq!(a.f1, b.f1);
            prop_assert_eq!(a.counts.tp, b.counts.tp);
            prop_assert_eq!(a.counts.fp, b.counts.fn_);
        }
    }

    #[test]
    fn identical_nontrivial_texts_score_one(t in text()) {
        prop_assume!(!tokenize(&t).is_empty());
        for s in all_measures(&t, &t) {
            prop_assert_eq!((s.precision, s.recall, s.f1), (1.0, 1.0, 1.0));
        }
        prop_assert_eq!(removal_score(&t, &t, &t).removed_words, 0);
    }

    #[test]
    fn set_means_are_in_unit_interval(pairs in prop::collection::vec((text(), text()), 0..8)) {
        let pages = pairs
            .iter()
            .enumerate()
            .map(|(i, (p, g))| score_page_with_full(i.to_string(), &format!("{g} {p}"), p, g))
            .collect();
        let report = aggregate(pages);
        for m in [report.shingle4, report.bigram, report.bag] {
            for v in [m.precision, m.recall, m.f1_of_means, m.mean_f1] {
                prop_assert!((0.0..=1.0).contains(&v), "{v} out of range");
            }
        }
        prop_assert!((0.0..=1.0).contains(&report.accuracy));
    }
}

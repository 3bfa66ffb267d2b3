//! The measures FOREST ranks structural patterns by (section 3.3 to 3.5).
//!
//! For an element with `x` signifier occurrences and `y` other terms in its text, in a
//! document with `X` signifiers and `Y` other terms in all:
//!
//! * [`jeffreys_density`] `J` (eq. 2): the lower end of a ±1 standard deviation interval
//!   around Jeffreys' add-half estimate of the signifier proportion, floored at 0. It prefers
//!   dense nodes but distrusts small samples: `J(1, 0) ≈ 0.32`, not 1.
//! * [`unexpectedness`] `U` (eq. 3): generation minus description complexity,
//!   `(x + y) ln(X + Y) − x ln X − y ln Y`. The paper calls its values bits, but its worked
//!   examples (23 for x = 10, y = 26 of X = 20, Y = 100; 6 for x = 3, y = 1) are natural
//!   logarithms (base 2 gives 32.7 and 8.0), so natural logarithms are used. A term class
//!   absent from the document (`X = 0` or `Y = 0`) contributes nothing, its count in the
//!   element being 0 too.
//! * [`informativeness`] `I = J × U` (eq. 4), [`relevance`] (eq. 5) summing it over the `p`
//!   pages where a pattern occurs, times `p` and the pattern's level, and [`coverage`] with
//!   [`coverage_relevance`] for the COVERAGE baseline (eq. 6 and 7).

/// Jeffreys' statistical signifier density `J` (eq. 2). Zero for an element without terms.
pub fn jeffreys_density(x: u32, y: u32) -> f64 {
    let n = f64::from(x) + f64::from(y);
    if n == 0.0 {
        return 0.0;
    }
    let (xs, ys) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
    ((xs - (xs * ys / n).sqrt()) / (n + 1.0)).max(0.0)
}

/// `k ln m`, with `0 ln 0 = 0`.
fn k_ln(k: f64, m: f64) -> f64 {
    if k == 0.0 { 0.0 } else { k * m.ln() }
}

/// Unexpectedness `U` (eq. 3) of an element with `x` signifiers and `y` other terms in a
/// document with `big_x` and `big_y` of them, in nats. The element's counts must not exceed
/// the document's (they are clamped to them).
pub fn unexpectedness(x: u32, y: u32, big_x: u32, big_y: u32) -> f64 {
    let (x, y) = (f64::from(x.min(big_x)), f64::from(y.min(big_y)));
    let (bx, by) = (f64::from(big_x), f64::from(big_y));
    (k_ln(x + y, bx + by) - k_ln(x, bx) - k_ln(y, by)).max(0.0)
}

/// Informativeness `I = J × U` (eq. 4).
pub fn informativeness(x: u32, y: u32, big_x: u32, big_y: u32) -> f64 {
    jeffreys_density(x, y) * unexpectedness(x, y, big_x, big_y)
}

/// Relevance of a structural pattern (eq. 5): the sum of its informativeness over the `p`
/// pages where it occurs (`per_page`), times `p`, times its level.
pub fn relevance(per_page: &[f64], level: u32) -> f64 {
    let p = per_page.len() as f64;
    per_page.iter().sum::<f64>() * p * f64::from(level)
}

/// Coverage (eq. 6): the summed tf-idf weights of the signifier occurrences in an element's
/// text over the page's number of signifiers.
pub fn coverage(weights_in_element: &[f64], total_signifiers: u32) -> f64 {
    if total_signifiers == 0 {
        return 0.0;
    }
    weights_in_element.iter().sum::<f64>() / f64::from(total_signifiers)
}

/// The COVERAGE baseline's relevance (eq. 7): eq. 5 with coverage for informativeness.
pub fn coverage_relevance(per_page: &[f64], level: u32) -> f64 {
    relevance(per_page, level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_papers_worked_numbers() {
        // "when x = 1 and y = 0 we have a J ≈ 0.32"
        assert!((jeffreys_density(1, 0) - 0.317).abs() < 0.001);
        // "x = 8 and y = 20 ... comparable to x = 3 and y = 5"
        let (a, b) = (jeffreys_density(8, 20), jeffreys_density(3, 5));
        assert!((a - b).abs() < 0.03, "{a} {b}");
        // "20 signifiers and 100 non-signifiers: 10 and 26 give 23 bits, 3 and 1 give 6"
        assert_eq!(unexpectedness(10, 26, 20, 100).round(), 23.0);
        assert_eq!(unexpectedness(3, 1, 20, 100).round(), 6.0);
    }

    #[test]
    fn edge_cases() {
        assert_eq!(jeffreys_density(0, 0), 0.0);
        assert_eq!(jeffreys_density(0, 10), 0.0);
        assert_eq!(unexpectedness(0, 0, 0, 0), 0.0);
        assert_eq!(unexpectedness(5, 0, 5, 0), 0.0);
        assert_eq!(coverage(&[1.0], 0), 0.0);
        assert_eq!(relevance(&[], 3), 0.0);
        // Two pages, informativeness 1 and 2, level 3: (1 + 2) × 2 × 3.
        assert_eq!(relevance(&[1.0, 2.0], 3), 18.0);
        assert_eq!(coverage(&[0.5, 0.25], 3), 0.25);
    }

    proptest! {
        #[test]
        fn density_is_a_proportion_below_the_estimate(x in 0u32..500, y in 0u32..500) {
            let j = jeffreys_density(x, y);
            prop_assert!((0.0..=1.0).contains(&j));
            if x + y > 0 {
                let estimate = (f64::from(x) + 0.5) / (f64::from(x + y) + 1.0);
                prop_assert!(j <= estimate + 1e-12);
            }
        }

        #[test]
        fn each_term_adds_surprise_and_rarer_terms_add_more(
            big_x in 1u32..300, extra in 1u32..300, fx in 0.0f64..1.0, fy in 0.0f64..1.0,
        ) {
            // Signifiers are the rarer class: X < Y.
            let big_y = big_x + extra;
            let (x, y) = ((f64::from(big_x) * fx) as u32, (f64::from(big_y) * fy) as u32);
            let u = unexpectedness(x, y, big_x, big_y);
            let with_signifier = unexpectedness(x + 1, y, big_x, big_y);
            let with_other = unexpectedness(x, y + 1, big_x, big_y);
            prop_assert!(u >= 0.0);
            prop_assert!(with_signifier > u);
            prop_assert!(with_other > u);
            prop_assert!(with_signifier - u > with_other - u);
        }
    }
}

//! Suffix array and LCP array of an integer text, with libsais.
//!
//! The text is a sequence of token ids (`0..alphabet`); libsais's induced sorting runs in
//! linear time over such a large integer alphabet (the thesis used Kärkkäinen–Sanders, also
//! linear). The LCP array follows libsais's convention: `lcp[i]` is the length of the longest
//! common prefix of the suffixes at `sa[i - 1]` and `sa[i]`, and `lcp[0] == 0`.

use libsais::SuffixArrayConstruction;
use libsais::suffix_array::AlphabetSize;

use crate::SuffixError;

/// The suffix array and LCP array of one text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuffixArrays {
    /// Start positions of the suffixes in lexicographic order.
    pub sa: Vec<i32>,
    /// `lcp[i]` = common prefix length of suffixes `sa[i-1]` and `sa[i]`; `lcp[0] = 0`.
    pub lcp: Vec<i32>,
}

/// Builds the suffix and LCP arrays of `text`, whose values must lie in `0..alphabet`.
///
/// `text` is borrowed mutably because libsais uses it as scratch space for large alphabets;
/// it is restored before this returns. `threads > 1` uses libsais's OpenMP construction when
/// the `parallel-sa` feature is on.
pub fn build(
    text: &mut [i32],
    alphabet: usize,
    threads: usize,
) -> Result<SuffixArrays, SuffixError> {
    if text.is_empty() {
        return Ok(SuffixArrays {
            sa: Vec::new(),
            lcp: Vec::new(),
        });
    }
    if text.len() >= (i32::MAX as usize) / 2 || alphabet >= i32::MAX as usize {
        return Err(SuffixError::TooLarge(text.len()));
    }
    if let Some(&bad) = text.iter().find(|&&t| t < 0 || t as usize >= alphabet) {
        return Err(SuffixError::Libsais(format!(
            "token id {bad} outside the alphabet 0..{alphabet}"
        )));
    }
    let alphabet = AlphabetSize::new(alphabet.max(1) as i32);
    #[cfg(feature = "parallel-sa")]
    if threads > 1 {
        return build_parallel(text, alphabet, threads);
    }
    let _ = threads;
    let construction = SuffixArrayConstruction::for_text_mut(text)
        .in_owned_buffer32()
        .single_threaded();
    // SAFETY: every value of `text` lies in `0..alphabet`, checked above.
    let construction = unsafe { construction.with_alphabet_size(alphabet) };
    let (sa, lcp, _, _) = construction
        .run()
        .map_err(libsais_error)?
        .plcp_construction()
        .single_threaded()
        .run()
        .map_err(libsais_error)?
        .lcp_construction()
        .single_threaded()
        .run()
        .map_err(libsais_error)?
        .into_parts();
    Ok(SuffixArrays { sa, lcp })
}

#[cfg(feature = "parallel-sa")]
fn build_parallel(
    text: &mut [i32],
    alphabet: AlphabetSize<i32>,
    threads: usize,
) -> Result<SuffixArrays, SuffixError> {
    let threads = libsais::ThreadCount::fixed(threads.clamp(1, u16::MAX as usize) as u16);
    let construction = SuffixArrayConstruction::for_text_mut(text)
        .in_owned_buffer32()
        .multi_threaded(threads);
    // SAFETY: every value of `text` lies in `0..alphabet`, checked by the caller.
    let construction = unsafe { construction.with_alphabet_size(alphabet) };
    let (sa, lcp, _, _) = construction
        .run()
        .map_err(libsais_error)?
        .plcp_construction()
        .multi_threaded(threads)
        .run()
        .map_err(libsais_error)?
        .lcp_construction()
        .multi_threaded(threads)
        .run()
        .map_err(libsais_error)?
        .into_parts();
    Ok(SuffixArrays { sa, lcp })
}

fn libsais_error(e: impl std::fmt::Debug) -> SuffixError {
    SuffixError::Libsais(format!("{e:?}"))
}

/// Reference implementation: sorts all suffixes by comparison. O(n² log n); for tests.
pub fn build_naive(text: &[i32]) -> SuffixArrays {
    let mut sa: Vec<i32> = (0..text.len() as i32).collect();
    sa.sort_by(|&a, &b| text[a as usize..].cmp(&text[b as usize..]));
    let mut lcp = vec![0; sa.len()];
    for i in 1..sa.len() {
        let (a, b) = (&text[sa[i - 1] as usize..], &text[sa[i] as usize..]);
        lcp[i] = a.iter().zip(b).take_while(|(x, y)| x == y).count() as i32;
    }
    SuffixArrays { sa, lcp }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The thesis's Figure 3.1: the suffix array of "KINGKONG".
    #[test]
    fn kingkong() {
        let word = "KINGKONG";
        let mut alphabet: Vec<char> = word.chars().collect();
        alphabet.sort();
        alphabet.dedup();
        let mut text: Vec<i32> = word
            .chars()
            .map(|c| alphabet.binary_search(&c).unwrap() as i32)
            .collect();
        let arrays = build(&mut text, alphabet.len(), 1).unwrap();
        // Sorted suffixes: GKONG(3), G(7), INGKONG(1), KINGKONG(0), KONG(4), NGKONG(2), NG(6), ONG(5)
        // Lexicographic with a shorter prefix first: G < GKONG, NG < NGKONG.
        assert_eq!(arrays.sa, vec![7, 3, 1, 0, 4, 6, 2, 5]);
        assert_eq!(arrays.lcp, vec![0, 1, 0, 0, 1, 0, 2, 0]);
        let sorted: Vec<&str> = arrays.sa.iter().map(|&p| &word[p as usize..]).collect();
        assert_eq!(
            sorted,
            [
                "G", "GKONG", "INGKONG", "KINGKONG", "KONG", "NG", "NGKONG", "ONG"
            ]
        );
        assert_eq!(arrays, build_naive(&text));
    }

    #[test]
    fn empty_and_single() {
        assert_eq!(build(&mut [], 0, 1).unwrap().sa, Vec::<i32>::new());
        assert_eq!(build(&mut [0], 1, 1).unwrap().sa, vec![0]);
        assert!(build(&mut [3], 2, 1).is_err());
    }

    proptest! {
        #[test]
        fn agrees_with_naive(text in proptest::collection::vec(0i32..6, 0..300), threads in 1usize..3) {
            let mut t = text.clone();
            let fast = build(&mut t, 6, threads).unwrap();
            prop_assert_eq!(&t, &text, "text restored");
            prop_assert_eq!(fast, build_naive(&text));
        }

        #[test]
        fn agrees_with_naive_large_alphabet(text in proptest::collection::vec(0i32..5000, 0..200)) {
            let mut t = text.clone();
            prop_assert_eq!(build(&mut t, 5000, 1).unwrap(), build_naive(&text));
        }
    }
}

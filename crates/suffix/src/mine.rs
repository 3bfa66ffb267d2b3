//! Mining template strings from one collection (thesis §3.2, steps 3–9).

use serde::{Deserialize, Serialize};

use crate::SuffixError;
use crate::cutoff::{self, BINS, Histogram};
use crate::repeats::{Repeat, maximal_repeats};
use crate::sa;
use crate::tokens::TokenCorpus;

/// The mining parameters. The defaults are the thesis's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MiningParams {
    /// Strings in fewer documents are dropped (step 7).
    pub min_docs: u32,
    /// Strings of fewer tokens are dropped (step 7: "less than two tokens").
    pub min_tokens: u32,
    /// Threads for suffix-array construction.
    #[serde(skip, default = "default_threads")]
    pub threads: usize,
}

fn default_threads() -> usize {
    rayon::current_num_threads()
}

impl Default for MiningParams {
    fn default() -> Self {
        MiningParams {
            min_docs: 2,
            min_tokens: 2,
            threads: default_threads(),
        }
    }
}

/// A template string found by mining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinedString {
    /// Token ids into the corpus vocabulary.
    pub tokens: Vec<u32>,
    /// Distinct documents it occurs in.
    pub docs: u32,
    /// Occurrences in the whole collection.
    pub occurrences: u32,
}

/// The result of mining one collection.
#[derive(Clone, Debug)]
pub struct Mined {
    /// The histogram of candidate strings by document share, with its cutoff.
    pub histogram: Histogram,
    /// Strings at or above the cutoff, longest first.
    pub template: Vec<MinedString>,
    /// Number of candidate strings (maximal repeats passing the step-7 filters).
    pub candidates: usize,
}

/// Mines `corpus`: suffix array, LCP, maximal repeats with document counts, filters,
/// histogram, cutoff.
pub fn mine(corpus: &mut TokenCorpus, params: &MiningParams) -> Result<Mined, SuffixError> {
    let documents = corpus.documents as u32;
    let alphabet = corpus.alphabet();
    let arrays = sa::build(&mut corpus.text, alphabet, params.threads)?;
    let min_docs = params.min_docs.max(1);
    let min_tokens = params.min_tokens.max(1);
    let mut counts = vec![0u64; BINS];
    let mut candidates: Vec<Repeat> = Vec::new();
    maximal_repeats(&corpus.text, &arrays.sa, &arrays.lcp, &corpus.doc_of, |r| {
        if r.len >= min_tokens && r.docs >= min_docs {
            counts[cutoff::bin_of(r.docs, documents, BINS)] += 1;
            candidates.push(r);
        }
    });
    drop(arrays);
    let (cut, centres, _) = cutoff::cutoff(&counts);
    let mut template: Vec<MinedString> = candidates
        .iter()
        .filter(|r| cutoff::bin_of(r.docs, documents, BINS) >= cut)
        .map(|r| MinedString {
            tokens: corpus.text[r.start as usize..(r.start + r.len) as usize]
                .iter()
                .map(|&t| t as u32)
                .collect(),
            docs: r.docs,
            occurrences: r.occurrences,
        })
        .collect();
    template.sort_by(|a, b| {
        b.tokens
            .len()
            .cmp(&a.tokens.len())
            .then_with(|| a.tokens.cmp(&b.tokens))
    });
    Ok(Mined {
        histogram: Histogram {
            counts,
            documents,
            cutoff: cut,
            centres,
        },
        template,
        candidates: candidates.len(),
    })
}

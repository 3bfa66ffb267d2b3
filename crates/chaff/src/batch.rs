//! Many pages through one [`Extractor`]: in parallel on rayon's pool, a batch at a time so
//! that memory stays bounded on an endless stream, the results in input order.

use std::collections::VecDeque;

use chaff_corpus::{CorpusError, Page};
use rayon::prelude::*;

use crate::{Error, Extraction, Extractor, LoadOptions, LoadedPage, Parsed};

/// One page's outcome from [`Extractor::extract_all`].
#[derive(Debug)]
pub struct Extracted {
    /// The page, its bytes dropped (what names it: source, URL, folder).
    pub page: Page,
    /// How many bytes it had.
    pub size: u64,
    /// Its extraction, or why there is none (the page could not be read, parsed...).
    pub result: Result<Extraction, Error>,
}

/// The iterator of [`Extractor::extract_all`].
pub struct ExtractAll<'a, I> {
    extractor: &'a Extractor,
    pages: I,
    batch: usize,
    ready: VecDeque<Extracted>,
    parsed: Option<Parsed>,
}

impl Extractor {
    /// Extracts every page of `pages` ([`Extractor::extract_page`]), `batch` pages at a
    /// time in parallel, yielding each page's outcome in input order.
    pub fn extract_all<I>(&self, pages: I, batch: usize) -> ExtractAll<'_, I::IntoIter>
    where
        I: IntoIterator<Item = Result<Page, CorpusError>>,
    {
        ExtractAll {
            extractor: self,
            pages: pages.into_iter(),
            batch: batch.max(1),
            ready: VecDeque::new(),
            parsed: None,
        }
    }

    /// As [`Extractor::extract_all`], each page whose parse `parsed` kept extracted from it
    /// ([`Extractor::extract_page_parsed`]) instead of being parsed again; each parse is
    /// freed once used. A store whose parses were made otherwise than this extractor makes
    /// them is dropped at once, and every page parsed again.
    pub fn extract_all_parsed<I>(
        &self,
        pages: I,
        batch: usize,
        parsed: Parsed,
    ) -> ExtractAll<'_, I::IntoIter>
    where
        I: IntoIterator<Item = Result<Page, CorpusError>>,
    {
        let mut all = self.extract_all(pages, batch);
        all.parsed = (!parsed.is_empty() && self.reuses(parsed.load_options())).then_some(parsed);
        all
    }
}

impl<I: Iterator<Item = Result<Page, CorpusError>>> Iterator for ExtractAll<'_, I> {
    type Item = Extracted;

    fn next(&mut self) -> Option<Extracted> {
        if self.ready.is_empty() {
            let mut parsed = self.parsed.as_mut();
            let batch: Vec<_> = self
                .pages
                .by_ref()
                .take(self.batch)
                .map(|p| {
                    let kept = match (&p, parsed.as_deref_mut()) {
                        (Ok(page), Some(parsed)) => parsed.take(&page.source),
                        _ => None,
                    };
                    (p, kept)
                })
                .collect();
            let ex = self.extractor;
            let with = self.parsed.as_ref().map(Parsed::load_options);
            let done: Vec<Extracted> = batch
                .into_par_iter()
                .map(|(p, kept)| one(ex, p, kept, with))
                .collect();
            self.ready.extend(done);
        }
        self.ready.pop_front()
    }
}

fn one(
    ex: &Extractor,
    page: Result<Page, CorpusError>,
    kept: Option<LoadedPage>,
    parsed_with: Option<&LoadOptions>,
) -> Extracted {
    match page {
        Ok(mut page) => {
            let bytes = std::mem::take(&mut page.bytes);
            let size = bytes.len() as u64;
            let named = page.clone();
            page.bytes = bytes;
            let result = match parsed_with {
                Some(with) => ex.extract_page_parsed(page, kept, with),
                None => ex.extract_page(page),
            };
            Extracted {
                page: named,
                size,
                result,
            }
        }
        Err(e) => Extracted {
            page: Page {
                source: String::new(),
                url: None,
                bytes: Vec::new(),
                charset: None,
                folder: None,
                media: chaff_corpus::Media::Html,
            },
            size: 0,
            result: Err(e.into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_with_errors_in_place() {
        let ex = Extractor::builder().build().unwrap();
        let pages: Vec<Result<Page, CorpusError>> = (0..10)
            .map(|i| {
                if i == 4 {
                    return Err(CorpusError::StdinTwice);
                }
                Ok(Page {
                    source: format!("p{i}"),
                    url: None,
                    bytes: format!("<p>page number {i} says its own words</p>").into_bytes(),
                    charset: None,
                    folder: None,
                    media: chaff_corpus::Media::Html,
                })
            })
            .collect();
        let out: Vec<Extracted> = ex.extract_all(pages, 3).collect();
        assert_eq!(out.len(), 10);
        for (i, e) in out.iter().enumerate() {
            if i == 4 {
                assert!(e.result.is_err());
                continue;
            }
            assert_eq!(e.page.source, format!("p{i}"));
            assert!(e.page.bytes.is_empty() && e.size > 0);
            let text = e.result.as_ref().unwrap().text().to_string();
            assert!(text.contains(&format!("number {i} ")), "{text}");
        }
    }
}

//! Many pages through one [`Extractor`], in parallel on rayon's pool, the results in input
//! order, with a bounded number of pages read and not yet handed back so that memory stays
//! bounded on an endless stream.
//!
//! Pages stream through a window rather than going in batches: the caller's thread reads
//! pages and hands each to the pool as soon as there is room, and takes the results back in
//! order while the pool works on the pages after them. So reading and writing overlap the
//! extraction (with batches the pool waited while the caller read a batch and wrote the
//! last one), no thread idles at a batch's end waiting for its largest page, and only the
//! window's pages are held at once. For a caller that writes records, what a record needs
//! that an [`Extraction`] otherwise works out on first use (metadata, language) can be
//! worked out on the pool too ([`ExtractAll::prepare_records`]).

use chaff_corpus::{CorpusError, Page};

use crate::in_order::{InOrder, JobLost};
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
    window: usize,
    /// Pages read and not yet handed back, in input order, each with what names it (its
    /// bytes dropped) and its size.
    queue: InOrder<(Page, u64), Result<Extraction, Error>>,
    parsed: Option<Parsed>,
    prepare: bool,
    /// Whether `pages` has ended.
    ended: bool,
}

impl Extractor {
    /// Extracts every page of `pages` ([`Extractor::extract_page`]) in parallel, yielding
    /// each page's outcome in input order. At most `window` pages are read and not yet
    /// yielded at any time (a few per thread keep every thread busy).
    pub fn extract_all<I>(&self, pages: I, window: usize) -> ExtractAll<'_, I::IntoIter>
    where
        I: IntoIterator<Item = Result<Page, CorpusError>>,
    {
        ExtractAll {
            extractor: self,
            pages: pages.into_iter(),
            window: window.max(1),
            queue: InOrder::new(),
            parsed: None,
            prepare: false,
            ended: false,
        }
    }

    /// As [`Extractor::extract_all`], each page whose parse `parsed` kept extracted from it
    /// ([`Extractor::extract_page_parsed`]) instead of being parsed again; each parse is
    /// freed once used. A store whose parses were made otherwise than this extractor makes
    /// them is dropped at once, and every page parsed again.
    pub fn extract_all_parsed<I>(
        &self,
        pages: I,
        window: usize,
        parsed: Parsed,
    ) -> ExtractAll<'_, I::IntoIter>
    where
        I: IntoIterator<Item = Result<Page, CorpusError>>,
    {
        let mut all = self.extract_all(pages, window);
        all.parsed = (!parsed.is_empty() && self.reuses(parsed.load_options())).then_some(parsed);
        all
    }
}

impl<I: Iterator<Item = Result<Page, CorpusError>>> ExtractAll<'_, I> {
    /// Whether each page's job also works out what its record reads on first use (the
    /// metadata and the language, when the extractor's records carry them), so that the
    /// pool does it rather than the caller's thread: for a caller that writes records. Off
    /// by default, since a caller that wants only the text would pay for it.
    pub fn prepare_records(mut self, prepare: bool) -> Self {
        self.prepare = prepare;
        self
    }

    /// Reads pages and hands them to the pool while the window wants more
    /// ([`InOrder::should_read`]: until it is full, or, once a page has been read, until the
    /// oldest page's result is in) and the input lasts.
    fn fill(&mut self) {
        let mut read = false;
        while self.queue.should_read(self.window, read) && self.read_one() {
            read = true;
        }
    }

    /// Whether another outcome will follow the ones handed back so far, without waiting for
    /// any page's result: true while pages are read and not yet handed back, else the next
    /// page is read (waiting for it to arrive, as only that can tell) and started. A caller
    /// that treats a lone page differently (`chaff extract` prints one page bare) asks this
    /// rather than waiting for the second page's result.
    pub fn has_more(&mut self) -> bool {
        !self.queue.is_empty() || self.read_one()
    }

    /// Reads the next page and starts it (or enters why it could not be read); false when
    /// the input has ended, which is then not asked again.
    fn read_one(&mut self) -> bool {
        if self.ended {
            return false;
        }
        match self.pages.next() {
            Some(Ok(page)) => self.start(page),
            Some(Err(e)) => self.queue.push_ready((unnamed(), 0), Err(e.into())),
            None => self.ended = true,
        }
        !self.ended
    }

    /// Starts one page's job on the pool.
    fn start(&mut self, mut page: Page) {
        let kept = self.parsed.as_mut().and_then(|p| p.take(&page.source));
        let with = self.parsed.as_ref().map(|p| p.load_options().clone());
        let bytes = std::mem::take(&mut page.bytes);
        let size = bytes.len() as u64;
        let named = page.clone();
        page.bytes = bytes;
        let ex = self.extractor.clone();
        let prepare = self.prepare;
        self.queue.spawn((named, size), move || {
            one(&ex, page, kept, with.as_ref(), prepare)
        });
    }
}

impl<I: Iterator<Item = Result<Page, CorpusError>>> Iterator for ExtractAll<'_, I> {
    type Item = Extracted;

    fn next(&mut self) -> Option<Extracted> {
        self.fill();
        let ((page, size), result) = self.queue.next_result()?;
        let result = result.unwrap_or_else(|JobLost| {
            Err(Error::Page {
                page: page.source.clone(),
                message: "the thread pool stopped before the page was extracted".into(),
            })
        });
        Some(Extracted { page, size, result })
    }
}

/// What stands for an input that could not be read: a page of no name.
fn unnamed() -> Page {
    Page {
        source: String::new(),
        url: None,
        bytes: Vec::new(),
        charset: None,
        folder: None,
        media: chaff_corpus::Media::Html,
    }
}

/// One page's job: its extraction, with what its record needs worked out if `prepare`.
fn one(
    ex: &Extractor,
    page: Page,
    kept: Option<LoadedPage>,
    parsed_with: Option<&LoadOptions>,
    prepare: bool,
) -> Result<Extraction, Error> {
    let result = match parsed_with {
        Some(with) => ex.extract_page_parsed(page, kept, with),
        None => ex.extract_page(page),
    };
    if let (Ok(e), true) = (&result, prepare) {
        e.prepare_record();
    }
    result
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
                Ok(page(i))
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

    fn page(i: usize) -> Page {
        Page {
            source: format!("p{i}"),
            url: None,
            bytes: format!("<p>page number {i} says its own words</p>").into_bytes(),
            charset: None,
            folder: None,
            media: chaff_corpus::Media::Html,
        }
    }

    #[test]
    fn an_endless_stream_is_read_no_further_than_the_window() {
        let ex = Extractor::builder().build().unwrap();
        let read = std::cell::Cell::new(0usize);
        let endless = std::iter::repeat(()).map(|()| {
            // A window that never fills would read on for ever: fail instead.
            assert!(read.get() < 1000, "read far past the window");
            read.set(read.get() + 1);
            Ok(page(read.get() - 1))
        });
        let mut all = ex.extract_all(endless, 3);
        for yielded in 1..=20 {
            let e = all.next().unwrap();
            assert_eq!(e.page.source, format!("p{}", yielded - 1));
            // Read and not yet handed back: at most the window less the page just handed
            // back (fewer when a result was in before the window was full).
            assert!(
                read.get() - yielded <= 2,
                "after {yielded} pages: {}",
                read.get()
            );
        }
    }

    #[test]
    fn a_finished_page_is_handed_back_before_a_slow_input_fills_the_window() {
        let ex = Extractor::builder().build().unwrap();
        let handed_back = std::cell::Cell::new(false);
        let mut asked = 0;
        // Page 0 at once; page 1 after a pause in which page 0 is extracted (milliseconds);
        // page 2 must not be asked for before page 0's result is handed back, since
        // reading may block for as long as the input likes.
        let slow = std::iter::from_fn(|| {
            asked += 1;
            match asked {
                1 => Some(Ok(page(0))),
                2 => {
                    std::thread::sleep(std::time::Duration::from_secs(1));
                    Some(Ok(page(1)))
                }
                3 => {
                    assert!(handed_back.get(), "page 0 waited for page 2 to be read");
                    Some(Ok(page(2)))
                }
                _ => None,
            }
        });
        let mut all = ex.extract_all(slow, 8);
        assert_eq!(all.next().unwrap().page.source, "p0");
        handed_back.set(true);
        let rest: Vec<String> = all.map(|e| e.page.source).collect();
        assert_eq!(rest, ["p1", "p2"]);
    }

    #[test]
    fn has_more_tells_a_lone_page_from_several() {
        let ex = Extractor::builder().build().unwrap();
        let mut one = ex.extract_all([Ok(page(0))], 4);
        assert_eq!(one.next().unwrap().page.source, "p0");
        assert!(!one.has_more());
        assert!(one.next().is_none());

        // Two pages: yes after the first, no after the second (the input fails the test if
        // it is asked again after its end).
        let mut asked = 0;
        let two = std::iter::from_fn(|| {
            asked += 1;
            assert!(asked <= 3, "read past the input's end");
            (asked <= 2).then(|| Ok(page(asked - 1)))
        });
        let mut all = ex.extract_all(two, 4);
        assert_eq!(all.next().unwrap().page.source, "p0");
        assert!(all.has_more());
        assert_eq!(all.next().unwrap().page.source, "p1");
        assert!(!all.has_more());
        assert!(all.next().is_none());

        // A window of one holds no second page when the first is handed back: has_more
        // must read the input to tell.
        let mut narrow = ex.extract_all([Ok(page(0)), Ok(page(1))], 1);
        assert_eq!(narrow.next().unwrap().page.source, "p0");
        assert!(narrow.has_more());
        assert_eq!(narrow.next().unwrap().page.source, "p1");
        assert!(!narrow.has_more());
    }

    #[test]
    fn an_input_that_has_ended_is_not_asked_again() {
        let ex = Extractor::builder().build().unwrap();
        let mut ended = false;
        let pages = [Ok(page(0)), Ok(page(1))].into_iter();
        let mut pages = pages.chain(std::iter::from_fn(|| {
            assert!(!ended, "asked again after it ended");
            ended = true;
            None
        }));
        let fused_once = std::iter::from_fn(move || pages.next());
        let mut all = ex.extract_all(fused_once, 4);
        let got: Vec<String> = all.by_ref().map(|e| e.page.source).collect();
        assert_eq!(got, ["p0", "p1"]);
        assert!(all.next().is_none() && all.next().is_none());
    }

    #[test]
    fn records_are_prepared_on_the_pool_when_asked_and_they_carry_metadata() {
        for (metadata, asked) in [(true, true), (false, true), (true, false)] {
            let ex = Extractor::builder()
                .record_metadata(metadata)
                .build()
                .unwrap();
            let out: Vec<Extracted> = ex
                .extract_all((0..4).map(|i| Ok(page(i))), 2)
                .prepare_records(asked)
                .collect();
            assert_eq!(out.len(), 4);
            for e in &out {
                let prepared = e.result.as_ref().unwrap().is_prepared();
                assert_eq!(prepared, metadata && asked, "{metadata} {asked}");
            }
        }
    }

    #[test]
    fn a_caller_on_a_one_thread_pool_is_not_left_waiting_for_itself() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            let ex = Extractor::builder().build().unwrap();
            let n = pool.install(|| ex.extract_all((0..6).map(|i| Ok(page(i))), 3).count());
            let _ = done.send(n);
        });
        let n = finished.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(n, Ok(6), "extract_all inside the pool did not finish");
    }
}

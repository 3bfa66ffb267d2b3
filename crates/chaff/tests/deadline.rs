//! The extractor's bounds. Its deadline: a page past it is an error naming the stage it was
//! stopped at, and a batch goes on with the next page, triggered deterministically (a
//! deadline of zero has passed before any stage ends), never by timing. Its node budget: a
//! page of many tiny elements is refused on one line.

use std::time::Duration;

use chaff::corpus::{CorpusError, Media, Page};
use chaff::{Error, Extractor};

const HTML: &str = "<html><body><nav><a href=/>Home</a></nav><article><p>The council met \
    on Tuesday to discuss the harbour and agreed to meet again in spring.</p></article>\
    </body></html>";

fn page(i: usize) -> Page {
    Page {
        source: format!("p{i}"),
        url: Some(format!("https://example.org/{i}")),
        bytes: HTML.as_bytes().to_vec(),
        charset: None,
        folder: None,
        media: Media::Html,
    }
}

#[test]
fn a_page_past_the_deadline_names_its_stage() {
    let ex = Extractor::builder()
        .deadline(Duration::ZERO)
        .build()
        .unwrap();
    let e = ex
        .extract(HTML.as_bytes(), Some("https://example.org/a"))
        .unwrap_err();
    assert!(
        matches!(&e, Error::Deadline { stage, limit, .. } if stage == "parse" && limit.is_zero()),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "https://example.org/a: page took longer than 0ns: stopped at parse"
    );
    // A page of more tokens than the parser reads between looks at the clock is stopped
    // inside the parser, with the same error.
    let big = HTML.repeat(2000);
    let e = ex.extract(big.as_bytes(), None).unwrap_err();
    assert!(
        matches!(&e, Error::Deadline { stage, .. } if stage == "parse"),
        "{e:?}"
    );
}

#[test]
fn a_batch_goes_on_after_a_late_page() {
    let late = Extractor::builder()
        .deadline(Duration::ZERO)
        .build()
        .unwrap();
    let pages = || -> Vec<Result<Page, CorpusError>> { (0..5).map(|i| Ok(page(i))).collect() };
    let out: Vec<_> = late.extract_all(pages(), 2).collect();
    assert_eq!(out.len(), 5);
    for (i, e) in out.iter().enumerate() {
        assert_eq!(e.page.source, format!("p{i}"));
        assert!(
            matches!(e.result, Err(Error::Deadline { .. })),
            "{:?}",
            e.result
        );
    }
    // A deadline far away changes nothing: the same text as without one.
    let roomy = Extractor::builder()
        .deadline(Duration::from_secs(3600))
        .build()
        .unwrap();
    let plain = Extractor::builder().build().unwrap();
    for (a, b) in roomy
        .extract_all(pages(), 2)
        .zip(plain.extract_all(pages(), 2))
    {
        assert_eq!(a.result.unwrap().text(), b.result.unwrap().text());
    }
    assert!(
        roomy
            .extract(HTML.as_bytes(), None)
            .unwrap()
            .text()
            .contains("harbour")
    );
}

#[test]
fn a_page_of_tiny_elements_past_the_node_budget_is_one_line() {
    let dense = "<i>x</i>".repeat(40_000); // 80,000 nodes in 320,000 bytes
    let e = chaff::extract(dense.as_bytes(), Some("https://example.org/d")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "https://example.org/d: page has over 50000 nodes in 320000 bytes, past the node budget \
         (at least 50000, else one per 48 bytes)"
    );
    // Lifted, the same page is extracted.
    let opts = chaff::dom::ParseOptions {
        node_budget: chaff::dom::NodeBudget::UNLIMITED,
        ..chaff::dom::ParseOptions::default()
    };
    let ex = Extractor::builder().parse_options(opts).build().unwrap();
    assert!(ex.extract(dense.as_bytes(), None).is_ok());
}

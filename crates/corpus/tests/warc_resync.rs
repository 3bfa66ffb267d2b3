//! Damage in the middle of a WARC file: one error naming the offset and where
//! reading resumes, then the records after it, at their true file offsets.

mod common;

use std::io::{Cursor, Read};

use chaff_corpus::http::build_response;
use chaff_corpus::warc::WrittenRecord;
use chaff_corpus::{CorpusError, WarcCompression, WarcPages, WarcResume, WarcWriter};
use common::{gzip, html};
use proptest::prelude::*;

const TITLES: [&str; 4] = ["one", "two", "three", "four"];

/// `n` response records, one page each (`html(TITLES[i])`).
fn archive(compression: WarcCompression, n: usize) -> (Vec<u8>, Vec<WrittenRecord>) {
    let mut w = WarcWriter::new(Vec::new(), compression);
    let records = TITLES[..n]
        .iter()
        .map(|t| {
            let msg = build_response(
                200,
                "OK",
                &[("Content-Type", "text/html")],
                html(t).as_bytes(),
            );
            w.write_response(&format!("http://e.com/{t}"), &msg)
                .unwrap()
        })
        .collect();
    (w.into_inner().unwrap(), records)
}

/// What came out, in order: `Ok((title, offset))` or `Err((offset, resume))`.
type Seen = Result<(String, String), (String, WarcResume)>;

fn run(bytes: Vec<u8>) -> (Vec<Seen>, Vec<String>) {
    let mut messages = Vec::new();
    let items = WarcPages::from_reader(Box::new(Cursor::new(bytes)), "f.warc".into())
        .unwrap()
        .map(|item| match item {
            Ok(page) => {
                let title = TITLES
                    .iter()
                    .find(|t| page.bytes == html(t).as_bytes())
                    .unwrap_or_else(|| panic!("a page that is no intact record: {}", page.source));
                let offset = page.source.strip_prefix("f.warc#").unwrap().to_string();
                Ok((title.to_string(), offset))
            }
            Err(e) => {
                messages.push(e.to_string());
                match e {
                    CorpusError::WarcDamaged { offset, resume, .. } => Err((offset, resume)),
                    other => panic!("unexpected error {other}"),
                }
            }
        })
        .collect();
    (items, messages)
}

fn page(title: &str, offset: u64) -> Seen {
    Ok((title.to_string(), offset.to_string()))
}

fn damage(offset: u64, resume: WarcResume) -> Seen {
    Err((offset.to_string(), resume))
}

/// Common Crawl layout, 3 records, bytes in the middle of the 2nd member
/// flipped: pages 1 and 3, one error at member 2 resuming at member 3.
#[test]
fn corrupt_gzip_member_in_the_middle() {
    let (mut bytes, r) = archive(WarcCompression::Gzip, 3);
    let mid = (r[1].offset + r[1].length / 2) as usize;
    for b in &mut bytes[mid..mid + 4] {
        *b ^= 0xff;
    }
    let (seen, messages) = run(bytes);
    assert_eq!(
        seen,
        [
            page("one", r[0].offset),
            damage(r[1].offset, WarcResume::At(r[2].offset)),
            page("three", r[2].offset),
        ]
    );
    // (What the parser says depends on what the corrupt member decoded to.)
    let expected = format!("f.warc: WARC damaged at byte offset {}: ", r[1].offset);
    assert!(messages[0].starts_with(&expected), "{}", messages[0]);
    assert!(
        messages[0].ends_with(&format!("; reading resumes at byte offset {}", r[2].offset)),
        "{}",
        messages[0]
    );
}

/// Replaces the 2nd record's WARC `Content-Length` with `new`; returns the
/// bytes and how far the records after it moved.
fn lie_about_length(bytes: &[u8], r: &[WrittenRecord], new: impl Fn(u64) -> u64) -> (Vec<u8>, i64) {
    let start = r[1].offset as usize;
    let text = String::from_utf8_lossy(&bytes[start..]).into_owned();
    let at = text.find("Content-Length: ").unwrap() + "Content-Length: ".len();
    let end = at + text[at..].find("\r\n").unwrap();
    let declared: u64 = text[at..end].parse().unwrap();
    let replacement = new(declared).to_string();
    let mut out = bytes[..start + at].to_vec();
    out.extend_from_slice(replacement.as_bytes());
    out.extend_from_slice(&bytes[start + end..]);
    (out, replacement.len() as i64 - (end - at) as i64)
}

fn moved(offset: u64, shift: i64) -> u64 {
    offset.checked_add_signed(shift).unwrap()
}

/// Plain WARC, the middle record's Content-Length lies (short, long into the
/// next record, long past the end of the file): its page is never yielded,
/// one error at its offset, and the third record is read at its offset.
#[test]
fn lying_content_length_in_a_plain_warc() {
    let (bytes, r) = archive(WarcCompression::None, 3);
    let into_third = r[1].length + r[2].length / 2;
    for (name, lie) in [
        (
            "short",
            Box::new(|n: u64| n - 10) as Box<dyn Fn(u64) -> u64>,
        ),
        (
            "long, into the next record",
            Box::new(move |n: u64| n + into_third),
        ),
        ("long, past the end", Box::new(|n: u64| n * 100)),
    ] {
        let (bytes, shift) = lie_about_length(&bytes, &r, lie);
        let third = moved(r[2].offset, shift);
        let (seen, messages) = run(bytes);
        assert_eq!(
            seen,
            [
                page("one", r[0].offset),
                damage(r[1].offset, WarcResume::At(third)),
                page("three", third),
            ],
            "{name}: {messages:?}"
        );
    }
}

/// Bytes cut out of the 1st record's block so that its Content-Length now runs
/// over into the 2nd record and ends exactly at the blank line of that record's
/// HTTP head: a closing blank line follows, then no record. The block digest
/// tells that the 1st record is the damaged one; the others are read.
#[test]
fn a_length_that_ends_at_a_later_blank_line_is_caught_by_the_digest() {
    let (bytes, r) = archive(WarcCompression::None, 3);
    let find = |from: usize, what: &[u8]| {
        from + bytes[from..]
            .windows(what.len())
            .position(|w| w == what)
            .unwrap()
    };
    let block_start = find(0, b"\r\n\r\n") + 4; // after the WARC header
    let block_end = r[1].offset as usize - 4; // before the closing blank line
    let http_blank = find(block_start, b"\r\n\r\n<!DOCTYPE");
    let second_http_blank = find(r[1].offset as usize, b"\r\n\r\n<!DOCTYPE");
    let n = second_http_blank - block_end;
    let mut damaged = bytes.clone();
    damaged.drain(http_blank..http_blank + n);
    let (seen, messages) = run(damaged);
    let shift = -(n as i64);
    assert_eq!(
        seen,
        [
            damage(0, WarcResume::At(moved(r[1].offset, shift))),
            page("two", moved(r[1].offset, shift)),
            page("three", moved(r[2].offset, shift)),
        ],
        "{messages:?}"
    );
    assert!(
        messages[0].contains("does not match its WARC-Block-Digest"),
        "{}",
        messages[0]
    );
}

/// Garbage between the 1st and 2nd record: every record is read, the error
/// names where the garbage starts and where reading resumes.
#[test]
fn garbage_between_records() {
    for compression in [WarcCompression::None, WarcCompression::Gzip] {
        let (bytes, r) = archive(compression, 3);
        let garbage = b"this is not a record\r\nnor WARC/1.2\r\n\x1f\x8b\x08 nor a member\r\n\r\n";
        let at = r[1].offset as usize;
        let mut damaged = bytes[..at].to_vec();
        damaged.extend_from_slice(garbage);
        damaged.extend_from_slice(&bytes[at..]);
        let shift = garbage.len() as i64;
        let (seen, messages) = run(damaged);
        assert_eq!(
            seen,
            [
                page("one", r[0].offset),
                damage(r[1].offset, WarcResume::At(moved(r[1].offset, shift))),
                page("two", moved(r[1].offset, shift)),
                page("three", moved(r[2].offset, shift)),
            ],
            "{compression:?}: {messages:?}"
        );
    }
}

/// A file cut inside its last record: one error, nothing to resume.
#[test]
fn truncated_at_the_end() {
    for compression in [WarcCompression::None, WarcCompression::Gzip] {
        let (bytes, r) = archive(compression, 3);
        let cut = (r[2].offset + r[2].length / 2) as usize;
        let (seen, messages) = run(bytes[..cut].to_vec());
        assert_eq!(
            seen,
            [
                page("one", r[0].offset),
                page("two", r[1].offset),
                damage(r[2].offset, WarcResume::Nothing),
            ],
            "{compression:?}"
        );
        assert!(
            messages[0].ends_with("; no record starts after it, nothing more was read"),
            "{}",
            messages[0]
        );
    }
}

/// A WARC gzipped whole, corrupt in its one member: the message says reading
/// cannot resume, and no page from the corrupt stream differs from the record.
#[test]
fn corrupt_single_member_gzip_cannot_resume() {
    let (plain, _) = archive(WarcCompression::None, 4);
    let mut bytes = gzip(&plain);
    let mid = bytes.len() * 3 / 4;
    for b in &mut bytes[mid..mid + 4] {
        *b ^= 0x5a;
    }
    let items: Vec<_> = WarcPages::from_reader(Box::new(Cursor::new(bytes)), "w.warc.gz".into())
        .unwrap()
        .collect();
    let Some(Err(CorpusError::WarcDamaged { resume, .. })) = items.last() else {
        panic!("{items:?}");
    };
    assert_eq!(*resume, WarcResume::WholeGzip);
    let message = items.last().unwrap().as_ref().unwrap_err().to_string();
    assert!(message.contains("so reading cannot resume"), "{message}");
    assert_eq!(items.iter().filter(|i| i.is_err()).count(), 1);
}

/// A reader of `parts`, the middle one `garbage` bytes produced on the fly
/// (lines, near-miss version lines and gzip magic), never held whole.
struct Garbage {
    head: Cursor<Vec<u8>>,
    left: u64,
    tail: Cursor<Vec<u8>>,
    counter: u64,
}

impl Read for Garbage {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.head.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        if self.left > 0 {
            const PATTERN: &[u8] =
                b"\nWARC/1.2\r\nWARC/1.1 \n\x1f\x8b\x08\x00\x1f\x8b\x07 garbage ";
            let n = buf.len().min(self.left as usize);
            for b in &mut buf[..n] {
                *b = PATTERN[(self.counter % PATTERN.len() as u64) as usize];
                self.counter += 1;
            }
            self.left -= n as u64;
            return Ok(n);
        }
        self.tail.read(buf)
    }
}

/// Crossing a large garbage region: the record after it is found at its true
/// offset, and the read buffer stays small (the region is never held).
/// `CHAFF_RESYNC_GARBAGE_MB` sets the size (default 24).
#[test]
fn resync_over_a_large_garbage_region_is_streaming() {
    let mb: u64 = std::env::var("CHAFF_RESYNC_GARBAGE_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    for compression in [WarcCompression::None, WarcCompression::Gzip] {
        let (bytes, r) = archive(compression, 2);
        let split = r[1].offset as usize;
        let size = mb << 20;
        let reader = Garbage {
            head: Cursor::new(bytes[..split].to_vec()),
            left: size,
            // The garbage's last line ends before the record.
            tail: Cursor::new([b"\r\n", &bytes[split..]].concat()),
            counter: 0,
        };
        let started = std::time::Instant::now();
        let mut pages = WarcPages::from_reader(Box::new(reader), "big.warc".into()).unwrap();
        let items: Vec<_> = pages.by_ref().collect();
        let after = r[1].offset + size + 2;
        let sources: Vec<String> = items
            .iter()
            .map(|i| match i {
                Ok(p) => p.source.clone(),
                Err(e) => e.to_string(),
            })
            .collect();
        assert_eq!(items.len(), 3, "{sources:?}");
        assert_eq!(sources[0], format!("big.warc#{}", r[0].offset));
        assert!(
            sources[1].ends_with(&format!("reading resumes at byte offset {after}")),
            "{}",
            sources[1]
        );
        assert_eq!(sources[2], format!("big.warc#{after}"));
        let peak = pages.peak_buffer_bytes();
        println!(
            "{compression:?}: crossed {mb} MiB of garbage in {:.2} s, read buffer peak {} KiB",
            started.elapsed().as_secs_f64(),
            peak >> 10
        );
        assert!(peak <= 4 << 20, "read buffer grew to {peak} bytes");
    }
}

/// A random change to an archive.
#[derive(Debug, Clone)]
enum Change {
    Cut(usize),
    Overwrite(usize, Vec<u8>),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
}

fn change() -> impl Strategy<Value = Change> {
    let bytes = proptest::collection::vec(any::<u8>(), 1..64);
    prop_oneof![
        any::<usize>().prop_map(Change::Cut),
        (any::<usize>(), bytes.clone()).prop_map(|(a, b)| Change::Overwrite(a, b)),
        (any::<usize>(), bytes).prop_map(|(a, b)| Change::Insert(a, b)),
        (any::<usize>(), 1usize..400).prop_map(|(a, n)| Change::Delete(a, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Cutting or corrupting any span never panics, always ends, and never
    /// yields a page that is not an intact record's page at its true offset
    /// (plain WARCs excepted for bytes replaced inside a record, by an overwrite
    /// or by several changes: they have no checksum, so there only records the
    /// changes did not touch are checked).
    #[test]
    fn damage_never_yields_a_wrong_page(gz in any::<bool>(), changes in proptest::collection::vec(change(), 1..3)) {
        let compression = if gz { WarcCompression::Gzip } else { WarcCompression::None };
        let (mut bytes, records) = archive(compression, 4);
        // Each record: where it starts now (None once a change overlaps its
        // start), where it ends (unknown, so u64::MAX, once changed inside), and
        // whether a change touched it.
        let mut spans: Vec<(Option<u64>, u64, bool)> =
            records.iter().map(|r| (Some(r.offset), r.offset + r.length, false)).collect();
        // In a plain WARC, bytes replaced inside a record (an overwrite, or a deletion and
        // an insertion of the same length) cannot be noticed: there is no checksum.
        let mut overwritten_plain = !gz && changes.len() > 1;
        for c in changes {
            let len = bytes.len().max(1);
            // The changed region [from, to) (to = MAX for a cut) and how far later bytes move.
            let (from, to, shift): (u64, u64, i64) = match c {
                Change::Cut(a) => {
                    let a = a % len;
                    bytes.truncate(a);
                    (a as u64, u64::MAX, 0)
                }
                Change::Overwrite(a, b) => {
                    let a = a % len;
                    let end = (a + b.len()).min(bytes.len());
                    bytes[a..end].copy_from_slice(&b[..end - a]);
                    overwritten_plain |= !gz;
                    (a as u64, end as u64, 0)
                }
                Change::Insert(a, b) => {
                    let a = a % len;
                    bytes.splice(a..a, b.iter().copied());
                    (a as u64, a as u64, b.len() as i64)
                }
                Change::Delete(a, n) => {
                    let a = a % len;
                    let end = (a + n).min(bytes.len());
                    bytes.drain(a..end);
                    (a as u64, end as u64, -((end - a) as i64))
                }
            };
            for span in &mut spans {
                let (Some(start), end, touched) = *span else { continue };
                *span = if end <= from {
                    (Some(start), end, touched)
                } else if start >= to {
                    let moved = |x: u64| if x == u64::MAX { x } else { x.checked_add_signed(shift).unwrap() };
                    (Some(moved(start)), moved(end), touched)
                } else if start < from {
                    (Some(start), u64::MAX, true)
                } else {
                    (None, u64::MAX, true)
                };
            }
        }
        let items: Vec<_> = WarcPages::from_reader(Box::new(Cursor::new(bytes)), "p".into())
            .unwrap()
            .take(1000)
            .collect();
        prop_assert!(items.len() < 1000);
        for item in items.iter().filter_map(|i| i.as_ref().ok()) {
            let offset: u64 = match item.source.strip_prefix("p#").and_then(|o| o.parse().ok()) {
                Some(o) => o,
                None => return Err(TestCaseError::fail(format!("source {}", item.source))),
            };
            let title = TITLES.iter().position(|t| item.bytes == html(t).as_bytes());
            match title {
                // An intact page comes from that record, at its true offset.
                // (A change that removed its start may splice an earlier record's first
                // header lines onto the rest of it: a whole record again, elsewhere.)
                Some(i) => {
                    if let Some(start) = spans[i].0 {
                        prop_assert_eq!(offset, start, "{} is not where it was written", TITLES[i]);
                    }
                }
                // Other bytes only from a plain record that an overwrite touched.
                None => {
                    let touched = spans.iter().any(|&(start, _, touched)| start == Some(offset) && touched);
                    prop_assert!(overwritten_plain && touched, "a page that is no intact record at {}", offset);
                }
            }
        }
    }
}

/// Found by the `warc_reader` fuzz target: a `WARC-Block-Digest` whose fifth byte falls
/// inside a multi-byte character panicked on a string slice. Such a digest is no SHA-1 one
/// and is ignored; the record is read.
#[test]
fn a_digest_header_with_non_ascii_bytes_is_ignored_not_a_panic() {
    let (bytes, _) = archive(WarcCompression::None, 2);
    let text = String::from_utf8(bytes).unwrap();
    let first = text.find("WARC-Target-URI").unwrap();
    let odd = format!(
        "{}WARC-Block-Digest: sha1€:X\r\n{}",
        &text[..first],
        &text[first..]
    );
    let (items, messages) = run(odd.into_bytes());
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_ref().map(|p| p.0.as_str()), Ok("one"));
}

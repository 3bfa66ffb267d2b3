//! WARC files written with our `WarcWriter`, read back through `Pages`.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use chaff_corpus::http::build_response;
use chaff_corpus::warc::{RecordSpec, WrittenRecord};
use chaff_corpus::{CorpusError, Pages, PagesOptions, WarcCompression, WarcPages, WarcWriter};
use common::{gzip, html, put, split};
use flate2::Compression;
use flate2::write::GzEncoder;

/// A crawl-like WARC: warcinfo, then per page request + response + metadata,
/// plus records that are not pages. Returns the bytes and the response records.
fn crawl(compression: WarcCompression) -> (Vec<u8>, Vec<WrittenRecord>) {
    let mut w = WarcWriter::new(Vec::new(), compression);
    w.write_warcinfo(
        Some("test.warc"),
        &[
            ("software", "chaff tests"),
            ("format", "WARC File Format 1.1"),
        ],
    )
    .unwrap();
    let mut responses = Vec::new();
    for (i, (url, headers, body)) in [
        (
            "https://news.example.com/a",
            vec![("Content-Type", "text/html; charset=ISO-8859-1")],
            html("A").into_bytes(),
        ),
        (
            "https://news.example.com/b",
            vec![("Content-Type", "application/xhtml+xml")],
            html("B").into_bytes(),
        ),
        ("https://news.example.com/c", vec![], html("C").into_bytes()),
    ]
    .into_iter()
    .enumerate()
    {
        let req = w
            .write_request(
                url,
                format!("GET /{i} HTTP/1.1\r\nHost: news.example.com\r\n\r\n").as_bytes(),
                None,
            )
            .unwrap();
        let resp = w
            .write_response(url, &build_response(200, "OK", &headers, &body))
            .unwrap();
        w.write_metadata(url, Some(&req.record_id), &[("fetchTimeMs", "12")])
            .unwrap();
        responses.push(resp);
    }
    (w.into_inner().unwrap(), responses)
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    put(dir, name, bytes)
}

fn read(path: &Path) -> (Vec<chaff_corpus::Page>, Vec<String>) {
    split(Pages::from_args(&[path.display().to_string()], PagesOptions::default()).unwrap())
}

#[test]
fn plain_and_gzipped_warcs() {
    let dir = tempfile::tempdir().unwrap();
    for (compression, name) in [
        (WarcCompression::None, "crawl.warc"),
        (WarcCompression::Gzip, "crawl.warc.gz"),
    ] {
        let (bytes, responses) = crawl(compression);
        let path = write_file(dir.path(), name, &bytes);
        let (pages, errors) = read(&path);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert_eq!(pages.len(), 3, "{name}");
        for (page, (resp, title)) in pages.iter().zip(responses.iter().zip(["A", "B", "C"])) {
            assert_eq!(page.source, format!("{}#{}", path.display(), resp.offset));
            assert_eq!(page.bytes, html(title).as_bytes());
            assert_eq!(page.folder.as_deref(), Some(dir.path()));
        }
        assert_eq!(pages[0].url.as_deref(), Some("https://news.example.com/a"));
        assert_eq!(pages[0].charset.as_deref(), Some("iso-8859-1"));
        assert_eq!(pages[1].charset, None);
    }
}

#[test]
fn warc_detected_by_content_and_inside_folders() {
    let dir = tempfile::tempdir().unwrap();
    let (bytes, _) = crawl(WarcCompression::Gzip);
    write_file(dir.path(), "d/archive.bin", &bytes);
    write_file(dir.path(), "d/page.html", b"<p>plain</p>");
    let (pages, errors) = read(&dir.path().join("d"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(pages.len(), 4);
    assert!(pages[0].source.contains("archive.bin#"));
    assert!(pages[3].source.ends_with("page.html"));
}

/// One record per gzip member is the norm, but a WARC gzipped whole must work too.
#[test]
fn single_member_gzip_warc() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, responses) = crawl(WarcCompression::None);
    let path = write_file(dir.path(), "whole.warc.gz", &gzip(&plain));
    let (pages, errors) = read(&path);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(pages.len(), 3);
    assert_eq!(
        pages[1].source,
        format!("{}#0+{}", path.display(), responses[1].offset)
    );
}

#[test]
fn chunked_gzip_payload_and_codings() {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(html("chunky").as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    let mut chunked = Vec::new();
    for piece in gz.chunks(100) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let mut br = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, 5, 22);
        w.write_all(html("brotli").as_bytes()).unwrap();
    }

    let mut w = WarcWriter::new(Vec::new(), WarcCompression::Gzip);
    let msg = build_response(
        200,
        "OK",
        &[
            ("Content-Type", "text/html; charset=utf-8"),
            ("Transfer-Encoding", "chunked"),
            ("Content-Encoding", "gzip"),
        ],
        &chunked,
    );
    w.write_response("http://x.example/chunky", &msg).unwrap();
    let msg = build_response(
        200,
        "OK",
        &[("Content-Type", "text/html"), ("Content-Encoding", "br")],
        &br,
    );
    w.write_response("http://x.example/br", &msg).unwrap();
    let msg = build_response(
        200,
        "OK",
        &[("Content-Type", "text/html"), ("Content-Encoding", "zstd")],
        b"?",
    );
    w.write_response("http://x.example/zstd", &msg).unwrap();
    w.write_response(
        "http://x.example/last",
        &build_response(200, "OK", &[], b"<html>last</html>"),
    )
    .unwrap();
    let bytes = w.into_inner().unwrap();

    let pages = WarcPages::from_reader(Box::new(std::io::Cursor::new(bytes)), "mem.warc.gz".into())
        .unwrap();
    let (pages, errors) = split(pages);
    let urls: Vec<_> = pages.iter().map(|p| p.url.as_deref().unwrap()).collect();
    assert_eq!(
        urls,
        [
            "http://x.example/chunky",
            "http://x.example/br",
            "http://x.example/last"
        ]
    );
    assert_eq!(pages[0].bytes, html("chunky").as_bytes());
    assert_eq!(pages[0].charset.as_deref(), Some("utf-8"));
    assert_eq!(pages[1].bytes, html("brotli").as_bytes());
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("mem.warc.gz#") && errors[0].contains("zstd"),
        "{}",
        errors[0]
    );
}

#[test]
fn non_pages_are_skipped() {
    let mut w = WarcWriter::new(Vec::new(), WarcCompression::None);
    let r =
        |status, headers: &[(&str, &str)], body: &[u8]| build_response(status, "X", headers, body);
    w.write_response(
        "http://e.com/json",
        &r(200, &[("Content-Type", "application/json")], b"{}"),
    )
    .unwrap();
    w.write_response(
        "http://e.com/img",
        &r(200, &[("Content-Type", "image/png")], b"\x89PNG"),
    )
    .unwrap();
    w.write_response(
        "http://e.com/redirect",
        &r(301, &[("Content-Type", "text/html")], b"<html>moved</html>"),
    )
    .unwrap();
    w.write_response(
        "http://e.com/404",
        &r(404, &[("Content-Type", "text/html")], b"<html>gone</html>"),
    )
    .unwrap();
    w.write_response("http://e.com/untyped-text", &r(200, &[], b"hello"))
        .unwrap();
    w.write_record(
        &RecordSpec::new("response", b"dns answer")
            .with_target_uri("dns:e.com")
            .with_content_type("text/dns"),
    )
    .unwrap();
    w.write_record(&RecordSpec::new("revisit", b"").with_target_uri("http://e.com/"))
        .unwrap();
    w.write_resource("http://e.com/css", "text/css", b"body{}")
        .unwrap();
    // The pages among them:
    w.write_resource(
        "file:///saved/page.html",
        "text/html; charset=windows-1252",
        b"<html>res</html>",
    )
    .unwrap();
    w.write_response(
        "http://e.com/untyped-html",
        &r(200, &[], b"\n<!doctype html><p>sniffed"),
    )
    .unwrap();
    let bytes = w.into_inner().unwrap();
    let (pages, errors) = split(
        WarcPages::from_reader(Box::new(std::io::Cursor::new(bytes)), "m.warc".into()).unwrap(),
    );
    assert!(errors.is_empty(), "{errors:?}");
    let urls: Vec<_> = pages.iter().map(|p| p.url.as_deref().unwrap()).collect();
    assert_eq!(
        urls,
        ["file:///saved/page.html", "http://e.com/untyped-html"]
    );
    assert_eq!(pages[0].charset.as_deref(), Some("windows-1252"));
}

#[test]
fn bad_http_in_one_record_does_not_stop_the_file() {
    let mut w = WarcWriter::new(Vec::new(), WarcCompression::None);
    w.write_record(
        &RecordSpec::new("response", b"garbage, not HTTP")
            .with_target_uri("http://e.com/bad")
            .with_content_type("application/http;msgtype=response"),
    )
    .unwrap();
    w.write_response(
        "http://e.com/good",
        &build_response(200, "OK", &[("Content-Type", "text/html")], b"<p>g"),
    )
    .unwrap();
    let bytes = w.into_inner().unwrap();
    let items: Vec<_> =
        WarcPages::from_reader(Box::new(std::io::Cursor::new(bytes)), "m.warc".into())
            .unwrap()
            .collect();
    assert_eq!(items.len(), 2);
    let err = items[0].as_ref().unwrap_err();
    assert!(matches!(err, CorpusError::WarcRecord { .. }));
    assert_eq!(
        err.to_string(),
        "m.warc#0: not an HTTP response (status line 'garbage, not HTTP')"
    );
    assert!(items[1].is_ok());
}

#[test]
fn oversized_record_is_an_item() {
    let mut w = WarcWriter::new(Vec::new(), WarcCompression::Gzip);
    let big = build_response(
        200,
        "OK",
        &[("Content-Type", "text/html")],
        &vec![b'a'; 5000],
    );
    w.write_response("http://e.com/big", &big).unwrap();
    w.write_response(
        "http://e.com/ok",
        &build_response(200, "OK", &[("Content-Type", "text/html")], b"<p>ok"),
    )
    .unwrap();
    let pages = WarcPages::from_reader(
        Box::new(std::io::Cursor::new(w.into_inner().unwrap())),
        "m.warc.gz".into(),
    )
    .unwrap()
    .with_max_page_bytes(1000);
    let (pages, errors) = split(pages);
    assert_eq!(pages.len(), 1);
    assert_eq!(
        errors,
        ["m.warc.gz#0: page larger than the 1000-byte limit, skipped"]
    );
}

/// Cut in the middle of the third page's record: two pages, then one error
/// naming the file and the third record's offset, then nothing.
#[test]
fn truncated_warc() {
    let dir = tempfile::tempdir().unwrap();
    for (compression, name) in [
        (WarcCompression::None, "cut.warc"),
        (WarcCompression::Gzip, "cut.warc.gz"),
    ] {
        let mut w = WarcWriter::new(Vec::new(), compression);
        let mut records = Vec::new();
        for t in ["one", "two", "three", "four"] {
            let msg = build_response(
                200,
                "OK",
                &[("Content-Type", "text/html")],
                html(t).as_bytes(),
            );
            records.push(
                w.write_response(&format!("http://e.com/{t}"), &msg)
                    .unwrap(),
            );
        }
        let bytes = w.into_inner().unwrap();
        let third = &records[2];
        let cut = (third.offset + third.length / 2) as usize;
        let path = write_file(dir.path(), name, &bytes[..cut]);
        let extra = write_file(dir.path(), "after.html", b"<p>next input</p>");

        let args = [path.display().to_string(), extra.display().to_string()];
        let items: Vec<_> = Pages::from_args(&args, PagesOptions::default())
            .unwrap()
            .collect();
        assert_eq!(items.len(), 4, "{name}: {items:?}");
        assert_eq!(items[0].as_ref().unwrap().bytes, html("one").as_bytes());
        assert_eq!(items[1].as_ref().unwrap().bytes, html("two").as_bytes());
        let err = items[2].as_ref().unwrap_err();
        match err {
            CorpusError::WarcDamaged {
                path: p, offset, ..
            } => {
                assert_eq!(p, &path);
                assert_eq!(offset, &third.offset.to_string(), "{name}: {err}");
            }
            other => panic!("{name}: expected WarcDamaged, got {other}"),
        }
        let msg = err.to_string();
        assert!(
            msg.contains(name) && msg.contains(&format!("byte offset {}", third.offset)),
            "{msg}"
        );
        // The next input is still read.
        assert_eq!(
            items[3].as_ref().unwrap().source,
            extra.display().to_string()
        );
    }
}

/// Every possible cut of a small archive: no panic, pages are a prefix of the
/// full list, at most one error and only at the end, and an error whenever
/// the cut falls inside a record (header, block or closing blank line).
#[test]
fn every_truncation_point() {
    for compression in [WarcCompression::None, WarcCompression::Gzip] {
        let mut w = WarcWriter::new(Vec::new(), compression);
        let mut records = Vec::new();
        for t in ["a", "b", "c"] {
            let msg = build_response(
                200,
                "OK",
                &[("Content-Type", "text/html")],
                format!("<html>{t}</html>").as_bytes(),
            );
            records.push(
                w.write_response(&format!("http://e.com/{t}"), &msg)
                    .unwrap(),
            );
        }
        let bytes = w.into_inner().unwrap();
        for cut in 0..bytes.len() {
            let items: Vec<_> = WarcPages::from_reader(
                Box::new(std::io::Cursor::new(bytes[..cut].to_vec())),
                "t".into(),
            )
            .unwrap()
            .collect();
            let errors = items.iter().filter(|i| i.is_err()).count();
            assert!(errors <= 1, "cut {cut}: {items:?}");
            if errors == 1 {
                assert!(items.last().unwrap().is_err(), "cut {cut}");
            }
            for (i, item) in items.iter().filter_map(|i| i.as_ref().ok()).enumerate() {
                assert_eq!(
                    item.url.as_deref(),
                    Some(format!("http://e.com/{}", ["a", "b", "c"][i]).as_str())
                );
            }
            // Any cut inside a record is damage, its closing CRLF CRLF (plain) or its
            // gzip member included.
            let inside = records.iter().any(|r| {
                let start = r.offset as usize;
                cut > start && cut < start + r.length as usize
            });
            assert_eq!(errors == 1, inside, "{compression:?} cut {cut}: {items:?}");
        }
    }
}

/// Flipped bytes anywhere: the reader may yield errors, but never panics
/// and always ends.
#[test]
fn corrupted_bytes_never_panic() {
    let (plain, _) = crawl(WarcCompression::None);
    let (gz, _) = crawl(WarcCompression::Gzip);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for original in [&plain, &gz] {
        for _ in 0..300 {
            let mut bytes = original.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % bytes.len() as u64) as usize;
                bytes[at] = next() as u8;
            }
            let items = WarcPages::from_reader(Box::new(std::io::Cursor::new(bytes)), "f".into())
                .unwrap()
                .take(100)
                .count();
            assert!(items < 100);
        }
    }
}

#[test]
fn garbage_file_named_warc() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(
        dir.path(),
        "junk.warc",
        b"this is not a WARC file at all\r\n\r\n",
    );
    let (pages, errors) = read(&path);
    assert!(pages.is_empty());
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("junk.warc: WARC damaged at byte offset 0"),
        "{}",
        errors[0]
    );
    let empty = write_file(dir.path(), "empty.warc.gz", b"");
    assert_eq!(read(&empty), (vec![], vec![]));
}

/// warcio (the Python reference library) must accept what the writer writes.
#[test]
fn warcio_accepts_writer_output() {
    let has_warcio = Command::new("python3")
        .args(["-c", "import warcio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_warcio {
        println!("skipped: python3 with warcio is not available (pip install warcio to run it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (compression, name) in [
        (WarcCompression::None, "w.warc"),
        (WarcCompression::Gzip, "w.warc.gz"),
    ] {
        let (bytes, _) = crawl(compression);
        let path = write_file(dir.path(), name, &bytes);
        let check = Command::new("python3")
            .args([
                "-c",
                "import sys; from warcio.cli import main; main(sys.argv[1:])",
                "check",
                "-v",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "warcio check {name}: {}{}",
            String::from_utf8_lossy(&check.stdout),
            String::from_utf8_lossy(&check.stderr)
        );
        let script = "import sys\nfrom warcio.archiveiterator import ArchiveIterator\n\
                      with open(sys.argv[1], 'rb') as f:\n    \
                      for r in ArchiveIterator(f):\n        \
                      print(r.rec_type, r.rec_headers.get_header('WARC-Target-URI'), len(r.content_stream().read()))";
        let out = Command::new("python3")
            .args(["-c", script])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let listing = String::from_utf8(out.stdout).unwrap();
        let types: Vec<&str> = listing
            .lines()
            .map(|l| l.split(' ').next().unwrap())
            .collect();
        assert_eq!(types.len(), 10, "{listing}");
        assert_eq!(types[..4], ["warcinfo", "request", "response", "metadata"]);
        let first_response = listing.lines().nth(2).unwrap();
        assert_eq!(
            first_response,
            format!("response https://news.example.com/a {}", html("A").len())
        );
    }
}

#[test]
fn reading_from_a_pipe_like_reader() {
    // Any `Read` works, not only files: a reader that hands out 7 bytes at a time.
    struct Dribble(std::io::Cursor<Vec<u8>>);
    impl Read for Dribble {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(7);
            self.0.read(&mut buf[..n])
        }
    }
    let (bytes, _) = crawl(WarcCompression::Gzip);
    let pages = WarcPages::from_reader(
        Box::new(Dribble(std::io::Cursor::new(bytes))),
        "pipe".into(),
    )
    .unwrap();
    let (pages, errors) = split(pages);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(pages.len(), 3);
}

#[test]
fn warc_on_standard_input() {
    for compression in [WarcCompression::None, WarcCompression::Gzip] {
        let (bytes, _) = crawl(compression);
        let pages = Pages::new(vec![chaff_corpus::InputSpec::Stdin])
            .with_stdin(std::io::Cursor::new(bytes));
        let (pages, errors) = split(pages);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(pages.len(), 3);
        assert!(pages[0].source.starts_with("stdin#"), "{}", pages[0].source);
        assert_eq!(pages[0].url.as_deref(), Some("https://news.example.com/a"));
    }
}

#[test]
fn each_page_gives_its_headers() {
    let (bytes, _) = crawl(WarcCompression::Gzip);
    let mut pages =
        WarcPages::from_reader(Box::new(std::io::Cursor::new(bytes)), "c.warc".into()).unwrap();
    assert!(pages.take_headers().is_empty());
    let mut seen = Vec::new();
    while let Some(page) = pages.next() {
        let page = page.unwrap();
        seen.push((page.url.unwrap(), pages.take_headers()));
        assert!(pages.take_headers().is_empty(), "taken once");
    }
    let content_type = |h: &[(String, String)]| {
        h.iter()
            .find(|(n, _)| n == "Content-Type")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(seen.len(), 3);
    assert_eq!(
        content_type(&seen[0].1).as_deref(),
        Some("text/html; charset=ISO-8859-1")
    );
    assert_eq!(
        content_type(&seen[1].1).as_deref(),
        Some("application/xhtml+xml")
    );
    assert!(seen[2].1.is_empty(), "{:?}", seen[2].1);
}

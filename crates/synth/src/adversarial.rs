//! Hostile inputs for the hardening tests and benchmarks: pages and archives made to be
//! huge, deep, wide, self-contradictory or endless, written straight to files so that a
//! 64 MiB page never sits in memory here.
//!
//! At [`Scale::Full`] the sizes are those of the hardening issue (a 64 MiB page, 10⁶ nodes,
//! nesting of 10⁵, 10⁵ attributes on one element, a 32 MiB word, a 10⁴ × 10² table, 10⁵
//! links, a gzip bomb expanding to 1 GiB; and a 32 MiB text node misread as Latin-1, which
//! chaff-dom reads again); [`Scale::Small`] divides every count by 100 for
//! quick tests.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// How big the inputs are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The sizes of the hardening issue.
    Full,
    /// Every count divided by 100.
    Small,
}

impl Scale {
    fn n(self, full: usize) -> usize {
        match self {
            Scale::Full => full,
            Scale::Small => (full / 100).max(1),
        }
    }
}

/// One hostile input written to disk.
#[derive(Clone, Debug)]
pub struct Adversary {
    /// A short name (`nesting-100000`).
    pub name: String,
    /// What makes it hostile.
    pub what: &'static str,
    /// The file.
    pub path: PathBuf,
}

type Body = Box<dyn Fn(&mut dyn Write, Scale) -> io::Result<()>>;

/// Every hostile input, written into `dir`.
pub fn write_all(dir: &Path, scale: Scale) -> io::Result<Vec<Adversary>> {
    std::fs::create_dir_all(dir)?;
    let mut out = Vec::new();
    for (name, file, what, body) in inputs(scale) {
        let path = dir.join(file);
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&path)?);
        body(&mut w, scale)?;
        w.flush()?;
        out.push(Adversary { name, what, path });
    }
    Ok(out)
}

fn inputs(scale: Scale) -> Vec<(String, String, &'static str, Body)> {
    let n = |full| scale.n(full);
    let item = |name: String, ext: &str, what, body: Body| {
        (name.clone(), format!("{name}.{ext}"), what, body)
    };
    vec![
        item(
            format!("large-{}mib", n(6400) / 100),
            "html",
            "a page of 64 MiB of paragraphs",
            Box::new(large_page),
        ),
        item(
            format!("nodes-{}", n(1_000_000)),
            "html",
            "10^6 elements",
            Box::new(many_nodes),
        ),
        item(
            format!("nesting-{}", n(100_000)),
            "html",
            "divs nested 10^5 deep, never closed",
            Box::new(deep_nesting),
        ),
        item(
            format!("covers-{}", n(100_000)),
            "html",
            "hidden wrappers nested 10^5 deep, then 10^5 hidden siblings",
            Box::new(hidden_covers),
        ),
        item(
            format!("attributes-{}", n(100_000)),
            "html",
            "10^5 attributes on one element",
            Box::new(many_attributes),
        ),
        item(
            format!("word-{}mib", n(3200) / 100),
            "html",
            "a 32 MiB text node without a space",
            Box::new(long_word),
        ),
        item(
            format!("misread-{}mib", n(3200) / 100),
            "html",
            "a 32 MiB text node of UTF-8 read as Latin-1, one run of such characters",
            Box::new(misread_run),
        ),
        item(
            format!("table-{}x100", n(10_000)),
            "html",
            "a table of 10^4 rows of 10^2 cells",
            Box::new(big_table),
        ),
        item(
            format!("links-{}", n(100_000)),
            "html",
            "10^5 links",
            Box::new(many_links),
        ),
        item(
            "utf16-bom-says-latin1".into(),
            "html",
            "a UTF-16 byte-order mark, a meta charset of latin-1",
            Box::new(bom_conflict),
        ),
        item(
            "meta-utf8-latin1-bytes".into(),
            "html",
            "meta charset utf-8, bytes in latin-1",
            Box::new(meta_conflict),
        ),
        item(
            "two-meta-charsets".into(),
            "html",
            "two meta charsets that disagree, the second late",
            Box::new(two_metas),
        ),
        item(
            "binary-junk".into(),
            "html",
            "random bytes with NULs",
            Box::new(junk),
        ),
        item(
            format!("gzip-bomb-{}mib", n(102_400) / 100),
            "html.gz",
            "gzip expanding to 1 GiB",
            Box::new(gzip_bomb),
        ),
        item(
            "warc-lying-length".into(),
            "warc",
            "a record whose Content-Length runs past the file",
            Box::new(lying_warc),
        ),
        item(
            "warc-endless-chunks".into(),
            "warc",
            "a chunked body whose last chunk never comes",
            Box::new(endless_chunks),
        ),
    ]
}

const PARAGRAPH: &str = "<p>The council met on Tuesday to discuss the harbour, the bridge and \
    the library, and agreed to meet again when the reports are ready for the public.</p>\n";

fn large_page(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<!doctype html><html><head><title>Large</title></head><body><article>")?;
    // Just under 64 MiB in all, the largest page chaff reads by default.
    let target = s.n(64 << 20) - 200;
    let mut written = 0;
    while written + PARAGRAPH.len() <= target {
        w.write_all(PARAGRAPH.as_bytes())?;
        written += PARAGRAPH.len();
    }
    w.write_all(b"</article></body></html>")
}

fn many_nodes(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body>")?;
    for i in 0..s.n(1_000_000) / 2 {
        write!(w, "<span>w{}</span>", i % 97)?;
    }
    w.write_all(b"</body></html>")
}

fn deep_nesting(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body>")?;
    for _ in 0..s.n(100_000) {
        w.write_all(b"<div>")?;
    }
    w.write_all(b"deep text at the bottom of the nesting")
}

/// Every element hidden by its style and the only child of its parent, as a page's cover
/// is (`chaff_dom::text::is_page_cover` walks up from each), then many hidden empty
/// siblings, which a cover's test must not read against each other.
fn hidden_covers(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body>")?;
    for _ in 0..s.n(100_000) {
        w.write_all(b"<div style=\"visibility:hidden\">")?;
    }
    w.write_all(b"text under the covers")?;
    for _ in 0..s.n(100_000) {
        w.write_all(b"<i style=\"display:none\"></i>")?;
    }
    w.write_all(b"</body></html>")
}

fn many_attributes(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body><div")?;
    for i in 0..s.n(100_000) {
        write!(w, " data-a{i}=\"v{i}\"")?;
    }
    w.write_all(b">text</div></body></html>")
}

fn long_word(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body><p>")?;
    let chunk = [b'x'; 1 << 16];
    let mut left = s.n(32 << 20);
    while left > 0 {
        let k = left.min(chunk.len());
        w.write_all(&chunk[..k])?;
        left -= k;
    }
    w.write_all(b"</p></body></html>")
}

/// "é—" as a Latin-1 reader makes it of its UTF-8 ("Ã©â\u{80}\u{94}": C1 controls prove it),
/// repeated without a space: chaff-dom reads the whole node again as one run of bytes
/// (`chaff_dom::mojibake`).
fn misread_run(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    let unit: String = "é—".bytes().map(char::from).collect();
    w.write_all(b"<html><body><p>")?;
    for _ in 0..s.n(32 << 20) / unit.len() {
        w.write_all(unit.as_bytes())?;
    }
    w.write_all(b"</p></body></html>")
}

fn big_table(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body><table>")?;
    for r in 0..s.n(10_000) {
        w.write_all(b"<tr>")?;
        for c in 0..100 {
            write!(w, "<td>{r}.{c}</td>")?;
        }
        w.write_all(b"</tr>")?;
    }
    w.write_all(b"</table></body></html>")
}

fn many_links(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    w.write_all(b"<html><body><ul>")?;
    for i in 0..s.n(100_000) {
        write!(w, "<li><a href=\"/page/{i}\">Page {i}</a></li>")?;
    }
    w.write_all(b"</ul></body></html>")
}

fn bom_conflict(w: &mut dyn Write, _: Scale) -> io::Result<()> {
    w.write_all(&[0xFF, 0xFE])?;
    let html = "<html><head><meta charset=iso-8859-1></head><body><p>Grüße aus Köln, \
        wo der Dom steht und der Rhein fließt.</p></body></html>";
    for unit in html.encode_utf16() {
        w.write_all(&unit.to_le_bytes())?;
    }
    Ok(())
}

fn meta_conflict(w: &mut dyn Write, _: Scale) -> io::Result<()> {
    w.write_all(b"<html><head><meta charset=utf-8></head><body><p>Gr\xfc\xdfe aus K\xf6ln, wo der Dom steht.</p></body></html>")
}

fn two_metas(w: &mut dyn Write, _: Scale) -> io::Result<()> {
    w.write_all(b"<html><head><meta charset=windows-1251><title>x</title>")?;
    w.write_all(&[b' '; 2048])?;
    w.write_all(b"<meta http-equiv=content-type content='text/html; charset=shift_jis'></head><body><p>\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0</p></body></html>")
}

fn junk(w: &mut dyn Write, _: Scale) -> io::Result<()> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..(1 << 18) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        w.write_all(&x.to_le_bytes())?;
    }
    Ok(())
}

fn gzip_bomb(w: &mut dyn Write, s: Scale) -> io::Result<()> {
    let mut gz = flate2::write::GzEncoder::new(w, flate2::Compression::best());
    gz.write_all(b"<html><body><p>")?;
    let zeros = [b'a'; 1 << 16];
    for _ in 0..s.n(1 << 30) / zeros.len() {
        gz.write_all(&zeros)?;
    }
    gz.finish().map(|_| ())
}

fn warc_head(w: &mut dyn Write, uri: &str, length: usize) -> io::Result<()> {
    write!(
        w,
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{:012}>\r\n\
         WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http;msgtype=response\r\nContent-Length: {length}\r\n\r\n",
        uri.len()
    )
}

fn lying_warc(w: &mut dyn Write, _: Scale) -> io::Result<()> {
    let ok = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>A page before the liar.</p>";
    warc_head(w, "https://example.org/ok", ok.len())?;
    w.write_all(ok)?;
    w.write_all(b"\r\n\r\n")?;
    let liar = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Says it is huge.</p>";
    warc_head(w, "https://example.org/liar", 1 << 40)?;
    w.write_all(liar)
}

fn endless_chunks(w: &mut dyn Write, _: Scale) -> io::Result<()> {
    let mut body =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
            .to_vec();
    for _ in 0..1000 {
        body.extend_from_slice(b"11\r\n<p>chunk text</p>\r\n");
    }
    body.extend_from_slice(b"7fffffff\r\nand then the data stops");
    warc_head(w, "https://example.org/chunks", body.len())?;
    w.write_all(&body)?;
    w.write_all(b"\r\n\r\n")
}

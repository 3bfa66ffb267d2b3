//! Character encoding: which one a page is in, and decoding it to UTF-8.
//!
//! The order follows the HTML standard's encoding sniffing, minus the parts that need a network:
//! a byte order mark wins, then the transport's declaration (HTTP `Content-Type` charset, passed
//! in by the caller), then a `<meta>` declaration found by a prescan of the first bytes, then
//! valid UTF-8, then a statistical guess (chardetng). Bytes that are invalid in the chosen
//! encoding become U+FFFD; decoding never fails.
//!
//! One departure from the standard: a declaration of any encoding but UTF-8 and UTF-16 is
//! overruled when the bytes are valid UTF-8 and not all ASCII
//! ([`EncodingSource::Utf8OverDeclaration`]). Text in a legacy encoding is almost never valid
//! UTF-8 by chance (every byte above 0x7F would have to fall into UTF-8's lead and
//! continuation pattern: "café " is E9 followed by a space), while pages that were saved again
//! as UTF-8 with their old `<meta>`, and servers that name ISO-8859-1 for whatever they serve,
//! are common. A browser shows such a page misread ("â€™" for "’", Cyrillic as Latin letters);
//! an extractor's reader wants what the author wrote. In the shared data sets (a prescan of
//! each file, session of 2026-12-06) this reads 4 of wcxb-dev's 1,497 pages, 8 of Dragnet's
//! 1,381 and 7 of CleanEval's 798 as UTF-8 instead of ISO-8859-1 or Windows-1252.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// How many leading bytes the `<meta>` prescan looks at. The standard says 1024; real pages
/// often put long `<script>` blocks first, and a longer window costs nothing measurable.
const PRESCAN_BYTES: usize = 4096;

/// Where the encoding of a decoded page came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodingSource {
    /// A UTF-8 or UTF-16 byte order mark.
    Bom,
    /// The charset the caller passed in (an HTTP header, a WARC record).
    Transport,
    /// A `<meta charset>` or `<meta http-equiv=content-type>` declaration.
    Meta,
    /// No declaration, and the bytes are valid UTF-8.
    ValidUtf8,
    /// A transport or `<meta>` declaration named a legacy encoding, but the bytes are valid
    /// UTF-8 and not all ASCII, so UTF-8 was used (see the module docs).
    Utf8OverDeclaration,
    /// No declaration; guessed from the byte statistics by chardetng.
    Detected,
}

/// A decoded page: its text, the encoding used and how it was chosen.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The page as UTF-8; borrowed when the input already was valid UTF-8 without a BOM.
    pub text: Cow<'a, str>,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static Encoding,
    /// Where that choice came from.
    pub source: EncodingSource,
    /// True if some bytes were invalid in that encoding and were replaced by U+FFFD.
    pub had_errors: bool,
}

/// Decodes `bytes` to UTF-8, choosing the encoding as described in the module docs.
///
/// `transport_charset` is a charset label from outside the document (an HTTP header);
/// unknown labels are ignored.
pub fn decode<'a>(bytes: &'a [u8], transport_charset: Option<&str>) -> Decoded<'a> {
    let Sniffed {
        encoding,
        source,
        skip,
        valid_utf8,
    } = sniff(bytes, transport_charset);
    let body = &bytes[skip..];
    // A BOM or a declaration chose UTF-8 without sniffing checking the bytes.
    let as_is = match valid_utf8 {
        Some(text) => Some(text),
        None if encoding == UTF_8 => std::str::from_utf8(body).ok(),
        None => None,
    };
    if let Some(text) = as_is {
        return Decoded {
            text: Cow::Borrowed(text),
            encoding,
            source,
            had_errors: false,
        };
    }
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    Decoded {
        text,
        encoding,
        source,
        had_errors,
    }
}

/// What sniffing chose.
struct Sniffed<'a> {
    encoding: &'static Encoding,
    source: EncodingSource,
    /// Bytes of a byte order mark to skip.
    skip: usize,
    /// The bytes as text when sniffing has already found them valid UTF-8, so that decoding
    /// does not check them a second time.
    valid_utf8: Option<&'a str>,
}

impl<'a> Sniffed<'a> {
    fn chosen(encoding: &'static Encoding, source: EncodingSource) -> Sniffed<'a> {
        Sniffed {
            encoding,
            source,
            skip: 0,
            valid_utf8: None,
        }
    }

    fn utf8(text: &'a str, source: EncodingSource) -> Sniffed<'a> {
        Sniffed {
            valid_utf8: Some(text),
            ..Sniffed::chosen(UTF_8, source)
        }
    }
}

/// Chooses the encoding as described in the module docs.
fn sniff<'a>(bytes: &'a [u8], transport_charset: Option<&str>) -> Sniffed<'a> {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        return Sniffed {
            skip: bom_len,
            ..Sniffed::chosen(encoding, EncodingSource::Bom)
        };
    }
    let declared = transport_charset
        .and_then(|l| Encoding::for_label(l.trim().as_bytes()))
        .map(|e| (e, EncodingSource::Transport))
        .or_else(|| {
            prescan_meta(&bytes[..bytes.len().min(PRESCAN_BYTES)])
                .map(|e| (e, EncodingSource::Meta))
        });
    if let Some((encoding, source)) = declared {
        // After the override a UTF-16 declaration reads as UTF-8 too, so every other is a
        // legacy encoding here.
        let encoding = html_override(encoding);
        if encoding != UTF_8
            && !bytes.is_ascii()
            && let Ok(text) = std::str::from_utf8(bytes)
        {
            return Sniffed::utf8(text, EncodingSource::Utf8OverDeclaration);
        }
        return Sniffed::chosen(encoding, source);
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Sniffed::utf8(text, EncodingSource::ValidUtf8);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // A megabyte is far more than chardetng needs to settle, and bounds the cost on huge pages.
    detector.feed(&bytes[..bytes.len().min(1 << 20)], true);
    Sniffed::chosen(
        detector.guess(None, chardetng::Utf8Detection::Allow),
        EncodingSource::Detected,
    )
}

/// The standard's rule: a document cannot declare itself UTF-16 in ASCII-compatible bytes,
/// and `x-user-defined` means windows-1252.
fn html_override(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16LE || encoding == UTF_16BE {
        UTF_8
    } else if encoding.name() == "x-user-defined" {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// A simplified version of the standard's "prescan a byte stream to determine its encoding":
/// looks for `<meta` tags and reads `charset=` either from a `charset` attribute or from the
/// `content` attribute of an `http-equiv="content-type"` meta. Comments are skipped.
fn prescan_meta(head: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'<', &head[i..]) {
        i += off;
        let rest = &head[i..];
        if rest.starts_with(b"<!--") {
            match memchr::memmem::find(&rest[4..], b"-->") {
                Some(end) => i += 4 + end + 3,
                None => return None,
            }
            continue;
        }
        if rest.len() > 5 && rest[1..5].eq_ignore_ascii_case(b"meta") && is_tag_end(rest[5]) {
            let end = memchr::memchr(b'>', rest).unwrap_or(rest.len());
            if let Some(enc) = meta_charset(&rest[5..end]) {
                return Some(enc);
            }
            i += end.max(1);
            continue;
        }
        i += 1;
    }
    None
}

fn is_tag_end(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'/' || b == b'>'
}

/// Reads the attributes of one `<meta ...>` tag (without `<meta` and `>`).
fn meta_charset(attrs: &[u8]) -> Option<&'static Encoding> {
    let mut charset = None;
    let mut content = None;
    let mut http_equiv_content_type = false;
    for (name, value) in (AttrIter { s: attrs, i: 0 }) {
        if name.eq_ignore_ascii_case(b"charset") {
            charset = Encoding::for_label(trim_ascii(value));
        } else if name.eq_ignore_ascii_case(b"content") {
            content = Some(value);
        } else if name.eq_ignore_ascii_case(b"http-equiv") {
            http_equiv_content_type = trim_ascii(value).eq_ignore_ascii_case(b"content-type");
        }
    }
    if charset.is_some() {
        return charset;
    }
    if http_equiv_content_type {
        return content.and_then(charset_from_content);
    }
    None
}

/// Extracts `charset=...` from a content-type value such as `text/html; charset="utf-8"`.
fn charset_from_content(content: &[u8]) -> Option<&'static Encoding> {
    let lower: Vec<u8> = content.to_ascii_lowercase();
    let at = memchr::memmem::find(&lower, b"charset")?;
    let mut rest = &content[at + 7..];
    rest = trim_ascii(rest);
    rest = rest.strip_prefix(b"=")?;
    rest = trim_ascii(rest);
    let value = match rest.first() {
        Some(&q @ (b'"' | b'\'')) => {
            let body = &rest[1..];
            &body[..memchr::memchr(q, body).unwrap_or(body.len())]
        }
        _ => {
            let end = rest
                .iter()
                .position(|&b| b == b';' || b.is_ascii_whitespace())
                .unwrap_or(rest.len());
            &rest[..end]
        }
    };
    Encoding::for_label(value)
}

fn trim_ascii(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// A forgiving attribute tokenizer for the prescan: `name`, `name=value`, `name="value"`.
struct AttrIter<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Iterator for AttrIter<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let s = self.s;
        while self.i < s.len() && (s[self.i].is_ascii_whitespace() || s[self.i] == b'/') {
            self.i += 1;
        }
        if self.i >= s.len() {
            return None;
        }
        let start = self.i;
        while self.i < s.len()
            && !s[self.i].is_ascii_whitespace()
            && s[self.i] != b'='
            && s[self.i] != b'/'
        {
            self.i += 1;
        }
        let name = &s[start..self.i];
        while self.i < s.len() && s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        if self.i >= s.len() || s[self.i] != b'=' {
            return Some((name, &[]));
        }
        self.i += 1;
        while self.i < s.len() && s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        let value = match s.get(self.i) {
            Some(&q @ (b'"' | b'\'')) => {
                let vstart = self.i + 1;
                let len = memchr::memchr(q, &s[vstart..]).unwrap_or(s.len() - vstart);
                self.i = (vstart + len + 1).min(s.len());
                &s[vstart..vstart + len]
            }
            _ => {
                let vstart = self.i;
                while self.i < s.len() && !s[self.i].is_ascii_whitespace() {
                    self.i += 1;
                }
                &s[vstart..self.i]
            }
        };
        Some((name, value))
    }
}

/// Whether the bytes look like a binary file rather than text: a known binary signature, or
/// NUL and other control bytes in the first 8 KiB (UTF-16 with a BOM is text).
pub fn looks_binary(bytes: &[u8]) -> bool {
    const SIGNATURES: &[&[u8]] = &[
        b"\x89PNG",
        b"GIF8",
        b"\xFF\xD8\xFF",
        b"%PDF",
        b"PK\x03\x04",
        b"\x1F\x8B",
        b"\x7FELF",
        b"RIFF",
        b"\x00\x00\x01\x00",
        b"wOFF",
        b"wOF2",
        b"BZh",
        b"\xFD7zXZ",
        b"\x28\xB5\x2F\xFD",
    ];
    if SIGNATURES.iter().any(|sig| bytes.starts_with(sig)) {
        return true;
    }
    if Encoding::for_bom(bytes).is_some() {
        return false;
    }
    let window = &bytes[..bytes.len().min(8192)];
    if window.is_empty() {
        return false;
    }
    let controls = window
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1B))
        .count();
    memchr::memchr(0, window).is_some() && controls * 100 > window.len()
        || controls * 10 > window.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_wins_over_meta() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"<meta charset=iso-8859-1><p>caf\xC3\xA9</p>");
        let d = decode(&bytes, Some("windows-1251"));
        assert_eq!(d.source, EncodingSource::Bom);
        assert!(d.text.contains("café"));
        assert!(!d.text.starts_with('\u{feff}'));
    }

    #[test]
    fn transport_then_meta() {
        let bytes = b"<meta charset=utf-8><p>caf\xE9</p>";
        let d = decode(bytes, Some("iso-8859-1"));
        assert_eq!(d.source, EncodingSource::Transport);
        assert!(d.text.contains("café"));
        let d = decode(b"<meta charset=\"iso-8859-1\"><p>caf\xE9</p>", None);
        assert_eq!(d.source, EncodingSource::Meta);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("café"));
    }

    #[test]
    fn valid_utf8_overrules_a_legacy_declaration() {
        // Re-saved as UTF-8 under its old declaration: read as UTF-8, whichever declared it.
        let bytes = "<meta charset=iso-8859-1><p>It’s a café</p>".as_bytes();
        let d = decode(bytes, None);
        assert_eq!(d.source, EncodingSource::Utf8OverDeclaration);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("It’s a café"), "{}", d.text);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        let d = decode("<p>привет</p>".as_bytes(), Some("windows-1251"));
        assert_eq!(d.source, EncodingSource::Utf8OverDeclaration);
        assert!(d.text.contains("привет"), "{}", d.text);
        // Windows-1252 bytes are not valid UTF-8: the declaration stands.
        let d = decode(b"<meta charset=windows-1252><p>It\x92s a caf\xE9</p>", None);
        assert_eq!(d.source, EncodingSource::Meta);
        assert!(d.text.contains("It’s a café"), "{}", d.text);
        // All ASCII: both readings are the same text, and the declaration is kept as said.
        let d = decode(b"<meta charset=iso-8859-1><p>plain</p>", None);
        assert_eq!(d.source, EncodingSource::Meta);
        assert_eq!(d.encoding, WINDOWS_1252);
        // A UTF-16 declaration means UTF-8 in these bytes anyway (the standard's override).
        let d = decode("<p>é</p>".as_bytes(), Some("utf-16le"));
        assert_eq!(d.source, EncodingSource::Transport);
        assert!(d.text.contains('é'));
    }

    proptest::proptest! {
        /// Any text saved as UTF-8 under any declared legacy encoding, by `<meta>` or by the
        /// transport, reads back as itself.
        #[test]
        fn utf8_text_reads_back_under_any_legacy_declaration(
            text in "\\PC{0,40}",
            label in proptest::sample::select(vec![
                "iso-8859-1", "windows-1252", "windows-1251", "koi8-r", "gb2312", "big5",
                "shift_jis", "euc-kr", "iso-8859-7", "windows-1256",
            ]),
            by_meta in proptest::bool::ANY,
        ) {
            let html = if by_meta {
                format!("<meta charset={label}><p>{text}</p>")
            } else {
                format!("<p>{text}</p>")
            };
            let d = decode(html.as_bytes(), (!by_meta).then_some(label));
            proptest::prop_assert!(d.text.contains(text.as_str()));
            let expected = if text.is_ascii() {
                if by_meta { EncodingSource::Meta } else { EncodingSource::Transport }
            } else {
                EncodingSource::Utf8OverDeclaration
            };
            proptest::prop_assert_eq!(d.source, expected);
        }
    }

    #[test]
    fn http_equiv_meta() {
        let bytes = b"<!-- <meta charset=koi8-r> --><META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=windows-1251'><p>\xEF\xF0\xE8\xE2\xE5\xF2</p>";
        let d = decode(bytes, None);
        assert_eq!(d.source, EncodingSource::Meta);
        assert!(d.text.contains("привет"), "{}", d.text);
    }

    #[test]
    fn meta_utf16_means_utf8() {
        let d = decode(b"<meta charset=utf-16><p>caf\xC3\xA9</p>", None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("café"));
    }

    #[test]
    fn undeclared_valid_utf8_is_borrowed() {
        let d = decode("<p>naïve</p>".as_bytes(), None);
        assert_eq!(d.source, EncodingSource::ValidUtf8);
        assert!(matches!(d.text, Cow::Borrowed(_)));
    }

    #[test]
    fn undeclared_legacy_is_detected_and_invalid_bytes_replaced() {
        let text = "Le cœur a ses raisons que la raison ne connaît point, à ce qu'on dit, élève.";
        let (bytes, _, _) = WINDOWS_1252.encode(text);
        let d = decode(&bytes, None);
        assert_eq!(d.source, EncodingSource::Detected);
        assert_eq!(d.text, text);
        let d = decode(b"<meta charset=utf-8>ok \xFF\xFE bad", None);
        assert!(d.had_errors);
        assert!(d.text.contains('\u{FFFD}'));
    }

    #[test]
    fn binary_detection() {
        assert!(looks_binary(b"\x89PNG\r\n\x1a\nrest"));
        assert!(looks_binary(&[
            0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 3, 4
        ]));
        assert!(!looks_binary(b"<html><body>hello</body></html>"));
        assert!(!looks_binary(b""));
        assert!(!looks_binary(&[0xFF, 0xFE, b'<', 0, b'p', 0]));
    }
}

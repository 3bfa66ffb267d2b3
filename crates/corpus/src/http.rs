//! The HTTP layer of WARC `response` records: status line, headers, and the
//! transfer and content codings of the payload.
//!
//! Parsed here rather than by fastwarc so that the rules are ours and visible:
//! lenient where crawlers are sloppy (bare LF line ends, payloads already
//! decoded but still labelled `gzip` or `chunked`), strict where leniency
//! would hand garbage to the parser (unknown codings, corrupt compressed
//! data), and always capped in size.

use crate::decode;

/// A parsed HTTP response: status, headers in order, and the raw payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse<'a> {
    /// Status code from the status line (`200`).
    pub status: u16,
    /// Header fields in the order they appear; names as written.
    pub headers: Vec<(String, String)>,
    /// Payload bytes after the blank line, still transfer- and content-coded.
    pub body: &'a [u8],
}

/// The longest header block accepted, so a record of junk without a blank
/// line does not get split into a million "headers".
const MAX_HEAD: usize = 256 << 10;

impl<'a> HttpResponse<'a> {
    /// Parses an HTTP/1.x (or `HTTP/2 200`-style) response message.
    ///
    /// A message without a blank line is taken as all head and no body (some
    /// crawlers store bodiless redirects that way).
    pub fn parse(block: &'a [u8]) -> Result<Self, String> {
        let (head, body) = split_head(block)?;
        let mut lines = head
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
        let status_line = lines.next().unwrap_or_default();
        let status = parse_status_line(status_line)?;
        let mut headers: Vec<(String, String)> = Vec::new();
        for line in lines {
            if line.is_empty() {
                continue;
            }
            let text = String::from_utf8_lossy(line);
            if line[0] == b' ' || line[0] == b'\t' {
                // Obsolete line folding: continues the previous value.
                if let Some((_, value)) = headers.last_mut() {
                    value.push(' ');
                    value.push_str(text.trim());
                }
                continue;
            }
            if let Some((name, value)) = text.split_once(':') {
                headers.push((name.trim().to_string(), value.trim().to_string()));
            }
        }
        Ok(HttpResponse {
            status,
            headers,
            body,
        })
    }

    /// First value of a header, matched case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All codings listed in every occurrence of a header (`gzip, chunked`),
    /// lower-cased, in order of application.
    fn codings(&self, name: &str) -> Vec<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.split(','))
            .map(|c| c.trim().to_ascii_lowercase())
            .filter(|c| !c.is_empty() && c != "identity")
            .collect()
    }

    /// Undoes `Transfer-Encoding` then `Content-Encoding`, giving the payload
    /// as the server's resource had it, or `None` if it grows past `cap`.
    pub fn decoded_body(&self, cap: u64) -> Result<Option<Vec<u8>>, String> {
        let mut data = self.body.to_vec();
        // Codings are listed in the order they were applied: undo from the right,
        // content codings (applied first by the server) last.
        let te = self.codings("transfer-encoding");
        let ce = self.codings("content-encoding");
        for coding in te.iter().rev().chain(ce.iter().rev()) {
            let next = match coding.as_str() {
                "chunked" => dechunk(&data, cap),
                other => decode_coding(other, &data, cap)?,
            };
            match next {
                Some(d) => data = d,
                None => return Ok(None),
            }
        }
        if data.len() as u64 > cap {
            return Ok(None);
        }
        Ok(Some(data))
    }

    /// The media type (lower-case, no parameters) and the charset parameter
    /// of `Content-Type`, if any.
    pub fn content_type(&self) -> (Option<String>, Option<String>) {
        match self.header("content-type") {
            Some(v) => parse_content_type(v),
            None => (None, None),
        }
    }
}

/// Splits a message at its first blank line (CRLF CRLF or LF LF).
fn split_head(block: &[u8]) -> Result<(&[u8], &[u8]), String> {
    let mut i = 0;
    let limit = block.len().min(MAX_HEAD);
    while i < limit {
        if block[i] == b'\n' {
            let rest = &block[i + 1..];
            if rest.starts_with(b"\r\n") {
                return Ok((&block[..i], &rest[2..]));
            }
            if rest.starts_with(b"\n") {
                return Ok((&block[..i], &rest[1..]));
            }
        }
        i += 1;
    }
    if block.len() > MAX_HEAD {
        return Err(format!("HTTP header block longer than {MAX_HEAD} bytes"));
    }
    Ok((block, &[]))
}

/// `HTTP/1.1 200 OK`, `HTTP/2 404`, `HTTP/1.0 301` → the code.
fn parse_status_line(line: &[u8]) -> Result<u16, String> {
    let text = String::from_utf8_lossy(line);
    let mut parts = text.split_ascii_whitespace();
    let version = parts.next().unwrap_or_default();
    if !version
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("HTTP/"))
    {
        return Err(format!(
            "not an HTTP response (status line '{}')",
            text.chars().take(40).collect::<String>()
        ));
    }
    parts
        .next()
        .filter(|c| c.len() == 3)
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| {
            format!(
                "bad HTTP status line '{}'",
                text.chars().take(60).collect::<String>()
            )
        })
}

/// Splits a `Content-Type` value into lower-case media type and charset.
pub fn parse_content_type(value: &str) -> (Option<String>, Option<String>) {
    let mut parts = value.split(';');
    let mime = parts
        .next()
        .map(|m| m.trim().to_ascii_lowercase())
        .filter(|m| !m.is_empty());
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        if !k.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        (!v.is_empty()).then(|| v.to_ascii_lowercase())
    });
    (mime, charset)
}

/// Whether a media type is one of the HTML ones we take.
pub fn is_html_type(mime: &str) -> bool {
    matches!(mime, "text/html" | "application/xhtml+xml")
}

/// Whether bytes look like an HTML document when no type was declared:
/// `<html` or `<!doctype html` near the start, case-insensitively.
pub fn sniff_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let lower = head.to_ascii_lowercase();
    contains(&lower, b"<html") || contains(&lower, b"<!doctype html")
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Decodes one content coding. A body labelled `gzip` that does not start
/// like gzip was almost surely decoded by the crawler already, and is kept.
fn decode_coding(coding: &str, data: &[u8], cap: u64) -> Result<Option<Vec<u8>>, String> {
    let result = match coding {
        "gzip" | "x-gzip" => {
            if !decode::is_gzip(data) {
                return Ok(Some(data.to_vec()));
            }
            decode::gunzip_capped(data, cap)
        }
        "deflate" => match decode::inflate_capped(data, cap) {
            Err(_) if sniff_html(data) => return Ok(Some(data.to_vec())),
            r => r,
        },
        "br" => match decode::brotli_capped(data, cap) {
            Err(_) if sniff_html(data) => return Ok(Some(data.to_vec())),
            r => r,
        },
        other => return Err(format!("unsupported HTTP coding '{other}'")),
    };
    result.map_err(|e| format!("cannot undo HTTP coding '{coding}': {e}"))
}

/// Undoes `Transfer-Encoding: chunked`, leniently: a body that does not start
/// with a chunk-size line is taken as already de-chunked, and a body cut in a
/// chunk keeps what arrived (as a browser would show it).
pub fn dechunk(data: &[u8], cap: u64) -> Option<Vec<u8>> {
    if !starts_with_chunk_size(data) {
        return Some(data.to_vec());
    }
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(&rest[..nl]);
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let Ok(size) = u64::from_str_radix(size_text, 16) else {
            break;
        };
        rest = &rest[nl + 1..];
        if size == 0 {
            break;
        }
        let take = usize::try_from(size).unwrap_or(usize::MAX).min(rest.len());
        if (out.len() + take) as u64 > cap {
            return None;
        }
        out.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        rest = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
            .unwrap_or(rest);
    }
    Some(out)
}

fn starts_with_chunk_size(data: &[u8]) -> bool {
    let digits = data.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    digits > 0
        && digits <= 16
        && matches!(data.get(digits), Some(b'\r' | b'\n' | b';' | b' ' | b'\t'))
}

/// Builds an HTTP/1.1 response message, for writing WARC `response`
/// records (the crawler and the tests use it).
pub fn build_response(status: u16, reason: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {reason}\r\n").into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    #[test]
    fn parses_status_headers_body() {
        let msg = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\nX-Long: a\r\n  b\r\n\r\n<html>";
        let r = HttpResponse::parse(msg).unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(
            r.header("content-type"),
            Some("text/html; charset=\"ISO-8859-1\"")
        );
        assert_eq!(r.header("x-long"), Some("a b"));
        assert_eq!(r.body, b"<html>");
        assert_eq!(
            r.content_type(),
            (Some("text/html".into()), Some("iso-8859-1".into()))
        );
    }

    #[test]
    fn bare_lf_and_http2() {
        let r = HttpResponse::parse(b"HTTP/2 404\nServer: x\n\nbody").unwrap();
        assert_eq!((r.status, r.body), (404, &b"body"[..]));
    }

    #[test]
    fn rejects_non_http() {
        assert!(HttpResponse::parse(b"GET / HTTP/1.1\r\n\r\n").is_err());
        assert!(HttpResponse::parse(b"HTTP/1.1 abc\r\n\r\n").is_err());
        assert!(HttpResponse::parse(b"").is_err());
    }

    #[test]
    fn chunked_then_gzip() {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(b"<html>hello</html>").unwrap();
        let gz = e.finish().unwrap();
        let (a, b) = gz.split_at(7);
        let mut body = format!("{:x}\r\n", a.len()).into_bytes();
        body.extend_from_slice(a);
        body.extend_from_slice(format!("\r\n{:X};ext=1\r\n", b.len()).as_bytes());
        body.extend_from_slice(b);
        body.extend_from_slice(b"\r\n0\r\n\r\n");
        let msg = build_response(
            200,
            "OK",
            &[
                ("Transfer-Encoding", "chunked"),
                ("Content-Encoding", "gzip"),
            ],
            &body,
        );
        let r = HttpResponse::parse(&msg).unwrap();
        assert_eq!(
            r.decoded_body(1 << 20).unwrap().unwrap(),
            b"<html>hello</html>"
        );
        assert_eq!(r.decoded_body(5).unwrap(), None);
    }

    #[test]
    fn already_decoded_payloads_are_kept() {
        let msg = build_response(
            200,
            "OK",
            &[
                ("Transfer-Encoding", "chunked"),
                ("Content-Encoding", "gzip"),
            ],
            b"<html>plain</html>",
        );
        let r = HttpResponse::parse(&msg).unwrap();
        assert_eq!(r.decoded_body(100).unwrap().unwrap(), b"<html>plain</html>");
    }

    #[test]
    fn unknown_coding_is_an_error() {
        let msg = build_response(200, "OK", &[("Content-Encoding", "compress")], b"x");
        assert!(
            HttpResponse::parse(&msg)
                .unwrap()
                .decoded_body(100)
                .is_err()
        );
    }

    #[test]
    fn brotli_body() {
        let mut enc = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut enc, 4096, 5, 22);
            w.write_all(b"<html>br</html>").unwrap();
        }
        let msg = build_response(200, "OK", &[("Content-Encoding", "br")], &enc);
        let r = HttpResponse::parse(&msg).unwrap();
        assert_eq!(r.decoded_body(100).unwrap().unwrap(), b"<html>br</html>");
    }

    #[test]
    fn sniffing() {
        assert!(sniff_html(b"\xef\xbb\xbf  <!DOCTYPE HTML><p>"));
        assert!(sniff_html(b"<!-- x --><HTML lang=en>"));
        assert!(!sniff_html(b"{\"json\": true}"));
        assert!(is_html_type("application/xhtml+xml"));
        assert!(!is_html_type("text/plain"));
    }

    #[test]
    fn hostile_chunk_sizes() {
        assert_eq!(dechunk(b"ffffffffffffffff\r\nabc", 100).unwrap(), b"abc");
        assert_eq!(dechunk(b"zz\r\nabc", 100).unwrap(), b"zz\r\nabc");
        assert_eq!(dechunk(b"3\r\nabc\r\n", 100).unwrap(), b"abc");
    }
}

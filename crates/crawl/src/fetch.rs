//! One HTTP exchange: a GET with our headers, the body streamed under a size cap, and the
//! request and response rebuilt as HTTP/1.1 messages for the WARC.
//!
//! Redirects are not followed here (the client is built with no redirect policy): a 3xx is
//! returned like any response, and the crawler schedules its target as a new URL, so the
//! politeness delay, the seen set and the redirect limit apply to every hop.

use std::time::Duration;

use reqwest::header::{self, HeaderMap};
use url::Url;

/// What a fetch is allowed to do.
#[derive(Debug, Clone)]
pub struct FetchLimits {
    /// Whole exchange, from sending the request to the last byte of the body.
    pub timeout: Duration,
    /// Largest body accepted, in bytes; a larger one is abandoned.
    pub max_body_bytes: u64,
}

/// A completed exchange.
#[derive(Debug)]
pub struct Fetched {
    /// HTTP status code.
    pub status: u16,
    /// The request as sent (`GET`, `Host`, `User-Agent`, `Accept`).
    pub request: Vec<u8>,
    /// The response: status line, headers (without `Transfer-Encoding`, since the body is
    /// stored de-chunked), blank line, body as received (content codings kept).
    pub response: Vec<u8>,
    /// Where the body starts in `response`.
    pub body_start: usize,
    /// The `Content-Type` media type, lowercased, without parameters.
    pub mime: Option<String>,
    /// Its `charset` parameter.
    pub charset: Option<String>,
    /// `Content-Encoding`, lowercased.
    pub content_encoding: Option<String>,
    /// `Location`, for redirects.
    pub location: Option<String>,
    /// `Retry-After` in seconds, for 429 and 503.
    pub retry_after: Option<Duration>,
}

impl Fetched {
    /// The body as received.
    pub fn body(&self) -> &[u8] {
        self.response.get(self.body_start..).unwrap_or(&[])
    }
}

/// Why a fetch produced no response worth keeping.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// No complete response within the time limit.
    #[error("timed out")]
    Timeout,
    /// The body is larger than the cap.
    #[error("body larger than {0} bytes")]
    TooLarge(u64),
    /// The response's media type is not one the crawler keeps; the body was not read.
    #[error("content type {0} not accepted")]
    ContentType(String),
    /// Connection, TLS or protocol failure.
    #[error("{0}")]
    Network(String),
    /// The fetch task failed inside the crawler (a panic in a dependency); not retried.
    #[error("internal error: {0}")]
    Internal(String),
}

impl FetchError {
    /// Whether trying again later might succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, FetchError::Timeout | FetchError::Network(_))
    }
}

/// Fetches `url`. `accept` filters by media type before the body is read (`None`: take
/// anything); a response without a `Content-Type` is taken (the page is sniffed later).
pub async fn fetch(
    client: &reqwest::Client,
    url: &Url,
    user_agent: &str,
    accept: Option<&[String]>,
    limits: &FetchLimits,
) -> Result<Fetched, FetchError> {
    match tokio::time::timeout(
        limits.timeout,
        fetch_inner(client, url, user_agent, accept, limits),
    )
    .await
    {
        Ok(result) => result,
        Err(_) => Err(FetchError::Timeout),
    }
}

const ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

async fn fetch_inner(
    client: &reqwest::Client,
    url: &Url,
    user_agent: &str,
    accept: Option<&[String]>,
    limits: &FetchLimits,
) -> Result<Fetched, FetchError> {
    let request = request_message(url, user_agent);
    let mut resp = client
        .get(url.clone())
        .header(header::USER_AGENT, user_agent)
        .header(header::ACCEPT, ACCEPT)
        .send()
        .await
        .map_err(network_error)?;
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let (mime, charset) = match header_str(&headers, header::CONTENT_TYPE) {
        Some(ct) => {
            let (m, c) = chaff_corpus::http::parse_content_type(ct);
            (m.map(|m| m.to_ascii_lowercase()), c)
        }
        None => (None, None),
    };
    let is_redirect = (300..400).contains(&status);
    if let (Some(accepted), Some(m), true) = (accept, mime.as_deref(), (200..300).contains(&status))
        && !accepted.iter().any(|a| a.trim().eq_ignore_ascii_case(m))
    {
        return Err(FetchError::ContentType(m.to_string()));
    }
    if let Some(len) = resp.content_length()
        && len > limits.max_body_bytes
    {
        return Err(FetchError::TooLarge(limits.max_body_bytes));
    }
    let mut response = response_head(status, resp.version(), &headers);
    let body_start = response.len();
    // Redirect bodies are not needed; keep them small.
    let cap = if is_redirect {
        limits.max_body_bytes.min(64 << 10)
    } else {
        limits.max_body_bytes
    };
    while let Some(chunk) = resp.chunk().await.map_err(network_error)? {
        if (response.len() - body_start) as u64 + chunk.len() as u64 > cap {
            if is_redirect {
                break;
            }
            return Err(FetchError::TooLarge(limits.max_body_bytes));
        }
        response.extend_from_slice(&chunk);
    }
    let location = header_str(&headers, header::LOCATION).map(str::to_string);
    let retry_after = header_str(&headers, header::RETRY_AFTER)
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let content_encoding =
        header_str(&headers, header::CONTENT_ENCODING).map(|v| v.trim().to_ascii_lowercase());
    Ok(Fetched {
        status,
        request,
        response,
        body_start,
        mime,
        charset,
        content_encoding,
        location,
        retry_after,
    })
}

fn network_error(e: reqwest::Error) -> FetchError {
    if e.is_timeout() {
        return FetchError::Timeout;
    }
    // The error's chain says what went wrong (refused, reset, bad TLS...).
    let mut msg = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    FetchError::Network(msg)
}

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The request message as the client sends it, for the WARC `request` record.
pub fn request_message(url: &Url, user_agent: &str) -> Vec<u8> {
    let path = &url[url::Position::BeforePath..url::Position::AfterQuery];
    let host = &url[url::Position::BeforeHost..url::Position::AfterPort];
    format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {user_agent}\r\nAccept: {ACCEPT}\r\n\r\n"
    )
    .into_bytes()
}

fn response_head(status: u16, version: reqwest::Version, headers: &HeaderMap) -> Vec<u8> {
    let version = if version == reqwest::Version::HTTP_10 {
        "HTTP/1.0"
    } else {
        "HTTP/1.1"
    };
    let reason = reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    let mut head = format!("{version} {status} {reason}\r\n").into_bytes();
    for (name, value) in headers {
        if name == header::TRANSFER_ENCODING {
            continue;
        }
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(b"\r\n");
    head
}

/// The body with its content coding undone (gzip, deflate), for link extraction; the
/// stored response keeps the bytes as received. `None` when the coding is unknown or broken.
pub fn decoded_body(fetched: &Fetched, cap: u64) -> Option<std::borrow::Cow<'_, [u8]>> {
    use std::io::Read;
    let body = fetched.body();
    match fetched.content_encoding.as_deref() {
        None | Some("identity") | Some("") => Some(std::borrow::Cow::Borrowed(body)),
        Some("gzip") | Some("x-gzip") => {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(body)
                .take(cap)
                .read_to_end(&mut out)
                .ok()?;
            Some(std::borrow::Cow::Owned(out))
        }
        Some("deflate") => {
            let mut out = Vec::new();
            flate2::read::ZlibDecoder::new(body)
                .take(cap)
                .read_to_end(&mut out)
                .ok()?;
            Some(std::borrow::Cow::Owned(out))
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_message_layout() {
        let url = Url::parse("http://127.0.0.1:8080/a/b?x=1").unwrap();
        let msg = String::from_utf8(request_message(&url, "ua/1")).unwrap();
        assert!(
            msg.starts_with(
                "GET /a/b?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: ua/1\r\n"
            )
        );
        assert!(msg.ends_with("\r\n\r\n"));
    }
}

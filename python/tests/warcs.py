"""A minimal WARC/1.1 writer for tests and benchmarks (uncompressed response records)."""

import uuid


def response_record(url: str, body: bytes, ctype: str = "text/html; charset=utf-8",
                    status: str = "200 OK", extra_headers: str = "") -> bytes:
    """One `response` record of an HTTP response carrying `body`."""
    http = (f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n{extra_headers}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    return warc_record("response", url, http, "application/http;msgtype=response")


def warc_record(kind: str, url: str, block: bytes, content_type: str) -> bytes:
    head = (f"WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
            f"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {url}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"


def write_warc(path, pages) -> None:
    """Writes `(html bytes, url)` pages as response records."""
    with open(path, "wb") as f:
        for html, url in pages:
            f.write(response_record(url, html))

"""Writes pages to standard output for measuring memory over long streams: the
scrapinghub-aeb pages over and over, each with its own URL; N pages as JSON Lines
({"url", "html"}), or with --warc as an uncompressed WARC/1.1 stream of response records
(with --bytes, until that many bytes are written: 5G, 500M):

  python3 crates/lab/scripts/stream_pages.py 10000 | /usr/bin/time -v target/release/chaff extract -q -
  python3 crates/lab/scripts/stream_pages.py --warc --bytes 5G | /usr/bin/time -v target/release/chaff extract -q - > /dev/null
"""
import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def warc_record(i, html):
    url = f"https://example{i % 97}.org/p{i}"
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html
    head = (f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{i:012d}>\r\n"
            f"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: {url}\r\n"
            f"Content-Type: application/http;msgtype=response\r\nContent-Length: {len(http)}\r\n\r\n")
    return head.encode() + http + b"\r\n\r\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pages", nargs="?", type=int, default=0)
    ap.add_argument("--warc", action="store_true")
    ap.add_argument("--bytes", type=size, default=0)
    a = ap.parse_args()
    pages = list(datasets.load("aeb"))
    out = sys.stdout.buffer
    i = written = 0
    while (a.pages and i < a.pages) or (a.bytes and written < a.bytes):
        p = pages[i % len(pages)]
        if a.warc:
            chunk = warc_record(i, p.html)
        else:
            line = {"url": f"https://example{i % 97}.org/p{i}", "html": p.html.decode("utf-8", "replace")}
            chunk = (json.dumps(line) + "\n").encode()
        out.write(chunk)
        written += len(chunk)
        i += 1


if __name__ == "__main__":
    main()

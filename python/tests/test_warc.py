"""chaff.read_warc: pages with URL, bytes and headers; other records skipped; damage reported."""

import gzip

import pytest

import chaff
from warcs import response_record, warc_record


def record(kind, url, block, content_type):
    return warc_record(kind, url, block, content_type)


def response(url, body, ctype="text/html; charset=utf-8", status="200 OK"):
    return response_record(url, body, ctype, status,
                           "Server: test\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n")


PAGE = b"<html><body><article><p>" + b"A page of plain words about rivers and hills. " * 8 + b"</p></article></body></html>"


def archive():
    return b"".join([
        record("request", "https://a.example.org/1", b"GET /1 HTTP/1.1\r\n\r\n",
               "application/http;msgtype=request"),
        response("https://a.example.org/1", PAGE),
        response("https://a.example.org/logo.png", b"\x89PNG....", ctype="image/png"),
        response("https://a.example.org/gone", b"<html>gone</html>", status="404 Not Found"),
        record("resource", "https://b.example.org/2", PAGE.replace(b"rivers", b"lakes"), "text/html"),
    ])


def test_pages_with_url_html_and_headers(tmp_path):
    path = tmp_path / "crawl.warc"
    path.write_bytes(archive())
    recs = list(chaff.read_warc(path))
    assert [r.url for r in recs] == ["https://a.example.org/1", "https://b.example.org/2"]
    first = recs[0]
    assert first.html == PAGE
    assert first.headers["Content-Type"] == "text/html; charset=utf-8"
    assert first.headers["Server"] == "test"
    assert first.headers["Set-Cookie"] == "a=1, b=2"
    assert first.charset == "utf-8"
    assert first.source.startswith(str(path) + "#")
    assert recs[1].headers == {"Content-Type": "text/html"}
    assert b"lakes" in recs[1].html
    assert "WarcRecord" in repr(first)
    assert "rivers and hills" in chaff.extract(first.html, first.url)


def test_gzip_files_and_bytes_read_alike(tmp_path):
    members = b"".join(gzip.compress(r) for r in [archive()])
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(members)
    from_file = [(r.url, r.html) for r in chaff.read_warc(str(path))]
    from_bytes = list(chaff.read_warc(members, name="s3a://bucket/crawl.warc.gz"))
    assert from_file == [(r.url, r.html) for r in from_bytes]
    assert from_bytes[0].source.startswith("s3a://bucket/crawl.warc.gz#")


def test_a_truncated_warc_gives_its_records_then_a_warc_error(tmp_path):
    data = archive()
    cut = data[: len(data) - 40]
    recs = []
    with pytest.raises(chaff.WarcError, match="truncated|declares"):
        for r in chaff.read_warc(cut, name="cut.warc"):
            recs.append(r.url)
    assert recs == ["https://a.example.org/1"]
    yielded = list(chaff.read_warc(cut, name="cut.warc", errors="yield"))
    assert [type(x).__name__ for x in yielded] == ["WarcRecord", "WarcError"]
    assert "cut.warc" in str(yielded[1])
    skipped = list(chaff.read_warc(cut, name="cut.warc", errors="skip"))
    assert [r.url for r in skipped] == ["https://a.example.org/1"]


def test_garbage_and_missing_files(tmp_path):
    with pytest.raises(chaff.WarcError):
        list(chaff.read_warc(b"this is not a WARC file at all\r\n\r\n" * 10))
    with pytest.raises(chaff.InputError, match="cannot read"):
        chaff.read_warc(tmp_path / "missing.warc.gz")
    with pytest.raises(TypeError):
        chaff.read_warc(12)
    with pytest.raises(ValueError):
        chaff.read_warc(b"", errors="ignore")

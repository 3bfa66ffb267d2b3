"""The Spark job in local mode (local[2]) on a WARC of synthetic sites: one Parquet row per
record, errors counted, and site-level mode removing more template than page-level (judged
on the sites' ground truth)."""

import collections
import json
import os
import shutil
import subprocess
import sys

import pytest

import chaff
from conftest import binary, unavailable
from warcs import response_record

SITE_PAGES = "80,40,20,10,6,3"


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        unavailable("pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        unavailable("no Java runtime for Spark (apt-get install default-jre-headless)")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (SparkSession.builder.master("local[2]").appName("chaff-test")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.default.parallelism", "4")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    """Two WARCs: synthetic sites (with a binary page among them), and a truncated one."""
    d = tmp_path_factory.mktemp("crawl")
    warc, truth = d / "sites.warc", d / "truth.jsonl"
    subprocess.run([str(binary("chaff-lab")), "synth", "--seed", "11", "--site-pages", SITE_PAGES,
                    "--warc", str(warc), "--truth", str(truth)], check=True, capture_output=True)
    with open(warc, "ab") as f:
        f.write(response_record("https://binary.example.com/x", b"\x00\x01\x02\x03" * 400))
    broken = d / "broken.warc"
    page = b"<html><body><p>" + b"Words of a page that will be cut. " * 20 + b"</p></body></html>"
    whole = (response_record("https://cut.example.com/1", page)
             + response_record("https://cut.example.com/2", page))
    broken.write_bytes(whole[: len(whole) - 100])
    lines = [json.loads(line) for line in truth.read_text().splitlines()]
    return {"paths": [str(warc), str(broken)], "truth": {t["url"]: t for t in lines},
            "pages": len(lines)}


def removal(rows, truth):
    """Shares of template words removed and of content words kept, over every page with a
    truth, counting an output word as template when the page's content has no more of it."""
    t_total = t_kept = c_total = c_kept = 0
    for r in rows:
        gold = truth.get(r["url"])
        if gold is None or r["error"]:
            continue
        out = collections.Counter((r["text"] or "").split())
        content = collections.Counter(gold["content"].split())
        template = collections.Counter(gold["template"].split())
        t_total += sum(template.values())
        t_kept += sum(((out - content) & template).values())
        c_total += sum(content.values())
        c_kept += sum((out & content).values())
    return 1 - t_kept / t_total, c_kept / c_total


def run_mode(spark, crawl, tmp_path, mode, **options):
    from chaff.spark import COLUMNS, run

    out = str(tmp_path / f"{mode}.parquet")
    stats = run(spark, crawl["paths"], out, mode=mode, **options)
    df = spark.read.parquet(out)
    assert df.columns == COLUMNS
    return stats, [r.asDict() for r in df.collect()]


def test_page_and_site_modes(spark, crawl, tmp_path, capsys):
    page_stats, page_rows = run_mode(spark, crawl, tmp_path, "page")
    site_stats, site_rows = run_mode(spark, crawl, tmp_path, "site", split_above=50,
                                     sample_cap=30)
    # Rows = records: every synthetic page, the binary page, the cut WARC's first page, and
    # the damage of the cut WARC.
    records = crawl["pages"] + 3
    for stats, rows in ((page_stats, page_rows), (site_stats, site_rows)):
        assert stats["rows"] == len(rows) == records
        assert stats["errors"] == 2
        errors = sorted(r["error"] for r in rows if r["error"])
        assert "binary" in errors[0].lower() or "binary" in errors[1].lower()
        assert any("WARC damaged" in e for e in errors)
        urls = [r["url"] for r in rows if not r["error"]]
        assert sorted(urls) == sorted(list(crawl["truth"]) + ["https://cut.example.com/1"])
    # Site mode learned every site with enough pages (the 80-page one in parts, a part with
    # fewer than 5 pages page by page); the 3-page site and the cut WARC's page went page by
    # page.
    profiled = collections.Counter(r["profile"] for r in site_rows if not r["error"])
    assert len([p for p in profiled if p]) == 5
    assert profiled[None] >= 3 + 1
    assert all(r["profile"] is None for r in page_rows)
    page_t, page_c = removal(page_rows, crawl["truth"])
    site_t, site_c = removal(site_rows, crawl["truth"])
    with capsys.disabled():  # the figures, shown even when pytest captures output
        print(f"\nsynthetic sites of {SITE_PAGES} pages, {crawl['pages']} pages in all:")
        print(f"  page-level: template words removed {page_t:.2%}, content words kept {page_c:.2%}")
        print(f"  site-level: template words removed {site_t:.2%}, content words kept {site_c:.2%}")
    assert site_t > page_t
    # The same page gives the same row whatever the path it took (Spark, or a plain call).
    row = next(r for r in page_rows if r["url"] and not r["error"])
    html = next(rec.html for rec in chaff.read_warc(crawl["paths"][0]) if rec.url == row["url"])
    assert row["text"] == chaff.extract(html, row["url"])
    assert row["markdown"] == chaff.extract(html, row["url"], output_format="markdown")


#: A story with a relative link and image in its text and a readers' thread under it.
STORY = (b"<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article>"
         b"<h1>Council votes to close the old bridge</h1><p>The council voted on Monday to "
         b"close the <a href='bridge.html'>old bridge</a> for repairs. Engineers found cracks "
         b"in two of its arches last spring, and the work is expected to take most of the "
         b"coming year.</p><p><img src='img/arch.jpg' alt='The cracked arch'> Traffic will be "
         b"sent over the ring road, which the council says can carry the extra load.</p>"
         b"</article><div id=comments><h3>2 comments</h3><ol class=commentlist>"
         b"<li class=comment><p>I drive over that bridge every day and it did feel shaky to "
         b"me.</p></li><li class=comment><p>About time they did something, the cracks have "
         b"been there for years.</p></li></ol><form class=comment-form><textarea>Your reply"
         b"</textarea><button>Post</button></form></div></body></html>")


def test_comments_links_and_images_are_options(spark, tmp_path):
    from chaff.spark import run

    url = "https://news.example.org/local/bridge"
    warc = tmp_path / "story.warc"
    warc.write_bytes(response_record(url, STORY))

    def row(name, **options):
        out = str(tmp_path / f"{name}.parquet")
        run(spark, [str(warc)], out, **options)
        rows = [r.asDict() for r in spark.read.parquet(out).collect()]
        assert len(rows) == 1 and rows[0]["error"] is None, rows
        return rows[0]

    plain = row("plain")
    assert "feel shaky" in plain["comments"] and "feel shaky" not in plain["text"]
    assert "[old bridge](https://news.example.org/local/bridge.html)" in plain["markdown"]
    assert "![The cracked arch](https://news.example.org/local/img/arch.jpg)" in plain["markdown"]
    options = {"include_comments": True, "include_links": False, "include_images": False}
    asked = row("asked", **options)
    assert "feel shaky" in asked["text"] and "feel shaky" in asked["comments"]
    assert "](" not in asked["markdown"] and "close the old bridge for" in asked["markdown"]
    assert asked["markdown"] == chaff.extract(STORY, url, output_format="markdown", **options)

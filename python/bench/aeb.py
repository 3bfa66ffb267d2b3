"""Python against the command line and the Rust API on the scrapinghub-aeb pages (181 news
pages, ../shared/datasets/scrapinghub-aeb), in three parts:

1. equality: each page's `chaff.extract(html, output_format="txt")` + newline against
   `chaff extract -q page.html.gz`, byte for byte; and every page's JSON record through a WARC
   of the pages with their URLs: `chaff extract --format json x.warc` against
   `Extractor.extract_page(r.html, r.url, source=r.source, charset=r.charset).record_json()`
   for each record of `chaff.read_warc(x.warc)`.
2. overhead: the same page bytes through `Extractor.extract(html, url)` (to text) in a Python
   loop, and through `chaff::Extractor::extract` in a Rust loop in the same process, one
   thread (`Extractor._time_rust`), rounds interleaved, best round of each.
3. threads: `extract_many(pages, threads=1)` against `threads=2` over the same pages.

    python python/bench/aeb.py [--chaff target/release/chaff] [--rounds 5] [--skip-cli]
"""

import argparse
import gzip
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import chaff

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python" / "tests"))
from warcs import write_warc  # noqa: E402

SHARED = pathlib.Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
AEB = SHARED / "datasets" / "scrapinghub-aeb"


def load():
    truth = json.loads((AEB / "ground-truth.json").read_text())
    pages = []
    for path in sorted((AEB / "html").glob("*.html.gz")):
        url = truth.get(path.name.split(".")[0], {}).get("url")
        pages.append((path, gzip.decompress(path.read_bytes()), url))
    return pages


def equality(pages, chaff_bin):
    text_equal = 0
    for path, html, _ in pages:
        cli = subprocess.run([chaff_bin, "extract", "-q", str(path)], capture_output=True).stdout
        if cli == (chaff.extract(html, output_format="txt") + "\n").encode():
            text_equal += 1
        else:
            print(f"  text differs: {path.name}")
    with tempfile.TemporaryDirectory() as d:
        warc = pathlib.Path(d) / "aeb.warc"
        write_warc(warc, [(html, url) for _, html, url in pages])
        cli = subprocess.run([chaff_bin, "extract", "-q", "--format", "json", str(warc)],
                             capture_output=True).stdout.splitlines()
        ex = chaff.Extractor()
        py = [ex.extract_page(r.html, r.url, source=r.source, charset=r.charset).record_json().encode()
              for r in chaff.read_warc(warc)]
    records_equal = sum(a == b for a, b in zip(cli, py)) if len(cli) == len(py) else 0
    print(f"equality: text {text_equal}/{len(pages)} pages byte-equal to `chaff extract`; "
          f"JSON records {records_equal}/{len(pages)} byte-equal ({len(cli)} CLI lines)")
    return text_equal == len(pages) and records_equal == len(pages)


def overhead(pages, rounds):
    ex = chaff.Extractor()
    items = [(html, url) for _, html, url in pages]
    inner = ex._inner
    py_times, rust_times = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for html, url in items:
            ex.extract(html, url)
        py_times.append(time.perf_counter() - start)
        rust_times.append(inner._time_rust(items, 1)[0])
    py, rust = min(py_times), min(rust_times)
    n = len(items)
    print(f"overhead: Python loop {py / n * 1e3:.3f} ms/page, Rust loop {rust / n * 1e3:.3f} "
          f"ms/page (best of {rounds} rounds each, one thread): overhead {py / rust - 1:+.2%} "
          f"({(py - rust) / n * 1e6:.0f} us/page)")
    return py / rust - 1


def threads(pages, repeat):
    ex = chaff.Extractor()
    items = [(html, url) for _, html, url in pages] * repeat
    times = {}
    for n in (1, 2, 1, 2):
        start = time.perf_counter()
        count = sum(1 for _ in ex.extract_many(items, threads=n))
        elapsed = time.perf_counter() - start
        times[n] = min(times.get(n, elapsed), elapsed)
        assert count == len(items)
    speedup = times[1] / times[2]
    print(f"threads: {len(items)} pages, 1 thread {len(items) / times[1]:.1f} pages/s, "
          f"2 threads {len(items) / times[2]:.1f} pages/s: {speedup:.2f}x (best of 2 each)")
    return speedup


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chaff", default=str(REPO / "target" / "release" / "chaff"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3, help="passes over the pages for threads")
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--only", choices=["equality", "overhead", "threads"])
    a = ap.parse_args()
    if not AEB.is_dir():
        sys.exit(f"no {AEB}: set CHAFF_SHARED")
    print(f"load: {open('/proc/loadavg').read().split()[:3]} (1, 5, 15 min), "
          f"{os.cpu_count()} cores")
    pages = load()
    if a.only in (None, "equality") and not a.skip_cli:
        equality(pages, a.chaff)
    if a.only in (None, "overhead"):
        overhead(pages, a.rounds)
    if a.only in (None, "threads"):
        threads(pages, a.repeat)
    print(f"load: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()

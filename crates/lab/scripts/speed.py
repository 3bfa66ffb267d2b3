"""chaff's speed beside resiliparse's on the same pages, one core, in one run: the speed row of
MEASUREMENTS.md. For each set and round, resiliparse is timed as ../shared/tools/run_anchors.py
times a Python extractor (the extraction calls alone), and chaff as it times chaff (one
`chaff extract` process over the pages written as files, RAYON_NUM_THREADS=1, start-up,
reading and writing included), once with its full records and once with `--no-metadata`
(the same text, no metadata or language worked out). Where the interpreter has chaff's
Python package (`pip install ./python`, a maturin build of crates/python), chaff is also timed
exactly as resiliparse is: its extraction call alone, `chaff.Extractor().extract(html)`
(bytes in, the main text out: parse and extract, as issue 15's speed item words it), one call
per page in this process. The rounds alternate; the least time of each is kept, and the texts
of every chaff run must be the same.

  /tmp/anchors/bin/python crates/lab/scripts/speed.py [--sets aeb,wcxb-dev] [--rounds 3]

To time what users install, build the binary as `cargo install` is told to
(`cargo build --profile release-lto -p chaff-cli`) and name it:
CHAFF=target/release-lto/chaff. `pip install ./python` builds the package with that profile.
"""
import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402
import run_anchors  # noqa: E402


def timed(call, pages):
    """(outputs, seconds) of `call` over the pages, each call timed alone."""
    outputs, t = [], 0.0
    for p in pages:
        t0 = time.perf_counter()
        out = call(p)
        t += time.perf_counter() - t0
        outputs.append(out)
    return outputs, t


def resiliparse_seconds(pages):
    fn = run_anchors.EXTRACTORS["resiliparse"]

    def call(p):
        try:
            return fn(p.html, p.url)
        except Exception:  # as run_anchors.py: a failing page counts its time and scores empty
            return ""

    return timed(call, pages)[1]


try:
    import chaff
except ImportError:  # the call alone is then not timed
    chaff = None


def chaff_library(pages):
    """(texts, seconds) of chaff's Python call over the pages, timed per call as resiliparse is.
    The pages go without their URLs, as `chaff extract` reads them from files here, so both give
    the same text (a URL is one of the content model's inputs)."""
    ex = chaff.Extractor()
    return timed(lambda p: ex.extract(p.html), pages)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="aeb,wcxb-dev")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print("| set (pages) | resiliparse ms/page | chaff ms/page | ratio | chaff --no-metadata ms/page | ratio "
          "| chaff's call ms/page | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    library = chaff is not None
    for name in a.sets.split(","):
        pages = [p for p in datasets.load(name) if p.gold is not None]
        best = {k: float("inf") for k in ("resiliparse", "chaff", "lean", "call")}
        for _ in range(a.rounds):
            best["resiliparse"] = min(best["resiliparse"], resiliparse_seconds(pages))
            full, t_full, _ = run_anchors.run_chaff(pages)
            best["chaff"] = min(best["chaff"], t_full)
            lean, t_lean, _ = run_anchors.run_chaff(pages, ["--no-metadata"])
            best["lean"] = min(best["lean"], t_lean)
            if full != lean:
                sys.exit(f"{name}: --no-metadata changed the text of some pages")
            if not library:
                continue
            called = chaff_library(pages)
            best["call"] = min(best["call"], called[1])
            if called[0] != full:
                sys.exit(f"{name}: chaff's Python call and `chaff extract` differ on some pages")
        ms = {k: 1000 * v / len(pages) for k, v in best.items()}
        call = (f"{ms['call']:.2f} | {ms['call'] / ms['resiliparse']:.2f}" if library
                else "– | –")
        print(f"| {name} ({len(pages)}) | {ms['resiliparse']:.2f} | {ms['chaff']:.2f} | "
              f"{ms['chaff'] / ms['resiliparse']:.2f} | {ms['lean']:.2f} | {ms['lean'] / ms['resiliparse']:.2f} "
              f"| {call} |", flush=True)
    if not library:
        print("chaff's call: not timed (this interpreter has no chaff package: pip install ./python)",
              file=sys.stderr)


if __name__ == "__main__":
    main()

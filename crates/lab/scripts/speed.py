"""chaff's speed beside resiliparse's on the same pages, one core, in one run: the speed row of
MEASUREMENTS.md. For each set and round, resiliparse is timed as ../shared/tools/run_anchors.py
times a Python extractor (the extraction calls alone), and chaff as it times chaff (one
`chaff extract` process over the pages written as files, RAYON_NUM_THREADS=1, start-up,
reading and writing included), once with its full records and once with `--no-metadata`
(the same text, no metadata or language worked out). The rounds alternate; the least time
of each is kept, and the texts of both chaff runs must be the same.

  /tmp/anchors/bin/python crates/lab/scripts/speed.py [--sets aeb,wcxb-dev] [--rounds 3]
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


def resiliparse_seconds(pages):
    fn = run_anchors.EXTRACTORS["resiliparse"]
    t = 0.0
    for p in pages:
        t0 = time.perf_counter()
        try:
            fn(p.html, p.url)
        except Exception:  # as run_anchors.py: a failing page counts its time and scores empty
            pass
        t += time.perf_counter() - t0
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="aeb,wcxb-dev")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print("| set (pages) | resiliparse ms/page | chaff ms/page | ratio | chaff --no-metadata ms/page | ratio |")
    print("|---|---|---|---|---|---|")
    for name in a.sets.split(","):
        pages = [p for p in datasets.load(name) if p.gold is not None]
        best = {"resiliparse": float("inf"), "chaff": float("inf"), "lean": float("inf")}
        for _ in range(a.rounds):
            best["resiliparse"] = min(best["resiliparse"], resiliparse_seconds(pages))
            full, t_full, _ = run_anchors.run_chaff(pages)
            best["chaff"] = min(best["chaff"], t_full)
            lean, t_lean, _ = run_anchors.run_chaff(pages, ["--no-metadata"])
            best["lean"] = min(best["lean"], t_lean)
            if full != lean:
                sys.exit(f"{name}: --no-metadata changed the text of some pages")
        ms = {k: 1000 * v / len(pages) for k, v in best.items()}
        print(f"| {name} ({len(pages)}) | {ms['resiliparse']:.2f} | {ms['chaff']:.2f} | "
              f"{ms['chaff'] / ms['resiliparse']:.2f} | {ms['lean']:.2f} | {ms['lean'] / ms['resiliparse']:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()

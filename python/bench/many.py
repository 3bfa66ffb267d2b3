"""`Extractor.extract_many` throughput over a folder of pages, as a user's loop reads it:
pages per second with 1 and 2 threads, best of `--rounds` (taking turns), reading each
result's text or, with `--records`, its JSON record.

    python python/bench/many.py [DIR] [--limit 600] [--rounds 3] [--records [--prepare]]

DIR defaults to ../shared/datasets/wcxb-dev/html (`*.html` and `*.html.gz`).
"""

import argparse
import gzip
import os
import pathlib
import time

import chaff

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))


def load(folder, limit):
    paths = sorted(p for p in folder.iterdir() if p.name.endswith((".html", ".html.gz")))
    pages = []
    for p in paths[:limit]:
        data = p.read_bytes()
        pages.append((gzip.decompress(data) if p.name.endswith(".gz") else data, None))
    return pages


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=pathlib.Path,
                    default=SHARED / "datasets" / "wcxb-dev" / "html")
    ap.add_argument("--limit", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--records", action="store_true")
    ap.add_argument("--prepare", action="store_true",
                    help="extract_many(prepare_records=True): records' metadata on the pool")
    args = ap.parse_args()
    pages = load(args.folder, args.limit)
    ex = chaff.Extractor()
    best = {}
    for _ in range(args.rounds):
        for threads in (1, 2):
            start = time.perf_counter()
            chars = 0
            for doc in ex.extract_many(pages, threads=threads, prepare_records=args.prepare):
                chars += len(doc.record_json() if args.records else doc.text)
            elapsed = time.perf_counter() - start
            best[threads] = min(best.get(threads, elapsed), elapsed)
    what = "records" if args.records else "text"
    what += ", prepared on the pool" if args.prepare else ""
    rates = ", ".join(f"{n} thread{'s' if n > 1 else ''} {len(pages) / t:.1f} pages/s"
                      for n, t in sorted(best.items()))
    print(f"extract_many, {len(pages)} pages of {args.folder}, {what}: {rates} "
          f"(best of {args.rounds})")


if __name__ == "__main__":
    main()

"""Writes N pages as JSON Lines ({"url", "html"}) to standard output: the scrapinghub-aeb
pages over and over, each with its own URL, for measuring memory over long streams:

  python3 crates/lab/scripts/stream_pages.py 10000 | /usr/bin/time -v target/release/chaff extract -q -
"""
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402


def main():
    n = int(sys.argv[1])
    pages = list(datasets.load("aeb"))
    for i in range(n):
        p = pages[i % len(pages)]
        line = {"url": f"https://example{i % 97}.org/p{i}", "html": p.html.decode("utf-8", "replace")}
        sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()

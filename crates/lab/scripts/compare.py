"""The README's accuracy table: chaff and the other extractors over the same pages, scored by
the reference scorer, in one run (../shared/tools/run_anchors.py once per set).

  CHAFF=target/release/chaff RS_ANCHORS=/tmp/rs-anchors/target/release/rs-anchors \
    /tmp/anchors/bin/python crates/lab/scripts/compare.py [--sets aeb,dragnet-test,...]

Prints a Markdown table of 4-gram shingle F1 per set and extractor (the best in bold), then
the milliseconds per page on one core. Needs the extractors run_anchors.py knows (its
README); a missing one is left out of the table.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
RUN = SHARED / "tools" / "run_anchors.py"
SETS = "aeb,dragnet-test,cleaneval,cleanportaleval"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=SETS)
    ap.add_argument("--only", help="extractors, comma-separated (run_anchors.py --only)")
    a = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as td:
        for s in a.sets.split(","):
            out = Path(td) / f"{s}.json"
            cmd = [sys.executable, str(RUN), s, "--out", str(out)]
            if a.only:
                cmd += ["--only", a.only]
            r = subprocess.run(cmd, stdout=sys.stderr)
            if r.returncode != 0 or not out.exists():
                sys.exit(f"run_anchors.py {s} failed")
            results[s] = json.loads(out.read_text())
    names = []
    for res in results.values():
        names += [n for n in res if n not in names]
    sets = list(results)
    print("| set (pages) | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for s in sets:
        row = results[s]
        best = max(row[n]["shingle4"]["f1"] for n in row)
        cells = []
        for n in names:
            if n not in row:
                cells.append("–")
                continue
            f = row[n]["shingle4"]["f1"]
            cells.append(f"**{f:.3f}**" if f == best else f"{f:.3f}")
        print(f"| {s} | " + " | ".join(cells) + " |")
    print()
    print("| ms per page, one core | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for s in sets:
        row = results[s]
        print(f"| {s} | " + " | ".join(f"{row[n]['ms_per_page']:.1f}" if n in row else "–" for n in names) + " |")


if __name__ == "__main__":
    main()

"""Markdown structure of `chaff extract --format markdown` on wcxb-dev against WCXB's gold
Markdown (`main_content_markdown`), scored by the reference scorer's markdown_structure
(../shared/tools/score.py): precision, recall and F1 of headings (with their level), list
items, table cells and code lines, over the pages that have gold Markdown.

  python3 crates/lab/scripts/md_eval.py            # CHAFF=path/to/chaff, default target/release/chaff
  python3 crates/lab/scripts/md_eval.py --others   # with trafilatura's Markdown beside it

With --others (run with the anchors venv's Python, ../shared/tools/README.md), trafilatura
runs over the same pages in the same run with the settings the issue names
(`output_format="markdown", include_formatting=True, include_tables=True`).

The pages go to `chaff extract -` as JSON Lines ({"url", "html"}); each output record's text is
the page's Markdown.
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402
import score  # noqa: E402

CHAFF = os.environ.get("CHAFF", str(REPO / "target" / "release" / "chaff"))


def chaff_markdown(pages, fmt="markdown"):
    """Each page's Markdown (or output in `fmt`) from one `chaff extract` run, in page order."""
    lines = "".join(json.dumps({"url": p.url, "html": p.html.decode("utf-8", "replace")}) + "\n"
                    for p in pages)
    r = subprocess.run([CHAFF, "extract", "-q", "--format", fmt, "-"], input=lines.encode(),
                       capture_output=True)
    if r.returncode not in (0, 1):
        sys.exit(f"chaff failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    by_line = {}
    for line in r.stdout.decode("utf-8", "replace").split("\n"):
        if line.strip():
            o = json.loads(line)
            by_line[int(o["source"].rsplit(":", 1)[-1])] = o.get("text") or ""
    return [by_line.get(i + 1, "") for i in range(len(pages))]


def trafilatura_markdown(pages):
    import trafilatura
    out = []
    for p in pages:
        try:
            t = trafilatura.extract(p.html.decode("utf-8", "replace"), output_format="markdown",
                                    include_formatting=True, include_tables=True)
        except Exception:  # a tool's failure on one page is its miss, not the run's end
            t = None
        out.append(t or "")
    return out


def report(name, pages, markdown):
    pairs = [(p.meta["markdown"], m) for p, m in zip(pages, markdown)]
    for kind, s in score.markdown_structure(pairs).items():
        figures = "  ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in s.items())
        print(f"{name:<12} {kind:<12} {figures}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--others", action="store_true", help="trafilatura's Markdown beside chaff's")
    a = ap.parse_args()
    pages = [p for p in datasets.load("wcxb-dev") if p.meta.get("markdown")]
    print(f"wcxb-dev: {len(pages)} pages with gold Markdown")
    report("chaff", pages, chaff_markdown(pages))
    if a.others:
        try:
            report("trafilatura", pages, trafilatura_markdown(pages))
        except ImportError as e:
            print(f"trafilatura: skipped ({e})", file=sys.stderr)


if __name__ == "__main__":
    main()

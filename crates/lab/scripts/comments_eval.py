"""Readers' comments on Dragnet pages: kept out of the main text, and given apart.

  python3 crates/lab/scripts/comments_eval.py [--split test|train] [--baseline OLD_CHAFF]

Dragnet's gold text puts a page's comments after the line `!@#$%^&*()  COMMENTS`: the part
before is the article (the gold of every other figure), the part after the comments. One run
over the split's pages:
  * the main text of the shipping `chaff extract` (and of `--baseline`, an earlier binary, when
    given) against the article gold, 4-gram shingle P/R/F1 by ../shared/tools/score.py, over
    all pages and over the pages whose gold has comments;
  * the `comments` field of its JSON records against the gold comments (word-bag P/R/F1 by
    score.py, mean over the pages with gold comments), beside trafilatura's
    `bare_extraction(include_comments=True)` comments on the same pages;
  * on how many pages each gives comments where the gold has none (Dragnet's gold leaves some
    threads out altogether, so part of these are real comments).
The comment detector's vocabulary was chosen on the training split; report the test split.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import site_eval  # noqa: E402
from site_eval import datasets, score  # noqa: E402

MARK = "!@#$%^&*()  COMMENTS"


def pages_of(split):
    d = site_eval.SHARED / "datasets" / "dragnet"
    ids = set((d / ("training.txt" if split == "train" else "test.txt")).read_text().split())
    out = []
    for p in sorted((d / "html").glob("*.html.gz")):
        pid = p.name[: -len(".html.gz")]
        gold = d / "corrected" / f"{pid}.html.corrected.txt"
        if pid in ids and gold.exists():
            article, _, comments = datasets._text(gold).partition(MARK)
            out.append((pid, datasets._gz(p), article.strip(), comments.strip()))
    return out


def run_chaff(exe, pages):
    """One `chaff extract --format json` over the pages as files: (texts, comments)."""
    with tempfile.TemporaryDirectory(prefix="chaff-comments-") as td:
        names = []
        for i, (_, html, _, _) in enumerate(pages):
            names.append(f"p{i:05d}.html")
            (Path(td) / names[-1]).write_bytes(html)
        r = subprocess.run([exe, "extract", "-q", "--format", "json", td], capture_output=True)
    got = {}
    for line in r.stdout.decode("utf-8", "replace").split("\n"):
        if line.strip():
            o = json.loads(line)
            got[Path(o.get("source") or "").name] = o
    recs = [got.get(n, {}) for n in names]
    return [o.get("text") or "" for o in recs], [o.get("comments") or "" for o in recs]


def run_trafilatura(pages):
    import trafilatura

    texts, comments = [], []
    for _, html, _, _ in pages:
        try:
            d = trafilatura.bare_extraction(html.decode("utf-8", "replace"), include_comments=True)
        except Exception:  # a failure scores as empty, as run_anchors.py counts it
            d = None
        texts.append(getattr(d, "text", None) or "")
        comments.append(getattr(d, "comments", None) or "")
    return texts, comments


def line(name, s):
    print(f"  {name:<46} P {s['p']:.4f}  R {s['r']:.4f}  F1 {s['f1']:.4f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="test", choices=["test", "train"])
    ap.add_argument("--baseline", help="an earlier chaff binary, for the main text before")
    args = ap.parse_args()
    pages = pages_of(args.split)
    with_c = [i for i, p in enumerate(pages) if p[3]]
    without = [i for i, p in enumerate(pages) if not p[3]]
    exe = os.environ.get("CHAFF", str(site_eval.REPO / "target" / "release" / "chaff"))
    runs = {"chaff": run_chaff(exe, pages)}
    if args.baseline:
        runs["chaff (baseline)"] = run_chaff(args.baseline, pages)
    runs["trafilatura include_comments"] = run_trafilatura(pages)
    print(f"dragnet {args.split}: {len(pages)} pages, {len(with_c)} with gold comments")
    print("main text against the article gold (4-gram shingles)")
    for name, (texts, _) in runs.items():
        for sel_name, sel in [("all pages", range(len(pages))), ("pages with comments", with_c)]:
            line(f"{name}, {sel_name}", score.score([(pages[i][2], texts[i]) for i in sel], "shingle4"))
    print("comments against the gold comments (words), pages with gold comments")
    for name, (_, comments) in runs.items():
        if name.endswith("(baseline)"):
            continue
        line(name, score.score([(pages[i][3], comments[i]) for i in with_c], "words"))
        given = sum(1 for i in with_c if comments[i].strip())
        extra = sum(1 for i in without if comments[i].strip())
        print(f"  {'':<46} given on {given}/{len(with_c)}; on {extra}/{len(without)} pages without")


if __name__ == "__main__":
    main()

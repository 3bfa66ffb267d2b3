"""Site-level extraction scored through the shipping commands, beside page-level chaff and
the other extractors, with the reference scorer (../shared/tools/score.py).

For each site the pages are written to <tmp>/pages/<site>/p<i>.html; then, per method set,
either `chaff learn --per-site` followed by `chaff extract --profiles` (--mode profiles), or
`chaff extract --learn` (--mode learn), both with --site-from folder. Nothing here learns or
extracts: it only lays out pages, runs the binary a user runs, and scores its output.

  python3 crates/lab/scripts/site_eval.py cleanportaleval
  python3 crates/lab/scripts/site_eval.py dragnet --min-site-pages 5   # learn on all pages of
                                          # sites with >= 5, score the test split's pages
  options: --methods suffix,forest,suffix+forest  --mode profiles|learn  --per-site  --content-model FILE
           --others readability-lxml,trafilatura (names of run_anchors.py; the anchors venv's python)  --json OUT
           --preds DIR (each run's texts as run_anchors.py --preds writes them, for gold_check.py)

CHAFF (default target/release/chaff) names the binary; CHAFF_SHARED the shared folder.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402
import score  # noqa: E402

CHAFF = os.environ.get("CHAFF", str(REPO / "target" / "release" / "chaff"))


def fold_of(site, folds):
    """The fold (0-based) `chaff-lab train-content --holdout` deals a site to (FNV-1a)."""
    h = 0x811C9DC5
    for b in site.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h % folds


def load(name, min_site_pages, train_fold=None):
    """(pages to learn from, pages to score); each page has a site."""
    if name == "dragnet" and train_fold:
        k, n = (int(x) for x in train_fold.split("/"))
        pages = [p for p in datasets.dragnet(None)
                 if p.site and p.meta.get("split") == "train" and fold_of(p.site, n) == k - 1]
        by_site = defaultdict(list)
        for p in pages:
            by_site[p.site].append(p)
        learn = [p for s in by_site.values() if len(s) >= min_site_pages for p in s]
        return learn, [p for p in learn if p.gold is not None]
    if name == "dragnet":
        pages = [p for p in datasets.dragnet(None) if p.site]
    else:
        pages = [p for p in datasets.load(name) if p.site]
    by_site = defaultdict(list)
    for p in pages:
        by_site[p.site].append(p)
    learn = [p for s in by_site.values() if len(s) >= min_site_pages for p in s]
    scored = [p for p in learn if p.gold is not None and p.meta.get("split", "test") == "test"]
    return learn, scored


def layout(pages, root):
    """Writes pages one folder per site; returns {file path: page id}."""
    names = {}
    for i, p in enumerate(pages):
        # No dots: a folder named like a host is keyed by its registrable domain, which would
        # merge the set's sites that share one (blogs.x.com and www.x.com).
        folder = root / re.sub(r"[^A-Za-z0-9_-]", "_", p.site)
        folder.mkdir(parents=True, exist_ok=True)
        f = folder / f"p{i:05d}.html"
        f.write_bytes(p.html)
        names[str(f)] = p.id
    return names


def run(args):
    r = subprocess.run([CHAFF, *args], capture_output=True)
    if r.returncode not in (0, 1):
        sys.exit(f"chaff {' '.join(args)} failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    return r.stdout.decode("utf-8", "replace")


def extract(root, methods, mode, tmp, content_model=None, extra=()):
    """{page id: text} by chaff; methods None for page-level; `extra`: more arguments for
    `chaff extract`."""
    common = ["-q", "--format", "text", "--site-from", "folder", *extra]
    if content_model:
        common += ["--content-model", str(content_model)]
    if methods is None:
        out = run(["extract", *common, str(root)])
    elif mode == "learn":
        out = run(["extract", *common, "--learn", "--min-site-pages", "2", "--method", methods, str(root)])
    else:
        profiles = Path(tmp) / f"profiles-{methods.replace(',', '+')}"
        run(["learn", "-q", "--per-site", "--site-from", "folder", "--method", methods, "-o", str(profiles), str(root)])
        out = run(["extract", *common, "--profiles", str(profiles), str(root)])
    texts = {}
    for line in out.split("\n"):
        if line.strip():
            o = json.loads(line)
            texts[o["source"]] = o.get("text") or ""
    return texts


def others(names, pages):
    import run_anchors  # noqa: E402  (needs the anchors venv)
    out = {}
    for n in names:
        fn = run_anchors.EXTRACTORS[n]
        out[n] = {p.id: (lambda h, u: _safe(fn, h, u))(p.html, p.url) for p in pages}
    return out


def _safe(fn, html, url):
    try:
        return fn(html, url) or ""
    except Exception:  # an extractor failing on a page scores as empty text
        return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset")
    ap.add_argument("--min-site-pages", type=int, default=2)
    ap.add_argument("--methods", default="suffix,forest,suffix+forest")
    ap.add_argument("--mode", choices=["profiles", "learn"], default="profiles")
    ap.add_argument("--per-site", action="store_true")
    ap.add_argument("--others", default="")
    ap.add_argument("--json")
    ap.add_argument("--preds", help="folder: one JSON of page id -> text per run (run_anchors.py's form)")
    ap.add_argument("--content-model", help="passed to chaff extract (default: the built-in model)")
    ap.add_argument("--train-fold", metavar="K/N",
                    help="dragnet only: the training split's sites of fold K of N (those "
                         "`train-content --holdout K/N` leaves out), learned and scored; no test page is read")
    a = ap.parse_args()
    learn_pages, scored = load(a.dataset, a.min_site_pages, a.train_fold)
    gold = {p.id: p.gold for p in scored}
    site_of = {p.id: p.site for p in scored}
    rows = {}
    with tempfile.TemporaryDirectory(prefix="chaff-site-eval-") as tmp:
        root = Path(tmp) / "pages"
        names = layout(learn_pages, root)
        runs = [("chaff page-level", None)] + [
            (f"chaff {m}", m.replace("+", ",")) for m in a.methods.split(",") if m
        ]
        for label, methods in runs:
            texts = extract(root, methods, a.mode, tmp, a.content_model)
            rows[label] = {names[f]: t for f, t in texts.items() if f in names}
    if a.others:
        rows.update(others(a.others.split(","), scored))
    sites = sorted({p.site for p in scored})
    print(f"{a.dataset}: {len(scored)} pages scored, {len(sites)} sites, "
          f"{len(learn_pages)} pages learned from; mode {a.mode}")
    report = {}
    for label, preds in rows.items():
        pairs = [(gold[i], preds.get(i, "")) for i in gold]
        s4, s2 = score.score(pairs, "shingle4"), score.score(pairs, "bigram")
        report[label] = {"shingle4": s4, "bigram": s2}
        line = f"{label:<28} 4-gram F1 {s4['f1']:.3f} (P {s4['p']:.3f} R {s4['r']:.3f})  bigram F1 {s2['f1']:.3f}"
        if a.per_site:
            per = {}
            for s in sites:
                sp = [(gold[i], preds.get(i, "")) for i in gold if site_of[i] == s]
                per[s] = score.score(sp, "shingle4")["f1"]
            report[label]["sites"] = per
            line += "  | " + " ".join(f"{s} {v:.3f}" for s, v in per.items())
        print(line)
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=1))
    if a.preds:
        Path(a.preds).mkdir(parents=True, exist_ok=True)
        for label, preds in rows.items():
            name = re.sub(r"[^A-Za-z0-9+_-]", "-", label)
            (Path(a.preds) / f"{a.dataset}.{name}.json").write_text(
                json.dumps({i: preds.get(i, "") for i in gold}))


if __name__ == "__main__":
    main()

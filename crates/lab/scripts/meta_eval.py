"""Metadata (title, author, date, page type) of `chaff extract` on wcxb-dev, scored by the reference
scorer's metadata_scores (../shared/tools/score.py): exact and lenient match rates over pages
whose gold has the field, and how often a value is given where the gold has none.

  python3 crates/lab/scripts/meta_eval.py            # CHAFF=path/to/chaff, default target/release/chaff
  python3 crates/lab/scripts/meta_eval.py --page-type-folds DIR

The built-in page-type classifier was fitted on wcxb-dev, and the page type decides whether a
page keeps its authors and publication date. With --page-type-folds (the folder
`chaff-lab train-page-type --fold-models DIR` writes), each page is extracted with the fold
model that did not see its domain (`chaff extract --page-type-model`), so every figure,
the page type's included, is out of domain. Where the folder also holds `fold-K.title.json`
(`chaff-lab train-title --fold-models DIR`), the page's title is chosen by the title model
that did not see its domain either (`chaff extract --title-model`): the built-in one was
fitted on wcxb-dev.

The pages go to `chaff extract -` as JSON Lines ({"url", "html"}), so each page's URL is known
as it would be in a crawl; the values are the `metadata` object of each output record.

With --others, the other extractors run over the same pages in the same run and are scored by
the same call, one line each: rs-trafilatura and dom_smoothie through ../shared/tools'
rs-anchors (RS_ANCHORS, built as its README says), trafilatura (`bare_extraction` with the
page's URL), goose3 and readability-lxml (`short_title`), each with its default settings. Run
it with the interpreter of the anchors venv (../shared/tools/README.md); a tool that is not
installed is skipped with a note.
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


def extract(pages, ids, extra):
    """Metadata of the pages whose ids are in `ids`, by page id, from one `chaff extract` run."""
    chosen = [p for p in pages if p.id in ids]
    lines = "".join(
        json.dumps({"url": p.url, "html": p.html.decode("utf-8", "replace")}) + "\n" for p in chosen
    )
    r = subprocess.run([CHAFF, "extract", "-q", "--format", "text", *extra, "-"], input=lines.encode(),
                       capture_output=True)
    if r.returncode not in (0, 1):
        sys.exit(f"chaff failed ({r.returncode}): {r.stderr.decode()[-500:]}")
    out = {}
    for line in r.stdout.decode("utf-8", "replace").split("\n"):
        if line.strip():
            o = json.loads(line)
            n = int(o["source"].rsplit(":", 1)[-1])
            out[chosen[n - 1].id] = o.get("metadata") or {}
    return out


RS_ANCHORS = Path(os.environ.get("RS_ANCHORS", SHARED / "tools" / "rs-anchors" / "target" / "release" / "rs-anchors"))


def rs_anchors(pages, extractor):
    """(title, author, date) per page from the rs-anchors binary running `extractor`."""
    lines = "".join(json.dumps({"id": p.id, "url": p.url, "html": p.html.decode("utf-8", "replace")}) + "\n"
                    for p in pages)
    r = subprocess.run([str(RS_ANCHORS), extractor], input=lines.encode(), capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.decode()[-300:])
    got = {}
    for line in r.stdout.decode("utf-8", "replace").split("\n"):
        if line.strip():
            o = json.loads(line)
            got[o["id"]] = o
    return [(got.get(p.id, {}).get("title"), got.get(p.id, {}).get("author"), got.get(p.id, {}).get("date"))
            for p in pages]


def python_tool(pages, name):
    """(title, author, date) per page from a Python extractor's metadata call."""
    out = []
    if name == "trafilatura":
        import trafilatura
        for p in pages:
            try:
                d = trafilatura.bare_extraction(p.html.decode("utf-8", "replace"), url=p.url, with_metadata=True)
            except Exception:  # a tool's failure on one page is its miss, not the run's end
                d = None
            d = d.as_dict() if hasattr(d, "as_dict") else (d or {})
            out.append((d.get("title"), d.get("author"), d.get("date")))
    elif name == "goose3":
        from goose3 import Goose
        g = Goose()
        for p in pages:
            try:
                a = g.extract(raw_html=p.html.decode("utf-8", "replace"))
                out.append((a.title, a.authors or None, a.publish_date))
            except Exception:
                out.append((None, None, None))
    elif name == "readability-lxml":
        from readability import Document
        for p in pages:
            try:
                out.append((Document(p.html.decode("utf-8", "replace")).short_title(), None, None))
            except Exception:
                out.append((None, None, None))
    return out


def others(pages):
    """Each other extractor's (name, predictions), skipping those not at hand with a note."""
    runs = [("rs-trafilatura", lambda: rs_anchors(pages, "rs-trafilatura")),
            ("dom_smoothie", lambda: rs_anchors(pages, "dom-smoothie")),
            ("trafilatura", lambda: python_tool(pages, "trafilatura")),
            ("goose3", lambda: python_tool(pages, "goose3")),
            ("readability-lxml", lambda: python_tool(pages, "readability-lxml"))]
    for name, run in runs:
        try:
            got = run()
        except (ImportError, RuntimeError, OSError) as e:
            print(f"{name}: skipped ({type(e).__name__}: {str(e)[:120]})", file=sys.stderr)
            continue
        yield name, [{"title": t, "author": a, "date": d} for t, a, d in got]


def report(name, pages, preds, pct):
    """One line per field the tool gives on at least one page (readability-lxml: the title)."""
    res = score.metadata_scores(pages, preds)
    for f, s in res.items():
        if not any(p.get(f) for p in preds):
            continue
        print(f"{name:<17} {f:<7} exact {pct(s['exact'])}  lenient {pct(s['lenient'])}  (n={s['n']})   "
              f"given where the gold has none {pct(s['fp'])} (n={s['n_null']})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--page-type-folds", type=Path)
    ap.add_argument("--others", action="store_true", help="score the other extractors beside chaff")
    a = ap.parse_args()
    pages = datasets.load("wcxb-dev")
    by_id = {}
    if a.page_type_folds:
        for model in sorted(m for m in a.page_type_folds.glob("fold-*.json") if m.suffixes == [".json"]):
            ids = set(model.with_suffix(".ids").read_text().split())
            extra = ["--page-type-model", str(model)]
            title = model.with_suffix(".title.json")
            if title.exists():
                extra += ["--title-model", str(title)]
            by_id.update(extract(pages, ids, extra))
        if len(by_id) != len(pages):
            sys.exit(f"the folds cover {len(by_id)} of {len(pages)} pages")
    else:
        by_id = extract(pages, {p.id for p in pages}, [])
    by_line = {i + 1: by_id.get(p.id, {}) for i, p in enumerate(pages)}
    preds = []
    for i in range(len(pages)):
        m = by_line.get(i + 1, {})
        preds.append({"title": m.get("title"), "author": m.get("authors"), "date": m.get("published")})
    pct = lambda x: "–" if x is None else f"{x:.1%}"  # noqa: E731
    report("chaff", pages, preds, pct)
    if a.others:
        for name, theirs in others(pages):
            report(name, pages, theirs, pct)
    # Page type (WCXB's seven), as the built-in classifier gives it. That classifier was fitted
    # on these very pages, so this rate is a training fit, not an accuracy: the held-out figure
    # is `chaff-lab train-page-type`'s domain-disjoint cross-validation.
    typed = [(p.meta.get("page_type"), by_line.get(i + 1, {}).get("page_type"))
             for i, p in enumerate(pages) if p.meta.get("page_type")]
    right = sum(g == v for g, v in typed)
    given = sum(v is not None for _, v in typed)
    print(f"page_type exact {pct(right / len(typed))} (n={len(typed)}), given on {pct(given / len(typed))}, "
          f"right where given {pct(right / given if given else None)} "
          + ("(each page typed by a fold model that did not see its domain)" if a.page_type_folds else
             "(in-sample: the built-in classifier was fitted on wcxb-dev; see --page-type-folds)"))


if __name__ == "__main__":
    main()

"""Site learning cross-validated on training data: the Dragnet training split's sites with at
least 5 training pages, dealt to 5 folds by a hash of the site name. For each fold,
`chaff-lab train-content --holdout K/5` fits a content model without that fold's sites (and
without that fold of wcxb-dev); the fold's sites are then learned from their training pages
and extracted with `chaff extract --learn --content-model` (site-aware) and `chaff extract
--content-model` (page-level), and every fold's pages are scored together by
../shared/tools/score.py. No test page is read.

  python3 crates/lab/scripts/site_cv.py [--folds 5] [--only K] [--keep DIR] [--methods suffix,align,forest,subtree]
                                        [--dump PAGES.jsonl]  (each page: site, fold, gold, both texts)
                                        [--extract-args="--content-decide block"]  (both runs)

CHAFF and CHAFF_LAB name the binaries (default target/release/...).
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

LAB = os.environ.get("CHAFF_LAB", str(site_eval.REPO / "target" / "release" / "chaff-lab"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--only", type=int)
    ap.add_argument("--keep", help="folder to keep the fold models in")
    ap.add_argument("--methods", default="suffix,align,forest,subtree")
    ap.add_argument("--min-site-pages", type=int, default=5)
    ap.add_argument("--extract-args", default="",
                    help="extra arguments for chaff extract, both runs (e.g. --content-decide block)")
    ap.add_argument("--dump", help="write each scored page's site, gold and both texts here (JSON Lines)")
    a = ap.parse_args()
    folds = [a.only] if a.only else range(1, a.folds + 1)
    pairs = {"page-level": [], "site-aware": []}
    per_site = {}
    pages = {}
    with tempfile.TemporaryDirectory(prefix="chaff-site-cv-") as tmp:
        models = Path(a.keep) if a.keep else Path(tmp)
        models.mkdir(parents=True, exist_ok=True)
        for k in folds:
            model = models / f"fold{k}.json"
            if not (model.exists() and (models / f"fold{k}.ids").exists()):
                # The same call content_cv.py makes, so a kept folder serves both scripts.
                subprocess.run([LAB, "train-content", "--holdout", f"{k}/{a.folds}",
                                "--holdout-ids", str(models / f"fold{k}.ids"), "-o", str(model)],
                               check=True, stderr=subprocess.DEVNULL)
            learn, scored = site_eval.load("dragnet", a.min_site_pages, f"{k}/{a.folds}")
            root = Path(tmp) / f"pages{k}"
            names = site_eval.layout(learn, root)
            gold = {p.id: p.gold for p in scored}
            site_of = {p.id: p.site for p in scored}
            for label, methods in [("page-level", None), ("site-aware", a.methods)]:
                texts = site_eval.extract(root, methods, "learn", tmp, model, a.extract_args.split())
                got = {names[f]: t for f, t in texts.items() if f in names}
                for i in gold:
                    pairs[label].append((gold[i], got.get(i, "")))
                    page = pages.setdefault(i, {"id": i, "site": site_of[i], "fold": k, "gold": gold[i]})
                    page[label] = got.get(i, "")
                    per_site.setdefault(site_of[i], {}).setdefault(label, []).append((gold[i], got.get(i, "")))
            print(f"fold {k}: {len(scored)} pages, {len({p.site for p in scored})} sites", flush=True)
    for label, ps in pairs.items():
        s = site_eval.score.score(ps, "shingle4")
        print(f"{label:<12} 4-gram F1 {s['f1']:.3f} (P {s['p']:.3f} R {s['r']:.3f}) over {len(ps)} pages")
    if a.dump:
        with open(a.dump, "w") as f:
            for page in pages.values():
                f.write(json.dumps(page) + "\n")
    ok = 0
    for site, by in sorted(per_site.items()):
        f = {lab: site_eval.score.score(ps, "shingle4")["f1"] for lab, ps in by.items()}
        ok += f["site-aware"] >= f["page-level"] - 0.01
        print(f"  {site:<40} page-level {f['page-level']:.3f}  site-aware {f['site-aware']:.3f}")
    print(f"sites where site-aware >= page-level - 0.01: {ok} of {len(per_site)}")


if __name__ == "__main__":
    main()

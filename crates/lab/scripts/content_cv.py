"""Domain-disjoint cross-validation of the content model on wcxb-dev, through the commands a
user runs: for each fold, `chaff-lab train-content --holdout K/N` fits a model on every
training set minus that fold's domains, then `chaff extract --content-model` extracts the
held-out pages (one process, one thread, as ../shared/tools/run_anchors.py runs chaff), and
the reference scorer (../shared/tools/score.py) scores all folds together: WCXB word F1 (mean
per page), per page type, the with/without snippet rates and 4-gram shingle F1.

  python3 crates/lab/scripts/content_cv.py [--folds 5] [--only K] [-- extra train-content args]

Training pages never include the held-out fold; no test set is read.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402
import score  # noqa: E402
import run_anchors  # noqa: E402

LAB = os.environ.get("CHAFF_LAB", str(REPO / "target" / "release" / "chaff-lab"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--only", type=int, help="run one fold only (quicker, for exploration)")
    ap.add_argument("--keep", help="folder to keep the fold models in (with no training arguments, a "
                    "model kept there with its ids, as site_cv.py also writes them, is reused)")
    ap.add_argument("--extract-args", default="", help="extra arguments for chaff extract")
    ap.add_argument("train_args", nargs="*", help="extra arguments for chaff-lab train-content")
    a = ap.parse_args()
    pages = {p.id: p for p in datasets.load("wcxb-dev")}
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="content-cv-"))
    work.mkdir(parents=True, exist_ok=True)
    folds = [a.only] if a.only else range(1, a.folds + 1)
    scored, preds = [], []
    for k in folds:
        model, ids = work / f"fold{k}.json", work / f"fold{k}.ids"
        cmd = [LAB, "train-content", "--holdout", f"{k}/{a.folds}", "--holdout-ids", str(ids),
               "-o", str(model), *a.train_args]
        if a.keep and not a.train_args and model.exists() and ids.exists():
            print(f"fold {k}: the kept model {model}", flush=True)
        else:
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"fold {k}: train-content failed: {r.stderr[-800:]}")
        held = [pages[i] for i in ids.read_text().split() if i in pages]
        texts, secs, errors = run_anchors.run_chaff(
            held, ["--content-model", str(model), *a.extract_args.split()])
        f1 = score.wcxb_word_f1([(p.gold, t) for p, t in zip(held, texts)])
        print(f"fold {k}: {len(held)} pages, WCXB F1 {f1:.3f}, {len(errors)} without output",
              flush=True)
        scored.extend(held)
        preds.extend(texts)
    pairs = [(p.gold, t) for p, t in zip(scored, preds)]
    f1 = score.wcxb_word_f1(pairs)
    s4 = score.score(pairs, "shingle4")
    w, wo = score.snippet_rates(scored, preds)
    print(f"all: {len(scored)} pages  WCXB F1 {f1:.3f}  4-gram F1 {s4['f1']:.3f} "
          f"(P {s4['p']:.3f} R {s4['r']:.3f})  with {w:.3f}  without {wo:.3f}")
    for kind, v in score.per_type(scored, preds).items():
        print(f"  {kind:14s} {v['n']:4d}  {v['f1']:.3f}")


if __name__ == "__main__":
    main()

"""--favor-precision and --favor-recall: how their points were chosen, and what they do.

  python3 crates/lab/scripts/favor_eval.py --choose [--keep DIR] [--folds 1,3]   # held-out training pages
  python3 crates/lab/scripts/favor_eval.py                                      # the Dragnet test split

--choose: the Dragnet training split's sites dealt to 5 folds (as site_cv.py does); each
fold's pages are extracted by a content model trained without that fold
(`chaff-lab train-content --holdout K/5`, under nice; about 8 CPU minutes each) through
`chaff-lab favor` (the facade's Extractor, as `chaff extract --content-model` runs it) at node
thresholds 0.1 ... 0.9, with the block-max decision at 0.1 ... 0.6, and with hysteresis
(`KIND:HIGH:LOW`: a run of text nodes at or above LOW, consecutive in document order, kept
when it holds one at or above HIGH) for HIGH 0.3, 0.4, 0.5 and LOW 0.02 ... 0.25 under both
decisions; the folds read are scored together by ../shared/tools/score.py (4-gram shingles).
The rule: favor-precision is the lowest node threshold that raises precision by 0.035 over
the default (node:0.4) with F1 within 0.02 of the default's (none: say so); favor-recall the setting of highest recall whose F1 stays within 0.02
of the default's. Then the shipping flags themselves (`chaff extract --content-model FOLD`,
default, --favor-precision, --favor-recall) on the same pages. No test page is read.

Without --choose: the shipping binary's default, --favor-precision and --favor-recall on the
Dragnet test split, one run each, as ../shared/tools/run_anchors.py runs chaff.
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
import run_anchors  # noqa: E402

LAB = os.environ.get("CHAFF_LAB", str(site_eval.REPO / "target" / "release" / "chaff-lab"))
THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85,
              0.9]
NICE = os.environ.get("FAVOR_NICE", "19")
LOWS = [0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.25]


def line(name, s):
    print(f"{name:<28} P {s['p']:.4f}  R {s['r']:.4f}  F1 {s['f1']:.4f}", flush=True)


def settings():
    """Every setting swept on the held-out folds, as `chaff-lab favor --setting` names them."""
    out = [f"node:{t}" for t in THRESHOLDS]
    out += [f"block-max:{t}" for t in THRESHOLDS if t <= 0.6]
    out += [f"{kind}:{high}:{low}" for kind in ("node", "block-max") for high in (0.3, 0.4, 0.5)
            for low in LOWS if low < high]
    return out


def choose(keep, folds):
    names = settings()
    texts = {name: {} for name in names}
    flags = {"default": (), "--favor-precision": ("--favor-precision",),
             "--favor-recall": ("--favor-recall",)}
    shipped = {name: [] for name in flags}
    train = [p for p in datasets.dragnet(None) if p.meta.get("split") == "train" and p.site]
    env = dict(os.environ, RAYON_NUM_THREADS=os.environ.get("RAYON_NUM_THREADS", "2"))
    with tempfile.TemporaryDirectory(prefix="chaff-favor-") as tmp:
        models = Path(keep) if keep else Path(tmp)
        models.mkdir(parents=True, exist_ok=True)
        for k in folds:
            model = models / f"fold{k}.json"
            if not model.exists():
                subprocess.run(["nice", "-n", NICE, LAB, "train-content", "--holdout", f"{k}/5",
                                "-o", str(model)], check=True, stderr=subprocess.DEVNULL)
            out = Path(tmp) / f"fold{k}.jsonl"
            subprocess.run(["nice", "-n", NICE, LAB, "favor", "--model", str(model), "--holdout",
                            f"{k}/5", "--setting", ",".join(names), "-o", str(out)], check=True, env=env)
            for row in map(json.loads, filter(None, out.read_text(encoding="utf-8").split("\n"))):
                texts[row["setting"]][row["id"]] = row["text"]
            held = [p for p in train if site_eval.fold_of(p.site, 5) == k - 1]
            for name, args in flags.items():
                preds, _, _ = run_anchors.run_chaff(held, ("--content-model", str(model), *args))
                shipped[name] += [(p.gold, x) for p, x in zip(held, preds)]
    gold = {p.id: p.gold for p in train}
    scores = {name: score.score([(gold[i], t) for i, t in by_id.items()], "shingle4")
              for name, by_id in texts.items()}
    for name, s in scores.items():
        line(name, s)
    base = scores["node:0.4"]
    precise = next((n for n in names if n.startswith("node") and n.count(":") == 1
                    and scores[n]["p"] >= base["p"] + 0.035 and scores[n]["f1"] >= base["f1"] - 0.02),
                   None)
    recall = max((n for n in names if scores[n]["f1"] >= base["f1"] - 0.02), key=lambda n: scores[n]["r"])
    print(f"favor-precision: {precise}; favor-recall: {recall}")
    print("the shipping flags on the same held-out pages (chaff extract --content-model FOLD):")
    for name, pairs in shipped.items():
        line(name, score.score(pairs, "shingle4"))


def report():
    pages = datasets.load("dragnet-test")
    for name, args in [("default", ()), ("--favor-precision", ("--favor-precision",)),
                       ("--favor-recall", ("--favor-recall",))]:
        preds, _, _ = run_anchors.run_chaff(pages, args)
        line(name, score.score([(p.gold, x) for p, x in zip(pages, preds)], "shingle4"))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--choose", action="store_true")
    ap.add_argument("--keep", help="folder for the fold models (reused when present)")
    ap.add_argument("--folds", default="1,2,3,4,5", help="the held-out folds to read (of 5)")
    a = ap.parse_args()
    choose(a.keep, [int(k) for k in a.folds.split(",")]) if a.choose else report()

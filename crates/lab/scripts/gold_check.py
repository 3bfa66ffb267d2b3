"""How the reference loader's gold text (../shared/tools/datasets.py) differs from the gold as
each set's own format defines it, and what that does to every extractor's score.

chaff's Rust readers (`chaff_eval`, written out by `chaff-lab eval --dataset D --write-gold`)
read the formats as their manifests state them: a CleanEval or CleanPortalEval gold file
opens with a `URL:` header line (after blank lines in all 71 CleanPortalEval files, after a
byte-order mark in 76 of CleanEval's), its block markers `<p>`, `<h>`, `<l>` may stand
inside a line and in upper case, and a Dragnet file's comments start at a delimiter line that
23 files spell with a typo; some Dragnet files are UTF-16. The reference loader strips the header only from the very first line, markers
only at a line's start in lower case, splits Dragnet only at the exact delimiter, and reads
UTF-16 as Windows-1252. This script lists the pages where the two readings' words differ,
then scores saved predictions (`run_anchors.py SET --preds DIR`) against both, with the
reference scorer (`score.py`) in both cases: the figures of record stay the reference
tools' own; the second column says how much of each tool's score the reading costs.

  CHAFF_LAB=target/release/chaff-lab /tmp/anchors/bin/python crates/lab/scripts/gold_check.py \\
      cleanportaleval --preds DIR [--pages] [--sites]

SET is cleanportaleval, dragnet-test or cleaneval (its final split), as run_anchors.py names
them, or dragnet for site_eval.py's `--preds` of Dragnet (its test pages). Each predictions
file is scored over the pages it holds.
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
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402
import score  # noqa: E402

LAB = os.environ.get("CHAFF_LAB", str(REPO / "target" / "release" / "chaff-lab"))
# the name predictions are filed under -> (the reference loader's set, chaff-lab's data set,
# the split the reference loader keeps)
SETS = {
    "cleanportaleval": ("cleanportaleval", "cleanportaleval", None),
    "dragnet-test": ("dragnet-test", "dragnet", "test"),
    "dragnet": ("dragnet-test", "dragnet", "test"),
    "cleaneval": ("cleaneval", "cleaneval", "final"),
}


def chaff_gold(name):
    """{file stem: gold text} as chaff reads the set."""
    _, dataset, split = SETS[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gold.jsonl"
        args = [LAB, "eval", "--dataset", dataset, "--write-gold", str(out)]
        if split:
            args += ["--split", split]
        subprocess.run(args, check=True)
        gold = {}
        for line in out.read_text().split("\n"):
            if not line.strip():
                continue
            page = json.loads(line)
            gold[Path(page["html_path"]).name.removesuffix(".html.gz")] = page["gold_text"]
        return gold


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("--preds", help="run_anchors.py's --preds folder")
    ap.add_argument("--pages", action="store_true", help="list each differing page")
    ap.add_argument("--sites", action="store_true",
                    help="also score, per extractor, each site that holds a differing page")
    a = ap.parse_args()
    pages = [p for p in datasets.load(SETS[a.set][0]) if p.gold is not None]
    ours = chaff_gold(a.set)
    missing = [p.id for p in pages if p.id not in ours]
    if missing:
        sys.exit(f"{len(missing)} pages have no gold as chaff reads the set: {missing[:5]}")
    differ = []
    for p in pages:
        ref, own = score.words(p.gold), score.words(ours[p.id])
        if ref != own:
            differ.append((p.id, len(ref), len(own)))
    differing = {d[0] for d in differ}
    print(f"{a.set}: {len(pages)} pages; the two readings' words differ on {len(differ)}")
    if a.pages:
        for pid, n_ref, n_own in differ:
            print(f"  {pid:32} reference {n_ref:7} words   as the format defines {n_own:7}")
    if not a.preds:
        return
    print("\n| extractor | 4-gram F1, reference gold (P / R) | the format's gold (P / R) |")
    print("|---|---|---|")
    for f in sorted(Path(a.preds).glob(f"{a.set}.*.json")):
        name = f.name[len(a.set) + 1 : -len(".json")]
        preds = json.loads(f.read_text())
        held = [p for p in pages if p.id in preds]
        ref = score.score([(p.gold, preds[p.id]) for p in held])
        own = score.score([(ours[p.id], preds[p.id]) for p in held])
        print(f"| {name} ({len(held)} pages) | {ref['f1']:.3f} ({ref['p']:.3f} / {ref['r']:.3f}) "
              f"| {own['f1']:.3f} ({own['p']:.3f} / {own['r']:.3f}) |")
        if a.sites:
            touched = sorted({p.site for p in held if p.id in differing and p.site})
            for site in touched:
                of = [p for p in held if p.site == site]
                r = score.score([(p.gold, preds[p.id]) for p in of])["f1"]
                o = score.score([(ours[p.id], preds[p.id]) for p in of])["f1"]
                print(f"|   {site} ({len(of)} pages) | {r:.3f} | {o:.3f} |")


if __name__ == "__main__":
    main()

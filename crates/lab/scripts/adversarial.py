"""The hostile inputs of the hardening issue (`chaff-lab adversarial`), each given to chaff and
to the other extractors in a process of its own under a time limit: wall time, peak resident
memory and outcome per input and extractor, as a Markdown table. The others get the HTML
inputs only (the gzip bomb and the WARC files are chaff's input handling).

  python3 crates/lab/scripts/adversarial.py [--small] [--timeout 30] [--only chaff,trafilatura]

chaff runs as `chaff extract -q FILE`; the Python extractors as ../shared/tools/run_anchors.py
calls them (the anchors venv's python, PYTHON=...), rs-trafilatura and dom_smoothie through
rs-anchors (RS_ANCHORS=...). Time and memory from /usr/bin/time, start-up included.
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
CHAFF = os.environ.get("CHAFF", str(REPO / "target" / "release" / "chaff"))
LAB = os.environ.get("CHAFF_LAB", str(REPO / "target" / "release" / "chaff-lab"))
PYTHON = os.environ.get("PYTHON", "/tmp/anchors/bin/python")
RS_ANCHORS = os.environ.get("RS_ANCHORS", "/tmp/rs-anchors/target/release/rs-anchors")
PY = ["trafilatura", "readability-lxml", "resiliparse"]
RS = ["rs-trafilatura", "dom-smoothie"]


def timed(cmd, timeout, stdin=None):
    """(seconds, peak MB, exit status or 'killed', stderr's last line or rs-anchors' error)."""
    with tempfile.NamedTemporaryFile() as t, tempfile.TemporaryFile() as out:
        full = ["/usr/bin/time", "-f", "%e %M", "-o", t.name, "timeout", "-s", "KILL", str(timeout), *cmd]
        r = subprocess.run(full, stdin=stdin, stdout=out, stderr=subprocess.PIPE)
        text = Path(t.name).read_text().split()
        out.seek(0)
        first = out.readline()
    if stdin is not None and first.startswith(b"{"):
        error = json.loads(first).get("error")
        if error:
            return float(text[-2]), int(text[-1]) / 1024, 1, error
    secs, kb = (float(text[-2]), int(text[-1])) if len(text) >= 2 else (float("nan"), 0)
    err = r.stderr.decode("utf-8", "replace").strip().splitlines()
    status = "killed" if r.returncode in (124, 137, -9) or (secs >= timeout - 0.5) else r.returncode
    # chaff says why on its first line; a Python traceback on its last.
    why = (err[0] if cmd[0] == CHAFF else err[-1]) if err else ""
    return secs, kb / 1024, status, why


def cell(secs, mb, status, err, limit):
    if status == "killed":
        return f"> {limit} s, killed"
    outcome = "ok" if status == 0 else ("error: " + err[:70] if err else f"exit {status}")
    return f"{secs:.2f} s, {mb:.0f} MB, {outcome}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--only")
    a = ap.parse_args()
    names = ["chaff", *PY, *RS]
    if a.only:
        names = [n for n in names if n in a.only.split(",")]
    with tempfile.TemporaryDirectory(prefix="chaff-adversarial-") as tmp:
        listing = subprocess.run([LAB, "adversarial", "-o", tmp] + (["--small"] if a.small else []),
                                 check=True, capture_output=True, text=True).stdout
        inputs = [line.split("\t") for line in listing.splitlines()]
        print("| input | size | " + " | ".join(names) + " |")
        print("|---|---|" + "---|" * len(names))
        for name, path, what in inputs:
            size = Path(path).stat().st_size
            row = []
            for ex in names:
                html = path.endswith(".html")
                if ex == "chaff":
                    r = timed([CHAFF, "extract", "-q", path], a.timeout)
                elif not html:
                    row.append("n/a")
                    continue
                elif ex in PY:
                    code = ("import sys; sys.path.insert(0, sys.argv[1]); import run_anchors; "
                            "run_anchors.EXTRACTORS[sys.argv[2]](open(sys.argv[3], 'rb').read(), None)")
                    r = timed([PYTHON, "-c", code, str(SHARED / "tools"), ex, path], a.timeout)
                else:
                    page = Path(tmp) / "page.jsonl"
                    text = Path(path).read_bytes().decode("utf-8", "replace")
                    page.write_text(json.dumps({"id": name, "html": text, "url": None}) + "\n")
                    with open(page, "rb") as f:
                        r = timed([RS_ANCHORS, ex], a.timeout, stdin=f)
                row.append(cell(*r, a.timeout))
            print(f"| {name} ({what}) | {size / (1 << 20):.1f} MiB | " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()

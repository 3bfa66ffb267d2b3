"""The README's Python section runs: its python code blocks, in order, in one namespace, in a
folder holding the example site and a crawl.warc.gz of it. They run in a Python process of
their own: Spark's JVM resolves relative paths against the folder the process started it in,
so in this process, after another test had started Spark, `out.parquet` was written there."""

import gzip
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, unavailable
from warcs import response_record


def blocks():
    text = (REPO / "README.md").read_text()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_python_section_has_the_five_calls():
    code = "".join(blocks())
    for call in ("chaff.extract(", "chaff.bare_extraction(", "chaff.Extractor(",
                 ".extract_many(", "chaff.learn(", ".save(", "chaff.read_warc(",
                 "ChaffExtractor(", "from chaff.spark import run"):
        assert call in code, call


def test_the_readme_examples_run(tmp_path):
    code = blocks()
    assert len(code) == 3
    needs = {1: ("datatrove", "datatrove"), 2: ("pyspark", "pyspark")}
    for i, (module, package) in needs.items():
        try:
            __import__(module)
        except ImportError:
            unavailable(f"the README's {package} example needs pip install {package}")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        unavailable("the README's Spark example needs a Java runtime")
    os.symlink(REPO / "examples", tmp_path / "examples")
    pages = sorted((REPO / "examples" / "site").glob("page-*.html"))
    with open(tmp_path / "crawl.warc.gz", "wb") as f:
        for p in pages:
            f.write(gzip.compress(response_record(f"https://www.leckewire.net/{p.stem}",
                                                  p.read_bytes())))
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    run = subprocess.run([sys.executable, "-c", "\n".join(code)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    out = run.stdout
    assert out.count("https://www.leckewire.net/page-") == len(pages)
    assert (tmp_path / "site.profile.json").is_file()
    assert (tmp_path / "out.parquet").is_dir()

"""chaff.integrations.datatrove.ChaffExtractor inside a small datatrove pipeline."""

import json
import pickle

import pytest

import chaff
from conftest import unavailable

try:
    import datatrove  # noqa: F401
except ImportError:
    datatrove = None


class Collect:
    """A last pipeline step that writes each document's id and text as a JSON line."""

    def __init__(self, path):
        self.path = path

    def __call__(self, data, rank=0, world_size=1):
        with open(self.path, "w") as f:
            for doc in data:
                f.write(json.dumps({"id": doc.id, "text": doc.text}) + "\n")
                yield doc


@pytest.fixture(scope="module")
def block():
    if datatrove is None:
        unavailable("datatrove is not installed (pip install datatrove)")
    from chaff.integrations.datatrove import ChaffExtractor

    return ChaffExtractor


def test_chaff_extractor_in_a_datatrove_pipeline(block, site_pages, tmp_path):
    from datatrove.data import Document
    from datatrove.executor import LocalPipelineExecutor

    docs = [Document(text=html.decode(), id=str(i), metadata={"url": url})
            for i, (html, url) in enumerate(site_pages)]
    docs.append(Document(text="<html><body></body></html>", id="empty", metadata={}))
    out = tmp_path / "out.jsonl"
    LocalPipelineExecutor(
        pipeline=[docs, block(timeout=10), Collect(out)],
        tasks=1, logging_dir=str(tmp_path / "logs"),
    ).run()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == [str(i) for i in range(len(site_pages))]  # empty page dropped
    expected = [chaff.extract(html.decode(), favor_precision=True) for html, _ in site_pages]
    assert [r["text"] for r in rows] == expected
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    assert any("chaff" in json.dumps(s) for s in stats)


def test_the_block_keeps_the_trafilatura_block_contract(block, article):
    ex = block()
    assert ex.favour_precision and ex.deduplicate and not ex.include_images
    assert ex.extract("") == ""
    assert ex.extract(article) == chaff.extract(article, favor_precision=True)
    assert block(favour_precision=False).extract(article) == chaff.extract(article)
    md = block(favour_precision=False, output_format="markdown").extract(article)
    assert md == chaff.extract(article, output_format="markdown")
    with pytest.raises(NotImplementedError):
        block(include_images=True)
    with pytest.raises(ValueError):
        block(output_format="xml")
    # It travels to datatrove's worker processes by pickling, without its extractor.
    ex.extract(article)
    again = pickle.loads(pickle.dumps(ex))
    assert again._extractor is None and again.extract(article) == ex.extract(article)

"""How consistently WCXB's gold Markdown marks the structure the pages' markup states: the
ceiling of `markdown_structure` precision for any writer that renders the same markup the
same way on every page.

For every element of a kind whose text the gold keeps (its words appear, as a run, in the
gold's words), the script asks whether the gold writes it as that kind of Markdown:

* headings: `<h1>`..`<h6>` of two words or more, counted when the gold has a heading with
  those words (any level);
* list items: `<li>` without nested lists, of five words or more, counted when the gold has
  a list item with those words;
* table cells: `<td>`/`<th>` of two words or more in a data table (two rows and two
  columns at least, no table inside), counted when the gold has a cell with those words;
* code lines: the lines of each `<pre>` the gold keeps, counted when the gold has the line
  inside a fence.

A writer that marks every such element precisely as the markup says, on a perfect
extraction, gets at most the printed share right among the elements it marks: its
precision for that kind, and so its F1, is bounded by it. Pages are parsed with lxml; run it
with the anchors venv's Python (../shared/tools/README.md):

  /path/to/anchors/bin/python crates/lab/scripts/md_gold_ceiling.py
"""
import os
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(SHARED / "tools"))
import datasets  # noqa: E402
import score  # noqa: E402
from lxml import html as lxml_html  # noqa: E402


def words(s):
    return " ".join(score.words(s))


def kept(text, gold_words, least):
    """The element's words if there are at least `least` of them and the gold keeps them."""
    w = words(text)
    if len(w.split()) < least or f" {w} " not in gold_words:
        return None
    return w


def is_data_table(table):
    if table.find(".//table") is not None:
        return False
    rows = table.findall(".//tr")
    return len(rows) >= 2 and max(len([c for c in r if c.tag in ("td", "th")]) for r in rows) >= 2


def tally(page, seen):
    gold = page.meta["markdown"]
    marked = score.markdown_elements(gold)
    gold_words = f" {words(gold)} "
    heading_texts = {t for _, t in marked["heading"]}
    try:
        tree = lxml_html.fromstring(page.html)
    except Exception:  # a page lxml cannot read is left out of the tally
        return
    for h in tree.xpath("//h1|//h2|//h3|//h4|//h5|//h6"):
        w = kept(h.text_content(), gold_words, 2)
        if w:
            seen["heading"][w in heading_texts] += 1
    for li in tree.iter("li"):
        if li.find(".//li") is None:
            w = kept(li.text_content(), gold_words, 5)
            if w:
                seen["item"][marked["item"].get(w, 0) > 0] += 1
    for table in tree.iter("table"):
        if is_data_table(table):
            for cell in table.iter("td", "th"):
                w = kept(cell.text_content(), gold_words, 2)
                if w:
                    seen["cell"][marked["cell"].get(w, 0) > 0] += 1
    for pre in tree.iter("pre"):
        text = pre.text_content()
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        w = words(text)
        if lines and w and w[:60] in gold_words:
            for line in lines:
                seen["code"][marked["code"].get(line, 0) > 0] += 1


def main():
    pages = [p for p in datasets.load("wcxb-dev") if p.meta.get("markdown")]
    seen = {k: Counter() for k in ("heading", "item", "cell", "code")}
    for page in pages:
        tally(page, seen)
    print(f"wcxb-dev: {len(pages)} pages with gold Markdown")
    for kind, c in seen.items():
        total = c[True] + c[False]
        share = c[True] / total if total else 0.0
        print(f"{kind:<8} kept by the gold {total:>6}  marked as {kind} {c[True]:>6}  share {share:.3f}")


if __name__ == "__main__":
    main()

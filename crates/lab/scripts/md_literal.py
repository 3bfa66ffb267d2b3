"""How much of chaff's Markdown a CommonMark reader shows as marks instead of reading it as
structure: asterisks, backslashes and backticks left in the rendered text, and inline or block
HTML it finds, over wcxb-dev's pages (`chaff extract --format markdown`, one run).

The pages' own text holds some of each (a rating "4.5*", a Windows path); the same counts over
chaff's plain text are printed beside them for that reason.

  pip install markdown-it-py        # the reader (CommonMark, with GFM tables)
  python3 crates/lab/scripts/md_literal.py   # CHAFF=path/to/chaff, default target/release/chaff
"""
import sys
from pathlib import Path

from markdown_it import MarkdownIt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from md_eval import chaff_markdown, datasets  # noqa: E402


def shown(markdown):
    """(text a reader shows, count of HTML it found) of one Markdown document."""
    reader = MarkdownIt("commonmark").enable("table")
    text, html = [], 0
    for token in reader.parse(markdown):
        if token.type == "html_block":
            html += 1
        for child in token.children or []:
            if child.type == "text":
                text.append(child.content)
            elif child.type == "html_inline":
                html += 1
    return "".join(text), html


def main():
    pages = list(datasets.load("wcxb-dev"))
    md, plain = chaff_markdown(pages), chaff_markdown(pages, "text")
    read = [shown(m) for m in md]
    count = lambda texts, c: sum(t.count(c) for t in texts)  # noqa: E731
    texts = [t for t, _ in read]
    print(f"wcxb-dev: {len(pages)} pages")
    print("| | asterisks | backslashes | backticks | HTML found |")
    print("|---|---|---|---|---|")
    print(f"| Markdown, as read | {count(texts, '*')} | {count(texts, chr(92))} | {count(texts, '`')} "
          f"| {sum(h for _, h in read)} |")
    print(f"| plain text | {count(plain, '*')} | {count(plain, chr(92))} | {count(plain, '`')} | |")


if __name__ == "__main__":
    main()

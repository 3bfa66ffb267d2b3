"""Shared helpers: where the repository, the shared data and the chaff binaries are, and how a
test that cannot run here says so (a printed skip outside CI, a failure in CI)."""

import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
IN_CI = bool(os.environ.get("CI"))
SITE = REPO / "examples" / "site"


def unavailable(reason: str) -> None:
    """Skips with a printed reason outside CI; fails in CI, where everything must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI is set: this test must run)")
    print(f"skipped: {reason}")
    pytest.skip(reason)


def shared_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("CHAFF_SHARED", REPO.parent / "shared"))


def binary(name: str) -> pathlib.Path:
    """A binary of the workspace (`chaff`, `chaff-lab`): $CHAFF_BIN_DIR, target/release, then
    target/debug, then PATH."""
    dirs = [os.environ.get("CHAFF_BIN_DIR"), REPO / "target" / "release", REPO / "target" / "debug"]
    for d in dirs:
        if d and (pathlib.Path(d) / name).is_file():
            return pathlib.Path(d) / name
    found = shutil.which(name)
    if found:
        return pathlib.Path(found)
    unavailable(f"no {name} binary (build it with cargo build -p "
                f"{'chaff-cli' if name == 'chaff' else name})")
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def site_pages():
    """The bundled example site: (html bytes, url) per page, in file order."""
    pages = []
    for path in sorted(SITE.glob("page-*.html")):
        pages.append((path.read_bytes(), f"https://www.leckewire.net/{path.stem}"))
    assert len(pages) >= 10
    return pages


ARTICLE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Council votes to close the old bridge | Example News</title>
<meta name="author" content="Jane Reporter">
<meta property="og:site_name" content="Example News">
<meta property="article:published_time" content="2024-03-05T10:00:00Z">
<meta name="description" content="The old bridge closes for a year of repairs.">
</head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav>
<article><h1>Council votes to close the old bridge</h1>
<p>The council voted on Monday to close the old bridge for repairs. Engineers found cracks in
two of its arches last spring, and the work is expected to take most of the coming year.</p>
<p>Traffic will be sent over the ring road, which the council says can carry the extra load.
Shop owners near the bridge asked for help with the months of lost trade, and the council
promised a fund for them before the summer.</p>
<p>The bridge was built in 1868 and carries about nine thousand cars a day. A footpath beside
it stays open while the engineers work, except on four weekends when cranes lift the new
stones into place.</p></article>
<footer>Copyright Example News. All rights reserved. <a href="/privacy">Privacy</a></footer>
</body></html>"""


@pytest.fixture
def article() -> str:
    return ARTICLE

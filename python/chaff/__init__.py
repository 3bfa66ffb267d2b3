"""chaff: a web page's main content, with what chaff learned of its site.

The calls follow trafilatura's names where the meaning is the same (``extract``,
``bare_extraction``, ``output_format``, ``url``, ``include_comments``, ``with_metadata``,
``favor_precision``, ``favor_recall``), so a trafilatura user switches by changing the import::

    >>> import chaff
    >>> html = ("<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article>"
    ...         "<h1>Council votes to close the old bridge</h1><p>The council voted on Monday to "
    ...         "close the old bridge for repairs. Engineers found cracks in two of its arches "
    ...         "last spring, and the work is expected to take most of the coming year.</p>"
    ...         "</article><footer>Copyright Example News</footer></body></html>")
    >>> "cracks in two of its arches" in chaff.extract(html)
    True

Everything is computed in Rust with the GIL released; objects are immutable and thread-safe,
and the module keeps no state a call could change.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _chaff
from ._chaff import (
    ChaffError,
    Extraction,
    InputError,
    MethodError,
    Profile,
    ProfileError,
    WarcError,
    WarcRecord,
    site_of,
)

__version__ = _chaff.__version__

__all__ = [
    "ChaffError",
    "DEFAULT_SITE_METHODS",
    "Extraction",
    "Extractor",
    "InputError",
    "MethodError",
    "OUTPUT_FORMATS",
    "Profile",
    "ProfileError",
    "WarcError",
    "WarcRecord",
    "bare_extraction",
    "extract",
    "learn",
    "learn_sites",
    "read_warc",
    "site_of",
]

Html = Union[str, bytes]
Page = Union[Html, Tuple[Html, Optional[str]]]

#: The site methods learned when none are named (those the content model weighs).
DEFAULT_SITE_METHODS: List[str] = list(_chaff.DEFAULT_SITE_METHODS)

#: The output formats chaff writes, by trafilatura's names (``text``, ``md`` and ``tei`` are
#: accepted too). ``xml`` and ``xmltei`` use trafilatura's element names.
OUTPUT_FORMATS = ("txt", "markdown", "html", "json", "xml", "xmltei")

#: trafilatura's formats chaff does not write, with what to use instead.
_UNSUPPORTED_FORMATS = {
    "csv": "chaff writes no CSV; use bare_extraction() and the csv module",
    "python": "use bare_extraction() for a dict",
}


def _check_format(output_format: str) -> str:
    if output_format in _UNSUPPORTED_FORMATS:
        raise ValueError(f"output_format={output_format!r}: {_UNSUPPORTED_FORMATS[output_format]}")
    if output_format not in OUTPUT_FORMATS + ("text", "md", "tei"):
        raise ValueError(
            f"output_format={output_format!r} is not one chaff writes ({', '.join(OUTPUT_FORMATS)})"
        )
    return output_format


def _check_options(favor_precision: bool, favor_recall: bool) -> Optional[str]:
    """The content model's setting for trafilatura's favor options."""
    if favor_precision and favor_recall:
        raise ValueError("favor_precision and favor_recall exclude each other")
    if favor_precision:
        return "precision"
    if favor_recall:
        return "recall"
    return None


def _front_matter(doc: Extraction) -> str:
    """trafilatura's metadata header for ``with_metadata=True`` in text and Markdown."""
    d = doc.to_dict()
    lines = ["---"]
    for key in ("title", "author", "url", "hostname", "description", "sitename", "date",
                "categories", "tags", "language"):
        value = d.get(key)
        if isinstance(value, list):
            value = ",".join(value)
        if value:
            lines.append(f"{key}: {value}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def _output(doc: Extraction, output_format: str, with_metadata: bool) -> Union[str, Dict[str, Any]]:
    if output_format == "json":
        return doc.record()
    body = doc.render(output_format)
    if with_metadata and output_format in ("txt", "text", "markdown", "md"):
        return _front_matter(doc) + body
    return body


class Extractor:
    """Turns pages into their main content, with the profiles of their sites when it has them.

    Build it once and reuse it: it is immutable and thread-safe, and every call releases the
    GIL.

    Args:
        profiles: a folder of profiles (as ``chaff learn --per-site`` writes them), or a list
            of :class:`Profile` objects; each page gets its own site's profile, and page-level
            extraction when its site has none.
        profile: one :class:`Profile` applied to every page, whatever its site.
        methods: which of a profile's site methods to apply (default: all it has).
        favor_precision: keep less: fewer boilerplate words, more content missed.
        favor_recall: keep more of the content, and more boilerplate with it.
        include_comments: keep readers' comments in the main text (default: left out, as
            ``chaff extract`` leaves them; trafilatura keeps them by default). Either way they
            are found and given apart (``Extraction.comments``, ``"comments"`` in dicts).
        record_metadata: records (``record()``, JSON output) carry ``metadata`` and
            ``language`` (default). False leaves both out and works neither out, about a
            seventh of a page's time, as ``chaff extract --no-metadata``; ``metadata()`` and
            ``to_dict()`` still read them when asked.
        include_links, include_images: Markdown, HTML, XML and TEI keep links and images
            (default; trafilatura leaves both out by default), their relative addresses
            made absolute against the page's URL (or its ``<base href>``). False writes a
            link as its text, and leaves images out, as ``chaff extract --no-links
            --no-images``.

    Raises:
        ProfileError: a profile that cannot be read or is invalid.
        MethodError: an unknown method, or a profile whose model does not compile.
    """

    def __init__(
        self,
        profiles: Union[None, str, "os.PathLike[str]", Sequence[Profile]] = None,
        *,
        profile: Optional[Profile] = None,
        methods: Optional[Sequence[str]] = None,
        favor_precision: bool = False,
        favor_recall: bool = False,
        include_comments: bool = False,
        record_metadata: bool = True,
        include_links: bool = True,
        include_images: bool = True,
    ) -> None:
        favor = _check_options(favor_precision, favor_recall)
        self._include_comments = include_comments
        common = dict(profile=profile, favor=favor, include_comments=include_comments,
                      record_metadata=record_metadata, links=include_links,
                      images=include_images,
                      site_methods=list(methods) if methods is not None else None)
        if profiles is None or isinstance(profiles, (str, os.PathLike)):
            self._inner = _chaff.Extractor(profiles_dir=profiles, **common)
        else:
            self._inner = _chaff.Extractor(profiles=list(profiles), **common)

    def extract(
        self,
        html: Html,
        url: Optional[str] = None,
        output_format: str = "txt",
        *,
        with_metadata: bool = False,
        include_comments: Optional[bool] = None,
    ) -> Union[str, Dict[str, Any]]:
        """One page's main content, as :func:`chaff.extract` gives it. ``include_comments``
        is the extractor's (given when it was built); another value here is refused."""
        _check_format(output_format)
        if include_comments is not None and include_comments != self._include_comments:
            raise ValueError(
                f"include_comments={include_comments}: this Extractor was built with "
                f"include_comments={self._include_comments}; build one with the other"
            )
        if not with_metadata:
            # Straight to the output, as `chaff extract` prints it.
            if output_format == "json":
                return self._inner.extract(html, url).record()
            return self._inner.extract_to(html, url, output_format)
        return _output(self._inner.extract(html, url), output_format, with_metadata)

    def extract_page(
        self,
        html: Html,
        url: Optional[str] = None,
        *,
        source: Optional[str] = None,
        charset: Optional[str] = None,
    ) -> Extraction:
        """One page's :class:`Extraction` (text, ``markdown()``, ``html()``, ``record()``,
        ``to_dict()``, ``title``, ``language``, ``confidence``...).

        ``source`` names the page in its record (default: its URL); ``charset`` is the one its
        transport declared, as a :class:`WarcRecord` carries it, so that
        ``extract_page(r.html, r.url, source=r.source, charset=r.charset)`` gives what
        ``chaff extract crawl.warc.gz`` gives for that record."""
        return self._inner.extract(html, url, source, charset)

    def bare_extraction(self, html: Html, url: Optional[str] = None) -> Dict[str, Any]:
        """One page as a dict, as :func:`chaff.bare_extraction` gives it."""
        return self._inner.extract(html, url).to_dict()

    def extract_many(
        self,
        pages: Iterable[Page],
        threads: int = 1,
        *,
        batch: Optional[int] = None,
        errors: str = "raise",
        prepare_records: bool = False,
    ) -> Iterator[Union[Extraction, ChaffError]]:
        """Extracts many pages on ``threads`` threads with the GIL released, yielding an
        :class:`Extraction` per page in input order.

        Args:
            pages: an iterable of ``html``, ``(html, url)`` or ``(html, url, charset)``. Pages
                stream through the pool: each is started as soon as it is read, and at most
                ``batch`` pages (default 4 per thread) are read and not yet yielded, so an
                endless stream works and the pool works on the next pages while the caller
                handles one. A page whose result is in is yielded once one more page has
                been read, not when the window is full: a generator that fetches its pages
                slowly delays each result by at most one page.
            threads: the size of the pool (kept by the extractor for the next call).
            errors: ``"raise"``: a page that fails raises its error where it stands;
                ``"yield"``: the exception object is yielded in its place and the pages
                after it follow.
            prepare_records: also work out each page's metadata and language on the pool,
                for a caller that reads :meth:`Extraction.record`, ``to_dict()`` or
                ``metadata()`` (off by default: a caller that wants only the text would pay
                for it).
        """
        return self._inner.extract_many(pages, threads, batch, errors, prepare_records)

    @property
    def sites(self) -> List[str]:
        """The sites with a profile, sorted."""
        return self._inner.sites()

    @property
    def warnings(self) -> List[str]:
        """What building noticed and did not refuse (a model of an unknown method)."""
        return self._inner.warnings()


@functools.lru_cache(maxsize=None)
def _default(favor: Optional[str], include_comments: bool, include_links: bool = True,
             include_images: bool = True) -> Extractor:
    """The page-level extractor of the module-level calls, built on first use (immutable)."""
    return Extractor(favor_precision=favor == "precision", favor_recall=favor == "recall",
                     include_comments=include_comments, include_links=include_links,
                     include_images=include_images)


def extract(
    html: Html,
    url: Optional[str] = None,
    output_format: str = "txt",
    *,
    with_metadata: bool = False,
    include_comments: bool = False,
    favor_precision: bool = False,
    favor_recall: bool = False,
    include_links: bool = True,
    include_images: bool = True,
) -> Union[str, Dict[str, Any]]:
    """The main content of one page with the built-in methods (no site profile).

    Args:
        html: the page, as ``bytes`` in any encoding (sniffed from a BOM, ``<meta>`` or the
            bytes) or as ``str`` (read as it is, whatever its ``<meta charset>`` says).
        url: the page's URL, when known (names its site; metadata reads it).
        output_format: ``"txt"`` (plain text), ``"markdown"``, ``"html"``: a ``str``;
            ``"json"``: the page's record as a dict, as ``chaff extract --format json``
            prints it (provenance, title, text, confidence, metadata, language, methods).
        with_metadata: for ``txt`` and ``markdown``, put a metadata header (``---`` lines
            with title, author, url, date...) before the text, as trafilatura does; ``json``
            always carries the metadata.
        include_comments: keep readers' comments in the main text (default: left out, as
            ``chaff extract`` does; trafilatura keeps them by default).
        favor_precision, favor_recall: move the content model's threshold to keep less
            boilerplate, or more content.
        include_links, include_images: ``markdown``, ``html``, ``xml`` and ``xmltei`` keep
            links and images (default; trafilatura leaves both out by default).

    Returns:
        The content (empty when the page has none), or the record for ``json``.

    Raises:
        InputError: the page cannot be parsed (binary data, too large).
        ValueError: an output format or option chaff does not support.
        TypeError: ``html`` is neither ``str`` nor ``bytes``.
    """
    favor = _check_options(favor_precision, favor_recall)
    ex = _default(favor, include_comments, include_links, include_images)
    return ex.extract(html, url, output_format, with_metadata=with_metadata)


def bare_extraction(
    html: Html,
    url: Optional[str] = None,
    *,
    include_comments: bool = False,
    favor_precision: bool = False,
    favor_recall: bool = False,
) -> Dict[str, Any]:
    """One page as a dict, as trafilatura's ``bare_extraction`` gives it.

    Keys: ``url``, ``hostname``, ``site`` (chaff's site key), ``profile`` (the site whose
    profile was applied, or None), ``title``, ``author`` (authors joined by ``"; "``),
    ``date`` (published, as the page states it), ``modified``, ``sitename``,
    ``description``, ``categories``, ``tags``, ``image``, ``license``, ``pagetype``,
    ``language``, ``confidence`` (0 to 1), ``no_content`` (why there is none, or None),
    ``text`` and ``comments`` (what readers wrote under the page, or None). A value the page does not give is None (an empty list for the lists).
    """
    favor = _check_options(favor_precision, favor_recall)
    return _default(favor, include_comments).bare_extraction(html, url)


def learn(
    pages: Iterable[Page],
    methods: Optional[Sequence[str]] = None,
    *,
    site: Optional[str] = None,
) -> Profile:
    """Learns one site's :class:`Profile` from its pages (an iterable of ``html`` or
    ``(html, url)``), with the named site methods (``suffix``, ``align``, ``forest``,
    ``subtree``; default :data:`DEFAULT_SITE_METHODS`). Without ``site`` all pages must be
    of one site (pages without a URL are); with it, only that site's pages are learned from.
    What learning has to say besides the profile comes as a ``UserWarning`` each: pages that
    could not be read, and pages that resemble none of the site's templates (extraction reads
    those page by page).

    Raises:
        MethodError: an unknown or page-level method, or a method that could not learn.
        InputError: no usable page, or pages of several sites without ``site``.
    """
    return _chaff.learn(pages, list(methods) if methods is not None else None, site)


def learn_sites(
    pages: Iterable[Page],
    methods: Optional[Sequence[str]] = None,
    *,
    min_pages: int = 2,
) -> Tuple[List[Profile], List[str]]:
    """Learns a profile for every site of the pages with at least ``min_pages`` pages, as
    ``chaff learn --per-site`` does; returns the profiles and notes (pages that failed,
    sites skipped and why)."""
    return _chaff.learn_sites(pages, list(methods) if methods is not None else None, min_pages)


def read_warc(
    source: Union[str, "os.PathLike[str]", bytes],
    *,
    name: Optional[str] = None,
    errors: str = "raise",
) -> Iterator[Union[WarcRecord, ChaffError]]:
    """The HTML pages of a WARC file (plain or gzip), as :class:`WarcRecord` objects with
    ``url``, ``html`` (bytes), ``headers`` (dict), ``source`` (``file#offset``) and
    ``charset``.

    ``source`` is a path or the file's bytes (``name`` then names it in sources and errors).
    Records that are not HTML pages (requests, metadata, images, redirects) are skipped.

    Args:
        errors: ``"raise"``: damage (a truncated file, a corrupt gzip member) raises
            :class:`WarcError` after every record before it, and nothing follows; a bad
            record raises and reading goes on past it if you call ``next`` again.
            ``"yield"``: each error is yielded as the exception object; ``"skip"``: errors
            are dropped.
    """
    if errors == "skip":
        return (r for r in _chaff.read_warc(source, name, "yield") if not isinstance(r, Exception))
    return _chaff.read_warc(source, name, errors)

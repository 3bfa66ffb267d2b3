"""chaff on Spark: WARC files in, one Parquet row per page out, page by page or site by site.

Two modes:

* ``page``: each partition of records goes through ``Extractor.extract_many`` with one
  :class:`chaff.Extractor` per executor process (built on first use, reused by every task the
  process runs).
* ``site``: records are keyed by their site (:func:`chaff.site_of` of the URL); each site with
  at least ``min_site_pages`` pages is learned from its pages (a deterministic sample of
  ``sample_cap`` pages above that), then all its pages are extracted with the profile; smaller
  sites are extracted page by page. A site with more than ``split_above`` pages is split by
  the first segment of its URL paths (``/news/...``, ``/sport/...``), each part learned on its
  own, so no task holds a giant site. Finding those sites costs one extra pass that reads
  only the WARC records' URLs.

WARC paths may be local (``/data/x.warc.gz``, ``file:///...``), read by the executors as
streams, or on any Hadoop file system (``hdfs://``, ``s3a://``, ...), read with
``SparkContext.binaryFiles`` (a whole file per task) and parsed from bytes.

A record that fails (a damaged WARC, a page that does not parse) becomes a row whose ``error``
says why; it never fails the task. Columns: ``url, site, title, author, date, language, text,
markdown, confidence, error``, then ``source`` (``file#offset``), ``profile`` (the site
whose profile was applied, or null) and ``comments`` (the readers' comments, apart from the
text, or null). Options choose whether the comments stay in the text too
(``include_comments``) and whether the Markdown keeps links and images (``include_links``,
``include_images``; relative addresses are made absolute against the page's URL).

    from pyspark.sql import SparkSession
    from chaff.spark import run
    spark = SparkSession.builder.master("local[2]").getOrCreate()
    stats = run(spark, ["crawl.warc.gz"], "out.parquet", mode="site")
"""

from __future__ import annotations

import collections
import os
import time
import zlib
from dataclasses import asdict, dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple
from urllib.parse import urlsplit

import chaff

#: The columns of the output, in order.
COLUMNS = ["url", "site", "title", "author", "date", "language", "text", "markdown",
           "confidence", "error", "source", "profile", "comments"]

#: A record as it travels between stages: url, html bytes, source, charset, error message.
Record = Tuple[Optional[str], Optional[bytes], str, Optional[str], Optional[str]]


@dataclass(frozen=True)
class Options:
    """How the job extracts; shipped to the executors with the tasks."""

    mode: str = "page"
    #: Sites with fewer pages are extracted page by page (site mode).
    min_site_pages: int = 5
    #: Sites are learned from at most this many of their pages (site mode).
    sample_cap: int = 200
    #: Sites with more pages are split by the first segment of their URL paths (site mode;
    #: 0: never, and no pass to count pages per site).
    split_above: int = 20000
    #: Site methods to learn (default: chaff.DEFAULT_SITE_METHODS).
    methods: Optional[Tuple[str, ...]] = None
    favor_precision: bool = False
    favor_recall: bool = False
    #: Threads per task for extraction (a task has one core by default).
    threads: int = 1
    #: Write the Markdown column (it costs a second rendering per page).
    markdown: bool = True
    #: Keep readers' comments in the text and Markdown too (the comments column has them
    #: either way).
    include_comments: bool = False
    #: Write links in the Markdown (else each link as its text).
    include_links: bool = True
    #: Write images in the Markdown.
    include_images: bool = True
    #: Tasks reading each local WARC, each keeping every n-th record (0: as many as make
    #: Spark's default parallelism, at least 1): a single large WARC keeps every core busy
    #: without a shuffle, at the cost of reading it n times (reading is a small part of the
    #: cost of extraction).
    stripes: int = 0


def schema():
    """The output's Spark schema."""
    from pyspark.sql.types import FloatType, StringType, StructField, StructType

    return StructType([
        StructField(name, FloatType() if name == "confidence" else StringType(), True)
        for name in COLUMNS
    ])


# One extractor per executor process and configuration, built on first use. Executors reuse
# their Python workers, so every task a worker runs shares it; it is immutable.
_EXTRACTORS: Dict[Tuple[bool, ...], chaff.Extractor] = {}


def _settings(opts: Options) -> Dict[str, bool]:
    """The extractor's keyword arguments that :class:`Options` sets."""
    return {"favor_precision": opts.favor_precision, "favor_recall": opts.favor_recall,
            "include_comments": opts.include_comments, "include_links": opts.include_links,
            "include_images": opts.include_images}


def _extractor(opts: Options) -> chaff.Extractor:
    settings = _settings(opts)
    key = tuple(settings.values())
    ex = _EXTRACTORS.get(key)
    if ex is None:
        ex = chaff.Extractor(**settings)
        _EXTRACTORS[key] = ex
    return ex


def is_local(path: str) -> bool:
    """Whether a WARC path is read straight from the executors' file system."""
    scheme = urlsplit(path).scheme
    return scheme in ("", "file") or (len(scheme) == 1 and os.name == "nt")


def _local_path(path: str) -> str:
    return urlsplit(path).path if path.startswith("file:") else path


def records_of(source, name: str) -> Iterator[Record]:
    """The records of one WARC (a local path, or its bytes named ``name``); errors as records."""
    try:
        reader = chaff.read_warc(source, name=name, errors="yield")
        for r in reader:
            if isinstance(r, Exception):
                yield (None, None, name, None, str(r))
            else:
                yield (r.url, r.html, r.source, r.charset, None)
    except chaff.ChaffError as e:  # the file cannot be opened
        yield (None, None, name, None, str(e))
    except OSError as e:
        yield (None, None, name, None, f"{name}: {e}")


def _stripe(task: Tuple[str, int, int]) -> Iterator[Record]:
    path, k, n = task
    for i, record in enumerate(records_of(_local_path(path), path)):
        if i % n == k:
            yield record


def read_records(sc, paths: Sequence[str], stripes: int = 0):
    """An RDD of :data:`Record` tuples from WARC paths: local paths read by the executors
    (``stripes`` tasks per file, see :attr:`Options.stripes`), others through
    ``binaryFiles`` (a task per file)."""
    local = [p for p in paths if is_local(p)]
    remote = [p for p in paths if not is_local(p)]
    parts = []
    if local:
        n = stripes or max(1, sc.defaultParallelism // len(local))
        tasks = [(p, k, n) for p in local for k in range(n)]
        parts.append(sc.parallelize(tasks, len(tasks)).flatMap(_stripe))
    if remote:
        parts.append(sc.binaryFiles(",".join(remote))
                     .flatMap(lambda kv: records_of(kv[1], kv[0])))
    if not parts:
        raise ValueError("no WARC paths given")
    return parts[0] if len(parts) == 1 else sc.union(parts)


def _row(doc, url: Optional[str], source: str, opts: Options) -> tuple:
    if isinstance(doc, Exception):
        return _error_row(url, source, str(doc))
    d = doc.to_dict()
    markdown = doc.markdown() if opts.markdown else None
    return (url, d["site"], d["title"], d["author"], d["date"], d["language"], d["text"],
            markdown, float(d["confidence"]), None, source, d["profile"], d["comments"])


def _error_row(url: Optional[str], source: str, message: str) -> tuple:
    site = chaff.site_of(url) if url else None
    return (url, site, None, None, None, None, None, None, None, message, source, None, None)


def _extract(ex: chaff.Extractor, records: Iterable[Record], opts: Options) -> Iterator[tuple]:
    """Rows of records extracted with ``ex``, in order; record errors become error rows."""
    pending: collections.deque = collections.deque()
    failed: List[tuple] = []

    def pages():
        for url, html, source, charset, error in records:
            if error is not None:
                failed.append(_error_row(url, source, error))
                continue
            pending.append((url, source))
            yield (html, url, charset)

    # Rows read the metadata and language. With a pool of several threads they are worked
    # out there; with one, this thread works them out while the pool extracts the next page
    # (`python/bench/many.py --records [--prepare]`: +3% to +12% with 2 threads, -12% to
    # -16% with 1).
    prepare = opts.threads > 1
    for doc in ex.extract_many(pages(), opts.threads, errors="yield", prepare_records=prepare):
        url, source = pending.popleft()
        while failed:
            yield failed.pop(0)
        yield _row(doc, url, source, opts)
    yield from failed


def page_level(records: Iterable[Record], opts: Options) -> Iterator[tuple]:
    """One partition, page by page, with the executor's extractor."""
    return _extract(_extractor(opts), records, opts)


def group_key(url: Optional[str], large: frozenset) -> str:
    """The group of a page in site mode: its site, and for a large site, the first segment
    of its URL path too (``example.org /news``)."""
    site = chaff.site_of(url) if url else ""
    if site in large:
        segment = urlsplit(url).path.lstrip("/").split("/", 1)[0]
        return f"{site} /{segment}"
    return site


def _sample(pages: List[Record], cap: int) -> List[Record]:
    """At most ``cap`` pages, chosen by a hash of their URLs (the same on every run)."""
    if len(pages) <= cap:
        return pages
    return sorted(pages, key=lambda p: zlib.crc32((p[0] or p[2]).encode()))[:cap]


def site_level(key: str, pages: Iterable[Record], opts: Options) -> Iterator[tuple]:
    """One site (or part of one): learned from its pages, then extracted with the profile."""
    pages = list(pages)
    site = key.split(" ", 1)[0]
    ex = _extractor(opts)
    if site and len(pages) >= opts.min_site_pages:
        sample = _sample(pages, opts.sample_cap)
        try:
            profile = chaff.learn([(html, url, charset) for url, html, _, charset, _ in sample],
                                  methods=opts.methods, site=site)
            ex = chaff.Extractor(profile=profile, **_settings(opts))
        except chaff.ChaffError as e:
            # The site's pages are still extracted, page by page; the reason is logged.
            print(f"chaff: {key}: not learned ({e}); extracted page by page", flush=True)
    return _extract(ex, pages, opts)


def rows(sc, paths: Sequence[str], opts: Options):
    """The RDD of output rows (tuples in :data:`COLUMNS` order)."""
    records = read_records(sc, paths, opts.stripes)
    if opts.mode == "page":
        return records.mapPartitions(lambda part: page_level(part, opts))
    if opts.mode != "site":
        raise ValueError(f"mode must be 'page' or 'site', not {opts.mode!r}")
    large: frozenset = frozenset()
    if opts.split_above > 0:
        urls = read_records(sc, paths, opts.stripes).map(lambda r: chaff.site_of(r[0]) if r[0] else "")
        counts = urls.countByValue()
        large = frozenset(s for s, n in counts.items() if s and n > opts.split_above)

    def keyed(r: Record):
        # Failed records and pages without a URL (no site to learn) go page by page.
        return ("" if r[4] is not None or r[0] is None else group_key(r[0], large), r)

    return records.map(keyed).groupByKey().flatMap(lambda kv: site_level(kv[0], kv[1], opts))


def run(spark, paths: Sequence[str], output: str, mode: str = "page", **options: Any) -> Dict[str, Any]:
    """Extracts the pages of WARC files into Parquet at ``output`` (overwritten) and returns
    what it did: ``rows``, ``errors``, ``pages`` (rows without error), ``seconds``, ``mode``.

    ``options`` are the fields of :class:`Options` (``min_site_pages``, ``sample_cap``,
    ``split_above``, ``methods``, ``favor_precision``, ``favor_recall``, ``threads``,
    ``markdown``, ``stripes``, ``include_comments``, ``include_links``, ``include_images``).
    """
    opts = Options(mode=mode, **options)
    if opts.methods is not None:
        opts = Options(**{**asdict(opts), "methods": tuple(opts.methods)})
    started = time.perf_counter()
    rdd = rows(spark.sparkContext, list(paths), opts)
    spark.createDataFrame(rdd, schema()).write.mode("overwrite").parquet(output)
    seconds = time.perf_counter() - started
    from pyspark.sql import functions as F

    df = spark.read.parquet(output)
    counts = df.agg(F.count(F.lit(1)).alias("rows"),
                    F.count("error").alias("errors")).collect()[0]
    return {"mode": mode, "rows": counts["rows"], "errors": counts["errors"],
            "pages": counts["rows"] - counts["errors"], "seconds": seconds}

"""chaff as a datatrove extractor block: a drop-in for datatrove's ``Trafilatura`` block.

Replace ``Trafilatura(favour_precision=True)`` by ``ChaffExtractor(favour_precision=True)`` in
a pipeline; the block's contract is datatrove's: ``extract(text) -> str``, the page's HTML in,
its main text out (empty: the document is dropped), run in datatrove's sandbox process with
its per-document ``timeout``.

Needs ``pip install datatrove``; importing this module without it raises ImportError.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.logging import logger

import chaff


class ChaffExtractor(BaseExtractor):
    """chaff's main-content extraction as a datatrove pipeline step.

    Args:
        favour_precision: keep less boilerplate at the cost of some content (as datatrove's
            Trafilatura block, on by default); chaff's content model moves its threshold.
        include_images: not implemented (as in datatrove's Trafilatura block): True raises
            NotImplementedError.
        timeout: seconds per document, enforced by datatrove's sandbox.
        deduplicate: accepted for compatibility; chaff has no in-page deduplication of
            repeated segments, so True is reported once in the log and has no effect.
            (Across pages, ``chaff extract --dedup`` or datatrove's dedup blocks do this.)
        favour_recall: keep more of the content, and more boilerplate with it.
        output_format: ``"txt"`` (default) or ``"markdown"``: what ``doc.text`` becomes.
        profiles: a folder of site profiles or a list of :class:`chaff.Profile`; a page's
            site is then named by the URL it declares (datatrove hands the block only the
            HTML).
    """

    name = "🌾 chaff"
    _requires_dependencies = []

    def __init__(
        self,
        favour_precision: bool = True,
        include_images: bool = False,
        timeout: float = 1,
        deduplicate: bool = True,
        *,
        favour_recall: bool = False,
        output_format: str = "txt",
        profiles: Union[None, str, "os.PathLike[str]", Sequence[chaff.Profile]] = None,
    ):
        super().__init__(timeout)
        if include_images:
            raise NotImplementedError("include_images: chaff extracts no images")
        if output_format not in ("txt", "markdown"):
            raise ValueError(f"output_format must be 'txt' or 'markdown', not {output_format!r}")
        if favour_precision and favour_recall:
            raise ValueError("favour_precision and favour_recall exclude each other")
        self.favour_precision = favour_precision
        self.favour_recall = favour_recall
        self.include_images = include_images
        self.deduplicate = deduplicate
        self.output_format = output_format
        self.profiles = profiles
        self._extractor: Optional[chaff.Extractor] = None
        self._told_dedup = False

    def _get(self) -> chaff.Extractor:
        # Built in the process that extracts (datatrove's sandbox), not pickled into it.
        if self._extractor is None:
            self._extractor = chaff.Extractor(
                self.profiles,
                favor_precision=self.favour_precision,
                favor_recall=self.favour_recall,
            )
        return self._extractor

    def extract(self, text: str) -> str:
        """The main text of one page's HTML (empty when it has none)."""
        if self.deduplicate and not self._told_dedup:
            self._told_dedup = True
            logger.info("chaff: deduplicate=True has no effect (chaff has no in-page deduplication)")
        if not text or not text.strip():
            return ""
        doc = self._get().extract_page(text)
        return doc.text if self.output_format == "txt" else doc.markdown()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_extractor"] = None
        return state

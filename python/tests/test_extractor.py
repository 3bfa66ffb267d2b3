"""chaff.Extractor, extract_many (order, errors, threads, the GIL), chaff.learn and profiles."""

import json
import threading
import time

import pytest

import chaff
from conftest import SITE


def test_extractor_gives_what_extract_gives(site_pages):
    ex = chaff.Extractor()
    for html, url in site_pages[:3]:
        assert ex.extract(html, url) == chaff.extract(html, url)
        assert ex.extract(html, url, "json") == chaff.extract(html, url, "json")
        assert ex.bare_extraction(html, url) == chaff.bare_extraction(html, url)


def test_extract_many_keeps_input_order(site_pages):
    ex = chaff.Extractor()
    expected = [ex.extract(h, u) for h, u in site_pages]
    for threads, batch in ((1, None), (2, None), (3, 2), (2, 100)):
        docs = list(ex.extract_many(iter(site_pages), threads=threads, batch=batch))
        assert [d.text for d in docs] == expected
        assert [d.url for d in docs] == [u for _, u in site_pages]


def test_extract_many_prepares_records_on_the_pool_with_the_same_result(site_pages):
    ex = chaff.Extractor()
    plain = [d.record_json() for d in ex.extract_many(site_pages, threads=2)]
    prepared = [d.record_json()
                for d in ex.extract_many(site_pages, threads=2, prepare_records=True)]
    assert prepared == plain
    assert all(json.loads(r)["title"] for r in prepared)


def test_extract_many_takes_bare_pages_and_str():
    ex = chaff.Extractor()
    pages = ["<p>" + f"Page number {i} tells its own story in plain words. " * 4 + "</p>"
             for i in range(5)]
    docs = list(ex.extract_many(pages + [p.encode() for p in pages], threads=2))
    assert [d.text for d in docs[:5]] == [d.text for d in docs[5:]]
    assert all(d.url is None for d in docs)
    assert "number 3" in docs[3].text


def test_extract_many_errors_raise_in_place_or_are_yielded(site_pages):
    ex = chaff.Extractor()
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    pages = [site_pages[0], (png, "https://x.org/img"), site_pages[1], (7, None)]
    it = ex.extract_many(pages, threads=2)
    assert next(it).url == site_pages[0][1]
    with pytest.raises(chaff.InputError):
        next(it)
    assert next(it).url == site_pages[1][1]
    with pytest.raises(TypeError):
        next(it)
    assert list(it) == []
    out = list(ex.extract_many(pages, threads=2, errors="yield"))
    assert [type(x).__name__ for x in out] == ["Extraction", "InputError", "Extraction", "TypeError"]
    with pytest.raises(ValueError):
        ex.extract_many(pages, errors="ignore")


def test_extract_many_from_several_python_threads(site_pages):
    ex = chaff.Extractor()
    expected = [ex.extract(h, u) for h, u in site_pages]
    results, failures = {}, []

    def work(k):
        try:
            pages = site_pages[k % 3:] + site_pages[:k % 3]
            got = [d.text for d in ex.extract_many(pages, threads=2, batch=3)]
            results[k] = got == expected[k % 3:] + expected[:k % 3]
        except Exception as e:  # reported below
            failures.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert results == {k: True for k in range(6)}


def test_extract_many_reads_no_further_than_its_window(site_pages):
    """Pages stream: each call reads at most until `batch` pages are started and not yet
    yielded, so an endless input is read no further than that."""
    ex = chaff.Extractor()
    read = [0]

    def endless():
        while True:
            assert read[0] < 1000, "read far past the window"
            read[0] += 1
            yield site_pages[(read[0] - 1) % len(site_pages)]

    it = ex.extract_many(endless(), threads=2, batch=3)
    for yielded in range(1, 13):
        doc = next(it)
        assert doc.url == site_pages[(yielded - 1) % len(site_pages)][1]
        # At most the window less the page just yielded (fewer when a result was in
        # before the window was full).
        assert read[0] - yielded <= 2, (yielded, read[0])


def test_extract_many_yields_a_finished_page_before_a_slow_input_fills_the_window(
    site_pages,
):
    """A generator that fetches its pages slowly: a page whose result is in is yielded
    once one more page has been read, not when `batch` pages have been."""
    ex = chaff.Extractor()
    yielded = [0]
    seen_when_asked = []

    def slow():
        yield site_pages[0]
        # Page 0 is extracted meanwhile (milliseconds).
        time.sleep(1.0)
        yield site_pages[1]
        seen_when_asked.append(yielded[0])
        yield site_pages[2]

    urls = []
    for doc in ex.extract_many(slow(), threads=2, batch=8):
        urls.append(doc.url)
        yielded[0] += 1
    assert urls == [p[1] for p in site_pages[:3]]
    # The third page was asked for only after the first had been yielded.
    assert seen_when_asked == [1]


def test_extraction_releases_the_gil(site_pages):
    """A Python thread keeps running while extract_many waits for its pages."""
    ex = chaff.Extractor()
    # Enough pages that the wait lasts many switch intervals: at four copies the pages took
    # 17 ms once extraction got faster, under the 20 ms this test needs to tell the two apart.
    pages = site_pages * 16
    ticks = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.05)
        it = ex.extract_many(pages, threads=1, batch=len(pages))
        before = ticks[0]
        started = time.perf_counter()
        # list() calls __next__ from C, so the counter runs only while a call waits
        # with the GIL released.
        docs = list(it)
        elapsed = time.perf_counter() - started
        during = ticks[0] - before
    finally:
        stop.set()
        t.join()
    assert len(docs) == len(pages) and all(d.text for d in docs)
    assert elapsed > 0.02
    # Holding the GIL would leave the counter a switch interval (5 ms) of turns at most.
    assert during > 1000, (during, elapsed)


def test_learn_a_profile_save_it_and_extract_with_it(site_pages, tmp_path):
    profile = chaff.learn(site_pages, methods=["suffix", "forest"])
    assert isinstance(profile, chaff.Profile)
    assert profile.site == "leckewire.net"
    assert profile.pages == len(site_pages)
    assert profile.methods == ["forest", "suffix"]
    path = tmp_path / "site.json"
    profile.save(path)
    again = chaff.Profile.load(path)
    assert again.to_json() == profile.to_json() == path.read_text()
    assert json.loads(profile.to_json())["format"] == "chaff-profile"
    ex = chaff.Extractor(profile=profile)
    html, url = site_pages[0]
    doc = ex.extract_page(html, url)
    assert doc.profile == "leckewire.net"
    assert doc.text
    # A folder of profiles picks each page's own site.
    folder = tmp_path / "profiles"
    folder.mkdir()
    profile.save(folder / chaff.Profile.file_name(profile.site))
    by_site = chaff.Extractor(folder)
    assert by_site.sites == ["leckewire.net"]
    assert by_site.extract_page(html, url).profile == "leckewire.net"
    assert by_site.extract_page(html, "https://other.example.com/a").profile is None
    assert chaff.Extractor([profile]).sites == ["leckewire.net"]
    assert chaff.Extractor([profile], methods=["suffix"]).extract(html, url) == \
        chaff.Extractor(profile=profile, methods=["suffix"]).extract(html, url)


def test_learn_with_the_default_methods_and_per_site(site_pages):
    profile = chaff.learn(site_pages)
    assert set(profile.methods) == set(chaff.DEFAULT_SITE_METHODS)
    other = [(h.replace(b"leckewire", b"otherwire"), u.replace("leckewire", "otherwire"))
             for h, u in site_pages[:4]]
    profiles, notes = chaff.learn_sites(site_pages + other + [site_pages[0][0].replace(b"leckewire", b"lonely")],
                                        methods=["suffix"], min_pages=3)
    assert sorted(p.site for p in profiles) == ["leckewire.net", "otherwire.net"]
    assert any("skipped site" in n for n in notes)
    named = chaff.learn(site_pages + other, methods=["suffix"], site="otherwire.net")
    assert named.pages == 4
    # A page of the site unlike the others is learned around, and learning says so.
    stray = (b"<html><body><pre>An old press release, typed as plain text.</pre></body></html>",
             "https://www.leckewire.net/archive/1998")
    with pytest.warns(UserWarning, match=f"1 of its {len(site_pages) + 1} pages resemble none"):
        with_stray = chaff.learn(site_pages + [stray], methods=["suffix"])
    assert with_stray.pages == len(site_pages)


def test_learn_errors(site_pages):
    with pytest.raises(chaff.MethodError, match="no method named"):
        chaff.learn(site_pages, methods=["nope"])
    with pytest.raises(chaff.MethodError, match="page-level"):
        chaff.learn(site_pages, methods=["content"])
    with pytest.raises(chaff.InputError, match="no pages"):
        chaff.learn([], methods=["suffix"])
    other = [(h, u.replace("leckewire", "otherwire")) for h, u in site_pages[:2]]
    with pytest.raises(chaff.InputError, match="2 sites"):
        chaff.learn(site_pages + other, methods=["suffix"])


def test_a_corrupt_profile_is_a_profile_error(site_pages, tmp_path):
    good = chaff.learn(site_pages, methods=["suffix"]).to_json()
    bad = tmp_path / "bad.json"
    bad.write_text(good[: len(good) // 2])
    with pytest.raises(chaff.ProfileError, match="not valid JSON"):
        chaff.Profile.load(bad)
    with pytest.raises(chaff.ProfileError, match="bad.json"):
        chaff.Extractor(tmp_path)
    with pytest.raises(chaff.ProfileError, match="not a chaff profile"):
        chaff.Profile.from_json('{"format": "other"}')
    with pytest.raises(chaff.ProfileError, match="cannot read"):
        chaff.Profile.load(tmp_path / "missing.json")
    with pytest.raises(chaff.ProfileError):
        chaff.Extractor(tmp_path / "no-such-folder")
    # A model that does not compile names its method.
    broken = json.loads(good)
    broken["methods"]["suffix"] = {"expressions": 5}
    with pytest.raises((chaff.MethodError, chaff.ProfileError)):
        chaff.Extractor(profile=chaff.Profile.from_json(json.dumps(broken)))


def test_unknown_favor_and_methods_are_refused():
    with pytest.raises(ValueError):
        chaff.Extractor(favor_precision=True, favor_recall=True)
    with pytest.raises(chaff.MethodError):
        chaff.Extractor(methods=["content"])
    assert SITE.is_dir()

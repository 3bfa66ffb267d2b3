"""Python gives what the `chaff` command gives, byte for byte (the bundled example site)."""

import subprocess

import chaff
from conftest import SITE, binary
from warcs import write_warc


def run(*args) -> bytes:
    return subprocess.run([str(binary("chaff")), *map(str, args)], capture_output=True,
                          check=True).stdout


def test_text_and_markdown_equal_chaff_extract():
    for path in sorted(SITE.glob("page-*.html"))[:5]:
        html = path.read_bytes()
        assert run("extract", "-q", path) == (chaff.extract(html) + "\n").encode()
        md = run("extract", "-q", "--format", "markdown", path)
        assert md == (chaff.extract(html, output_format="markdown") + "\n").encode()


def test_json_records_equal_chaff_extract_on_a_warc(site_pages, tmp_path):
    warc = tmp_path / "site.warc"
    write_warc(warc, site_pages)
    cli = run("extract", "-q", "--format", "json", warc).splitlines()
    ex = chaff.Extractor()
    py = [ex.extract_page(r.html, r.url, source=r.source, charset=r.charset).record_json()
          for r in chaff.read_warc(warc)]
    assert len(cli) == len(site_pages)
    assert cli == [line.encode() for line in py]


def test_a_learned_profile_extracts_as_the_command_line_does(site_pages, tmp_path):
    profile = chaff.learn(site_pages, methods=["suffix"])
    path = tmp_path / "p.json"
    profile.save(path)
    warc = tmp_path / "site.warc"
    write_warc(warc, site_pages)
    cli = run("extract", "-q", "--profile", path, "--format", "json", warc).splitlines()
    ex = chaff.Extractor(profile=chaff.Profile.load(path))
    py = [ex.extract_page(r.html, r.url, source=r.source, charset=r.charset).record_json()
          for r in chaff.read_warc(warc)]
    assert cli == [line.encode() for line in py]
    learned = tmp_path / "cli.json"
    run("learn", "-q", "--method", "suffix", "-o", learned, warc)
    assert chaff.Profile.load(learned).methods == profile.methods

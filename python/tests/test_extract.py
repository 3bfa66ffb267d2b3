"""chaff.extract, chaff.bare_extraction and Extraction: formats, options, inputs, errors."""

import pytest

import chaff


def test_extract_gives_the_main_text_without_the_template(article):
    text = chaff.extract(article)
    assert isinstance(text, str)
    assert "cracks in\ntwo of its arches" in text or "cracks in two of its arches" in text
    assert "Copyright" not in text
    assert "Weather" not in text


def test_formats_follow_trafilatura_names(article):
    md = chaff.extract(article, output_format="markdown")
    html = chaff.extract(article, output_format="html")
    record = chaff.extract(article, url="https://news.example.org/bridge", output_format="json")
    assert "# Council votes" in md
    assert "<p>" in html and "</p>" in html
    assert isinstance(record, dict)
    assert record["url"] == "https://news.example.org/bridge"
    assert record["site"] == "example.org"
    assert record["text"] == chaff.extract(article, url="https://news.example.org/bridge")
    assert list(record)[:6] == ["source", "url", "site", "title", "format", "text"]
    assert record["metadata"]["authors"] == ["Jane Reporter"]
    assert chaff.extract(article, output_format="text") == chaff.extract(article)


def test_xml_and_tei_use_trafilaturas_names(article):
    import xml.etree.ElementTree as ET

    doc = ET.fromstring(chaff.extract(article, url="https://news.example.org/bridge",
                                      output_format="xml"))
    assert doc.tag == "doc" and doc.get("hostname") == "news.example.org"
    assert doc.find("main/head") is not None and doc.find("main/p") is not None
    tei = ET.fromstring(chaff.extract(article, output_format="xmltei"))
    ns = "{http://www.tei-c.org/ns/1.0}"
    assert tei.tag == ns + "TEI"
    assert tei.find(f"{ns}text/{ns}body/{ns}div[@type='entry']/{ns}p") is not None


@pytest.mark.parametrize("fmt", ["csv", "yaml", "python"])
def test_formats_chaff_does_not_write_are_refused(article, fmt):
    with pytest.raises(ValueError, match=fmt):
        chaff.extract(article, output_format=fmt)


def test_bytes_and_str_give_the_same_text(article):
    assert chaff.extract(article.encode("utf-8")) == chaff.extract(article)


def test_str_is_read_as_text_whatever_the_page_declares():
    body = "<p>" + "Café au lait et crème brûlée pour tout le monde ce matin. " * 6 + "</p>"
    page = f'<html><head><meta charset="iso-8859-1"></head><body>{body}</body></html>'
    assert "Café" in chaff.extract(page)
    # The same page as latin-1 bytes is decoded by its declaration.
    assert "Café" in chaff.extract(page.encode("latin-1"))


def test_bare_extraction_is_a_dict_of_the_page(article):
    d = chaff.bare_extraction(article, url="https://news.example.org/bridge")
    for key in ("text", "title", "author", "date", "site", "language", "confidence", "url",
                "hostname", "sitename", "description", "categories", "tags", "profile"):
        assert key in d, key
    assert d["title"] == "Council votes to close the old bridge"
    assert d["author"] == "Jane Reporter"
    assert d["date"].startswith("2024-03-05")
    assert d["sitename"] == "Example News"
    assert d["hostname"] == "news.example.org"
    assert d["site"] == "example.org"
    assert d["language"] == "en"
    assert 0.0 < d["confidence"] <= 1.0
    assert d["profile"] is None
    assert d["text"] == chaff.extract(article, url="https://news.example.org/bridge")


def test_with_metadata_puts_a_header_before_the_text(article):
    out = chaff.extract(article, url="https://news.example.org/b", with_metadata=True)
    head, _, body = out.partition("---\n")[2].partition("---\n")
    assert "title: Council votes to close the old bridge" in head
    assert "author: Jane Reporter" in head
    assert "url: https://news.example.org/b" in head
    assert body == chaff.extract(article, url="https://news.example.org/b")


THREAD = ("<html><body><h1>Council closes the old bridge</h1><p>The council voted on Monday "
          "to close the old bridge for repairs after engineers found cracks in two arches.</p>"
          "<div id=comments><ol class=commentlist><li class=comment><p>I drive over that "
          "bridge every day and it did feel shaky to me.</p></li><li class=comment><p>About "
          "time, the cracks have been there for years.</p></li></ol></div></body></html>")


def test_comments_are_left_out_unless_asked_for():
    assert "feel shaky" not in chaff.extract(THREAD)
    assert "feel shaky" in chaff.extract(THREAD, include_comments=True)
    d = chaff.bare_extraction(THREAD)
    assert "feel shaky" in d["comments"] and "feel shaky" not in d["text"]
    ex = chaff.Extractor(include_comments=True)
    assert "feel shaky" in ex.extract(THREAD)
    with pytest.raises(ValueError, match="include_comments"):
        ex.extract(THREAD, include_comments=False)


LINKED = ("<html><body><article><h1>Council closes the old bridge</h1><p>The council voted on "
          "Monday to close the <a href='/bridge'>old bridge</a> for repairs after engineers "
          "found cracks in two arches. <img src='/arches.jpg' alt='The arches'></p>"
          "</article></body></html>")


def test_links_and_images_can_be_left_out():
    md = chaff.extract(LINKED, output_format="markdown")
    assert "[old bridge](/bridge)" in md and "![The arches](/arches.jpg)" in md
    bare = chaff.extract(LINKED, output_format="markdown", include_links=False,
                         include_images=False)
    assert "close the old bridge for repairs" in bare
    assert "](" not in bare and "arches.jpg" not in bare
    html = chaff.Extractor(include_links=False).extract(LINKED, output_format="html")
    assert "<a " not in html and "arches.jpg" in html
    assert chaff.extract(LINKED, include_links=False) == chaff.extract(LINKED)


def test_exclusive_options_are_refused(article):
    with pytest.raises(ValueError, match="exclude each other"):
        chaff.extract(article, favor_precision=True, favor_recall=True)


def test_favor_moves_the_trade_off(site_pages):
    words = {}
    for favor in ("precision", None, "recall"):
        kw = {"favor_precision": favor == "precision", "favor_recall": favor == "recall"}
        words[favor] = sum(len(chaff.extract(h, u, **kw).split()) for h, u in site_pages)
    assert words["precision"] <= words[None] <= words["recall"]
    assert words["precision"] < words["recall"]


def test_extraction_object(article):
    doc = chaff.Extractor().extract_page(article, "https://news.example.org/bridge")
    assert isinstance(doc, chaff.Extraction)
    assert doc.url == "https://news.example.org/bridge"
    assert doc.source == "https://news.example.org/bridge"
    assert doc.site == "example.org"
    assert doc.title == "Council votes to close the old bridge"
    assert doc.language == "en"
    assert doc.no_content is None
    assert doc.render("markdown") == doc.markdown()
    assert doc.render("html") == doc.html()
    assert doc.metadata()["site_name"] == "Example News"
    assert doc.record() == chaff.extract(article, "https://news.example.org/bridge", "json")
    labelled = doc.record(labels=True)
    assert labelled["nodes"] and "nodes" not in doc.record()
    assert "Extraction" in repr(doc)


def test_a_page_without_content_says_why():
    doc = chaff.Extractor().extract_page("<html><body>   </body></html>")
    assert doc.text == ""
    assert doc.no_content == "empty"
    assert doc.confidence == 0.0
    assert chaff.extract("") == ""


def test_binary_input_is_an_input_error():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
    with pytest.raises(chaff.InputError) as info:
        chaff.extract(png)
    assert isinstance(info.value, chaff.ChaffError)
    assert "\n" not in str(info.value)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="str or bytes"):
        chaff.extract(42)
    with pytest.raises(TypeError):
        chaff.extract(b"<p>x</p>", url=3)


def test_errors_form_a_hierarchy():
    for e in (chaff.InputError, chaff.ProfileError, chaff.WarcError, chaff.MethodError):
        assert issubclass(e, chaff.ChaffError)
    assert issubclass(chaff.ChaffError, Exception)
    assert chaff.ChaffError.__module__ == "chaff"


def test_site_of_names_the_registrable_domain():
    assert chaff.site_of("https://www.bbc.co.uk/news/x") == "bbc.co.uk"
    assert chaff.site_of("http://a.b.example.org:8080/") == "example.org"


def test_records_can_leave_the_metadata_out(article):
    url = "https://news.example.org/a"
    full = chaff.Extractor().extract(article, url, output_format="json")
    bare_ex = chaff.Extractor(record_metadata=False)
    bare = bare_ex.extract(article, url, output_format="json")
    assert "metadata" in full and "language" in full
    assert "metadata" not in bare and "language" not in bare
    assert bare["text"] == full["text"]
    page = bare_ex.extract_page(article, url)
    assert "metadata" not in page.record()
    # Asked for, the metadata is still read.
    assert page.metadata()["page_type"] == full["metadata"]["page_type"]

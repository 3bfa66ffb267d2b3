//! What a page states about itself, in the formats that carry it beside the content: YAML
//! front matter for Markdown, `<head>` elements for HTML. Only fields the page gives are
//! written; nothing is guessed.

use chaff_dom::serialize::{escape_attr, escape_text};
use chaff_meta::Metadata;

/// YAML front matter (`---` lines around `key: value` pairs) for Markdown: the headline,
/// authors, dates, the page's URL and site, description, language, image, tags, categories,
/// licence and page type, each only when known. Scalars are double-quoted with JSON's
/// escapes, which YAML reads the same way.
pub fn front_matter(meta: &Metadata, url: Option<&str>, site: Option<&str>) -> String {
    let mut out = String::from("---\n");
    let url = meta.canonical_url.as_deref().or(url);
    let page_type = meta.page_type.map(chaff_meta::PageType::name);
    let scalars = [
        ("title", meta.title.as_deref()),
        ("published", meta.published.as_deref()),
        ("modified", meta.modified.as_deref()),
        ("url", url),
        ("site", site),
        ("site_name", meta.site_name.as_deref()),
        ("description", meta.description.as_deref()),
        ("language", meta.language.as_deref()),
        ("image", meta.image.as_deref()),
        ("license", meta.license.as_deref()),
        ("page_type", page_type),
    ];
    for (key, value) in scalars {
        if let Some(v) = value {
            out.push_str(key);
            out.push_str(": ");
            out.push_str(&quoted(v));
            out.push('\n');
        }
        if key == "title" {
            list(&mut out, "authors", &meta.authors);
        }
    }
    list(&mut out, "tags", &meta.tags);
    list(&mut out, "categories", &meta.categories);
    out.push_str("---\n\n");
    out
}

fn list(out: &mut String, key: &str, values: &[String]) {
    if values.is_empty() {
        return;
    }
    out.push_str(key);
    out.push_str(":\n");
    for v in values {
        out.push_str("  - ");
        out.push_str(&quoted(v));
        out.push('\n');
    }
}

/// A YAML double-quoted scalar (JSON's string syntax is a subset of it).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The `<head>` of the HTML output: charset, `<title>` (the headline, else the page's
/// title), and a `<meta>` or `<link>` for each field the page states.
pub fn html_head(meta: Option<&Metadata>, page_title: Option<&str>, out: &mut String) {
    html_head_based(meta, page_title, None, out);
}

/// [`html_head`], with a `<base href>` when the content's relative addresses have a base.
pub(crate) fn html_head_based(
    meta: Option<&Metadata>,
    page_title: Option<&str>,
    base: Option<&str>,
    out: &mut String,
) {
    out.push_str("<head><meta charset=\"utf-8\">");
    if let Some(b) = base {
        out.push_str("<base href=\"");
        escape_attr(b, out);
        out.push_str("\">");
    }
    let title = meta.and_then(|m| m.title.as_deref()).or(page_title);
    if let Some(t) = title {
        out.push_str("<title>");
        escape_text(t, out);
        out.push_str("</title>");
    }
    if let Some(m) = meta {
        for a in &m.authors {
            tag(out, "meta", "name", "author", "content", a);
        }
        let named = [
            ("description", m.description.as_deref()),
            ("date", m.published.as_deref()),
            ("last-modified", m.modified.as_deref()),
            ("license", m.license.as_deref()),
            ("page-type", m.page_type.map(chaff_meta::PageType::name)),
        ];
        for (name, value) in named {
            if let Some(v) = value {
                tag(out, "meta", "name", name, "content", v);
            }
        }
        if !m.tags.is_empty() {
            tag(
                out,
                "meta",
                "name",
                "keywords",
                "content",
                &m.tags.join(", "),
            );
        }
        for (property, value) in [
            ("og:site_name", m.site_name.as_deref()),
            ("og:image", m.image.as_deref()),
        ] {
            if let Some(v) = value {
                tag(out, "meta", "property", property, "content", v);
            }
        }
        for c in &m.categories {
            tag(out, "meta", "property", "article:section", "content", c);
        }
        if let Some(u) = &m.canonical_url {
            tag(out, "link", "rel", "canonical", "href", u);
        }
    }
    out.push_str("</head>");
}

/// `<name key="value" attr="v">`, the values escaped.
fn tag(out: &mut String, name: &str, key: &str, value: &str, attr: &str, v: &str) {
    out.push('<');
    out.push_str(name);
    out.push(' ');
    out.push_str(key);
    out.push_str("=\"");
    escape_attr(value, out);
    out.push_str("\" ");
    out.push_str(attr);
    out.push_str("=\"");
    escape_attr(v, out);
    out.push_str("\">");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Metadata {
        Metadata {
            title: Some("Rain \"all\" day".into()),
            authors: vec!["Ann Lee".into(), "Bo \"Ng\" & co".into()],
            published: Some("2024-05-01T09:00:00+02:00".into()),
            language: Some("en-GB".into()),
            tags: vec!["weather".into()],
            page_type: Some(chaff_meta::PageType::Article),
            ..Metadata::default()
        }
    }

    #[test]
    fn front_matter_holds_only_what_the_page_states() {
        assert_eq!(
            front_matter(&meta(), Some("https://a.example/x"), Some("a.example")),
            "---\ntitle: \"Rain \\\"all\\\" day\"\nauthors:\n  - \"Ann Lee\"\n  - \"Bo \\\"Ng\\\" & co\"\n\
             published: \"2024-05-01T09:00:00+02:00\"\nurl: \"https://a.example/x\"\n\
             site: \"a.example\"\nlanguage: \"en-GB\"\npage_type: \"article\"\n\
             tags:\n  - \"weather\"\n---\n\n"
        );
        assert_eq!(
            front_matter(&Metadata::default(), None, None),
            "---\n---\n\n"
        );
    }

    #[test]
    fn the_html_head_escapes_what_it_states() {
        let mut out = String::new();
        html_head(Some(&meta()), Some("Page title"), &mut out);
        assert_eq!(
            out,
            "<head><meta charset=\"utf-8\"><title>Rain \"all\" day</title>\
             <meta name=\"author\" content=\"Ann Lee\">\
             <meta name=\"author\" content=\"Bo &quot;Ng&quot; &amp; co\">\
             <meta name=\"date\" content=\"2024-05-01T09:00:00+02:00\">\
             <meta name=\"page-type\" content=\"article\">\
             <meta name=\"keywords\" content=\"weather\"></head>"
        );
        let mut bare = String::new();
        html_head(None, Some("Page <title>"), &mut bare);
        assert_eq!(
            bare,
            "<head><meta charset=\"utf-8\"><title>Page &lt;title&gt;</title></head>"
        );
    }
}

//! JSON-LD: the schema.org entities of a page's `<script type="application/ld+json">` blocks.
//!
//! Entities are gathered from every block, through arrays, `@graph`s and nested values; the
//! main one is the first of the most specific kind (an article before a product before a
//! plain web page). A block that is not valid JSON is skipped (after one attempt without the
//! comment and CDATA wrappers some sites put around it); the page's other sources still count.

use chaff_dom::{Document, NodeId};
use serde_json::Value;

use crate::{Candidates, PageType, Source};

/// Types by the page type they make, most specific first.
const KINDS: &[(&[&str], PageType)] = &[
    (
        &[
            "NewsArticle",
            "Article",
            "BlogPosting",
            "Report",
            "ScholarlyArticle",
            "OpinionNewsArticle",
            "AnalysisNewsArticle",
            "ReportageNewsArticle",
            "LiveBlogPosting",
            "SocialMediaPosting",
            "Recipe",
            "Review",
        ],
        PageType::Article,
    ),
    (
        &["DiscussionForumPosting", "QAPage", "Question"],
        PageType::Forum,
    ),
    (
        &["TechArticle", "APIReference", "HowTo"],
        PageType::Documentation,
    ),
    (&["Product", "ProductGroup"], PageType::Product),
    (&["CollectionPage", "OfferCatalog"], PageType::Collection),
    (&["ItemList", "SearchResultsPage"], PageType::Listing),
    (
        &[
            "Service",
            "LocalBusiness",
            "ProfessionalService",
            "Organization",
        ],
        PageType::Service,
    ),
];

/// Reads the page's JSON-LD into `c` from its `<script type="application/ld+json">`
/// elements, `scripts` ([`crate::markup::read`]'s walk finds them); returns the page type its
/// main entity states.
pub(crate) fn read(doc: &Document, scripts: &[NodeId], c: &mut Candidates) -> Option<PageType> {
    let blocks: Vec<Value> = scripts
        .iter()
        .filter_map(|&id| parse(&doc.subtree_text(id)))
        .collect();
    let mut entities = Vec::new();
    for v in &blocks {
        collect(v, &mut entities);
    }
    let (main, kind) = main_entity(&entities)?;
    read_entity(main, c, kind);
    for e in &entities {
        if has_type(e, &["WebSite", "Organization"])
            && let Some(n) = str_of(e.get("name"))
        {
            c.add("site_name", Source::JsonLd, n);
        }
    }
    kind
}

fn parse(text: &str) -> Option<Value> {
    let t = text.trim();
    serde_json::from_str(t).ok().or_else(|| {
        let t = t
            .trim_start_matches("<!--")
            .trim_end_matches("-->")
            .trim()
            .trim_start_matches("//<![CDATA[")
            .trim_start_matches("<![CDATA[")
            .trim_end_matches("//]]>")
            .trim_end_matches("]]>")
            .trim();
        serde_json::from_str(t).ok()
    })
}

/// Every object with a `@type`, depth-first, without recursion.
fn collect<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Array(items) => todo.extend(items.iter().rev()),
            Value::Object(map) => {
                if map.contains_key("@type") {
                    out.push(v);
                }
                if let Some(g) = map.get("@graph") {
                    todo.push(g);
                }
                if let Some(m) = map.get("mainEntity") {
                    todo.push(m);
                }
            }
            _ => {}
        }
    }
}

fn types(e: &Value) -> Vec<&str> {
    match e.get("@type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn has_type(e: &Value, names: &[&str]) -> bool {
    types(e).iter().any(|t| {
        let t = t.rsplit(['/', ':']).next().unwrap_or(t);
        names.iter().any(|n| n.eq_ignore_ascii_case(t))
    })
}

fn main_entity<'a>(entities: &[&'a Value]) -> Option<(&'a Value, Option<PageType>)> {
    for (names, kind) in KINDS {
        if let Some(e) = entities.iter().find(|e| has_type(e, names)) {
            return Some((e, Some(*kind)));
        }
    }
    let page = entities.iter().find(|e| has_type(e, &["WebPage"]))?;
    Some((page, None))
}

fn str_of(v: Option<&Value>) -> Option<&str> {
    match v? {
        Value::String(s) => Some(s.as_str()),
        Value::Array(a) => a.iter().find_map(|x| str_of(Some(x))),
        Value::Object(o) => str_of(o.get("@value").or_else(|| o.get("name"))),
        _ => None,
    }
}

fn read_entity(e: &Value, c: &mut Candidates, kind: Option<PageType>) {
    // An organisation's or a web page's `name` is no headline.
    let named = matches!(
        kind,
        Some(PageType::Article | PageType::Forum | PageType::Product | PageType::Documentation)
    );
    let title =
        str_of(e.get("headline")).or_else(|| named.then(|| str_of(e.get("name"))).flatten());
    if let Some(t) = title {
        c.add("title", Source::JsonLd, t);
    }
    for (key, field) in [
        ("datePublished", "published"),
        ("uploadDate", "published"),
        ("dateCreated", "published"),
        ("dateModified", "modified"),
        ("description", "description"),
        ("inLanguage", "language"),
        ("license", "license"),
    ] {
        if let Some(v) = str_of(e.get(key)) {
            c.add(field, Source::JsonLd, v);
        }
    }
    if let Some(url) = image_url(e.get("image").or_else(|| e.get("thumbnailUrl"))) {
        c.add("image", Source::JsonLd, url);
    }
    if let Some(p) = e.get("publisher")
        && let Some(n) = str_of(p.get("name"))
    {
        c.add("site_name", Source::JsonLd, n);
    }
    // An organisation named as author counts only when nothing names a person: it is often
    // the publisher standing in for a byline the page does show.
    let (people, orgs) = authors(e.get("author"));
    c.add_list("authors", Source::JsonLd, people);
    c.add_list("organisation_authors", Source::JsonLd, orgs);
    c.add_list("tags", Source::JsonLd, keywords(e.get("keywords")));
    c.add_list(
        "categories",
        Source::JsonLd,
        keywords(e.get("articleSection")),
    );
}

fn image_url(v: Option<&Value>) -> Option<&str> {
    match v? {
        Value::String(s) => Some(s.as_str()),
        Value::Array(a) => a.iter().find_map(|x| image_url(Some(x))),
        Value::Object(o) => str_of(o.get("url").or_else(|| o.get("contentUrl"))),
        _ => None,
    }
}

/// Authors: the names of people (strings as they are), and of organisations.
fn authors(v: Option<&Value>) -> (Vec<String>, Vec<String>) {
    let items: Vec<&Value> = match v {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(other) => vec![other],
        None => return (Vec::new(), Vec::new()),
    };
    let mut people = Vec::new();
    let mut orgs = Vec::new();
    for it in items {
        match it {
            Value::String(s) => people.push(s.clone()),
            Value::Object(_) => {
                if let Some(n) = str_of(it.get("name")) {
                    if has_type(it, &["Organization", "NewsMediaOrganization"]) {
                        orgs.push(n.to_string());
                    } else {
                        people.push(n.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    (people, orgs)
}

/// Keywords as a list, or a comma-separated string.
fn keywords(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => s.split(',').map(|k| k.trim().to_string()).collect(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| str_of(Some(x)))
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

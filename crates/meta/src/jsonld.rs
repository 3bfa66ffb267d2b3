//! JSON-LD: the schema.org entities of a page's `<script type="application/ld+json">` blocks.
//!
//! Entities are gathered from every block, through arrays, `@graph`s and nested values; the
//! main one is the first of the most specific kind (an article before a product before a
//! plain web page). A block that is not valid JSON is skipped (after one attempt without the
//! comment and CDATA wrappers some sites put around it); the page's other sources still count.

use std::borrow::Cow;

use chaff_dom::{Document, NodeId};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::{Candidates, PageType, Source};

/// A JSON value as this reader needs it: strings borrowed from the script's text (copied
/// only where they hold escapes), objects as their members in the order written, numbers,
/// booleans and null as nothing more than their place.
///
/// Read into `serde_json::Value`, every string was a copy and every object a hash map
/// (insertion-ordered, for the workspace's other users): over 200 wcxb-dev pages this
/// reader took 27.7 M instructions that way (5% of the metadata's and Markdown's) and takes
/// 16.3 M this way. The same parser reads the text (so what is valid JSON,
/// and the limit of 128 levels of nesting, are `serde_json`'s), and a key written twice
/// gives its last value, as the map's look-up did.
#[derive(Debug, PartialEq)]
enum Value<'a> {
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
    /// A number, `true`, `false` or `null`.
    Other,
}

impl<'a> Value<'a> {
    /// The value of `key` in an object (its last, if written twice); `None` for any other
    /// value.
    fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Value<'de>, E> {
        Ok(Value::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Value<'de>, E> {
        Ok(Value::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Value<'de>, E> {
        Ok(Value::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Value<'de>, E> {
        Ok(Value::Other)
    }
    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Other)
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s.to_string())))
    }
    fn visit_string<E>(self, s: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(s)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value<'de>, A::Error> {
        let mut members = Vec::new();
        while let Some(k) = map.next_key_seed(Key)? {
            members.push((k, map.next_value()?));
        }
        Ok(Value::Object(members))
    }
}

/// An object's key, borrowed from the text where it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s))
    }
}

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
    let texts: Vec<String> = scripts.iter().map(|&id| doc.subtree_text(id)).collect();
    let blocks: Vec<Value> = texts.iter().filter_map(|t| parse(t)).collect();
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

fn parse(text: &str) -> Option<Value<'_>> {
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
fn collect<'a>(v: &'a Value<'a>, out: &mut Vec<&'a Value<'a>>) {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Array(items) => todo.extend(items.iter().rev()),
            Value::Object(_) => {
                if v.get("@type").is_some() {
                    out.push(v);
                }
                if let Some(g) = v.get("@graph") {
                    todo.push(g);
                }
                if let Some(m) = v.get("mainEntity") {
                    todo.push(m);
                }
            }
            Value::String(_) | Value::Other => {}
        }
    }
}

fn types<'a>(e: &'a Value<'_>) -> Vec<&'a str> {
    match e.get("@type") {
        Some(Value::String(s)) => vec![s],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn has_type(e: &Value<'_>, names: &[&str]) -> bool {
    types(e).iter().any(|t| {
        let t = t.rsplit(['/', ':']).next().unwrap_or(t);
        names.iter().any(|n| n.eq_ignore_ascii_case(t))
    })
}

fn main_entity<'a, 'v>(entities: &[&'a Value<'v>]) -> Option<(&'a Value<'v>, Option<PageType>)> {
    for (names, kind) in KINDS {
        if let Some(e) = entities.iter().find(|e| has_type(e, names)) {
            return Some((e, Some(*kind)));
        }
    }
    let page = entities.iter().find(|e| has_type(e, &["WebPage"]))?;
    Some((page, None))
}

fn str_of<'a>(v: Option<&'a Value<'_>>) -> Option<&'a str> {
    let v = v?;
    match v {
        Value::String(s) => Some(s),
        Value::Array(a) => a.iter().find_map(|x| str_of(Some(x))),
        Value::Object(_) => str_of(v.get("@value").or_else(|| v.get("name"))),
        Value::Other => None,
    }
}

fn read_entity(e: &Value<'_>, c: &mut Candidates, kind: Option<PageType>) {
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

fn image_url<'a>(v: Option<&'a Value<'_>>) -> Option<&'a str> {
    let v = v?;
    match v {
        Value::String(s) => Some(s),
        Value::Array(a) => a.iter().find_map(|x| image_url(Some(x))),
        Value::Object(_) => str_of(v.get("url").or_else(|| v.get("contentUrl"))),
        Value::Other => None,
    }
}

/// Authors: the names of people (strings as they are), and of organisations.
fn authors(v: Option<&Value<'_>>) -> (Vec<String>, Vec<String>) {
    let items: Vec<&Value> = match v {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(other) => vec![other],
        None => return (Vec::new(), Vec::new()),
    };
    let mut people = Vec::new();
    let mut orgs = Vec::new();
    for it in items {
        match it {
            Value::String(s) => people.push(s.to_string()),
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
fn keywords(v: Option<&Value<'_>>) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Whether `ours` reads as `theirs` through the look-ups the reader makes: the same
    /// strings, arrays item by item, objects key by key (a repeated key by its last value).
    fn same(ours: &Value<'_>, theirs: &serde_json::Value) -> bool {
        match (ours, theirs) {
            (Value::String(a), serde_json::Value::String(b)) => a == b,
            (Value::Array(a), serde_json::Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
            }
            (Value::Object(a), serde_json::Value::Object(b)) => {
                a.iter().all(|(k, _)| b.contains_key(k.as_ref()))
                    && b.iter()
                        .all(|(k, v)| ours.get(k).is_some_and(|x| same(x, v)))
            }
            (Value::Other, other) => other.is_number() || other.is_boolean() || other.is_null(),
            _ => false,
        }
    }

    #[test]
    fn strings_without_escapes_are_borrowed_and_a_repeated_key_gives_its_last_value() {
        let text = r#"{"@type": "Article", "name": "a\/b", "name": "c", "n": [1, true, null]}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        assert!(matches!(
            v.get("@type"),
            Some(Value::String(Cow::Borrowed("Article")))
        ));
        assert_eq!(v.get("name").and_then(Value::as_str), Some("c"));
        assert_eq!(
            v.get("n"),
            Some(&Value::Array(vec![
                Value::Other,
                Value::Other,
                Value::Other
            ]))
        );
        assert_eq!(v.get("missing"), None);
        assert_eq!(Value::Other.get("name"), None);
        let escaped: Value = serde_json::from_str(r#""a\/b""#).unwrap();
        assert!(matches!(escaped, Value::String(Cow::Owned(ref s)) if s == "a/b"));
    }

    #[test]
    fn nesting_deeper_than_serde_json_allows_is_refused_as_it_refuses_it() {
        for depth in [127, 128, 129, 5000] {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(
                serde_json::from_str::<Value>(&text).is_ok(),
                serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                "depth {depth}"
            );
        }
    }

    /// JSON texts with repeated keys, escapes, numbers of every kind and nesting, some of
    /// them cut short or broken.
    fn json() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            "\"[a-z@ ]{0,4}\"",
            Just(r#""a\"\\\/\u00e9\n""#.to_string()),
            "-?[0-9]{1,3}(\\.[0-9]{1,2})?(e[+-]?[0-9]{1,3})?",
            Just("true".to_string()),
            Just("null".to_string()),
            Just("1e400".to_string()),
        ];
        let value = leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                proptest::collection::vec(("(@type|name|a|b|x\\\\u0041)", inner), 0..4).prop_map(
                    |members| {
                        let members: Vec<String> = members
                            .iter()
                            .map(|(k, v)| format!("\"{k}\": {v}"))
                            .collect();
                        format!("{{{}}}", members.join(", "))
                    }
                ),
            ]
        });
        (value, 0usize..3, any::<prop::sample::Index>()).prop_map(|(text, broken, at)| {
            match broken {
                // Cut short.
                0 if !text.is_empty() => text[..at.index(text.len())].to_string(),
                // Trailing junk.
                1 => format!("{text} x"),
                _ => text,
            }
        })
    }

    proptest! {
        #[test]
        fn texts_read_as_serde_json_reads_them(text in json()) {
            let ours = serde_json::from_str::<Value>(&text);
            let theirs = serde_json::from_str::<serde_json::Value>(&text);
            prop_assert_eq!(ours.is_ok(), theirs.is_ok());
            if let (Ok(a), Ok(b)) = (ours, theirs) {
                prop_assert!(same(&a, &b), "{text}: {a:?} against {b}");
            }
        }
    }
}

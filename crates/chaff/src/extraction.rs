//! What extraction returns for a page: its content in every format, the labels, each
//! method's evidence, a confidence, and whether the page has main content at all.

use chaff_content::page_classifier::{self, PageClassifier, PageFacts};
use chaff_core::{Labels, Role, Scope, SiteVerdict, Verdict};
use chaff_dom::{Document, TextView};
use chaff_extract::{Format, Omit, PageMeta};

use crate::fuse::{Fused, Vote};
use crate::language::Language;
use crate::load::LoadedPage;

/// Why a page has no main content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoContent {
    /// The page has no visible text.
    Empty,
    /// The page's only text is in scripts (an application shell rendered in the browser).
    ScriptOnly,
    /// Every visible word of the page was judged template.
    AllTemplate,
}

impl NoContent {
    /// A short name for outputs: `empty`, `script-only`, `all-template`.
    pub fn as_str(self) -> &'static str {
        match self {
            NoContent::Empty => "empty",
            NoContent::ScriptOnly => "script-only",
            NoContent::AllTemplate => "all-template",
        }
    }
}

impl std::fmt::Display for NoContent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NoContent::Empty => "the page has no visible text",
            NoContent::ScriptOnly => "the page's only text is in scripts",
            NoContent::AllTemplate => "every visible word was judged template",
        })
    }
}

/// One method's verdict on a page.
#[derive(Clone, Debug)]
pub struct MethodVerdict {
    /// The method's registered name.
    pub method: String,
    /// Site- or page-level.
    pub scope: Scope,
    /// Its evidence, or why it has none.
    pub verdict: Verdict,
    /// The site methods whose evidence the verdict weighed (a page-level model that reads
    /// them, on a page where one of them spoke); empty otherwise.
    pub informed_by: &'static [&'static str],
}

impl MethodVerdict {
    pub(crate) fn new(method: &str, scope: Scope, verdict: Verdict) -> MethodVerdict {
        MethodVerdict {
            method: method.to_string(),
            scope,
            verdict,
            informed_by: &[],
        }
    }

    pub(crate) fn vote(&self) -> Vote<'_> {
        Vote {
            method: &self.method,
            scope: self.scope,
            verdict: &self.verdict,
            informed_by: self.informed_by,
        }
    }
}

/// The site methods' verdicts among `verdicts`, as a model that weighs them receives them.
pub(crate) fn site_verdicts(verdicts: &[MethodVerdict]) -> Vec<SiteVerdict<'_>> {
    verdicts
        .iter()
        .filter(|v| v.scope == Scope::Site)
        .map(|v| SiteVerdict {
            method: &v.method,
            verdict: &v.verdict,
        })
        .collect()
}

/// The probability of "article or forum thread" below which a page keeps no `authors` and
/// no `published`: on a product, a listing, a collection, a service or a documentation
/// page, a date or a name in the markup describes the catalogue entry or the site (when it
/// was indexed, who runs the shop), not a text, and a corpus record dated by it misleads.
/// Only a page the classifier is sure of loses them: a short article it hesitates over keeps
/// its byline. On wcxb-dev (training data; each page typed by a fold model that did not see
/// its domain, `meta_eval.py --page-type-folds`), authors given where WCXB's gold has none
/// fall from 12.7% to 7.3% of those pages and dates from 11.6% to 5.9%, while dates right
/// to the day go from 76.5% to 76.3% and authors (lenient) from 75.4% to 74.0%.
const UNDATED_BELOW: f32 = 0.2;
/// Indices of [`chaff_meta::PageType::ALL`] (and of the classifier's types, in the same
/// order; a test holds them together).
const ARTICLE: u8 = 0;
const FORUM: u8 = 3;

fn drop_signature_and_date(m: &mut chaff_meta::Metadata) {
    m.authors.clear();
    m.published = None;
    m.sources.remove("authors");
    m.sources.remove("published");
}

/// What an extractor's outputs carry besides the content ([`crate::ExtractorBuilder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RecordStyle {
    /// Markdown starts with YAML front matter.
    pub(crate) front_matter: bool,
    /// Records carry the metadata and the language.
    pub(crate) metadata: bool,
    /// What Markdown, HTML, XML and TEI leave out.
    pub(crate) omit: Omit,
}

impl Default for RecordStyle {
    fn default() -> Self {
        RecordStyle {
            front_matter: false,
            metadata: true,
            omit: Omit::default(),
        }
    }
}

/// A page after extraction.
#[derive(Clone, Debug)]
pub struct Extraction {
    source: String,
    url: Option<String>,
    site: String,
    profile: Option<String>,
    doc: Document,
    view: TextView,
    labels: Labels,
    evidence: Vec<MethodVerdict>,
    confidence: f32,
    no_content: Option<NoContent>,
    text: String,
    comments: Option<String>,
    style: RecordStyle,
    page_types: Option<std::sync::Arc<PageClassifier>>,
    titles: Option<std::sync::Arc<chaff_meta::TitleModel>>,
    metadata: std::sync::OnceLock<chaff_meta::Metadata>,
    language: std::sync::OnceLock<Option<Language>>,
}

impl Extraction {
    pub(crate) fn new(
        page: LoadedPage,
        fused: Fused,
        evidence: Vec<MethodVerdict>,
        profile: Option<String>,
        include_comments: bool,
        style: RecordStyle,
        (page_types, titles): (
            Option<std::sync::Arc<PageClassifier>>,
            Option<std::sync::Arc<chaff_meta::TitleModel>>,
        ),
    ) -> Extraction {
        let mut fused = fused;
        // One scan of the roles tells whether there is anything of comments to do.
        let comments = if fused.labels.roles().contains(&Role::Comment) {
            if !include_comments {
                first_post_as_main(&page, &mut fused.labels);
            }
            comments_text(&page, &mut fused.labels, include_comments)
        } else {
            None
        };
        let text = chaff_extract::text(&page.view, &fused.labels);
        let no_content = NoContent::of(&page, text.trim().is_empty());
        Extraction {
            confidence: if no_content.is_some() {
                0.0
            } else {
                fused.confidence
            },
            source: page.source,
            url: page.url,
            site: page.site.as_str().to_string(),
            profile,
            doc: page.doc,
            view: page.view,
            labels: fused.labels,
            evidence,
            no_content,
            text,
            comments,
            style,
            page_types,
            titles,
            metadata: std::sync::OnceLock::new(),
            language: std::sync::OnceLock::new(),
        }
    }

    /// Where the page came from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Its URL, when known.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// Its site key.
    pub fn site(&self) -> &str {
        &self.site
    }

    /// The site whose profile was applied, if one was.
    pub fn profile_site(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    /// The main content as plain text (empty when there is none).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What readers wrote under the page (the nodes labelled [`Role::Comment`]), as plain
    /// text without the reply forms; `None` when the page has no comment section. In the
    /// main text too when the extractor was built with
    /// [`crate::ExtractorBuilder::include_comments`].
    pub fn comments(&self) -> Option<&str> {
        self.comments.as_deref()
    }

    /// The main content as Markdown (after YAML front matter with the page's metadata when
    /// the extractor was built with [`crate::ExtractorBuilder::front_matter`]).
    pub fn markdown(&self) -> String {
        self.render(Format::Markdown)
    }

    /// The main content as HTML.
    pub fn html(&self) -> String {
        self.render(Format::Html)
    }

    /// The main content in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text.clone(),
            Format::Json => self.record(Format::Json).to_string(),
            _ => chaff_extract::render(
                format,
                &self.doc,
                &self.view,
                &self.labels,
                &self.meta(format),
            ),
        }
    }

    /// What the page's markup says about it (headline, authors, dates, site, language...),
    /// each value with its source, and the page's type as the page-type classifier
    /// ([`chaff_content::page_classifier`]) predicts it from the whole page, the markup's
    /// own statement of a type included (source `model`); read on first use.
    pub fn metadata(&self) -> &chaff_meta::Metadata {
        self.metadata.get_or_init(|| {
            let titles = self
                .titles
                .as_deref()
                .unwrap_or(chaff_meta::TitleModel::builtin());
            let mut p = [0f32; 7];
            // The classifier reads the markup's facts (all but the title), and its verdict
            // weighs whether the `<h1>` is the title (an article's or a thread's) or a
            // slogan ([`chaff_meta::extract_with`]).
            let mut m = chaff_meta::extract_with(
                &self.doc,
                self.url.as_deref(),
                |markup| {
                    p = self.page_type_probabilities(markup);
                    p
                },
                titles,
            );
            let kind = page_classifier::best(&p).0;
            m.page_type = chaff_meta::PageType::ALL.get(usize::from(kind)).copied();
            m.sources.insert("page_type", chaff_meta::Source::Model);
            let dated_text = p[usize::from(ARTICLE)] + p[usize::from(FORUM)];
            if dated_text < UNDATED_BELOW {
                drop_signature_and_date(&mut m);
            } else if kind == FORUM {
                // A thread's author is its first poster, and its date the first post's (see
                // `first_poster`, `first_post_date`).
                if m.authors.is_empty()
                    && let Some(poster) = chaff_meta::first_poster(&self.doc)
                {
                    m.authors.push(poster);
                    m.sources.insert("authors", chaff_meta::Source::Html);
                }
                if m.published.is_none()
                    && let Some(date) = chaff_meta::first_post_date(&self.doc)
                {
                    m.published = Some(date);
                    m.sources.insert("published", chaff_meta::Source::Html);
                }
            }
            m
        })
    }

    /// The candidates for the page's title with the facts the title chooser weighs
    /// ([`chaff_meta::title_candidates`]), the page typed as [`Extraction::metadata`] types
    /// it. The research harness fits the chooser on these.
    pub fn title_candidates(&self) -> Vec<chaff_meta::TitleCandidate> {
        chaff_meta::title_candidates(&self.doc, self.url.as_deref(), |markup| {
            self.page_type_probabilities(markup)
        })
    }

    fn page_type_probabilities(&self, markup: &chaff_meta::Metadata) -> [f32; 7] {
        let model = self
            .page_types
            .as_deref()
            .unwrap_or(PageClassifier::builtin());
        let (numeric, words) = self.page_type_input_of(markup);
        model.probabilities(&numeric, &words)
    }

    /// What the page-type classifier reads of this page: its numeric facts and its words
    /// ([`page_classifier::features`], [`page_classifier::tokens`]). The research harness
    /// trains the classifier on these, so training sees pages exactly as extraction does.
    pub fn page_type_input(&self) -> (Vec<f32>, Vec<String>) {
        self.page_type_input_of(&chaff_meta::extract(&self.doc, self.url.as_deref()))
    }

    fn page_type_input_of(&self, markup: &chaff_meta::Metadata) -> (Vec<f32>, Vec<String>) {
        let facts = PageFacts {
            doc: &self.doc,
            view: &self.view,
            url: self.url.as_deref(),
            main_text: &self.text,
            confidence: self.confidence,
            has_comments: self.comments.is_some(),
            markup_type: markup.page_type.map(chaff_meta::PageType::name),
            has_authors: !markup.authors.is_empty(),
            has_published: markup.published.is_some(),
            has_modified: markup.modified.is_some(),
            has_tags: !markup.tags.is_empty() || !markup.categories.is_empty(),
            page_title: markup.page_title.as_deref(),
            description: markup.description.as_deref(),
        };
        (
            page_classifier::features(&facts),
            page_classifier::tokens(&facts),
        )
    }

    /// Works out now what the record will read on first use (the metadata and the
    /// language, when records carry them), so that a thread of the pool does it rather than
    /// the thread that writes the records.
    pub fn prepare_record(&self) {
        if self.style.metadata {
            self.metadata();
            self.language();
        }
    }

    /// Whether the metadata and the language have been worked out.
    #[cfg(test)]
    pub(crate) fn is_prepared(&self) -> bool {
        self.metadata.get().is_some() && self.language.get().is_some()
    }

    /// The language of the extracted text ([`crate::language::detect`]: identified from
    /// the text, the page's declaration deciding when the text is too short to tell); read
    /// on first use.
    pub fn language(&self) -> Option<&Language> {
        self.language
            .get_or_init(|| {
                crate::language::detect(&self.text, self.metadata().language.as_deref())
            })
            .as_ref()
    }

    /// The fused labels, one per node of [`Extraction::document`].
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// Each method's verdict, site-level ones first.
    pub fn evidence(&self) -> &[MethodVerdict] {
        &self.evidence
    }

    /// What the methods noticed and a user should hear of (`method: note`), such as a
    /// smoothing step that failed.
    pub fn warnings(&self) -> Vec<String> {
        self.evidence
            .iter()
            .filter_map(|v| Some(format!("{}: {}", v.method, v.verdict.evidence()?.note()?)))
            .collect()
    }

    /// How sure the decision is, in `[0, 1]`; 0 when the page has no main content.
    pub fn confidence(&self) -> f32 {
        self.confidence
    }

    /// Why the page has no main content, when it has none.
    pub fn no_content(&self) -> Option<NoContent> {
        self.no_content
    }

    /// The parsed page.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The page's visible-text view.
    pub fn view(&self) -> &TextView {
        &self.view
    }

    /// The parsed page, its view and the fused labels, taken out.
    pub fn into_parts(self) -> (Document, TextView, Labels) {
        (self.doc, self.view, self.labels)
    }

    /// Provenance, and the metadata when `format` prints it (read only then: plain Markdown
    /// needs none).
    fn meta(&self, format: Format) -> PageMeta<'_> {
        let prints_metadata = match format {
            Format::Markdown => self.style.front_matter,
            Format::Html | Format::Xml | Format::Tei => true,
            Format::Text | Format::Json => false,
        };
        PageMeta {
            source: &self.source,
            url: self.url.as_deref(),
            site: Some(&self.site),
            metadata: prints_metadata.then(|| self.metadata()),
            front_matter: self.style.front_matter,
            comments: self.comments.as_deref(),
            omit: self.style.omit,
        }
    }

    /// The site methods' verdicts, as a model that weighs them receives them
    /// ([`chaff_core::Method::evidence_given`]).
    pub fn site_verdicts(&self) -> Vec<SiteVerdict<'_>> {
        site_verdicts(&self.evidence)
    }

    /// What each method said, for the record: its name and scope, and either the nodes its
    /// evidence covers (with the site methods it weighed, for a model that reads them) or
    /// why it abstained.
    fn methods_record(&self) -> serde_json::Value {
        let said: Vec<serde_json::Value> = self
            .evidence
            .iter()
            .map(|v| {
                let scope = match v.scope {
                    Scope::Site => "site",
                    Scope::Page => "page",
                };
                let mut m = serde_json::json!({ "method": v.method, "scope": scope });
                match &v.verdict {
                    Verdict::Evidence(e) => {
                        m["covered"] = e.covered_count().into();
                        if !v.informed_by.is_empty() {
                            m["informed_by"] = v.informed_by.into();
                        }
                    }
                    Verdict::Abstain(why) => m["abstained"] = why.as_str().into(),
                }
                m
            })
            .collect();
        said.into()
    }

    /// The page's record, as JSON Lines outputs carry it: provenance (`source`, `url`,
    /// `site`), `title`, the content under `text` in `format` (plain text for
    /// [`Format::Json`]), `confidence`, `metadata`, the profile and each method's say.
    /// Per-node labels only with [`Extraction::record_with`].
    pub fn record(&self, format: Format) -> serde_json::Value {
        self.record_with(format, false)
    }

    /// The page as a front end prints it: its content in `format`, or for
    /// [`Format::Json`] its record ([`Extraction::record_with`]).
    pub fn output(&self, format: Format, labels: bool) -> String {
        match format {
            Format::Json => self.record_with(format, labels).to_string(),
            other => self.render(other),
        }
    }

    /// This extraction with records that carry the metadata and the language, or not,
    /// whatever its extractor chose ([`crate::ExtractorBuilder::record_metadata`]): for a
    /// front end that decides per request. Without them neither is worked out for a record.
    pub fn with_record_metadata(mut self, metadata: bool) -> Extraction {
        self.style.metadata = metadata;
        self
    }

    /// This extraction with Markdown, HTML, XML and TEI writing links (else each as its
    /// text), whatever its extractor chose ([`crate::ExtractorBuilder::links`]): for a front
    /// end that decides per request.
    pub fn with_links(mut self, links: bool) -> Extraction {
        self.style.omit.links = !links;
        self
    }

    /// This extraction with Markdown, HTML, XML and TEI writing images, or not, whatever its
    /// extractor chose ([`crate::ExtractorBuilder::images`]).
    pub fn with_images(mut self, images: bool) -> Extraction {
        self.style.omit.images = !images;
        self
    }

    /// This extraction with Markdown starting with YAML front matter, or not, whatever its
    /// extractor chose ([`crate::ExtractorBuilder::front_matter`]).
    pub fn with_front_matter(mut self, front_matter: bool) -> Extraction {
        self.style.front_matter = front_matter;
        self
    }

    /// [`Extraction::record`], with `nodes` when `labels` is set: every element's and
    /// visible text node's label and score ([`chaff_extract::nodes`]).
    pub fn record_with(&self, format: Format, labels: bool) -> serde_json::Value {
        let content = match format {
            Format::Json => Format::Text,
            other => other,
        };
        let title = match self.style.metadata {
            true => self.metadata().title.clone().or_else(|| self.doc.title()),
            false => self.doc.title(),
        };
        let mut v = serde_json::json!({
            "source": self.source,
            "url": self.url,
            "site": self.site,
            "title": title,
            "format": format_name(content),
            "text": self.render(content),
        });
        if let Some(obj) = v.as_object_mut() {
            if let Some(c) = &self.comments {
                obj.insert("comments".into(), c.as_str().into());
            }
            obj.insert(
                "confidence".into(),
                serde_json::json!((f64::from(self.confidence) * 1000.0).round() / 1000.0),
            );
            obj.insert("profile".into(), self.profile.clone().into());
            if let Some(nc) = self.no_content {
                obj.insert("no_content".into(), nc.as_str().into());
            }
            if self.style.metadata {
                if let Ok(meta) = serde_json::to_value(self.metadata()) {
                    obj.insert("metadata".into(), meta);
                }
                if let Some(Ok(lang)) = self.language().map(serde_json::to_value) {
                    obj.insert("language".into(), lang);
                }
            }
            obj.insert("methods".into(), self.methods_record());
            let warnings = self.warnings();
            if !warnings.is_empty() {
                obj.insert("warnings".into(), warnings.into());
            }
            if labels {
                let nodes = chaff_extract::nodes(&self.doc, &self.view, &self.labels);
                obj.insert("nodes".into(), nodes);
            }
        }
        v
    }
}

/// The text of the nodes `labels` marks as comments (reply forms and other controls left
/// out), or `None` when it is empty; when `include` is set those nodes become content, so
/// that every format keeps them in the main text. Called on pages with comment nodes.
fn comments_text(page: &LoadedPage, labels: &mut Labels, include: bool) -> Option<String> {
    let doc = &page.doc;
    let mut only = Labels::all_content(doc.len());
    let mut i = 0u32;
    let end = doc.len() as u32;
    while i < end {
        let id = chaff_dom::NodeId(i);
        let control = doc.is_element(id)
            && match doc.tag(id) {
                "button" | "input" | "textarea" | "select" | "label" => true,
                "form" => chaff_comments::is_reply_form(doc, &page.view, id),
                _ => false,
            };
        if control {
            let after = doc.subtree_end(id).0;
            for j in i..after {
                only.set(chaff_dom::NodeId(j), 1.0, Role::Template);
            }
            i = after;
            continue;
        }
        if labels.role(id) != Role::Comment {
            only.set(id, 1.0, Role::Template);
        } else if include {
            labels.set(id, 0.0, Role::Content);
        }
        i += 1;
    }
    let text = chaff_extract::text(&page.view, &only);
    (!text.trim().is_empty()).then_some(text)
}

/// On a page with comment nodes that states it is a discussion thread
/// ([`chaff_comments::states_a_thread`]) of which nothing but comments would be left, or a
/// headline and a few words (fewer than a comment region's [`chaff_comments::MIN_WORDS`]):
/// forum software that marks every post of a thread as a comment, the first one too. The
/// first post of the first comment region with one ([`chaff_comments::first_post`]) joins the
/// main text then, and the replies stay comments. Nodes inside it that another detector
/// removes (a menu) stay removed.
///
/// Without the thread's statement the first comment joined the main text of eight Dragnet
/// pages of few words (a photo, a video), all wrong; with it, of none.
fn first_post_as_main(page: &LoadedPage, labels: &mut Labels) {
    // The main text's words, counted until there are enough (cut parts of a node counted
    // too: the rule then holds back, never the other way).
    let enough_main_text = || {
        let view = &page.view;
        view.segments()
            .iter()
            .filter(|s| !labels.is_removed(s.node))
            .flat_map(|s| view.text()[s.range()].split_whitespace())
            .nth(chaff_comments::MIN_WORDS - 1)
            .is_some()
    };
    if enough_main_text() || !chaff_comments::states_a_thread(&page.doc) {
        return;
    }
    let doc = &page.doc;
    let mut i = 0u32;
    while (i as usize) < doc.len() {
        let id = chaff_dom::NodeId(i);
        if labels.role(id) != Role::Comment {
            i += 1;
            continue;
        }
        if let Some(post) = chaff_comments::first_post(doc, &page.view, id) {
            for node in doc.subtree(post) {
                if labels.role(node) == Role::Comment {
                    labels.set(node, 0.0, Role::Content);
                }
            }
            return;
        }
        i = doc.subtree_end(id).0;
    }
}

impl Extraction {
    /// The record of a page that repeats the earlier page `of` (a near-duplicate): its
    /// record without the text, naming the page it repeats under `duplicate_of`.
    pub fn duplicate_record(&self, format: Format, labels: bool, of: &str) -> serde_json::Value {
        let mut record = self.record_with(format, labels);
        if let Some(obj) = record.as_object_mut() {
            obj.remove("text");
            obj.insert("duplicate_of".into(), of.into());
        }
        record
    }

    /// Whether the main text is in the language of this canonical code (see
    /// [`crate::language::canonical`]); false when its language is unknown.
    pub fn in_language(&self, code: &str) -> bool {
        self.language().is_some_and(|l| l.code == code)
    }
}

/// The name of a format in records (`text`, `markdown`, `html`, `json`, `xml`, `tei`).
pub fn format_name(format: Format) -> &'static str {
    format.name()
}

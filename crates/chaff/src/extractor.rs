//! The extractor: a page's bytes and URL in, its main content out.
//!
//! An [`Extractor`] is built once ([`Extractor::builder`]: the registry, the site profiles,
//! the methods and the fuser; every check happens in `build`) and is then immutable state in
//! an `Arc`: cheap to clone, `Send + Sync`, shared by threads. For each page it names the
//! site, applies the site's compiled profile when the store has one, applies the page-level
//! methods always, and lets the fuser turn all that evidence into labels.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use chaff_content::page_classifier::PageClassifier;
use chaff_core::{DynMethod, Erased, Scope, Verdict};
use chaff_corpus::{Media, Page};
use chaff_dom::ParseOptions;

use crate::extraction::{Extraction, MethodVerdict, NoContent, RecordStyle, site_verdicts};
use crate::fuse::{Fuser, UnionFuser, Vote};
use crate::load::{LoadOptions, LoadedPage, SiteFrom, load_bytes};
use crate::store::{CompiledProfile, ProfileStore};
use crate::template::{MIN_SIMILARITY, Sketch, route};
use crate::{Error, Profile, Registry};

/// Configures and builds an [`Extractor`].
#[derive(Default)]
pub struct ExtractorBuilder {
    registry: Option<Registry>,
    store: ProfileStore,
    every_page: Option<Profile>,
    site_methods: Option<Vec<String>>,
    page_methods: Option<Vec<String>>,
    fuser: Option<Arc<dyn Fuser>>,
    load: LoadOptions,
    include_comments: bool,
    style: RecordStyle,
    deadline: Option<Duration>,
    page_types: Option<Arc<PageClassifier>>,
    titles: Option<Arc<chaff_meta::TitleModel>>,
}

impl ExtractorBuilder {
    /// The methods to use (default: [`Registry::builtin`]).
    pub fn registry(mut self, registry: Registry) -> ExtractorBuilder {
        self.registry = Some(registry);
        self
    }

    /// Adds every profile of a folder (as `learn --per-site` writes them).
    pub fn profiles(self, dir: impl AsRef<Path>) -> Result<ExtractorBuilder, Error> {
        let store = ProfileStore::open(dir.as_ref())?;
        Ok(self.store(store))
    }

    /// Adds the profiles of a store (replacing those of the same sites).
    pub fn store(mut self, store: ProfileStore) -> ExtractorBuilder {
        for p in store.into_profiles() {
            self.store.insert(p);
        }
        self
    }

    /// Applies one profile to every page, whatever the page's site.
    pub fn profile_for_every_page(mut self, profile: Profile) -> ExtractorBuilder {
        self.every_page = Some(profile);
        self
    }

    /// Which of a profile's site-level models to apply (default: all it has). A site whose
    /// profile lacks one gets that method's abstention.
    pub fn site_methods<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> ExtractorBuilder {
        self.site_methods = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Which page-level methods to apply to every page (default: `content`, the content
    /// model).
    pub fn page_methods<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> ExtractorBuilder {
        self.page_methods = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Whether readers' comments stay in the main text, as trafilatura's
    /// `include_comments` (default: no). Either way they are found (by a page-level method
    /// giving [`chaff_core::Role::Comment`], the `comments` detector by default) and given
    /// apart by [`Extraction::comments`].
    pub fn include_comments(mut self, include: bool) -> ExtractorBuilder {
        self.include_comments = include;
        self
    }

    /// Whether Markdown outputs start with YAML front matter holding the page's metadata
    /// (default: no; JSON records carry it as fields either way, and HTML in its `<head>`).
    pub fn front_matter(mut self, front_matter: bool) -> ExtractorBuilder {
        self.style.front_matter = front_matter;
        self
    }

    /// Whether Markdown, HTML, XML and TEI write links (default: yes). Without, a link is
    /// written as its text, as in plain text.
    pub fn links(mut self, links: bool) -> ExtractorBuilder {
        self.style.omit.links = !links;
        self
    }

    /// Whether Markdown, HTML, XML and TEI write images (default: yes; an image whose only
    /// address is inline `data:` is left out either way).
    pub fn images(mut self, images: bool) -> ExtractorBuilder {
        self.style.omit.images = !images;
        self
    }

    /// Whether JSON records carry the page's metadata and language (default: yes). Without
    /// them a record's title is the page's `<title>`, and neither the metadata nor the
    /// language is worked out for it: about a seventh of the time of extracting a page, for a
    /// caller that wants the text alone. Formats that print metadata (HTML, XML, TEI,
    /// Markdown with front matter) still do.
    pub fn record_metadata(mut self, metadata: bool) -> ExtractorBuilder {
        self.style.metadata = metadata;
        self
    }

    /// The page-type classifier of the metadata (default: the built-in one, fitted on
    /// wcxb-dev; `chaff-lab train-page-type` writes others).
    pub fn page_type_model(mut self, model: PageClassifier) -> ExtractorBuilder {
        self.page_types = Some(Arc::new(model));
        self
    }

    /// The title chooser of the metadata (default: the built-in one, fitted on wcxb-dev;
    /// `chaff-lab train-title` writes others).
    pub fn title_model(mut self, model: chaff_meta::TitleModel) -> ExtractorBuilder {
        self.titles = Some(Arc::new(model));
        self
    }

    /// The fuser that turns the methods' evidence into labels (default: [`UnionFuser`]).
    pub fn fuser(mut self, fuser: impl Fuser + 'static) -> ExtractorBuilder {
        self.fuser = Some(Arc::new(fuser));
        self
    }

    /// The parser's limits (default: chaff-dom's with the node budget for extraction, see
    /// [`LoadOptions`]; options built from `ParseOptions::default()` have no node budget
    /// unless they set one).
    pub fn parse_options(mut self, parse: ParseOptions) -> ExtractorBuilder {
        self.load.parse = parse;
        self
    }

    /// The most time one page may take (default: no limit). A page still being worked on
    /// when it has passed is stopped (the parser and the content model look at the clock in
    /// their loops; every stage looks before it starts) and its result is
    /// [`Error::Deadline`], naming the stage; [`Extractor::extract_all`] goes on with the
    /// next page. [`Extractor::extract_loaded`] takes pages already parsed and has none.
    /// `None` removes the limit.
    pub fn deadline(mut self, limit: impl Into<Option<Duration>>) -> ExtractorBuilder {
        self.deadline = limit.into();
        self
    }

    /// How pages' sites are named (default: from their URLs).
    pub fn site_from(mut self, from: SiteFrom) -> ExtractorBuilder {
        self.load.site_from = from;
        self
    }

    /// Resolves the methods and compiles every profile.
    pub fn build(self) -> Result<Extractor, Error> {
        let registry = match self.registry {
            Some(r) => r,
            None => Registry::builtin()?,
        };
        let mut warnings = Vec::new();
        if let Some(names) = &self.site_methods {
            for n in names {
                if registry.resolve(n)?.scope() != Scope::Site {
                    return Err(Error::NotSiteMethod { name: n.clone() });
                }
            }
        }
        let wanted = self.site_methods.as_deref();
        let mut profiles: std::collections::HashMap<String, Arc<[CompiledProfile]>> =
            std::collections::HashMap::new();
        for site in self.store.sites() {
            if let Some(p) = self.store.get(site) {
                let c = CompiledProfile::compile_all(p, &registry, wanted, &mut warnings)?;
                profiles.insert(site.to_string(), Arc::from(c));
            }
        }
        let every_page = match &self.every_page {
            Some(p) => {
                let c = CompiledProfile::compile_all(p, &registry, wanted, &mut warnings)?;
                if let Some(m) = c.iter().flat_map(|t| t.missing.iter()).next() {
                    return Err(Error::MissingMethod {
                        method: m.clone(),
                        has: p.method_names().join(", "),
                    });
                }
                Some(Arc::from(c))
            }
            None => None,
        };
        let page_names = self.page_methods.unwrap_or_else(|| {
            crate::DEFAULT_PAGE_METHODS
                .iter()
                .map(|m| m.to_string())
                .collect()
        });
        let mut page_methods = Vec::new();
        for name in &page_names {
            let m = registry.resolve(name)?;
            if m.scope() != Scope::Page {
                return Err(Error::NotPageMethod { name: name.clone() });
            }
            let compiled = m.compile(None).map_err(|e| Error::Method {
                method: name.clone(),
                site: None,
                message: e.to_string(),
            })?;
            page_methods.push((Arc::clone(m), compiled));
        }
        let keep_source = profiles
            .values()
            .chain(every_page.as_ref())
            .flat_map(|p| p.iter())
            .flat_map(|p| p.methods.iter())
            .chain(page_methods.iter())
            .any(|(m, c)| m.compiled_needs(c).source);
        Ok(Extractor {
            inner: Arc::new(Inner {
                profiles,
                every_page,
                page_methods,
                fuser: self.fuser.unwrap_or_else(|| Arc::new(UnionFuser)),
                load: LoadOptions {
                    keep_source,
                    ..self.load
                },
                deadline: self.deadline,
                warnings,
                include_comments: self.include_comments,
                page_types: self.page_types,
                titles: self.titles,
                style: self.style,
            }),
        })
    }
}

/// Turns pages into their main content. See the module docs.
///
/// ```
/// let ex = chaff::Extractor::builder().build()?;
/// let html = b"<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
///     <article><h1>A title</h1><p>What the page says, in a few plain sentences that a \
///     reader came for. It goes on for a while, as articles do.</p></article></body></html>";
/// let page = ex.extract(html, Some("https://example.org/a"))?;
/// assert_eq!(page.site(), "example.org");
/// assert!(page.text().contains("What the page says"));
/// assert!((0.0..=1.0).contains(&page.confidence()));
/// # Ok::<(), chaff::Error>(())
/// ```
#[derive(Clone)]
pub struct Extractor {
    inner: Arc<Inner>,
}

struct Inner {
    /// Each site's templates, the main one first.
    profiles: std::collections::HashMap<String, Arc<[CompiledProfile]>>,
    every_page: Option<Arc<[CompiledProfile]>>,
    page_methods: Vec<(Arc<dyn DynMethod>, Erased)>,
    fuser: Arc<dyn Fuser>,
    load: LoadOptions,
    deadline: Option<Duration>,
    warnings: Vec<String>,
    include_comments: bool,
    style: RecordStyle,
    page_types: Option<Arc<PageClassifier>>,
    titles: Option<Arc<chaff_meta::TitleModel>>,
}

/// A page's deadline while it is being extracted.
#[derive(Clone, Copy)]
struct Clock {
    until: Instant,
    limit: Duration,
}

impl Clock {
    /// `Err` naming `stage` when the deadline has passed.
    fn check(&self, page: &str, stage: &str) -> Result<(), Error> {
        if Instant::now() >= self.until {
            return Err(self.error(page, stage));
        }
        Ok(())
    }

    fn error(&self, page: &str, stage: &str) -> Error {
        Error::Deadline {
            page: page.to_string(),
            limit: self.limit,
            stage: stage.to_string(),
        }
    }
}

impl Extractor {
    /// A builder with the defaults: built-in methods, no profile, the page-level classifier.
    pub fn builder() -> ExtractorBuilder {
        ExtractorBuilder::default()
    }

    /// What `build` noticed and did not refuse: a profile model of a method this build does
    /// not know, ignored; a method's note on how it applies a profile's model
    /// ([`chaff_core::Method::compiled_notes`]: a suffix model read as regexes).
    pub fn warnings(&self) -> &[String] {
        &self.inner.warnings
    }

    /// The sites with a profile.
    pub fn sites(&self) -> Vec<&str> {
        let mut s: Vec<&str> = self.inner.profiles.keys().map(String::as_str).collect();
        s.sort_unstable();
        s
    }

    /// How this extractor parses pages.
    pub fn load_options(&self) -> &LoadOptions {
        &self.inner.load
    }

    /// Extracts an HTML page given as bytes (in any encoding) and, when known, its URL.
    pub fn extract(&self, html: &[u8], url: Option<&str>) -> Result<Extraction, Error> {
        let page = Page {
            source: url.unwrap_or("<page>").to_string(),
            url: url.map(str::to_string),
            bytes: Vec::new(),
            charset: None,
            folder: None,
            media: Media::Html,
        };
        let source = page.source.clone();
        self.with_clock(&source, |opts| load_bytes(page, html, opts))
    }

    /// Extracts a page read by `chaff-corpus` (its charset, folder and media kept).
    pub fn extract_page(&self, page: Page) -> Result<Extraction, Error> {
        let source = page.source.clone();
        self.with_clock(&source, |opts| crate::load::load_page(page, opts))
    }

    /// Extracts a page from its parse when one is given and was made as this extractor
    /// would parse it (`parsed_with`: the same parser options and site naming, and the
    /// source kept if a method here reads it), and from its bytes otherwise: what
    /// [`Extractor::extract_all_parsed`] does with each page. The result is the same either
    /// way.
    pub fn extract_page_parsed(
        &self,
        page: Page,
        parsed: Option<LoadedPage>,
        parsed_with: &LoadOptions,
    ) -> Result<Extraction, Error> {
        match parsed {
            Some(mut loaded) if loaded.source == page.source && self.reuses(parsed_with) => {
                if !self.inner.load.keep_source {
                    loaded.text = None;
                }
                drop(page);
                let source = loaded.source.clone();
                self.with_clock(&source, |_| Ok(loaded))
            }
            _ => self.extract_page(page),
        }
    }

    /// Whether a page parsed with `opts` is parsed as this extractor would parse it.
    pub(crate) fn reuses(&self, opts: &LoadOptions) -> bool {
        let mine = &self.inner.load;
        opts.parse == mine.parse
            && opts.site_from == mine.site_from
            && (opts.keep_source || !mine.keep_source)
    }

    /// Loads a page with `load` and extracts it, within the deadline when there is one.
    fn with_clock(
        &self,
        source: &str,
        load: impl FnOnce(&LoadOptions) -> Result<LoadedPage, Error>,
    ) -> Result<Extraction, Error> {
        let Some(limit) = self.inner.deadline else {
            return Ok(self.extract_loaded(load(&self.inner.load)?));
        };
        let clock = Clock {
            until: Instant::now() + limit,
            limit,
        };
        let _entered = chaff_core::deadline::enter(Some(clock.until));
        let mut opts = self.inner.load.clone();
        opts.parse.deadline = Some(clock.until);
        let loaded = match load(&opts) {
            Err(Error::Deadline { page, stage, .. }) => return Err(clock.error(&page, &stage)),
            other => other?,
        };
        clock.check(source, "parse")?;
        self.run(loaded, Some(&clock))
    }

    /// Extracts a page already parsed (with this extractor's [`Extractor::load_options`]).
    pub fn extract_loaded(&self, page: LoadedPage) -> Extraction {
        match self.run(page, None) {
            Ok(extraction) => extraction,
            Err(_) => unreachable!("without a clock no stage stops"),
        }
    }

    /// Applies the methods and the fuser, checking `clock` after each stage.
    fn run(&self, page: LoadedPage, clock: Option<&Clock>) -> Result<Extraction, Error> {
        let check = |stage: &str| clock.map_or(Ok(()), |c| c.check(&page.source, stage));
        let inner = &*self.inner;
        let templates = inner
            .every_page
            .as_ref()
            .or_else(|| inner.profiles.get(page.site.as_str()));
        let input = page.input();
        let mut verdicts: Vec<MethodVerdict> = Vec::new();
        let profile = match templates {
            Some(t) => choose_template(t, &page, &mut verdicts),
            None => None,
        };
        if let Some(p) = profile {
            for (m, compiled) in &p.methods {
                verdicts.push(MethodVerdict::new(
                    m.name(),
                    Scope::Site,
                    m.evidence(compiled, &input),
                ));
                check(m.name())?;
            }
            for name in &p.missing {
                let why = format!("the profile of {} has no {name} model", p.site);
                verdicts.push(MethodVerdict::new(name, Scope::Site, Verdict::Abstain(why)));
            }
        }
        let site_evidence = verdicts.iter().any(|v| v.verdict.evidence().is_some());
        let spoke = |names: &[&str]| {
            verdicts
                .iter()
                .any(|v| v.verdict.evidence().is_some() && names.contains(&v.method.as_str()))
        };
        let said = site_verdicts(&verdicts);
        let mut page_verdicts = Vec::with_capacity(inner.page_methods.len());
        for (m, compiled) in &inner.page_methods {
            let inputs = m.site_inputs();
            let informed = spoke(inputs);
            let verdict = if informed {
                m.evidence_given(compiled, &input, &said)
            } else if inner.fuser.consults(m.name(), site_evidence) {
                m.evidence(compiled, &input)
            } else {
                Verdict::Abstain("not consulted: the site's evidence decides".into())
            };
            let mut v = MethodVerdict::new(m.name(), Scope::Page, verdict);
            if informed {
                v.informed_by = inputs;
            }
            page_verdicts.push(v);
            check(m.name())?;
        }
        verdicts.extend(page_verdicts);
        let votes: Vec<Vote<'_>> = verdicts.iter().map(MethodVerdict::vote).collect();
        let mut fused = inner.fuser.fuse(&input, &votes);
        drop_permalink_marks(input.doc, &mut fused.labels);
        check("fuse")?;
        let profile_site = profile.map(|p| p.site.clone());
        Ok(Extraction::new(
            page,
            fused,
            verdicts,
            profile_site,
            inner.include_comments,
            inner.style,
            (inner.page_types.clone(), inner.titles.clone()),
        ))
    }
}

/// A heading's permalink mark (the "¶" after every heading of a Sphinx page,
/// [`chaff_dom::text::heading_permalink_marks`]) is left out of the main text in every
/// format, whatever the methods said of it: a control of the page, not part of the heading.
fn drop_permalink_marks(doc: &chaff_dom::Document, labels: &mut chaff_core::Labels) {
    for mark in chaff_dom::text::heading_permalink_marks(doc) {
        labels.set_subtree(doc, mark, 1.0, chaff_core::Role::Template);
        // A removed node keeps no cuts (the labels' invariant).
        for d in doc.subtree(mark) {
            labels.set_partial(d, Vec::new());
        }
    }
}

/// The template of a site a page is read with ([`crate::template::route`]): the only one
/// when it has no representatives (a version 1 profile), else the one the page resembles
/// most if it resembles it enough. When it resembles none, each site method abstains,
/// saying so, and the page is read page by page.
fn choose_template<'a>(
    templates: &'a [CompiledProfile],
    page: &LoadedPage,
    verdicts: &mut Vec<MethodVerdict>,
) -> Option<&'a CompiledProfile> {
    if let [only] = templates
        && only.sketches.is_empty()
    {
        return Some(only);
    }
    let sketch = Sketch::of(&page.doc);
    let reps = templates.iter().map(|t| t.sketches.as_slice());
    match route(&sketch, reps, MIN_SIMILARITY) {
        (Some(i), _) => templates.get(i),
        (None, best) => {
            let site = templates.first().map_or("", |t| t.site.as_str());
            let why = format!(
                "the page resembles none of the {} templates of {site} (at best {best:.2}, \
                 below {MIN_SIMILARITY})",
                templates.len()
            );
            let mut names: Vec<&str> = Vec::new();
            for t in templates {
                let of_t = t.methods.iter().map(|(m, _)| m.name());
                for name in of_t.chain(t.missing.iter().map(String::as_str)) {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            for name in names {
                let v = Verdict::Abstain(why.clone());
                verdicts.push(MethodVerdict::new(name, Scope::Site, v));
            }
            None
        }
    }
}

/// Extracts the main content of one HTML page with the built-in methods and no profile.
///
/// ```
/// let html = "<html><body><nav><a href=/>Home</a> <a href=/about>About</a></nav><article>\
///     <h1>Council votes to close the old bridge</h1><p>The council voted on Monday to close \
///     the old bridge for repairs. Engineers found cracks in two of its arches last spring, \
///     and the work is expected to take most of the coming year.</p><p>Traffic will be sent \
///     over the ring road, which the council says can carry the extra load. Shop owners near \
///     the bridge asked for help with the months of lost trade.</p></article></body></html>";
/// let page = chaff::extract(html.as_bytes(), None)?;
/// assert!(page.text().contains("cracks in two of its arches"));
/// # Ok::<(), chaff::Error>(())
/// ```
pub fn extract(html: &[u8], url: Option<&str>) -> Result<Extraction, Error> {
    static DEFAULT: OnceLock<Result<Extractor, String>> = OnceLock::new();
    let ex = DEFAULT.get_or_init(|| Extractor::builder().build().map_err(|e| e.to_string()));
    match ex {
        Ok(ex) => ex.extract(html, url),
        Err(message) => Err(Error::Method {
            method: "content".into(),
            site: None,
            message: message.clone(),
        }),
    }
}

impl NoContent {
    /// Why a page with these labels has no main content, if it has none.
    pub(crate) fn of(page: &LoadedPage, text_is_empty: bool) -> Option<NoContent> {
        if !text_is_empty {
            return None;
        }
        if page.view.text().trim().is_empty() {
            let scripted = page.doc.ids().any(|id| {
                page.doc.is_tag(id, "script") && !page.doc.subtree_text(id).trim().is_empty()
            });
            Some(if scripted {
                NoContent::ScriptOnly
            } else {
                NoContent::Empty
            })
        } else {
            Some(NoContent::AllTemplate)
        }
    }
}

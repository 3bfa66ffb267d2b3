//! `chaff-python`: the `chaff._chaff` extension module, chaff for Python.
//!
//! What it is for: binding the `chaff` facade, and nothing below it, for the Python package in
//! `python/` (which adds trafilatura's keywords, the datatrove block and the Spark job on top):
//! [`chaff::Extractor`] (`extract`, and `extract_many`: many pages on a thread pool of the
//! caller's size with the GIL released, results in input order), [`chaff::Extraction`] (text,
//! Markdown, HTML, the record, metadata, language, confidence), [`chaff::Learner`] (pages to a
//! site [`chaff::Profile`]), profiles, and `chaff::corpus`'s WARC reader over a file or bytes.
//! Errors become a `chaff.ChaffError` hierarchy (`InputError`, `ProfileError`, `WarcError`,
//! `MethodError`), one line each.
//!
//! What it must not know: methods' internals, command-line flags, Spark or datatrove. It keeps
//! no global state: every extractor, pool and reader belongs to the Python object holding it.

use std::ffi::CString;
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use chaff::corpus::{CorpusError, Media, Page, WarcPages};
use chaff::methods::content::{ContentMethod, ContentModel, Favor};
use chaff::{Format, InOrder, Learner, Registry, SiteChoice};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyDict, PyIterator, PyString};

/// jemalloc, as in the `chaff` binary (see its `main.rs`): a page's extraction makes and
/// frees many short-lived buffers. Against the C library's allocator the extraction call over
/// scrapinghub-aeb's 181 pages took 271 ms against 284 (least of six alternating runs of five
/// rounds each, one core, 2026-12-07). The workspace builds it with
/// `disable_initial_exec_tls`, which a module that Python loads with dlopen needs.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

create_exception!(
    chaff,
    ChaffError,
    PyException,
    "The base of every error chaff raises."
);
create_exception!(
    chaff,
    InputError,
    ChaffError,
    "A page that cannot be read or parsed: binary data, too large, an unreadable file."
);
create_exception!(
    chaff,
    ProfileError,
    ChaffError,
    "A profile that cannot be read or is not a valid chaff profile."
);
create_exception!(
    chaff,
    WarcError,
    ChaffError,
    "A damaged WARC file or record; the records before the damage were read."
);
create_exception!(
    chaff,
    MethodError,
    ChaffError,
    "A method that is unknown, of the wrong scope, or failed to learn or compile a model."
);

/// The Python exception for a facade error.
fn py_err(e: chaff::Error) -> PyErr {
    use chaff::Error as E;
    let message = e.to_string();
    match e {
        E::Profile { .. } => ProfileError::new_err(message),
        E::Corpus(c) => corpus_err(c),
        E::Page { .. }
        | E::NoPages
        | E::NoTemplate { .. }
        | E::MixedSites { .. }
        | E::NoSuchSite { .. } => InputError::new_err(message),
        E::Method { .. }
        | E::UnknownMethod { .. }
        | E::NotSiteMethod { .. }
        | E::NotPageMethod { .. }
        | E::NoMethod
        | E::MissingMethod { .. } => MethodError::new_err(message),
        _ => ChaffError::new_err(message),
    }
}

fn corpus_err(e: CorpusError) -> PyErr {
    let message = e.to_string();
    match e {
        CorpusError::WarcDamaged { .. } | CorpusError::WarcRecord { .. } => {
            WarcError::new_err(message)
        }
        _ => InputError::new_err(message),
    }
}

/// A page's HTML as Python gave it, held without copying.
enum Html {
    /// Bytes in any encoding (sniffed as the command line does).
    Bytes(PyBackedBytes),
    /// Text: its UTF-8 bytes, read as UTF-8 whatever the markup declares.
    Str(PyBackedStr),
}

impl Html {
    fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Html> {
        if obj.is_instance_of::<PyString>() {
            return Ok(Html::Str(obj.extract()?));
        }
        match obj.extract::<PyBackedBytes>() {
            Ok(b) => Ok(Html::Bytes(b)),
            Err(_) => Err(PyTypeError::new_err(format!(
                "a page must be str or bytes, not {}",
                obj.get_type().name()?
            ))),
        }
    }
}

/// A page to extract: its HTML, URL and the charset its transport declared.
struct Item {
    html: Html,
    url: Option<String>,
    charset: Option<String>,
}

/// A page of the input of `extract_many` and `learn`: `html`, `(html, url)` or
/// `(html, url, charset)`.
fn item_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Item> {
    let item =
        |html: &Bound<'_, PyAny>, url: Option<String>, charset: Option<String>| -> PyResult<Item> {
            Ok(Item {
                html: Html::from_py(html)?,
                url,
                charset,
            })
        };
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return item(obj, None, None);
    }
    if let Ok((html, url)) = obj.extract::<(Bound<'_, PyAny>, Option<String>)>() {
        return item(&html, url, None);
    }
    if let Ok((html, url, charset)) =
        obj.extract::<(Bound<'_, PyAny>, Option<String>, Option<String>)>()
    {
        return item(&html, url, charset);
    }
    item(obj, None, None)
}

impl Item {
    fn extract(&self, ex: &chaff::Extractor) -> Result<chaff::Extraction, chaff::Error> {
        match self.charset {
            None => extract_one(ex, &self.html, self.url.as_deref()),
            Some(_) => extract_described(
                ex,
                &self.html,
                self.url.as_deref(),
                None,
                self.charset.as_deref(),
            ),
        }
    }
}

fn extract_one(
    ex: &chaff::Extractor,
    html: &Html,
    url: Option<&str>,
) -> Result<chaff::Extraction, chaff::Error> {
    match html {
        Html::Bytes(b) => ex.extract(b, url),
        Html::Str(_) => extract_described(ex, html, url, None, None),
    }
}

/// Extracts a page named by `source` (default: its URL, else `<page>`) whose transport
/// declared `charset` (a str page is UTF-8 whatever it says), as a WARC record's page is.
fn extract_described(
    ex: &chaff::Extractor,
    html: &Html,
    url: Option<&str>,
    source: Option<&str>,
    charset: Option<&str>,
) -> Result<chaff::Extraction, chaff::Error> {
    let (bytes, charset) = match html {
        Html::Bytes(b) => (b.to_vec(), charset.map(str::to_string)),
        Html::Str(s) => (s.as_bytes().to_vec(), Some("utf-8".to_string())),
    };
    ex.extract_page(Page {
        source: source.or(url).unwrap_or("<page>").to_string(),
        url: url.map(str::to_string),
        bytes,
        charset,
        folder: None,
        media: Media::Html,
    })
}

/// The output format named as trafilatura names them (`txt`, `markdown`, `html`, `json`,
/// `xml`, `xmltei`) or as chaff does (`text`, `tei`).
fn format_of(name: &str) -> PyResult<Format> {
    match name {
        "txt" | "text" => Ok(Format::Text),
        "markdown" | "md" => Ok(Format::Markdown),
        "html" => Ok(Format::Html),
        "json" => Ok(Format::Json),
        "xml" => Ok(Format::Xml),
        "xmltei" | "tei" => Ok(Format::Tei),
        other => Err(PyValueError::new_err(format!(
            "output format {other:?} is not one chaff writes (txt, markdown, html, json, xml, xmltei)"
        ))),
    }
}

fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// The host of a URL (`https://user@Host.example:8080/x` -> `host.example`).
fn hostname(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next()?,
        None => host.split(':').next()?,
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// A page after extraction: its main content in every format, its metadata, language and
/// confidence. Returned by `Extractor.extract_page` and `Extractor.extract_many`.
#[pyclass(module = "chaff", name = "Extraction", frozen)]
struct PyExtraction {
    inner: chaff::Extraction,
}

#[pymethods]
impl PyExtraction {
    /// The main content as plain text (empty when the page has none).
    #[getter]
    fn text(&self) -> &str {
        self.inner.text()
    }

    /// What readers wrote under the page, as plain text; `None` without a comment thread.
    #[getter]
    fn comments(&self) -> Option<&str> {
        self.inner.comments()
    }

    /// The page's URL, when known.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.inner.url()
    }

    /// Where the page came from (its URL, `<page>`, or `file.warc.gz#offset`).
    #[getter]
    fn source(&self) -> &str {
        self.inner.source()
    }

    /// The page's site key (`example.org`), which picks its profile.
    #[getter]
    fn site(&self) -> &str {
        self.inner.site()
    }

    /// The site whose profile was applied, or None (page-level extraction).
    #[getter]
    fn profile(&self) -> Option<&str> {
        self.inner.profile_site()
    }

    /// How sure the decision is, from 0 to 1; 0 when the page has no main content.
    #[getter]
    fn confidence(&self) -> f32 {
        self.inner.confidence()
    }

    /// Why the page has no main content (`empty`, `script-only`, `all-template`), or None.
    #[getter]
    fn no_content(&self) -> Option<&'static str> {
        self.inner.no_content().map(|n| n.as_str())
    }

    /// The headline: the metadata's title, else the `<title>`.
    #[getter]
    fn title(&self) -> Option<String> {
        self.inner
            .metadata()
            .title
            .clone()
            .or_else(|| self.inner.document().title())
    }

    /// The language of the main text (ISO 639-1 where there is one), or None.
    #[getter]
    fn language(&self) -> Option<String> {
        self.inner.language().map(|l| l.code.clone())
    }

    /// What the methods noticed that a user should hear of, one line each.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings()
    }

    /// The main content as Markdown.
    fn markdown(&self, py: Python<'_>) -> String {
        py.detach(|| self.inner.markdown())
    }

    /// The main content as HTML.
    fn html(&self, py: Python<'_>) -> String {
        py.detach(|| self.inner.html())
    }

    /// The main content in a format (`txt`, `markdown`, `html`; `json`: the record as text).
    fn render(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let format = format_of(format)?;
        Ok(py.detach(|| self.inner.render(format)))
    }

    /// The page's record as `chaff extract --format json` prints it (a dict): provenance,
    /// title, the content under `text` in `format`, confidence, metadata, language, each
    /// method's say; with `labels`, every node's label and score.
    #[pyo3(signature = (format = "json", labels = false))]
    fn record<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        labels: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = self.record_json(py, format, labels)?;
        json_to_py(py, &text)
    }

    /// The record of [`record`](Self::record) as one line of JSON, as the command line
    /// prints it.
    #[pyo3(signature = (format = "json", labels = false))]
    fn record_json(&self, py: Python<'_>, format: &str, labels: bool) -> PyResult<String> {
        let format = format_of(format)?;
        Ok(py.detach(|| self.inner.record_with(format, labels).to_string()))
    }

    /// What the page's markup says of it (title, authors, dates, site name, ...), a dict.
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(self.inner.metadata())
            .map_err(|e| ChaffError::new_err(e.to_string()))?;
        json_to_py(py, &text)
    }

    /// The page as trafilatura's `bare_extraction` gives it: a dict of `url`, `hostname`,
    /// `site`, `profile`, `title`, `author`, `date`, `modified`, `sitename`, `description`,
    /// `categories`, `tags`, `image`, `license`, `pagetype`, `language`, `confidence`,
    /// `no_content` and `text`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = &self.inner;
        let m = e.metadata();
        let d = PyDict::new(py);
        d.set_item("url", e.url())?;
        d.set_item("hostname", e.url().and_then(hostname))?;
        d.set_item("site", e.site())?;
        d.set_item("profile", e.profile_site())?;
        d.set_item("title", self.title())?;
        let author = (!m.authors.is_empty()).then(|| m.authors.join("; "));
        d.set_item("author", author)?;
        d.set_item("date", m.published.as_deref())?;
        d.set_item("modified", m.modified.as_deref())?;
        d.set_item("sitename", m.site_name.as_deref())?;
        d.set_item("description", m.description.as_deref())?;
        d.set_item("categories", &m.categories)?;
        d.set_item("tags", &m.tags)?;
        d.set_item("image", m.image.as_deref())?;
        d.set_item("license", m.license.as_deref())?;
        let pagetype = m
            .page_type
            .and_then(|t| serde_json::to_value(t).ok())
            .and_then(|v| v.as_str().map(str::to_string));
        d.set_item("pagetype", pagetype)?;
        d.set_item("language", self.language())?;
        d.set_item("confidence", e.confidence())?;
        d.set_item("no_content", self.no_content())?;
        d.set_item("text", e.text())?;
        d.set_item("comments", e.comments())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<chaff.Extraction {} ({} chars, confidence {:.3})>",
            self.inner.source(),
            self.inner.text().chars().count(),
            self.inner.confidence()
        )
    }
}

/// A site profile: what chaff learned of a site's template, as versioned JSON.
#[pyclass(module = "chaff", name = "Profile", frozen)]
struct PyProfile {
    inner: chaff::Profile,
}

#[pymethods]
impl PyProfile {
    /// Reads a profile file (raises ProfileError when it is not a valid chaff profile).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyProfile> {
        let inner = py.detach(|| chaff::Profile::load(&path)).map_err(py_err)?;
        Ok(PyProfile { inner })
    }

    /// Parses a profile from its JSON text; `origin` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, origin = "<profile>"))]
    fn from_json(text: &str, origin: &str) -> PyResult<PyProfile> {
        let inner = chaff::Profile::from_json(text, origin).map_err(py_err)?;
        Ok(PyProfile { inner })
    }

    /// Writes the profile to `path` atomically (a temporary file renamed into place).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.inner.save(&path)).map_err(py_err)
    }

    /// The profile as pretty-printed JSON, as `save` writes it.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The site key it was learned for.
    #[getter]
    fn site(&self) -> &str {
        &self.inner.site
    }

    /// How many pages it was learned from.
    #[getter]
    fn pages(&self) -> u32 {
        self.inner.pages
    }

    /// The methods it holds a model of, sorted.
    #[getter]
    fn methods(&self) -> Vec<&str> {
        self.inner.method_names()
    }

    /// One line on what the profile holds.
    fn summary(&self) -> String {
        self.inner.summary()
    }

    /// The file name of a site's profile in a folder of profiles
    /// (`example.org.profile.json`), as `chaff learn --per-site` names them.
    #[staticmethod]
    fn file_name(site: &str) -> String {
        chaff::Profile::file_name(site)
    }

    fn __repr__(&self) -> String {
        format!("<chaff.Profile {}>", self.inner.summary())
    }
}

/// Registers the content model's decision as `favor` asks for (`precision`, `recall`).
fn registry_for(favor: Option<&str>) -> PyResult<Registry> {
    let mut registry = Registry::builtin().map_err(py_err)?;
    let favor = match favor {
        None | Some("balanced") => return Ok(registry),
        Some("precision") => Favor::Precision,
        Some("recall") => Favor::Recall,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "favor must be \"precision\", \"recall\" or \"balanced\", not {other:?}"
            )));
        }
    };
    let model = ContentModel::load_or_builtin(None).map_err(|e| {
        MethodError::new_err(format!("content: the built-in model does not load: {e}"))
    })?;
    registry.register(ContentMethod::favoring(Arc::new(model), Some(favor)));
    Ok(registry)
}

/// Turns pages into their main content; thread-safe, reuse it. See `chaff.Extractor`.
#[pyclass(module = "chaff._chaff", name = "Extractor", frozen)]
struct PyExtractor {
    inner: chaff::Extractor,
    /// The last pool `extract_many` used, reused when the next call asks for as many threads.
    pool: Mutex<Option<Arc<rayon::ThreadPool>>>,
}

#[pymethods]
impl PyExtractor {
    #[new]
    #[pyo3(signature = (profiles_dir = None, profiles = None, profile = None, site_methods = None, favor = None, include_comments = false, record_metadata = true, links = true, images = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        profiles_dir: Option<PathBuf>,
        profiles: Option<Vec<PyRef<'_, PyProfile>>>,
        profile: Option<PyRef<'_, PyProfile>>,
        site_methods: Option<Vec<String>>,
        favor: Option<&str>,
        include_comments: bool,
        record_metadata: bool,
        links: bool,
        images: bool,
    ) -> PyResult<PyExtractor> {
        let registry = registry_for(favor)?;
        let store: chaff::ProfileStore = profiles
            .unwrap_or_default()
            .iter()
            .map(|p| p.inner.clone())
            .collect();
        let every_page = profile.map(|p| p.inner.clone());
        let inner = py
            .detach(|| {
                let mut b = chaff::Extractor::builder()
                    .registry(registry)
                    .include_comments(include_comments)
                    .record_metadata(record_metadata)
                    .links(links)
                    .images(images);
                if let Some(dir) = &profiles_dir {
                    b = b.profiles(dir)?;
                }
                b = b.store(store);
                if let Some(p) = every_page {
                    b = b.profile_for_every_page(p);
                }
                if let Some(m) = site_methods {
                    b = b.site_methods(m);
                }
                b.build()
            })
            .map_err(py_err)?;
        Ok(PyExtractor {
            inner,
            pool: Mutex::new(None),
        })
    }

    /// Extracts one page (`html`: str or bytes) with the GIL released; `source` names it
    /// (default: its URL), `charset` is what its transport declared (a WARC record's).
    #[pyo3(signature = (html, url = None, source = None, charset = None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
        source: Option<&str>,
        charset: Option<&str>,
    ) -> PyResult<PyExtraction> {
        let html = Html::from_py(html)?;
        let inner = py
            .detach(|| match (source, charset) {
                (None, None) => extract_one(&self.inner, &html, url),
                _ => extract_described(&self.inner, &html, url, source, charset),
            })
            .map_err(py_err)?;
        Ok(PyExtraction { inner })
    }

    /// Extracts one page straight to a format, as `chaff extract` prints it: the content
    /// for `txt`, `markdown` and `html`, the record (one line of JSON) for `json`.
    #[pyo3(signature = (html, url = None, format = "txt"))]
    fn extract_to(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<&str>,
        format: &str,
    ) -> PyResult<String> {
        let html = Html::from_py(html)?;
        let format = format_of(format)?;
        py.detach(|| extract_one(&self.inner, &html, url).map(|e| e.output(format, false)))
            .map_err(py_err)
    }

    /// Extracts many pages on a pool of `threads` threads with the GIL released, yielding
    /// `Extraction`s in input order; at most `batch` pages (default four per thread) are
    /// read and not yet yielded at any time. With `prepare_records`, each page's metadata and
    /// language are worked out on the pool too, for a caller that reads records. `pages` is any iterable of
    /// `html`, `(html, url)` or `(html, url, charset)`. A page that fails raises its error where it stands
    /// (`errors="raise"`), or is yielded as the exception object (`errors="yield"`).
    #[pyo3(signature = (pages, threads = 1, batch = None, errors = "raise", prepare_records = false))]
    fn extract_many(
        &self,
        pages: &Bound<'_, PyAny>,
        threads: usize,
        batch: Option<usize>,
        errors: &str,
        prepare_records: bool,
    ) -> PyResult<ExtractMany> {
        let yield_errors = match errors {
            "raise" => false,
            "yield" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "errors must be \"raise\" or \"yield\", not {other:?}"
                )));
            }
        };
        let threads = threads.max(1);
        let pool = self.pool(threads)?;
        Ok(ExtractMany {
            pages: pages.try_iter()?.unbind(),
            extractor: self.inner.clone(),
            pool,
            window: batch.unwrap_or(threads * 4).max(1),
            jobs: Mutex::new(InOrder::new()),
            prepare_records,
            yield_errors,
            done: false,
        })
    }

    /// For `python/bench`: extracts `pages` (`(html, url)` pairs) to text `rounds` times
    /// through the Rust API alone (`chaff::Extractor::extract`, one thread, the GIL
    /// released) and returns the seconds each round took, to set beside a Python loop over
    /// the same pages in the same process.
    #[pyo3(signature = (pages, rounds = 1))]
    fn _time_rust(
        &self,
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        rounds: usize,
    ) -> PyResult<Vec<f64>> {
        let mut items = Vec::new();
        for obj in pages.try_iter()? {
            items.push(item_from_py(&obj?)?);
        }
        py.detach(|| {
            (0..rounds)
                .map(|_| {
                    let start = std::time::Instant::now();
                    let mut chars = 0usize;
                    for item in &items {
                        if let Ok(e) = item.extract(&self.inner) {
                            chars += std::hint::black_box(e.text().to_string()).len();
                        }
                    }
                    std::hint::black_box(chars);
                    start.elapsed().as_secs_f64()
                })
                .collect::<Vec<f64>>()
        })
        .into_iter()
        .map(Ok)
        .collect()
    }

    /// The sites with a profile, sorted.
    fn sites(&self) -> Vec<&str> {
        self.inner.sites()
    }

    /// What building noticed and did not refuse (a profile model of an unknown method).
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings().to_vec()
    }
}

impl PyExtractor {
    fn pool(&self, threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
        let mut slot = self
            .pool
            .lock()
            .map_err(|_| ChaffError::new_err("the extractor's thread pool lock was poisoned"))?;
        if let Some(p) = slot.as_ref().filter(|p| p.current_num_threads() == threads) {
            return Ok(Arc::clone(p));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("chaff-{i}"))
            .build()
            .map_err(|e| ChaffError::new_err(format!("cannot start {threads} threads: {e}")))?;
        let pool = Arc::new(pool);
        *slot = Some(Arc::clone(&pool));
        Ok(pool)
    }
}

/// The iterator `Extractor.extract_many` returns. Pages stream through a window on the
/// pool (`chaff::InOrder`): each `__next__` reads pages from Python (holding the GIL) and
/// starts them until `window` are started and not yet yielded (or, after one, until the
/// oldest is done), then waits for the oldest with the GIL released, so the pool works on
/// the next pages while Python handles one.
#[pyclass(module = "chaff._chaff")]
struct ExtractMany {
    pages: Py<PyIterator>,
    extractor: chaff::Extractor,
    pool: Arc<rayon::ThreadPool>,
    window: usize,
    /// Pages started or refused, in input order: an extraction, a page's error, or the
    /// Python error its item raised. (In a mutex only because a Python class must be
    /// `Sync` and a channel's receiver is not; `__next__` holds the object mutably, so the
    /// lock is never taken.)
    jobs: Mutex<Jobs>,
    /// Whether each page's job also works out what its record reads.
    prepare_records: bool,
    yield_errors: bool,
    /// Whether the input has ended (or raised, which ends it).
    done: bool,
}

/// The window of `extract_many`.
type Jobs = InOrder<(), Result<chaff::Extraction, Result<chaff::Error, PyErr>>>;

impl ExtractMany {
    /// Reads and starts pages while the window wants more (`InOrder::should_read`: until it
    /// is full, or, once a page has been read, until the oldest page's result is in, so a
    /// generator that fetches its pages slowly does not hold a finished result back) and the
    /// input lasts.
    fn fill(&mut self, py: Python<'_>) {
        let mut pages = self.pages.bind(py).clone();
        let jobs = self.jobs.get_mut().unwrap_or_else(PoisonError::into_inner);
        let mut read = false;
        while !self.done && jobs.should_read(self.window, read) {
            read = true;
            match pages.next() {
                Some(Ok(obj)) => match item_from_py(&obj) {
                    Ok(item) => {
                        let ex = self.extractor.clone();
                        let prepare = self.prepare_records;
                        jobs.spawn_in(&self.pool, (), move || {
                            let done = item.extract(&ex).map_err(Ok)?;
                            if prepare {
                                done.prepare_record();
                            }
                            Ok(done)
                        });
                    }
                    Err(e) => jobs.push_ready((), Err(Err(e))),
                },
                Some(Err(e)) => {
                    jobs.push_ready((), Err(Err(e)));
                    self.done = true;
                }
                None => self.done = true,
            }
        }
    }
}

#[pymethods]
impl ExtractMany {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let this = &mut *slf;
        this.fill(py);
        let jobs = this.jobs.get_mut().unwrap_or_else(PoisonError::into_inner);
        let outcome = match py.detach(|| jobs.next_result()) {
            None => return Ok(None),
            Some(((), Ok(outcome))) => outcome,
            Some(((), Err(lost))) => Err(Err(ChaffError::new_err(lost.to_string()))),
        };
        match outcome.map_err(|e| e.map_or_else(|pe| pe, py_err)) {
            Ok(inner) => Ok(Some(Py::new(py, PyExtraction { inner })?.into_any())),
            Err(e) if this.yield_errors => Ok(Some(e.into_value(py).into_any())),
            Err(e) => Err(e),
        }
    }
}

/// Learns one site's profile from its pages (an iterable of `html` or `(html, url)`) with the
/// named site methods (default: those the content model weighs). With `site`, only that
/// site's pages are learned from; without it, all pages must be of one site. What learning
/// has to say besides the profile (pages that could not be read, pages that resemble none of
/// the site's templates) comes as a `UserWarning` each.
#[pyfunction]
#[pyo3(signature = (pages, methods = None, site = None))]
fn learn(
    py: Python<'_>,
    pages: &Bound<'_, PyAny>,
    methods: Option<Vec<String>>,
    site: Option<String>,
) -> PyResult<PyProfile> {
    let pages = corpus_pages(pages)?;
    let choice = match &site {
        Some(s) => SiteChoice::Named(s.clone()),
        None => SiteChoice::Single,
    };
    let mut learned = py.detach(|| learn_pages(pages, methods, &choice, None))?;
    match learned.profiles.pop() {
        Some(inner) => {
            // The other sites of the pages were left out as asked: no news.
            learned
                .skipped
                .retain(|(s, _, _)| site.as_ref().is_none_or(|named| named == s));
            for note in learned.notes() {
                let message = CString::new(note.replace('\0', " ")).unwrap_or_default();
                // Level 2: the caller of the Python wrapper around this function.
                PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 2)?;
            }
            Ok(PyProfile { inner })
        }
        None => Err(MethodError::new_err(format!(
            "no profile was learned: {}",
            learned.notes().join("; ")
        ))),
    }
}

/// Learns a profile for every site of the pages with at least `min_pages` pages; returns the
/// profiles and the notes (pages that failed, sites skipped and why).
#[pyfunction]
#[pyo3(signature = (pages, methods = None, min_pages = 2))]
fn learn_sites(
    py: Python<'_>,
    pages: &Bound<'_, PyAny>,
    methods: Option<Vec<String>>,
    min_pages: usize,
) -> PyResult<(Vec<PyProfile>, Vec<String>)> {
    let pages = corpus_pages(pages)?;
    let learned =
        py.detach(|| learn_pages(pages, methods, &SiteChoice::PerSite, Some(min_pages)))?;
    let notes = learned.notes();
    let profiles = learned
        .profiles
        .into_iter()
        .map(|inner| PyProfile { inner })
        .collect();
    Ok((profiles, notes))
}

fn learn_pages(
    pages: Vec<Page>,
    methods: Option<Vec<String>>,
    choice: &SiteChoice,
    min_pages: Option<usize>,
) -> PyResult<chaff::Learned> {
    let registry = Registry::builtin().map_err(py_err)?;
    let names: Vec<String> = match methods {
        Some(m) => m,
        None => chaff::DEFAULT_SITE_METHODS
            .iter()
            .map(|s| s.to_string())
            .collect(),
    };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut learner = Learner::new(&registry, &names).map_err(py_err)?;
    if let Some(n) = min_pages {
        learner = learner.min_pages(n);
    }
    learner
        .learn(pages.into_iter().map(Ok), choice, &|_| {})
        .map_err(py_err)
}

/// Python's pages as corpus pages (their bytes copied: learning keeps material past them).
fn corpus_pages(pages: &Bound<'_, PyAny>) -> PyResult<Vec<Page>> {
    let mut out = Vec::new();
    for (i, obj) in pages.try_iter()?.enumerate() {
        let Item { html, url, charset } = item_from_py(&obj?)?;
        let (bytes, charset) = match &html {
            Html::Bytes(b) => (b.to_vec(), charset),
            Html::Str(s) => (s.as_bytes().to_vec(), Some("utf-8".to_string())),
        };
        out.push(Page {
            source: url.clone().unwrap_or_else(|| format!("<page {i}>")),
            url,
            bytes,
            charset,
            folder: None,
            media: Media::Html,
        });
    }
    Ok(out)
}

/// One page of a WARC file: its URL, HTML bytes, HTTP headers, source and declared charset.
#[pyclass(module = "chaff", name = "WarcRecord", frozen)]
struct PyWarcRecord {
    /// The record's target URI, when it has one.
    #[pyo3(get)]
    url: Option<String>,
    /// The page's bytes, transfer and content codings undone, in the page's own encoding.
    #[pyo3(get)]
    html: Py<PyBytes>,
    /// The HTTP response headers (a resource record: its Content-Type), names as written; a
    /// header given several times is joined with ", ".
    #[pyo3(get)]
    headers: Py<PyDict>,
    /// `file.warc.gz#offset`: where the record starts.
    #[pyo3(get)]
    source: String,
    /// The charset the HTTP headers declare, when they do.
    #[pyo3(get)]
    charset: Option<String>,
}

#[pymethods]
impl PyWarcRecord {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<chaff.WarcRecord {} {} ({} bytes)>",
            self.source,
            self.url.as_deref().unwrap_or("-"),
            self.html.bind(py).as_bytes().len()
        )
    }
}

/// The iterator `read_warc` returns.
#[pyclass(module = "chaff._chaff")]
struct WarcReader {
    pages: Option<Mutex<WarcPages>>,
    yield_errors: bool,
}

#[pymethods]
impl WarcReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let yield_errors = slf.yield_errors;
        let Some(pages) = slf.pages.as_mut().and_then(|m| m.get_mut().ok()) else {
            return Ok(None);
        };
        let next = py.detach(|| pages.next().map(|p| (p, pages.take_headers())));
        let (page, headers) = match next {
            None => {
                slf.pages = None;
                return Ok(None);
            }
            Some(x) => x,
        };
        let page = match page {
            Ok(page) => page,
            Err(e) if yield_errors => return Ok(Some(corpus_err(e).into_value(py).into_any())),
            Err(e) => return Err(corpus_err(e)),
        };
        let dict = PyDict::new(py);
        for (name, value) in headers {
            let joined = match dict.get_item(&name)? {
                Some(old) => format!("{}, {value}", old.extract::<String>()?),
                None => value,
            };
            dict.set_item(name, joined)?;
        }
        let record = PyWarcRecord {
            url: page.url,
            html: PyBytes::new(py, &page.bytes).unbind(),
            headers: dict.unbind(),
            source: page.source,
            charset: page.charset,
        };
        Ok(Some(Py::new(py, record)?.into_any()))
    }
}

/// Reads the HTML pages of a WARC file (plain or gzip), or of its bytes, with `name` naming
/// it in sources and errors. Damage raises WarcError after every record before it; a bad
/// record raises WarcError and reading goes on past it. With `errors="yield"` each error is
/// yielded as the exception object instead.
#[pyfunction]
#[pyo3(signature = (source, name = None, errors = "raise"))]
fn read_warc(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<PathBuf>,
    errors: &str,
) -> PyResult<WarcReader> {
    let yield_errors = match errors {
        "raise" => false,
        "yield" => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "errors must be \"raise\" or \"yield\", not {other:?}"
            )));
        }
    };
    let pages =
        if source.is_instance_of::<PyString>() || source.extract::<PyBackedBytes>().is_err() {
            let path: PathBuf = source.extract().map_err(|_| {
                PyTypeError::new_err("read_warc takes a path (str or os.PathLike) or bytes")
            })?;
            let name = name.unwrap_or_else(|| path.clone());
            py.detach(|| {
                let file =
                    std::fs::File::open(&path).map_err(|source| CorpusError::Unreadable {
                        path: path.clone(),
                        source,
                    })?;
                WarcPages::from_reader(Box::new(file), name)
            })
        } else {
            let bytes: PyBackedBytes = source.extract()?;
            let name = name.unwrap_or_else(|| PathBuf::from("<bytes>"));
            WarcPages::from_reader(Box::new(Cursor::new(bytes)), name)
        }
        .map_err(corpus_err)?;
    Ok(WarcReader {
        pages: Some(Mutex::new(pages)),
        yield_errors,
    })
}

/// The site key chaff gives a page with this URL (`https://www.bbc.co.uk/news` ->
/// `bbc.co.uk`), which picks its profile.
#[pyfunction]
fn site_of(url: &str) -> String {
    chaff::corpus::site_key(Some(url), None, None)
        .as_str()
        .to_string()
}

/// The module's names.
#[pymodule]
fn _chaff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ChaffError", py.get_type::<ChaffError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("ProfileError", py.get_type::<ProfileError>())?;
    m.add("WarcError", py.get_type::<WarcError>())?;
    m.add("MethodError", py.get_type::<MethodError>())?;
    m.add_class::<PyExtraction>()?;
    m.add_class::<PyProfile>()?;
    m.add_class::<PyExtractor>()?;
    m.add_class::<ExtractMany>()?;
    m.add_class::<PyWarcRecord>()?;
    m.add_class::<WarcReader>()?;
    m.add_function(wrap_pyfunction!(learn, m)?)?;
    m.add_function(wrap_pyfunction!(learn_sites, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(site_of, m)?)?;
    m.add("DEFAULT_SITE_METHODS", chaff::DEFAULT_SITE_METHODS.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

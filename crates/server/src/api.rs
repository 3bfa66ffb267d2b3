//! The routes, their request and answer types, and the OpenAPI document generated from
//! their annotations.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Extension, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chaff::corpus::{Media, Page};
use chaff::{Extraction, Format, SiteChoice};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::error::{ApiError, ErrorBody};
use crate::inspect::{self, Segmentation, SiteInfo};
use crate::limit::{self, Slot};
use crate::state::{AppState, Choice};

/// The generated OpenAPI document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "chaff",
        description = "A web page's main content, with what chaff learned of its site. The server never fetches a URL: a page's `url` is only its address."
    ),
    paths(
        extract,
        segment,
        inspect_page,
        learn,
        sites,
        site,
        pages,
        healthz,
        metrics
    ),
    components(schemas(ErrorBody))
)]
struct ApiDoc;

/// The OpenAPI 3 document of the API (served at `/openapi.json`).
///
/// It states what the handlers check where a schema can say it: `/v1/learn` takes at
/// least `LEARN_MIN_PAGES` pages (that they are of one site, no schema can state), and
/// `/v1/inspect` exactly one of `html` and `page`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    use utoipa::openapi::{RefOr, schema::Schema};
    let mut doc = ApiDoc::openapi();
    if let Some(components) = doc.components.as_mut() {
        use utoipa::openapi::schema::Type;
        let html_or_page = [("html", Type::String), ("page", Type::Integer)];
        exactly_one_of(&mut components.schemas, "InspectRequest", &html_or_page);
    }
    let learn_body = doc
        .paths
        .paths
        .get_mut("/v1/learn")
        .and_then(|p| p.post.as_mut())
        .and_then(|op| op.request_body.as_mut())
        .and_then(|body| body.content.get_mut("application/json"))
        .and_then(|content| content.schema.as_mut());
    if let Some(RefOr::T(Schema::Array(pages))) = learn_body {
        pages.min_items = Some(LEARN_MIN_PAGES);
    }
    doc
}

/// Makes the object schema `name` require exactly one of `fields` (each a name and the type
/// its value must have; `null` counts as absent, as the handler reads it): all of the object,
/// and one of "has this field, not null", one per field, so that a body with two of them
/// matches two branches and fails.
fn exactly_one_of(
    schemas: &mut std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    >,
    name: &str,
    fields: &[(&str, utoipa::openapi::schema::Type)],
) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema};
    let Some(object) = schemas.remove(name) else {
        return;
    };
    let one_of = fields
        .iter()
        .fold(OneOfBuilder::new(), |b, (field, kind)| {
            let value = ObjectBuilder::new().schema_type(kind.clone());
            b.item(
                ObjectBuilder::new()
                    .property(*field, value)
                    .required(*field),
            )
        })
        .build();
    let both = AllOfBuilder::new()
        .item(object)
        .item(RefOr::T(Schema::OneOf(one_of)))
        .build();
    schemas.insert(name.to_string(), RefOr::T(Schema::AllOf(both)));
}

/// The fewest pages `/v1/learn` learns a site from.
const LEARN_MIN_PAGES: usize = 2;

pub(crate) fn router(state: Arc<AppState>) -> Router {
    let max_body = state.config.max_body;
    let work = Router::new()
        .route("/v1/extract", post(extract))
        .route("/v1/segment", post(segment))
        .route("/v1/inspect", post(inspect_page))
        .route("/v1/learn", post(learn))
        .route_layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            limit::admit,
        ));
    Router::new()
        .merge(work)
        .route("/v1/sites", get(sites))
        .route("/v1/sites/{site}", get(site))
        .route("/v1/pages", get(pages))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi_json))
        .merge(crate::ui::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            body_limit,
        ))
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            crate::metrics::track,
        ))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such route: see /openapi.json")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this route does not take that method: see /openapi.json",
    )
}

/// Refuses a body whose declared length is over the limit before reading any of it (one
/// without a declared length is cut at the limit as it is read).
async fn body_limit(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(n) if n > state.config.max_body as u64 => {
            too_large(state.config.max_body).into_response()
        }
        _ => next.run(req).await,
    }
}

fn too_large(max: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the body is larger than the limit of {max} bytes"),
    )
}

/// An output format.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum FormatName {
    /// Plain text.
    #[default]
    Text,
    /// Markdown.
    Markdown,
    /// HTML.
    Html,
    /// The record with the text as plain text.
    Json,
    /// trafilatura's XML.
    Xml,
    /// TEI, as trafilatura writes it.
    Tei,
}

impl From<FormatName> for Format {
    fn from(f: FormatName) -> Format {
        match f {
            FormatName::Text => Format::Text,
            FormatName::Markdown => Format::Markdown,
            FormatName::Html => Format::Html,
            FormatName::Json => Format::Json,
            FormatName::Xml => Format::Xml,
            FormatName::Tei => Format::Tei,
        }
    }
}

/// The page-level classifier.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Classifier {
    /// The content model (default).
    Content,
    /// The page-level template classifier.
    Pagelevel,
}

/// Query parameters of a page sent raw (as `text/html`).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The page's address (never fetched); names its site.
    url: Option<String>,
    /// The content's format.
    format: Option<FormatName>,
    /// Add every node's label and score (`nodes`).
    labels: Option<bool>,
    /// Apply this site's profile whatever the URL says.
    site: Option<String>,
    /// Give the record's `metadata` and `language` (default true); false saves about a
    /// seventh of a page's time when only the text is wanted.
    metadata: Option<bool>,
    /// Keep readers' comments in the main text (default false).
    comments: Option<bool>,
    /// Write links (default true; false writes each link as its text).
    links: Option<bool>,
    /// Write images (default true).
    images: Option<bool>,
    /// Start Markdown with YAML front matter (default false).
    front_matter: Option<bool>,
}

impl PageQuery {
    fn output(&self) -> OutputOptions {
        OutputOptions {
            comments: self.comments,
            links: self.links,
            images: self.images,
            front_matter: self.front_matter,
        }
    }
}

/// What the content holds besides its text (a page sent raw takes the same as query
/// parameters).
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
pub struct OutputOptions {
    /// Keep readers' comments in the main text (default false; the record gives them
    /// apart under `comments` either way).
    comments: Option<bool>,
    /// Write links in Markdown, HTML, XML and TEI (default true; false writes each link as
    /// its text). Relative addresses are made absolute against the page's `url`.
    links: Option<bool>,
    /// Write images in Markdown, HTML, XML and TEI (default true).
    images: Option<bool>,
    /// Start Markdown with YAML front matter holding the page's metadata (default false).
    front_matter: Option<bool>,
}

impl OutputOptions {
    /// `ex` written as these options say.
    fn apply(self, ex: Extraction) -> Extraction {
        ex.with_links(self.links.unwrap_or(true))
            .with_images(self.images.unwrap_or(true))
            .with_front_matter(self.front_matter.unwrap_or(false))
    }
}

/// A page sent as JSON, with the methods to use.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PageRequest {
    /// The page's HTML.
    html: String,
    /// The page's address (never fetched); names its site.
    url: Option<String>,
    /// The content's format (default `text`).
    format: Option<FormatName>,
    /// Add every node's label and score (`nodes`).
    labels: Option<bool>,
    /// Apply this site's profile whatever the URL says.
    site: Option<String>,
    /// The site-level methods to apply from the profile (default: every model it has).
    methods: Option<Vec<String>>,
    /// The page-level classifier (default `content`).
    classifier: Option<Classifier>,
    /// The content model's threshold: probability of content at or above which a text
    /// node is kept (default: the model's).
    #[schema(minimum = 0.0, maximum = 1.0)]
    threshold: Option<f64>,
    /// Also remove the page's main menu.
    menu: Option<bool>,
    /// Give the record's `metadata` and `language` (default true); false saves about a
    /// seventh of a page's time when only the text is wanted.
    metadata: Option<bool>,
    #[serde(flatten)]
    output: OutputOptions,
}

impl PageRequest {
    fn choice(&self) -> Choice {
        Choice {
            methods: self.methods.clone(),
            classifier: self.classifier.map(|c| match c {
                Classifier::Content => "content".to_string(),
                Classifier::Pagelevel => "pagelevel".to_string(),
            }),
            threshold: self.threshold,
            menu: self.menu.unwrap_or(false),
            site: self.site.clone(),
            comments: self.output.comments.unwrap_or(false),
        }
    }
}

/// A page ready to extract, and how.
struct Job {
    page: Page,
    choice: Choice,
    format: FormatName,
    labels: bool,
    /// Whether the record carries the metadata and the language.
    metadata: bool,
    /// Links, images and front matter.
    output: OutputOptions,
}

/// The media type of a request, without parameters, lower-cased, and its charset.
fn media_type(headers: &HeaderMap) -> (Option<String>, Option<String>) {
    let Some(v) = headers.get(header::CONTENT_TYPE) else {
        return (None, None);
    };
    let v = String::from_utf8_lossy(v.as_bytes()).to_ascii_lowercase();
    let mut parts = v.split(';');
    let media = parts.next().unwrap_or("").trim().to_string();
    let charset = parts
        .filter_map(|p| p.trim().strip_prefix("charset="))
        .map(|c| c.trim_matches('"').to_string())
        .next();
    (Some(media), charset)
}

fn is_json(media: &str) -> bool {
    media == "application/json" || media.ends_with("+json")
}

fn body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| ApiError::new(e.status(), e.body_text()))
}

fn query<T: Default>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    match q {
        Ok(Query(q)) => Ok(q),
        Err(e) => Err(ApiError::bad_request(e.body_text())),
    }
}

fn json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("invalid JSON: {e}")))
}

fn page(url: Option<String>, bytes: Vec<u8>, charset: Option<String>) -> Page {
    Page {
        source: url.clone().unwrap_or_else(|| "<request>".to_string()),
        url,
        bytes,
        charset,
        folder: None,
        media: Media::Html,
    }
}

/// Reads a page sent raw (`text/html` and the like, or no media type) or as JSON.
fn job(headers: &HeaderMap, q: PageQuery, bytes: Bytes) -> Result<Job, ApiError> {
    let (media, charset) = media_type(headers);
    match media.as_deref() {
        Some(m) if is_json(m) => {
            let r: PageRequest = json(&bytes)?;
            Ok(Job {
                choice: r.choice(),
                format: r.format.unwrap_or_default(),
                labels: r.labels.unwrap_or(false),
                metadata: r.metadata.unwrap_or(true),
                output: r.output,
                // Text that came as JSON is Unicode, whatever the page's <meta> says.
                page: page(r.url, r.html.into_bytes(), Some("utf-8".into())),
            })
        }
        None
        | Some("text/html" | "application/xhtml+xml" | "text/plain" | "application/octet-stream") =>
        {
            let output = q.output();
            Ok(Job {
                choice: Choice {
                    site: q.site,
                    comments: q.comments.unwrap_or(false),
                    ..Choice::default()
                },
                format: q.format.unwrap_or_default(),
                labels: q.labels.unwrap_or(false),
                metadata: q.metadata.unwrap_or(true),
                output,
                page: page(q.url, bytes.to_vec(), charset),
            })
        }
        Some(other) => Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("cannot read a body of type {other}: send text/html or application/json"),
        )),
    }
}

/// Extracts a page on a blocking thread within the request's bounds.
async fn run_extraction<T: Send + 'static>(
    state: &Arc<AppState>,
    slot: Slot,
    job: Job,
    then: impl FnOnce(Extraction, &Job, &AppState) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let admitted = limit::take(slot)?;
    let st = Arc::clone(state);
    let out = state
        .limits
        .run(admitted, move || {
            let ex = st.extractor_for(&job.choice, job.page.url.as_deref())?;
            let extraction = ex.extract_page(job.page.clone())?;
            Ok(then(extraction, &job, &st))
        })
        .await;
    count(state, &out);
    out
}

fn count<T>(state: &AppState, out: &Result<T, ApiError>) {
    match out {
        Ok(_) => state.metrics.page(),
        Err(e) if e.status.is_server_error() || e.status == StatusCode::UNPROCESSABLE_ENTITY => {
            state.metrics.error()
        }
        Err(_) => {}
    }
}

/// A page's record.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
pub struct Record {
    /// Where the page came from (its URL, or `<request>`).
    pub source: String,
    /// Its URL, when given.
    pub url: Option<String>,
    /// Its site key.
    pub site: String,
    /// Its title.
    pub title: Option<String>,
    /// The format of `text`.
    pub format: String,
    /// The main content.
    pub text: String,
    /// The readers' comments, as plain text, when the page has a thread (given apart
    /// whether or not `comments` kept them in `text` too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// How sure the decision is, in `[0, 1]`.
    pub confidence: f64,
    /// The site whose profile was applied, if one was.
    pub profile: Option<String>,
    /// Why the page has no main content, when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_content: Option<String>,
    /// What the page's markup says of it (title, authors, dates...), each value with its
    /// source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub metadata: Option<serde_json::Value>,
    /// The language of the main text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub language: Option<serde_json::Value>,
    /// What each method said: its name, scope, and the nodes it covered or why it abstained.
    #[schema(value_type = Vec<Object>)]
    pub methods: Vec<serde_json::Value>,
    /// What the methods noticed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
    /// With `labels`: every element's and visible text node's label and score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub nodes: Option<Vec<serde_json::Value>>,
}

/// Extracts a page's main content.
#[utoipa::path(
    post,
    path = "/v1/extract",
    params(PageQuery),
    request_body(
        description = "The page: raw HTML (`text/html`, with `url`, `format`, `labels`, `site`, `metadata`, `comments`, `links`, `images`, `front_matter` as query parameters) or JSON",
        content((PageRequest = "application/json"), (String = "text/html"))
    ),
    responses(
        (status = 200, description = "The page's record", body = Record),
        (status = 400, description = "Bad JSON or parameters", body = ErrorBody),
        (status = 404, description = "No profile for the site asked for", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
        (status = 415, description = "A body type other than HTML or JSON", body = ErrorBody),
        (status = 422, description = "The page cannot be read (binary, too large to parse)", body = ErrorBody),
        (status = 503, description = "Busy: retry after the time in Retry-After", body = ErrorBody),
        (status = 504, description = "The time budget was spent", body = ErrorBody),
    )
)]
async fn extract(
    State(state): State<Arc<AppState>>,
    Extension(slot): Extension<Slot>,
    headers: HeaderMap,
    q: Result<Query<PageQuery>, QueryRejection>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<Record>, ApiError> {
    let job = job(&headers, query(q)?, body(bytes)?)?;
    let value = run_extraction(&state, slot, job, |ex, job, _| {
        job.output
            .apply(ex.with_record_metadata(job.metadata))
            .record_with(job.format.into(), job.labels)
    })
    .await?;
    let record: Record = serde_json::from_value(value)
        .map_err(|e| ApiError::internal(format!("the record does not fit its schema: {e}")))?;
    Ok(Json(record))
}

/// Labels every node of a page: its fused role and score and each method's say (what
/// `chaff extract --labels` gives, with the evidence).
#[utoipa::path(
    post,
    path = "/v1/segment",
    params(PageQuery),
    request_body(
        description = "The page: raw HTML or JSON, as for /v1/extract",
        content((PageRequest = "application/json"), (String = "text/html"))
    ),
    responses(
        (status = 200, description = "Every node's labels", body = Segmentation),
        (status = 400, description = "Bad JSON or parameters", body = ErrorBody),
        (status = 404, description = "No profile for the site asked for", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
        (status = 415, description = "A body type other than HTML or JSON", body = ErrorBody),
        (status = 422, description = "The page cannot be read", body = ErrorBody),
        (status = 503, description = "Busy", body = ErrorBody),
        (status = 504, description = "The time budget was spent", body = ErrorBody),
    )
)]
async fn segment(
    State(state): State<Arc<AppState>>,
    Extension(slot): Extension<Slot>,
    headers: HeaderMap,
    q: Result<Query<PageQuery>, QueryRejection>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<Segmentation>, ApiError> {
    let job = job(&headers, query(q)?, body(bytes)?)?;
    let seg = run_extraction(&state, slot, job, |ex, _, _| inspect::segmentation(&ex)).await?;
    Ok(Json(seg))
}

/// A page for the inspector: sent as HTML, or one of the server's pages by index.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct InspectRequest {
    /// The page's HTML (or give `page`).
    html: Option<String>,
    /// The index of one of the server's pages (`/v1/pages`).
    page: Option<u64>,
    /// The page's address (never fetched); names its site.
    url: Option<String>,
    /// Apply this site's profile whatever the URL says.
    site: Option<String>,
    /// The site-level methods to apply from the profile (default: every model it has).
    methods: Option<Vec<String>>,
    /// The page-level classifier (default `content`).
    classifier: Option<Classifier>,
    /// The content model's threshold.
    #[schema(minimum = 0.0, maximum = 1.0)]
    threshold: Option<f64>,
    /// Also remove the page's main menu.
    menu: Option<bool>,
}

/// What the inspector shows of a page.
#[derive(Debug, Serialize, ToSchema)]
pub struct Inspection {
    /// The page made safe to show: no script, no address outside, every element with its
    /// node id in `data-chaff-id`.
    pub document: String,
    /// The page's source.
    pub source: String,
    /// Its URL.
    pub url: Option<String>,
    /// The main content as plain text.
    pub text: String,
    /// The main content as Markdown.
    pub markdown: String,
    /// The page's metadata.
    #[schema(value_type = Object)]
    pub metadata: serde_json::Value,
    /// The labels of every node.
    pub segmentation: Segmentation,
    /// The applied profile.
    pub site_info: Option<SiteInfo>,
}

/// Everything the inspector shows of a page.
#[utoipa::path(
    post,
    path = "/v1/inspect",
    request_body(content = InspectRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The page, safe to show, with its labels", body = Inspection),
        (status = 400, description = "Bad JSON or parameters", body = ErrorBody),
        (status = 404, description = "No such page, or no profile for the site asked for", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
        (status = 415, description = "Not JSON", body = ErrorBody),
        (status = 422, description = "The page cannot be read", body = ErrorBody),
        (status = 503, description = "Busy", body = ErrorBody),
        (status = 504, description = "The time budget was spent", body = ErrorBody),
    )
)]
async fn inspect_page(
    State(state): State<Arc<AppState>>,
    Extension(slot): Extension<Slot>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<Inspection>, ApiError> {
    let bytes = body(bytes)?;
    match media_type(&headers).0.as_deref() {
        Some(m) if is_json(m) => {}
        _ => {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the page as application/json",
            ));
        }
    }
    let r: InspectRequest = json(&bytes)?;
    let choice = Choice {
        methods: r.methods,
        classifier: r.classifier.map(|c| match c {
            Classifier::Content => "content".to_string(),
            Classifier::Pagelevel => "pagelevel".to_string(),
        }),
        threshold: r.threshold,
        menu: r.menu.unwrap_or(false),
        site: r.site,
        comments: false,
    };
    let page = match (r.html, r.page) {
        (Some(html), None) => page(r.url, html.into_bytes(), Some("utf-8".into())),
        (None, Some(i)) => usize::try_from(i)
            .ok()
            .and_then(|i| state.pages.get(i))
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no page {i}: see /v1/pages")))?,
        _ => return Err(ApiError::bad_request("give either html or page")),
    };
    let job = Job {
        page,
        choice,
        format: FormatName::Text,
        labels: false,
        metadata: true,
        output: OutputOptions::default(),
    };
    let out = run_extraction(&state, slot, job, |ex, _, st| Inspection {
        document: crate::neutralise(ex.document()),
        source: ex.source().to_string(),
        url: ex.url().map(str::to_string),
        text: ex.text().to_string(),
        markdown: ex.markdown(),
        metadata: serde_json::to_value(ex.metadata()).unwrap_or_default(),
        site_info: ex
            .profile_site()
            .and_then(|s| st.profile(s))
            .map(|p| inspect::site_info(&p)),
        segmentation: inspect::segmentation(&ex),
    })
    .await?;
    Ok(Json(out))
}

/// A page to learn from.
#[derive(Debug, Deserialize, ToSchema)]
pub struct LearnPage {
    /// The page's HTML.
    html: String,
    /// The page's address (never fetched); names its site.
    url: Option<String>,
}

/// A learned profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct Learned {
    /// The site.
    pub site: String,
    /// One line on what the profile holds.
    pub summary: String,
    /// Where it was stored, when the server has a profiles folder it could write to.
    pub stored: Option<String>,
    /// Why it was not stored in the profiles folder, when it could not be (it is applied
    /// all the same until the server stops).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_stored: Option<String>,
    /// Pages that resemble none of the site's templates (their template had too few pages
    /// to learn from): the server reads such pages page by page.
    pub unmatched_pages: usize,
    /// What else learning has to say, a line each: pages that could not be read, methods
    /// that failed, pages matching no template.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The profile (chaff's versioned profile JSON).
    #[schema(value_type = Object)]
    pub profile: serde_json::Value,
}

/// Learns a site's profile from its pages, stores it in the profiles folder (when the
/// server has one) and applies it to the site's pages from then on.
#[utoipa::path(
    post,
    path = "/v1/learn",
    request_body(content = Vec<LearnPage>, content_type = "application/json"),
    responses(
        (status = 200, description = "The profile", body = Learned),
        (status = 400, description = "Bad JSON, or fewer than 2 pages", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
        (status = 415, description = "Not JSON", body = ErrorBody),
        (status = 422, description = "Nothing could be learned (too few pages, several sites)", body = ErrorBody),
        (status = 500, description = "The learned profile could not be compiled", body = ErrorBody),
        (status = 503, description = "Busy", body = ErrorBody),
        (status = 504, description = "The time budget was spent", body = ErrorBody),
    )
)]
async fn learn(
    State(state): State<Arc<AppState>>,
    Extension(slot): Extension<Slot>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<Learned>, ApiError> {
    let bytes = body(bytes)?;
    match media_type(&headers).0.as_deref() {
        Some(m) if is_json(m) => {}
        _ => {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the pages as application/json: [{\"html\": ..., \"url\": ...}]",
            ));
        }
    }
    let input: Vec<LearnPage> = json(&bytes)?;
    drop(bytes);
    if input.len() < LEARN_MIN_PAGES {
        return Err(ApiError::bad_request(format!(
            "learning needs at least {LEARN_MIN_PAGES} pages of a site"
        )));
    }
    let admitted = limit::take(slot)?;
    let st = Arc::clone(&state);
    let out = state
        .limits
        .run(admitted, move || {
            let learner = chaff::Learner::new(st.registry(), chaff::DEFAULT_SITE_METHODS)?;
            let pages = input.into_iter().enumerate().map(|(i, p)| {
                let mut page = page(p.url, p.html.into_bytes(), Some("utf-8".into()));
                if page.url.is_none() {
                    page.source = format!("page {i}");
                }
                Ok(page)
            });
            let learned = learner.learn(pages, &SiteChoice::Single, &|_| {})?;
            let notes = learned.notes();
            let unmatched_pages = learned.unmatched.iter().map(|(_, n, _)| n).sum();
            let profile = learned.profiles.into_iter().next().ok_or_else(|| {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "nothing was learned")
            })?;
            let value = serde_json::to_value(&profile).unwrap_or_default();
            let summary = profile.summary();
            let site = profile.site.clone();
            let saved = st.add_profile(&profile).map_err(ApiError::internal)?;
            Ok(Learned {
                site,
                summary,
                stored: saved
                    .as_ref()
                    .and_then(|r| r.as_ref().ok())
                    .map(|p| p.display().to_string()),
                not_stored: saved.and_then(|r| r.err()),
                unmatched_pages,
                notes,
                profile: value,
            })
        })
        .await;
    count(&state, &out);
    Ok(Json(out?))
}

/// A site with a profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct SiteEntry {
    /// The site key.
    pub site: String,
    /// The pages its profile was learned from.
    pub pages: u32,
    /// The methods it has models of.
    pub methods: Vec<String>,
    /// One line on what it holds.
    pub summary: String,
}

/// The sites with a profile.
#[utoipa::path(get, path = "/v1/sites", responses((status = 200, description = "The sites", body = Vec<SiteEntry>)))]
async fn sites(State(state): State<Arc<AppState>>) -> Json<Vec<SiteEntry>> {
    Json(
        state
            .profiles()
            .iter()
            .map(|p| SiteEntry {
                site: p.site.clone(),
                pages: p.pages,
                methods: p.method_names().iter().map(|s| s.to_string()).collect(),
                summary: p.summary(),
            })
            .collect(),
    )
}

/// What a site's profile holds: the suffix expressions, the document-frequency histogram
/// with its cutoff, FOREST's XPath.
#[utoipa::path(
    get,
    path = "/v1/sites/{site}",
    params(("site" = String, Path, description = "The site key")),
    responses(
        (status = 200, description = "The profile's contents", body = SiteInfo),
        (status = 404, description = "No profile for that site", body = ErrorBody),
    )
)]
async fn site(
    State(state): State<Arc<AppState>>,
    Path(site): Path<String>,
) -> Result<Json<SiteInfo>, ApiError> {
    let p = state
        .profile(&site)
        .ok_or_else(|| ApiError::not_found(format!("no profile for the site {site}")))?;
    Ok(Json(inspect::site_info(&p)))
}

/// One of the server's pages.
#[derive(Debug, Serialize, ToSchema)]
pub struct PageEntry {
    /// Its index, for `/v1/inspect`.
    pub index: usize,
    /// Where it was read from.
    pub source: String,
    /// Its URL, when known.
    pub url: Option<String>,
}

/// The pages the server was given (`--pages`), for the inspector.
#[utoipa::path(get, path = "/v1/pages", responses((status = 200, description = "The pages", body = Vec<PageEntry>)))]
async fn pages(State(state): State<Arc<AppState>>) -> Json<Vec<PageEntry>> {
    Json(
        state
            .pages
            .iter()
            .enumerate()
            .map(|(index, p)| PageEntry {
                index,
                source: p.source.clone(),
                url: p.url.clone(),
            })
            .collect(),
    )
}

/// The server's health.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: &'static str,
    /// The sites with a profile.
    pub sites: usize,
}

/// Answers while the server runs.
#[utoipa::path(get, path = "/healthz", responses((status = 200, description = "Running", body = Health)))]
async fn healthz(State(state): State<Arc<AppState>>) -> Json<Health> {
    Json(Health {
        status: "ok",
        sites: state.sites().len(),
    })
}

/// Counters in Prometheus's text format: requests by route and status, latency, pages
/// extracted, errors.
#[utoipa::path(get, path = "/metrics", responses((status = 200, description = "The counters", body = String, content_type = "text/plain")))]
async fn metrics(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
}

async fn openapi_json() -> Response {
    match openapi().to_json() {
        Ok(s) => ([(header::CONTENT_TYPE, "application/json")], s).into_response(),
        Err(e) => ApiError::internal(format!("the OpenAPI document: {e}")).into_response(),
    }
}

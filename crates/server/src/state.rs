//! What every request shares: the extractor (swapped whole when `/v1/learn` adds a profile),
//! the profiles, the registry per-request extractors are built from, the inspector's pages,
//! the bounds on work and the metrics.

use std::sync::{Arc, Mutex, RwLock};

use chaff::corpus::{Page, Pages, PagesOptions};
use chaff::methods::content::{ContentMethod, ContentModel};
use chaff::{Extractor, Profile, ProfileStore, Registry};

use crate::error::ApiError;
use crate::limit::Limits;
use crate::metrics::Metrics;
use crate::{Config, Error, MAX_INSPECTOR_PAGES};

/// The shared state.
pub(crate) struct AppState {
    pub(crate) config: Config,
    registry: Registry,
    content_model: Arc<ContentModel>,
    extractor: RwLock<Extractor>,
    store: Mutex<ProfileStore>,
    pub(crate) pages: Vec<Page>,
    pub(crate) limits: Limits,
    pub(crate) metrics: Metrics,
    pub(crate) warnings: Vec<String>,
}

/// A request's choice of methods (every field optional: the server's defaults otherwise).
#[derive(Clone, Debug, Default)]
pub(crate) struct Choice {
    /// Site-level methods to apply from the site's profile.
    pub methods: Option<Vec<String>>,
    /// The page-level classifier.
    pub classifier: Option<String>,
    /// The content model's threshold.
    pub threshold: Option<f64>,
    /// Also remove the main menu.
    pub menu: bool,
    /// Apply this site's profile whatever the page's URL.
    pub site: Option<String>,
    /// Keep readers' comments in the main text.
    pub comments: bool,
}

impl Choice {
    fn is_default(&self) -> bool {
        self.methods.is_none()
            && self.classifier.is_none()
            && self.threshold.is_none()
            && !self.menu
            && self.site.is_none()
            && !self.comments
    }
}

impl AppState {
    pub(crate) fn new(config: Config) -> Result<AppState, Error> {
        if config.max_body == 0 {
            return Err(Error::Config("the body limit must be above 0".into()));
        }
        let registry = Registry::builtin()?;
        let content_model = Arc::new(ContentModel::builtin().map_err(model_err)?.clone());
        let store = match &config.profiles {
            Some(dir) if dir.exists() => ProfileStore::open(dir)?,
            _ => ProfileStore::new(),
        };
        let extractor = Extractor::builder()
            .registry(registry.clone())
            .store(store.clone())
            .build()?;
        let mut warnings: Vec<String> = extractor.warnings().to_vec();
        let mut pages = Vec::new();
        if !config.pages.is_empty() {
            for item in Pages::from_args(&config.pages, PagesOptions::default())? {
                match item {
                    Ok(p) if pages.len() < MAX_INSPECTOR_PAGES => pages.push(p),
                    Ok(_) => {
                        warnings.push(format!(
                            "the inspector keeps the first {MAX_INSPECTOR_PAGES} pages"
                        ));
                        break;
                    }
                    Err(e) => warnings.push(e.to_string()),
                }
            }
        }
        Ok(AppState {
            limits: Limits::new(config.concurrency, config.queue, config.timeout),
            config,
            registry,
            content_model,
            extractor: RwLock::new(extractor),
            store: Mutex::new(store),
            pages,
            metrics: Metrics::default(),
            warnings,
        })
    }

    /// The server's extractor (a cheap clone).
    pub(crate) fn extractor(&self) -> Extractor {
        match self.extractor.read() {
            Ok(e) => e.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// The sites with a profile, sorted.
    pub(crate) fn sites(&self) -> Vec<String> {
        self.with_store(|s| s.sites().iter().map(|s| s.to_string()).collect())
    }

    /// A site's profile.
    pub(crate) fn profile(&self, site: &str) -> Option<Profile> {
        self.with_store(|s| s.get(site).cloned())
    }

    /// Every profile, by site.
    pub(crate) fn profiles(&self) -> Vec<Profile> {
        self.with_store(|s| s.sites().iter().filter_map(|x| s.get(x).cloned()).collect())
    }

    fn with_store<T>(&self, f: impl FnOnce(&ProfileStore) -> T) -> T {
        match self.store.lock() {
            Ok(s) => f(&s),
            Err(poisoned) => f(&poisoned.into_inner()),
        }
    }

    /// The extractor a request's choice asks for: the server's own for the defaults, else one
    /// built for the request (with only the profile that can apply).
    pub(crate) fn extractor_for(
        &self,
        choice: &Choice,
        url: Option<&str>,
    ) -> Result<Extractor, ApiError> {
        if choice.is_default() {
            return Ok(self.extractor());
        }
        let mut registry = self.registry.clone();
        if let Some(t) = choice.threshold {
            if !(0.0..=1.0).contains(&t) {
                return Err(ApiError::bad_request(format!(
                    "threshold {t} is not a number from 0 to 1"
                )));
            }
            let mut method = ContentMethod::favoring(Arc::clone(&self.content_model), None);
            method.threshold = Some(t as f32);
            registry.register(method);
        }
        let classifier = choice.classifier.as_deref().unwrap_or("content");
        if !matches!(classifier, "content" | "pagelevel") {
            return Err(ApiError::bad_request(format!(
                "no classifier named {classifier} (content or pagelevel)"
            )));
        }
        if classifier == "pagelevel" && choice.threshold.is_some() {
            return Err(ApiError::bad_request(
                "threshold applies to the content classifier, not pagelevel",
            ));
        }
        // The comments detector runs after either classifier, as by default: without it a
        // request with any choice would lose its `comments`.
        let mut page_methods = vec![classifier, "comments"];
        if choice.menu {
            page_methods.push("menu");
        }
        let mut builder = Extractor::builder()
            .registry(registry)
            .page_methods(page_methods)
            .include_comments(choice.comments);
        if let Some(m) = &choice.methods {
            builder = builder.site_methods(m.iter().cloned());
        }
        match &choice.site {
            Some(site) => {
                let p = self.profile(site).ok_or_else(|| {
                    ApiError::not_found(format!("no profile for the site {site}"))
                })?;
                builder = builder.profile_for_every_page(p);
            }
            None => {
                let site = chaff::corpus::site_key(url, None, None);
                if let Some(p) = self.profile(site.as_str()) {
                    builder = builder.store(std::iter::once(p).collect());
                }
            }
        }
        builder
            .build()
            .map_err(|e| ApiError::bad_request(e.to_string()))
    }

    /// Puts a learned profile in the live extractor (rebuilt with it, and swapped in only if
    /// it builds) and, when the server has a profiles folder, writes it there atomically:
    /// `Some(Err(why))` when it could not be written.
    pub(crate) fn add_profile(
        &self,
        profile: &Profile,
    ) -> Result<Option<Result<std::path::PathBuf, String>>, String> {
        let mut store = match self.store.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut next = store.clone();
        next.insert(profile.clone());
        let rebuilt = Extractor::builder()
            .registry(self.registry.clone())
            .store(next.clone())
            .build()
            .map_err(|e| e.to_string())?;
        let saved = self
            .config
            .profiles
            .as_ref()
            .map(|dir| profile.save_in(dir).map_err(|e| e.to_string()));
        *store = next;
        match self.extractor.write() {
            Ok(mut e) => *e = rebuilt,
            Err(poisoned) => *poisoned.into_inner() = rebuilt,
        }
        Ok(saved)
    }

    /// The registry learning uses.
    pub(crate) fn registry(&self) -> &Registry {
        &self.registry
    }
}

fn model_err(e: impl std::fmt::Display) -> Error {
    Error::Config(format!("the built-in content model: {e}"))
}

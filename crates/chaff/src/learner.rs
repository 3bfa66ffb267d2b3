//! Learning: a site's pages in, its profile out, with every chosen method.
//!
//! Pages are parsed in parallel in bounded batches; of each page only what every method's
//! [`chaff_core::Method::page_data`] keeps survives, so memory holds learning material, not
//! pages (but for the parses [`Learner::learn_sites_keeping`] keeps for extraction, within
//! its budget). When the number of pages of each site is known up front
//! ([`Learner::learn_counted`]) a site is learned as soon as its last page has been read and
//! its material freed: on an input grouped by site (a per-site crawl, a folder per site)
//! memory then holds one site's material at a time.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use chaff_core::{DynMethod, Erased, Scope};
use chaff_corpus::{CorpusError, Page};
use chaff_dom::ParseOptions;
use rayon::prelude::*;

use crate::load::{LoadOptions, LoadedPage, SiteFrom, load_page};
use crate::{Error, Parsed, Profile, Registry};

/// Pages parsed together before their material is merged.
const BATCH: usize = 64;

/// Which site(s) to learn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SiteChoice {
    /// All pages must belong to one site.
    #[default]
    Single,
    /// Only the pages of this site key.
    Named(String),
    /// One profile per site with enough pages; expressions most sites share are dropped.
    PerSite,
}

/// What learning produced.
#[derive(Debug, Default)]
pub struct Learned {
    /// One profile per site learned.
    pub profiles: Vec<Profile>,
    /// Sites not learned: site, pages, why.
    pub skipped: Vec<(String, usize, String)>,
    /// Pages that could not be read or parsed.
    pub page_errors: Vec<Error>,
    /// Methods that failed on a site while others succeeded (per-site learning only).
    pub warnings: Vec<String>,
    /// Parts of models dropped because most sites share them.
    pub cross_site_dropped: usize,
}

impl Learned {
    /// What a person should be told besides the profiles, a line each: pages that could
    /// not be read, methods that failed on a site, sites not learned and why, what
    /// cross-site filtering dropped.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self.page_errors.iter().map(Error::to_string).collect();
        notes.extend(self.warnings.iter().cloned());
        for (site, n, why) in &self.skipped {
            notes.push(format!("skipped site {site} ({n} pages): {why}"));
        }
        if self.cross_site_dropped > 0 {
            let n = self.cross_site_dropped;
            notes.push(format!("cross-site filtering dropped {n} expressions"));
        }
        notes
    }
}

/// Learns site profiles with a chosen set of site-level methods.
#[derive(Clone)]
pub struct Learner {
    methods: Vec<Arc<dyn DynMethod>>,
    load: LoadOptions,
    min_pages: usize,
}

/// One site's learning material: per method, the data of each page.
struct Material {
    pages: usize,
    data: Vec<Vec<Box<dyn Any + Send>>>,
}

/// One page's site, per method what learning keeps of it, and (when kept) its size and
/// parse.
type PageMaterial = (String, Vec<Box<dyn Any + Send>>, Option<(u64, LoadedPage)>);

/// A site's models, one per method (`None` where the method failed).
type SiteModels = (usize, Vec<Result<Erased, String>>);

impl Learner {
    /// A learner of the named site-level methods of `registry`.
    pub fn new(registry: &Registry, methods: &[&str]) -> Result<Learner, Error> {
        if methods.is_empty() {
            return Err(Error::NoMethod);
        }
        let mut chosen: Vec<Arc<dyn DynMethod>> = Vec::new();
        for name in methods {
            let m = registry.resolve(name)?;
            if m.scope() != Scope::Site {
                return Err(Error::NotSiteMethod {
                    name: name.to_string(),
                });
            }
            if !chosen.iter().any(|c| c.name() == m.name()) {
                chosen.push(Arc::clone(m));
            }
        }
        let keep_source = chosen.iter().any(|m| m.needs().source);
        Ok(Learner {
            methods: chosen,
            load: LoadOptions {
                keep_source,
                ..LoadOptions::default()
            },
            min_pages: 2,
        })
    }

    /// Sets the parser's limits.
    pub fn parse_options(mut self, parse: ParseOptions) -> Learner {
        self.load.parse = parse;
        self
    }

    /// Sets how pages' sites are named.
    pub fn site_from(mut self, from: SiteFrom) -> Learner {
        self.load.site_from = from;
        self
    }

    /// Sites with fewer pages are not learned in per-site learning (default 2).
    pub fn min_pages(mut self, n: usize) -> Learner {
        self.min_pages = n.max(1);
        self
    }

    /// How this learner parses pages.
    pub fn load_options(&self) -> &LoadOptions {
        &self.load
    }

    /// The names of the methods learned.
    pub fn method_names(&self) -> Vec<&'static str> {
        self.methods.iter().map(|m| m.name()).collect()
    }

    /// Learns one site's profile from its parsed pages. Every method must succeed.
    ///
    /// A caller holding a site's pages parses each of them once: it learns from the parses
    /// and hands the same parses to [`crate::Extractor::extract_loaded`] of an extractor
    /// built with the profile. (Reading a stream, [`Learner::learn_sites_keeping`] keeps
    /// parses within a budget for [`crate::Extractor::extract_all_parsed`] instead.)
    /// `chaff-lab bench site` times these ways.
    pub fn learn_pages(&self, site: &str, pages: &[LoadedPage]) -> Result<Profile, Error> {
        if pages.is_empty() {
            return Err(Error::NoPages);
        }
        let material = Material {
            pages: pages.len(),
            data: self
                .methods
                .iter()
                .map(|m| pages.iter().map(|p| m.page_data(&p.input())).collect())
                .collect(),
        };
        let (n, models) = self.learn_material(material);
        let mut profile = Profile::new(site, n as u32);
        for (method, model) in self.methods.iter().zip(models) {
            let model = model.map_err(|message| self.method_error(method, site, message))?;
            let json = method
                .model_to_json(&model)
                .map_err(|e| self.method_error(method, site, e.to_string()))?;
            profile.methods.insert(method.name().to_string(), json);
        }
        Ok(profile)
    }

    /// Learns profiles from a stream of pages. `progress` is called with each page's size
    /// once it is parsed.
    pub fn learn(
        &self,
        pages: impl Iterator<Item = Result<Page, CorpusError>>,
        choice: &SiteChoice,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Learned, Error> {
        self.learn_counted(pages, choice, None, progress)
    }

    /// Learns every site of a stream that has enough pages ([`Learner::min_pages`]), as
    /// `chaff extract --learn` does: `count_pass` (the same pages) is read first to count
    /// each site's pages where its key shows without parsing (from URLs or folders), so that
    /// a site is learned, and its material freed, as soon as its last page of `learn_pass`
    /// is read; where some page's site needs parsing, every site is learned at the end. An
    /// input without pages learns nothing.
    pub fn learn_sites(
        &self,
        count_pass: impl Iterator<Item = Result<Page, CorpusError>>,
        learn_pass: impl Iterator<Item = Result<Page, CorpusError>>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Learned, Error> {
        self.sites(count_pass, learn_pass, None, progress)
    }

    /// As [`Learner::learn_sites`], keeping the parses of the first pages read, up to
    /// `budget` bytes of their HTML, for the extraction pass that follows
    /// ([`crate::Extractor::extract_all_parsed`]): those pages are then parsed once, not
    /// twice. `chaff extract --learn` learns this way.
    pub fn learn_sites_keeping(
        &self,
        count_pass: impl Iterator<Item = Result<Page, CorpusError>>,
        learn_pass: impl Iterator<Item = Result<Page, CorpusError>>,
        budget: u64,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(Learned, Parsed), Error> {
        let mut parsed = Parsed::new(budget, self.load.clone());
        let learned = self.sites(count_pass, learn_pass, Some(&mut parsed), progress)?;
        Ok((learned, parsed))
    }

    fn sites(
        &self,
        count_pass: impl Iterator<Item = Result<Page, CorpusError>>,
        learn_pass: impl Iterator<Item = Result<Page, CorpusError>>,
        keep: Option<&mut Parsed>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Learned, Error> {
        let from = self.load.site_from;
        let mut counts: Option<HashMap<String, usize>> = Some(HashMap::new());
        for page in count_pass.flatten() {
            match (crate::site_without_parsing(&page, from), counts.as_mut()) {
                (Some(site), Some(c)) => *c.entry(site.as_str().to_string()).or_default() += 1,
                (None, _) => counts = None,
                (_, None) => {}
            }
        }
        match self.counted(
            learn_pass,
            &SiteChoice::PerSite,
            counts.as_ref(),
            keep,
            progress,
        ) {
            Err(Error::NoPages) => Ok(Learned::default()),
            other => other,
        }
    }

    /// As [`Learner::learn`], with each site's page count known in advance (per-site
    /// learning then learns a site as soon as its last page is read).
    pub fn learn_counted(
        &self,
        pages: impl Iterator<Item = Result<Page, CorpusError>>,
        choice: &SiteChoice,
        counts: Option<&HashMap<String, usize>>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Learned, Error> {
        self.counted(pages, choice, counts, None, progress)
    }

    /// [`Learner::learn_counted`], offering each page's parse to `keep` when there is one.
    fn counted(
        &self,
        pages: impl Iterator<Item = Result<Page, CorpusError>>,
        choice: &SiteChoice,
        counts: Option<&HashMap<String, usize>>,
        mut keep: Option<&mut Parsed>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<Learned, Error> {
        let mut learned = Learned::default();
        let mut open: BTreeMap<String, Material> = BTreeMap::new();
        let mut done: BTreeMap<String, SiteModels> = BTreeMap::new();
        let mut all_pages: BTreeMap<String, usize> = BTreeMap::new();
        let early = *choice == SiteChoice::PerSite && counts.is_some();
        let mut batch = Vec::with_capacity(BATCH);
        let mut pages = pages.peekable();
        while pages.peek().is_some() {
            batch.clear();
            for p in pages.by_ref().take(BATCH) {
                match p {
                    Ok(p) => batch.push(p),
                    Err(e) => learned.page_errors.push(Error::Corpus(e)),
                }
            }
            let keeping = keep.is_some();
            for item in self.batch_material(std::mem::take(&mut batch), keeping, progress) {
                let (site, data, parse) = match item {
                    Ok(x) => x,
                    Err(e) => {
                        learned.page_errors.push(e);
                        continue;
                    }
                };
                if let (Some(keep), Some((size, page))) = (keep.as_deref_mut(), parse) {
                    keep.offer(size, page);
                }
                *all_pages.entry(site.clone()).or_default() += 1;
                if let SiteChoice::Named(name) = choice
                    && *name != site
                {
                    continue;
                }
                let m = open.entry(site.clone()).or_insert_with(|| Material {
                    pages: 0,
                    data: (0..self.methods.len()).map(|_| Vec::new()).collect(),
                });
                m.pages += 1;
                for (slot, d) in m.data.iter_mut().zip(data) {
                    slot.push(d);
                }
                let complete = counts
                    .and_then(|c| c.get(&site))
                    .is_some_and(|&c| c == m.pages);
                if early
                    && complete
                    && m.pages >= self.min_pages
                    && let Some(m) = open.remove(&site)
                {
                    done.insert(site, self.learn_material(m));
                }
            }
        }
        if all_pages.is_empty() {
            return Err(Error::NoPages);
        }
        self.check_choice(choice, &all_pages, &mut learned)?;
        let rest: Vec<(String, Material)> = open
            .into_iter()
            .filter(|(site, m)| {
                let enough = *choice != SiteChoice::PerSite || m.pages >= self.min_pages;
                if !enough {
                    learned.skipped.push((
                        site.clone(),
                        m.pages,
                        format!("fewer than {} pages", self.min_pages),
                    ));
                }
                enough
            })
            .collect();
        let models: Vec<(String, SiteModels)> = rest
            .into_par_iter()
            .map(|(site, m)| (site, self.learn_material(m)))
            .collect();
        done.extend(models);
        self.finish(done, choice, &mut learned)?;
        Ok(learned)
    }

    /// Parses a batch of pages in parallel and keeps each one's material, and its parse
    /// with its size when `keeping`.
    fn batch_material(
        &self,
        batch: Vec<Page>,
        keeping: bool,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<Result<PageMaterial, Error>> {
        batch
            .into_par_iter()
            .map(|page| {
                let size = page.bytes.len() as u64;
                let loaded = load_page(page, &self.load);
                progress(size);
                let loaded = loaded?;
                let input = loaded.input();
                let data = self.methods.iter().map(|m| m.page_data(&input)).collect();
                let site = loaded.site.as_str().to_string();
                Ok((site, data, keeping.then_some((size, loaded))))
            })
            .collect()
    }

    fn learn_material(&self, m: Material) -> SiteModels {
        let models = self
            .methods
            .iter()
            .zip(m.data)
            .map(|(method, data)| method.learn(data).map_err(|e| e.to_string()))
            .collect();
        (m.pages, models)
    }

    /// Errors for a single-site choice the pages do not fit.
    fn check_choice(
        &self,
        choice: &SiteChoice,
        all_pages: &BTreeMap<String, usize>,
        learned: &mut Learned,
    ) -> Result<(), Error> {
        match choice {
            SiteChoice::Single if all_pages.len() > 1 => Err(Error::MixedSites {
                count: all_pages.len(),
                sites: site_summary(all_pages),
            }),
            SiteChoice::Named(name) if !all_pages.contains_key(name) => Err(Error::NoSuchSite {
                site: name.clone(),
                sites: site_summary(all_pages),
            }),
            SiteChoice::Named(name) => {
                for (s, n) in all_pages.iter().filter(|(s, _)| *s != name) {
                    learned
                        .skipped
                        .push((s.clone(), *n, format!("not the site {name}")));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Refines models across sites, then writes the profiles; method failures are errors for
    /// one site and warnings (the method left out of that profile) per site.
    fn finish(
        &self,
        mut done: BTreeMap<String, SiteModels>,
        choice: &SiteChoice,
        learned: &mut Learned,
    ) -> Result<(), Error> {
        let per_site = *choice == SiteChoice::PerSite;
        if per_site {
            for (i, method) in self.methods.iter().enumerate() {
                let mut models: Vec<&mut Erased> = done
                    .values_mut()
                    .filter_map(|(_, ms)| ms[i].as_mut().ok())
                    .collect();
                learned.cross_site_dropped += method.refine_across_sites(&mut models);
            }
        }
        for (site, (pages, models)) in done {
            let mut profile = Profile::new(site.clone(), pages as u32);
            for (method, model) in self.methods.iter().zip(models) {
                let json = model.and_then(|m| method.model_to_json(&m).map_err(|e| e.to_string()));
                match json {
                    Ok(json) => {
                        profile.methods.insert(method.name().to_string(), json);
                    }
                    Err(message) if per_site => learned
                        .warnings
                        .push(self.method_error(method, &site, message).to_string()),
                    Err(message) => return Err(self.method_error(method, &site, message)),
                }
            }
            if profile.methods.is_empty() {
                learned
                    .skipped
                    .push((site, pages, "no method could learn from its pages".into()));
            } else {
                learned.profiles.push(profile);
            }
        }
        Ok(())
    }

    fn method_error(&self, method: &Arc<dyn DynMethod>, site: &str, message: String) -> Error {
        Error::Method {
            method: method.name().to_string(),
            site: Some(site.to_string()),
            message,
        }
    }
}

/// The largest sites first, at most ten named.
fn site_summary(sites: &BTreeMap<String, usize>) -> String {
    let mut sorted: Vec<(&String, &usize)> = sites.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let mut text = sorted
        .iter()
        .take(10)
        .map(|(s, n)| format!("{s} ({n})"))
        .collect::<Vec<_>>()
        .join(", ");
    if sorted.len() > 10 {
        text.push_str(&format!(" and {} more", sorted.len() - 10));
    }
    text
}

//! Learning: a site's pages in, its profile out, with every chosen method.
//!
//! Pages stream through rayon's pool (a bounded window of pages in flight, their results
//! merged in input order, [`InOrder`]): the caller's thread reads pages and merges what the
//! pool made of them, and learns a site whose pages are all in, while the pool parses the
//! next ones. Of each page only what every method's
//! [`chaff_core::Method::page_data`] keeps survives, so memory holds learning material, not
//! pages (but for the parses [`Learner::learn_sites_keeping`] keeps for extraction, within
//! its budget). Methods that learn from the parse itself (FOREST; alignment, which tokenises
//! only the pages it samples) keep a clone of it, which shares the tree: a page's parse is
//! held once however many methods and the extraction keep it. When the number of pages of
//! each site is known up front ([`Learner::learn_counted`]) a site is learned as soon as its
//! last page has been read and its material freed: on an input grouped by site (a per-site
//! crawl, a folder per site) memory then holds one site's material at a time.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use chaff_core::{DynMethod, Erased, Scope};
use chaff_corpus::{CorpusError, Page};
use chaff_dom::ParseOptions;
use rayon::prelude::*;

use crate::in_order::{InOrder, JobLost};
use crate::load::{LoadOptions, LoadedPage, SiteFrom, load_page};
use crate::profile::Template;
use crate::template::{self, MIN_SIMILARITY, Sketch};
use crate::{Error, Parsed, Profile, Registry};

/// Pages read and not yet merged, per thread of the pool: a few each keep every thread
/// busy while the caller's thread reads pages and merges their material.
const IN_FLIGHT_PER_THREAD: usize = 4;

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
    /// Sites some of whose pages resemble none of their templates: site, those pages, all
    /// its pages. Extraction reads such pages page by page.
    pub unmatched: Vec<(String, usize, usize)>,
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
        for (site, n, of) in &self.unmatched {
            notes.push(format!(
                "site {site}: {n} of its {of} pages resemble none of its templates (read page by page)"
            ));
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
    split_templates: bool,
}

/// One site's learning material: per method, the data of each page; each page's sketch
/// when templates are told apart.
struct Material {
    pages: usize,
    data: Vec<Vec<Box<dyn Any + Send>>>,
    sketches: Vec<Sketch>,
}

/// What a page's job needs of the learner, shared by every job of a run.
struct PageStep {
    methods: Vec<Arc<dyn DynMethod>>,
    load: LoadOptions,
    split_templates: bool,
}

impl PageStep {
    /// Parses a page and keeps its material, and its parse with its size when `keeping`.
    fn material(&self, page: Page, keeping: bool) -> Result<PageMaterial, Error> {
        let size = page.bytes.len() as u64;
        let loaded = load_page(page, &self.load)?;
        let input = loaded.input();
        let data = self.methods.iter().map(|m| m.page_data(&input)).collect();
        let sketch = self.split_templates.then(|| Sketch::of(&loaded.doc));
        let site = loaded.site.as_str().to_string();
        Ok((site, data, sketch, keeping.then_some((size, loaded))))
    }
}

/// One page's site, per method what learning keeps of it, its sketch (when templates are
/// told apart), and (when kept) its size and parse.
type PageMaterial = (
    String,
    Vec<Box<dyn Any + Send>>,
    Option<Sketch>,
    Option<(u64, LoadedPage)>,
);

/// Models as JSON by method name, as a profile holds them.
type Models = BTreeMap<String, serde_json::Value>;

/// One template's models, one per method (an error where the method failed).
struct TemplateModels {
    pages: usize,
    sketches: Vec<Sketch>,
    models: Vec<Result<Erased, String>>,
}

/// A site's templates, largest first (none when no template has enough pages), with its
/// page count and how many of its pages match no template.
struct SiteModels {
    pages: usize,
    templates: Vec<TemplateModels>,
    unmatched: usize,
}

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
            split_templates: true,
        })
    }

    /// Whether a site's pages are split into templates, each learned from its own pages
    /// ([`crate::template`]; the default), or learned as one template that every page of
    /// the site is read with.
    pub fn split_templates(mut self, split: bool) -> Learner {
        self.split_templates = split;
        self
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

    /// Sites with fewer pages are not learned in per-site learning, nor templates with fewer
    /// pages (default 2).
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
            sketches: match self.split_templates {
                true => pages.iter().map(|p| Sketch::of(&p.doc)).collect(),
                false => Vec::new(),
            },
        };
        let learned = self.learn_material(material);
        let mut templates = Vec::new();
        for t in learned.templates {
            let (models, failed) = self.models_json(site, t.models);
            if let Some(e) = failed.into_iter().next() {
                return Err(e);
            }
            templates.push((t.pages, t.sketches, models));
        }
        profile_of(site, templates).ok_or_else(|| Error::NoTemplate {
            site: site.to_string(),
            pages: pages.len(),
            min: self.template_min(pages.len()),
        })
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
        let keeping = keep.is_some();
        let step = Arc::new(PageStep {
            methods: self.methods.clone(),
            load: self.load.clone(),
            split_templates: self.split_templates,
        });
        let window = IN_FLIGHT_PER_THREAD * rayon::current_num_threads().max(1);
        let mut jobs: InOrder<(u64, String), Result<PageMaterial, Error>> = InOrder::new();
        let mut pages = pages.fuse();
        loop {
            while jobs.len() < window {
                match pages.next() {
                    Some(Ok(page)) => {
                        let named = (page.bytes.len() as u64, page.source.clone());
                        let step = Arc::clone(&step);
                        jobs.spawn(named, move || step.material(page, keeping));
                    }
                    Some(Err(e)) => learned.page_errors.push(Error::Corpus(e)),
                    None => break,
                }
            }
            let Some(((size, source), item)) = jobs.next_result() else {
                break;
            };
            progress(size);
            let item = item.unwrap_or_else(|JobLost| {
                Err(Error::Page {
                    page: source,
                    message: "the thread pool stopped before the page was parsed".into(),
                })
            });
            let (site, data, sketch, parse) = match item {
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
                sketches: Vec::new(),
            });
            m.pages += 1;
            m.sketches.extend(sketch);
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

    /// The pages a template needs: the learner's minimum, or all of a site's pages where it
    /// has fewer (single-site learning takes what it is given).
    fn template_min(&self, pages: usize) -> usize {
        self.min_pages.min(pages).max(1)
    }

    /// Splits a site's material into templates and learns each with every method.
    fn learn_material(&self, m: Material) -> SiteModels {
        let Material {
            pages,
            data,
            sketches,
        } = m;
        let (groups, unmatched) = if self.split_templates {
            let split = template::split(&sketches, self.template_min(pages), MIN_SIMILARITY);
            (split.templates, split.unmatched.len())
        } else {
            (vec![(Vec::new(), (0..pages).collect())], 0)
        };
        let mut template_of: Vec<Option<usize>> = vec![None; pages];
        for (t, (_, members)) in groups.iter().enumerate() {
            for &p in members {
                template_of[p] = Some(t);
            }
        }
        // Each page's data moves to its template's material; unmatched pages' is dropped.
        let mut per_template: Vec<Vec<Vec<Box<dyn Any + Send>>>> = groups
            .iter()
            .map(|_| self.methods.iter().map(|_| Vec::new()).collect())
            .collect();
        for (i, method_data) in data.into_iter().enumerate() {
            for (d, t) in method_data.into_iter().zip(&template_of) {
                if let Some(t) = *t {
                    per_template[t][i].push(d);
                }
            }
        }
        let templates = groups
            .into_iter()
            .zip(per_template)
            .map(|((sketches, members), data)| TemplateModels {
                pages: members.len(),
                sketches,
                models: self
                    .methods
                    .iter()
                    .zip(data)
                    .map(|(method, data)| method.learn(data).map_err(|e| e.to_string()))
                    .collect(),
            })
            .collect();
        SiteModels {
            pages,
            templates,
            unmatched,
        }
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
                let mut models: Vec<&mut Erased> = Vec::new();
                let mut site_of: Vec<usize> = Vec::new();
                for (s, site) in done.values_mut().enumerate() {
                    for t in &mut site.templates {
                        if let Ok(m) = t.models[i].as_mut() {
                            models.push(m);
                            site_of.push(s);
                        }
                    }
                }
                learned.cross_site_dropped += method.refine_across_sites(&mut models, &site_of);
            }
        }
        for (site, models) in done {
            let count = models.templates.len();
            let mut templates = Vec::new();
            for (k, t) in models.templates.into_iter().enumerate() {
                let name = match count {
                    1 => site.clone(),
                    n => format!("{site} (template {} of {n})", k + 1),
                };
                let (jsons, failed) = self.models_json(&name, t.models);
                for e in failed {
                    if !per_site {
                        return Err(e);
                    }
                    learned.warnings.push(e.to_string());
                }
                if !jsons.is_empty() {
                    templates.push((t.pages, t.sketches, jsons));
                }
            }
            if models.unmatched > 0 && count > 0 {
                learned
                    .unmatched
                    .push((site.clone(), models.unmatched, models.pages));
            }
            match profile_of(&site, templates) {
                Some(profile) => learned.profiles.push(profile),
                None if count == 0 && per_site => learned.skipped.push((
                    site,
                    models.pages,
                    format!(
                        "no template is shared by {} of its pages",
                        self.template_min(models.pages)
                    ),
                )),
                None if count == 0 => {
                    return Err(Error::NoTemplate {
                        min: self.template_min(models.pages),
                        site,
                        pages: models.pages,
                    });
                }
                None => learned.skipped.push((
                    site,
                    models.pages,
                    "no method could learn from its pages".into(),
                )),
            }
        }
        Ok(())
    }

    /// One template's models as JSON by method name, and an error for each method that
    /// failed to learn or to serialise (`site` names the template in it).
    fn models_json(&self, site: &str, models: Vec<Result<Erased, String>>) -> (Models, Vec<Error>) {
        let mut jsons = BTreeMap::new();
        let mut failed = Vec::new();
        for (method, model) in self.methods.iter().zip(models) {
            match model.and_then(|m| method.model_to_json(&m).map_err(|e| e.to_string())) {
                Ok(json) => {
                    jsons.insert(method.name().to_string(), json);
                }
                Err(message) => failed.push(self.method_error(method, site, message)),
            }
        }
        (jsons, failed)
    }

    fn method_error(&self, method: &Arc<dyn DynMethod>, site: &str, message: String) -> Error {
        Error::Method {
            method: method.name().to_string(),
            site: Some(site.to_string()),
            message,
        }
    }
}

/// A site's profile from its templates' (pages, representatives, models), the main one
/// first; `None` without templates.
fn profile_of(site: &str, templates: Vec<(usize, Vec<Sketch>, Models)>) -> Option<Profile> {
    let mut templates = templates.into_iter();
    let (pages, sketches, methods) = templates.next()?;
    let mut profile = Profile::new(site, pages as u32);
    profile.sketches = sketches;
    profile.methods = methods;
    profile.templates = templates
        .map(|(pages, sketches, methods)| Template {
            pages: pages as u32,
            sketches,
            methods,
        })
        .collect();
    Some(profile)
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

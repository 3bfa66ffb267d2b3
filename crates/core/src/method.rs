//! The method seam: what every template-detection method provides, and its type-erased form
//! that registries store.
//!
//! A method has a name, says what of a page it needs, may learn a serialisable model from a
//! site's pages, and turns a page into a [`Verdict`]. Learning is split in two so that pages
//! need not stay in memory: [`Method::page_data`] keeps what the method needs of one page
//! (computed in parallel, the page then dropped), and [`Method::learn`] turns a site's page
//! data into a model. A method's options are fields of the value that implements it, so a
//! configured method is registered as it is, the way a tokenizer is registered by name.
//!
//! [`DynMethod`] is the object-safe form, implemented for every [`Method`]: models cross it as
//! JSON (the profile's `methods.<name>`), page data and compiled models as `Any`.

use std::any::Any;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{PageInput, Verdict};

/// Whether a method learns from a site's pages or looks at one page alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Learns a model from a site's pages, stored in the site's profile.
    Site,
    /// Needs no profile: it judges each page alone (a built-in model at most).
    Page,
}

/// What of a page a method reads beyond the DOM and its text view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// The decoded source text ([`PageInput::source`]): kept only for methods that ask.
    pub source: bool,
}

/// Why a method could not learn or compile a model. One line a user can act on; the method's
/// name is added by whoever reports it.
#[derive(Debug)]
pub struct MethodError(Box<dyn std::error::Error + Send + Sync>);

impl MethodError {
    /// Wraps a method's own error.
    pub fn new(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> MethodError {
        MethodError(e.into())
    }
}

impl std::fmt::Display for MethodError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for MethodError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// A template-detection method. See the module docs.
pub trait Method: Send + Sync + 'static {
    /// What learning keeps of one page.
    type PageData: Send + 'static;
    /// What the method learns from a site; stored in the profile as JSON.
    type Model: Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The model (or, for a page-level method, the method itself) ready to label pages.
    type Compiled: Send + Sync + 'static;

    /// The name the method is registered, stored and selected under.
    fn name(&self) -> &'static str;

    /// Site-level (learns a model) or page-level.
    fn scope(&self) -> Scope;

    /// What of a page the method reads when it learns.
    fn needs(&self) -> Needs {
        Needs::default()
    }

    /// What of a page the method reads when it applies this model (a stored model may
    /// need more than the registered method's options say: a suffix model mined from the raw
    /// source needs the source). [`Method::needs`] by default.
    fn compiled_needs(&self, compiled: &Self::Compiled) -> Needs {
        let _ = compiled;
        self.needs()
    }

    /// What a user should know of how this model will be applied, one sentence each: a
    /// documented fallback the compiled model took instead of failing (the suffix method
    /// matching a hand-edited model as regexes, which is slower). None by default. The facade
    /// reports them as the extractor's warnings, with the profile's site.
    fn compiled_notes(&self, compiled: &Self::Compiled) -> Vec<String> {
        let _ = compiled;
        Vec::new()
    }

    /// What learning keeps of one page. Only called for [`Scope::Site`] methods.
    fn page_data(&self, page: &PageInput<'_>) -> Self::PageData;

    /// Learns a site's model from its pages' data. Only called for [`Scope::Site`] methods.
    fn learn(&self, pages: Vec<Self::PageData>) -> Result<Self::Model, MethodError>;

    /// Adjusts the models of several sites learned together (the suffix method drops
    /// expressions most sites share). A site may have several models (one per template):
    /// `site_of[i]` numbers the site of `models[i]`. Returns how many parts were dropped.
    /// Does nothing by default.
    fn refine_across_sites(&self, models: &mut [&mut Self::Model], site_of: &[usize]) -> usize {
        let _ = (models, site_of);
        0
    }

    /// Prepares a model for labelling pages; `None` for a page-level method.
    fn compile(&self, model: Option<Self::Model>) -> Result<Self::Compiled, MethodError>;

    /// The method's evidence about one page.
    fn evidence(&self, compiled: &Self::Compiled, page: &PageInput<'_>) -> Verdict;

    /// The site methods (by registered name) whose verdicts on the same page this
    /// (page-level) method weighs ([`Method::evidence_given`]): a learned model whose inputs
    /// include them. A fuser takes its evidence as the decision in their place. None by
    /// default.
    fn site_inputs(&self) -> &'static [&'static str] {
        &[]
    }

    /// The method's evidence about a page given what the site methods said of it (`site`:
    /// each site method's name and verdict, abstentions included). Only called when one of
    /// [`Method::site_inputs`] gave evidence on the page; [`Method::evidence`] by default.
    fn evidence_given(
        &self,
        compiled: &Self::Compiled,
        page: &PageInput<'_>,
        site: &[SiteVerdict<'_>],
    ) -> Verdict {
        let _ = site;
        self.evidence(compiled, page)
    }
}

/// A site method's verdict on a page, as a method that reads site evidence receives it.
#[derive(Clone, Copy, Debug)]
pub struct SiteVerdict<'a> {
    /// The site method's registered name.
    pub method: &'a str,
    /// What it said.
    pub verdict: &'a Verdict,
}

/// Page data, a learned model or a compiled model with its type erased.
pub type Erased = Box<dyn Any + Send + Sync>;

/// The object-safe form of [`Method`], implemented for every method. Registries hold
/// `Arc<dyn DynMethod>`.
pub trait DynMethod: Send + Sync {
    /// See [`Method::name`].
    fn name(&self) -> &'static str;
    /// See [`Method::scope`].
    fn scope(&self) -> Scope;
    /// See [`Method::needs`].
    fn needs(&self) -> Needs;
    /// See [`Method::compiled_needs`]; `compiled` made by this method's [`DynMethod::compile`].
    fn compiled_needs(&self, compiled: &Erased) -> Needs;
    /// See [`Method::compiled_notes`]; `compiled` made by this method's [`DynMethod::compile`].
    fn compiled_notes(&self, compiled: &Erased) -> Vec<String>;
    /// See [`Method::page_data`].
    fn page_data(&self, page: &PageInput<'_>) -> Box<dyn Any + Send>;
    /// Learns a model from page data made by this method's [`DynMethod::page_data`].
    fn learn(&self, pages: Vec<Box<dyn Any + Send>>) -> Result<Erased, MethodError>;
    /// See [`Method::refine_across_sites`]; models made by this method's [`DynMethod::learn`].
    fn refine_across_sites(&self, models: &mut [&mut Erased], site_of: &[usize]) -> usize;
    /// A learned model as the JSON stored in a profile.
    fn model_to_json(&self, model: &Erased) -> Result<serde_json::Value, MethodError>;
    /// Reads a stored model (`None` for a page-level method) and compiles it.
    fn compile(&self, model: Option<&serde_json::Value>) -> Result<Erased, MethodError>;
    /// See [`Method::evidence`]; `compiled` made by this method's [`DynMethod::compile`].
    fn evidence(&self, compiled: &Erased, page: &PageInput<'_>) -> Verdict;
    /// See [`Method::site_inputs`].
    fn site_inputs(&self) -> &'static [&'static str];
    /// See [`Method::evidence_given`]; `compiled` made by this method's [`DynMethod::compile`].
    fn evidence_given(
        &self,
        compiled: &Erased,
        page: &PageInput<'_>,
        site: &[SiteVerdict<'_>],
    ) -> Verdict;
}

fn wrong_type(name: &str, what: &str) -> MethodError {
    MethodError::new(format!("{name}: {what} made by another method"))
}

impl<M: Method> DynMethod for M {
    fn name(&self) -> &'static str {
        Method::name(self)
    }

    fn scope(&self) -> Scope {
        Method::scope(self)
    }

    fn needs(&self) -> Needs {
        Method::needs(self)
    }

    fn compiled_needs(&self, compiled: &Erased) -> Needs {
        match compiled.downcast_ref::<M::Compiled>() {
            Some(c) => Method::compiled_needs(self, c),
            None => Method::needs(self),
        }
    }

    fn compiled_notes(&self, compiled: &Erased) -> Vec<String> {
        compiled
            .downcast_ref::<M::Compiled>()
            .map_or_else(Vec::new, |c| Method::compiled_notes(self, c))
    }

    fn page_data(&self, page: &PageInput<'_>) -> Box<dyn Any + Send> {
        Box::new(Method::page_data(self, page))
    }

    fn learn(&self, pages: Vec<Box<dyn Any + Send>>) -> Result<Erased, MethodError> {
        let mut typed = Vec::with_capacity(pages.len());
        for p in pages {
            match p.downcast::<M::PageData>() {
                Ok(p) => typed.push(*p),
                Err(_) => return Err(wrong_type(Method::name(self), "page data")),
            }
        }
        Ok(Box::new(Method::learn(self, typed)?))
    }

    fn refine_across_sites(&self, models: &mut [&mut Erased], site_of: &[usize]) -> usize {
        let mut typed: Vec<&mut M::Model> = Vec::new();
        let mut sites: Vec<usize> = Vec::new();
        for (m, s) in models.iter_mut().zip(site_of) {
            if let Some(m) = m.downcast_mut::<M::Model>() {
                typed.push(m);
                sites.push(*s);
            }
        }
        Method::refine_across_sites(self, &mut typed, &sites)
    }

    fn model_to_json(&self, model: &Erased) -> Result<serde_json::Value, MethodError> {
        let model = model
            .downcast_ref::<M::Model>()
            .ok_or_else(|| wrong_type(Method::name(self), "a model"))?;
        serde_json::to_value(model).map_err(MethodError::new)
    }

    fn compile(&self, model: Option<&serde_json::Value>) -> Result<Erased, MethodError> {
        let model = match model {
            Some(v) => Some(
                <M::Model as serde::Deserialize>::deserialize(v)
                    .map_err(|e| MethodError::new(format!("invalid model ({e})")))?,
            ),
            None => None,
        };
        Ok(Box::new(Method::compile(self, model)?))
    }

    fn evidence(&self, compiled: &Erased, page: &PageInput<'_>) -> Verdict {
        match compiled.downcast_ref::<M::Compiled>() {
            Some(c) => Method::evidence(self, c, page),
            None => foreign_compiled(Method::name(self)),
        }
    }

    fn site_inputs(&self) -> &'static [&'static str] {
        Method::site_inputs(self)
    }

    fn evidence_given(
        &self,
        compiled: &Erased,
        page: &PageInput<'_>,
        site: &[SiteVerdict<'_>],
    ) -> Verdict {
        match compiled.downcast_ref::<M::Compiled>() {
            Some(c) => Method::evidence_given(self, c, page, site),
            None => foreign_compiled(Method::name(self)),
        }
    }
}

fn foreign_compiled(name: &str) -> Verdict {
    Verdict::Abstain(format!("{name}: compiled model made by another method"))
}

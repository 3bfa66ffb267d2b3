//! Profiles by site: the store an [`crate::Extractor`] looks a page's site up in, and a
//! profile compiled against the registry.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use chaff_core::{DynMethod, Erased, Scope};

use crate::template::Sketch;
use crate::{Error, Profile, Registry};

/// Site profiles by site key.
#[derive(Clone, Debug, Default)]
pub struct ProfileStore {
    profiles: HashMap<String, Profile>,
}

impl ProfileStore {
    /// An empty store.
    pub fn new() -> ProfileStore {
        ProfileStore::default()
    }

    /// Every profile (`*.json`) in a folder, as `learn` writes them one per site. Files that
    /// are not chaff profiles, or two profiles for one site, are errors naming the file.
    pub fn open(dir: &Path) -> Result<ProfileStore, Error> {
        let read_err = |e: std::io::Error| Error::Profile {
            path: dir.display().to_string(),
            message: format!("cannot read the profile folder: {e}"),
        };
        let mut paths = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(read_err)? {
            let path = entry.map_err(read_err)?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".json") && !name.starts_with('.') && path.is_file() {
                paths.push(path);
            }
        }
        paths.sort();
        let mut store = ProfileStore::new();
        for path in paths {
            let profile = Profile::load(&path)?;
            if let Some(old) = store.profiles.get(&profile.site) {
                return Err(Error::Profile {
                    path: path.display().to_string(),
                    message: format!(
                        "a second profile for the site {} (the first learned from {} pages)",
                        profile.site, old.pages
                    ),
                });
            }
            store.insert(profile);
        }
        Ok(store)
    }

    /// Adds (or replaces) the profile of its site.
    pub fn insert(&mut self, profile: Profile) {
        self.profiles.insert(profile.site.clone(), profile);
    }

    /// The profile of a site.
    pub fn get(&self, site: &str) -> Option<&Profile> {
        self.profiles.get(site)
    }

    /// How many sites have a profile.
    pub fn len(&self) -> usize {
        self.profiles.len()
    }

    /// True when the store holds no profile.
    pub fn is_empty(&self) -> bool {
        self.profiles.is_empty()
    }

    /// The sites, sorted.
    pub fn sites(&self) -> Vec<&str> {
        let mut s: Vec<&str> = self.profiles.keys().map(String::as_str).collect();
        s.sort_unstable();
        s
    }

    pub(crate) fn into_profiles(self) -> impl Iterator<Item = Profile> {
        self.profiles.into_values()
    }
}

impl FromIterator<Profile> for ProfileStore {
    /// A store of these profiles (a later profile of a site replaces an earlier one).
    fn from_iter<I: IntoIterator<Item = Profile>>(profiles: I) -> ProfileStore {
        let mut store = ProfileStore::new();
        for p in profiles {
            store.insert(p);
        }
        store
    }
}

/// A profile's template whose models are compiled, ready to label pages.
pub struct CompiledProfile {
    /// The profile's site.
    pub site: String,
    /// How many pages it was learned from.
    pub pages: u32,
    /// The compiled models, in registry order.
    pub(crate) methods: Vec<(Arc<dyn DynMethod>, Erased)>,
    /// Methods asked for that the profile has no model of.
    pub(crate) missing: Vec<String>,
    /// The template's representatives (none: every page of the site).
    pub(crate) sketches: Vec<Sketch>,
}

impl CompiledProfile {
    /// Compiles every template of the profile, the main one first: the models of `wanted`
    /// (every site-level model the profile has when `None`). A model the registry does not
    /// know is skipped with a warning; one that does not compile is an error.
    pub fn compile_all(
        profile: &Profile,
        registry: &Registry,
        wanted: Option<&[String]>,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<CompiledProfile>, Error> {
        profile
            .all_templates()
            .map(|t| compile_template(&profile.site, t, registry, wanted, warnings))
            .collect()
    }

    /// The names of the compiled models.
    pub fn method_names(&self) -> Vec<&'static str> {
        self.methods.iter().map(|(m, _)| m.name()).collect()
    }
}

/// Adds `w` unless it is there already (a profile's templates share their site's warnings).
fn push_once(warnings: &mut Vec<String>, w: String) {
    if !warnings.contains(&w) {
        warnings.push(w);
    }
}

fn compile_template(
    site: &str,
    (pages, sketches, models): (u32, &[Sketch], &BTreeMap<String, serde_json::Value>),
    registry: &Registry,
    wanted: Option<&[String]>,
    warnings: &mut Vec<String>,
) -> Result<CompiledProfile, Error> {
    for name in models.keys() {
        if registry.get(name).is_none() {
            push_once(
                warnings,
                format!(
                    "profile of {site}: no method named {name} in this build; its model is ignored"
                ),
            );
        }
    }
    let mut methods = Vec::new();
    let mut missing = Vec::new();
    for method in registry.of_scope(Scope::Site) {
        let name = method.name();
        if wanted.is_some_and(|w| !w.iter().any(|n| n == name)) {
            continue;
        }
        match models.get(name) {
            Some(model) => {
                let compiled = method.compile(Some(model)).map_err(|e| Error::Method {
                    method: name.to_string(),
                    site: Some(site.to_string()),
                    message: e.to_string(),
                })?;
                for note in method.compiled_notes(&compiled) {
                    push_once(warnings, format!("profile of {site}: {name}: {note}"));
                }
                methods.push((Arc::clone(method), compiled));
            }
            None if wanted.is_some() => missing.push(name.to_string()),
            None => {}
        }
    }
    Ok(CompiledProfile {
        site: site.to_string(),
        pages,
        methods,
        missing,
        sketches: sketches.to_vec(),
    })
}

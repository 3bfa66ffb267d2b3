//! The site profile: the versioned, human-readable JSON of everything learned about a site.
//!
//! ```json
//! { "format": "chaff-profile", "version": 2, "site": "bbc.co.uk", "pages": 9,
//!   "generator": "chaff 0.1.0", "methods": { "suffix": { ... }, "forest": { ... } },
//!   "sketches": [ "9a03...", ... ],
//!   "templates": [ { "pages": 3, "sketches": [ ... ], "methods": { ... } } ] }
//! ```
//!
//! A site may serve several templates ([`crate::template`]): the top-level `pages`,
//! `methods` and `sketches` are its main template's (the pages it was learned from, its
//! models, its representatives' sketches), `templates` the others'. A page is read with the
//! template it resembles most, or with none. Version 1 profiles (one template, no sketches)
//! are still read and apply to every page of their site.
//!
//! `methods` maps a method's registered name to its model, as that method serialises it; the
//! profile itself knows no method. Which models a reader can use is decided when the profile
//! is compiled against a [`crate::Registry`]. A reader refuses profiles of a newer format
//! version (they may mean something this reader cannot honour) and names the file and the
//! position of any syntax or schema error. Writes are atomic: a crash leaves the old profile
//! or the new one.
//!
//! # A profile is untrusted input
//!
//! A profile may come from anywhere, so reading and compiling one is bounded; each limit
//! breached is a one-line error naming the profile (its file, or its site once loaded) and
//! the limit, never a panic or a stack overflow:
//!
//! * the file: at most [`MAX_PROFILE_BYTES`] (64 MiB), checked from its metadata before it is
//!   read (and again while reading); JSON nesting at most 128 levels (serde_json's limit);
//! * suffix expressions (`chaff_suffix::clean`): at most 100,000 per model, 64 KiB each,
//!   nesting at most 100 groups or repetitions deep, compiled NFA at most 64 MiB per
//!   direction. They are matched by a lazy DFA (regex-automata's hybrid engine, whose
//!   state cache is capped at 32 MiB per direction), so matching is linear in the text
//!   whatever the expressions: no backtracking;
//! * FOREST's XPath (`chaff_dom::xpath`): at most 16 KiB per expression and 100 levels of
//!   nesting (brackets, parentheses, function arguments); evaluation has a work budget linear
//!   in the document;
//! * the alignment template (`chaff_align`): at most 100,000 tokens;
//! * templates ([`crate::template`]): fewer than 256 per profile, at most 8 sketches each,
//!   so routing a page costs at most about 2,000 sketch comparisons.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::template::Sketch;

/// The value of the `format` field.
pub const FORMAT: &str = "chaff-profile";
/// The profile format version this build writes and the newest it reads (2: templates).
pub const VERSION: u32 = 2;
/// The largest profile read, in bytes (64 MiB); learned profiles are far smaller (536 KB for
/// a shop site learned from 200 pages, see the hardening notes in MEASUREMENTS.md).
pub const MAX_PROFILE_BYTES: u64 = 64 << 20;

fn too_large(origin: &str, bytes: u64) -> Error {
    Error::Profile {
        path: origin.to_string(),
        message: format!(
            "profile of {bytes} bytes is larger than the {} MiB limit",
            MAX_PROFILE_BYTES >> 20
        ),
    }
}

/// Everything learned about one site.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Format version; see [`VERSION`].
    pub version: u32,
    /// The site key the profile was learned for.
    pub site: String,
    /// Number of pages the main template was learned from.
    pub pages: u32,
    /// The program that wrote it.
    pub generator: String,
    /// The main template's models, one per method, by the method's registered name.
    pub methods: BTreeMap<String, serde_json::Value>,
    /// The main template's representatives; none: every page of the site is read with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sketches: Vec<Sketch>,
    /// The site's other templates.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub templates: Vec<Template>,
}

/// One of a site's other templates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Template {
    /// Number of pages it was learned from.
    pub pages: u32,
    /// Its representatives.
    pub sketches: Vec<Sketch>,
    /// Its models, as [`Profile::methods`].
    pub methods: BTreeMap<String, serde_json::Value>,
}

impl Profile {
    /// A new profile for `site` with no model yet.
    pub fn new(site: impl Into<String>, pages: u32) -> Profile {
        Profile {
            format: FORMAT.into(),
            version: VERSION,
            site: site.into(),
            pages,
            generator: format!("chaff {}", env!("CARGO_PKG_VERSION")),
            methods: BTreeMap::new(),
            sketches: Vec::new(),
            templates: Vec::new(),
        }
    }

    /// Every template as (pages, representatives, models), the main one first.
    pub fn all_templates(
        &self,
    ) -> impl Iterator<Item = (u32, &[Sketch], &BTreeMap<String, serde_json::Value>)> {
        std::iter::once((self.pages, self.sketches.as_slice(), &self.methods)).chain(
            self.templates
                .iter()
                .map(|t| (t.pages, t.sketches.as_slice(), &t.methods)),
        )
    }

    /// Names of the methods present, sorted.
    pub fn method_names(&self) -> Vec<&str> {
        self.methods.keys().map(String::as_str).collect()
    }

    /// Parses a profile from JSON text; `origin` names it in errors.
    pub fn from_json(text: &str, origin: &str) -> Result<Profile, Error> {
        let err = |message: String| Error::Profile {
            path: origin.to_string(),
            message,
        };
        if text.len() as u64 > MAX_PROFILE_BYTES {
            return Err(too_large(origin, text.len() as u64));
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| err(format!("not valid JSON ({e})")))?;
        let format = value.get("format").and_then(|f| f.as_str());
        if format != Some(FORMAT) {
            return Err(err(format!(
                "not a chaff profile (expected \"format\": \"{FORMAT}\")"
            )));
        }
        let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
        if version == 0 {
            return Err(err("missing or invalid \"version\"".into()));
        }
        if version > VERSION as u64 {
            return Err(err(format!(
                "profile format version {version} is newer than this chaff understands (up to {VERSION}); upgrade chaff"
            )));
        }
        let profile: Profile =
            serde_json::from_value(value).map_err(|e| err(format!("invalid profile ({e})")))?;
        if profile
            .all_templates()
            .any(|(_, _, methods)| methods.is_empty())
        {
            return Err(err("the profile holds a template without a model".into()));
        }
        if profile.templates.len() >= crate::template::CLUSTER_SAMPLE {
            return Err(err(format!(
                "{} templates; a profile holds fewer than {}",
                profile.templates.len() + 1,
                crate::template::CLUSTER_SAMPLE
            )));
        }
        if profile
            .all_templates()
            .any(|(_, s, _)| s.len() > crate::template::REPRESENTATIVES)
        {
            return Err(err(format!(
                "a template with more than {} sketches",
                crate::template::REPRESENTATIVES
            )));
        }
        if !profile.templates.is_empty() && profile.all_templates().any(|(_, s, _)| s.is_empty()) {
            return Err(err(
                "a profile of several templates needs every template's sketches".into(),
            ));
        }
        Ok(profile)
    }

    /// Reads a profile file of at most [`MAX_PROFILE_BYTES`].
    pub fn load(path: &Path) -> Result<Profile, Error> {
        use std::io::Read;
        let origin = path.display().to_string();
        let cannot = |e: std::io::Error| Error::Profile {
            path: origin.clone(),
            message: format!("cannot read: {e}"),
        };
        let file = std::fs::File::open(path).map_err(cannot)?;
        let size = file.metadata().map_err(cannot)?.len();
        if size > MAX_PROFILE_BYTES {
            return Err(too_large(&origin, size));
        }
        // A file growing meanwhile, or a device, is still cut at the limit.
        let mut text = String::new();
        file.take(MAX_PROFILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(cannot)?;
        Profile::from_json(&text, &origin)
    }

    /// The profile as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // A map of JSON values with string keys always serialises.
        let mut s = serde_json::to_string_pretty(self).unwrap_or_else(|_| String::from("{}"));
        s.push('\n');
        s
    }

    /// The file name of a site's profile in a folder of profiles, as `learn --per-site`
    /// writes them (`example.org.profile.json`); [`ProfileStore::open`](crate::ProfileStore::open)
    /// reads any `.json` file of the folder.
    pub fn file_name(site: &str) -> String {
        format!("{}.profile.json", chaff_corpus::site_file_stem(site))
    }

    /// One line on what the profile holds: its site, its pages and, per method, the figure a
    /// user checks first (expressions, template tokens, the content's path).
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .methods
            .iter()
            .map(|(name, model)| {
                let count = |key: &str| model.get(key).and_then(|v| v.as_array()).map(Vec::len);
                match (count("expressions"), count("template"), model.get("xpath")) {
                    (Some(n), _, _) => format!("{name}: {n} expressions"),
                    (_, Some(n), _) => format!("{name}: template of {n} tokens"),
                    (_, _, Some(x)) => {
                        format!("{name}: main content at {}", x.as_str().unwrap_or("?"))
                    }
                    _ => name.clone(),
                }
            })
            .collect();
        let others = match self.templates.len() {
            0 => String::new(),
            n => {
                let pages: u32 = self.templates.iter().map(|t| t.pages).sum();
                format!(" (and {n} other templates of {pages} pages)")
            }
        };
        format!(
            "{}: {} pages{others}; {}",
            self.site,
            self.pages,
            parts.join("; ")
        )
    }

    /// The regular expressions of the main template's suffix model, if the profile has one.
    pub fn suffix_regexes(&self) -> impl Iterator<Item = &str> {
        self.methods
            .get("suffix")
            .and_then(|m| m.get("expressions"))
            .and_then(|e| e.as_array())
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("regex").and_then(|r| r.as_str()))
    }

    /// Writes the profile atomically.
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        chaff_corpus::atomic_write(path, self.to_json().as_bytes())?;
        Ok(())
    }

    /// Writes the profile atomically into a folder of profiles (created when missing) under
    /// its site's file name ([`Profile::file_name`]); returns the file's path.
    pub fn save_in(&self, dir: &Path) -> Result<std::path::PathBuf, Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::Profile {
            path: dir.display().to_string(),
            message: format!("cannot create the profile folder: {e}"),
        })?;
        let path = dir.join(Profile::file_name(&self.site));
        self.save(&path)?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Profile {
        let mut p = Profile::new("example.org", 2);
        p.methods.insert(
            "suffix".into(),
            serde_json::json!({"expressions": ["Home News"]}),
        );
        p
    }

    #[test]
    fn round_trip() {
        let p = sample();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.json");
        p.save(&path).unwrap();
        assert_eq!(Profile::load(&path).unwrap(), p);
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .contains("\"format\": \"chaff-profile\"")
        );
    }

    #[test]
    fn bad_profiles_are_refused_with_reasons() {
        let msg = |text: &str| Profile::from_json(text, "x.json").unwrap_err().to_string();
        assert!(msg("{").contains("not valid JSON"));
        assert!(msg("{\"format\":\"other\"}").contains("not a chaff profile"));
        let mut future: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        future["version"] = 99.into();
        assert!(msg(&future.to_string()).contains("newer than this chaff"));
        let mut broken: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        broken["methods"] = "oops".into();
        assert!(msg(&broken.to_string()).contains("invalid profile"));
        let empty = Profile::new("s", 2).to_json();
        assert!(msg(&empty).contains("a template without a model"));
        let mut bad_sketch: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        bad_sketch["sketches"] = serde_json::json!(["00ff"]);
        assert!(msg(&bad_sketch.to_string()).contains("template sketch must be"));
        let one = serde_json::Value::String("0".repeat(crate::template::SKETCH_BINS * 8));
        let mut many: serde_json::Value = serde_json::from_str(&sample().to_json()).unwrap();
        many["sketches"] = serde_json::Value::Array(vec![one; 9]);
        assert!(msg(&many.to_string()).contains("more than 8 sketches"));
        assert!(
            msg("{\"format\":\"chaff-profile\",\"version\":1}")
                .starts_with("x.json: invalid profile")
        );
    }
}

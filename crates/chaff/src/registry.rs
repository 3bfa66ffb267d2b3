//! The registry: every method chaff knows, by name.
//!
//! Learning, extraction and the profile find methods here and nowhere else, so a new method
//! costs its crate and one [`Registry::register`] call. A method's options are part of the
//! registered value: registering a configured method under a name already present replaces
//! the default one.

use std::sync::Arc;

use chaff_core::{DynMethod, Scope};

use crate::Error;

/// Methods by name, in registration order.
#[derive(Clone)]
pub struct Registry {
    methods: Vec<Arc<dyn DynMethod>>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Registry {
    /// A registry with no method.
    pub fn empty() -> Registry {
        Registry {
            methods: Vec::new(),
        }
    }

    /// The built-in methods with their papers' defaults: `suffix`, `align`, `forest` and
    /// `subtree` (site-level), `pagelevel`, `content`, `menu` and `comments` (page-level).
    pub fn builtin() -> Result<Registry, Error> {
        let pagelevel = chaff_pagelevel::PageLevelMethod::builtin().map_err(|e| Error::Method {
            method: "pagelevel".into(),
            site: None,
            message: e.to_string(),
        })?;
        let content = chaff_content::ContentMethod::builtin().map_err(|e| Error::Method {
            method: "content".into(),
            site: None,
            message: e.to_string(),
        })?;
        let mut r = Registry::site_level();
        r.register(pagelevel)
            .register(content)
            .register(chaff_menu::MenuMethod::default())
            .register(chaff_comments::CommentsMethod);
        Ok(r)
    }

    /// The built-in site-level methods alone, with their papers' defaults: `suffix`,
    /// `align`, `forest` and `subtree`. They hold no compiled model, so this cannot fail:
    /// the content model's recipe learns sites with them while the built-in content model
    /// may be one the build's features no longer fit.
    pub fn site_level() -> Registry {
        let mut r = Registry::empty();
        r.register(chaff_suffix::SuffixMethod::default())
            .register(chaff_align::AlignMethod::default())
            .register(chaff_forest::ForestMethod::default())
            .register(chaff_pagelevel::SubtreeMethod::default());
        r
    }

    /// Adds a method, or replaces the one registered under its name (keeping its place).
    pub fn register(&mut self, method: impl DynMethod + 'static) -> &mut Registry {
        let method: Arc<dyn DynMethod> = Arc::new(method);
        match self.methods.iter().position(|m| m.name() == method.name()) {
            Some(i) => self.methods[i] = method,
            None => self.methods.push(method),
        }
        self
    }

    /// The method registered under `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn DynMethod>> {
        self.methods.iter().find(|m| m.name() == name)
    }

    /// The method registered under `name`, or an error naming the known ones.
    pub fn resolve(&self, name: &str) -> Result<&Arc<dyn DynMethod>, Error> {
        self.get(name).ok_or_else(|| Error::UnknownMethod {
            name: name.to_string(),
            known: self.names().join(", "),
        })
    }

    /// The names, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.methods.iter().map(|m| m.name()).collect()
    }

    /// The methods of one scope, in registration order.
    pub fn of_scope(&self, scope: Scope) -> impl Iterator<Item = &Arc<dyn DynMethod>> {
        self.methods.iter().filter(move |m| m.scope() == scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The site-level registry is the built-in one's site methods, in the same order, and
    /// nothing else; the built-in registry adds the page-level methods after them.
    #[test]
    fn site_level_is_the_builtin_site_methods() {
        let site = Registry::site_level();
        assert_eq!(site.names(), ["suffix", "align", "forest", "subtree"]);
        assert!(site.of_scope(Scope::Page).next().is_none());
        let builtin = Registry::builtin().expect("the built-in models load");
        let site_of_builtin: Vec<&str> = builtin.of_scope(Scope::Site).map(|m| m.name()).collect();
        assert_eq!(site_of_builtin, site.names());
        assert_eq!(
            builtin.names(),
            [
                "suffix",
                "align",
                "forest",
                "subtree",
                "pagelevel",
                "content",
                "menu",
                "comments"
            ]
        );
    }
}

//! CSS selectors over the arena document (see the module docs once implemented).

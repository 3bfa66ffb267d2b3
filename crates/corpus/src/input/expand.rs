//! Command-line arguments to input specifications, checked up front.
//!
//! Everything that can be known before reading a single page is checked
//! here (a path that does not exist or cannot be opened, a glob that matches
//! nothing), so a typo fails at once with a message naming it rather than
//! after an hour of work on the other inputs.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use crate::error::CorpusError;

/// One input, as expanded from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSpec {
    /// A file: a page (maybe gzipped), or a WARC file.
    File(PathBuf),
    /// A folder, walked recursively when read.
    Dir(PathBuf),
    /// JSON Lines on standard input (the argument `-`).
    Stdin,
}

/// Expands arguments in order: `-` is standard input, an existing path is a
/// file or folder, anything else with glob metacharacters is a pattern whose
/// matches come in sorted order.
///
/// Fails on the first argument that cannot be used: a path that does not
/// exist or cannot be opened, a pattern that is invalid or matches nothing,
/// or `-` given twice.
pub fn expand_inputs(args: &[String]) -> Result<Vec<InputSpec>, CorpusError> {
    let mut specs = Vec::new();
    let mut stdin_seen = false;
    for arg in args {
        if arg == "-" {
            if stdin_seen {
                return Err(CorpusError::StdinTwice);
            }
            stdin_seen = true;
            specs.push(InputSpec::Stdin);
            continue;
        }
        let path = Path::new(arg);
        match fs::metadata(path) {
            Ok(meta) => specs.push(checked_spec(path, meta.is_dir())?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && has_glob_meta(arg) => {
                for (path, is_dir) in glob(arg)? {
                    specs.push(if is_dir {
                        InputSpec::Dir(path)
                    } else {
                        InputSpec::File(path)
                    });
                }
            }
            Err(source) => {
                return Err(CorpusError::Unreadable {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
    }
    Ok(specs)
}

/// Opens a named path once, so "permission denied" shows up now.
fn checked_spec(path: &Path, is_dir: bool) -> Result<InputSpec, CorpusError> {
    let unreadable = |source| CorpusError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    if is_dir {
        fs::read_dir(path).map_err(unreadable)?;
        Ok(InputSpec::Dir(path.to_path_buf()))
    } else {
        fs::File::open(path).map_err(unreadable)?;
        Ok(InputSpec::File(path.to_path_buf()))
    }
}

fn has_glob_meta(arg: &str) -> bool {
    arg.contains(['*', '?', '[', '{'])
}

/// Expands a pattern to sorted `(path, is_dir)` matches. `*` and `?` do not
/// cross `/`; `**` does. Hidden entries match only where the pattern spells
/// the dot. A matched folder stands for everything under it, so matches
/// inside it are dropped rather than read twice.
fn glob(pattern: &str) -> Result<Vec<(PathBuf, bool)>, CorpusError> {
    let bad = |e: globset::Error| CorpusError::BadGlob {
        pattern: pattern.to_string(),
        message: e.kind().to_string(),
    };
    let matcher = GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(bad)?
        .compile_matcher();

    // Walk from the longest literal folder prefix; match candidates spelled
    // the way the pattern is (`prefix` + relative path).
    let parts: Vec<&str> = pattern.split('/').collect();
    let first_meta = parts
        .iter()
        .position(|p| has_glob_meta(p))
        .unwrap_or(parts.len());
    let prefix = if first_meta == 0 {
        String::new()
    } else {
        format!("{}/", parts[..first_meta].join("/"))
    };
    let rest = &parts[first_meta..];
    let max_depth = if rest.iter().any(|p| p.contains("**")) {
        usize::MAX
    } else {
        rest.len()
    };
    let root = if prefix.is_empty() {
        PathBuf::from(".")
    } else {
        PathBuf::from(&prefix)
    };

    let mut matches = walk_matches(&root, &prefix, rest, max_depth, &matcher);
    if matches.is_empty() {
        return Err(CorpusError::NoGlobMatch {
            pattern: pattern.to_string(),
        });
    }
    matches.sort();
    let mut kept: Vec<(PathBuf, bool)> = Vec::with_capacity(matches.len());
    for (path, is_dir) in matches {
        let inside_kept_dir = kept
            .iter()
            .rev()
            .find(|(_, d)| *d)
            .is_some_and(|(dir, _)| path.starts_with(dir) && path != *dir);
        if !inside_kept_dir {
            kept.push((path, is_dir));
        }
    }
    Ok(kept)
}

/// Iterative walk collecting entries whose spelled path matches.
fn walk_matches(
    root: &Path,
    prefix: &str,
    rest: &[&str],
    max_depth: usize,
    matcher: &GlobMatcher,
) -> Vec<(PathBuf, bool)> {
    let mut found = Vec::new();
    let mut visited = HashSet::new();
    let mut stack = vec![(root.to_path_buf(), String::new(), 0usize)];
    while let Some((dir, rel, depth)) = stack.pop() {
        if let Ok(canonical) = dir.canonicalize()
            && !visited.insert(canonical)
        {
            continue; // a symlink loop under `**`
        }
        let Ok(entries) = fs::read_dir(&dir) else {
            continue; // like a shell: unreadable folders just match nothing
        };
        // The pattern part this level is matched against spells the dot, or not.
        let dots_ok = rest.get(depth).is_some_and(|p| p.starts_with('.'));
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && !dots_ok {
                continue;
            }
            let path = entry.path();
            let is_dir = fs::metadata(&path).is_ok_and(|m| m.is_dir());
            let spelled = format!("{prefix}{rel}{name}");
            if matcher.is_match(&spelled) {
                found.push((path.clone(), is_dir));
            }
            if is_dir && depth + 1 < max_depth {
                stack.push((path, format!("{rel}{name}/"), depth + 1));
            }
        }
    }
    found
}

/// Whether an argument names a page on the web (`http://`, `https://`, any case) rather
/// than a file: such arguments are fetched by the command line, not read here.
pub fn is_url(arg: &str) -> bool {
    let scheme = arg.get(..8).unwrap_or(arg).to_ascii_lowercase();
    scheme.starts_with("http://") || scheme.starts_with("https://")
}

#[cfg(test)]
mod tests {
    #[test]
    fn urls_are_told_from_paths() {
        for url in ["http://a.example/", "HTTPS://b.example/x", "https://c"] {
            assert!(super::is_url(url), "{url}");
        }
        for path in [
            "page.html",
            "http.html",
            "https:/x",
            "./http://x",
            "-",
            "",
            "é",
        ] {
            assert!(!super::is_url(path), "{path}");
        }
    }

    use super::*;

    #[test]
    fn meta_detection() {
        assert!(has_glob_meta("a/*.html"));
        assert!(has_glob_meta("p?.htm"));
        assert!(has_glob_meta("{a,b}"));
        assert!(!has_glob_meta("plain/file.html"));
    }

    #[test]
    fn stdin_once() {
        assert_eq!(
            expand_inputs(&["-".into()]).unwrap(),
            vec![InputSpec::Stdin]
        );
        assert!(matches!(
            expand_inputs(&["-".into(), "-".into()]),
            Err(CorpusError::StdinTwice)
        ));
    }

    #[test]
    fn bad_pattern_is_reported() {
        let err = expand_inputs(&["/nonexistent-chaff/[".into()]).unwrap_err();
        assert!(err.to_string().contains("/nonexistent-chaff/["), "{err}");
    }
}

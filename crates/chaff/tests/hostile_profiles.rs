//! Profiles are untrusted input: each limit on what a profile may make chaff read, compile or
//! build is met by a hostile profile with a one-line error naming the profile and the limit
//! (no panic, no stack overflow), and the profiles learned from the bundled examples load.

use std::path::{Path, PathBuf};

use chaff::corpus::{Pages, PagesOptions};
use chaff::{Extractor, Learner, Profile, Registry, SiteChoice};
use serde_json::{Value, json};

const METHODS: [&str; 4] = ["suffix", "align", "forest", "subtree"];
const SITE: &str = "hostile.example";

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/site")
}

/// The profile learned from `examples/site` with every site method.
fn learned() -> Profile {
    let registry = Registry::builtin().unwrap();
    let learner = Learner::new(&registry, &METHODS).unwrap();
    let pages =
        Pages::from_args(&[examples().display().to_string()], PagesOptions::default()).unwrap();
    let mut learned = learner.learn(pages, &SiteChoice::Single, &|_| {}).unwrap();
    assert_eq!(learned.profiles.len(), 1);
    let mut profile = learned.profiles.remove(0);
    profile.site = SITE.into();
    profile
}

/// Writes `profile` alone into a new folder and builds an extractor from that folder.
fn build(profile: &str) -> Result<Extractor, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.profile.json"), profile).unwrap();
    Extractor::builder()
        .profiles(dir.path())
        .and_then(|b| b.build())
        .map_err(|e| e.to_string())
}

/// The learned profile with `change` applied to its JSON.
fn hostile(change: impl FnOnce(&mut Value)) -> String {
    let mut value: Value = serde_json::from_str(&learned().to_json()).unwrap();
    change(&mut value);
    serde_json::to_string(&value).unwrap()
}

/// Builds from `profile` and checks the error is one line holding each of `parts`.
fn refused(profile: &str, parts: &[&str]) -> String {
    let err = match build(profile) {
        Ok(_) => panic!("a hostile profile was accepted (wanted {parts:?})"),
        Err(e) => e,
    };
    assert!(!err.contains('\n'), "one line: {err}");
    assert!(err.len() < 600, "short: {err}");
    for part in parts {
        assert!(err.contains(part), "{err:?} lacks {part:?}");
    }
    err
}

#[test]
fn profiles_learned_from_the_examples_load() {
    let profile = learned();
    let json = profile.to_json();
    let suffix = profile.methods["suffix"]["expressions"].as_array().unwrap();
    let template = profile.methods["align"]["template"].as_array().unwrap();
    let xpath = profile.methods["forest"]["xpath"].as_str().unwrap();
    println!(
        "examples/site profile: {} bytes, {} suffix expressions (longest {} bytes), {} template \
         tokens, wrapper {xpath} ({} bytes)",
        json.len(),
        suffix.len(),
        suffix
            .iter()
            .map(|e| e["regex"].as_str().unwrap().len())
            .max()
            .unwrap_or(0),
        template.len(),
        xpath.len()
    );
    assert!(!suffix.is_empty() && !template.is_empty());
    let extractor = build(&json).unwrap();
    assert_eq!(extractor.sites(), [SITE]);
    let page = std::fs::read(examples().join("page-000.html")).unwrap();
    extractor.extract(&page, None).unwrap();
}

#[test]
fn a_profile_file_over_64_mib_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.profile.json");
    // Sparse: the check is on the size, before any byte is read.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(chaff::profile::MAX_PROFILE_BYTES + 1).unwrap();
    let err = Profile::load(&path).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "{}: profile of 67108865 bytes is larger than the 64 MiB limit",
            path.display()
        )
    );
    let err = Extractor::builder().profiles(dir.path()).err().unwrap();
    assert!(err.to_string().contains("larger than the 64 MiB limit"));
    // The same through the text entry point.
    let text = " ".repeat(chaff::profile::MAX_PROFILE_BYTES as usize + 1);
    let err = Profile::from_json(&text, "mem").unwrap_err().to_string();
    assert!(
        err.starts_with("mem: profile of 67108865 bytes is larger"),
        "{err}"
    );
}

#[test]
fn deeply_nested_json_is_an_error() {
    let deep = format!(
        "{{\"format\":\"chaff-profile\",\"version\":1,\"site\":\"{SITE}\",\"pages\":2,\"generator\":\"x\",\
         \"methods\":{{\"suffix\":{}1{}}}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let err = refused(
        &deep,
        &["p.profile.json", "not valid JSON", "recursion limit"],
    );
    println!("{err}");
}

#[test]
fn too_many_suffix_expressions() {
    let n = chaff_suffix::clean::MAX_EXPRESSIONS + 1;
    let profile = hostile(|v| {
        let one = json!({"regex": "a", "text": "a", "tokens": 1, "docs": 1, "occurrences": 1});
        v["methods"]["suffix"]["expressions"] = Value::Array(vec![one; n]);
    });
    refused(
        &profile,
        &[
            "suffix on hostile.example",
            "100001 cleaning expressions, more than the limit of 100000",
        ],
    );
}

fn with_regex(regex: String) -> String {
    hostile(|v| {
        v["methods"]["suffix"]["expressions"][0]["regex"] = Value::String(regex);
    })
}

/// An expression edited by hand cannot be read back as the token string mining made, so the
/// suffix method matches the profile's expressions as regexes (the documented fallback, slower)
/// and the extractor says so; the profile as learned matches on tokens without a word.
#[test]
fn a_hand_edited_suffix_expression_is_matched_as_regexes_and_said_so() {
    let learned = build(&learned().to_json()).unwrap();
    assert!(learned.warnings().is_empty(), "{:?}", learned.warnings());
    let edited = build(&with_regex(r"(?:^|\s+)Edited\s+by\s+hand(?:\s+|$)".into())).unwrap();
    let warnings = edited.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(
            "profile of hostile.example: suffix: its expressions are matched as regexes"
        ),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("expression 1"), "{warnings:?}");
}

#[test]
fn a_suffix_expression_too_long() {
    refused(
        &with_regex("a".repeat(70_000)),
        &[
            "suffix on hostile.example",
            "cleaning expression 1 is 70000 bytes long, more than the limit of 64 KiB",
        ],
    );
}

#[test]
fn a_suffix_expression_nested_too_deep() {
    let deep = format!("{}a{}", "(".repeat(5_000), ")".repeat(5_000));
    refused(
        &with_regex(deep),
        &[
            "suffix on hostile.example",
            "nested parentheses/brackets (100)",
        ],
    );
}

#[test]
fn a_suffix_expression_too_big_to_compile() {
    refused(
        &with_regex(r"(?:(?:\w{100}){100}){100}".into()),
        &[
            "suffix on hostile.example",
            "NFA compilation exceeded limit of 67108864",
        ],
    );
}

fn with_wrapper(xpath: String) -> String {
    hostile(|v| v["methods"]["forest"]["xpath"] = Value::String(xpath))
}

#[test]
fn a_wrapper_xpath_too_long() {
    refused(
        &with_wrapper("/a".repeat(10_000)),
        &[
            "forest on hostile.example",
            "XPath of 20000 bytes is longer than the 16 KiB limit",
        ],
    );
}

#[test]
fn a_wrapper_xpath_nested_too_deep() {
    for deep in [
        format!("{}//div{}", "(".repeat(5_000), ")".repeat(5_000)),
        format!("//div{}", "[p".repeat(5_000)),
        format!("//div[{}1{}]", "not(".repeat(3_000), ")".repeat(3_000)),
    ] {
        refused(
            &with_wrapper(deep),
            &["forest on hostile.example", "nested deeper than 100"],
        );
    }
}

#[test]
fn an_alignment_template_too_long() {
    let n = chaff_align::model::MAX_TEMPLATE_TOKENS + 1;
    let profile = hostile(|v| {
        let one = json!({"token": "<div>", "support": 2});
        v["methods"]["align"]["template"] = Value::Array(vec![one; n]);
    });
    refused(
        &profile,
        &[
            "align on hostile.example",
            "template of 100001 tokens, more than the limit of 100000",
        ],
    );
}

#[test]
fn too_many_templates_or_sketches() {
    let limit = chaff::template::CLUSTER_SAMPLE;
    let profile = hostile(|v| {
        let other =
            json!({"pages": 2, "sketches": v["sketches"].clone(), "methods": v["methods"].clone()});
        v["templates"] = Value::Array(vec![other; limit]);
    });
    refused(
        &profile,
        &[
            "p.profile.json",
            "257 templates; a profile holds fewer than 256",
        ],
    );
    let profile = hostile(|v| {
        let one = v["sketches"][0].clone();
        v["sketches"] = Value::Array(vec![one; chaff::template::REPRESENTATIVES + 1]);
    });
    refused(
        &profile,
        &["p.profile.json", "a template with more than 8 sketches"],
    );
    let profile = hostile(|v| v["sketches"][0] = json!("not hexadecimal"));
    refused(
        &profile,
        &[
            "p.profile.json",
            "template sketch must be 1024 hexadecimal digits",
        ],
    );
}

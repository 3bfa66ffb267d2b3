//! Terms of a page's text: tokenisation, stop-word removal and stemming in the page's
//! language (section 3.1, "Signifiers").
//!
//! A token is a maximal run of alphanumeric characters, lower-cased; tokens without a letter
//! (numbers) and one-character tokens are dropped. The language is detected per page with
//! `whatlang` (English when detection is unreliable); its stop list comes from `stop-words`
//! (the NLTK lists where NLTK has the language, the ISO lists elsewhere: the ISO English
//! list holds content words such as "past" and "present") and its stemmer from `rust-stemmers` (Snowball), each where the crate covers
//! the language. Every distinct lower-cased token is analysed once per language: the
//! [`Vocabulary`] caches the term it maps to, so a site's pages cost a hash lookup per token.

use rustc_hash::{FxHashMap, FxHashSet};

use rust_stemmers::{Algorithm, Stemmer};

/// How much of a page's text language detection reads. Learning detects every page's
/// language, and with 4,096 bytes that was the largest part of FOREST's learning time
/// (`chaff-lab bench site` on a synthetic site: 5.9% of all samples, about 40% of FOREST's
/// share). With 1,024, `chaff extract --learn` gives the same text on Dragnet (1,381 pages),
/// the SWDE books subset, CleanPortalEval and a synthetic site (session of 2026-11-28): a
/// page's first kilobyte is mostly its template's words, the same on all the site's pages.
const DETECT_SAMPLE: usize = 1024;

/// The ISO 639-1 code (for the stop list) and Snowball stemmer of a whatlang language code
/// (ISO 639-3). Languages outside this table get neither: their tokens are terms as they are.
fn language_resources(code3: &str) -> (Option<&'static str>, Option<Algorithm>) {
    use Algorithm as A;
    match code3 {
        "eng" => (Some("en"), Some(A::English)),
        "fra" => (Some("fr"), Some(A::French)),
        "deu" => (Some("de"), Some(A::German)),
        "spa" => (Some("es"), Some(A::Spanish)),
        "ita" => (Some("it"), Some(A::Italian)),
        "por" => (Some("pt"), Some(A::Portuguese)),
        "nld" => (Some("nl"), Some(A::Dutch)),
        "dan" => (Some("da"), Some(A::Danish)),
        "swe" => (Some("sv"), Some(A::Swedish)),
        "nob" => (Some("no"), Some(A::Norwegian)),
        "fin" => (Some("fi"), Some(A::Finnish)),
        "hun" => (Some("hu"), Some(A::Hungarian)),
        "ron" => (Some("ro"), Some(A::Romanian)),
        "rus" => (Some("ru"), Some(A::Russian)),
        "tur" => (Some("tr"), Some(A::Turkish)),
        "ara" => (Some("ar"), Some(A::Arabic)),
        "ell" => (Some("el"), Some(A::Greek)),
        "tam" => (None, Some(A::Tamil)),
        "pol" => (Some("pl"), None),
        "ces" => (Some("cs"), None),
        "slk" => (Some("sk"), None),
        "slv" => (Some("sl"), None),
        "hrv" => (Some("hr"), None),
        "bul" => (Some("bg"), None),
        "ukr" => (Some("uk"), None),
        "lit" => (Some("lt"), None),
        "lav" => (Some("lv"), None),
        "est" => (Some("et"), None),
        "cat" => (Some("ca"), None),
        "heb" => (Some("he"), None),
        "hin" => (Some("hi"), None),
        "ind" => (Some("id"), None),
        "vie" => (Some("vi"), None),
        "afr" => (Some("af"), None),
        "epo" => (Some("eo"), None),
        "lat" => (Some("la"), None),
        "pes" => (Some("fa"), None),
        "tgl" => (Some("tl"), None),
        _ => (None, None),
    }
}

/// The language of a text as a whatlang ISO 639-3 code; English when detection is
/// unreliable or impossible.
pub fn detect_language(text: &str) -> &'static str {
    let mut end = text.len().min(DETECT_SAMPLE);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match whatlang::detect(&text[..end]) {
        Some(info) if info.is_reliable() => info.lang().code(),
        _ => "eng",
    }
}

/// The analysis of one language: its stop words, its stemmer and a cache from lower-cased
/// token to term.
struct Language {
    stop: FxHashSet<&'static str>,
    stemmer: Option<Stemmer>,
    cache: FxHashMap<String, Option<u32>>,
}

impl Language {
    fn new(code3: &str) -> Language {
        let (code1, algorithm) = language_resources(code3);
        let stop = code1
            .and_then(stop_words::lookup)
            .map(|words| words.iter().copied().collect())
            .unwrap_or_default();
        Language {
            stop,
            stemmer: algorithm.map(Stemmer::create),
            cache: FxHashMap::default(),
        }
    }
}

/// Terms shared by the pages of one analysis: stems interned as dense ids, with the
/// per-language analysis caches.
#[derive(Default)]
pub struct Vocabulary {
    ids: FxHashMap<String, u32>,
    terms: Vec<String>,
    languages: FxHashMap<&'static str, Language>,
    lower: String,
}

impl Vocabulary {
    /// An empty vocabulary.
    pub fn new() -> Vocabulary {
        Vocabulary::default()
    }

    /// Number of distinct terms seen.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True when no term was seen.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The stem of a term id.
    pub fn term(&self, id: u32) -> &str {
        self.terms.get(id as usize).map_or("", String::as_str)
    }

    /// Appends the terms of `text` in language `code3` (see [`detect_language`]) to `out`.
    pub fn analyze(&mut self, text: &str, code3: &'static str, out: &mut Vec<u32>) {
        let Vocabulary {
            ids,
            terms,
            languages,
            lower,
        } = self;
        let lang = languages
            .entry(code3)
            .or_insert_with(|| Language::new(code3));
        for token in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
        {
            lower.clear();
            if token.is_ascii() {
                // The same as the general case for ASCII, without decoding characters.
                lower.push_str(token);
                lower.make_ascii_lowercase();
            } else {
                lower.extend(token.chars().flat_map(char::to_lowercase));
            }
            if let Some(hit) = lang.cache.get(lower.as_str()) {
                out.extend(*hit);
                continue;
            }
            let keep = lower.chars().nth(1).is_some()
                && lower.chars().any(char::is_alphabetic)
                && !lang.stop.contains(lower.as_str());
            let id = keep.then(|| {
                let stem = match &lang.stemmer {
                    Some(s) => s.stem(lower).into_owned(),
                    None => lower.clone(),
                };
                let next = terms.len() as u32;
                *ids.entry(stem).or_insert_with_key(|stem| {
                    terms.push(stem.clone());
                    next
                })
            });
            lang.cache.insert(lower.clone(), id);
            out.extend(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(text: &str) -> Vec<String> {
        let mut v = Vocabulary::new();
        let mut out = Vec::new();
        v.analyze(text, detect_language(text), &mut out);
        out.iter().map(|&t| v.term(t).to_string()).collect()
    }

    #[test]
    fn english_is_tokenised_stopped_and_stemmed() {
        assert_eq!(
            stems("The Celts believed the spirits of the dead walked, in 2012!"),
            ["celt", "believ", "spirit", "dead", "walk"]
        );
    }

    #[test]
    fn languages_are_detected_and_analysed_in_their_own_terms() {
        let fr = "Les enfants mangeaient des pommes dans le jardin de leur grand-mère pendant \
                  que les oiseaux chantaient au soleil du printemps.";
        assert_eq!(detect_language(fr), "fra");
        let s = stems(fr);
        assert!(s.contains(&"enfant".to_string()), "{s:?}");
        assert!(!s.iter().any(|t| t == "les" || t == "des"), "{s:?}");
    }

    #[test]
    fn the_same_stem_is_one_term() {
        let mut v = Vocabulary::new();
        let mut out = Vec::new();
        v.analyze("walking walked WALKS", "eng", &mut out);
        assert_eq!(out, [0, 0, 0]);
        assert_eq!(v.len(), 1);
        assert_eq!(v.term(0), "walk");
        assert_eq!(v.term(7), "");
    }
}

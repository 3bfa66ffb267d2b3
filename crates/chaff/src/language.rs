//! The language of a page's main text, for filtering a corpus by language
//! (`chaff extract --target-language de`).
//!
//! The extracted text is what is judged, not the whole page: a German article in an English
//! site's template is German. whatlang identifies it from the text's trigrams and scripts;
//! when it says its guess is not reliable (short or mixed texts), the language the page
//! declares (`<html lang>`, `og:locale`, JSON-LD, `Content-Language` meta) decides, and only
//! without a declaration the unreliable guess stands. Codes are ISO 639-1 where the language
//! has one (`de`), else ISO 639-3 (`cmn` is given as `zh`, Persian `pes` as `fa`).

use serde::Serialize;

/// Characters of the text given to the identifier: enough for a reliable guess, and a
/// bound on its cost. With 10,000, `chaff-lab language` (decisions against whatlang on the
/// whole extracted text) agreed on 98.0% of wcxb-dev, 99.1% of trafilatura-eval's cache,
/// 99.6% of Dragnet and 100% of CleanEval (1,538 pages); with 2,500 the same but one
/// CleanEval page (99.9%), and whatlang's share of `chaff extract` over wcxb-dev fell from
/// 5.1% to 3.9% of perf's samples (session of 2026-11-28). With 1,000 (2026-12-07) the
/// decisions agree with the reference on 5,367 of 5,406 pages of those sets against 5,370
/// with 2,500 (trafilatura-eval, Dragnet and CleanEval the same; two wcxb-dev pages fewer),
/// and `chaff extract` over 40 scrapinghub-aeb pages executes 2.0% fewer instructions
/// (callgrind), where this identification was 6.5% of them.
const SAMPLE_CHARS: usize = 1_000;

/// Where a page's language was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LanguageSource {
    /// Identified from the extracted text.
    Text,
    /// Declared by the page's markup.
    Declared,
}

/// A page's language.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Language {
    /// ISO 639-1 where the language has one, else ISO 639-3; for a declared language, its
    /// primary subtag as declared (`pt` for `pt-BR`).
    pub code: String,
    /// Where it was read from.
    pub source: LanguageSource,
    /// For a language read from the text, whether the identifier called its guess reliable.
    pub reliable: bool,
}

impl Language {
    /// Whether this is the language a user named (`de`, `deu`, `de-AT`, any case).
    pub fn is(&self, wanted: &str) -> bool {
        canonical(wanted).is_some_and(|w| w == self.code)
    }
}

/// The language of `text`, the main text of a page that declares `declared` (a BCP 47 tag).
pub fn detect(text: &str, declared: Option<&str>) -> Option<Language> {
    let end = text
        .char_indices()
        .nth(SAMPLE_CHARS)
        .map_or(text.len(), |(i, _)| i);
    let guess = whatlang::detect(&text[..end]);
    let from_text = |info: &whatlang::Info| Language {
        code: iso639_1(info.lang().code()).to_string(),
        source: LanguageSource::Text,
        reliable: info.is_reliable(),
    };
    match (&guess, declared.and_then(canonical)) {
        (Some(info), _) if info.is_reliable() => Some(from_text(info)),
        (_, Some(code)) => Some(Language {
            code,
            source: LanguageSource::Declared,
            reliable: true,
        }),
        (Some(info), None) => Some(from_text(info)),
        (None, None) => None,
    }
}

/// [`canonical`], or a one-line reason when `code` is not a language code.
pub fn parse_code(code: &str) -> Result<String, String> {
    canonical(code)
        .ok_or_else(|| format!("'{code}' is not a language code (ISO 639-1 or 639-3: de, deu)"))
}

/// A language code as this module gives them: `de-AT`, `DE`, `deu` → `de`; `None` for
/// what is not a code.
pub fn canonical(code: &str) -> Option<String> {
    let primary = code.split(['-', '_']).next()?.trim().to_ascii_lowercase();
    if !(2..=3).contains(&primary.len()) || !primary.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    Some(match primary.as_str() {
        "no" | "nn" => "nb".to_string(),
        three if three.len() == 3 => iso639_1(three).to_string(),
        two => two.to_string(),
    })
}

/// ISO 639-3 codes of the languages whatlang identifies, and their ISO 639-1 codes.
const ISO639: [(&str, &str); 70] = [
    ("afr", "af"),
    ("aka", "ak"),
    ("amh", "am"),
    ("ara", "ar"),
    ("aze", "az"),
    ("bel", "be"),
    ("ben", "bn"),
    ("bul", "bg"),
    ("cat", "ca"),
    ("ces", "cs"),
    ("cmn", "zh"),
    ("cym", "cy"),
    ("dan", "da"),
    ("deu", "de"),
    ("ell", "el"),
    ("eng", "en"),
    ("epo", "eo"),
    ("est", "et"),
    ("fin", "fi"),
    ("fra", "fr"),
    ("guj", "gu"),
    ("heb", "he"),
    ("hin", "hi"),
    ("hrv", "hr"),
    ("hun", "hu"),
    ("hye", "hy"),
    ("ind", "id"),
    ("ita", "it"),
    ("jav", "jv"),
    ("jpn", "ja"),
    ("kan", "kn"),
    ("kat", "ka"),
    ("khm", "km"),
    ("kor", "ko"),
    ("lat", "la"),
    ("lav", "lv"),
    ("lit", "lt"),
    ("mal", "ml"),
    ("mar", "mr"),
    ("mkd", "mk"),
    ("mya", "my"),
    ("nep", "ne"),
    ("nld", "nl"),
    ("nob", "nb"),
    ("ori", "or"),
    ("pan", "pa"),
    ("pes", "fa"),
    ("pol", "pl"),
    ("por", "pt"),
    ("ron", "ro"),
    ("rus", "ru"),
    ("sin", "si"),
    ("slk", "sk"),
    ("slv", "sl"),
    ("sna", "sn"),
    ("spa", "es"),
    ("srp", "sr"),
    ("swe", "sv"),
    ("tam", "ta"),
    ("tel", "te"),
    ("tgl", "tl"),
    ("tha", "th"),
    ("tuk", "tk"),
    ("tur", "tr"),
    ("ukr", "uk"),
    ("urd", "ur"),
    ("uzb", "uz"),
    ("vie", "vi"),
    ("yid", "yi"),
    ("zul", "zu"),
];

/// The ISO 639-1 code of an ISO 639-3 one, or the code itself when there is none here.
fn iso639_1(code: &str) -> &str {
    ISO639
        .binary_search_by(|(three, _)| three.cmp(&code))
        .map_or(code, |i| ISO639[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GERMAN: &str = "Die Stadt hat am Montag beschlossen, die alte Brücke über den Fluss \
        abzureißen und im nächsten Jahr eine neue zu bauen, die auch für Radfahrer sicher ist.";

    #[test]
    fn the_table_is_sorted_and_covers_whatlang() {
        assert!(ISO639.windows(2).all(|w| w[0].0 < w[1].0));
        for lang in whatlang::Lang::all() {
            assert_ne!(iso639_1(lang.code()).len(), 3, "{}", lang.code());
        }
    }

    #[test]
    fn text_wins_over_declaration_when_reliable() {
        let l = detect(GERMAN, Some("en-US")).unwrap();
        assert_eq!((l.code.as_str(), l.source), ("de", LanguageSource::Text));
        assert!(l.is("de") && l.is("DEU") && l.is("de-AT") && !l.is("en"));
    }

    #[test]
    fn declaration_decides_an_unreliable_text() {
        let l = detect("OK", Some("pt-BR")).unwrap();
        assert_eq!(
            (l.code.as_str(), l.source),
            ("pt", LanguageSource::Declared)
        );
        assert_eq!(detect("", None), None);
        assert_eq!(detect("", Some("not a tag!")), None);
    }

    #[test]
    fn codes() {
        assert_eq!(canonical("EN_gb").as_deref(), Some("en"));
        assert_eq!(canonical("cmn").as_deref(), Some("zh"));
        assert_eq!(canonical("no").as_deref(), Some("nb"));
        assert_eq!(canonical("German"), None);
        assert_eq!(canonical("x"), None);
    }
}

//! English-like text: a fixed pseudo-word vocabulary with Zipfian frequencies, real function
//! words, a small grammar and a pool of common idioms.
//!
//! Why this shape: string-mining template detectors are fooled by phrases that recur across
//! pages for reasons other than the template — "according to the", "on the other hand", a
//! site's recurring topic words and names. Uniform random words would make such false positives
//! impossible and the tests too easy; a Zipfian vocabulary, real function words, idioms and
//! per-site topic words make them occur at realistic rates.
//!
//! The vocabulary is generated once from a fixed seed and is the same for every site (it is
//! "the language"); sites differ in their topic words, names and places.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::rng::{Rng, Weighted};

/// Function words, most frequent first (used in titles and tag names; the grammar uses its own
/// closed classes).
const PREPOSITIONS: &[&str] = &[
    "of", "in", "to", "for", "with", "on", "at", "from", "by", "about", "into", "over", "after",
    "between", "under", "against", "during", "without", "through", "before", "across", "near",
];

const MODALS: &[&str] = &[
    "will", "would", "could", "may", "should", "might", "must", "can",
];

const CONJUNCTIONS: &[&str] = &[
    "and", "but", "while", "although", "because", "so", "as", "after", "before", "since",
];

/// Idioms that take a noun phrase after them.
const PREP_IDIOMS: &[&str] = &[
    "according to",
    "in the wake of",
    "as a result of",
    "in the middle of",
    "at the end of",
    "on behalf of",
    "in the face of",
    "in addition to",
    "with regard to",
    "in spite of",
    "as part of",
    "in front of",
    "in terms of",
    "on the eve of",
    "at the heart of",
    "in the run-up to",
    "because of",
    "in favour of",
    "at the start of",
    "for the sake of",
];

/// Idioms that open a sentence, followed by a comma.
const OPENERS: &[&str] = &[
    "on the other hand",
    "at the same time",
    "for the first time",
    "in fact",
    "for example",
    "in recent years",
    "as a matter of fact",
    "by the same token",
    "in the long run",
    "for the most part",
    "all in all",
    "at the end of the day",
    "more often than not",
    "in other words",
    "as far as we know",
    "at first glance",
    "in the meantime",
    "by and large",
    "to be sure",
    "in any case",
];

/// Quantifying idioms, followed by a number and a plural noun.
const QUANTIFIERS: &[&str] = &[
    "as much as",
    "more than",
    "at least",
    "as many as",
    "fewer than",
    "up to",
    "less than",
    "nearly",
    "about",
    "almost",
];

/// Idioms that close a clause.
const ENDERS: &[&str] = &[
    "last week",
    "next year",
    "on a daily basis",
    "in the coming months",
    "as soon as possible",
    "at the time",
    "this year",
    "so far",
    "for the time being",
    "in the years to come",
    "once and for all",
    "earlier this month",
    "over the weekend",
    "in the first place",
];

/// Sentence frames that take a clause after them.
const FRAMES: &[&str] = &[
    "it is not clear whether",
    "there is no doubt that",
    "it remains to be seen whether",
    "it is worth noting that",
    "few would argue that",
    "the fact is that",
    "it is likely that",
    "one of the reasons is that",
];

const REPORT_VERBS: &[&str] = &[
    "said",
    "told reporters",
    "said in a statement",
    "added",
    "explained",
    "wrote",
    "said on Tuesday",
    "said last week",
];

const FIRST_NAMES: &[&str] = &[
    "John", "Sarah", "Michael", "Laura", "David", "Emma", "James", "Anna", "Peter", "Maria",
    "Robert", "Helen", "Thomas", "Claire", "Daniel", "Kate", "Paul", "Julia", "Mark", "Lucy",
    "Simon", "Grace", "Andrew", "Ruth", "Chris", "Nina", "Richard", "Alice", "Stephen", "Eva",
];

/// Syllable pieces for pseudo-words, weighted by repetition: mostly single consonants and
/// vowels, so that words stay short and pronounceable.
const ONSETS: &[&str] = &[
    "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "t", "s", "r",
    "n", "l", "d", "m", "p", "b", "c", "g", "h", "br", "cr", "dr", "fr", "gr", "pr", "tr", "bl",
    "cl", "fl", "pl", "sl", "st", "sp", "sh", "ch", "th", "", "", "", "", "",
];
const NUCLEI: &[&str] = &[
    "a", "e", "i", "o", "u", "a", "e", "i", "o", "a", "e", "o", "ea", "ou", "ai", "oo",
];
const CODAS: &[&str] = &[
    "", "", "", "", "", "", "", "n", "r", "s", "t", "l", "m", "d", "n", "r", "t", "nd", "nt", "st",
    "ng", "ll", "ss", "ck",
];

/// The shared vocabulary: pseudo-words by class, most frequent first.
pub(crate) struct Vocab {
    pub(crate) nouns: Vec<String>,
    pub(crate) verbs: Vec<String>,
    pub(crate) adjectives: Vec<String>,
    /// Capitalised pseudo-words for surnames, places and site names.
    pub(crate) names: Vec<String>,
    noun_w: Weighted,
    verb_w: Weighted,
    adj_w: Weighted,
}

const VOCAB_SEED: u64 = 0x5EED_C4AF_F000_0001;

fn syllables(rng: &mut Rng, n: usize) -> String {
    let mut w = String::new();
    for _ in 0..n {
        w.push_str(rng.pick_str(ONSETS));
        w.push_str(rng.pick_str(NUCLEI));
        w.push_str(rng.pick_str(CODAS));
    }
    w
}

/// Rude or offensive strings a random syllable generator can stumble on; a pseudo-word
/// containing one (or equal to a short one) is dropped, since the output ends up in test
/// fixtures, logs and reports that people read.
const BLOCKED_PARTS: &[&str] = &[
    "fuck", "shit", "cunt", "cock", "dick", "piss", "slut", "whor", "nigg", "nigr", "rape", "porn",
    "twat", "wank", "bitch", "nazi", "dildo", "penis", "vagin", "boob", "spunk", "prick",
    "bastard", "crap", "turd", "homo", "retard", "sex", "fag", "kkk", "jizz", "puss", "arse",
    "butt", "hitler", "slave", "kill", "hate",
];
const BLOCKED_WORDS: &[&str] = &[
    "ass", "tit", "tits", "cum", "anal", "anus", "poo", "pee", "gay",
];

/// Checks the word and every inflected form the grammar can make of it.
fn is_blocked(w: &str) -> bool {
    let forms = [
        w.to_string(),
        plural(w),
        past(w),
        gerund(w),
        format!("{w}ly"),
    ];
    forms
        .iter()
        .any(|f| BLOCKED_WORDS.contains(&f.as_str()) || BLOCKED_PARTS.iter().any(|b| f.contains(b)))
}

/// Three equal letters in a row ("lll") never occur in English words.
fn has_triple(w: &str) -> bool {
    w.as_bytes()
        .windows(3)
        .any(|t| t[0] == t[1] && t[1] == t[2])
}

fn capitalise(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Vocab {
    fn build() -> Vocab {
        let mut rng = Rng::new(VOCAB_SEED);
        let mut seen: HashSet<String> = HashSet::new();
        // Real words the pseudo-words must not collide with, so that "the" is always a
        // function word.
        for w in PREPOSITIONS.iter().chain(MODALS).chain(CONJUNCTIONS) {
            seen.insert((*w).to_string());
        }
        for w in [
            "the", "a", "an", "is", "was", "has", "had", "it", "he", "she", "they", "we", "its",
            "this", "that", "their", "said", "not", "no", "be", "been", "are", "were",
        ] {
            seen.insert(w.to_string());
        }
        let mut make = |count: usize, suffixes: &[&'static str], rng: &mut Rng| -> Vec<String> {
            let mut out = Vec::with_capacity(count);
            let mut attempts = 0;
            while out.len() < count && attempts < count * 50 {
                attempts += 1;
                // Frequent words are short, as in real languages: the first ranks get one
                // syllable more often.
                let frequent = out.len() * 5 < count;
                let syl = match rng.index(100) {
                    0..=59 if frequent => 1,
                    0..=29 => 1,
                    30..=87 => 2,
                    _ => 3,
                };
                let mut w = syllables(rng, syl);
                if !suffixes.is_empty() && rng.chance(if frequent { 10 } else { 25 }) {
                    w.push_str(rng.pick_str(suffixes));
                }
                if w.len() < 3
                    || w.len() > 12
                    || has_triple(&w)
                    || is_blocked(&w)
                    || !seen.insert(w.clone())
                {
                    continue;
                }
                out.push(w);
            }
            out
        };
        let nouns = make(
            2200,
            &["ment", "tion", "ity", "er", "ness", "ism", "ance", "ure"],
            &mut rng,
        );
        let verbs = make(700, &["ate", "ize", "en", "ify"], &mut rng);
        let adjectives = make(
            600,
            &["al", "ous", "ive", "ic", "ful", "ish", "able"],
            &mut rng,
        );
        let names = make(
            600,
            &["ton", "ford", "wick", "by", "er", "son", "ley"],
            &mut rng,
        )
        .iter()
        .map(|w| capitalise(w))
        .collect();
        Vocab {
            noun_w: Weighted::zipf(nouns.len(), 3),
            verb_w: Weighted::zipf(verbs.len(), 3),
            adj_w: Weighted::zipf(adjectives.len(), 3),
            nouns,
            verbs,
            adjectives,
            names,
        }
    }

    /// The process-wide vocabulary (built on first use; deterministic).
    pub(crate) fn get() -> &'static Vocab {
        static V: OnceLock<Vocab> = OnceLock::new();
        V.get_or_init(Vocab::build)
    }

    pub(crate) fn noun(&self, rng: &mut Rng) -> &str {
        &self.nouns[self.noun_w.sample(rng)]
    }
    fn verb(&self, rng: &mut Rng) -> &str {
        &self.verbs[self.verb_w.sample(rng)]
    }
    pub(crate) fn adjective(&self, rng: &mut Rng) -> &str {
        &self.adjectives[self.adj_w.sample(rng)]
    }
}

fn ends_with_any(w: &str, ends: &[&str]) -> bool {
    ends.iter().any(|e| w.ends_with(e))
}

fn plural(n: &str) -> String {
    if ends_with_any(n, &["s", "sh", "ch", "x", "z"]) {
        format!("{n}es")
    } else {
        format!("{n}s")
    }
}

fn past(v: &str) -> String {
    if v.ends_with('e') {
        format!("{v}d")
    } else {
        format!("{v}ed")
    }
}

fn third(v: &str) -> String {
    if ends_with_any(v, &["s", "sh", "ch", "x", "z"]) {
        format!("{v}es")
    } else {
        format!("{v}s")
    }
}

fn gerund(v: &str) -> String {
    match v.strip_suffix('e') {
        Some(stem) if !stem.is_empty() && !v.ends_with("ee") => format!("{stem}ing"),
        _ => format!("{v}ing"),
    }
}

fn article_for(word: &str) -> &'static str {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

/// A number as news text writes it.
fn number(rng: &mut Rng) -> String {
    match rng.index(6) {
        0 => (2 + rng.index(18)).to_string(),
        1 => (10 * (2 + rng.index(29))).to_string(),
        2 => {
            let n = 1000 + rng.index(48_000);
            format!("{},{:03}", n / 1000, n % 1000)
        }
        3 => format!("{}.{}", 1 + rng.index(19), rng.index(10)),
        4 => (100 + rng.index(900)).to_string(),
        _ => ["two", "three", "four", "five", "six", "ten", "dozens of"][rng.index(7)].to_string(),
    }
}

/// A noun phrase and its number, for subject-verb agreement.
struct Np {
    text: String,
    plural: bool,
}

/// Words a site keeps coming back to: its topic nouns, people, places and organisations.
#[derive(Clone, Debug)]
pub(crate) struct SiteWords {
    pub(crate) topic_nouns: Vec<String>,
    pub(crate) people: Vec<String>,
    pub(crate) places: Vec<String>,
    pub(crate) organisations: Vec<String>,
}

impl SiteWords {
    pub(crate) fn new(rng: &mut Rng) -> SiteWords {
        let v = Vocab::get();
        let topic_nouns = (0..40)
            .map(|_| v.nouns[20 + rng.index(1200)].clone())
            .collect();
        let places: Vec<String> = (0..6).map(|_| rng.pick(&v.names).clone()).collect();
        let people = (0..16)
            .map(|_| format!("{} {}", rng.pick(FIRST_NAMES), rng.pick(&v.names)))
            .collect();
        let organisations = (0..5)
            .map(|_| {
                let kind = rng.pick(&[
                    "Council",
                    "Authority",
                    "Group",
                    "Association",
                    "Institute",
                    "Trust",
                    "Commission",
                    "Partners",
                ]);
                format!("the {} {}", rng.pick(&places), kind)
            })
            .collect();
        SiteWords {
            topic_nouns,
            people,
            places,
            organisations,
        }
    }
}

/// Generates text for one article: site words plus the article's own recurring nouns and names.
pub(crate) struct TextGen<'a> {
    site: &'a SiteWords,
    key_nouns: Vec<String>,
    key_people: Vec<String>,
}

impl<'a> TextGen<'a> {
    pub(crate) fn new(site: &'a SiteWords, rng: &mut Rng) -> TextGen<'a> {
        let key_nouns = (0..3)
            .map(|_| rng.pick(&site.topic_nouns).clone())
            .collect();
        let key_people = (0..2).map(|_| rng.pick(&site.people).clone()).collect();
        TextGen {
            site,
            key_nouns,
            key_people,
        }
    }

    /// A generator with given recurring nouns and people (rebuilding an article's generator
    /// from its plan).
    pub(crate) fn with_keys(
        site: &'a SiteWords,
        key_nouns: Vec<String>,
        key_people: Vec<String>,
    ) -> TextGen<'a> {
        TextGen {
            site,
            key_nouns,
            key_people,
        }
    }

    pub(crate) fn key_nouns(&self) -> &[String] {
        &self.key_nouns
    }

    pub(crate) fn key_people(&self) -> &[String] {
        &self.key_people
    }

    fn noun(&self, rng: &mut Rng) -> String {
        match rng.index(100) {
            0..=11 => rng.pick(&self.key_nouns).clone(),
            12..=24 => rng.pick(&self.site.topic_nouns).clone(),
            _ => Vocab::get().noun(rng).to_string(),
        }
    }

    fn person(&self, rng: &mut Rng) -> String {
        if rng.chance(50) {
            rng.pick(&self.key_people).clone()
        } else {
            rng.pick(&self.site.people).clone()
        }
    }

    /// A noun phrase and whether it is plural; `depth` limits "of" chains, `object` picks
    /// object pronouns.
    fn noun_phrase(&self, rng: &mut Rng, depth: u32, object: bool) -> Np {
        let v = Vocab::get();
        let single = |text: String| Np {
            text,
            plural: false,
        };
        match rng.index(100) {
            0..=5 => return single(self.person(rng)),
            6..=8 => return single(rng.pick(&self.site.organisations).clone()),
            9..=10 => return single(rng.pick(&self.site.places).clone()),
            11..=14 => {
                const SUBJECT: [(&str, bool); 5] = [
                    ("it", false),
                    ("he", false),
                    ("she", false),
                    ("they", true),
                    ("we", true),
                ];
                const OBJECT: [&str; 5] = ["it", "him", "her", "them", "us"];
                let k = rng.index(5);
                return if object {
                    single(OBJECT[k].to_string())
                } else {
                    Np {
                        text: SUBJECT[k].0.to_string(),
                        plural: SUBJECT[k].1,
                    }
                };
            }
            _ => {}
        }
        let plural_np = rng.chance(30);
        let mut words: Vec<String> = Vec::new();
        let noun = self.noun(rng);
        let adj = rng.chance(30).then(|| v.adjective(rng).to_string());
        let head = if plural_np { plural(&noun) } else { noun };
        let first = adj.as_deref().unwrap_or(&head).to_string();
        let det: String = if plural_np {
            [
                "the", "", "", "many", "some", "their", "these", "two", "most",
            ][rng.index(9)]
            .to_string()
        } else {
            match rng.index(10) {
                0..=4 => "the".to_string(),
                5..=6 => article_for(&first).to_string(),
                7 => "this".to_string(),
                8 => "its".to_string(),
                _ => "their".to_string(),
            }
        };
        if !det.is_empty() {
            words.push(det);
        }
        if let Some(a) = adj {
            words.push(a);
        }
        words.push(head);
        if depth < 1 && rng.chance(12) {
            words.push("of".to_string());
            words.push(self.noun_phrase(rng, depth + 1, true).text);
        }
        Np {
            text: words.join(" "),
            plural: plural_np,
        }
    }

    /// A verb phrase agreeing with a singular or plural subject.
    fn verb_phrase(&self, rng: &mut Rng, plural_subject: bool) -> String {
        let v = Vocab::get();
        let verb = v.verb(rng).to_string();
        let (has, was, is) = if plural_subject {
            ("have", "were", "are")
        } else {
            ("has", "was", "is")
        };
        let (mut s, transitive) = match rng.index(10) {
            0..=3 => (past(&verb), true),
            4 => (
                if plural_subject {
                    verb.clone()
                } else {
                    third(&verb)
                },
                true,
            ),
            5 => (format!("{has} {}", past(&verb)), true),
            6 => (format!("{} {}", rng.pick(MODALS), verb), true),
            7 => (format!("{was} {}", gerund(&verb)), true),
            8 => (format!("{is} {}", v.adjective(rng)), false),
            _ => (format!("would not {verb}"), true),
        };
        if transitive && rng.chance(80) {
            s.push(' ');
            s.push_str(&self.noun_phrase(rng, 0, true).text);
        }
        if rng.chance(35) {
            s.push(' ');
            s.push_str(rng.pick_str(PREPOSITIONS));
            s.push(' ');
            s.push_str(&self.noun_phrase(rng, 0, true).text);
        }
        s
    }

    fn clause(&self, rng: &mut Rng) -> String {
        let np = self.noun_phrase(rng, 0, false);
        format!("{} {}", np.text, self.verb_phrase(rng, np.plural))
    }

    /// One sentence, capitalised and punctuated.
    pub(crate) fn sentence(&self, rng: &mut Rng) -> String {
        let s = match rng.index(100) {
            0..=34 => self.clause(rng),
            35..=43 => format!("{}, {}", rng.pick(OPENERS), self.clause(rng)),
            44..=53 => format!(
                "{} {} {}",
                self.clause(rng),
                rng.pick(PREP_IDIOMS),
                self.noun_phrase(rng, 0, true).text
            ),
            54..=65 => format!(
                "{}, {} {}",
                self.clause(rng),
                rng.pick(CONJUNCTIONS),
                self.clause(rng)
            ),
            66..=73 => {
                let quote = capitalise(&self.clause(rng));
                return format!(
                    "\u{201c}{quote},\u{201d} {} {}.",
                    self.person(rng),
                    rng.pick(REPORT_VERBS)
                );
            }
            74..=81 => {
                let q = rng.pick(QUANTIFIERS);
                let n = number(rng);
                let noun = plural(&self.noun(rng));
                if rng.chance(50) {
                    format!("{q} {n} {noun} {}", self.verb_phrase(rng, true))
                } else {
                    let subject = self.noun_phrase(rng, 0, false).text;
                    let verb = past(Vocab::get().verb(rng));
                    format!("{subject} {verb} {q} {n} {noun}")
                }
            }
            82..=86 => format!("{} {}", rng.pick(FRAMES), self.clause(rng)),
            _ => format!("{} {}", self.clause(rng), rng.pick(ENDERS)),
        };
        let mut out = capitalise(&s);
        out.push('.');
        out
    }

    /// Sentences until at least `target_words` words (at least one sentence).
    pub(crate) fn paragraph(&self, rng: &mut Rng, target_words: usize) -> String {
        let mut out = String::new();
        let mut words = 0;
        while words < target_words || out.is_empty() {
            let s = self.sentence(rng);
            words += s.split_whitespace().count();
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&s);
        }
        out
    }

    /// A headline in sentence case without a full stop.
    pub(crate) fn headline(&self, rng: &mut Rng) -> String {
        let v = Vocab::get();
        let subject = match rng.index(4) {
            0 => self.person(rng),
            1 => rng.pick(&self.site.places).clone(),
            _ => {
                let n = self.noun(rng);
                if rng.chance(40) {
                    format!("{} {}", v.adjective(rng), n)
                } else {
                    n
                }
            }
        };
        let verb = third(v.verb(rng));
        let object = match rng.index(3) {
            0 => format!("{} {}", v.adjective(rng), plural(&self.noun(rng))),
            1 => format!(
                "{} {} {}",
                self.noun(rng),
                rng.pick(PREPOSITIONS),
                self.noun(rng)
            ),
            _ => format!(
                "new {} {}",
                self.noun(rng),
                rng.pick(&["plan", "deal", "rules"])
            ),
        };
        let tail = if rng.chance(40) {
            format!(" {} {}", rng.pick(PREP_IDIOMS), self.noun(rng))
        } else {
            String::new()
        };
        capitalise(&format!("{subject} {verb} {object}{tail}"))
    }

    /// A short noun phrase, capitalised: list items, captions.
    pub(crate) fn short_phrase(&self, rng: &mut Rng) -> String {
        capitalise(&self.clause(rng))
    }

    /// A byline name for the article's author.
    pub(crate) fn author(site: &SiteWords, rng: &mut Rng) -> String {
        rng.pick(&site.people).clone()
    }
}

/// Capitalises the first letter.
pub(crate) fn cap(w: &str) -> String {
    capitalise(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_is_large_and_distinct() {
        let v = Vocab::get();
        assert!(v.nouns.len() >= 2000, "{}", v.nouns.len());
        assert!(v.verbs.len() >= 600);
        let mut all: Vec<&String> = v
            .nouns
            .iter()
            .chain(&v.verbs)
            .chain(&v.adjectives)
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(!v.nouns.iter().any(|w| w == "the"));
        for w in all {
            assert!(!is_blocked(&w.to_lowercase()), "{w}");
        }
    }

    #[test]
    fn text_looks_like_text() {
        let mut rng = Rng::new(1);
        let site = SiteWords::new(&mut rng);
        let g = TextGen::new(&site, &mut rng);
        let p = g.paragraph(&mut rng, 400);
        let words: Vec<&str> = p.split_whitespace().collect();
        assert!(words.len() >= 400);
        let the = words.iter().filter(|w| **w == "the").count();
        assert!(the * 40 > words.len(), "'the' is too rare: {the}");
        assert!(p.ends_with('.'));
    }
}

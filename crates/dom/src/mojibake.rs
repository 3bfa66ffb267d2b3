//! Text that was UTF-8, was read by some program as Latin-1 or Windows-1252, and was written
//! out again as UTF-8 before the page was served: "itertools â\u{80}\u{94} Functions" for
//! "itertools — Functions", "Investorâ\u{80}\u{99}s" for "Investor’s". Such a page is valid
//! UTF-8 and declares it, so decoding cannot notice; the characters themselves show it.
//!
//! **The proof.** The C1 controls, U+0080 to U+009F, are not text: no writing system and no
//! keyboard produces them, and the HTML standard maps the numeric references `&#128;` to
//! `&#159;` to Windows-1252's characters for that reason. A character there is the trace of a
//! byte 0x80–0x9F taken for a character by a Latin-1 reader: a UTF-8 continuation byte (most
//! of them), or a Windows-1252 byte (0x97 for "—"). So a page is mended only when its text
//! (scripts and styles aside) holds a C1 control, and then all of its text, since a misread
//! sequence needs no control ("Â¶" for "¶", "Ã©" for "é"). A page without one is never
//! touched: a German "Spaß“" would look like a UTF-8 sequence too (bytes DF 93). A string read
//! alone ([`mend`], for values markup states) is mended when it holds a control itself.
//!
//! **The mending** ([`read_again`]). Each run of non-ASCII characters a byte stands for (Latin-1's
//! U+0080–U+00FF, and the 27 characters Windows-1252 gives bytes 0x80–0x9F, since a reader
//! of that encoding makes "â€\u{9d}" of the bytes of "”") is turned back into those bytes, and
//! read from its start: a complete UTF-8 sequence there becomes its character; any other byte
//! stays the character it was, a lone C1 control becoming Windows-1252's character for its byte
//! (U+0097 becomes "—"; the five bytes Windows-1252 leaves undefined stay as they are). Text
//! misread twice shows it the same way, by C1 controls in what one reading gives, and is
//! read again while it does, [`MAX_LAYERS`] times at most.
//!
//! Measured when it was built (session of 2026-12-06): the main text of 31 of wcxb-dev's 1,497
//! pages changes (Python's, Mozilla's and Logitech's documentation among them), of 2 of
//! CleanEval's 681, of none in scrapinghub-aeb, Dragnet's test split or CleanPortalEval.
//! WCXB's gold keeps the misread characters on about half of those pages and the mended ones on
//! the others; with the content model of the day, WCXB's word F1 on the 31 pages went from
//! 0.922 to 0.929 (4-gram shingle F1 0.894 to 0.915), since a misread word is a word of its
//! own to both measures. [`crate::ParseOptions::mend_misread_utf8`] turns it off.

use std::sync::LazyLock;

use encoding_rs::WINDOWS_1252;

/// How many times text misread more than once is read again.
pub const MAX_LAYERS: usize = 3;

/// Windows-1252's characters for bytes 0x80 to 0x9F, as encoding_rs decodes them (the
/// WHATWG encoding the page decoder uses too): the five bytes it leaves undefined (0x81, 0x8D,
/// 0x8F, 0x90, 0x9D) become the C1 control of the same number, as the readers that do not
/// fail on them pass them through. Built once.
fn windows_1252_high() -> &'static [char; 32] {
    static HIGH: LazyLock<[char; 32]> = LazyLock::new(|| {
        let bytes: Vec<u8> = (0x80..=0x9F).collect();
        let (text, _) = WINDOWS_1252.decode_without_bom_handling(&bytes);
        let mut high = ['\0'; 32];
        for (slot, c) in high.iter_mut().zip(text.chars()) {
            *slot = c;
        }
        high
    });
    &HIGH
}

/// Whether `s` holds a C1 control (U+0080 to U+009F, the UTF-8 bytes C2 80 to C2 9F).
pub fn holds_c1_control(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memchr_iter(0xC2, b).any(|i| b.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n)))
}

/// `s` read again as described in the module docs, or `None` when it holds no C1 control
/// (nothing shows it was misread).
pub fn mend(s: &str) -> Option<String> {
    holds_c1_control(s).then(|| read_again(s))
}

/// `s` read again as described in the module docs, for text known to be misread (text of a
/// page that holds a C1 control elsewhere): runs of byte-like characters are read as UTF-8
/// whether or not they hold a control themselves.
pub fn read_again(s: &str) -> String {
    let mut text = read_once(s);
    for _ in 1..MAX_LAYERS {
        if !holds_c1_control(&text) {
            break;
        }
        let again = read_once(&text);
        if again == text {
            break;
        }
        text = again;
    }
    text
}

/// Appends `s` to `out`, read again ([`read_again`]) unless it is ASCII.
pub fn push_read_again(out: &mut String, s: &str) {
    if s.is_ascii() {
        out.push_str(s);
    } else {
        out.push_str(&read_again(s));
    }
}

/// The byte a Latin-1 or Windows-1252 reader took for `c`, for a non-ASCII `c`.
fn byte_of(c: char) -> Option<u8> {
    match u32::from(c) {
        0x80..=0xFF => Some(c as u8),
        _ => windows_1252_high()
            .iter()
            .position(|&w| w == c)
            .map(|i| 0x80 + i as u8),
    }
}

/// One reading again of every run of byte-like characters in `s`.
fn read_once(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // The run's bytes, and where it starts in `s` (its characters are read from there).
    let mut run_bytes: Vec<u8> = Vec::new();
    let mut run_start = 0;
    for (i, c) in s.char_indices() {
        match (!c.is_ascii()).then(|| byte_of(c)).flatten() {
            Some(b) => {
                if run_bytes.is_empty() {
                    run_start = i;
                }
                run_bytes.push(b);
            }
            None => {
                read_run(&s[run_start..i], &run_bytes, &mut out);
                run_bytes.clear();
                out.push(c);
            }
        }
    }
    if !run_bytes.is_empty() {
        read_run(&s[run_start..], &run_bytes, &mut out);
    }
    out
}

/// Reads `bytes` (one per character of `run`) from the start: a complete UTF-8 sequence
/// becomes its character, any other byte stays its character (a C1 control becomes
/// Windows-1252's). The characters are read back from `run` rather than kept beside the
/// bytes, so a page that is one long run costs a byte per character here, not five.
fn read_run(run: &str, bytes: &[u8], out: &mut String) {
    let mut chars = run.chars();
    let mut i = 0;
    while i < bytes.len() {
        let len = match bytes[i] {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 1,
        };
        let sequence = bytes.get(i..i + len).filter(|_| len > 1);
        if let Some(text) = sequence.and_then(|q| std::str::from_utf8(q).ok()) {
            out.push_str(text);
            chars.nth(len - 1);
            i += len;
            continue;
        }
        let Some(c) = chars.next() else { return };
        match u32::from(c) {
            n @ 0x80..=0x9F => out.push(windows_1252_high()[(n - 0x80) as usize]),
            _ => out.push(c),
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a Latin-1 reader makes of `s`'s UTF-8 bytes.
    fn as_latin1(s: &str) -> String {
        s.bytes().map(char::from).collect()
    }

    #[test]
    fn utf8_read_as_latin1_is_read_again() {
        // Python's documentation, from wcxb-dev: "—" is E2 80 94.
        assert_eq!(
            mend("itertools â\u{80}\u{94} Functions").as_deref(),
            Some("itertools — Functions")
        );
        assert_eq!(
            mend(&as_latin1("Jaroń’s ⭐ 🦀")).as_deref(),
            Some("Jaroń’s ⭐ 🦀")
        );
    }

    #[test]
    fn windows_1252_characters_in_a_run_are_its_bytes() {
        // "”" is E2 80 9D: a Windows-1252 reader makes "â€" of the first two bytes and leaves
        // the undefined 0x9D a control.
        assert_eq!(mend("Madurai,â€\u{9d} AI").as_deref(), Some("Madurai,” AI"));
        // In text proven misread, a run without a control is read again too.
        assert_eq!(mend("itâ€™s â\u{80}\u{94}").as_deref(), Some("it’s —"));
    }

    #[test]
    fn a_lone_control_is_the_windows_1252_character_of_its_byte() {
        assert_eq!(
            mend("W New York\u{97}Union Square").as_deref(),
            Some("W New York—Union Square")
        );
        assert_eq!(mend("\u{93}quoted\u{94}").as_deref(), Some("“quoted”"));
        // Undefined in Windows-1252: stays.
        assert_eq!(mend("a\u{81}b").as_deref(), Some("a\u{81}b"));
        // A Latin-1 letter before a control is not a sequence: both stay characters.
        assert_eq!(mend("café\u{97}bar").as_deref(), Some("café—bar"));
    }

    #[test]
    fn text_without_a_control_is_not_touched() {
        // Bytes DF 93 would be a UTF-8 sequence, but nothing shows this text was misread.
        assert_eq!(mend("Spaß“ naÃ¯ve itâ€™s"), None);
        assert!(!holds_c1_control("plain ascii and é ß “”"));
        assert!(holds_c1_control("x\u{80}"));
        assert!(holds_c1_control("\u{9f}"));
        assert!(!holds_c1_control("\u{a0}\u{7f}"));
    }

    #[test]
    fn text_misread_twice_is_read_again_twice() {
        let twice = as_latin1(&as_latin1("a — b"));
        assert_eq!(mend(&twice).as_deref(), Some("a — b"));
    }

    #[test]
    fn truncated_and_invalid_sequences_stay() {
        // E2 80 without its third byte, then ASCII; C3 28 is not UTF-8.
        assert_eq!(mend("â\u{80} x").as_deref(), Some("â€ x"));
        assert_eq!(mend("Ã(\u{85}").as_deref(), Some("Ã(…"));
    }

    fn texts(html: &str, mend: bool) -> Vec<String> {
        let opts = crate::ParseOptions {
            mend_misread_utf8: mend,
            ..crate::ParseOptions::default()
        };
        let doc = crate::parse_str(html, &opts).unwrap();
        doc.ids()
            .filter(|&id| doc.is_text(id))
            .map(|id| doc.text(id).to_string())
            .collect()
    }

    #[test]
    fn a_page_holding_a_control_is_read_again_whole_scripts_aside() {
        let page = "<title>A\u{97}B</title><p>looping<a>Â¶</a><script>x='Ã©\u{85}'</script>\
                    <style>p{content:'Â¶'}</style><p>naÃ¯ve";
        assert_eq!(
            texts(page, true),
            [
                "A—B",
                "looping",
                "¶",
                "x='Ã©\u{85}'",
                "p{content:'Â¶'}",
                "naïve"
            ]
        );
        assert_eq!(
            texts(page, false),
            [
                "A\u{97}B",
                "looping",
                "Â¶",
                "x='Ã©\u{85}'",
                "p{content:'Â¶'}",
                "naÃ¯ve"
            ]
        );
        // The control in a script proves nothing about the text.
        let clean = "<p>Spaß“ Ã©<script>'\u{85}'</script>";
        assert_eq!(texts(clean, true), ["Spaß“ Ã©", "'\u{85}'"]);
    }

    /// The reading again of the first version, with each run's characters kept beside its
    /// bytes: the reference [`read_once`] is checked against. Where the code reads a
    /// sequence's length off its first byte, this tries two to four bytes and takes the
    /// one that is a single character: the same rule, found another way.
    fn read_once_reference(s: &str) -> String {
        let mut out = String::new();
        let (mut chars, mut bytes) = (Vec::new(), Vec::new());
        let flush = |chars: &mut Vec<char>, bytes: &mut Vec<u8>, out: &mut String| {
            let mut i = 0;
            while i < bytes.len() {
                let one_char = (2..=4).find_map(|len| {
                    let text = std::str::from_utf8(bytes.get(i..i + len)?).ok()?;
                    (text.chars().count() == 1).then_some((text, len))
                });
                if let Some((text, len)) = one_char {
                    out.push_str(text);
                    i += len;
                } else {
                    let c = chars[i];
                    out.push(match u32::from(c) {
                        n @ 0x80..=0x9F => windows_1252_high()[(n - 0x80) as usize],
                        _ => c,
                    });
                    i += 1;
                }
            }
            chars.clear();
            bytes.clear();
        };
        for c in s.chars() {
            match (!c.is_ascii()).then(|| byte_of(c)).flatten() {
                Some(b) => {
                    chars.push(c);
                    bytes.push(b);
                }
                None => {
                    flush(&mut chars, &mut bytes, &mut out);
                    out.push(c);
                }
            }
        }
        flush(&mut chars, &mut bytes, &mut out);
        out
    }

    proptest! {
        /// Any text a Latin-1 reader made of UTF-8 comes back whole when it holds a control;
        /// mending never panics and never loses ASCII.
        #[test]
        fn misread_text_comes_back(s in "\\PC{0,40}") {
            let misread = as_latin1(&s);
            match mend(&misread) {
                Some(m) => {
                    // Text misread once whose characters were never C1-like comes back
                    // exactly; the proof needs a control among the misread bytes.
                    if !s.chars().any(|c| ('\u{80}'..='\u{ff}').contains(&c)) {
                        prop_assert_eq!(m, s);
                    }
                }
                None => prop_assert!(!holds_c1_control(&misread)),
            }
        }

        /// One reading again, on any text (runs of misread characters, Windows-1252's
        /// characters and others mixed), is the reference's.
        #[test]
        fn one_reading_is_the_references(
            parts in proptest::collection::vec(
                prop_oneof![
                    "\\PC{0,6}",
                    "[\u{80}-\u{ff}]{1,6}",
                    "[€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]{1,3}",
                    Just(String::from("\u{e2}\u{80}\u{94}")),
                ],
                0..12,
            )
        ) {
            let s: String = parts.concat();
            prop_assert_eq!(read_once(&s), read_once_reference(&s));
            let misread = as_latin1(&s);
            prop_assert_eq!(read_once(&misread), read_once_reference(&misread));
        }

        #[test]
        fn mending_keeps_ascii(s in any::<String>()) {
            let ascii: String = s.chars().filter(char::is_ascii).collect();
            if let Some(m) = mend(&s) {
                let kept: String = m.chars().filter(char::is_ascii).collect();
                prop_assert_eq!(kept, ascii);
            }
        }
    }
}

//! A fast WHATWG HTML tokenizer that feeds html5ever's token types to any [`TokenSink`].
//!
//! Why it exists: html5ever's own tokenizer pulls characters one at a time out of a
//! `BufferQueue` and grows tendrils character by character; on real pages that is about two
//! thirds of the whole parse. This one works on the complete decoded `&str`, jumps over
//! character data with `memchr`, takes tag and attribute names straight from the input when
//! they are plain, and hands out text and attribute values as zero-copy sub-tendrils of one
//! shared copy of the input.
//!
//! It must build exactly the same tree as html5ever's tokenizer (the differential tests check
//! this), and the tree builder is sensitive to more than the standard's token stream:
//!
//! * **Source lines.** Nodes record the line number passed with the token that created them,
//!   and html5ever's tokenizer counts a newline when it *consumes* it. Text runs in the data
//!   state are consumed in one go (up to the next `<`, `&`, CR or NUL, or the end of an input
//!   buffer), so a text token's line is the line of its *last* character; a newline that starts
//!   a run is consumed on its own; after a CR, or after a reconsumed character, exactly one
//!   character is consumed on its own; a character reference that un-consumes characters puts
//!   them into a buffer of their own, which a run never crosses; whitespace before an attribute
//!   value is skipped without being counted. [`Lines`] reproduces the counting by position and
//!   the data state reproduces html5ever's chunking, as "pieces" with their lines.
//! * **Token boundaries.** The tree builder treats each character token separately (it splits
//!   runs of whitespace off, drops a leading LF after `<pre>`, `<listing>` and `<textarea>`,
//!   and stamps new text nodes with the token's line). Merging two adjacent pieces into one
//!   token is invisible to it exactly when both carry the same line, so [`Pending`] merges
//!   only those. Inside RCDATA, RAWTEXT, script data and PLAINTEXT all text goes into one node,
//!   so only the first piece's line (and, if that piece is a lone LF the tree builder drops, the
//!   second's) matters, and everything after the first group is merged.
//! * **Parse errors.** The tree builder's "ignore the next LF" flag is taken by whatever token
//!   comes next, parse errors included; we emit a `ParseError` token only where html5ever's
//!   would be the first token after a start tag and be followed by text (`</>` and erroneous
//!   numeric character references).
//!
//! **Source spans.** Before each token (parse errors excepted) the sink's
//! [`SpanSink::token_span`] gets the byte range of the input the token was read from: a tag from
//! its `<` to just after its `>`, a comment or DOCTYPE likewise, a character token from its first
//! to its last character's source (character references and CR LF included, so the range may be
//! longer than the text), a NUL token its one byte, end of file an empty range at the end.

use std::borrow::Cow;
use std::collections::HashSet;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::{RawKind, ScriptEscapeKind};
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};
use markup5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use memchr::{memchr, memchr2, memchr3};

/// A token sink that also learns where in the input each token came from.
pub(crate) trait SpanSink: TokenSink {
    /// Called just before [`TokenSink::process_token`] for every token except `ParseError`:
    /// the token was read from `input[start..end]`.
    fn token_span(&self, start: usize, end: usize, kind: SpanKind);
}

/// What kind of token a [`SpanSink::token_span`] is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpanKind {
    /// Character data of `len` bytes; `verbatim` says the text is exactly the span's slice of
    /// the input (no character references, CRs or NULs were rewritten); `after_lf_tag` that it
    /// comes right after a `<pre>`, `<listing>` or `<textarea>` start tag (so that the tree
    /// builder drops a leading LF).
    Text {
        len: u32,
        verbatim: bool,
        after_lf_tag: bool,
    },
    /// A NUL character.
    Nul,
    StartTag,
    EndTag,
    Doctype,
    /// Comment, end of file.
    Other,
}

/// Tokenizes the whole of `input` into `sink`, then sends the EOF token and calls
/// [`TokenSink::end`], in that order (as html5ever's `Tokenizer::end` does).
///
/// Unlike html5ever's tokenizer it does not skip a leading U+FEFF (the caller does). The
/// sink's `Script` and `EncodingIndicator` results are treated as `Continue`: we run no
/// scripts and the encoding has been settled before decoding.
pub(crate) fn tokenize<S: SpanSink>(input: &str, sink: &S) {
    let mut t = Tokenizer::new(input, sink);
    t.run();
}

/// Which family of states the tokenizer is in between tokens.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Data,
    Raw(RawKind),
    Plaintext,
}

/// Bytes that end the fast scan of a tag name: whitespace, `/`, `>`, and the bytes the name
/// state rewrites (ASCII upper case, NUL).
static TAG_STOP: [bool; 256] = stop_table(b"\t\n\x0c\r />\0ABCDEFGHIJKLMNOPQRSTUVWXYZ");
/// As [`TAG_STOP`], plus `=` which ends an attribute name.
static ATTR_STOP: [bool; 256] = stop_table(b"\t\n\x0c\r />\0=ABCDEFGHIJKLMNOPQRSTUVWXYZ");
/// Bytes that end the fast scan of an unquoted attribute value.
static UNQUOTED_STOP: [bool; 256] = stop_table(b"\t\n\x0c\r >&\0");

const fn stop_table(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// The tokenizer's whitespace (CR is whitespace because it stands for a newline).
#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

/// Length of the UTF-8 sequence that starts with `lead` (input is valid UTF-8).
#[inline]
pub(crate) fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Appends `s` to `out` with the input stream preprocessing applied: CR LF and lone CR become
/// LF, NUL becomes U+FFFD. (In the data state NUL never reaches here: it is its own token.)
fn normalize_into(s: &str, out: &mut String) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr2(b'\r', 0, &bytes[i..]) {
        let j = i + k;
        out.push_str(&s[i..j]);
        if bytes[j] == 0 {
            out.push('\u{fffd}');
            i = j + 1;
        } else {
            out.push('\n');
            i = if bytes.get(j + 1) == Some(&b'\n') {
                j + 2
            } else {
                j + 1
            };
        }
    }
    out.push_str(&s[i..]);
}

/// Line numbers as html5ever's tokenizer reports them: 1 plus the line breaks consumed so far,
/// where CR LF, CR and LF each count once, minus the breaks it skipped without counting
/// (whitespace before an attribute value).
///
/// Counting is lazy and by position: `at(p)` counts the breaks before `p`. It keeps the
/// position of the next uncounted break, so a query costs one comparison unless breaks were
/// passed, and each break is found once with `memchr2`. Queries must not go backwards (they
/// never do: html5ever never un-consumes a line break it counted).
struct Lines {
    /// Position of the next break not yet counted (the input length if none).
    next: usize,
    line: u64,
}

impl Lines {
    fn new(b: &[u8]) -> Lines {
        Lines {
            next: memchr2(b'\n', b'\r', b).unwrap_or(b.len()),
            line: 1,
        }
    }

    #[inline]
    fn at(&mut self, b: &[u8], p: usize) -> u64 {
        while self.next < p {
            self.line += 1;
            self.next = next_break(b, self.next);
        }
        self.line
    }

    /// Marks the breaks in `[from, to)` as consumed without counting them.
    fn skip(&mut self, b: &[u8], from: usize, to: usize) {
        self.at(b, from);
        while self.next < to {
            self.next = next_break(b, self.next);
        }
    }
}

/// The break after the one at `j` (an LF right after a CR belongs to the CR).
fn next_break(b: &[u8], j: usize) -> usize {
    let k = if b[j] == b'\r' && b.get(j + 1) == Some(&b'\n') {
        j + 2
    } else {
        j + 1
    };
    match b.get(k..) {
        Some(rest) => memchr2(b'\n', b'\r', rest).map_or(b.len(), |i| k + i),
        None => b.len(),
    }
}

/// Pending character data, not yet sent to the sink.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PendKind {
    Empty,
    /// An un-normalised byte range of the input.
    Range(usize, usize),
    /// Normalised text in `Pending::buf`.
    Owned,
}

struct Pending {
    kind: PendKind,
    buf: String,
    /// html5ever's line for the first piece of the group.
    line: u64,
    /// Inside an RCDATA/RAWTEXT/script/PLAINTEXT section: lines only matter for the first
    /// group there.
    raw: bool,
    /// In a raw section, the first group has been sent: merge everything from now on.
    settled: bool,
    /// Source range of the group: start of its first piece, end of its last.
    src_start: usize,
    src_end: usize,
}

impl Pending {
    #[inline]
    fn is_empty(&self) -> bool {
        self.kind == PendKind::Empty
    }

    /// Whether pieces still need their line computed.
    #[inline]
    fn wants_lines(&self) -> bool {
        !(self.raw && self.settled)
    }
}

/// The result of scanning a character reference after `&`.
struct CharRef {
    chars: [char; 2],
    /// How many of `chars` are valid; 0 means "not a reference: emit `&`".
    n: u8,
    /// Where tokenizing resumes (un-consumed characters are re-read from here).
    resume: usize,
    /// End of what html5ever consumed; `resume..consumed` is its pushed-back buffer.
    consumed: usize,
    /// html5ever reports a parse error before the characters (numeric references only; see
    /// the module docs for why only those matter).
    numeric_error: bool,
}

impl CharRef {
    fn none(resume: usize, consumed: usize) -> CharRef {
        CharRef {
            chars: ['\0'; 2],
            n: 0,
            resume,
            consumed,
            numeric_error: false,
        }
    }
}

/// What the tag open state led to.
enum AfterLt {
    /// A tag was emitted; the sink chose the next mode.
    Mode(Mode),
    /// The character after `<` must be reconsumed in the data state.
    Reconsume,
    /// Anything else (a comment, a dropped tag, ...): carry on in the data state.
    Done,
}

/// States of the raw-text machine (RCDATA, RAWTEXT and the script data family).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RawState {
    Base(RawKind),
    LessThan(RawKind),
    EndTagOpen(RawKind),
    EndTagName(RawKind),
    /// After `<!` in script data.
    EscapeStart,
    EscapeStartDash,
    EscapedDash(ScriptEscapeKind),
    EscapedDashDash(ScriptEscapeKind),
    DoubleEscapeStart,
    DoubleEscapeEnd,
}

struct Tokenizer<'a, S: SpanSink> {
    sink: &'a S,
    src: &'a str,
    b: &'a [u8],
    /// One shared copy of the input that text and attribute values are sliced from. `None`
    /// only for inputs too long for a tendril (then slices are copied).
    whole: Option<StrTendril>,
    pos: usize,
    /// End of html5ever's current front input buffer (see the module docs).
    buf_end: usize,
    /// Cached position of the next NUL at or after `nul_from`.
    nul_at: usize,
    nul_from: usize,
    lines: Lines,
    text: Pending,
    last_start: Option<LocalName>,
    /// The last token given to the sink was a start tag (it may have set the tree builder's
    /// "ignore the next LF" flag).
    last_was_start_tag: bool,
    /// The last start tag given to the sink was `<pre>`, `<listing>` or `<textarea>`. Not
    /// read off `last_start`, which names the tag just read, ahead of the text it flushes.
    last_start_drops_lf: bool,
    scratch: String,
    names: NameCache,
}

/// Tag and attribute names read before on this page, so that a name a page repeats
/// thousands of times (`div`, `class`, `href`) is looked up in the atom sets once:
/// `LocalName::from` hashes with SipHash and takes a global lock for names outside the
/// static set (`data-*`, `aria-*`), while a slot here costs a short hash and a compare.
/// Direct-mapped: a name whose slot holds another name is interned and takes the slot.
struct NameCache {
    slots: Box<[Option<LocalName>; NameCache::SLOTS]>,
}

impl NameCache {
    const SLOTS: usize = 256;

    fn new() -> NameCache {
        NameCache {
            slots: Box::new(std::array::from_fn(|_| None)),
        }
    }

    /// The atom of `name` (already lower-cased as the tokenizer reads names).
    #[inline]
    fn get(&mut self, name: &str) -> LocalName {
        use std::hash::BuildHasher;
        let hash = rustc_hash::FxBuildHasher.hash_one(name);
        let slot = &mut self.slots[hash as usize % Self::SLOTS];
        if let Some(atom) = slot
            && &**atom == name
        {
            return atom.clone();
        }
        let atom = LocalName::from(name);
        *slot = Some(atom.clone());
        atom
    }
}

impl<'a, S: SpanSink> Tokenizer<'a, S> {
    fn new(src: &'a str, sink: &'a S) -> Self {
        let b = src.as_bytes();
        Tokenizer {
            sink,
            src,
            b,
            whole: u32::try_from(src.len())
                .ok()
                .map(|_| StrTendril::from_slice(src)),
            pos: 0,
            buf_end: b.len(),
            nul_at: 0,
            nul_from: usize::MAX,
            lines: Lines::new(b),
            text: Pending {
                kind: PendKind::Empty,
                buf: String::new(),
                line: 1,
                raw: false,
                settled: false,
                src_start: 0,
                src_end: 0,
            },
            last_start: None,
            last_was_start_tag: false,
            last_start_drops_lf: false,
            scratch: String::new(),
            names: NameCache::new(),
        }
    }

    fn run(&mut self) {
        let mut mode = Mode::Data;
        loop {
            let next = match mode {
                Mode::Data => self.data(),
                Mode::Raw(kind) => self.raw(kind),
                Mode::Plaintext => self.plaintext(),
            };
            match next {
                Some(m) => mode = m,
                None => break,
            }
        }
        self.flush_text();
        let len = self.b.len();
        let line = self.line_at(len);
        self.sink.token_span(len, len, SpanKind::Other);
        let _ = self.sink.process_token(Token::EOFToken, line);
        self.sink.end();
    }

    // ----- plumbing -------------------------------------------------------------------------

    #[inline]
    fn line_at(&mut self, p: usize) -> u64 {
        self.lines.at(self.b, p)
    }

    /// Position of the first NUL at or after `p` (or the input length).
    #[inline]
    fn next_nul(&mut self, p: usize) -> usize {
        if p < self.nul_from || p > self.nul_at {
            self.nul_from = p;
            self.nul_at = memchr(0, &self.b[p..]).map_or(self.b.len(), |k| p + k);
        }
        self.nul_at
    }

    /// A tendril of `src[s..e]`, sharing the input's buffer when that saves a copy.
    fn tendril(&self, s: usize, e: usize) -> StrTendril {
        if e - s > 8
            && let Some(w) = &self.whole
            && let Ok(t) = w.try_subtendril(s as u32, (e - s) as u32)
        {
            return t;
        }
        StrTendril::from_slice(&self.src[s..e])
    }

    /// A tendril of `src[s..e]` with CR/NUL preprocessing applied, and whether that left the
    /// text as it was.
    fn normalized_tendril(&mut self, s: usize, e: usize) -> (StrTendril, bool) {
        if memchr2(b'\r', 0, &self.b[s..e]).is_none() {
            return (self.tendril(s, e), true);
        }
        self.scratch.clear();
        normalize_into(&self.src[s..e], &mut self.scratch);
        (StrTendril::from_slice(&self.scratch), false)
    }

    /// Sends a token read from `start..end`, after any pending text.
    #[inline(always)]
    fn token(
        &mut self,
        token: Token,
        line: u64,
        start: usize,
        end: usize,
    ) -> TokenSinkResult<S::Handle> {
        self.flush_text();
        self.last_was_start_tag =
            matches!(&token, Token::TagToken(t) if t.kind == TagKind::StartTag);
        if self.last_was_start_tag {
            self.last_start_drops_lf = matches!(&token, Token::TagToken(t) if matches!(
                t.name,
                local_name!("pre") | local_name!("listing") | local_name!("textarea")
            ));
        }
        let kind = match &token {
            Token::TagToken(t) if t.kind == TagKind::StartTag => SpanKind::StartTag,
            Token::TagToken(_) => SpanKind::EndTag,
            Token::NullCharacterToken => SpanKind::Nul,
            Token::DoctypeToken(_) => SpanKind::Doctype,
            _ => SpanKind::Other,
        };
        self.sink.token_span(start, end, kind);
        self.sink.process_token(token, line)
    }

    /// Emits a `ParseError` token where html5ever's would be the first token after a start
    /// tag (see the module docs); elsewhere a parse error changes nothing.
    fn parse_error_if_first(&mut self, line: u64) {
        if self.text.is_empty() && self.last_was_start_tag {
            // Not a token the tree builder keeps, so it has no span.
            self.last_was_start_tag = false;
            let _ = self
                .sink
                .process_token(Token::ParseError(Cow::Borrowed("parse error")), line);
        }
    }

    fn flush_text(&mut self) {
        let kind = std::mem::replace(&mut self.text.kind, PendKind::Empty);
        let (t, verbatim) = match kind {
            PendKind::Empty => return,
            PendKind::Range(s, e) => self.normalized_tendril(s, e),
            PendKind::Owned => (StrTendril::from_slice(&self.text.buf), false),
        };
        let after_lf_tag = self.last_was_start_tag && self.last_start_drops_lf;
        self.last_was_start_tag = false;
        let kind = SpanKind::Text {
            len: t.len32(),
            verbatim,
            after_lf_tag,
        };
        self.sink
            .token_span(self.text.src_start, self.text.src_end, kind);
        let _ = self
            .sink
            .process_token(Token::CharacterTokens(t), self.text.line);
    }

    /// Starts a new group of pending text, flushing the current one.
    fn new_group(&mut self, line: u64) {
        if !self.text.is_empty() {
            self.flush_text();
            if self.text.raw {
                self.text.settled = true;
            }
        }
        self.text.line = line;
    }

    #[inline]
    fn can_merge(&self, line: u64) -> bool {
        !self.text.is_empty() && (line == self.text.line || (self.text.raw && self.text.settled))
    }

    /// Adds the input range `s..e` (un-normalised) as a piece of text with html5ever's line.
    fn push_range(&mut self, s: usize, e: usize, line: u64) {
        if s >= e {
            return;
        }
        if self.can_merge(line) {
            match self.text.kind {
                PendKind::Range(a, z) if z == s => self.text.kind = PendKind::Range(a, e),
                PendKind::Range(a, z) => {
                    self.text.buf.clear();
                    normalize_into(&self.src[a..z], &mut self.text.buf);
                    normalize_into(&self.src[s..e], &mut self.text.buf);
                    self.text.kind = PendKind::Owned;
                }
                PendKind::Owned => normalize_into(&self.src[s..e], &mut self.text.buf),
                PendKind::Empty => self.text.kind = PendKind::Range(s, e),
            }
            self.text.src_end = e;
            return;
        }
        self.new_group(line);
        self.text.kind = PendKind::Range(s, e);
        self.text.src_start = s;
        self.text.src_end = e;
    }

    /// Adds decoded text (a character reference read from `src_s..src_e`) as a piece with
    /// html5ever's line.
    fn push_str(&mut self, s: &str, line: u64, src_s: usize, src_e: usize) {
        if s.is_empty() {
            return;
        }
        if self.can_merge(line) {
            if let PendKind::Range(a, z) = self.text.kind {
                self.text.buf.clear();
                normalize_into(&self.src[a..z], &mut self.text.buf);
                self.text.kind = PendKind::Owned;
            }
        } else {
            self.new_group(line);
            self.text.buf.clear();
            self.text.kind = PendKind::Owned;
            self.text.src_start = src_s;
        }
        self.text.src_end = src_e;
        self.text.buf.push_str(s);
    }

    // ----- data state -----------------------------------------------------------------------

    /// The data state, modelled on html5ever's chunking (see the module docs). Returns the
    /// next mode, or `None` at the end of the input.
    fn data(&mut self) -> Option<Mode> {
        // html5ever consumes the next character on its own after a CR and when reconsuming.
        let mut single = false;
        loop {
            let pos = self.pos;
            if pos >= self.buf_end {
                self.buf_end = self.b.len();
            }
            let &c = self.b.get(pos)?;
            match c {
                b'<' => {
                    self.pos += 1;
                    match self.tag_open() {
                        AfterLt::Mode(m) => return Some(m),
                        AfterLt::Reconsume => {
                            single = true;
                            continue;
                        }
                        AfterLt::Done => {}
                    }
                }
                b'&' => {
                    self.pos += 1;
                    self.text_char_ref();
                }
                0 => {
                    self.pos += 1;
                    let line = self.line_at(self.pos);
                    let _ = self.token(Token::NullCharacterToken, line, pos, pos + 1);
                }
                b'\r' => {
                    // The LF of a CR LF pair is skipped, so it belongs to the same piece.
                    let end = pos + 1 + usize::from(self.b.get(pos + 1) == Some(&b'\n'));
                    let line = self.line_at(pos + 1);
                    self.push_range(pos, end, line);
                    self.pos = end;
                    single = true;
                    continue;
                }
                b'\n' => {
                    let line = self.line_at(pos + 1);
                    self.push_range(pos, pos + 1, line);
                    self.pos = pos + 1;
                }
                _ if single => {
                    let end = (pos + utf8_len(c)).min(self.b.len());
                    let line = self.line_at(end);
                    self.push_range(pos, end, line);
                    self.pos = end;
                }
                _ => {
                    let limit = self.buf_end.min(self.next_nul(pos));
                    let end =
                        memchr3(b'<', b'&', b'\r', &self.b[pos..limit]).map_or(limit, |k| pos + k);
                    let line = self.line_at(end);
                    self.push_range(pos, end, line);
                    self.pos = end;
                }
            }
            single = false;
        }
    }

    /// A character reference in the data or RCDATA state; `pos` is just after `&`.
    fn text_char_ref(&mut self) {
        let amp = self.pos - 1;
        let line = if self.text.wants_lines() {
            self.line_at(self.pos)
        } else {
            self.text.line
        };
        let r = self.scan_char_ref(self.pos, false);
        if r.n == 0 {
            self.push_range(amp, amp + 1, line);
        } else {
            if r.numeric_error {
                self.parse_error_if_first(line);
            }
            let mut buf = [0u8; 8];
            let a = r.chars[0].encode_utf8(&mut buf).len();
            let n = if r.n == 2 {
                a + r.chars[1].encode_utf8(&mut buf[a..]).len()
            } else {
                a
            };
            let s = std::str::from_utf8(&buf[..n]).unwrap_or("\u{fffd}");
            self.push_str(s, line, amp, r.resume);
        }
        self.pos = r.resume;
        self.buf_end = if r.consumed > r.resume {
            r.consumed
        } else {
            self.b.len()
        };
    }

    /// The tag open state; `pos` is just after `<`.
    fn tag_open(&mut self) -> AfterLt {
        let pos = self.pos;
        let Some(&c) = self.b.get(pos) else {
            let line = self.line_at(pos);
            self.push_range(pos - 1, pos, line);
            return AfterLt::Done;
        };
        match c {
            b'!' => {
                self.pos += 1;
                self.markup_declaration();
                AfterLt::Done
            }
            b'/' => {
                self.pos += 1;
                self.end_tag_open()
            }
            b'a'..=b'z' | b'A'..=b'Z' => match self.tag(TagKind::StartTag, pos - 1) {
                Some(m) => AfterLt::Mode(m),
                None => AfterLt::Done,
            },
            b'?' => {
                self.bogus_comment(pos, pos - 1);
                AfterLt::Done
            }
            _ => {
                // html5ever emits the `<` after consuming the next character.
                let line = self.line_at(pos + utf8_len(c).min(self.b.len() - pos));
                self.push_range(pos - 1, pos, line);
                AfterLt::Reconsume
            }
        }
    }

    /// The end tag open state; `pos` is just after `</`.
    fn end_tag_open(&mut self) -> AfterLt {
        let pos = self.pos;
        let Some(&c) = self.b.get(pos) else {
            let line = self.line_at(pos);
            self.push_range(pos - 2, pos, line);
            return AfterLt::Done;
        };
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => match self.tag(TagKind::EndTag, pos - 2) {
                Some(m) => AfterLt::Mode(m),
                None => AfterLt::Done,
            },
            b'>' => {
                self.pos += 1;
                let line = self.line_at(self.pos);
                self.parse_error_if_first(line);
                AfterLt::Done
            }
            _ => {
                self.bogus_comment(pos, pos - 2);
                AfterLt::Done
            }
        }
    }

    // ----- tags -----------------------------------------------------------------------------

    /// A start or end tag whose name starts at `pos` and whose `<` is at `lt`. `None` if the
    /// input ends inside it (the tag is then dropped, as the standard says).
    fn tag(&mut self, kind: TagKind, lt: usize) -> Option<Mode> {
        let Some(name) = self.read_name(false) else {
            self.pos = self.b.len();
            return None;
        };
        self.tag_body(kind, name, lt)
    }

    /// Reads a tag or attribute name starting at `pos`, lower-casing ASCII and replacing NUL.
    /// Stops before whitespace, `/`, `>` (and `=` after the first character of an attribute
    /// name). `None` at the end of the input.
    fn read_name(&mut self, attr: bool) -> Option<LocalName> {
        let b = self.b;
        let start = self.pos;
        let stop = if attr { &ATTR_STOP } else { &TAG_STOP };
        let mut i = start;
        // An attribute name may start with `=` (the standard treats it as a name character
        // there, with a parse error).
        if attr && b.get(i) == Some(&b'=') {
            i += 1;
        }
        while i < b.len() && !stop[b[i] as usize] {
            i += 1;
        }
        let &end_byte = b.get(i)?;
        if is_ws(end_byte) || end_byte == b'/' || end_byte == b'>' || (attr && end_byte == b'=') {
            self.pos = i;
            return Some(self.names.get(&self.src[start..i]));
        }
        // Slow path: upper case or NUL inside the name.
        let mut name = String::with_capacity(i - start + 8);
        name.push_str(&self.src[start..i]);
        loop {
            let Some(&c) = b.get(i) else {
                self.pos = i;
                return None;
            };
            match c {
                b'A'..=b'Z' => {
                    name.push(char::from(c.to_ascii_lowercase()));
                    i += 1;
                }
                0 => {
                    name.push('\u{fffd}');
                    i += 1;
                }
                b'\t' | b'\n' | 0x0c | b'\r' | b' ' | b'/' | b'>' => break,
                b'=' if attr => break,
                _ => {
                    let mut j = i + 1;
                    while j < b.len() && !stop[b[j] as usize] {
                        j += 1;
                    }
                    name.push_str(&self.src[i..j]);
                    i = j;
                }
            }
        }
        self.pos = i;
        Some(LocalName::from(&*name))
    }

    /// Skips tag whitespace (counted as consumed).
    #[inline]
    fn skip_ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if !is_ws(c) {
                break;
            }
            self.pos += 1;
        }
    }

    /// The states after a tag name: attributes, self-closing flag, `>`. `pos` is at the byte
    /// that ended the name; the tag's `<` is at `lt`.
    fn tag_body(&mut self, kind: TagKind, name: LocalName, lt: usize) -> Option<Mode> {
        let mode = self.tag_body_inner(kind, name, lt);
        if mode.is_none() {
            // The input ended inside the tag: everything was consumed.
            self.pos = self.b.len();
        }
        mode
    }

    fn tag_body_inner(&mut self, kind: TagKind, name: LocalName, lt: usize) -> Option<Mode> {
        let mut attrs: Vec<Attribute> = Vec::new();
        let mut seen: Option<HashSet<LocalName>> = None;
        let mut had_duplicate = false;
        let mut self_closing = false;
        loop {
            // Before attribute name.
            self.skip_ws();
            let &c = self.b.get(self.pos)?;
            match c {
                b'>' => {
                    self.pos += 1;
                    break;
                }
                b'/' => {
                    // Self-closing start tag state: anything but `>` is reconsumed before an
                    // attribute name.
                    self.pos += 1;
                    if *self.b.get(self.pos)? == b'>' {
                        self.pos += 1;
                        self_closing = true;
                        break;
                    }
                    continue;
                }
                _ => {}
            }
            let attr_name = self.read_name(true)?;
            // After attribute name.
            self.skip_ws();
            let value = if *self.b.get(self.pos)? == b'=' {
                self.pos += 1;
                // Before attribute value: html5ever discards this whitespace without counting
                // its line breaks.
                let ws_start = self.pos;
                self.skip_ws();
                self.lines.skip(self.b, ws_start, self.pos);
                match *self.b.get(self.pos)? {
                    q @ (b'"' | b'\'') => {
                        self.pos += 1;
                        self.read_quoted(q)?
                    }
                    // Missing value: the loop emits the tag at this `>`.
                    b'>' => StrTendril::new(),
                    _ => self.read_unquoted()?,
                }
            } else {
                StrTendril::new()
            };
            // First one wins; html5ever checks when the attribute is finished. Hostile tags
            // with thousands of attributes get a set instead of a quadratic scan.
            let duplicate = if attrs.len() < 32 {
                attrs.iter().any(|a| a.name.local == attr_name)
            } else {
                let seen = seen.get_or_insert_default();
                if seen.len() < attrs.len() {
                    seen.extend(attrs[seen.len()..].iter().map(|a| a.name.local.clone()));
                }
                seen.contains(&attr_name)
            };
            if duplicate {
                had_duplicate = true;
            } else {
                attrs.push(Attribute {
                    name: QualName::new(None, ns!(), attr_name),
                    value,
                });
            }
        }
        let line = self.line_at(self.pos);
        if kind == TagKind::StartTag {
            self.last_start = Some(name.clone());
        }
        let end = self.pos;
        let result = self.token(
            Token::TagToken(Tag {
                kind,
                name,
                self_closing,
                attrs,
                had_duplicate_attributes: had_duplicate,
            }),
            line,
            lt,
            end,
        );
        Some(match result {
            TokenSinkResult::RawData(kind) => Mode::Raw(kind),
            TokenSinkResult::Plaintext => Mode::Plaintext,
            TokenSinkResult::Continue
            | TokenSinkResult::Script(_)
            | TokenSinkResult::EncodingIndicator(_) => Mode::Data,
        })
    }

    /// A quoted attribute value; `pos` is just after the opening quote `q`.
    fn read_quoted(&mut self, q: u8) -> Option<StrTendril> {
        let start = self.pos;
        let nul = self.next_nul(start);
        if let Some(k) = memchr3(q, b'&', b'\r', &self.b[start..])
            && self.b[start + k] == q
            && start + k < nul
        {
            self.pos = start + k + 1;
            return Some(self.tendril(start, start + k));
        }
        let mut v = String::new();
        let mut i = start;
        loop {
            let nul = self.next_nul(i);
            match memchr3(q, b'&', b'\r', &self.b[i..nul]).map(|k| i + k) {
                None => {
                    v.push_str(&self.src[i..nul]);
                    if nul >= self.b.len() {
                        self.pos = nul;
                        return None;
                    }
                    v.push('\u{fffd}');
                    i = nul + 1;
                }
                Some(j) => {
                    v.push_str(&self.src[i..j]);
                    match self.b[j] {
                        b'&' => i = self.attr_char_ref(j + 1, &mut v),
                        b'\r' => {
                            v.push('\n');
                            i = j + 1 + usize::from(self.b.get(j + 1) == Some(&b'\n'));
                        }
                        _ => {
                            self.pos = j + 1;
                            return Some(StrTendril::from_slice(&v));
                        }
                    }
                }
            }
        }
    }

    /// An unquoted attribute value starting at `pos`; stops before whitespace or `>`.
    fn read_unquoted(&mut self) -> Option<StrTendril> {
        let b = self.b;
        let start = self.pos;
        let mut i = start;
        while i < b.len() && !UNQUOTED_STOP[b[i] as usize] {
            i += 1;
        }
        let &c = b.get(i)?;
        if is_ws(c) || c == b'>' {
            self.pos = i;
            return Some(self.tendril(start, i));
        }
        let mut v = String::from(&self.src[start..i]);
        loop {
            let &c = b.get(i)?;
            match c {
                b'\t' | b'\n' | 0x0c | b'\r' | b' ' | b'>' => break,
                b'&' => i = self.attr_char_ref(i + 1, &mut v),
                0 => {
                    v.push('\u{fffd}');
                    i += 1;
                }
                _ => {
                    let mut j = i + 1;
                    while j < b.len() && !UNQUOTED_STOP[b[j] as usize] {
                        j += 1;
                    }
                    v.push_str(&self.src[i..j]);
                    i = j;
                }
            }
        }
        self.pos = i;
        Some(StrTendril::from_slice(&v))
    }

    /// A character reference in an attribute value; `p` is just after `&`. Appends the result
    /// and returns where the value continues.
    fn attr_char_ref(&self, p: usize, v: &mut String) -> usize {
        let r = self.scan_char_ref(p, true);
        if r.n == 0 {
            v.push('&');
        } else {
            v.push(r.chars[0]);
            if r.n == 2 {
                v.push(r.chars[1]);
            }
        }
        r.resume
    }

    // ----- character references -------------------------------------------------------------

    /// Scans a character reference whose `&` is just before `p`, as html5ever consumes it.
    fn scan_char_ref(&self, p: usize, in_attr: bool) -> CharRef {
        match self.b.get(p) {
            Some(c) if c.is_ascii_alphanumeric() => self.named_ref(p, in_attr),
            Some(b'#') => self.numeric_ref(p),
            _ => CharRef::none(p, p),
        }
    }

    /// Named references: the longest name in the table that the input starts with. html5ever
    /// consumes characters while they form a prefix of some name, plus the first one that does
    /// not; the table includes every prefix, which is what makes that test a lookup.
    fn named_ref(&self, p: usize, in_attr: bool) -> CharRef {
        let b = self.b;
        let mut k = p;
        let mut best: Option<(usize, u32, u32)> = None;
        let mut stop: Option<u8> = None;
        while let Some(&c) = b.get(k) {
            k += utf8_len(c).min(b.len() - k);
            match NAMED_ENTITIES.get(&self.src[p..k]) {
                Some(&(c1, c2)) => {
                    if c1 != 0 {
                        best = Some((k, c1, c2));
                    }
                }
                None => {
                    stop = Some(c);
                    break;
                }
            }
        }
        let Some((m, c1, c2)) = best else {
            let mut q = k;
            if stop.is_some_and(|c| c.is_ascii_alphanumeric()) {
                // Not a reference, but html5ever keeps consuming alphanumerics (and the
                // character after them) before giving everything back.
                while q < b.len() && b[q].is_ascii_alphanumeric() {
                    q += 1;
                }
                if let Some(&c) = b.get(q) {
                    q += utf8_len(c).min(b.len() - q);
                }
            }
            return CharRef::none(p, q);
        };
        let last = b[m - 1];
        let next = if m < k { b.get(m).copied() } else { None };
        if in_attr && last != b';' && next.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric()) {
            // Historical attribute-value rule: `&amp=` and `&ampx` stay as they are.
            return CharRef::none(p, k);
        }
        CharRef {
            chars: [
                char::from_u32(c1).unwrap_or('\u{fffd}'),
                char::from_u32(c2).unwrap_or('\0'),
            ],
            n: if c2 == 0 { 1 } else { 2 },
            resume: m,
            consumed: k,
            numeric_error: false,
        }
    }

    /// Numeric references; `p` is at `#`.
    fn numeric_ref(&self, p: usize) -> CharRef {
        let b = self.b;
        let mut i = p + 1;
        let hex = matches!(b.get(i), Some(b'x' | b'X'));
        if hex {
            i += 1;
        }
        let digits = i;
        let mut value: u32 = 0;
        let mut too_big = false;
        while let Some(&c) = b.get(i) {
            let d = if hex {
                (c as char).to_digit(16)
            } else {
                (c as char).to_digit(10)
            };
            let Some(d) = d else { break };
            if !too_big {
                value = value * if hex { 16 } else { 10 } + d;
                too_big = value > 0x10ffff;
            }
            i += 1;
        }
        if i == digits {
            // No digits: `#` (and `x`) are given back.
            return CharRef::none(p, i);
        }
        let mut error = true;
        if b.get(i) == Some(&b';') {
            i += 1;
            error = false;
        }
        let (c, bad) = numeric_value(value, too_big);
        CharRef {
            chars: [c, '\0'],
            n: 1,
            resume: i,
            consumed: i,
            numeric_error: error || bad,
        }
    }

    // ----- markup declarations --------------------------------------------------------------

    /// After `<!`.
    fn markup_declaration(&mut self) {
        let rest = &self.b[self.pos..];
        let lt = self.pos - 2;
        if rest.starts_with(b"--") {
            self.pos += 2;
            self.comment(lt);
        } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            self.pos += 7;
            self.doctype(lt);
        } else if rest.starts_with(b"[CDATA[") && {
            // The answer depends on the tree builder having seen all text so far.
            self.flush_text();
            self.sink
                .adjusted_current_node_present_but_not_in_html_namespace()
        } {
            self.pos += 7;
            self.cdata();
        } else {
            self.bogus_comment(self.pos, lt);
        }
    }

    /// After `<!--` (whose `<` is at `lt`). The comment states only decide where the comment
    /// ends and what is left out at the end of the input; the `<!` sub-states only report
    /// errors.
    fn comment(&mut self, lt: usize) {
        let b = self.b;
        let start = self.pos;
        let (end, next) = if b.get(start) == Some(&b'>') {
            (start, start + 1)
        } else if b[start..].starts_with(b"->") {
            (start, start + 2)
        } else {
            let mut i = start;
            let mut found = None;
            while let Some(k) = memchr(b'-', &b[i..]) {
                let d = i + k;
                if b.get(d + 1) == Some(&b'-') {
                    match b.get(d + 2) {
                        Some(b'>') => {
                            found = Some((d, d + 3));
                            break;
                        }
                        Some(b'!') if b.get(d + 3) == Some(&b'>') => {
                            found = Some((d, d + 4));
                            break;
                        }
                        _ => {}
                    }
                }
                i = d + 1;
            }
            found.unwrap_or_else(|| {
                // EOF: dashes (and `--!`) still waiting to be appended are dropped.
                let body = &b[start..];
                let cut = if body.ends_with(b"--!") {
                    3
                } else if body.ends_with(b"--") {
                    2
                } else {
                    usize::from(body.ends_with(b"-"))
                };
                (b.len() - cut, b.len())
            })
        };
        self.pos = next;
        let (data, _) = self.normalized_tendril(start, end);
        let line = self.line_at(next);
        let _ = self.token(Token::CommentToken(data), line, lt, next);
    }

    /// A bogus comment whose data starts at `start` and runs to the next `>`; the markup that
    /// opened it starts at `lt`.
    fn bogus_comment(&mut self, start: usize, lt: usize) {
        let (end, next) = match memchr(b'>', &self.b[start..]) {
            Some(k) => (start + k, start + k + 1),
            None => (self.b.len(), self.b.len()),
        };
        self.pos = next;
        let (data, _) = self.normalized_tendril(start, end);
        let line = self.line_at(next);
        let _ = self.token(Token::CommentToken(data), line, lt, next);
    }

    /// After `<![CDATA[` in foreign content. html5ever emits the section's text when it ends
    /// (and at each NUL, which becomes its own token).
    fn cdata(&mut self) {
        let from = self.pos;
        let end = memchr::memmem::find(&self.b[from..], b"]]>").map(|k| from + k);
        let stop = end.unwrap_or(self.b.len());
        loop {
            let start = self.pos;
            let nul = self.next_nul(start);
            if nul < stop {
                let line = self.line_at(nul + 1);
                self.push_range(start, nul, line);
                self.pos = nul + 1;
                let _ = self.token(Token::NullCharacterToken, line, nul, nul + 1);
                continue;
            }
            let next = end.map_or(stop, |e| e + 3);
            let line = self.line_at(next);
            self.push_range(start, stop, line);
            self.pos = next;
            return;
        }
    }

    /// The next character with CR LF and CR read as LF.
    fn next_char(&mut self) -> Option<char> {
        let c = self.src[self.pos..].chars().next()?;
        self.pos += c.len_utf8();
        if c == '\r' {
            if self.b.get(self.pos) == Some(&b'\n') {
                self.pos += 1;
            }
            return Some('\n');
        }
        Some(c)
    }

    /// After `<!DOCTYPE` (whose `<` is at `lt`): the DOCTYPE states, character by character
    /// (one per document).
    fn doctype(&mut self, lt: usize) {
        #[derive(Clone, Copy, PartialEq)]
        enum Id {
            Public,
            System,
        }
        #[derive(Clone, Copy)]
        enum St {
            BeforeName,
            Name,
            AfterName,
            AfterKeyword(Id),
            BeforeId(Id),
            Quoted(Id, char),
            AfterId(Id),
            Between,
            Bogus,
        }
        let mut name: Option<String> = None;
        let mut public: Option<String> = None;
        let mut system: Option<String> = None;
        let mut quirks = false;
        // The DOCTYPE state: one whitespace character is consumed, anything else reconsumed.
        if self.b.get(self.pos).is_some_and(|&c| is_ws(c)) {
            let _ = self.next_char();
        }
        let mut st = St::BeforeName;
        loop {
            if let St::AfterName = st {
                let rest = &self.b[self.pos..];
                if rest.len() >= 6 && rest[..6].eq_ignore_ascii_case(b"public") {
                    self.pos += 6;
                    st = St::AfterKeyword(Id::Public);
                    continue;
                }
                if rest.len() >= 6 && rest[..6].eq_ignore_ascii_case(b"system") {
                    self.pos += 6;
                    st = St::AfterKeyword(Id::System);
                    continue;
                }
            }
            let before = self.pos;
            let Some(c) = self.next_char() else {
                if !matches!(st, St::Bogus) {
                    quirks = true;
                }
                break;
            };
            let ws = matches!(c, '\t' | '\n' | '\x0c' | ' ');
            let id = |which: Id, public: &mut Option<String>, system: &mut Option<String>| {
                *(if which == Id::Public { public } else { system }) = Some(String::new());
            };
            match st {
                St::BeforeName => match c {
                    _ if ws => {}
                    '>' => {
                        quirks = true;
                        break;
                    }
                    '\0' => {
                        name = Some("\u{fffd}".into());
                        st = St::Name;
                    }
                    _ => {
                        name = Some(c.to_ascii_lowercase().to_string());
                        st = St::Name;
                    }
                },
                St::Name => match c {
                    _ if ws => st = St::AfterName,
                    '>' => break,
                    '\0' => name.get_or_insert_default().push('\u{fffd}'),
                    _ => name.get_or_insert_default().push(c.to_ascii_lowercase()),
                },
                St::AfterName => match c {
                    _ if ws => {}
                    '>' => break,
                    _ => {
                        quirks = true;
                        self.pos = before;
                        st = St::Bogus;
                    }
                },
                St::AfterKeyword(which) | St::BeforeId(which) => match c {
                    _ if ws => st = St::BeforeId(which),
                    '"' | '\'' => {
                        id(which, &mut public, &mut system);
                        st = St::Quoted(which, c);
                    }
                    '>' => {
                        quirks = true;
                        break;
                    }
                    _ => {
                        quirks = true;
                        self.pos = before;
                        st = St::Bogus;
                    }
                },
                St::Quoted(which, q) => {
                    let target = if which == Id::Public {
                        &mut public
                    } else {
                        &mut system
                    };
                    match c {
                        _ if c == q => st = St::AfterId(which),
                        '\0' => target.get_or_insert_default().push('\u{fffd}'),
                        '>' => {
                            quirks = true;
                            break;
                        }
                        _ => target.get_or_insert_default().push(c),
                    }
                }
                St::AfterId(Id::Public) | St::Between => match c {
                    _ if ws => st = St::Between,
                    '>' => break,
                    '"' | '\'' => {
                        id(Id::System, &mut public, &mut system);
                        st = St::Quoted(Id::System, c);
                    }
                    _ => {
                        quirks = true;
                        self.pos = before;
                        st = St::Bogus;
                    }
                },
                St::AfterId(Id::System) => match c {
                    _ if ws => {}
                    '>' => break,
                    _ => {
                        self.pos = before;
                        st = St::Bogus;
                    }
                },
                St::Bogus => {
                    if c == '>' {
                        break;
                    }
                }
            }
        }
        let line = self.line_at(self.pos);
        let doctype = Doctype {
            name: name.map(|s| StrTendril::from_slice(&s)),
            public_id: public.map(|s| StrTendril::from_slice(&s)),
            system_id: system.map(|s| StrTendril::from_slice(&s)),
            force_quirks: quirks,
        };
        let end = self.pos;
        let _ = self.token(Token::DoctypeToken(doctype), line, lt, end);
    }

    // ----- RCDATA, RAWTEXT, script data, PLAINTEXT ------------------------------------------

    /// Emits the input from `*emitted` to `x` as text; html5ever has consumed up to
    /// `consumed` at that moment, which gives the piece's line.
    fn emit_to(&mut self, emitted: &mut usize, x: usize, consumed: usize) {
        if x > *emitted {
            let line = if self.text.wants_lines() {
                self.line_at(consumed)
            } else {
                self.text.line
            };
            self.push_range(*emitted, x, line);
            *emitted = x;
        }
    }

    fn begin_raw(&mut self) {
        self.flush_text();
        self.text.raw = true;
        self.text.settled = false;
    }

    fn end_raw(&mut self) {
        self.flush_text();
        self.text.raw = false;
        self.text.settled = false;
    }

    /// Whether `name` (ASCII letters from the input) is the last start tag's name.
    fn appropriate(&self, s: usize, e: usize) -> bool {
        self.last_start
            .as_ref()
            .is_some_and(|n| n.as_bytes().eq_ignore_ascii_case(&self.b[s..e]))
    }

    /// Next byte position of interest in a raw base state, from `from`.
    fn raw_stop(&self, kind: RawKind, from: usize, lines: bool) -> Option<usize> {
        let s = &self.b[from..];
        let k = match (kind, lines) {
            (RawKind::Rcdata, false) => memchr2(b'<', b'&', s),
            (RawKind::Rawtext | RawKind::ScriptData, false) => memchr(b'<', s),
            (RawKind::ScriptDataEscaped(_), false) => memchr2(b'<', b'-', s),
            (RawKind::Rcdata, true) => s
                .iter()
                .position(|&c| matches!(c, b'<' | b'&' | b'\n' | b'\r')),
            (RawKind::Rawtext | RawKind::ScriptData, true) => memchr3(b'<', b'\n', b'\r', s),
            (RawKind::ScriptDataEscaped(_), true) => s
                .iter()
                .position(|&c| matches!(c, b'<' | b'-' | b'\n' | b'\r')),
        };
        k.map(|k| from + k)
    }

    /// An RCDATA, RAWTEXT or script data section, up to the appropriate end tag (which is
    /// emitted too) or the end of the input.
    fn raw(&mut self, kind: RawKind) -> Option<Mode> {
        use RawState as R;
        use ScriptEscapeKind::{DoubleEscaped, Escaped};
        self.begin_raw();
        let mut emitted = self.pos;
        let mut st = R::Base(kind);
        // Start of the `<` being held back, and of the temporary buffer's letters.
        let mut lt = self.pos;
        let mut tmp = self.pos;
        loop {
            if let R::Base(k) = st {
                let lines = self.text.wants_lines();
                let Some(i) = self.raw_stop(k, self.pos, lines) else {
                    let len = self.b.len();
                    self.emit_to(&mut emitted, len, len);
                    self.pos = len;
                    break;
                };
                // The run before the stop is a piece of its own.
                self.emit_to(&mut emitted, i, i);
                self.pos = i + 1;
                match self.b[i] {
                    b'\n' => self.emit_to(&mut emitted, i + 1, i + 1),
                    b'\r' => {
                        if self.b.get(i + 1) == Some(&b'\n') {
                            self.pos += 1;
                        }
                        let end = self.pos;
                        self.emit_to(&mut emitted, end, i + 1);
                    }
                    b'&' => {
                        let line = if self.text.wants_lines() {
                            self.line_at(i + 1)
                        } else {
                            self.text.line
                        };
                        let r = self.scan_char_ref(i + 1, false);
                        if r.n == 0 {
                            self.push_range(i, i + 1, line);
                            emitted = i + 1;
                        } else {
                            if r.numeric_error {
                                self.parse_error_if_first(line);
                            }
                            let mut s = String::new();
                            s.push(r.chars[0]);
                            if r.n == 2 {
                                s.push(r.chars[1]);
                            }
                            self.push_str(&s, line, i, r.resume);
                            emitted = r.resume;
                        }
                        self.pos = r.resume;
                    }
                    b'-' => {
                        self.emit_to(&mut emitted, i + 1, i + 1);
                        if let RawKind::ScriptDataEscaped(e) = k {
                            st = R::EscapedDash(e);
                        }
                    }
                    _ => {
                        // `<`
                        lt = i;
                        if k == RawKind::ScriptDataEscaped(DoubleEscaped) {
                            self.emit_to(&mut emitted, i + 1, i + 1);
                        }
                        st = R::LessThan(k);
                    }
                }
                continue;
            }
            let start = self.pos;
            let Some(c) = self.next_char() else {
                // End of input: characters held back are text after all.
                let len = self.b.len();
                self.emit_to(&mut emitted, len, len);
                break;
            };
            let now = self.pos;
            match st {
                R::Base(_) => {}
                R::LessThan(RawKind::ScriptDataEscaped(DoubleEscaped)) => {
                    if c == '/' {
                        self.emit_to(&mut emitted, now, now);
                        tmp = now;
                        st = R::DoubleEscapeEnd;
                    } else {
                        self.pos = start;
                        st = R::Base(RawKind::ScriptDataEscaped(DoubleEscaped));
                    }
                }
                R::LessThan(k) => match c {
                    '/' => {
                        tmp = now;
                        st = R::EndTagOpen(k);
                    }
                    '!' if k == RawKind::ScriptData => {
                        self.emit_to(&mut emitted, now, now);
                        st = R::EscapeStart;
                    }
                    _ if c.is_ascii_alphabetic() && k == RawKind::ScriptDataEscaped(Escaped) => {
                        self.emit_to(&mut emitted, now, now);
                        tmp = start;
                        st = R::DoubleEscapeStart;
                    }
                    _ => {
                        self.emit_to(&mut emitted, lt + 1, now);
                        self.pos = start;
                        st = R::Base(k);
                    }
                },
                R::EndTagOpen(k) => {
                    if c.is_ascii_alphabetic() {
                        st = R::EndTagName(k);
                    } else {
                        self.emit_to(&mut emitted, start, now);
                        self.pos = start;
                        st = R::Base(k);
                    }
                }
                R::EndTagName(k) => {
                    if c.is_ascii_alphabetic() {
                        continue;
                    }
                    let ends_name = matches!(c, '\t' | '\n' | '\x0c' | ' ' | '/' | '>');
                    if ends_name && self.appropriate(tmp, start) {
                        self.emit_to(&mut emitted, lt, lt);
                        self.end_raw();
                        let name = self
                            .last_start
                            .clone()
                            .unwrap_or_else(|| LocalName::from(""));
                        // The tag body starts at the byte that ended the name.
                        self.pos = start;
                        return self.tag_body(TagKind::EndTag, name, lt);
                    }
                    self.emit_to(&mut emitted, start, now);
                    self.pos = start;
                    st = R::Base(k);
                }
                R::EscapeStart | R::EscapeStartDash => {
                    if c == '-' {
                        self.emit_to(&mut emitted, now, now);
                        st = if st == R::EscapeStart {
                            R::EscapeStartDash
                        } else {
                            R::EscapedDashDash(Escaped)
                        };
                    } else {
                        self.pos = start;
                        st = R::Base(RawKind::ScriptData);
                    }
                }
                R::EscapedDash(e) | R::EscapedDashDash(e) => match c {
                    '-' => {
                        self.emit_to(&mut emitted, now, now);
                        st = R::EscapedDashDash(e);
                    }
                    '<' => {
                        if e == DoubleEscaped {
                            self.emit_to(&mut emitted, now, now);
                        }
                        lt = start;
                        st = R::LessThan(RawKind::ScriptDataEscaped(e));
                    }
                    '>' if matches!(st, R::EscapedDashDash(_)) => {
                        self.emit_to(&mut emitted, now, now);
                        st = R::Base(RawKind::ScriptData);
                    }
                    _ => {
                        self.emit_to(&mut emitted, now, now);
                        st = R::Base(RawKind::ScriptDataEscaped(e));
                    }
                },
                R::DoubleEscapeStart | R::DoubleEscapeEnd => {
                    let starting = st == R::DoubleEscapeStart;
                    if matches!(c, '\t' | '\n' | '\x0c' | ' ' | '/' | '>') {
                        let is_script = self.b[tmp..start].eq_ignore_ascii_case(b"script");
                        self.emit_to(&mut emitted, now, now);
                        st = R::Base(RawKind::ScriptDataEscaped(if is_script == starting {
                            DoubleEscaped
                        } else {
                            Escaped
                        }));
                    } else if c.is_ascii_alphabetic() {
                        self.emit_to(&mut emitted, now, now);
                    } else {
                        self.pos = start;
                        st = R::Base(RawKind::ScriptDataEscaped(if starting {
                            Escaped
                        } else {
                            DoubleEscaped
                        }));
                    }
                }
            }
        }
        self.end_raw();
        None
    }

    /// The PLAINTEXT state: everything to the end of the input is text.
    fn plaintext(&mut self) -> Option<Mode> {
        self.begin_raw();
        let mut emitted = self.pos;
        let len = self.b.len();
        while self.text.wants_lines() {
            let Some(i) = memchr2(b'\n', b'\r', &self.b[self.pos..]).map(|k| self.pos + k) else {
                break;
            };
            self.emit_to(&mut emitted, i, i);
            self.pos = i + 1;
            if self.b[i] == b'\r' && self.b.get(i + 1) == Some(&b'\n') {
                self.pos += 1;
            }
            let end = self.pos;
            self.emit_to(&mut emitted, end, i + 1);
        }
        self.emit_to(&mut emitted, len, len);
        self.pos = len;
        self.end_raw();
        None
    }
}

/// The standard's numeric character reference value checks; the flag says html5ever reports
/// a parse error.
fn numeric_value(n: u32, too_big: bool) -> (char, bool) {
    match n {
        _ if too_big || n > 0x10ffff => ('\u{fffd}', true),
        0 | 0xd800..=0xdfff => ('\u{fffd}', true),
        0x80..=0x9f => {
            let c = C1_REPLACEMENTS[(n - 0x80) as usize]
                .or_else(|| char::from_u32(n))
                .unwrap_or('\u{fffd}');
            (c, true)
        }
        0x01..=0x08 | 0x0b | 0x0d..=0x1f | 0x7f | 0xfdd0..=0xfdef => {
            (char::from_u32(n).unwrap_or('\u{fffd}'), true)
        }
        _ => (
            char::from_u32(n).unwrap_or('\u{fffd}'),
            n & 0xfffe == 0xfffe,
        ),
    }
}

#[cfg(test)]
mod tests {
    //! Token-level comparison with html5ever's tokenizer, for what the document comparisons
    //! cannot see (DOCTYPE identifiers, the duplicate-attribute flag, self-closing end tags).

    use std::cell::{Cell, RefCell};

    use html5ever::tokenizer::{BufferQueue, Tokenizer as H5Tokenizer, TokenizerOpts};
    use markup5ever::TokenizerResult;
    use proptest::prelude::*;

    use super::*;

    /// Every name comes back as its own atom, though a thousand names share 256 slots and
    /// each is asked for twice, once after the others have taken its slot.
    #[test]
    fn the_name_cache_gives_each_name_its_atom() {
        let names: Vec<String> = (0..1000)
            .map(|i| format!("data-x{i}"))
            .chain(["div", "class", "href", "a", "", "svg"].map(String::from))
            .collect();
        let mut cache = NameCache::new();
        for _ in 0..2 {
            for n in &names {
                assert_eq!(cache.get(n), LocalName::from(n.as_str()), "{n}");
            }
        }
        for n in names.iter().rev() {
            assert_eq!(&*cache.get(n), n.as_str());
        }
    }

    /// Records tokens with adjacent text merged (chunking is allowed to differ), dropping
    /// parse errors. Switches to the raw states for the usual elements, like a tree builder,
    /// and answers the CDATA question as if `<svg>`/`<math>` were open until closed.
    #[derive(Default)]
    struct Recorder {
        tokens: RefCell<Vec<String>>,
        text: RefCell<String>,
        foreign: Cell<u32>,
    }

    impl Recorder {
        fn flush(&self) {
            let text = std::mem::take(&mut *self.text.borrow_mut());
            if !text.is_empty() {
                self.tokens.borrow_mut().push(format!("text {text:?}"));
            }
        }

        fn finish(self) -> Vec<String> {
            self.flush();
            self.tokens.into_inner()
        }
    }

    impl TokenSink for Recorder {
        type Handle = ();

        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            let record = match token {
                Token::CharacterTokens(t) => {
                    self.text.borrow_mut().push_str(&t);
                    return TokenSinkResult::Continue;
                }
                Token::ParseError(_) => return TokenSinkResult::Continue,
                Token::TagToken(tag) => {
                    let foreign = matches!(&*tag.name, "svg" | "math");
                    match (tag.kind, foreign) {
                        (TagKind::StartTag, true) => self.foreign.set(self.foreign.get() + 1),
                        (TagKind::EndTag, true) => {
                            self.foreign.set(self.foreign.get().saturating_sub(1))
                        }
                        _ => {}
                    }
                    let attrs: Vec<(String, String)> = tag
                        .attrs
                        .iter()
                        .map(|a| (a.name.local.to_string(), a.value.to_string()))
                        .collect();
                    let record = format!(
                        "{:?} {:?} {:?} self_closing={} dup={}",
                        tag.kind, &*tag.name, attrs, tag.self_closing, tag.had_duplicate_attributes
                    );
                    self.flush();
                    self.tokens.borrow_mut().push(record);
                    if tag.kind == TagKind::EndTag {
                        return TokenSinkResult::Continue;
                    }
                    return match &*tag.name {
                        "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                        "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                            TokenSinkResult::RawData(RawKind::Rawtext)
                        }
                        "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
                        "plaintext" => TokenSinkResult::Plaintext,
                        _ => TokenSinkResult::Continue,
                    };
                }
                Token::CommentToken(t) => format!("comment {:?}", &*t),
                Token::DoctypeToken(d) => format!(
                    "doctype {:?} {:?} {:?} quirks={}",
                    d.name.as_deref(),
                    d.public_id.as_deref(),
                    d.system_id.as_deref(),
                    d.force_quirks
                ),
                other => format!("{other:?}"),
            };
            self.flush();
            self.tokens.borrow_mut().push(record);
            TokenSinkResult::Continue
        }

        fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
            self.foreign.get() > 0
        }
    }

    impl SpanSink for Recorder {
        fn token_span(&self, _start: usize, _end: usize, _kind: SpanKind) {}
    }

    /// Records every token with the source slice [`SpanSink::token_span`] gave for it.
    #[derive(Default)]
    struct SpanRecorder {
        html: String,
        span: Cell<Option<(usize, usize, SpanKind)>>,
        tokens: RefCell<Vec<(String, usize, usize, bool)>>,
    }

    impl TokenSink for SpanRecorder {
        type Handle = ();

        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            let what = match &token {
                Token::ParseError(_) => {
                    assert!(self.span.get().is_none(), "parse errors get no span");
                    return TokenSinkResult::Continue;
                }
                Token::CharacterTokens(t) => format!("text {:?}", &**t),
                Token::TagToken(t) => format!("{:?} {}", t.kind, &*t.name),
                Token::CommentToken(t) => format!("comment {:?}", &**t),
                Token::DoctypeToken(_) => "doctype".to_string(),
                Token::NullCharacterToken => "nul".to_string(),
                Token::EOFToken => "eof".to_string(),
            };
            let (s, e, kind) = self.span.take().expect("a span before every token");
            let expected = match &token {
                Token::CharacterTokens(t) => SpanKind::Text {
                    len: t.len32(),
                    verbatim: self.html[s..e] == **t,
                    after_lf_tag: false,
                },
                Token::TagToken(t) if t.kind == TagKind::StartTag => SpanKind::StartTag,
                Token::TagToken(_) => SpanKind::EndTag,
                Token::NullCharacterToken => SpanKind::Nul,
                Token::DoctypeToken(_) => SpanKind::Doctype,
                _ => SpanKind::Other,
            };
            // `verbatim` may be false for text that happens to equal its source.
            let verbatim = matches!(kind, SpanKind::Text { verbatim: true, .. });
            match (kind, expected) {
                (
                    SpanKind::Text {
                        len, verbatim: v, ..
                    },
                    SpanKind::Text {
                        len: l,
                        verbatim: w,
                        ..
                    },
                ) => {
                    assert_eq!(len, l);
                    assert!(!v || w, "verbatim text differs from its source");
                }
                _ => assert_eq!(kind, expected),
            }
            self.tokens.borrow_mut().push((what, s, e, verbatim));
            match &token {
                Token::TagToken(t) if t.kind == TagKind::StartTag => match &*t.name {
                    "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                    "title" => TokenSinkResult::RawData(RawKind::Rcdata),
                    _ => TokenSinkResult::Continue,
                },
                _ => TokenSinkResult::Continue,
            }
        }
    }

    impl SpanSink for SpanRecorder {
        fn token_span(&self, start: usize, end: usize, kind: SpanKind) {
            assert!(self.span.replace(Some((start, end, kind))).is_none());
        }
    }

    /// Each token with the input it was read from (`*` marks verbatim text).
    fn spans(html: &str) -> Vec<String> {
        let sink = SpanRecorder {
            html: html.to_string(),
            ..SpanRecorder::default()
        };
        tokenize(html, &sink);
        sink.tokens
            .into_inner()
            .into_iter()
            .map(|(what, s, e, v)| format!("{what} @{:?}{}", &html[s..e], if v { "*" } else { "" }))
            .collect()
    }

    #[test]
    fn token_spans() {
        assert_eq!(
            spans("<!DOCTYPE html><P class=a>x &amp; y</P ><br/>"),
            [
                "doctype @\"<!DOCTYPE html>\"",
                "StartTag p @\"<P class=a>\"",
                "text \"x & y\" @\"x &amp; y\"",
                "EndTag p @\"</P >\"",
                "StartTag br @\"<br/>\"",
                "eof @\"\"",
            ]
        );
        assert_eq!(
            spans("a\r\nb<!--c--><?pi><!x></ y>d\0e"),
            [
                // Text tokens break where html5ever's lines do.
                "text \"a\" @\"a\"*",
                "text \"\\nb\" @\"\\r\\nb\"",
                "comment \"c\" @\"<!--c-->\"",
                "comment \"?pi\" @\"<?pi>\"",
                "comment \"x\" @\"<!x>\"",
                "comment \" y\" @\"</ y>\"",
                "text \"d\" @\"d\"*",
                "nul @\"\\0\"",
                "text \"e\" @\"e\"*",
                "eof @\"\"",
            ]
        );
        assert_eq!(
            spans("<script>if (a<b) x()</script><title>\u{e9}&lt;</title>"),
            [
                "StartTag script @\"<script>\"",
                "text \"if (a<b) x()\" @\"if (a<b) x()\"*",
                "EndTag script @\"</script>\"",
                "StartTag title @\"<title>\"",
                "text \"\u{e9}<\" @\"\u{e9}&lt;\"",
                "EndTag title @\"</title>\"",
                "eof @\"\"",
            ]
        );
        // A tag cut off by the end of the input is dropped; its text before it is not.
        assert_eq!(spans("x<a b"), ["text \"x\" @\"x\"*", "eof @\"\""]);
    }

    fn fast(html: &str) -> Vec<String> {
        let sink = Recorder::default();
        tokenize(html, &sink);
        sink.finish()
    }

    fn reference(html: &str) -> Vec<String> {
        let tok = H5Tokenizer::new(
            Recorder::default(),
            TokenizerOpts {
                discard_bom: false,
                ..TokenizerOpts::default()
            },
        );
        let input = BufferQueue::default();
        input.push_back(StrTendril::from(html));
        while !matches!(tok.feed(&input), TokenizerResult::Done) {}
        tok.end();
        tok.sink.finish()
    }

    #[track_caller]
    fn same_tokens(html: &str) {
        assert_eq!(fast(html), reference(html), "input {html:?}");
    }

    #[test]
    fn doctypes() {
        for html in [
            "<!DOCTYPE html>",
            "<!doctype HTML>",
            "<!DOCTYPE>",
            "<!DOCTYPE",
            "<!DOCTYPE ",
            "<!DOCTYPEhtml>",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">",
            "<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0 Transitional//EN'>",
            "<!DOCTYPE html PUBLIC\"x\"'y'>",
            "<!DOCTYPE html PUBLIC \"x\"\"y\">",
            "<!DOCTYPE html SYSTEM>",
            "<!DOCTYPE html SYSTEM \"a>b\">",
            "<!DOCTYPE html SYSTEM \"a\" b>",
            "<!DOCTYPE html PUBLIC \"a\" b>",
            "<!DOCTYPE html PUBLIC \"a\0\r\nb\">",
            "<!DOCTYPE html PUBLICx>",
            "<!DOCTYPE html pub",
            "<!DOCTYPE html PUBLIC \"a",
            "<!DOCTYPE html PUBLIC \"a\" \"b",
            "<!DOCTYPE \0X\0>",
            "<!DOCTYPE\r\nhtml\r\nsystem\r\n'x'>",
            "<!DOCTYPE html bogus \0 stuff",
        ] {
            same_tokens(html);
        }
    }

    #[test]
    fn duplicate_attributes_and_self_closing() {
        for html in [
            "<a b=1 b=2 B=3 c>",
            "<a/b/c/>",
            "</a b=c/>",
            "<br/>",
            "</br/>",
            "<a b c=\"\" d='' e=f/>",
        ] {
            same_tokens(html);
        }
    }

    #[test]
    fn numeric_reference_table() {
        for n in [
            0u32, 1, 9, 10, 13, 0x1f, 0x7f, 0x80, 0x81, 0x8d, 0x9f, 0xa0, 0xd7ff, 0xd800,
        ] {
            same_tokens(&format!("&#{n};&#x{n:x}<a b='&#{n}'>"));
        }
        for n in [
            0xdfffu32,
            0xfdd0,
            0xfffe,
            0x1fffe,
            0x10ffff,
            0x110000,
            0xffff_ffff,
        ] {
            same_tokens(&format!("&#{n};&#x{n:X}<a b='&#{n}'>"));
        }
    }

    proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 3000, ..Default::default() })]
        #[test]
        fn token_streams_match(
            parts in prop::collection::vec(prop::sample::select(vec![
                "<", ">", "/", "!", "-", "--", "<!--", "-->", "<!DOCTYPE ", "PUBLIC", "SYSTEM",
                "\"", "'", "=", " ", "\n", "\r", "\0", "&", "&amp", "&amp;", "&#", "&#x", "1", "9",
                "a", "b", "B", ";", "?", "[", "]", "<![CDATA[", "]]>", "<svg>", "</svg>", "html",
                "<script>", "</script>", "<title>", "</title>", "<plaintext>", "<style>", "\u{e9}",
                "<a ", "</a ", "<!", "x=", "-->",
            ]), 0..40)
        ) {
            let html = parts.concat();
            prop_assert_eq!(fast(&html), reference(&html), "input {:?}", html);
        }
    }
}

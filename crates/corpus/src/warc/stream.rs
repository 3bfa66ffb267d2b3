//! The byte stream under fastwarc: plain or gzip, with offsets we can report,
//! and the scan that finds the next record after damage.
//!
//! fastwarc's own gzip reader treats a stream cut inside a gzip member as a
//! clean end of file, which would hide a truncated archive. So we decompress
//! ourselves with flate2 (which reports an incomplete member as an error), one
//! gzip member at a time, and remember where each member starts in the file.
//! fastwarc then sees an uncompressed stream, and record offsets it reports
//! (positions in that stream) are mapped back to file offsets here.
//!
//! Under both sits [`Raw`], our own buffer over the file's bytes. It keeps the
//! bytes from the start of the oldest record not yet trusted (at most
//! [`REWIND_LIMIT`]), so that after damage the scan for the next record can
//! start just past the damaged record rather than where the parser gave up (a
//! lying `Content-Length` makes the parser read over the records that follow).
//! When fastwarc drops the stream (on an error, or when the iterator goes), the
//! stream hands its [`Raw`] back through a [`RawSlot`].

use std::any::Any;
use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use fastwarc::stream_io::traits::WarcRead;
use flate2::bufread::GzDecoder;

use crate::decode;

/// How far back (in file bytes) the scan after damage can start: the bytes of
/// the record being read are kept up to this many. Past it, the scan starts
/// where the damage was noticed.
pub(crate) const REWIND_LIMIT: usize = 16 << 20;

/// How many bytes of a candidate gzip member the scan decodes to see whether it
/// starts a WARC record: a member header and the first deflate block's start.
pub(crate) const GZIP_PROBE: usize = 1 << 10;

/// Bytes read from the file at a time.
const CHUNK: usize = 256 << 10;

/// No mark: nothing needs keeping behind the read position.
const NO_MARK: u64 = u64::MAX;

/// The file's bytes, buffered, with their file offsets, keeping what lies
/// after the mark for a rewind.
pub(crate) struct Raw {
    reader: Box<dyn Read + Send>,
    buf: Vec<u8>,
    /// File offset of `buf[0]`.
    base: u64,
    /// Read position in `buf`.
    pos: usize,
    eof: bool,
    /// File offset from which bytes are kept ([`NO_MARK`]: none).
    mark: Arc<AtomicU64>,
    /// Largest the buffer has been, in bytes (for tests of the memory bound).
    peak: usize,
}

impl Raw {
    pub(crate) fn new(reader: Box<dyn Read + Send>, mark: Arc<AtomicU64>) -> Self {
        Raw {
            reader,
            buf: Vec::new(),
            base: 0,
            pos: 0,
            eof: false,
            mark,
            peak: 0,
        }
    }

    /// File offset of the next byte to read.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Largest the buffer has been, in bytes.
    pub(crate) fn peak(&self) -> usize {
        self.peak
    }

    fn set_mark(&self, offset: u64) {
        self.mark.store(offset, Ordering::Relaxed);
    }

    /// Drops what is neither after the mark nor after the read position, once
    /// that is at least half the buffer (so each byte moves O(1) times); stops
    /// keeping after the mark once more than [`REWIND_LIMIT`] is kept.
    fn compact(&mut self) {
        let mark = self.mark.load(Ordering::Relaxed);
        let mut keep = self.pos;
        if mark != NO_MARK && mark >= self.base && mark < self.offset() {
            let at = (mark - self.base) as usize;
            if self.buf.len() - at <= REWIND_LIMIT {
                keep = at;
            }
        }
        if keep > 0 && keep >= self.buf.len() - keep {
            self.buf.drain(..keep);
            self.base += keep as u64;
            self.pos -= keep;
        }
    }

    /// Reads until `want` bytes are available after the read position, or the
    /// file ends.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        while self.buf.len() - self.pos < want && !self.eof {
            self.compact();
            let old = self.buf.len();
            self.buf.resize(old + CHUNK, 0);
            let read = loop {
                match self.reader.read(&mut self.buf[old..]) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => break other,
                }
            };
            let n = match read {
                Ok(n) => n,
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            };
            self.buf.truncate(old + n);
            self.peak = self.peak.max(self.buf.capacity());
            self.eof = n == 0;
        }
        Ok(())
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Moves the read position back to `offset`, or as near it as the kept
    /// bytes allow (never before what has been kept, never forward: [`resync`]
    /// reads forward to an offset not yet reached).
    fn rewind_to(&mut self, offset: u64) {
        let target = offset.clamp(self.base, self.offset());
        self.pos = (target - self.base) as usize;
    }
}

impl Read for Raw {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Raw {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.fill(1)?;
        Ok(self.available())
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.buf.len());
    }
}

/// Where a dropped [`ArchiveStream`] leaves its [`Raw`].
pub(crate) type RawSlot = Arc<Mutex<Option<Raw>>>;

/// Takes the [`Raw`] out of a slot.
pub(crate) fn take_raw(slot: &RawSlot) -> Option<Raw> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Where the next record starts after damage: reading from `from` (or the
/// earliest kept byte after it), the next gzip member whose first decoded
/// bytes are a `WARC/1.0` or `WARC/1.1` line, or (plain) the next such line
/// at a line start. Reads forward only, keeps nothing behind the scan, and
/// tries each candidate once with bounded work, so the scan is linear in the
/// bytes it passes. `None` if the file ends first. The reader is left at the
/// record (member) found.
pub(crate) fn resync(raw: &mut Raw, gzip: bool, from: u64) -> io::Result<Option<u64>> {
    raw.rewind_to(from);
    raw.set_mark(NO_MARK);
    while raw.offset() < from {
        let ahead = usize::try_from(from - raw.offset()).unwrap_or(usize::MAX);
        let n = raw.fill_buf()?.len().min(ahead);
        if n == 0 {
            return Ok(None);
        }
        raw.consume(n);
    }
    let mut probe_member = MemberProbe::new();
    let (pattern, probe): (&[u8], usize) = if gzip {
        (&[0x1f, 0x8b, 0x08], GZIP_PROBE)
    } else {
        (b"\nWARC/1.", 11)
    };
    loop {
        raw.fill(probe.max(CHUNK))?;
        let avail = raw.available();
        if avail.len() < pattern.len() {
            raw.consume(avail.len());
            return Ok(None);
        }
        let hit = avail.windows(pattern.len()).position(|w| w == pattern);
        let Some(i) = hit else {
            let skip = avail.len() + 1 - pattern.len();
            raw.consume(skip);
            continue;
        };
        raw.consume(i);
        raw.fill(probe)?;
        let candidate = raw.available();
        let found = if gzip {
            probe_member.starts_warc(&candidate[..candidate.len().min(probe)])
        } else {
            candidate.len() >= 11
                && matches!(candidate[8], b'0' | b'1')
                && &candidate[9..11] == b"\r\n"
        };
        if found {
            if !gzip {
                raw.consume(1); // the record starts after the newline
            }
            let at = raw.offset();
            raw.set_mark(at);
            return Ok(Some(at));
        }
        raw.consume(1);
    }
}

/// Tells whether bytes begin a gzip member that decodes to a WARC version line, with one
/// inflater reset for each candidate (building a decoder per candidate costs more than the
/// scan itself where the magic bytes are dense).
struct MemberProbe {
    inflate: flate2::Decompress,
}

impl MemberProbe {
    fn new() -> Self {
        MemberProbe {
            inflate: flate2::Decompress::new(false),
        }
    }

    fn starts_warc(&mut self, bytes: &[u8]) -> bool {
        let Some(body) = gzip_body(bytes) else {
            return false;
        };
        if !may_start_with_w(body) {
            return false;
        }
        self.inflate.reset(false);
        let mut head = [0u8; 10];
        let (mut read, mut got) = (0usize, 0usize);
        while got < head.len() {
            let (in0, out0) = (self.inflate.total_in(), self.inflate.total_out());
            // The first byte alone first: garbage is nearly always refused on it.
            let want = if got == 0 { 1 } else { head.len() };
            let status = self.inflate.decompress(
                &body[read..],
                &mut head[got..want],
                flate2::FlushDecompress::None,
            );
            let took = (self.inflate.total_in() - in0) as usize;
            let gave = (self.inflate.total_out() - out0) as usize;
            read += took;
            got += gave;
            if got == 1 && head[0] != b'W' {
                return false;
            }
            match status {
                Err(_) => return false,
                // The member ends before ten bytes, or needs more than the probe holds.
                Ok(flate2::Status::StreamEnd) if got < head.len() => return false,
                Ok(_) if took == 0 && gave == 0 => return false,
                Ok(_) => {}
            }
        }
        &head == b"WARC/1.0\r\n" || &head == b"WARC/1.1\r\n"
    }
}

/// A cheap first look at deflate data (RFC 1951): false when its first block cannot begin
/// with the byte `W` (a reserved block type, a stored block whose length check fails or whose
/// first byte is another, a fixed-Huffman block whose first code is another literal); true
/// for dynamic-Huffman blocks, which only inflating can tell.
fn may_start_with_w(body: &[u8]) -> bool {
    let Some(&first) = body.first() else {
        return false;
    };
    match (first >> 1) & 3 {
        0 => {
            // Stored: LEN, its one's complement, then the bytes themselves.
            let Some(h) = body.get(1..6) else {
                return false;
            };
            let (len, nlen) = (
                u16::from_le_bytes([h[0], h[1]]),
                u16::from_le_bytes([h[2], h[3]]),
            );
            nlen == !len && len > 0 && h[4] == b'W'
        }
        1 => {
            // Fixed Huffman: `W` (87) is the 8-bit code 0x30 + 87, read from bit 3 on,
            // most significant bit first.
            let bit = |i: usize| body.get(i / 8).map(|b| (b >> (i % 8)) & 1);
            let mut code = 0u16;
            for i in 3..11 {
                let Some(b) = bit(i) else { return false };
                code = code << 1 | u16::from(b);
            }
            code == 0x30 + u16::from(b'W')
        }
        2 => true,
        _ => false,
    }
}

/// The deflate data of a gzip member starting at `bytes[0]`: after the 10-byte header and
/// the optional fields its flags announce (RFC 1952); `None` if that is not a gzip header.
fn gzip_body(bytes: &[u8]) -> Option<&[u8]> {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    let flags = *bytes.get(3)?;
    if bytes.get(..3)? != [0x1f, 0x8b, 0x08] || flags & 0xe0 != 0 {
        return None;
    }
    let mut at = 10usize;
    if flags & FEXTRA != 0 {
        let len = bytes.get(at..at + 2)?;
        at += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            at += bytes.get(at..)?.iter().position(|&b| b == 0)? + 1;
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    bytes.get(at..).filter(|b| !b.is_empty())
}

/// What the reader shares with [`super::WarcPages`]: where gzip members start,
/// and where the record being parsed starts, so damage can be located.
#[derive(Debug, Default)]
pub(crate) struct StreamMap {
    gzip: bool,
    /// File offset where this stream starts (0, or where reading resumed).
    base: u64,
    /// `(uncompressed start, file offset)` of each gzip member, in order.
    members: Mutex<Vec<(u64, u64)>>,
    /// Uncompressed bytes consumed by the parser so far.
    position: AtomicU64,
    /// Uncompressed position where the last whole record ended.
    last_end: AtomicU64,
    /// Whether the parser is between records (skipping the blank lines
    /// that end the previous one): the next non-blank byte starts a record.
    between_records: AtomicBool,
    /// The first (up to 4) blank bytes after the last record read whole, packed:
    /// the count in the low byte, the bytes above it.
    separator: AtomicU64,
    /// Uncompressed position of the first byte of the record being parsed.
    record_start: AtomicU64,
    /// File offset of the gzip member that failed to decompress, if any.
    failed_member: Mutex<Option<u64>>,
    /// Whether a record began inside a gzip member rather than at its start.
    shared_member: AtomicBool,
}

/// Packs the blank bytes seen after a record (at most 4).
fn pack(run: &[u8]) -> u64 {
    run.iter()
        .take(4)
        .enumerate()
        .fold(run.len().min(4) as u64, |acc, (i, &b)| {
            acc | u64::from(b) << (8 * (i + 1))
        })
}

fn unpack(packed: u64) -> ([u8; 4], usize) {
    let len = (packed & 0xff) as usize;
    let mut run = [0u8; 4];
    for (i, b) in run.iter_mut().enumerate() {
        *b = (packed >> (8 * (i + 1))) as u8;
    }
    (run, len.min(4))
}

impl StreamMap {
    fn new(gzip: bool, base: u64) -> Self {
        StreamMap {
            gzip,
            base,
            between_records: AtomicBool::new(true),
            separator: AtomicU64::new(pack(b"\r\n\r\n")),
            ..StreamMap::default()
        }
    }

    fn members(&self) -> MutexGuard<'_, Vec<(u64, u64)>> {
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the stream is gzip.
    pub(crate) fn gzip(&self) -> bool {
        self.gzip
    }

    /// Called once a record has been read whole: what follows is the blank
    /// separator, then the next record.
    pub(crate) fn record_done(&self) {
        self.last_end
            .store(self.position.load(Ordering::Relaxed), Ordering::Relaxed);
        self.between_records.store(true, Ordering::Relaxed);
        self.separator.store(pack(b""), Ordering::Relaxed);
    }

    /// Whether the last record read whole was followed by the blank line that
    /// closes a record: `\r\n\r\n` (or `\n\n`), more blank lines allowed
    /// (true before the first record). A `Content-Length` a few bytes too long
    /// takes some of them into the block and fails this.
    pub(crate) fn separator_ok(&self) -> bool {
        let (run, len) = unpack(self.separator.load(Ordering::Relaxed));
        let run = &run[..len];
        run.starts_with(b"\r\n\r\n") || run.starts_with(b"\n\n")
    }

    /// Watches bytes as the parser consumes them, to catch the first byte
    /// of the next record and note the blank bytes before it.
    fn consumed(&self, start: u64, bytes: &[u8]) {
        self.position
            .store(start + bytes.len() as u64, Ordering::Relaxed);
        if !self.between_records.load(Ordering::Relaxed) {
            return;
        }
        let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
        let (mut run, len) = unpack(self.separator.load(Ordering::Relaxed));
        if len < 4 {
            let blank = &bytes[..first.unwrap_or(bytes.len())];
            let more = blank.len().min(4 - len);
            run[len..len + more].copy_from_slice(&blank[..more]);
            self.separator
                .store(pack(&run[..len + more]), Ordering::Relaxed);
        }
        if let Some(i) = first {
            let pos = start + i as u64;
            self.record_start.store(pos, Ordering::Relaxed);
            self.between_records.store(false, Ordering::Relaxed);
            if self.gzip && !self.members().iter().any(|&(s, _)| s == pos) {
                self.shared_member.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether a record was seen to begin inside a gzip member (the file is
    /// not one member per record).
    pub(crate) fn shared_member(&self) -> bool {
        self.shared_member.load(Ordering::Relaxed)
    }

    /// Renders an uncompressed stream position as a file offset: the offset
    /// itself for plain files, the start of the gzip member when the position
    /// starts a member, else `member+inner`.
    pub(crate) fn locate(&self, pos: u64) -> String {
        if !self.gzip {
            return (self.base + pos).to_string();
        }
        let members = self.members();
        let idx = members.partition_point(|&(start, _)| start <= pos);
        match idx.checked_sub(1).and_then(|i| members.get(i)) {
            Some(&(start, file)) if start == pos => file.to_string(),
            Some(&(start, file)) => format!("{file}+{}", pos - start),
            None => pos.to_string(),
        }
    }

    /// The file offset of the unit holding an uncompressed position: the
    /// position itself for plain files, its gzip member's start for gzip.
    pub(crate) fn unit(&self, pos: u64) -> u64 {
        if !self.gzip {
            return self.base + pos;
        }
        let members = self.members();
        let idx = members.partition_point(|&(start, _)| start <= pos);
        idx.checked_sub(1)
            .and_then(|i| members.get(i))
            .map_or(self.base, |&(_, file)| file)
    }

    /// The gzip member that failed to decompress, if one did.
    pub(crate) fn failed_member(&self) -> Option<u64> {
        *self.failed_member.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the parser broke, as `(offset text, file offset of its unit)`:
    /// the gzip member that failed to decompress; else the start of the record
    /// it was parsing; else (nothing but blank lines seen since the last
    /// record) the first gzip member after the last record, or the end of the
    /// last record.
    pub(crate) fn damage(&self) -> (String, u64) {
        if let Some(file) = self.failed_member() {
            return (file.to_string(), file);
        }
        if !self.between_records.load(Ordering::Relaxed) {
            let start = self.record_start.load(Ordering::Relaxed);
            return (self.locate(start), self.unit(start));
        }
        let after = self.last_end.load(Ordering::Relaxed);
        if self.gzip
            && let Some(&(_, file)) = self.members().iter().find(|&&(start, _)| start >= after)
        {
            return (file.to_string(), file);
        }
        (self.locate(after), self.unit(after))
    }
}

enum Input {
    Plain(Option<Raw>),
    Gzip {
        decoder: Option<Box<GzDecoder<Raw>>>,
        /// The file's reader once the decoder is gone (after an error).
        parked: Option<Raw>,
        out: Box<[u8]>,
        pos: usize,
        len: usize,
    },
}

/// The stream handed to fastwarc.
pub(crate) struct ArchiveStream {
    input: Input,
    consumed: u64,
    map: Arc<StreamMap>,
    slot: RawSlot,
}

const BUFFER: usize = 256 << 10;

impl ArchiveStream {
    /// Wraps a reader, detecting gzip by its magic bytes.
    pub(crate) fn new(mut raw: Raw, slot: RawSlot) -> io::Result<(Self, Arc<StreamMap>)> {
        let gzip = decode::is_gzip(raw.fill_buf()?);
        Ok(Self::resume(raw, gzip, slot))
    }

    /// Reads on from where `raw` is (the start of a record, or of a gzip
    /// member when `gzip`).
    pub(crate) fn resume(raw: Raw, gzip: bool, slot: RawSlot) -> (Self, Arc<StreamMap>) {
        let base = raw.offset();
        raw.set_mark(base);
        let map = Arc::new(StreamMap::new(gzip, base));
        let input = if gzip {
            map.members().push((0, base));
            Input::Gzip {
                decoder: Some(Box::new(GzDecoder::new(raw))),
                parked: None,
                out: vec![0; BUFFER].into_boxed_slice(),
                pos: 0,
                len: 0,
            }
        } else {
            Input::Plain(Some(raw))
        };
        let stream = ArchiveStream {
            input,
            consumed: 0,
            map: Arc::clone(&map),
            slot,
        };
        (stream, map)
    }
}

impl Drop for ArchiveStream {
    fn drop(&mut self) {
        let raw = match &mut self.input {
            Input::Plain(raw) => raw.take(),
            Input::Gzip {
                decoder, parked, ..
            } => parked
                .take()
                .or_else(|| decoder.take().map(|d| d.into_inner())),
        };
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = raw;
    }
}

impl BufRead for ArchiveStream {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match &mut self.input {
            Input::Plain(raw) => match raw {
                Some(raw) => raw.fill_buf(),
                None => Ok(&[]),
            },
            Input::Gzip {
                decoder,
                parked,
                out,
                pos,
                len,
            } => {
                if *pos < *len {
                    return Ok(&out[*pos..*len]);
                }
                // One decoder read per call: an error in a later member only
                // surfaces once the parser needs bytes from it, so every
                // record before the damage is still read whole.
                loop {
                    let Some(dec) = decoder.as_mut() else {
                        return Ok(&[]);
                    };
                    match dec.read(out) {
                        Ok(0) => {
                            // End of a member: another one follows unless the file ends here.
                            let Some(dec) = decoder.take() else {
                                return Ok(&[]);
                            };
                            let mut raw = dec.into_inner();
                            let more = raw.fill_buf().map(|b| !b.is_empty());
                            if !matches!(more, Ok(true)) {
                                *parked = Some(raw);
                                return more.map(|_| &[][..]);
                            }
                            self.map.members().push((self.consumed, raw.offset()));
                            *decoder = Some(Box::new(GzDecoder::new(raw)));
                        }
                        Ok(n) => {
                            *pos = 0;
                            *len = n;
                            return Ok(&out[..n]);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            *parked = decoder.take().map(|d| d.into_inner());
                            let member = self.map.members().last().map(|&(_, file)| file);
                            *self
                                .map
                                .failed_member
                                .lock()
                                .unwrap_or_else(|e| e.into_inner()) = member;
                            return Err(io::Error::new(
                                e.kind(),
                                format!("corrupt or truncated gzip member: {e}"),
                            ));
                        }
                    }
                }
            }
        }
    }

    fn consume(&mut self, amt: usize) {
        let amt = match &mut self.input {
            Input::Plain(raw) => {
                let Some(raw) = raw else { return };
                let amt = amt.min(raw.available().len());
                self.map.consumed(self.consumed, &raw.available()[..amt]);
                raw.consume(amt);
                amt
            }
            Input::Gzip { out, pos, len, .. } => {
                let amt = amt.min(*len - *pos);
                self.map.consumed(self.consumed, &out[*pos..*pos + amt]);
                *pos += amt;
                amt
            }
        };
        self.consumed += amt as u64;
    }
}

impl Read for ArchiveStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl Seek for ArchiveStream {
    /// Only telling the position and skipping forward are possible: the
    /// stream may be a pipe or a decompressor.
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let target = match pos {
            SeekFrom::Current(d) if d >= 0 => self.consumed.saturating_add(d as u64),
            SeekFrom::Start(p) if p >= self.consumed => p,
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "cannot seek backwards in a WARC stream",
                ));
            }
        };
        while self.consumed < target {
            let available = self.fill_buf()?.len();
            if available == 0 {
                break;
            }
            let step = available.min(usize::try_from(target - self.consumed).unwrap_or(usize::MAX));
            self.consume(step);
        }
        Ok(self.consumed)
    }
}

impl WarcRead for ArchiveStream {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }

    fn inner_seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.seek(pos)
    }

    fn inner_stream_position(&mut self) -> io::Result<u64> {
        Ok(self.consumed)
    }

    /// Tells fastwarc not to sniff compression again: we already decode.
    fn is_stream_decoder(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn raw(bytes: &[u8]) -> Raw {
        Raw::new(
            Box::new(io::Cursor::new(bytes.to_vec())),
            Arc::new(AtomicU64::new(0)),
        )
    }

    fn member(name: Option<&str>, content: &[u8]) -> Vec<u8> {
        let mut builder = flate2::GzBuilder::new();
        if let Some(name) = name {
            builder = builder.filename(name);
        }
        let mut enc = builder.write(Vec::new(), flate2::Compression::default());
        enc.write_all(content).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn plain_resync_finds_a_version_line_at_a_line_start() {
        // "junk\n" 0..5, a 1.2 line 5..15, a line without CR 15..24, "\n" 24, the record at 25.
        let bytes = b"junk\nWARC/1.2\r\nWARC/1.0\n\nWARC/1.1\r\nrest";
        let mut r = raw(bytes);
        assert_eq!(resync(&mut r, false, 0).unwrap(), Some(25));
        assert_eq!(r.offset(), 25);
        assert_eq!(&r.fill_buf().unwrap()[..8], b"WARC/1.1");
        // Not at a line start, or cut before its CRLF: nothing.
        assert_eq!(resync(&mut raw(b"xWARC/1.0\r\n"), false, 0).unwrap(), None);
        assert_eq!(resync(&mut raw(b"x\nWARC/1.0\r"), false, 0).unwrap(), None);
    }

    #[test]
    fn gzip_resync_finds_a_member_that_starts_a_record() {
        let not_warc = member(None, b"HTTP/1.1 200 OK\r\n\r\n");
        let named = member(Some("r.warc"), b"WARC/1.0\r\nWARC-Type: response\r\n");
        let garbage = b"\x1f\x8b\x08\x00garbage\x1f\x8b";
        let bytes = [&garbage[..], &not_warc, &named].concat();
        let at = (garbage.len() + not_warc.len()) as u64;
        let mut r = raw(&bytes);
        assert_eq!(resync(&mut r, true, 0).unwrap(), Some(at));
        assert_eq!(r.offset(), at);
        assert_eq!(resync(&mut raw(&not_warc), true, 0).unwrap(), None);
        // The scan starts at `from`: the member at 0 is not seen from 1.
        assert_eq!(resync(&mut raw(&named), true, 1).unwrap(), None);
        assert_eq!(resync(&mut raw(&named), true, 0).unwrap(), Some(0));
    }

    #[test]
    fn first_byte_filter_agrees_with_inflating() {
        for level in [0, 1, 6, 9] {
            for content in [
                &b"WARC/1.0\r\n"[..],
                b"WARC/1.1\r\nWARC-Type: x\r\n",
                b"HTTP/1.1",
            ] {
                let mut enc =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(level));
                enc.write_all(content).unwrap();
                let body = enc.finish().unwrap();
                assert_eq!(
                    may_start_with_w(&body),
                    content[0] == b'W' || (body[0] >> 1) & 3 == 2,
                    "level {level}: {content:?}"
                );
            }
        }
        assert!(!may_start_with_w(b"\x06")); // reserved block type
        assert!(!may_start_with_w(b"\x00\x05\x00\x00\x00W")); // NLEN is not !LEN
        assert!(may_start_with_w(b"\x01\x01\x00\xfe\xffW"));
    }

    #[test]
    fn gzip_headers_with_optional_fields() {
        let named = member(Some("a.warc"), b"x");
        assert_eq!(gzip_body(&named).unwrap().len(), named.len() - 10 - 7);
        assert_eq!(gzip_body(b"\x1f\x8b\x08\x08\0\0\0\0\0\0no-nul"), None);
        assert_eq!(gzip_body(b"\x1f\x8b\x08\xe0\0\0\0\0\0\0data"), None);
        assert_eq!(gzip_body(b"\x1f\x8b\x08\x04\0\0\0\0\0\0\xff\xff"), None);
    }
}

//! The byte stream under fastwarc: plain or gzip, with offsets we can report.
//!
//! fastwarc's own gzip reader treats a stream cut inside a gzip member as a
//! clean end of file, which would hide a truncated archive. So we decompress
//! ourselves with flate2 (which reports an incomplete member as an error), one
//! gzip member at a time, and remember where each member starts in the file.
//! fastwarc then sees an uncompressed stream, and record offsets it reports
//! (positions in that stream) are mapped back to file offsets here.

use std::any::Any;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use fastwarc::stream_io::traits::WarcRead;
use flate2::bufread::GzDecoder;

use crate::decode;

/// What the reader shares with [`super::WarcPages`]: where gzip members start,
/// and where the record being parsed starts, so damage can be located.
#[derive(Debug, Default)]
pub(crate) struct StreamMap {
    gzip: bool,
    /// `(uncompressed start, file offset)` of each gzip member, in order.
    members: Mutex<Vec<(u64, u64)>>,
    /// Uncompressed bytes consumed by the parser so far.
    position: AtomicU64,
    /// Uncompressed position where the last whole record ended.
    last_end: AtomicU64,
    /// Whether the parser is between records (skipping the blank lines
    /// that end the previous one): the next non-blank byte starts a record.
    between_records: AtomicBool,
    /// Uncompressed position of the first byte of the record being parsed.
    record_start: AtomicU64,
    /// File offset of the gzip member that failed to decompress, if any.
    failed_member: Mutex<Option<u64>>,
}

impl StreamMap {
    fn new(gzip: bool) -> Self {
        StreamMap {
            gzip,
            between_records: AtomicBool::new(true),
            ..StreamMap::default()
        }
    }

    fn members(&self) -> MutexGuard<'_, Vec<(u64, u64)>> {
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Called once a record has been read whole: what follows is the blank
    /// separator, then the next record.
    pub(crate) fn record_done(&self) {
        self.last_end
            .store(self.position.load(Ordering::Relaxed), Ordering::Relaxed);
        self.between_records.store(true, Ordering::Relaxed);
    }

    /// Watches bytes as the parser consumes them, to catch the first byte
    /// of the next record.
    fn consumed(&self, start: u64, bytes: &[u8]) {
        self.position
            .store(start + bytes.len() as u64, Ordering::Relaxed);
        if self.between_records.load(Ordering::Relaxed)
            && let Some(i) = bytes.iter().position(|b| !b.is_ascii_whitespace())
        {
            self.record_start.store(start + i as u64, Ordering::Relaxed);
            self.between_records.store(false, Ordering::Relaxed);
        }
    }

    /// Renders an uncompressed stream position as a file offset: the offset
    /// itself for plain files, the start of the gzip member when the position
    /// starts a member, else `member+inner`.
    pub(crate) fn locate(&self, pos: u64) -> String {
        if !self.gzip {
            return pos.to_string();
        }
        let members = self.members();
        let idx = members.partition_point(|&(start, _)| start <= pos);
        match idx.checked_sub(1).and_then(|i| members.get(i)) {
            Some(&(start, file)) if start == pos => file.to_string(),
            Some(&(start, file)) => format!("{file}+{}", pos - start),
            None => pos.to_string(),
        }
    }

    /// Where the parser broke: the gzip member that failed to decompress;
    /// else the start of the record it was parsing; else (nothing but blank
    /// lines seen since the last record) the first gzip member after the
    /// last record, or the end of the last record.
    pub(crate) fn damage_offset(&self) -> String {
        if let Some(file) = *self.failed_member.lock().unwrap_or_else(|e| e.into_inner()) {
            return file.to_string();
        }
        if !self.between_records.load(Ordering::Relaxed) {
            return self.locate(self.record_start.load(Ordering::Relaxed));
        }
        let after = self.last_end.load(Ordering::Relaxed);
        if self.gzip
            && let Some(&(_, file)) = self.members().iter().find(|&&(start, _)| start >= after)
        {
            return file.to_string();
        }
        self.locate(after)
    }
}

type Source = BufReader<Box<dyn Read + Send>>;

/// A buffered reader that counts the bytes its consumer takes, so the file
/// offset of each gzip member is known.
struct Counting {
    inner: Source,
    count: u64,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Counting {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
        self.count += amt as u64;
    }
}

enum Input {
    Plain(Source),
    Gzip {
        decoder: Option<GzDecoder<Counting>>,
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
}

const BUFFER: usize = 256 << 10;

impl ArchiveStream {
    /// Wraps a reader, detecting gzip by its magic bytes.
    pub(crate) fn new(reader: Box<dyn Read + Send>) -> io::Result<(Self, Arc<StreamMap>)> {
        let mut source = BufReader::with_capacity(BUFFER, reader);
        let gzip = decode::is_gzip(source.fill_buf()?);
        let map = Arc::new(StreamMap::new(gzip));
        let input = if gzip {
            map.members().push((0, 0));
            Input::Gzip {
                decoder: Some(GzDecoder::new(Counting {
                    inner: source,
                    count: 0,
                })),
                out: vec![0; BUFFER].into_boxed_slice(),
                pos: 0,
                len: 0,
            }
        } else {
            Input::Plain(source)
        };
        let stream = ArchiveStream {
            input,
            consumed: 0,
            map: Arc::clone(&map),
        };
        Ok((stream, map))
    }
}

impl BufRead for ArchiveStream {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match &mut self.input {
            Input::Plain(source) => source.fill_buf(),
            Input::Gzip {
                decoder,
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
                            let mut inner = dec.into_inner();
                            if inner.fill_buf()?.is_empty() {
                                return Ok(&[]);
                            }
                            self.map.members().push((self.consumed, inner.count));
                            *decoder = Some(GzDecoder::new(inner));
                        }
                        Ok(n) => {
                            *pos = 0;
                            *len = n;
                            return Ok(&out[..n]);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            *decoder = None;
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
            Input::Plain(source) => {
                let amt = amt.min(source.buffer().len());
                self.map.consumed(self.consumed, &source.buffer()[..amt]);
                source.consume(amt);
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

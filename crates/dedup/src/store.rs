//! Saving and loading a [`Seen`] index, so that a later run finds duplicates of pages an
//! earlier run kept.
//!
//! The file is binary, little-endian, read and written as a stream (a million kept texts
//! make about 180 MB):
//!
//! ```text
//! magic      8 bytes   "CHAFFDUP"
//! version    u32       FORMAT_VERSION (1); a change of hashing or layout is a new version
//! config     u32 shingle, f64 words, f64 share, f64 most (Config)
//! inserted   u64       texts recorded, kept or not (Seen::len)
//! count      u64       kept texts
//! count ×    u32 key length, key (UTF-8), u32 word count, 64 × u16 slots
//! checksum   u64       FNV-1a of every byte before it
//! ```
//!
//! Only kept texts are stored: a duplicate is never a candidate, so the band tables are
//! rebuilt from the kept signatures exactly as they were. The checksum catches any one
//! changed byte (each FNV-1a step is a bijection of the state for a given byte, so a changed
//! byte leaves a changed state to the end); a shortened file fails on its first missing
//! field, a lengthened one on the bytes after the checksum. Lengths are checked against the
//! file's size before anything is allocated for them, so a damaged file cannot ask for
//! unbounded memory.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use crate::{Config, DedupError, HASHES, Index, Seen, Signature};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"CHAFFDUP";

/// The format version this crate reads and writes.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// Bytes of the header: magic, version, config, inserted, count.
const HEADER: u64 = 8 + 4 + (4 + 8 + 8 + 8) + 8 + 8;

/// Bytes of an entry besides its key.
const ENTRY: u64 = 4 + 4 + 2 * HASHES as u64;

/// FNV-1a, 64-bit, over a stream.
struct Fnv(u64);

impl Fnv {
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A reader that hashes what it reads.
struct Hashing<R> {
    inner: R,
    hash: Fnv,
    read: u64,
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        self.read += n as u64;
        Ok(n)
    }
}

/// A writer that hashes what it writes.
struct Hashed<W> {
    inner: W,
    hash: Fnv,
}

impl<W: Write> Hashed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.inner.write_all(bytes)
    }
}

impl<K: AsRef<str>> Seen<K> {
    /// Writes the kept texts' keys and signatures, and the configuration, to `path`
    /// atomically: to a temporary file in the same folder, then renamed over `path`, so a
    /// reader never sees half a file and a failed save leaves the old one.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), DedupError> {
        let path = path.as_ref();
        let fail = |source: std::io::Error| DedupError::Write {
            path: path.to_path_buf(),
            source,
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let tmp = tempfile::NamedTempFile::new_in(dir).map_err(fail)?;
        let mut out = Hashed {
            inner: BufWriter::new(tmp.as_file()),
            hash: Fnv(0xcbf2_9ce4_8422_2325),
        };
        let write = |out: &mut Hashed<BufWriter<&File>>| -> std::io::Result<()> {
            let c = self.config();
            out.put(MAGIC)?;
            out.put(&FORMAT_VERSION.to_le_bytes())?;
            out.put(&u32::try_from(c.shingle).unwrap_or(u32::MAX).to_le_bytes())?;
            out.put(&c.words.to_le_bytes())?;
            out.put(&c.share.to_le_bytes())?;
            out.put(&c.most.to_le_bytes())?;
            out.put(&(self.len() as u64).to_le_bytes())?;
            out.put(&(self.keys.len() as u64).to_le_bytes())?;
            for (key, sig) in self.keys.iter().zip(self.index.kept_signatures()) {
                let key = key.as_ref().as_bytes();
                let len = u32::try_from(key.len())
                    .map_err(|_| std::io::Error::other("a key is longer than 4 GB"))?;
                out.put(&len.to_le_bytes())?;
                out.put(key)?;
                out.put(&sig.words().to_le_bytes())?;
                let mut slots = [0u8; 2 * HASHES];
                for (b, s) in slots.chunks_exact_mut(2).zip(sig.slots()) {
                    b.copy_from_slice(&s.to_le_bytes());
                }
                out.put(&slots)?;
            }
            let sum = out.hash.0;
            out.inner.write_all(&sum.to_le_bytes())?;
            out.inner.flush()
        };
        write(&mut out).map_err(fail)?;
        drop(out);
        tmp.as_file().sync_all().map_err(fail)?;
        tmp.persist(path).map_err(|e| fail(e.error))?;
        Ok(())
    }
}

impl Seen<String> {
    /// [`Seen::load`] when `path` exists, else nothing seen yet: the index a run starts
    /// from when each run adds to the same file. Any other failure to load is an error.
    pub fn load_or_new(path: impl AsRef<Path>, config: Config) -> Result<Seen<String>, DedupError> {
        match Seen::load(path, config) {
            Err(e) if e.is_not_found() => Ok(Seen::new(config)),
            loaded => loaded,
        }
    }

    /// The index a run keeps, with the default [`Config`]: [`Seen::load_or_new`] of `index`
    /// when given, nothing seen yet when only `dedup` asks for one, none otherwise.
    pub fn for_run(dedup: bool, index: Option<&Path>) -> Result<Option<Seen<String>>, DedupError> {
        match index {
            Some(path) => Seen::load_or_new(path, Config::default()).map(Some),
            None => Ok(dedup.then(|| Seen::new(Config::default()))),
        }
    }

    /// Loads an index written by [`Seen::save`], to go on recording texts after those of
    /// the earlier runs. A missing file is an error ([`DedupError::is_not_found`] tells it
    /// apart); so is a file written with a configuration other than `config` (its
    /// signatures would not compare), of another format version, truncated or damaged.
    pub fn load(path: impl AsRef<Path>, config: Config) -> Result<Seen<String>, DedupError> {
        let path = path.as_ref();
        let read_err = |source: std::io::Error| DedupError::Read {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(read_err)?;
        let size = file.metadata().map_err(read_err)?.len();
        let mut r = Reader {
            inner: Hashing {
                inner: BufReader::new(file),
                hash: Fnv(0xcbf2_9ce4_8422_2325),
                read: 0,
            },
            path: path.to_path_buf(),
        };
        let mut magic = [0u8; 8];
        let got = r.fill(&mut magic)?;
        if got == 0 || magic[..got] != MAGIC[..got] {
            return Err(DedupError::NotAnIndex {
                path: path.to_path_buf(),
            });
        }
        if got < MAGIC.len() {
            return Err(r.truncated());
        }
        let version = r.u32()?;
        if version != FORMAT_VERSION {
            return Err(DedupError::Version {
                path: path.to_path_buf(),
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let found = Config {
            shingle: r.u32()? as usize,
            words: r.f64()?,
            share: r.f64()?,
            most: r.f64()?,
        };
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        // Told only once the checksum shows the file intact: a damaged header is damage.
        let other_config = found.shingle != config.shingle
            || !same(found.words, config.words)
            || !same(found.share, config.share)
            || !same(found.most, config.most);
        let inserted = r.u64()?;
        let count = r.u64()?;
        // Every entry needs at least ENTRY bytes, and the checksum follows them.
        let room = size.saturating_sub(HEADER + 8);
        if count > room / ENTRY {
            return Err(r.truncated());
        }
        let count = count as usize;
        let room = if other_config { 0 } else { count };
        let mut seen = Seen {
            index: Index::with_capacity(config, room),
            keys: Vec::with_capacity(room),
        };
        for _ in 0..count {
            let len = u64::from(r.u32()?);
            if len > size.saturating_sub(r.inner.read) {
                return Err(r.truncated());
            }
            let mut key = vec![0u8; len as usize];
            r.exact(&mut key)?;
            let key = String::from_utf8(key).map_err(|_| r.corrupt("a key is not UTF-8"))?;
            let words = r.u32()?;
            let mut bytes = [0u8; 2 * HASHES];
            r.exact(&mut bytes)?;
            let mut slots = [0u16; HASHES];
            for (s, b) in slots.iter_mut().zip(bytes.chunks_exact(2)) {
                *s = u16::from_le_bytes([b[0], b[1]]);
            }
            if other_config {
                continue;
            }
            let id = seen.index.len() as u64;
            seen.index.set_inserted(id + 1);
            if seen
                .index
                .keep(id, Signature::from_parts(slots, words))
                .is_some()
            {
                seen.keys.push(key);
            }
        }
        let expected = r.inner.hash.0;
        let mut sum = [0u8; 8];
        r.exact(&mut sum)?;
        if u64::from_le_bytes(sum) != expected {
            return Err(r.corrupt("its checksum does not match its content"));
        }
        let mut extra = [0u8; 1];
        if r.fill(&mut extra)? != 0 {
            return Err(r.corrupt("there are bytes after its checksum"));
        }
        if other_config {
            return Err(DedupError::Config {
                path: path.to_path_buf(),
                found: found.to_string(),
                wanted: config.to_string(),
            });
        }
        seen.index.set_inserted(inserted);
        Ok(seen)
    }
}

/// Reads fields of a file, turning an early end into [`DedupError::Truncated`].
struct Reader {
    inner: Hashing<BufReader<File>>,
    path: PathBuf,
}

impl Reader {
    fn truncated(&self) -> DedupError {
        DedupError::Truncated {
            path: self.path.clone(),
        }
    }

    fn corrupt(&self, what: &'static str) -> DedupError {
        DedupError::Corrupt {
            path: self.path.clone(),
            what,
        }
    }

    /// Reads as much of `buf` as the file holds; returns how much.
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, DedupError> {
        let mut got = 0;
        while got < buf.len() {
            match self.inner.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(DedupError::Read {
                        path: self.path.clone(),
                        source,
                    });
                }
            }
        }
        Ok(got)
    }

    fn exact(&mut self, buf: &mut [u8]) -> Result<(), DedupError> {
        if self.fill(buf)? < buf.len() {
            return Err(self.truncated());
        }
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, DedupError> {
        let mut b = [0u8; 4];
        self.exact(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, DedupError> {
        let mut b = [0u8; 8];
        self.exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn f64(&mut self) -> Result<f64, DedupError> {
        Ok(f64::from_bits(self.u64()?))
    }
}

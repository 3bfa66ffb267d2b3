//! The crawl journal: an append-only text log that makes a crawl resumable.
//!
//! One line per event, tab-separated, written after the WARC records it refers to:
//!
//! ```text
//! chaff-crawl-journal 1
//! E  kind depth hops url       a URL entered the frontier (kind p page, s sitemap, f feed)
//! F  json                      a feed item for a page (FeedItem as JSON)
//! D  end counted url           a URL left the frontier; the WARC was `end` bytes long after
//!                              its records; `counted` 1 when it counts against the page limit
//! W  end                       records not tied to a frontier URL (warcinfo, robots.txt)
//! ```
//!
//! Replaying the journal gives the seen set (every `E`), the frontier (every `E` without
//! its `D`, in order), the pages fetched per host, pending feed items and the WARC length
//! of the last completed write. A line without its newline (a crawl killed while writing)
//! is ignored and cut off; so is the WARC beyond the last recorded length, so records
//! written after the last journal line are refetched, not duplicated.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

use crate::sources::FeedItem;
use crate::urls::url_hash;

/// The first line of every journal.
pub const MAGIC: &str = "chaff-crawl-journal 1";

/// What a frontier URL is fetched as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An HTML page: stored, links followed.
    Page,
    /// A sitemap: its locations become seeds.
    Sitemap,
    /// An RSS or Atom feed: its items' links become seeds, the items are kept.
    Feed,
}

impl Kind {
    fn code(self) -> char {
        match self {
            Kind::Page => 'p',
            Kind::Sitemap => 's',
            Kind::Feed => 'f',
        }
    }

    fn from_code(code: &str) -> Option<Kind> {
        match code {
            "p" => Some(Kind::Page),
            "s" => Some(Kind::Sitemap),
            "f" => Some(Kind::Feed),
            _ => None,
        }
    }
}

/// A URL waiting in the frontier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The normalised URL (stored once, here).
    pub url: Box<str>,
    /// What it is fetched as.
    pub kind: Kind,
    /// Links followed from a seed to reach it.
    pub depth: u16,
    /// Redirects followed to reach it.
    pub hops: u8,
    /// Failed attempts so far (not journaled: a resumed crawl tries afresh).
    pub attempts: u8,
}

/// Writes journal lines; each [`Journal::commit`] is one `write` of whole lines.
#[derive(Debug)]
pub struct Journal {
    file: File,
    buf: Vec<u8>,
}

impl Journal {
    /// Starts a new journal (truncating any old one).
    pub fn create(path: &Path) -> io::Result<Self> {
        let mut file = File::create(path)?;
        file.write_all(format!("{MAGIC}\n").as_bytes())?;
        Ok(Journal {
            file,
            buf: Vec::new(),
        })
    }

    /// Reopens a journal for appending after `valid_len` bytes (what [`replay`] accepted).
    pub fn append(path: &Path, valid_len: u64) -> io::Result<Self> {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.set_len(valid_len)?;
        let mut file = file;
        use std::io::Seek;
        file.seek(io::SeekFrom::End(0))?;
        Ok(Journal {
            file,
            buf: Vec::new(),
        })
    }

    /// Queues an `E` line.
    pub fn enqueued(&mut self, e: &Entry) {
        let _ = writeln!(
            self.buf,
            "E\t{}\t{}\t{}\t{}",
            e.kind.code(),
            e.depth,
            e.hops,
            e.url
        );
    }

    /// Queues an `F` line.
    pub fn feed_item(&mut self, item: &FeedItem) {
        if let Ok(json) = serde_json::to_string(item) {
            let _ = writeln!(self.buf, "F\t{json}");
        }
    }

    /// Queues a `D` line.
    pub fn done(&mut self, url: &str, warc_end: u64, counted: bool) {
        let _ = writeln!(self.buf, "D\t{warc_end}\t{}\t{url}", u8::from(counted));
    }

    /// Queues a `W` line.
    pub fn warc_written(&mut self, warc_end: u64) {
        let _ = writeln!(self.buf, "W\t{warc_end}");
    }

    /// Writes the queued lines.
    pub fn commit(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.file.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Commits and asks the OS to put the journal on disk.
    pub fn sync(&mut self) -> io::Result<()> {
        self.commit()?;
        self.file.sync_data()
    }
}

/// What a journal says about an interrupted crawl.
#[derive(Debug, Default)]
pub struct Replay {
    /// Hashes of every URL ever enqueued.
    pub seen: Vec<u64>,
    /// URLs enqueued and not done, in the order they were enqueued.
    pub pending: Vec<Entry>,
    /// Page URLs enqueued at depth 0 (seeds, sitemap and feed pages): their scopes are the
    /// crawl's.
    pub seed_pages: Vec<String>,
    /// Counted fetches per host key.
    pub counted_per_host: HashMap<String, u64>,
    /// Counted fetches in all.
    pub counted: u64,
    /// Feed items whose page is not done, by URL hash.
    pub feed_items: HashMap<u64, FeedItem>,
    /// The WARC's length after the last recorded write.
    pub warc_len: u64,
    /// Bytes of the journal that hold whole, valid lines.
    pub valid_len: u64,
}

/// Reads a journal. Stops at the first line that is cut off or malformed (everything
/// after it is treated as never written).
pub fn replay(path: &Path) -> io::Result<Replay> {
    let mut reader = BufReader::new(File::open(path)?);
    let mut line = String::new();
    let mut out = Replay::default();
    let n = reader.read_line(&mut line)?;
    if line.trim_end() != MAGIC {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not a chaff crawl journal", path.display()),
        ));
    }
    out.valid_len = n as u64;
    // Pending entries by URL hash -> index into `slots`; done ones become None.
    let mut slots: Vec<Option<Entry>> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        let body = line.trim_end_matches('\n');
        let mut fields = body.splitn(5, '\t');
        let ok = match fields.next() {
            Some("E") => {
                let kind = fields.next().and_then(Kind::from_code);
                let depth = fields.next().and_then(|d| d.parse().ok());
                let hops = fields.next().and_then(|h| h.parse().ok());
                let url = fields.next();
                match (kind, depth, hops, url) {
                    (Some(kind), Some(depth), Some(hops), Some(url)) => {
                        let h = url_hash(url);
                        out.seen.push(h);
                        if depth == 0 && kind == Kind::Page {
                            out.seed_pages.push(url.to_string());
                        }
                        index.insert(h, slots.len());
                        slots.push(Some(Entry {
                            url: url.into(),
                            kind,
                            depth,
                            hops,
                            attempts: 0,
                        }));
                        true
                    }
                    _ => false,
                }
            }
            Some("F") => match body.get(2..).map(serde_json::from_str::<FeedItem>) {
                Some(Ok(item)) => {
                    out.feed_items.insert(url_hash(&item.link), item);
                    true
                }
                _ => false,
            },
            Some("D") => {
                let end = fields.next().and_then(|e| e.parse::<u64>().ok());
                let counted = fields.next();
                // The URL may itself hold no tab (normalised URLs percent-encode them).
                let url = fields.next();
                match (end, counted, url) {
                    (Some(end), Some(counted), Some(url)) => {
                        out.warc_len = out.warc_len.max(end);
                        let h = url_hash(url);
                        if let Some(slot) = index.remove(&h).and_then(|i| slots.get_mut(i)) {
                            *slot = None;
                        }
                        out.feed_items.remove(&h);
                        if counted == "1" {
                            out.counted += 1;
                            if let Ok(u) = url::Url::parse(url) {
                                *out.counted_per_host
                                    .entry(crate::urls::host_key(&u))
                                    .or_default() += 1;
                            }
                        }
                        true
                    }
                    _ => false,
                }
            }
            Some("W") => match fields.next().and_then(|e| e.parse::<u64>().ok()) {
                Some(end) => {
                    out.warc_len = out.warc_len.max(end);
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !ok {
            break;
        }
        out.valid_len += n as u64;
    }
    out.pending = slots.into_iter().flatten().collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(url: &str, kind: Kind) -> Entry {
        Entry {
            url: url.into(),
            kind,
            depth: 1,
            hops: 0,
            attempts: 0,
        }
    }

    #[test]
    fn replays_and_cuts_partial_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let mut j = Journal::create(&path).unwrap();
        j.warc_written(100);
        j.enqueued(&entry("http://a/1", Kind::Page));
        j.enqueued(&entry("http://a/2", Kind::Page));
        j.enqueued(&entry("http://b/s.xml", Kind::Sitemap));
        j.feed_item(&FeedItem {
            title: Some("t".into()),
            description: None,
            link: "http://a/2".into(),
            feed: "http://a/rss".into(),
        });
        j.done("http://a/1", 250, true);
        j.commit().unwrap();
        let whole = std::fs::metadata(&path).unwrap().len();
        // A line cut by a kill.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"D\t999\t1\thttp://a/")
            .unwrap();
        let r = replay(&path).unwrap();
        assert_eq!(r.valid_len, whole);
        assert_eq!(r.warc_len, 250);
        assert_eq!(r.seen.len(), 3);
        let pending: Vec<_> = r.pending.iter().map(|e| &*e.url).collect();
        assert_eq!(pending, ["http://a/2", "http://b/s.xml"]);
        assert_eq!(r.pending[1].kind, Kind::Sitemap);
        assert_eq!(r.counted, 1);
        assert_eq!(r.counted_per_host.get("a"), Some(&1));
        assert_eq!(r.feed_items.len(), 1);

        // Appending after the valid part drops the cut line.
        let mut j = Journal::append(&path, r.valid_len).unwrap();
        j.done("http://a/2", 300, true);
        j.commit().unwrap();
        let r = replay(&path).unwrap();
        assert_eq!(r.pending.len(), 1);
        assert_eq!(r.warc_len, 300);
        assert!(r.feed_items.is_empty());
    }

    #[test]
    fn refuses_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        std::fs::write(&path, "hello\n").unwrap();
        assert!(replay(&path).is_err());
    }
}

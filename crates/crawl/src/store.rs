//! The crawl's output: the WARC file and its journal, kept consistent.
//!
//! Every group of records (a page's response, request and feed metadata) is built in
//! memory, each record its own gzip member, and written with one `write` call; the journal
//! line naming the WARC's new length follows. A crawl killed at any point therefore leaves
//! a WARC whose complete members are all readable, and on `--resume` the WARC is cut back
//! to the length the journal last recorded, so a group written but not journaled is
//! dropped and refetched rather than stored twice.
//!
//! A killed process loses nothing the kernel already holds, so `write` is enough against
//! `kill -9`; against power loss the file is also `fsync`ed every few seconds and at the end.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chaff_corpus::warc::{RecordSpec, WarcCompression, WarcWriter};

use crate::journal::{self, Journal, Replay};

/// How often the WARC and the journal are `fsync`ed.
const SYNC_EVERY: Duration = Duration::from_secs(5);

/// The WARC file and its journal.
#[derive(Debug)]
pub struct Store {
    warc: File,
    warc_len: u64,
    /// The journal: lines are queued on it and committed with each WARC write.
    pub journal: Journal,
    last_sync: Instant,
}

/// Records of one fetch, ready to write.
#[derive(Debug)]
pub struct Exchange<'a> {
    /// The URL fetched.
    pub url: &'a str,
    /// The HTTP request message.
    pub request: &'a [u8],
    /// The HTTP response message.
    pub response: &'a [u8],
    /// A feed item for the page, written as a `metadata` record (JSON).
    pub feed_item: Option<&'a crate::sources::FeedItem>,
}

impl Store {
    /// Starts a new crawl: a new WARC with a `warcinfo` record, a new journal.
    pub fn create(warc_path: &Path, journal_path: &Path, software: &str) -> io::Result<Self> {
        let warc = File::create(warc_path)?;
        let journal = Journal::create(journal_path)?;
        let mut store = Store {
            warc,
            warc_len: 0,
            journal,
            last_sync: Instant::now(),
        };
        let mut w = WarcWriter::starting_at(Vec::new(), WarcCompression::Gzip, 0);
        let name = warc_path.file_name().and_then(|n| n.to_str());
        w.write_warcinfo(
            name,
            &[
                ("software", software),
                ("format", "WARC File Format 1.1"),
                ("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"),
            ],
        )?;
        let bytes = w.into_inner()?;
        store.write_bytes(&bytes)?;
        store.journal.warc_written(store.warc_len);
        store.journal.commit()?;
        Ok(store)
    }

    /// Reopens an interrupted crawl: replays the journal, cuts the WARC back to the last
    /// recorded length and the journal to its last whole line.
    pub fn resume(warc_path: &Path, journal_path: &Path) -> io::Result<(Self, Replay)> {
        let replay = journal::replay(journal_path)?;
        let mut warc = OpenOptions::new().write(true).open(warc_path)?;
        let actual = warc.metadata()?.len();
        if actual < replay.warc_len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} holds {actual} bytes but its journal recorded {}: not the WARC of this journal",
                    warc_path.display(),
                    replay.warc_len
                ),
            ));
        }
        warc.set_len(replay.warc_len)?;
        warc.seek(io::SeekFrom::End(0))?;
        let journal = Journal::append(journal_path, replay.valid_len)?;
        let store = Store {
            warc,
            warc_len: replay.warc_len,
            journal,
            last_sync: Instant::now(),
        };
        Ok((store, replay))
    }

    /// The WARC's length.
    pub fn warc_len(&self) -> u64 {
        self.warc_len
    }

    /// Writes a fetch's records (response, request, feed metadata) as one write. Returns
    /// the WARC's new length. The caller queues the journal line and commits.
    pub fn write_exchange(&mut self, ex: &Exchange<'_>) -> io::Result<u64> {
        let mut w = WarcWriter::starting_at(Vec::new(), WarcCompression::Gzip, self.warc_len);
        let response = w.write_response(ex.url, ex.response)?;
        w.write_request(ex.url, ex.request, Some(&response.record_id))?;
        if let Some(item) = ex.feed_item {
            let json = serde_json::to_vec(item).map_err(io::Error::other)?;
            let spec = RecordSpec::new("metadata", &json)
                .with_target_uri(ex.url)
                .with_content_type("application/json")
                .with_header("WARC-Concurrent-To", response.record_id.clone());
            w.write_record(&spec)?;
        }
        let bytes = w.into_inner()?;
        self.write_bytes(&bytes)?;
        Ok(self.warc_len)
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.warc.write_all(bytes)?;
        self.warc_len += bytes.len() as u64;
        Ok(())
    }

    /// Commits the journal, and `fsync`s both files when the last sync is old enough.
    pub fn commit(&mut self) -> io::Result<()> {
        self.journal.commit()?;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Puts both files on disk.
    pub fn sync(&mut self) -> io::Result<()> {
        self.warc.sync_data()?;
        self.journal.sync()?;
        self.last_sync = Instant::now();
        Ok(())
    }
}

/// The journal's path for a WARC path: `crawl.warc.gz` → `crawl.warc.gz.journal`.
pub fn journal_path_for(warc_path: &Path) -> PathBuf {
    let mut name = warc_path.as_os_str().to_os_string();
    name.push(".journal");
    PathBuf::from(name)
}

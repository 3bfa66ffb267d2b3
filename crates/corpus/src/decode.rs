//! Size-capped reading and decompression.
//!
//! Every byte that enters the crate goes through [`read_capped`], so a huge
//! file, an endless stream or a gzip bomb costs at most `cap + 1` bytes of
//! memory: decompression stops as soon as the output passes the cap.

use std::io::{self, Read};

/// The two bytes every gzip member starts with.
pub(crate) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `bytes` starts like a gzip stream.
pub(crate) fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP_MAGIC)
}

/// Reads `reader` to its end, or gives `None` as soon as more than `cap`
/// bytes have come out (the rest is not read).
pub(crate) fn read_capped<R: Read>(reader: R, cap: u64) -> io::Result<Option<Vec<u8>>> {
    read_capped_sized(reader, cap, 0)
}

/// [`read_capped`] into a buffer sized for `expected` bytes (a file's length; at most
/// `cap` and 256 MiB), so that a page is not copied each time the buffer grows.
pub(crate) fn read_capped_sized<R: Read>(
    reader: R,
    cap: u64,
    expected: u64,
) -> io::Result<Option<Vec<u8>>> {
    // A length the file system states is not trusted beyond a quarter of a gigabyte (a
    // sparse file, a file that shrinks): past that the buffer grows as bytes come.
    let first = usize::try_from(expected.min(cap).min(1 << 28)).map_or(0, |n| n + 1);
    let mut out = Vec::with_capacity(first);
    let mut reader = reader.take(cap);
    // The buffer grows by doubling up to the cap, and is filled between growths by a
    // `read_to_end` of no more than its room: one that fills the buffer it started with
    // probes for the end before growing it. Left to grow by itself, `read_to_end` doubled a
    // full buffer before it learned that the stream had ended, so a stream that filled a
    // 64 MiB cap grew its buffer to 128 MiB (a gzip bomb refused at the cap peaked at
    // 154 MB). Whether more follows the cap is asked of one byte apart.
    let most = usize::try_from(cap).unwrap_or(usize::MAX);
    loop {
        let room = out.capacity() - out.len();
        if room == 0 {
            let grown = out
                .capacity()
                .saturating_mul(2)
                .clamp(8 << 10, most.max(8 << 10));
            if grown <= out.capacity() {
                break;
            }
            out.reserve_exact(grown - out.len());
            continue;
        }
        let got = (&mut reader).take(room as u64).read_to_end(&mut out)?;
        if got < room {
            break;
        }
    }
    if out.len() as u64 == cap && more_follows(reader.into_inner())? {
        return Ok(None);
    }
    Ok(Some(out))
}

/// Whether `reader` has at least one more byte.
fn more_follows<R: Read>(mut reader: R) -> io::Result<bool> {
    let mut one = [0u8; 1];
    loop {
        match reader.read(&mut one) {
            Ok(n) => return Ok(n > 0),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Decompresses a (possibly multi-member) gzip byte string, capped.
pub(crate) fn gunzip_capped(bytes: &[u8], cap: u64) -> io::Result<Option<Vec<u8>>> {
    read_capped(flate2::read::MultiGzDecoder::new(bytes), cap)
}

/// Decompresses an HTTP `deflate` body, capped.
///
/// The HTTP name means a zlib stream, but some servers send raw deflate, so a
/// body without a valid zlib header is tried as raw deflate.
pub(crate) fn inflate_capped(bytes: &[u8], cap: u64) -> io::Result<Option<Vec<u8>>> {
    if has_zlib_header(bytes) {
        read_capped(flate2::read::ZlibDecoder::new(bytes), cap)
    } else {
        read_capped(flate2::read::DeflateDecoder::new(bytes), cap)
    }
}

/// Decompresses a brotli body, capped.
pub(crate) fn brotli_capped(bytes: &[u8], cap: u64) -> io::Result<Option<Vec<u8>>> {
    read_capped(brotli_decompressor::Decompressor::new(bytes, 4096), cap)
}

/// A zlib header: compression method 8 with a window of at most 32 KiB, and
/// a check value making the first two bytes a multiple of 31.
fn has_zlib_header(bytes: &[u8]) -> bool {
    match bytes {
        [cmf, flg, ..] => {
            cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) * 256 + u16::from(*flg)) % 31 == 0
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::{GzEncoder, ZlibEncoder};
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn cap_is_inclusive() {
        assert_eq!(read_capped(&b"abc"[..], 3).unwrap(), Some(b"abc".to_vec()));
        assert_eq!(read_capped(&b"abcd"[..], 3).unwrap(), None);
        assert_eq!(read_capped(&b""[..], 0).unwrap(), Some(Vec::new()));
        // A wrong expected length changes nothing but the first allocation.
        for expected in [0, 2, 3, 10, u64::MAX] {
            let got = read_capped_sized(&b"abc"[..], 3, expected).unwrap();
            assert_eq!(got, Some(b"abc".to_vec()), "{expected}");
            assert_eq!(read_capped_sized(&b"abcd"[..], 3, expected).unwrap(), None);
        }
    }

    #[test]
    fn multi_member_gzip() {
        let mut two = gz(b"hello ");
        two.extend(gz(b"world"));
        assert_eq!(
            gunzip_capped(&two, 100).unwrap(),
            Some(b"hello world".to_vec())
        );
    }

    #[test]
    fn gzip_bomb_stops_at_cap() {
        let bomb = gz(&vec![0u8; 8 << 20]);
        assert!(bomb.len() < 64 << 10);
        assert_eq!(gunzip_capped(&bomb, 1 << 20).unwrap(), None);
    }

    /// A reader that hands out at most `step` bytes a call and is interrupted every third
    /// call, as a pipe or a decompressor may.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
        calls: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.calls.is_multiple_of(3) {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = self.step.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    proptest::proptest! {
        /// Against the rule itself: the bytes when there are at most `cap` of them, else
        /// nothing, whatever the expected length and however the reader hands them out.
        #[test]
        fn the_bytes_up_to_the_cap_or_none(
            len in 0usize..20_000,
            cap in 0u64..20_000,
            expected in 0u64..25_000,
            step in 1usize..5_000,
        ) {
            let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let reader = Trickle { data: &data, step, calls: 0 };
            let got = read_capped_sized(reader, cap, expected).unwrap();
            proptest::prop_assert_eq!(got, (len as u64 <= cap).then(|| data.clone()));
        }
    }

    /// A stream that fills the cap leaves a buffer no larger than it, refused or not.
    #[test]
    fn the_buffer_stops_at_the_cap() {
        let cap = 100_000;
        let data = vec![7u8; cap];
        let got = read_capped(&data[..], cap as u64).unwrap().unwrap();
        assert_eq!(got.len(), cap);
        assert!(got.capacity() <= cap, "{}", got.capacity());
        let bomb = gz(&vec![0u8; 4 << 20]);
        assert_eq!(gunzip_capped(&bomb, 1 << 20).unwrap(), None);
    }

    #[test]
    fn truncated_gzip_is_an_error() {
        let data = gz(&(0..5000u32)
            .flat_map(|i| i.to_le_bytes())
            .collect::<Vec<_>>());
        assert!(gunzip_capped(&data[..data.len() / 2], 1 << 20).is_err());
    }

    #[test]
    fn zlib_and_raw_deflate() {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(b"<p>zlib</p>").unwrap();
        let z = z.finish().unwrap();
        assert_eq!(
            inflate_capped(&z, 100).unwrap(),
            Some(b"<p>zlib</p>".to_vec())
        );
        let mut r = flate2::write::DeflateEncoder::new(Vec::new(), Compression::default());
        r.write_all(b"<p>raw</p>").unwrap();
        let r = r.finish().unwrap();
        assert_eq!(
            inflate_capped(&r, 100).unwrap(),
            Some(b"<p>raw</p>".to_vec())
        );
    }
}

//! A 70 MB body is refused with 413 without the server's memory growing by more than 10 MB,
//! whether its length is declared or it streams in chunks. Its own test binary, so that no
//! other test's allocations count; the client writes the body from one small buffer.

mod common;

use chaff_server::Config;
use common::*;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

const BODY: usize = 70_000_000;
const CHUNK: usize = 64 * 1024;

/// Sends a 70 MB body (declared, or chunked), stopping when the server stops reading.
async fn send_big(addr: std::net::SocketAddr, chunked: bool) -> Answer {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let framing = if chunked {
        "Transfer-Encoding: chunked".to_string()
    } else {
        format!("Content-Length: {BODY}")
    };
    let head = format!(
        "POST /v1/extract HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/html\r\n{framing}\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.expect("head");
    let block = vec![b'x'; CHUNK];
    let size_line = format!("{CHUNK:x}\r\n");
    let mut sent = 0;
    while sent < BODY {
        let r = if chunked {
            let mut piece = size_line.clone().into_bytes();
            piece.extend_from_slice(&block);
            piece.extend_from_slice(b"\r\n");
            s.write_all(&piece).await
        } else {
            s.write_all(&block).await
        };
        if r.is_err() {
            break;
        }
        sent += CHUNK;
    }
    if chunked {
        let _ = s.write_all(b"0\r\n\r\n").await;
    }
    let _ = s.shutdown().await;
    read_answer(&mut s).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_70_mb_body_gets_413_and_memory_stays_flat() {
    let srv = start(Config::default()).await;
    // Warm up: one extraction, so that models and buffers are in place before measuring.
    let page = news_page(
        "Warm",
        "A first page to load the models before anything is measured here.",
    );
    let a = request(
        srv.addr,
        "POST",
        "/v1/extract",
        Some("text/html"),
        page.as_bytes(),
    )
    .await;
    assert_eq!(a.status, 200);
    for chunked in [false, true] {
        // Reset the peak (VmHWM) to the resident size now, so that the peak read after is
        // the most this process held while refusing the body.
        std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak resident size");
        let (rss0, _) = memory_kib();
        let a = send_big(srv.addr, chunked).await;
        assert_eq!(a.status, 413, "chunked {chunked}: {}", a.text());
        let (rss1, peak) = memory_kib();
        let grew = peak.saturating_sub(rss0);
        eprintln!(
            "memory ({}): resident {rss0} -> {rss1} KiB, peak {peak} KiB (grew {grew} KiB)",
            if chunked {
                "chunked"
            } else {
                "declared length"
            }
        );
        assert!(
            grew <= 10_000,
            "the peak grew by {grew} KiB refusing a 70 MB body"
        );
    }
    srv.shutdown().await.expect("shuts down");
}

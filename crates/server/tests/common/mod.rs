//! What the server's tests share: a server on an ephemeral loopback port, and a small
//! HTTP/1.1 client over a raw socket (so that tests can send bodies slowly, in chunks, or
//! much larger than the server takes, without buffering them).

#![allow(dead_code)]

use std::net::SocketAddr;

use chaff_server::{Config, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A running server.
pub struct Running {
    pub addr: SocketAddr,
    pub stop: Option<oneshot::Sender<()>>,
    pub task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Asks for a graceful shutdown and waits for it.
    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.task.await.expect("server task")
    }
}

/// Starts a server with `config` on 127.0.0.1, port chosen by the system.
pub async fn start(config: Config) -> Running {
    let server = Server::new(config).expect("server set up");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve(listener, async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        stop: Some(stop),
        task,
    }
}

/// An answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> Answer {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(ct) = content_type {
        head.push_str(&format!("Content-Type: {ct}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await.expect("write head");
    s.write_all(body).await.expect("write body");
    read_answer(&mut s).await
}

pub async fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, None, b"").await
}

pub async fn post_json(addr: SocketAddr, path: &str, v: &serde_json::Value) -> Answer {
    request(
        addr,
        "POST",
        path,
        Some("application/json"),
        v.to_string().as_bytes(),
    )
    .await
}

/// Reads an answer to the end of the connection.
pub async fn read_answer(s: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.expect("read answer");
    parse_answer(&raw)
}

pub fn parse_answer(raw: &[u8]) -> Answer {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        out.extend_from_slice(&b[start..start + size]);
        b = &b[start + size + 2..];
    }
    out
}

/// A news page of `example.org` with a navigation bar, an article and a footer.
pub fn news_page(title: &str, words: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>{title} - Example News</title></head><body>\
         <nav><a href=/>Home</a> <a href=/world>World</a> <a href=/sport>Sport</a> <a href=/weather>Weather</a></nav>\
         <main><article><h1>{title}</h1><p>{words}</p>\
         <p>The council will meet again next month to hear what residents have to say about it, \
         and a report is expected before the end of the year.</p></article></main>\
         <footer>Copyright Example News, all rights reserved. Contact us. Privacy policy.</footer></body></html>"
    )
}

/// Pages of one site to learn from.
pub fn news_pages() -> Vec<(String, String)> {
    [
        (
            "Rain",
            "Heavy rain flooded the market square and shops closed early on Friday.",
        ),
        (
            "Choir",
            "A local choir won the regional contest with a hymn nobody had heard before.",
        ),
        (
            "Herons",
            "Scientists counted more herons on the river this spring than ever before.",
        ),
        (
            "Museum",
            "The museum reopened its east wing after a decade of careful restoration work.",
        ),
        (
            "Bridge",
            "Engineers found cracks in two arches of the old bridge during an inspection.",
        ),
        (
            "Market",
            "The farmers' market will move to the station car park for the summer months.",
        ),
    ]
    .iter()
    .map(|(t, w)| {
        (
            format!("https://news.example.org/{}", t.to_lowercase()),
            news_page(t, w),
        )
    })
    .collect()
}

/// This process's resident memory (`VmRSS`) and its peak (`VmHWM`), in KiB.
pub fn memory_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

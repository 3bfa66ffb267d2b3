//! A small HTTP/1.1 server on 127.0.0.1 for the crawler's tests and benchmarks.
//!
//! It serves whatever a handler returns for a path, keeps connections alive, and records
//! every request (path, arrival time, `User-Agent`) so tests can check what the crawler
//! did: which paths it fetched, how often, and how far apart. It binds only the loopback
//! address and stops when dropped.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

/// What the server answers.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Header fields (Content-Length is added).
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
    /// Wait before answering (a slow server).
    pub delay: Duration,
}

impl Reply {
    /// A 200 `text/html; charset=utf-8` page.
    pub fn html(body: impl Into<Vec<u8>>) -> Self {
        Reply::new(200, "text/html; charset=utf-8", body)
    }

    /// Any status with a content type and body.
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Reply {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    /// A 404.
    pub fn not_found() -> Self {
        Reply::new(404, "text/plain", "not found")
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: &str) -> Self {
        Reply::new(status, "text/plain", "moved").with_header("Location", location)
    }

    /// Adds a header field.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Answers after a pause.
    pub fn with_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Hit {
    /// Path and query as requested.
    pub path: String,
    /// When its head was read.
    pub at: Instant,
    /// Its `User-Agent`.
    pub user_agent: String,
}

type Handler = dyn Fn(&str) -> Reply + Send + Sync;

/// A running server; stops when dropped.
pub struct TestServer {
    addr: SocketAddr,
    hits: Arc<Mutex<Vec<Hit>>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server on 127.0.0.1 (a free port) on its own thread, recording requests.
    pub fn start(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> io::Result<Self> {
        Self::start_with(handler, true)
    }

    /// Starts a server; `record` false keeps no request log (long benchmarks).
    pub fn start_with(
        handler: impl Fn(&str) -> Reply + Send + Sync + 'static,
        record: bool,
    ) -> io::Result<Self> {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let hits = Arc::new(Mutex::new(Vec::new()));
        let (stop_tx, stop_rx) = oneshot::channel();
        let handler: Arc<Handler> = Arc::new(handler);
        let thread_hits = Arc::clone(&hits);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let thread = std::thread::spawn(move || {
            runtime.block_on(async move {
                let Ok(listener) = TcpListener::from_std(std_listener) else {
                    return;
                };
                let accept = async {
                    loop {
                        let Ok((stream, _)) = listener.accept().await else {
                            continue;
                        };
                        let handler = Arc::clone(&handler);
                        let hits = record.then(|| Arc::clone(&thread_hits));
                        tokio::spawn(serve(stream, handler, hits));
                    }
                };
                tokio::select! {
                    () = accept => {}
                    _ = stop_rx => {}
                }
            });
        });
        Ok(TestServer {
            addr,
            hits,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every request so far, in arrival order.
    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// How many requests so far.
    pub fn hit_count(&self) -> usize {
        self.hits.lock().map(|h| h.len()).unwrap_or(0)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Serves requests on one connection until it closes.
async fn serve(mut stream: TcpStream, handler: Arc<Handler>, hits: Option<Arc<Mutex<Vec<Hit>>>>) {
    let _ = stream.set_nodelay(true);
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    loop {
        // Read one request head.
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            if buf.len() > 64 << 10 {
                return;
            }
            let mut chunk = [0u8; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(chunk.get(..n).unwrap_or(&[])),
            }
        };
        let at = Instant::now();
        let head = String::from_utf8_lossy(buf.get(..head_end).unwrap_or(&[])).into_owned();
        buf.drain(..head_end);
        let mut lines = head.split("\r\n");
        let path = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .unwrap_or("/")
            .to_string();
        let mut user_agent = String::new();
        let mut close = false;
        for line in lines {
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("user-agent") {
                    user_agent = value.trim().to_string();
                } else if name.eq_ignore_ascii_case("connection") {
                    close = value.trim().eq_ignore_ascii_case("close");
                }
            }
        }
        if let Some(Ok(mut h)) = hits.as_ref().map(|h| h.lock()) {
            h.push(Hit {
                path: path.clone(),
                at,
                user_agent,
            });
        }
        let reply = handler(&path);
        if !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        let mut out = format!("HTTP/1.1 {} X\r\n", reply.status).into_bytes();
        for (name, value) in &reply.headers {
            out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", reply.body.len()).as_bytes());
        out.extend_from_slice(&reply.body);
        if stream.write_all(&out).await.is_err() || close {
            return;
        }
    }
}

/// A synthetic site of `pages` pages for benchmarks: `/` links to `/p/0`; `/p/i` links to
/// `/p/2i+1`, `/p/2i+2` (a tree reaching every page) and a few pages further on, inside a
/// shared template. robots.txt is a 404.
pub fn synthetic_site(pages: usize) -> impl Fn(&str) -> Reply + Send + Sync + 'static {
    move |path: &str| {
        if path == "/" {
            return Reply::html(r#"<html><body><a href="/p/0">start</a></body></html>"#);
        }
        let Some(i) = path
            .strip_prefix("/p/")
            .and_then(|n| n.parse::<usize>().ok())
        else {
            return Reply::not_found();
        };
        if i >= pages {
            return Reply::not_found();
        }
        let mut html = String::with_capacity(2048);
        html.push_str("<!doctype html><html><head><title>Page ");
        html.push_str(&i.to_string());
        html.push_str("</title></head><body><nav><a href=\"/\">Home</a> <a href=\"/p/0\">First</a></nav><main><h1>Article ");
        html.push_str(&i.to_string());
        html.push_str("</h1><p>Body text of a synthetic page, with a few words that change: ");
        html.push_str(&(i * 7919 % 10007).to_string());
        html.push_str("</p><ul>");
        for j in [2 * i + 1, 2 * i + 2, i + 17, i * 3 + 5] {
            if j < pages {
                html.push_str(&format!("<li><a href=\"/p/{j}\">Article {j}</a></li>"));
            }
        }
        html.push_str("</ul></main><footer>Copyright synthetic site. All rights reserved.</footer></body></html>");
        Reply::html(html)
    }
}

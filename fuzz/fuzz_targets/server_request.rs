//! Bytes as one HTTP/1.1 connection to `chaff serve`: hyper parses the request line,
//! headers and body (chunked or not), axum routes it, and chaff's handlers read the query,
//! the JSON or HTML body and extract, segment, inspect or learn. The server is built fresh
//! for each input (a learned profile stays in a server's memory) and never writes to disk
//! (no profiles folder); the answer is read whole, so a handler that hangs shows as a hang.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use chaff_server::{Config, Server};
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let server = Server::new(Config {
        max_body: 1 << 20,
        concurrency: 1,
        queue: 2,
        timeout: Duration::from_secs(20),
        ..Config::default()
    })
    .expect("a server without profiles always builds");
    let service = TowerToHyperService::new(server.router());
    runtime().block_on(async move {
        let (mut client, conn) = tokio::io::duplex(64 << 10);
        let serving = http1::Builder::new()
            .keep_alive(false)
            .serve_connection(TokioIo::new(conn), service);
        let talking = async {
            // The server may answer (and close) before reading everything: write errors
            // are expected then.
            let _ = client.write_all(data).await;
            let _ = client.shutdown().await;
            let mut answer = Vec::new();
            let _ = client.read_to_end(&mut answer).await;
            answer
        };
        let (_, answer) = tokio::join!(serving, talking);
        if let Some(line) = answer.split(|&b| b == b'\n').next()
            && line.starts_with(b"HTTP/1.1 5")
            && !line.starts_with(b"HTTP/1.1 503")
            && !line.starts_with(b"HTTP/1.1 504")
        {
            // 500 is a handler failing on input it should have refused with a 4xx.
            panic!("server error: {}", String::from_utf8_lossy(line));
        }
    });
});

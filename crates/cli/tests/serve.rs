//! `chaff serve` as a process: it prints its address, answers, and on SIGTERM finishes the
//! request in flight before it exits with status 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

const PAGE: &str = "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article>\
    <h1>Council closes the old bridge</h1><p>The council voted on Monday to close the old \
    bridge for repairs. Engineers found cracks in two of its arches last spring, and the work \
    is expected to take most of the coming year.</p></article>\
    <footer>Copyright Example News</footer></body></html>";

#[test]
fn sigterm_finishes_the_request_in_flight() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chaff serve starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("the address line");
    let addr = line
        .trim()
        .strip_prefix("chaff: serving on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_string();

    // Half a request: it is in flight until the rest comes.
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let head = format!(
        "POST /v1/extract HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
        PAGE.len()
    );
    s.write_all(head.as_bytes()).expect("head");
    s.write_all(&PAGE.as_bytes()[..PAGE.len() / 2])
        .expect("half");
    std::thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().expect("status").is_none(),
        "the server exited with a request in flight"
    );
    s.write_all(&PAGE.as_bytes()[PAGE.len() / 2..])
        .expect("rest");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("cracks in two of its arches"), "{answer}");
    let status = child.wait().expect("exits");
    assert!(status.success(), "exit status {status}");
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).expect("stderr");
    assert!(!rest.contains("error"), "{rest}");
}

#[test]
fn serve_help_names_its_limits() {
    let out = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["serve", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--profiles",
        "--listen",
        "--pages",
        "--max-body",
        "--concurrency",
        "--timeout",
    ] {
        assert!(help.contains(flag), "{flag} missing from\n{help}");
    }
}

//! Every endpoint and every error status of the API, against a server on a loopback port.

mod common;

use std::time::Duration;

use chaff_server::Config;
use common::*;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

fn article() -> String {
    news_page(
        "Council closes the old bridge",
        "The council voted on Monday to close the old bridge for repairs. Engineers found \
         cracks in two of its arches last spring, and the work is expected to take most of \
         the coming year. Traffic will be sent over the ring road.",
    )
}

#[tokio::test]
async fn extract_takes_raw_html_and_json_and_matches_the_library() {
    let srv = start(Config::default()).await;
    let html = article();
    let url = "https://news.example.org/bridge";
    let a = request(
        srv.addr,
        "POST",
        &format!("/v1/extract?url={url}&format=markdown"),
        Some("text/html; charset=utf-8"),
        html.as_bytes(),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text());
    let r = a.json();
    let lib = chaff::extract(html.as_bytes(), Some(url)).expect("extracts");
    assert_eq!(r["text"], lib.render(chaff::Format::Markdown));
    assert_eq!(r["format"], "markdown");
    assert_eq!(r["site"], "example.org");
    assert!(
        r["text"]
            .as_str()
            .unwrap()
            .contains("cracks in two of its arches")
    );
    assert!(!r["text"].as_str().unwrap().contains("Copyright"));
    assert!(r.get("nodes").is_none());

    let b = post_json(
        srv.addr,
        "/v1/extract",
        &json!({"html": html, "url": url, "format": "json", "labels": true}),
    )
    .await;
    assert_eq!(b.status, 200, "{}", b.text());
    let r = b.json();
    assert_eq!(r["text"], lib.text());
    let nodes = r["nodes"].as_array().expect("nodes with labels");
    assert!(nodes.iter().any(|n| n["role"] == "template"));
    // No media type: read as HTML.
    let c = request(srv.addr, "POST", "/v1/extract", None, html.as_bytes()).await;
    assert_eq!(c.status, 200);
    assert_eq!(c.json()["text"], lib.text());
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn metadata_false_leaves_the_metadata_and_language_out_and_the_text_as_it_is() {
    let srv = start(Config::default()).await;
    let html = article();
    let url = "https://news.example.org/bridge";
    let full = post_json(srv.addr, "/v1/extract", &json!({"html": html, "url": url})).await;
    assert_eq!(full.status, 200, "{}", full.text());
    let full = full.json();
    assert!(full["metadata"].is_object(), "{full}");
    assert!(full.get("language").is_some(), "{full}");
    let json_body = post_json(
        srv.addr,
        "/v1/extract",
        &json!({"html": html, "url": url, "metadata": false}),
    )
    .await;
    let raw = request(
        srv.addr,
        "POST",
        &format!("/v1/extract?url={url}&metadata=false"),
        Some("text/html"),
        html.as_bytes(),
    )
    .await;
    for r in [json_body, raw] {
        assert_eq!(r.status, 200, "{}", r.text());
        let r = r.json();
        assert!(r.get("metadata").is_none(), "{r}");
        assert!(r.get("language").is_none(), "{r}");
        assert_eq!(r["text"], full["text"]);
    }
    srv.shutdown().await.expect("shuts down");
}

/// A story with a relative link and image in its text and a readers' thread under it.
fn story_with_thread() -> String {
    "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
     <article><h1>Council votes to close the old bridge</h1><p>The council voted on Monday \
     to close the <a href='bridge.html'>old bridge</a> for repairs. Engineers found cracks in \
     two of its arches last spring, and the work is expected to take most of the coming \
     year.</p><p><img src='img/arch.jpg' alt='The cracked arch'> Traffic will be sent over \
     the ring road, which the council says can carry the extra load.</p></article>\
     <div id=comments><h3>2 comments</h3><ol class=commentlist>\
     <li class=comment><p>I drive over that bridge every day and it did feel shaky to me.</p>\
     </li><li class=comment><p>About time they did something, the cracks have been there for \
     years.</p></li></ol><form class=comment-form><textarea>Your reply</textarea>\
     <button>Post</button></form></div></body></html>"
        .to_string()
}

#[tokio::test]
async fn comments_links_images_and_front_matter_are_asked_per_request() {
    let srv = start(Config::default()).await;
    let html = story_with_thread();
    let url = "https://news.example.org/local/bridge";
    let ask = |extra: serde_json::Value| {
        let mut body = json!({"html": html, "url": url, "format": "markdown"});
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        body
    };
    let plain = post_json(srv.addr, "/v1/extract", &ask(json!({}))).await;
    assert_eq!(plain.status, 200, "{}", plain.text());
    let plain = plain.json();
    let md = plain["text"].as_str().unwrap();
    assert!(
        md.contains("[old bridge](https://news.example.org/local/bridge.html)"),
        "{md}"
    );
    assert!(
        md.contains("![The cracked arch](https://news.example.org/local/img/arch.jpg)"),
        "{md}"
    );
    assert!(!md.contains("feel shaky") && !md.starts_with("---"), "{md}");
    assert!(
        plain["comments"]
            .as_str()
            .is_some_and(|c| c.contains("feel shaky")),
        "{plain}"
    );

    let all = json!({"links": false, "images": false, "comments": true, "front_matter": true});
    let json_body = post_json(srv.addr, "/v1/extract", &ask(all)).await;
    let raw = request(
        srv.addr,
        "POST",
        &format!(
            "/v1/extract?url={url}&format=markdown&links=false&images=false&comments=true\
             &front_matter=true"
        ),
        Some("text/html"),
        html.as_bytes(),
    )
    .await;
    let lib = chaff::Extractor::builder()
        .include_comments(true)
        .links(false)
        .images(false)
        .front_matter(true)
        .build()
        .unwrap()
        .extract(html.as_bytes(), Some(url))
        .unwrap()
        .markdown();
    for r in [json_body, raw] {
        assert_eq!(r.status, 200, "{}", r.text());
        let md = r.json()["text"].as_str().unwrap().to_string();
        assert_eq!(md, lib);
        assert!(md.starts_with("---\n"), "{md}");
        assert!(md.contains("close the old bridge for repairs"), "{md}");
        assert!(!md.contains("](") && md.contains("feel shaky"), "{md}");
    }
    let bad = request(
        srv.addr,
        "POST",
        "/v1/extract?links=maybe",
        Some("text/html"),
        html.as_bytes(),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.text());
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn bad_requests_get_4xx_with_one_line_json() {
    let srv = start(Config::default()).await;
    let html = article();
    let cases: Vec<(u16, Answer)> = vec![
        (
            400,
            request(
                srv.addr,
                "POST",
                "/v1/extract",
                Some("application/json"),
                b"{not json",
            )
            .await,
        ),
        (
            400,
            post_json(srv.addr, "/v1/extract", &json!({"url": "x"})).await,
        ),
        (
            400,
            request(
                srv.addr,
                "POST",
                "/v1/extract?format=pdf",
                Some("text/html"),
                html.as_bytes(),
            )
            .await,
        ),
        (
            400,
            post_json(
                srv.addr,
                "/v1/extract",
                &json!({"html": html, "threshold": 2.0}),
            )
            .await,
        ),
        (
            400,
            post_json(
                srv.addr,
                "/v1/extract",
                &json!({"html": html, "methods": ["nosuch"]}),
            )
            .await,
        ),
        (
            404,
            post_json(
                srv.addr,
                "/v1/extract",
                &json!({"html": html, "site": "nosuch.example"}),
            )
            .await,
        ),
        (
            415,
            request(
                srv.addr,
                "POST",
                "/v1/extract",
                Some("application/x-www-form-urlencoded"),
                b"a=b",
            )
            .await,
        ),
        (
            422,
            request(
                srv.addr,
                "POST",
                "/v1/extract",
                Some("text/html"),
                &[0u8, 159, 146, 150, 0, 0, 1, 2, 3, 0, 0, 0, 9, 0, 0, 0][..].repeat(64),
            )
            .await,
        ),
        (405, get(srv.addr, "/v1/extract").await),
        (
            405,
            request(srv.addr, "DELETE", "/v1/sites", None, b"").await,
        ),
        (404, get(srv.addr, "/no/such/route").await),
        (404, get(srv.addr, "/v1/sites/nosuch.example").await),
        (400, post_json(srv.addr, "/v1/inspect", &json!({})).await),
        (
            400,
            post_json(srv.addr, "/v1/inspect", &json!({"html": html, "page": 0})).await,
        ),
        (
            404,
            post_json(srv.addr, "/v1/inspect", &json!({"page": 7})).await,
        ),
        (
            415,
            request(
                srv.addr,
                "POST",
                "/v1/inspect",
                Some("text/html"),
                html.as_bytes(),
            )
            .await,
        ),
        (
            400,
            post_json(srv.addr, "/v1/learn", &json!([{"html": html}])).await,
        ),
        (
            400,
            post_json(srv.addr, "/v1/learn", &json!({"html": html})).await,
        ),
        (
            415,
            request(
                srv.addr,
                "POST",
                "/v1/learn",
                Some("text/html"),
                html.as_bytes(),
            )
            .await,
        ),
        (
            400,
            post_json(
                srv.addr,
                "/v1/segment",
                &json!({"html": html, "classifier": "nosuch"}),
            )
            .await,
        ),
        (
            400,
            post_json(
                srv.addr,
                "/v1/segment",
                &json!({"html": html, "classifier": "pagelevel", "threshold": 0.5}),
            )
            .await,
        ),
    ];
    for (i, (want, a)) in cases.iter().enumerate() {
        assert_eq!(a.status, *want, "case {i}: {}", a.text());
        if a.status != 405 || !a.body.is_empty() {
            let e = a.json();
            let msg = e["error"]
                .as_str()
                .unwrap_or_else(|| panic!("case {i}: {e}"));
            assert!(!msg.is_empty() && !msg.contains('\n'), "case {i}: {msg}");
        }
    }
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn segment_gives_every_node_its_labels_and_evidence() {
    let srv = start(Config::default()).await;
    let html = article();
    let a = request(
        srv.addr,
        "POST",
        "/v1/segment?url=https://news.example.org/b",
        Some("text/html"),
        html.as_bytes(),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text());
    let s = a.json();
    let doc = chaff::dom::parse(html.as_bytes()).expect("parses");
    let nodes = s["nodes"].as_array().expect("nodes");
    let elements = doc.ids().filter(|&n| doc.is_element(n)).count();
    assert_eq!(
        nodes.iter().filter(|n| n["tag"] != "#text").count(),
        elements
    );
    let footer = nodes.iter().find(|n| n["tag"] == "footer").expect("footer");
    assert_eq!(footer["role"], "template");
    assert_eq!(footer["selector"], "footer");
    assert!(
        footer["evidence"]["content"]["score"].as_f64().is_some(),
        "{footer}"
    );
    let p = nodes
        .iter()
        .find(|n| n["tag"] == "#text" && n["text"].as_str().is_some_and(|t| t.contains("cracks")))
        .expect("text");
    assert_eq!(p["role"], "content");
    assert_eq!(s["methods"][0]["method"], "content");
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn learn_stores_the_profile_and_the_live_extractor_uses_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let profiles = dir.path().join("profiles");
    let srv = start(Config {
        profiles: Some(profiles.clone()),
        ..Config::default()
    })
    .await;
    assert_eq!(get(srv.addr, "/v1/sites").await.json(), json!([]));
    let pages: Vec<_> = news_pages()
        .into_iter()
        .map(|(url, html)| json!({"url": url, "html": html}))
        .collect();
    let a = post_json(srv.addr, "/v1/learn", &json!(pages)).await;
    assert_eq!(a.status, 200, "{}", a.text());
    let l = a.json();
    assert_eq!(l["site"], "example.org");
    assert_eq!(l["unmatched_pages"], 0, "{l}");
    let stored = std::path::PathBuf::from(l["stored"].as_str().expect("stored"));
    assert!(stored.starts_with(&profiles) && stored.is_file());
    chaff::Profile::load(&stored).expect("a valid profile");
    let sites = get(srv.addr, "/v1/sites").await.json();
    assert_eq!(sites[0]["site"], "example.org");
    let info = get(srv.addr, "/v1/sites/example.org").await;
    assert_eq!(info.status, 200);
    let info = info.json();
    assert!(
        !info["expressions"]
            .as_array()
            .expect("expressions")
            .is_empty(),
        "{info}"
    );
    assert_eq!(
        info["histogram"]["counts"].as_array().map(Vec::len),
        Some(100)
    );
    assert!(info["forest_xpath"].is_string(), "{info}");
    // A new page of the site now gets its profile.
    let page = news_page(
        "Hail",
        "Volunteers planted four hundred trees along the ring road in the rain.",
    );
    let e = post_json(
        srv.addr,
        "/v1/extract",
        &json!({"html": page, "url": "https://news.example.org/hail"}),
    )
    .await
    .json();
    assert_eq!(e["profile"], "example.org");
    assert!(e["text"].as_str().unwrap().contains("four hundred trees"));
    // So does the inspector, which shows the profile's contents.
    let i = post_json(
        srv.addr,
        "/v1/inspect",
        &json!({"html": page, "url": "https://news.example.org/hail"}),
    )
    .await
    .json();
    assert_eq!(i["site_info"]["site"], "example.org");
    // And a server started afterwards reads it from the folder.
    let again = start(Config {
        profiles: Some(profiles),
        ..Config::default()
    })
    .await;
    assert_eq!(
        get(again.addr, "/healthz").await.json(),
        json!({"status": "ok", "sites": 1})
    );
    // A profiles folder that cannot be written: the profile is applied, and the answer says
    // why it was not stored.
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "not a folder").expect("write");
    let unwritable = start(Config {
        profiles: Some(blocker.join("profiles")),
        ..Config::default()
    })
    .await;
    let l = post_json(unwritable.addr, "/v1/learn", &json!(pages)).await;
    assert_eq!(l.status, 200, "{}", l.text());
    let l = l.json();
    assert!(l["stored"].is_null(), "{l}");
    assert!(
        l["not_stored"]
            .as_str()
            .is_some_and(|w| w.contains("cannot create")),
        "{l}"
    );
    assert_eq!(
        get(unwritable.addr, "/v1/sites").await.json()[0]["site"],
        "example.org"
    );
    // A page unlike the rest matches none of the site's templates: the answer says so.
    let mut with_stray = pages.clone();
    with_stray.push(json!({
        "url": "https://news.example.org/archive/1998",
        "html": "<html><body><pre>An old press release, typed as plain text with none of the \
                 site's frame around it.</pre></body></html>",
    }));
    let l = post_json(unwritable.addr, "/v1/learn", &json!(with_stray)).await;
    assert_eq!(l.status, 200, "{}", l.text());
    let l = l.json();
    assert_eq!(l["unmatched_pages"], 1, "{l}");
    assert!(
        l["notes"][0]
            .as_str()
            .is_some_and(|n| n.contains("1 of its 7 pages resemble none of its templates")),
        "{l}"
    );
    unwritable.shutdown().await.expect("shuts down");
    // Pages of two sites are not one site's profile.
    let mixed = json!([{"url": "https://a.example/1", "html": article()}, {"url": "https://b.example/2", "html": article()}]);
    assert_eq!(post_json(srv.addr, "/v1/learn", &mixed).await.status, 422);
    again.shutdown().await.expect("shuts down");
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn inspect_shows_a_neutralised_page_with_node_ids() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.html"), article()).expect("write page");
    let srv = start(Config {
        pages: vec![dir.path().display().to_string()],
        ..Config::default()
    })
    .await;
    let list = get(srv.addr, "/v1/pages").await.json();
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    let hostile = "<html><body onload=alert(1)><script>alert(2)</script><p>Words <a href=\"javascript:alert(3)\">x</a></p><img src=http://127.0.0.1:9/x.png></body></html>";
    for req in [json!({"page": 0}), json!({"html": hostile})] {
        let a = post_json(srv.addr, "/v1/inspect", &req).await;
        assert_eq!(a.status, 200, "{}", a.text());
        let i = a.json();
        let doc = i["document"].as_str().expect("document");
        assert!(
            doc.contains("<html data-chaff-id=") && doc.contains("<chaff-t data-chaff-id="),
            "{doc}"
        );
        for bad in ["<script", "alert", "http://127.0.0.1:9"] {
            assert!(!doc.contains(bad), "{bad} in {doc}");
        }
        assert!(
            i["segmentation"]["nodes"]
                .as_array()
                .is_some_and(|n| !n.is_empty())
        );
        assert!(i["text"].is_string() && i["markdown"].is_string());
    }
    // Method and threshold choices change the labels live.
    let strict = post_json(
        srv.addr,
        "/v1/inspect",
        &json!({"page": 0, "threshold": 1.0}),
    )
    .await
    .json();
    let loose = post_json(
        srv.addr,
        "/v1/inspect",
        &json!({"page": 0, "threshold": 0.0}),
    )
    .await
    .json();
    assert!(strict["text"].as_str().unwrap().len() < loose["text"].as_str().unwrap().len());
    let menu = post_json(
        srv.addr,
        "/v1/inspect",
        &json!({"page": 0, "menu": true, "classifier": "pagelevel"}),
    )
    .await;
    assert_eq!(menu.status, 200, "{}", menu.text());
    let said: Vec<String> = menu.json()["segmentation"]["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["method"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(said, ["pagelevel", "comments", "menu"]);
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn health_metrics_openapi_and_the_inspector_files() {
    let srv = start(Config::default()).await;
    assert_eq!(
        get(srv.addr, "/healthz").await.json(),
        json!({"status": "ok", "sites": 0})
    );
    let html = article();
    assert_eq!(
        request(
            srv.addr,
            "POST",
            "/v1/extract",
            Some("text/html"),
            html.as_bytes()
        )
        .await
        .status,
        200
    );
    assert_eq!(get(srv.addr, "/nope").await.status, 404);
    let m = get(srv.addr, "/metrics").await;
    assert_eq!(m.status, 200);
    assert!(m.header("content-type").unwrap().starts_with("text/plain"));
    let m = m.text();
    for want in [
        "chaff_http_requests_total{route=\"/v1/extract\",status=\"200\"} 1",
        "chaff_http_requests_total{route=\"other\",status=\"404\"} 1",
        "chaff_http_request_duration_seconds_bucket{route=\"/v1/extract\",le=\"+Inf\"} 1",
        "chaff_http_request_duration_seconds_count{route=\"/v1/extract\"} 1",
        "chaff_pages_extracted_total 1",
        "chaff_errors_total 0",
    ] {
        assert!(m.contains(want), "{want} not in\n{m}");
    }
    let o = get(srv.addr, "/openapi.json").await;
    assert_eq!(o.status, 200);
    let o = o.json();
    assert!(o["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/v1/extract",
        "/v1/segment",
        "/v1/inspect",
        "/v1/learn",
        "/v1/sites",
        "/v1/sites/{site}",
        "/v1/pages",
        "/healthz",
        "/metrics",
    ] {
        assert!(
            o["paths"].get(path).is_some(),
            "{path} missing from the OpenAPI document"
        );
    }
    assert_eq!(o, serde_json::to_value(chaff_server::openapi()).unwrap());
    // What the handler refuses, the document states.
    assert_eq!(
        o["paths"]["/v1/learn"]["post"]["requestBody"]["content"]["application/json"]["schema"]["minItems"],
        2
    );
    let inspect = &o["components"]["schemas"]["InspectRequest"]["allOf"];
    assert!(inspect[0]["properties"]["html"].is_object(), "{inspect}");
    let required: Vec<&serde_json::Value> = inspect[1]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["required"])
        .collect();
    assert_eq!(
        required,
        [&serde_json::json!(["html"]), &serde_json::json!(["page"])]
    );
    let page = get(srv.addr, "/").await;
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").expect("a policy");
    assert!(
        csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    assert!(page.text().contains("sandbox=\"allow-same-origin\""));
    assert!(!page.text().contains("allow-scripts"));
    for file in ["/inspector.js", "/inspector.css"] {
        let a = get(srv.addr, file).await;
        assert_eq!(a.status, 200, "{file}");
        assert!(a.header("content-security-policy").is_some());
    }
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn bodies_over_the_limit_get_413_declared_or_streamed() {
    let srv = start(Config {
        max_body: 4096,
        ..Config::default()
    })
    .await;
    let big = vec![b'a'; 5000];
    let a = request(srv.addr, "POST", "/v1/extract", Some("text/html"), &big).await;
    assert_eq!(a.status, 413, "{}", a.text());
    // Chunked, with no declared length: cut as it is read.
    let mut s = TcpStream::connect(srv.addr).await.expect("connect");
    let head = "POST /v1/extract HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n";
    s.write_all(head.as_bytes()).await.expect("head");
    for _ in 0..5 {
        if s.write_all(format!("400\r\n{}\r\n", "b".repeat(1024)).as_bytes())
            .await
            .is_err()
        {
            break;
        }
    }
    let _ = s.write_all(b"0\r\n\r\n").await;
    let a = read_answer(&mut s).await;
    assert_eq!(a.status, 413, "{}", a.text());
    // Just under the limit is fine.
    let ok = request(
        srv.addr,
        "POST",
        "/v1/extract",
        Some("text/html"),
        article().as_bytes(),
    )
    .await;
    assert_eq!(ok.status, 200);
    srv.shutdown().await.expect("shuts down");
}

/// Sends a request's head and half its body; the request is then in flight, holding its
/// place, until the rest is sent.
async fn half_sent(addr: std::net::SocketAddr, body: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "POST /v1/extract HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.expect("head");
    s.write_all(&body[..body.len() / 2]).await.expect("half");
    s
}

async fn in_flight(addr: std::net::SocketAddr) -> u64 {
    let m = get(addr, "/metrics").await.text();
    m.lines()
        .find_map(|l| l.strip_prefix("chaff_http_requests_in_flight "))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn saturation_gives_503_with_retry_after_and_the_budget_504() {
    let srv = start(Config {
        concurrency: 1,
        queue: 0,
        ..Config::default()
    })
    .await;
    let html = article();
    let mut slow = half_sent(srv.addr, html.as_bytes()).await;
    // The metrics request itself is one of those in flight.
    for _ in 0..200 {
        if in_flight(srv.addr).await >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let busy = request(
        srv.addr,
        "POST",
        "/v1/extract",
        Some("text/html"),
        html.as_bytes(),
    )
    .await;
    assert_eq!(busy.status, 503, "{}", busy.text());
    assert_eq!(busy.header("retry-after"), Some("1"));
    // Reads do not queue behind extractions.
    assert_eq!(get(srv.addr, "/healthz").await.status, 200);
    slow.write_all(&html.as_bytes()[html.len() / 2..])
        .await
        .expect("rest");
    let done = read_answer(&mut slow).await;
    assert_eq!(done.status, 200, "{}", done.text());
    assert_eq!(
        request(
            srv.addr,
            "POST",
            "/v1/extract",
            Some("text/html"),
            html.as_bytes()
        )
        .await
        .status,
        200
    );
    srv.shutdown().await.expect("shuts down");

    // A budget no extraction fits in.
    let srv = start(Config {
        timeout: Duration::from_millis(1),
        ..Config::default()
    })
    .await;
    let long: String = (0..3000)
        .map(|i| format!("<div><p>Paragraph {i} of a long page with words.</p></div>"))
        .collect();
    let a = request(
        srv.addr,
        "POST",
        "/v1/extract",
        Some("text/html"),
        long.as_bytes(),
    )
    .await;
    assert!(
        a.status == 504 || a.status == 503,
        "{}: {}",
        a.status,
        a.text()
    );
    srv.shutdown().await.expect("shuts down");
}

#[tokio::test]
async fn shutdown_finishes_the_requests_in_flight() {
    let srv = start(Config::default()).await;
    let html = article();
    let mut slow = half_sent(srv.addr, html.as_bytes()).await;
    for _ in 0..200 {
        if in_flight(srv.addr).await >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let addr = srv.addr;
    let stopping = tokio::spawn(srv.shutdown());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        !stopping.is_finished(),
        "the server stopped with a request in flight"
    );
    // New connections are no longer taken.
    assert!(TcpStream::connect(addr).await.is_err());
    slow.write_all(&html.as_bytes()[html.len() / 2..])
        .await
        .expect("rest");
    let done = read_answer(&mut slow).await;
    assert_eq!(done.status, 200, "{}", done.text());
    assert!(done.json()["text"].as_str().unwrap().contains("cracks"));
    tokio::time::timeout(Duration::from_secs(10), stopping)
        .await
        .expect("the server stops once the request is answered")
        .expect("task")
        .expect("serve ends cleanly");
}

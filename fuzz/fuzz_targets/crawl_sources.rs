//! What the crawler parses from fetched bytes: robots.txt, sitemaps (gzip or not), RSS and
//! Atom feeds, and a page's links. The first byte picks which, the rest is the body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let base = Url::parse("https://example.org/dir/file.xml").expect("a valid URL");
    match which % 4 {
        0 => {
            if let Some(robot) = chaff_crawl::sources::parse_robots(body) {
                for path in ["/", "/private/x", "/dir/file.html?q=1", "/%E2%82%AC"] {
                    let _ = robot.allowed(path);
                }
                let _ = robot.delay;
            }
        }
        1 => {
            let _ = chaff_crawl::sources::parse_sitemap(body, &base);
        }
        2 => {
            let _ = chaff_crawl::sources::parse_feed(body, &base);
        }
        _ => {
            let _ = chaff_crawl::links::extract_links(body, &base, None);
        }
    }
});

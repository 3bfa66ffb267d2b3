//! Files, folders, globs, gzip and JSON Lines through `expand_inputs` and `Pages`.

mod common;

use std::io::Cursor;
use std::path::Path;

use chaff_corpus::{CorpusError, InputSpec, Media, Pages, PagesOptions, expand_inputs, site_key};
use common::{gzip, put, rel_sources, split};

fn arg(p: &Path) -> String {
    p.display().to_string()
}

fn read_all(args: &[String]) -> (Vec<chaff_corpus::Page>, Vec<String>) {
    split(Pages::from_args(args, PagesOptions::default()).unwrap())
}

#[test]
fn nested_folders_sorted_hidden_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "site/b.html", b"<p>b</p>");
    put(root, "site/a.html", b"<p>a</p>");
    put(root, "site/sub/z.htm", b"<p>z</p>");
    put(root, "site/sub/deeper/x", b"<p>no extension</p>");
    put(root, "site/c.html.gz", &gzip(b"<p>c</p>"));
    put(root, "site/d.gz", &gzip(b"<p>d</p>"));
    put(root, "site/notes.txt", b"plain text");
    put(root, "site/.hidden.html", b"hidden");
    put(root, "site/.git/config.html", b"hidden folder");
    put(root, "site/sub/.cache/y.html", b"hidden folder");

    let (pages, errors) = read_all(&[arg(&root.join("site"))]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        rel_sources(&pages, root),
        [
            "site/a.html",
            "site/b.html",
            "site/c.html.gz",
            "site/d.gz",
            "site/notes.txt",
            "site/sub/deeper/x",
            "site/sub/z.htm"
        ]
    );
    let bytes: Vec<&[u8]> = pages.iter().map(|p| p.bytes.as_slice()).collect();
    assert_eq!(bytes[2], b"<p>c</p>");
    assert_eq!(bytes[3], b"<p>d</p>");
    assert_eq!(pages[4].media, Media::Text);
    assert!(pages.iter().filter(|p| p.media == Media::Html).count() == 6);
    assert_eq!(
        pages[0].folder.as_deref(),
        Some(root.join("site").as_path())
    );
    assert_eq!(
        pages[5].folder.as_deref(),
        Some(root.join("site/sub/deeper").as_path())
    );
    assert!(pages.iter().all(|p| p.url.is_none() && p.charset.is_none()));
    // The folder gives the site key.
    let key = site_key(None, None, pages[0].folder.as_deref());
    assert_eq!(key.to_string(), "site");

    // Same order on a second run.
    let (again, _) = read_all(&[arg(&root.join("site"))]);
    assert_eq!(rel_sources(&again, root), rel_sources(&pages, root));
}

#[test]
fn gzip_by_magic_and_mislabelled_gz() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let magic = put(root, "page.bin", &gzip(b"<html>magic</html>"));
    let fake = put(root, "plain.html.gz", b"<html>not gzip</html>");
    let mut multi = gzip(b"<html>one ");
    multi.extend(gzip(b"two</html>"));
    let multi = put(root, "multi.html.gz", &multi);
    let (pages, errors) = read_all(&[arg(&magic), arg(&fake), arg(&multi)]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(pages[0].bytes, b"<html>magic</html>");
    assert_eq!(pages[1].bytes, b"<html>not gzip</html>");
    assert_eq!(pages[2].bytes, b"<html>one two</html>");
}

#[test]
fn corrupt_gzip_is_an_item_not_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let full = gzip(common::html("x").as_bytes());
    put(root, "d/a.html.gz", &full[..full.len() / 2]);
    put(root, "d/b.html", b"<p>b</p>");
    let (pages, errors) = read_all(&[arg(&root.join("d"))]);
    assert_eq!(rel_sources(&pages, root), ["d/b.html"]);
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains("a.html.gz") && errors[0].contains("gzip"),
        "{}",
        errors[0]
    );
}

#[test]
fn page_cap_and_gzip_bomb() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "d/big.html", &vec![b'x'; 2000]);
    put(root, "d/bomb.html.gz", &gzip(&vec![b'y'; 4 << 20]));
    put(root, "d/small.html", b"ok");
    let options = PagesOptions {
        max_page_bytes: 1000,
    };
    let pages = Pages::from_args(&[arg(&root.join("d"))], options).unwrap();
    let (pages, errors) = split(pages);
    assert_eq!(rel_sources(&pages, root), ["d/small.html"]);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains("big.html") && errors[0].contains("1000-byte limit"),
        "{}",
        errors[0]
    );
    assert!(errors[1].contains("bomb.html.gz"), "{}", errors[1]);
}

#[test]
fn globs() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "s/a/1.html", b"1");
    put(root, "s/a/2.htm", b"2");
    put(root, "s/b/3.html.gz", &gzip(b"3"));
    put(root, "s/b/deep/4.html", b"4");
    put(root, "s/b/.hidden.html", b"h");
    put(root, "s/c.txt", b"c");

    let sources = |pattern: &str| {
        let (pages, errors) = read_all(&[format!("{}/{pattern}", root.display())]);
        assert!(errors.is_empty(), "{errors:?}");
        rel_sources(&pages, root)
    };
    assert_eq!(sources("s/*/*.html"), ["s/a/1.html"]);
    assert_eq!(
        sources("s/*/*.htm*"),
        ["s/a/1.html", "s/a/2.htm", "s/b/3.html.gz"]
    );
    assert_eq!(sources("s/**/*.html"), ["s/a/1.html", "s/b/deep/4.html"]);
    assert_eq!(sources("s/{a,b}/[13]*"), ["s/a/1.html", "s/b/3.html.gz"]);
    assert_eq!(sources("s/b/.*.html"), ["s/b/.hidden.html"]);
    // A matched folder is walked (hidden entries skipped), its matches are not read twice.
    assert_eq!(
        sources("s/*"),
        [
            "s/a/1.html",
            "s/a/2.htm",
            "s/b/3.html.gz",
            "s/b/deep/4.html",
            "s/c.txt"
        ]
    );
    assert_eq!(sources("s/**"), sources("s/*"));
}

#[test]
fn glob_matching_nothing_fails_up_front() {
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), "a.html", b"a");
    let pattern = format!("{}/*.warc", dir.path().display());
    let err = expand_inputs(std::slice::from_ref(&pattern)).unwrap_err();
    assert!(matches!(err, CorpusError::NoGlobMatch { .. }));
    assert_eq!(
        err.to_string(),
        format!("no file or folder matches the pattern '{pattern}'")
    );
    // Nothing under a folder that does not exist either.
    let missing = format!("{}/nope/*.html", dir.path().display());
    assert!(matches!(
        expand_inputs(&[missing]),
        Err(CorpusError::NoGlobMatch { .. })
    ));
}

#[test]
fn existing_path_with_metacharacters_is_a_path() {
    let dir = tempfile::tempdir().unwrap();
    let odd = put(dir.path(), "[draft] *.html", b"odd");
    let specs = expand_inputs(&[arg(&odd)]).unwrap();
    assert_eq!(specs, [InputSpec::File(odd.clone())]);
}

#[test]
fn unreadable_paths_fail_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.html");
    let err = expand_inputs(&[arg(&missing)]).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("cannot read ") && msg.contains("missing.html"),
        "{msg}"
    );

    // Permission bits only bind non-root users: check what we can.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = put(dir.path(), "locked.html", b"x");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        if std::fs::File::open(&locked).is_err() {
            let err = expand_inputs(&[arg(&locked)]).unwrap_err();
            assert!(err.to_string().contains("locked.html"), "{err}");
        } else {
            println!("running as root: permission test skipped");
        }
    }
}

#[test]
fn empty_folder_yields_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    put(dir.path(), "empty-ish/.only-hidden.html", b"x");
    let specs = expand_inputs(&[
        arg(&dir.path().join("empty")),
        arg(&dir.path().join("empty-ish")),
    ])
    .unwrap();
    assert_eq!(specs.len(), 2);
    assert_eq!(Pages::new(specs).count(), 0);
}

#[cfg(unix)]
#[test]
fn symlink_loops_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    put(root, "w/a.html", b"a");
    std::os::unix::fs::symlink(root.join("w"), root.join("w/loop")).unwrap();
    std::os::unix::fs::symlink(root.join("w/a.html"), root.join("w/link.html")).unwrap();
    let (pages, errors) = read_all(&[arg(&root.join("w"))]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(rel_sources(&pages, root), ["w/a.html", "w/link.html"]);
}

#[test]
fn arguments_keep_their_order() {
    let dir = tempfile::tempdir().unwrap();
    let b = put(dir.path(), "b.html", b"b");
    let a = put(dir.path(), "a.html", b"a");
    let (pages, _) = read_all(&[arg(&b), arg(&a)]);
    assert_eq!(rel_sources(&pages, dir.path()), ["b.html", "a.html"]);
    // A bare file name gets the current folder as its folder.
    let bare = split(Pages::new(vec![InputSpec::File("Cargo.toml".into())])).0;
    assert_eq!(
        bare[0].folder.as_deref().and_then(Path::file_name).unwrap(),
        "corpus"
    );
}

#[test]
fn jsonl_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let file = put(dir.path(), "f/page.html.gz", &gzip(b"<p>from path</p>"));
    put(dir.path(), "g/x.html", b"<p>in folder</p>");
    let input = format!(
        concat!(
            "{{\"url\": \"https://a.example.com/1\", \"html\": \"<p>caf\\u00e9</p>\"}}\n",
            "\n",
            "{{\"text\": \"just text\", \"url\": null}}\n",
            "this is not json\n",
            "{{\"path\": \"{}\", \"url\": \"https://b.example.org/p\"}}\n",
            "{{\"url\": \"https://c.example.net/\"}}\n",
            "{{\"html\": \"x\", \"text\": \"y\"}}\n",
            "{{\"path\": \"{}\"}}\n",
            "{{\"path\": \"{}/missing.html\"}}\n",
            "[1, 2]\n",
            "{{\"html\": \"<p>last, no newline</p>\"}}"
        ),
        file.display(),
        dir.path().join("g").display(),
        dir.path().display()
    );
    let pages = Pages::new(vec![InputSpec::Stdin]).with_stdin(Cursor::new(input.into_bytes()));
    let items: Vec<_> = pages.collect();
    let summary: Vec<String> = items
        .iter()
        .map(|i| match i {
            Ok(p) => format!("ok {}", p.source.rsplit('/').next().unwrap()),
            Err(e) => format!(
                "err {}",
                e.to_string()
                    .split(':')
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(":")
            ),
        })
        .collect();
    assert_eq!(
        summary,
        [
            "ok stdin:1",
            "ok stdin:3",
            "err stdin:4",
            "ok page.html.gz",
            "err stdin:6",
            "err stdin:7",
            "ok x.html",
            "err stdin:9",
            "err stdin:10",
            "ok stdin:11"
        ]
    );
    let page = |i: usize| items[i].as_ref().unwrap();
    assert_eq!(page(0).bytes, "<p>café</p>".as_bytes());
    assert_eq!(page(0).url.as_deref(), Some("https://a.example.com/1"));
    assert_eq!(page(0).charset.as_deref(), Some("utf-8"));
    assert_eq!(page(0).media, Media::Html);
    assert_eq!(page(1).media, Media::Text);
    assert_eq!(page(1).url, None);
    assert_eq!(page(3).bytes, b"<p>from path</p>");
    assert_eq!(page(3).url.as_deref(), Some("https://b.example.org/p"));
    let missing = items[7].as_ref().unwrap_err().to_string();
    assert!(missing.contains("missing.html"), "{missing}");
}

#[test]
fn pages_is_send() {
    fn assert_send<T: Send>() {}
    assert_send::<Pages>();
    assert_send::<chaff_corpus::WarcPages>();
}

/// Standard input is told apart by its first bytes: JSON Lines start with `{`, anything
/// else is one page, as a file would be read.
#[test]
fn raw_html_and_gzip_on_standard_input() {
    let read =
        |bytes: Vec<u8>| split(Pages::new(vec![InputSpec::Stdin]).with_stdin(Cursor::new(bytes)));
    let html = b"\n  <!doctype html><p>piped {not json}</p>".to_vec();
    let (pages, errors) = read(html.clone());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].source, "stdin");
    assert_eq!(pages[0].media, Media::Html);
    assert!(pages[0].bytes.ends_with(b"<p>piped {not json}</p>"));

    let (pages, _) = read(gzip(&html));
    assert!(pages[0].bytes.ends_with(b"<p>piped {not json}</p>"));

    let mut bom = b"\xef\xbb\xbf<p>caf\xc3\xa9</p>".to_vec();
    let (pages, _) = read(bom.clone());
    assert_eq!(
        pages[0].bytes, bom,
        "the byte-order mark stays for the decoder"
    );

    bom.truncate(3);
    bom.extend_from_slice(b"  \n{\"html\": \"<p>one</p>\"}\n{\"html\": \"<p>two</p>\"}\n");
    let (pages, errors) = read(bom);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        pages.len(),
        2,
        "JSON Lines behind a byte-order mark and blank lines"
    );
    assert_eq!(pages[1].source, "stdin:3");

    for empty in [&b""[..], b" \n\t "] {
        let (pages, errors) = read(empty.to_vec());
        assert!(pages.is_empty() && errors.is_empty());
    }

    let big = PagesOptions { max_page_bytes: 10 };
    let items: Vec<_> = Pages::with_options(vec![InputSpec::Stdin], big)
        .with_stdin(Cursor::new(html))
        .collect();
    assert!(
        matches!(&items[..], [Err(CorpusError::TooLarge { .. })]),
        "{items:?}"
    );
}

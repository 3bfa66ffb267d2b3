//! Atomic writes on a real file system.

use std::fs;

use chaff_corpus::{CorpusError, atomic_write};

fn leftovers(dir: &std::path::Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".chaff-tmp-"))
        .collect()
}

#[test]
fn writes_and_replaces_whole_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.html");
    atomic_write(&path, b"first").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"first");
    atomic_write(&path, b"second, longer").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"second, longer");
    atomic_write(&path, b"").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"");
    assert!(leftovers(dir.path()).is_empty());
}

#[cfg(unix)]
#[test]
fn modes_are_ordinary_or_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("fresh.txt");
    atomic_write(&fresh, b"x").unwrap();
    assert_eq!(
        fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
        0o644
    );
    let private = dir.path().join("private.txt");
    fs::write(&private, b"old").unwrap();
    fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
    atomic_write(&private, b"new").unwrap();
    assert_eq!(
        fs::metadata(&private).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn failures_name_the_path_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/folder/out.html");
    let err = atomic_write(&missing, b"x").unwrap_err();
    assert!(matches!(err, CorpusError::Write { .. }));
    assert!(err.to_string().contains("no/such/folder/out.html"), "{err}");

    // Renaming over a non-empty folder fails: the temporary file must go.
    let occupied = dir.path().join("occupied");
    fs::create_dir(&occupied).unwrap();
    fs::write(occupied.join("keep"), b"k").unwrap();
    assert!(atomic_write(&occupied, b"x").is_err());
    assert!(leftovers(dir.path()).is_empty());
    assert_eq!(fs::read(occupied.join("keep")).unwrap(), b"k");
}

fn page(source: &str, url: &str) -> chaff_corpus::Page {
    chaff_corpus::Page {
        source: source.into(),
        url: Some(url.into()),
        bytes: Vec::new(),
        charset: None,
        folder: None,
        media: chaff_corpus::Media::Html,
    }
}

/// A folder run journals every page before its file takes its name; resuming keeps the
/// pages whose files are there, forgets the rest (a journal line cut short, a file that
/// never took its name), removes temporary files, and keeps the written names taken.
#[test]
fn page_folders_resume_from_their_journal() {
    use chaff_corpus::{PAGES_JOURNAL, PageSink, WriteOutcome};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut sink = PageSink::folder(&out, Vec::new()).unwrap();
    for (source, url) in [
        ("w#1", "https://a.example/x"),
        ("w#2", "https://a.example/y"),
    ] {
        let w = sink.page(
            &page(source, url),
            "txt",
            false,
            || source.to_string(),
            Default::default,
        );
        assert_eq!(w.unwrap(), WriteOutcome::Written);
    }
    drop(sink);
    let journal = out.join(PAGES_JOURNAL);
    assert_eq!(
        fs::read_to_string(&journal).unwrap(),
        "x.txt\tw#1\ny.txt\tw#2\n"
    );
    // A run killed: a journal line for a file that never took its name, a line cut short,
    // a temporary file.
    let mut text = fs::read_to_string(&journal).unwrap();
    text.push_str("z.txt\tw#3\nq.txt\tw#");
    fs::write(&journal, text).unwrap();
    fs::write(out.join(".chaff-tmp-abc"), b"half a page").unwrap();

    let (mut sink, mut written) = PageSink::resume_folder(&out, Vec::new()).unwrap();
    assert!(written.take("w#1") && written.take("w#2"));
    assert!(!written.take("w#1") && !written.take("w#3"));
    assert!(leftovers(&out).is_empty());
    assert_eq!(
        fs::read_to_string(&journal).unwrap(),
        "x.txt\tw#1\ny.txt\tw#2\n"
    );
    // Another page named like a written one gets a name of its own.
    sink.page(
        &page("w#9", "https://b.example/x"),
        "txt",
        false,
        || "nine".into(),
        Default::default,
    )
    .unwrap();
    let names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(fs::read_to_string(out.join("x.txt")).unwrap(), "w#1");
}

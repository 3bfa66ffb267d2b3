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

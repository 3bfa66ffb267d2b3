//! `chaff-lab bench site`: every way of learning a site (as `extract --learn` does, keeping
//! learning's parses or not, and from pages a caller parsed once) must learn the same profile
//! and extract the same text, or the bench fails.

mod common;

#[test]
fn both_ways_of_learning_a_site_agree_and_are_timed() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::command(&["synth", "--seed", "4", "--sites", "1", "--pages", "8"])
        .arg("-o")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let site = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("a site folder");
    let out = common::command(&["bench", "site", "--rounds", "2"])
        .arg(&site)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("site: "), "{stdout}");
    for way in [
        "as `chaff extract --learn`",
        "`chaff extract --learn --keep-parses 0`",
        "parsed once",
    ] {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(way))
            .unwrap_or_else(|| panic!("no {way} line in {stdout}"));
        let ratio: f64 = line
            .rsplit("ratio ")
            .next()
            .and_then(|r| r.trim().parse().ok())
            .unwrap_or_else(|| panic!("no ratio in {line}"));
        assert!(ratio.is_finite() && ratio > 0.0, "{line}");
    }
}

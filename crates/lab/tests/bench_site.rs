//! `chaff-lab bench site`: every way of learning a site (as `extract --learn` does, keeping
//! learning's parses or not, and from pages a caller parsed once) must learn the same profile
//! and extract the same text, or the bench fails.

mod common;

#[test]
fn every_way_of_learning_a_site_agrees_and_is_timed() {
    let dir = tempfile::tempdir().unwrap();
    let mut synth = common::command(&["synth", "--seed", "4", "--sites", "1", "--pages", "8"]);
    synth.arg("-o").arg(dir.path());
    common::succeeds(synth);
    let site = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .expect("a site folder");
    let mut bench = common::command(&["bench", "site", "--rounds", "2"]);
    bench.arg(&site);
    let out = common::succeeds(bench);
    let stdout = String::from_utf8_lossy(&out.stdout);
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

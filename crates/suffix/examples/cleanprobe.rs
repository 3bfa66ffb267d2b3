//! Probe: cleaner variants timed on page texts (experiment, not shipped).
use regex_automata::hybrid::dfa::{DFA, OverlappingState};
use regex_automata::{Anchored, Input, MatchKind};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let prof: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let exprs: Vec<String> = prof["methods"]["suffix"]["expressions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["regex"].as_str().unwrap().to_string())
        .collect();
    let mut texts = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&args[2])
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for p in paths {
        if p.extension().is_some_and(|e| e == "json") {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let bytes = if p.extension().is_some_and(|e| e == "gz") {
            let out = std::process::Command::new("gzip")
                .arg("-dc")
                .arg(&p)
                .output()
                .unwrap();
            out.stdout
        } else {
            bytes
        };
        let doc = chaff_dom::parse(&bytes).unwrap();
        let view = chaff_dom::text::TextView::new(&doc);
        texts.push(view.text().to_string());
    }
    eprintln!("{} expressions, {} texts", exprs.len(), texts.len());
    let t = Instant::now();
    let c = chaff_suffix::clean::Cleaner::new(&exprs).unwrap();
    let a: Vec<_> = texts.iter().map(|t| c.matches(t)).collect();
    eprintln!("current: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    // B: one alternation forward; reverse over all patterns anchored at the end.
    for variant in 0..3 {
        let t = Instant::now();
        let fwd = if variant == 2 {
            DFA::builder()
                .configure(
                    DFA::config()
                        .match_kind(MatchKind::All)
                        .cache_capacity(32 << 20),
                )
                .build_many(&exprs)
                .unwrap()
        } else {
            let alt: String = exprs
                .iter()
                .map(|e| format!("(?:{e})"))
                .collect::<Vec<_>>()
                .join("|");
            DFA::builder()
                .configure(
                    DFA::config()
                        .match_kind(MatchKind::All)
                        .cache_capacity(32 << 20),
                )
                .thompson(regex_automata::nfa::thompson::Config::new().shrink(variant == 1))
                .build(&alt)
                .unwrap()
        };
        let rev = DFA::builder()
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .cache_capacity(32 << 20),
            )
            .thompson(regex_automata::nfa::thompson::Config::new().reverse(true))
            .build_many(&exprs)
            .unwrap();
        let mut fc = fwd.create_cache();
        let mut rc = rev.create_cache();
        let mut b = Vec::new();
        let mut ft = 0.0;
        for text in &texts {
            let input = Input::new(text.as_str());
            let mut state = OverlappingState::start();
            let mut ends = Vec::new();
            let t0 = Instant::now();
            loop {
                fwd.try_search_overlapping_fwd(&mut fc, &input, &mut state)
                    .unwrap();
                let Some(hm) = state.get_match() else { break };
                if ends.last() != Some(&hm.offset()) {
                    ends.push(hm.offset());
                }
            }
            ft += t0.elapsed().as_secs_f64();
            let mut iv = Vec::new();
            for &end in &ends {
                let inp = Input::new(text.as_str())
                    .range(..end)
                    .anchored(Anchored::Yes);
                let s = rev
                    .try_search_rev(&mut rc, &inp)
                    .unwrap()
                    .map(|h| h.offset())
                    .unwrap_or(end);
                if s < end {
                    iv.push(s..end);
                }
            }
            b.push(chaff_suffix::clean::union(iv));
        }
        eprintln!(
            "variant {variant}: {:.1} ms (forward {:.1} ms), same: {}",
            t.elapsed().as_secs_f64() * 1e3,
            ft * 1e3,
            a == b
        );
    }
}

//! Dates as pages write them, made ISO 8601 without moving them to another time zone.

/// Month names (lower case) in the languages most pages use, with their number.
const MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
    ("januar", 1),
    ("februar", 2),
    ("märz", 3),
    ("maerz", 3),
    ("mai", 5),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("dezember", 12),
    ("okt", 10),
    ("dez", 12),
    ("janvier", 1),
    ("février", 2),
    ("fevrier", 2),
    ("mars", 3),
    ("avril", 4),
    ("juin", 6),
    ("juillet", 7),
    ("août", 8),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("décembre", 12),
    ("decembre", 12),
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("gennaio", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("giugno", 6),
    ("luglio", 7),
    ("settembre", 9),
    ("ottobre", 10),
    ("dicembre", 12),
    ("janeiro", 1),
    ("fevereiro", 2),
    ("março", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("dezembro", 12),
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mei", 5),
    ("augustus", 8),
];

/// A date as the page states it, in ISO 8601: an ISO date or date-time stays as written
/// (its zone too); `2021/03/05`, `05.03.2021`, `20210305`, `March 5, 2021`, `5. März 2021`
/// become `2021-03-05`. `None` when no date can be read without guessing (`03/05/2021`, where
/// day and month could be either).
pub fn normalize_date(s: &str) -> Option<String> {
    // Quotes left in by a page that quoted the value twice (`"\"2025-12-17\""` in JSON-LD).
    let s = s.trim().trim_matches(['"', '\'']).trim();
    if let Some(iso) = iso(s) {
        return Some(iso);
    }
    numeric(s).or_else(|| in_words(s))
}

fn ymd(y: u32, m: u32, d: u32) -> Option<String> {
    let days = match m {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return None,
    };
    ((1000..=2999).contains(&y) && (1..=days).contains(&d)).then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// `YYYY-MM-DD` at the start, kept with whatever follows (`T10:00:00+02:00`).
fn iso(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<u32>().ok();
    ymd(num(0..4)?, num(5..7)?, num(8..10)?)?;
    if b.len() > 10 && b[10].is_ascii_digit() {
        return None;
    }
    Some(s.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Digits only: `20210305`, `2021/03/05`, `2021.03.05`, `05.03.2021`, `05/03/2021` when the
/// order is certain.
fn numeric(s: &str) -> Option<String> {
    let head = s.split(|c: char| c.is_whitespace() || c == 'T').next()?;
    if head.len() == 8 && head.bytes().all(|b| b.is_ascii_digit()) {
        let n = |r: std::ops::Range<usize>| head[r].parse::<u32>().ok();
        return ymd(n(0..4)?, n(4..6)?, n(6..8)?);
    }
    let parts: Vec<&str> = head.split(['/', '.', '-']).collect();
    if parts.len() != 3
        || !parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let n: Vec<u32> = parts.iter().filter_map(|p| p.parse().ok()).collect();
    if parts[0].len() == 4 {
        return ymd(n[0], n[1], n[2]);
    }
    if parts[2].len() != 4 {
        return None;
    }
    let dotted = head.contains('.');
    match (n[0] > 12, n[1] > 12) {
        // 05.03.2021 is day first wherever dots are written.
        _ if dotted => ymd(n[2], n[1], n[0]),
        (true, false) => ymd(n[2], n[1], n[0]),
        (false, true) => ymd(n[2], n[0], n[1]),
        _ => None,
    }
}

/// A month's name with a day and a four-digit year around it.
fn in_words(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    let month_at = words
        .iter()
        .position(|w| MONTHS.iter().any(|(name, _)| name == w))?;
    let month = MONTHS.iter().find(|(name, _)| *name == words[month_at])?.1;
    let year = words
        .iter()
        .find(|w| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))?
        .parse::<u32>()
        .ok()?;
    let day_of = |w: &&str| -> Option<u32> {
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        let rest = &w[digits.len()..];
        let suffix_ok = matches!(rest, "" | "st" | "nd" | "rd" | "th" | "er" | "o" | "º");
        let d: u32 = digits.parse().ok()?;
        (suffix_ok && (1..=31).contains(&d) && digits.len() <= 2).then_some(d)
    };
    // The day is next to the month: just before it ("5 March") or just after ("March 5").
    let before = month_at
        .checked_sub(1)
        .and_then(|i| words.get(i))
        .and_then(day_of);
    let before = before.or_else(|| {
        month_at
            .checked_sub(2)
            .and_then(|i| words.get(i))
            .filter(|_| words.get(month_at - 1) == Some(&"de"))
            .and_then(day_of)
    });
    let after = words.get(month_at + 1).and_then(day_of);
    ymd(year, month, before.or(after)?)
}

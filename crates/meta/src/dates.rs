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

/// Whether `shown`, a day as the page shows it, is the day before or after the day of
/// `stated`, a date-time the markup gives with its time of day (both as [`normalize_date`]
/// writes them): the same moment, read in another zone. A page's markup often states the
/// moment in UTC (`2025-12-19T02:41:41+00:00`) while the page shows its own zone's day
/// ("December 18, 2025").
pub(crate) fn a_zone_apart(stated: &str, shown: &str) -> bool {
    match (day_number(stated), day_number(shown)) {
        (Some(a), Some(b)) if states_a_time(stated) => a.abs_diff(b) == 1,
        _ => false,
    }
}

/// Whether `shown` is a day before the day of `stated` (both as [`normalize_date`] writes
/// them, each with its day: a month alone is compared with nothing).
pub(crate) fn earlier_day(shown: &str, stated: &str) -> bool {
    matches!((day_number(shown), day_number(stated)), (Some(a), Some(b)) if a < b)
}

/// The day of a date as [`normalize_date`] writes it (`2025-07-08` of
/// `2025-07-08T10:00:00Z`).
pub(crate) fn day_of(date: &str) -> &str {
    date.get(..10).unwrap_or(date)
}

/// Whether a date as [`normalize_date`] writes it goes on with a time of day after its
/// `YYYY-MM-DD` (`2025-12-19T02:41:41+00:00`, `2026-02-15 03:05:48`).
pub(crate) fn states_a_time(date: &str) -> bool {
    date.get(10..).is_some_and(|rest| rest.contains(':'))
}

/// Days since 1 March of year 0 of an ISO date's first ten bytes (the proleptic Gregorian
/// calendar): consecutive days have consecutive numbers across months and years.
fn day_number(s: &str) -> Option<u32> {
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<u32>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    ymd(y, m, d)?;
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    Some(365 * y + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + d - 1)
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

/// Whether a word (any case) is a month's name in [`MONTHS`], or an English weekday's (in
/// full or cut to three letters).
pub(crate) fn is_month_or_weekday(word: &str) -> bool {
    const DAYS: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    month_named(word).is_some()
        || DAYS.iter().any(|d| {
            d.eq_ignore_ascii_case(word)
                || (word.len() == 3 && d.as_bytes()[..3].eq_ignore_ascii_case(word.as_bytes()))
        })
}

/// A month's name with a day and a four-digit year around it.
fn in_words(s: &str) -> Option<String> {
    // The year is a word of four ASCII digits. Lower-casing turns no other character into
    // an ASCII digit, so the text holds four of them in a row; most short texts with a
    // digit ("5 comments", "Page 2 of 10") do not, and are turned down before they are
    // lower-cased, split and looked up word by word against every month's name.
    if !has_digit_run(s, 4) {
        return None;
    }
    words_date(s)
}

/// [`in_words`] without its first look for a year.
fn words_date(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    let (month_at, month) = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| Some((i, month_named(w)?)))?;
    // The year written after the month ("November 18, 2019", "18 November 2019"), else the
    // nearest before it ("2019, 18 November"): a four-digit time elsewhere in the text
    // ("Updated 1909 GMT (0309 HKT) November 18, 2019") is no year.
    let four_digits = |w: &&&str| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit());
    let year = words[month_at + 1..]
        .iter()
        .find(four_digits)
        .or_else(|| words[..month_at].iter().rev().find(four_digits))?
        .parse::<u32>()
        .ok()?;
    let day_in = |w: &&str| -> Option<u32> {
        let digits = leading_digits(w);
        let rest = &w[digits.len()..];
        let suffix_ok = matches!(rest, "" | "st" | "nd" | "rd" | "th" | "er" | "o" | "º");
        let d: u32 = digits.parse().ok()?;
        (suffix_ok && (1..=31).contains(&d) && digits.len() <= 2).then_some(d)
    };
    // The day is next to the month: just before it ("5 March") or just after ("March 5").
    let before = month_at
        .checked_sub(1)
        .and_then(|i| words.get(i))
        .and_then(day_in);
    let before = before.or_else(|| {
        month_at
            .checked_sub(2)
            .and_then(|i| words.get(i))
            .filter(|_| words.get(month_at - 1) == Some(&"de"))
            .and_then(day_in)
    });
    let after = words.get(month_at + 1).and_then(day_in);
    ymd(year, month, before.or(after)?)
}

/// The day a URL's path gives, the way news sites and blogs file their posts:
/// `/2025/12/19/slug`, `/2025/12/19-slug`, `/2023/oct/03/slug` (a month's name: on wcxb-dev
/// one page more dated, right, and no other changed), `/posts/2025-12-15+title`,
/// `/2025_12_15_title`.
/// Only a whole day counts (a `/2025/12/` month is an archive's address as often as a
/// post's), only years 1990 to 2099, and only in the path (a query's `?date=` may name
/// anything). The digits of a group must stand apart from other digits, so an id such as
/// `/a19663621/` or `/120251219x` reads as nothing.
pub(crate) fn url_date(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let segments: Vec<&str> = parsed.path_segments()?.collect();
    segments
        .windows(3)
        .find_map(|w| {
            let day = leading_digits(w[2]);
            (is_year(w[0]) && (1..=2).contains(&day.len()))
                .then(|| ymd(w[0].parse().ok()?, path_month(w[1])?, day.parse().ok()?))
                .flatten()
        })
        .or_else(|| segments.iter().find_map(|s| dashed_day(s)))
}

/// Whether `s` holds `n` ASCII digits in a row.
fn has_digit_run(s: &str, n: usize) -> bool {
    let mut run = 0;
    s.bytes().any(|b| {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        run == n
    })
}

/// The ASCII digits a text starts with (the day of "5th", the day of a URL's `19-slug`).
fn leading_digits(s: &str) -> &str {
    let end = s
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(s.len());
    &s[..end]
}

/// A month as a URL's path writes it: one or two digits, or its name in [`MONTHS`] (any
/// case), as the Guardian files its stories (`/world/2023/oct/03/slug`).
fn path_month(s: &str) -> Option<u32> {
    if is_number(s, 2) {
        return s.parse().ok();
    }
    month_named(s)
}

/// The number of the month a word (any case) names in [`MONTHS`].
fn month_named(word: &str) -> Option<u32> {
    MONTHS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(word))
        .map(|&(_, m)| m)
}

/// One or up to `max` digits, nothing else.
fn is_number(s: &str, max: usize) -> bool {
    (1..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

fn is_year(s: &str) -> bool {
    s.len() == 4 && s.parse::<u32>().is_ok_and(|y| (1990..=2099).contains(&y))
}

/// `YYYY-MM-DD` (or with `_`) inside one path segment, not touching other digits.
fn dashed_day(segment: &str) -> Option<String> {
    let b = segment.as_bytes();
    (0..b.len()).find_map(|start| {
        if start > 0 && b[start - 1].is_ascii_digit() {
            return None;
        }
        let year = segment.get(start..start + 4)?;
        let sep = *b.get(start + 4)?;
        if !is_year(year) || !matches!(sep, b'-' | b'_') {
            return None;
        }
        let rest = &segment[start + 5..];
        let month = leading_digits(rest);
        let after_month = rest.as_bytes().get(month.len()).copied();
        if !(1..=2).contains(&month.len()) || after_month != Some(sep) {
            return None;
        }
        let day = leading_digits(&rest[month.len() + 1..]);
        if !(1..=2).contains(&day.len()) {
            return None;
        }
        ymd(year.parse().ok()?, month.parse().ok()?, day.parse().ok()?)
    })
}

#[cfg(test)]
mod words_tests {
    use proptest::prelude::*;

    proptest! {
        /// Turning a text down for want of four digits in a row never loses a date.
        #[test]
        fn the_look_for_a_year_loses_no_date(
            before in "(İ|ß|x|[0-9]| |-|/)?",
            day in "[0-9]{1,2}(st|th)?",
            month in "(March|mars|de|Dec|May|x)",
            year in "[0-9]{2,5}",
            seps in "[ ,./İ-]{1,2}",
            order in 0usize..3,
        ) {
            let s = match order {
                0 => format!("{before}{day}{seps}{month}{seps}{year}"),
                1 => format!("{before}{month}{seps}{day}{seps}{year}"),
                _ => format!("{year}{seps}{before}{month}{day}"),
            };
            prop_assert_eq!(super::in_words(&s), super::words_date(&s), "{:?}", s);
        }

        /// Whatever stands before a date in words (times of four digits, other years,
        /// words), its year is the one written after the month.
        #[test]
        fn the_year_is_the_one_after_the_month(
            before in proptest::collection::vec(
                prop_oneof![
                    Just("Updated".to_string()),
                    Just("GMT".to_string()),
                    Just("by".to_string()),
                    "[0-9]{4}",
                    "\\([0-9]{4}",
                ],
                0..6,
            ),
            year in 1000u32..3000,
            month in 0usize..12,
            day in 1u32..29,
        ) {
            const NAMES: [&str; 12] = [
                "January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December",
            ];
            let text = format!("{} {} {day}, {year}", before.join(" "), NAMES[month]);
            let want = format!("{year:04}-{:02}-{day:02}", month + 1);
            prop_assert_eq!(super::normalize_date(&text), Some(want));
        }
    }

    #[test]
    fn digit_runs_are_counted_by_hand() {
        assert!(super::has_digit_run("May 5, 2021", 4));
        assert!(!super::has_digit_run("5 comments, page 12 of 202", 4));
        assert!(!super::has_digit_run("", 4));
    }
}

#[cfg(test)]
mod url_tests {
    use super::{url_date, ymd};
    use proptest::prelude::*;

    #[test]
    fn days_in_paths() {
        let day = |u: &str| url_date(u);
        assert_eq!(
            day("https://blog.rust-lang.org/2025/12/19/what-do-people-love").as_deref(),
            Some("2025-12-19")
        );
        assert_eq!(
            day("https://example.org/blog/2025/6/9/top-10").as_deref(),
            Some("2025-06-09")
        );
        assert_eq!(
            day("https://example.org/2025/12/19-slug.html").as_deref(),
            Some("2025-12-19")
        );
        assert_eq!(
            day("https://example.org/2025/12/19").as_deref(),
            Some("2025-12-19")
        );
        assert_eq!(
            day("https://blog.example.fr/articles/2025-12-15+Rust+GCC+backend").as_deref(),
            Some("2025-12-15")
        );
        assert_eq!(
            day("https://example.org/blog/2025_12_17_minisgl").as_deref(),
            Some("2025-12-17")
        );
        assert_eq!(
            day("https://www.theguardian.com/world/2023/oct/03/some-story").as_deref(),
            Some("2023-10-03")
        );
        assert_eq!(
            day("https://example.org/knowledge-centre/blog/2023/October/03/how-to").as_deref(),
            Some("2023-10-03")
        );
        // A month, an id, a query, an impossible day, a year out of range, a word that is
        // no month's name: nothing.
        assert_eq!(day("https://example.org/2025/12/"), None);
        assert_eq!(day("https://example.org/2025/oct/"), None);
        assert_eq!(day("https://example.org/2025/news/12/slug"), None);
        assert_eq!(day("https://example.org/gear/a19663621/best-shoes/"), None);
        assert_eq!(day("https://example.org/p/120251219x"), None);
        assert_eq!(day("https://example.org/search?date=2025-12-19"), None);
        assert_eq!(day("https://example.org/2025/02/30/slug"), None);
        assert_eq!(day("https://example.org/1989/12/19/slug"), None);
        assert_eq!(day("https://example.org/2025/12/190/slug"), None);
        assert_eq!(day("https://example.org/x12025-12-19"), None);
        assert_eq!(
            day("https://example.org/2025-12-19-"),
            Some("2025-12-19".into())
        );
        assert_eq!(day("https://example.org/2025-12-"), None);
        assert_eq!(day("not a url"), None);
    }

    proptest! {
        /// Every way a day is filed reads back as that day, whatever the slug around it.
        #[test]
        fn a_filed_day_reads_back(
            y in 1990u32..=2099, m in 1u32..=12, d in 1u32..=28,
            slug in "[a-z]{0,12}", pad in any::<bool>(),
        ) {
            let want = ymd(y, m, d);
            let (mm, dd) = if pad { (format!("{m:02}"), format!("{d:02}")) } else { (m.to_string(), d.to_string()) };
            for url in [
                format!("https://example.org/{y}/{mm}/{dd}/{slug}"),
                format!("https://example.org/news/{y}/{mm}/{dd}-{slug}"),
                format!("https://example.org/posts/{slug}{y}-{mm}-{dd}"),
                format!("https://example.org/posts/{y}_{mm}_{dd}_{slug}"),
            ] {
                prop_assert_eq!(url_date(&url), want.clone(), "{}", url);
            }
        }

        /// A path without a four-digit run never gives a day; nor does any query.
        #[test]
        fn no_year_no_day(path in "[a-z0-9/_-]{0,30}", query in "[0-9/_-]{0,20}") {
            let url = format!("https://example.org/{path}?q={query}");
            let has_year = path.as_bytes().windows(4).any(|w| w.iter().all(u8::is_ascii_digit));
            if !has_year {
                prop_assert_eq!(url_date(&url), None);
            }
        }
    }
}

#[cfg(test)]
mod zone_tests {
    use super::{a_zone_apart, day_number, earlier_day};

    #[test]
    fn an_earlier_day_is_read_from_the_days_of_both() {
        assert!(earlier_day("2024-08-25", "2025-06-24"));
        assert!(earlier_day("2025-12-31", "2026-01-01T00:30:00+01:00"));
        // The same day (a time of day does not make it later), a later day, a month or a
        // day that does not exist on either side.
        assert!(!earlier_day("2025-06-24", "2025-06-24T09:00:00Z"));
        assert!(!earlier_day("2025-06-25", "2025-06-24"));
        assert!(!earlier_day("2024-08", "2025-06-24"));
        assert!(!earlier_day("2024-02-30", "2025-06-24"));
        assert!(!earlier_day("2024-08-25", ""));
    }

    #[test]
    fn a_day_apart_across_months_years_and_leap_days() {
        assert!(a_zone_apart("2025-12-19T02:41:41+00:00", "2025-12-18"));
        assert!(a_zone_apart("2025-12-18T23:25:38Z", "2025-12-19"));
        assert!(a_zone_apart("2026-01-01T01:00:00Z", "2025-12-31"));
        assert!(a_zone_apart("2024-03-01T01:00:00Z", "2024-02-29"));
        assert!(a_zone_apart("2025-03-01T01:00:00Z", "2025-02-28"));
        assert!(a_zone_apart("2100-03-01T01:00:00Z", "2100-02-28"));
        assert!(a_zone_apart("2000-03-01T01:00:00Z", "2000-02-29"));
        assert!(a_zone_apart("2026-02-15 03:05:48", "2026-02-14"));
        // The same day, two days apart, a stated day without its time, no date at all.
        assert!(!a_zone_apart("2025-12-18T02:41:41+00:00", "2025-12-18"));
        assert!(!a_zone_apart("2025-12-20T02:41:41+00:00", "2025-12-18"));
        assert!(!a_zone_apart("2025-12-19", "2025-12-18"));
        assert!(!a_zone_apart("2025-12-19T02:41", "December"));
        assert!(!a_zone_apart("", ""));
        // Not a date, whatever its bytes (the tenth inside a character).
        assert!(!a_zone_apart(
            "\u{20ac}\u{20ac}\u{20ac}\u{20ac}:",
            "2025-12-18"
        ));
    }

    /// Days in month `m` of year `y` in the Gregorian calendar.
    fn month_len(y: u32, m: u32) -> u32 {
        let leap = (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
        let february = if leap { 29 } else { 28 };
        [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m as usize - 1]
    }

    /// The day after `(y, m, d)`, counted the long way.
    fn next_day(y: u32, m: u32, d: u32) -> (u32, u32, u32) {
        if d < month_len(y, m) {
            (y, m, d + 1)
        } else if m < 12 {
            (y, m + 1, 1)
        } else {
            (y + 1, 1, 1)
        }
    }

    /// Every day from 1000 to 2999, walked one at a time: the next has the next number
    /// (century years, leap or not, included).
    #[test]
    fn consecutive_days_have_consecutive_numbers() {
        let (mut y, mut m, mut d) = (1000, 1, 1);
        let mut number = day_number("1000-01-01").expect("a day");
        while y < 3000 {
            assert_eq!(day_number(&format!("{y:04}-{m:02}-{d:02}")), Some(number));
            (y, m, d) = next_day(y, m, d);
            number += 1;
        }
    }
}

//! Calendar arithmetic and the date formats pages print.
//!
//! Dates are template (they differ on every page yet are never content), and real sites print
//! them in many formats; a method that strips "dates" must recognise all of these.

/// A minute-resolution timestamp in the proleptic Gregorian calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct DateTime {
    /// Days since 1970-01-01.
    pub(crate) day: i64,
    /// Minutes since midnight.
    pub(crate) minute: u32,
}

/// Howard Hinnant's `civil_from_days`: (year, month 1..=12, day 1..=31).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Days since 1970-01-01 of a civil date.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

const WEEKDAYS: [&str; 7] = [
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn ordinal_suffix(d: u32) -> &'static str {
    match (d % 10, d % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// The formats a site may print dates in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DateFmt {
    /// "Tuesday, 27th February 2007"
    LongOrdinal,
    /// "2007-02-27 14:05"
    IsoMinute,
    /// "Feb 27, 2007"
    ShortUs,
    /// "27/02/2007"
    SlashEu,
    /// "February 27, 2007 2:05 PM"
    LongUsTime,
    /// "27 February 2007, 14:05 GMT"
    DayMonthTime,
    /// "Posted 14:05" style relative-free time only: "14:05"
    TimeOnly,
}

impl DateFmt {
    pub(crate) const DATE_FORMATS: [DateFmt; 6] = [
        DateFmt::LongOrdinal,
        DateFmt::IsoMinute,
        DateFmt::ShortUs,
        DateFmt::SlashEu,
        DateFmt::LongUsTime,
        DateFmt::DayMonthTime,
    ];
}

impl DateTime {
    pub(crate) fn new(y: i64, m: u32, d: u32, minute: u32) -> DateTime {
        DateTime {
            day: days_from_civil(y, m, d),
            minute,
        }
    }

    pub(crate) fn add_minutes(self, minutes: u64) -> DateTime {
        let total = u64::from(self.minute) + minutes;
        DateTime {
            day: self.day + (total / 1440) as i64,
            minute: (total % 1440) as u32,
        }
    }

    pub(crate) fn year(self) -> i64 {
        civil_from_days(self.day).0
    }

    /// `YYYY-MM-DDTHH:MM` for `datetime` attributes.
    pub(crate) fn iso(self) -> String {
        let (y, m, d) = civil_from_days(self.day);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}",
            self.minute / 60,
            self.minute % 60
        )
    }

    pub(crate) fn format(self, fmt: DateFmt) -> String {
        let (y, m, d) = civil_from_days(self.day);
        let month = MONTHS[(m as usize + 11) % 12];
        let wd = WEEKDAYS[self.day.rem_euclid(7) as usize];
        let (hh, mm) = (self.minute / 60, self.minute % 60);
        match fmt {
            DateFmt::LongOrdinal => format!("{wd}, {d}{} {month} {y}", ordinal_suffix(d)),
            DateFmt::IsoMinute => format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}"),
            DateFmt::ShortUs => format!("{} {d}, {y}", &month[..3]),
            DateFmt::SlashEu => format!("{d:02}/{m:02}/{y}"),
            DateFmt::LongUsTime => {
                let h12 = if hh % 12 == 0 { 12 } else { hh % 12 };
                let ampm = if hh < 12 { "AM" } else { "PM" };
                format!("{month} {d}, {y} {h12}:{mm:02} {ampm}")
            }
            DateFmt::DayMonthTime => format!("{d} {month} {y}, {hh:02}:{mm:02} GMT"),
            DateFmt::TimeOnly => format!("{hh:02}:{mm:02}"),
        }
    }

    /// "Feb 27" for compact lists.
    pub(crate) fn short_day(self) -> String {
        let (_, m, d) = civil_from_days(self.day);
        format!("{} {d}", &MONTHS[(m as usize + 11) % 12][..3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        let t = DateTime::new(2007, 2, 27, 14 * 60 + 5);
        assert_eq!(
            t.format(DateFmt::LongOrdinal),
            "Tuesday, 27th February 2007"
        );
        assert_eq!(t.format(DateFmt::IsoMinute), "2007-02-27 14:05");
        assert_eq!(t.format(DateFmt::ShortUs), "Feb 27, 2007");
        assert_eq!(t.format(DateFmt::LongUsTime), "February 27, 2007 2:05 PM");
        assert_eq!(t.iso(), "2007-02-27T14:05");
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        for day in -1000..30_000 {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
        }
        assert_eq!(
            DateTime::new(2001, 1, 1, 0).format(DateFmt::LongOrdinal),
            "Monday, 1st January 2001"
        );
        assert_eq!(
            DateTime::new(2001, 1, 31, 1430).add_minutes(20),
            DateTime::new(2001, 2, 1, 10)
        );
    }
}

//! Durations as people type them: `1s`, `200ms`, `2m`, `1.5s`, `1h`, `0`.

use std::time::Duration;

/// Parses a duration: a non-negative decimal number followed by `ms`, `s`, `m` or `h`
/// (a bare `0` is zero). The error says what was expected.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if t == "0" {
        return Ok(Duration::ZERO);
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(|| format!("'{text}' has no unit: write e.g. 1s, 200ms or 2m"))?;
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' does not start with a number"))?;
    let seconds_per_unit = match unit.trim() {
        "ms" => 0.001,
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        other => {
            return Err(format!(
                "unknown unit '{other}' in '{text}': use ms, s, m or h"
            ));
        }
    };
    let secs = value * seconds_per_unit;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(format!("'{text}' is out of range"));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("200ms"), Ok(Duration::from_millis(200)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration(" 0 "), Ok(Duration::ZERO));
        assert_eq!(parse_duration("0ms"), Ok(Duration::ZERO));
    }

    #[test]
    fn errors() {
        assert!(parse_duration("1").is_err());
        assert!(parse_duration("s").is_err());
        assert!(parse_duration("1x").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("1e400s").is_err());
        assert!(parse_duration("").is_err());
    }
}

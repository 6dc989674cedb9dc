//! A probability in words, as the CLI's reports write it.

/// A probability for people, as the page writes it (`pct` in
/// web/format.js): a percentage whose distance to the nearer end, 0 or
/// 100%, keeps three significant digits, so that `0` and `100%` are
/// written only when exact: `33.3%`, `4.17%`, `0.0134%`, `99.9600%`,
/// `1.34e-18%`.
pub fn percent(p: f64) -> String {
    if p == 0.0 {
        return "0".into();
    }
    if p == 1.0 {
        return "100%".into();
    }
    let x = 100.0 * p;
    let near = x.min(100.0 - x);
    let decimals = if near >= 10.0 {
        1
    } else if near >= 1.0 {
        2
    } else {
        (2.0 - near.log10().floor()) as usize
    };
    match decimals {
        0..=8 => format!("{x:.decimals$}%"),
        _ if x < 50.0 => format!("{x:.2e}%"),
        _ => format!("(100 − {:.2e})%", 100.0 - x),
    }
}

#[cfg(test)]
mod tests {
    use super::percent;

    /// The page's `pct` (web/format.js) gives the same text for these.
    #[test]
    fn percent_keeps_three_digits_of_the_distance_to_the_nearer_end() {
        let cases = [
            (0.0, "0"),
            (1.0, "100%"),
            (0.333333, "33.3%"),
            (0.0417, "4.17%"),
            (0.000134, "0.0134%"),
            (0.9996, "99.9600%"),
            (1.3432440940468366e-07, "0.0000134%"),
            (1.34e-20, "1.34e-18%"),
            (1.0 - 1e-12, "(100 − 1.00e-10)%"),
            (0.5, "50.0%"),
            (0.0999, "9.99%"),
            (0.99, "99.00%"),
        ];
        for (p, want) in cases {
            assert_eq!(percent(p), want, "{p}");
        }
    }
}

//! The method table as the research reports it, and the medians of timed
//! runs: what `solve --methods` and `bench` print.

use super::CliError;
use sapper_engine::MethodTable;
use serde_json::{json, Value};

/// The method table as the research reports it (Tables 21–23): attempts,
/// successes, t_s, t_u, t_c (µs), in the solver's current order.
pub fn methods_json(t: &MethodTable) -> Value {
    let rows = std::iter::once(("rules", &t.rules))
        .chain(t.order().into_iter().map(|m| (m.name(), t.get(m))));
    Value::Array(
        rows.map(|(name, s)| {
            json!({
                "name": name,
                "attempts": s.attempts,
                "successes": s.successes,
                "cells": s.cells,
                "t_s_micros": round3(s.t_s_micros()),
                "t_u_micros": round3(s.t_u_micros()),
                "t_c_micros": round3(s.t_c_micros()),
            })
        })
        .collect(),
    )
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The human method table, one line per method.
pub fn print_method_table(t: &MethodTable) -> Result<(), CliError> {
    out!(
        "  {:<16} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
        "method",
        "attempts",
        "successes",
        "cells",
        "t_s µs",
        "t_u µs",
        "t_c µs"
    );
    let rows = std::iter::once(("rules", &t.rules))
        .chain(t.order().into_iter().map(|m| (m.name(), t.get(m))));
    for (name, s) in rows {
        if name == "rules" && s.attempts == 0 {
            continue;
        }
        out!(
            "  {:<16} {:>9} {:>9} {:>9} {:>10.3} {:>10.3} {:>10.3}",
            name,
            s.attempts,
            s.successes,
            s.cells,
            s.t_s_micros(),
            s.t_u_micros(),
            s.t_c_micros()
        );
    }
    Ok(())
}

/// Median of a list (sorted in place); 0 for an empty list.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

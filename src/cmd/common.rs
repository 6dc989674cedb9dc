//! Pieces shared by the subcommands: JSON shapes for deductions and counts.

use sapper_engine::methods::MethodTable;
use sapper_engine::solver::BySource;
use sapper_engine::{Grid, Method};
use serde_json::{json, Map, Value};

/// `{"rules": n, "single_cell": n, ...}`: cells determined by each source.
pub fn by_source_json(b: &BySource) -> Value {
    let mut m = Map::new();
    m.insert("rules".into(), json!(b.rules()));
    for meth in Method::ALL {
        m.insert(meth.name().into(), json!(b.methods[meth.index()]));
    }
    Value::Object(m)
}

/// `{"1": n, "2": n, "3": n}`: cells determined by rules of each order.
pub fn rules_by_order_json(b: &BySource) -> Value {
    let mut m = Map::new();
    for order in 1..=3 {
        m.insert(order.to_string(), json!(b.rules_by_order[order]));
    }
    Value::Object(m)
}

/// The method table as the research reports it (Tables 21–23): attempts,
/// successes, t_s, t_u, t_c (µs), in the solver's current order.
pub fn methods_json(t: &MethodTable) -> Value {
    Value::Array(
        t.order()
            .iter()
            .map(|&m| {
                let s = t.get(m);
                json!({
                    "name": m.name(),
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

/// `[row, col]`, zero-based.
pub fn cell_json(grid: Grid, i: u32) -> Value {
    let (r, c) = grid.rc(i);
    json!([r, c])
}

/// The human method table, one line per method.
pub fn print_method_table(t: &MethodTable) {
    println!(
        "  {:<16} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10}",
        "method", "attempts", "successes", "cells", "t_s µs", "t_u µs", "t_c µs"
    );
    for m in t.order() {
        let s = t.get(m);
        println!(
            "  {:<16} {:>9} {:>9} {:>9} {:>10.3} {:>10.3} {:>10.3}",
            m.name(),
            s.attempts,
            s.successes,
            s.cells,
            s.t_s_micros(),
            s.t_u_micros(),
            s.t_c_micros()
        );
    }
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

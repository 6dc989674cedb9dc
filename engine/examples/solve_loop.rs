use sapper_engine::formats::thesis::{find_fields, read_field};
use sapper_engine::methods::MethodTable;
use sapper_engine::rules::Rulebase;
use sapper_engine::solver::{solve_field_with, Layers, RuleTiers};
fn main() {
    let rules = std::env::args().nth(1).unwrap() == "rules";
    let rb = Rulebase::from_bytes(&std::fs::read("rules/default.rules").unwrap()).unwrap();
    let tiers = RuleTiers::new(&rb);
    let fields: Vec<_> = find_fields("/work/shared/data/sgt-expert".as_ref())
        .unwrap()
        .iter()
        .map(|r| read_field(&r.dir).unwrap())
        .collect();
    let layers = if rules {
        Layers {
            rules: Some(&tiers),
            methods: true,
            budget: sapper_engine::budget::Budget::unlimited(),
        }
    } else {
        Layers::METHODS_ONLY
    };
    let t0 = std::time::Instant::now();
    for _ in 0..20 {
        for f in &fields {
            let mut t = MethodTable::default();
            solve_field_with(f, layers, &mut t, None).unwrap();
        }
    }
    println!(
        "{:.2} ms per corpus",
        t0.elapsed().as_secs_f64() * 1e3 / 20.0
    );
}

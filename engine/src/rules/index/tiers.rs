//! The rulebase as the solver matches it: one rule index per order tier.
//! Here, under `rules`, so that the index's frozen form and saved files
//! need nothing from the solver; `solver` re-exports it.

use crate::rules::index::{Orientations, RuleIndex};
use crate::rules::Rulebase;

/// The rulebase as the solver matches it: one [`RuleIndex`] per order
/// (order 1, order 2, orders 3 and up together), tried in increasing
/// order. Order 1 is as cheap as the single-cell method; the costlier pair
/// (and higher) lookups run only in rounds where no lower order fires — the
/// same "cheapest first" idea as the methods' `t_c` order.
///
/// Orders 1 and 2 store every orientation of their rules (one scan per
/// call); orders ≥ 3 store each rule once ([`Orientations::One`]) and scan
/// the board in its 8 orientations: grown rulebases are almost all order
/// 3 (`sapper rules info` counts them), rarely consulted, and 8× smaller
/// stored once.
#[derive(Debug, PartialEq, Eq)]
pub struct RuleTiers {
    pub(crate) tiers: Vec<(u8, RuleIndex)>,
}

impl RuleTiers {
    /// Indexes the rules of `rb`, one [`RuleIndex`] per tier (order 1,
    /// order 2, orders 3 and up); tiers without rules are left out.
    pub fn new(rb: &Rulebase) -> RuleTiers {
        let tier_of = |r: &crate::rules::Rule| r.order().min(3);
        let mut orders: Vec<u8> = rb.rules.iter().map(tier_of).collect();
        orders.sort_unstable();
        orders.dedup();
        let tiers = orders
            .into_iter()
            .map(|order| {
                let rules: Vec<_> = rb
                    .rules
                    .iter()
                    .filter(|r| tier_of(r) == order)
                    .cloned()
                    .collect();
                let orientations = if order >= 3 {
                    Orientations::One
                } else {
                    Orientations::All
                };
                (order, RuleIndex::from_rules_in(&rules, orientations))
            })
            .collect();
        RuleTiers { tiers }
    }

    /// Tiers as [`RuleTiers::new`] makes them (for `rules::index::frozen`).
    pub(crate) fn from_tiers(tiers: Vec<(u8, RuleIndex)>) -> RuleTiers {
        RuleTiers { tiers }
    }

    /// `(order, index)` per tier, lowest order first.
    pub fn tiers(&self) -> &[(u8, RuleIndex)] {
        &self.tiers
    }

    /// Number of rules indexed.
    pub fn len(&self) -> usize {
        self.tiers.iter().map(|(_, ix)| ix.len()).sum()
    }

    /// Whether no rule is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

//! The fewest and the most mines the frontier of a position can hold, over
//! the layouts that fit its numbers (no total): what ms_toollib reports as
//! the ends of `[min, cur, max]`.
//!
//! A programme walks the frontier's variables, greedily along the
//! frontier (the next variable finishes the equation of the last one
//! closest to done), keeping one state per distinct vector of partial
//! sums of the *open* equations (those with a variable walked and one
//! still to come), and per state the fewest and the most mines that reach
//! it. A variable is tried at 0 and 1; a branch dies when an equation's
//! partial sum exceeds its target, or can no longer reach it with the
//! variables it has left, or misses it at its last variable. Where no
//! equation is open (between components) the states merge into one, whose
//! fewest and most mines are the sums over the components walked. An
//! equation's sum lives in four bits of a `u128` key (targets are at most
//! 8), so at most [`MAX_OPEN`] equations may be open at once, and at most
//! [`MAX_STATES`] states may be kept: past either the programme answers
//! [`Range::TooWide`] and the caller counts instead
//! (`compat::mine_range`). On 300 expert mid-game positions
//! (`benches/probabilities_baseline.py`) a variable leaves 2 states on
//! average, at most 18, with at most 21 equations open.

use sapper_engine::constraints::System;
use std::collections::VecDeque;

/// Most equations open at once (four bits each in a `u128`).
pub const MAX_OPEN: usize = 32;
/// Most states kept after a variable.
pub const MAX_STATES: usize = 1 << 12;

/// What [`frontier_range`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// The fewest and the most frontier mines of a layout that fits.
    Found(u32, u32),
    /// No layout fits the numbers.
    NoLayout,
    /// The frontier is too wide for the programme's limits.
    TooWide,
}

/// The frontier's range over every layout that fits `system`'s equations.
pub fn frontier_range(system: &System) -> Range {
    let equations = system.equations();
    let mut walk = Walk {
        left: equations.iter().map(|e| e.vars.len() as u8).collect(),
        slot: vec![0; equations.len()],
        walked: vec![false; system.frontier().len()],
        open: VecDeque::with_capacity(64),
        states: Vec::with_capacity(64),
        next: Vec::with_capacity(128),
    };
    walk.frontier(system)
}

/// One state: the open equations' partial sums, and the fewest and most
/// mines of the variables so far that reach them.
#[derive(Clone, Copy)]
struct State {
    key: u128,
    min: u32,
    max: u32,
}

/// The programme's buffers, indexed by the system's equation and variable
/// numbers.
struct Walk {
    /// Per equation, its variables not walked yet.
    left: Vec<u8>,
    /// Per open equation, its four bits of the key.
    slot: Vec<u8>,
    /// Per variable, whether it has been walked.
    walked: Vec<bool>,
    /// Open equations, oldest first (some may have closed since).
    open: VecDeque<u32>,
    states: Vec<State>,
    next: Vec<State>,
}

impl Walk {
    /// The range of the frontier: every variable walked once.
    fn frontier(&mut self, system: &System) -> Range {
        let equations = system.equations();
        // Bit s: slot s is free.
        let mut free_slots: u32 = u32::MAX >> (32 - MAX_OPEN);
        self.open.clear();
        self.states.clear();
        self.states.push(State {
            key: 0,
            min: 0,
            max: 0,
        });
        let mut first_unwalked = 0;
        let mut last: Option<u32> = None;
        for _ in 0..system.frontier().len() {
            let var = self.next_var(system, last, &mut first_unwalked);
            self.walked[var as usize] = true;
            last = Some(var);
            // (slot, target, variables left after this one) of each
            // equation of `var`.
            let mut touched = [(0u8, 0u8, 0u8); 8];
            let mut closing = 0u32;
            let eqs = system.equations_of(var);
            for (t, &e) in touched.iter_mut().zip(eqs) {
                let e = e as usize;
                if self.left[e] == equations[e].vars.len() as u8 {
                    if free_slots == 0 {
                        return Range::TooWide;
                    }
                    self.slot[e] = free_slots.trailing_zeros() as u8;
                    free_slots &= free_slots - 1;
                    self.open.push_back(e as u32);
                }
                self.left[e] -= 1;
                *t = (self.slot[e], equations[e].target, self.left[e]);
                if self.left[e] == 0 {
                    closing |= 1 << self.slot[e];
                }
            }
            let touched = &touched[..eqs.len()];
            self.next.clear();
            for s in &self.states {
                'value: for x in 0..=1u32 {
                    let mut key = s.key;
                    for &(slot, target, after) in touched {
                        let shift = 4 * u32::from(slot);
                        let sum = ((key >> shift) & 15) as u8 + x as u8;
                        if sum > target || sum + after < target {
                            continue 'value;
                        }
                        key &= !(15u128 << shift);
                        if after > 0 {
                            key |= u128::from(sum) << shift;
                        }
                    }
                    self.next.push(State {
                        key,
                        min: s.min + x,
                        max: s.max + x,
                    });
                }
            }
            self.next.sort_unstable_by_key(|s| s.key);
            self.states.clear();
            for s in self.next.drain(..) {
                match self.states.last_mut() {
                    Some(last) if last.key == s.key => {
                        last.min = last.min.min(s.min);
                        last.max = last.max.max(s.max);
                    }
                    _ => self.states.push(s),
                }
            }
            if self.states.is_empty() {
                return Range::NoLayout;
            }
            if self.states.len() > MAX_STATES {
                return Range::TooWide;
            }
            // The slots of the equations that closed serve the next ones.
            free_slots |= closing;
        }
        // Every equation has closed: one state, key 0.
        let min = self.states.iter().map(|s| s.min).min().unwrap_or(0);
        let max = self.states.iter().map(|s| s.max).max().unwrap_or(0);
        Range::Found(min, max)
    }

    /// The next variable to walk: along the frontier, so that few
    /// equations are open at once. Greedy: a variable of the equation of
    /// the last one walked that has the fewest variables left; else one of
    /// the oldest equation still open; else (to start a component) the
    /// first in cell order.
    fn next_var(&mut self, system: &System, last: Option<u32>, first_unwalked: &mut u32) -> u32 {
        let equations = system.equations();
        // Among the equations of the last variable, the one closest to
        // closing.
        if let Some(v) = last {
            let mut best: Option<(u8, u32)> = None;
            for &e in system.equations_of(v) {
                let left = self.left[e as usize];
                if left > 0 && best.is_none_or(|(b, _)| left < b) {
                    best = Some((left, e));
                }
            }
            if let Some((_, e)) = best {
                for &w in equations[e as usize].vars.as_slice() {
                    if !self.walked[w as usize] {
                        return w;
                    }
                }
            }
        }
        while let Some(&e) = self.open.front() {
            let found = equations[e as usize]
                .vars
                .as_slice()
                .iter()
                .copied()
                .find(|&w| !self.walked[w as usize]);
            match found {
                Some(w) => return w,
                None => {
                    self.open.pop_front();
                }
            }
        }
        while self.walked[*first_unwalked as usize] {
            *first_unwalked += 1;
        }
        *first_unwalked
    }
}

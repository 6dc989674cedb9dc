//! The switches of the shipped player ([`super::Policy::SecondSafety`]): its
//! refinements, each of which `sapper play --without` turns off by name to
//! measure what it is worth on the same games; the search that uses them
//! is in [`super::guess`].

/// The refinements of [`super::Policy::SecondSafety`], each of which can be
/// turned off to measure it (`sapper play --without`). The default has
/// them all on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Guessing {
    /// Open a free guess (a cell that is safe or half of an unavoidable
    /// 50/50, [`super::fifty::free_guess`]) before any other guess.
    pub free_fifties: bool,
    /// Weight of a cell's 50/50 influence ([`super::fifty::influence`]) added
    /// back to its safety when guesses are compared; 0 turns it off.
    pub influence: f64,
    /// Rate the position after a guess by `(4 · best + second best) / 5`
    /// of its safeties rather than by the best alone: a position with two
    /// good moves is worth more than one with a single good move.
    pub blend: bool,
    /// Never guess a dead candidate (one that can show only one number, so
    /// that opening it tells nothing) while a living one is scored.
    pub dead: bool,
    /// Look ahead from at most this many candidates off the frontier
    /// (closed cells with no revealed neighbour); `None`: from as many as
    /// the other candidates leave room for.
    pub off_frontier_cap: Option<usize>,
    /// Play an isolated region (closed cells nothing else will tell about,
    /// [`super::isolated`]) exactly, before any other guess.
    pub isolated: bool,
    /// Score guesses three moves deep, not two
    /// ([`super::guess::second_safety`]): about 0.04 points more classic
    /// expert games won, at about four fifths of the speed (the figures are
    /// in docs/performance.md).
    pub third_move: bool,
}

/// The candidates off the frontier the shipped player looks ahead from
/// ([`Guessing::off_frontier_cap`]): they share one probability, so the cells
/// with fewest closed neighbours stand for all of them, and the frontier
/// cells a little less safe (which tell more) get the other slots.
pub const OFF_FRONTIER_CANDIDATES: usize = 2;

/// With [`Guessing::third_move`], a position after a guess where the next
/// move is a guess too is rated by the best two-move score of this many of
/// its safest candidates.
pub const THIRD_MOVE_REPLIES: usize = 4;

/// The weight of the 50/50 influence in the shipped player: below 1
/// because overlapping patterns are summed.
pub const INFLUENCE_WEIGHT: f64 = 0.9;

impl Default for Guessing {
    fn default() -> Guessing {
        Guessing {
            free_fifties: true,
            influence: INFLUENCE_WEIGHT,
            blend: true,
            dead: true,
            off_frontier_cap: Some(OFF_FRONTIER_CANDIDATES),
            isolated: true,
            third_move: true,
        }
    }
}

/// One refinement of [`Guessing`], by the name `sapper play --without` and
/// `--with` (and Python's `play`) know it by.
///
/// ```
/// use sapper_engine::play::{Guessing, Refinement};
///
/// let mut guessing = Guessing::default();
/// guessing.set(Refinement::from_name("blend").unwrap(), false);
/// assert!(!guessing.blend);
/// assert!(Refinement::ALL.iter().all(|r| r.on_by_default()));
/// assert_eq!(Refinement::from_name("nothing"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refinement {
    /// [`Guessing::free_fifties`].
    FreeFifties,
    /// [`Guessing::influence`] (on: [`INFLUENCE_WEIGHT`]).
    Influence,
    /// [`Guessing::blend`].
    Blend,
    /// [`Guessing::dead`].
    Dead,
    /// [`Guessing::off_frontier_cap`] (on: [`OFF_FRONTIER_CANDIDATES`]).
    OffFrontierCap,
    /// [`Guessing::isolated`].
    Isolated,
    /// [`Guessing::third_move`].
    ThirdMove,
}

impl Refinement {
    /// Every refinement, in the order of [`Guessing`]'s fields.
    pub const ALL: [Refinement; 7] = [
        Refinement::FreeFifties,
        Refinement::Influence,
        Refinement::Blend,
        Refinement::Dead,
        Refinement::OffFrontierCap,
        Refinement::Isolated,
        Refinement::ThirdMove,
    ];

    /// Its name: `free-fifties`, `influence`, `blend`, `dead`,
    /// `off-frontier-cap`, `isolated`, `third-move`.
    pub fn name(self) -> &'static str {
        match self {
            Refinement::FreeFifties => "free-fifties",
            Refinement::Influence => "influence",
            Refinement::Blend => "blend",
            Refinement::Dead => "dead",
            Refinement::OffFrontierCap => "off-frontier-cap",
            Refinement::Isolated => "isolated",
            Refinement::ThirdMove => "third-move",
        }
    }

    /// The refinement called `name` ([`Refinement::name`]), if any.
    pub fn from_name(name: &str) -> Option<Refinement> {
        Refinement::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Whether `guessing` has it on.
    pub fn is_on(self, guessing: &Guessing) -> bool {
        match self {
            Refinement::FreeFifties => guessing.free_fifties,
            Refinement::Influence => guessing.influence > 0.0,
            Refinement::Blend => guessing.blend,
            Refinement::Dead => guessing.dead,
            Refinement::OffFrontierCap => guessing.off_frontier_cap.is_some(),
            Refinement::Isolated => guessing.isolated,
            Refinement::ThirdMove => guessing.third_move,
        }
    }

    /// Whether [`Guessing::default`] has it on (every refinement is).
    pub fn on_by_default(self) -> bool {
        self.is_on(&Guessing::default())
    }
}

impl Guessing {
    /// Turns `refinement` on (as in [`Guessing::default`] where it is on by
    /// default) or off.
    pub fn set(&mut self, refinement: Refinement, on: bool) {
        match refinement {
            Refinement::FreeFifties => self.free_fifties = on,
            Refinement::Influence => self.influence = if on { INFLUENCE_WEIGHT } else { 0.0 },
            Refinement::Blend => self.blend = on,
            Refinement::Dead => self.dead = on,
            Refinement::OffFrontierCap => {
                self.off_frontier_cap = on.then_some(OFF_FRONTIER_CANDIDATES);
            }
            Refinement::Isolated => self.isolated = on,
            Refinement::ThirdMove => self.third_move = on,
        }
    }
}

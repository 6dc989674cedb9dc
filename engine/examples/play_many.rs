//! Many seeded games with the sapper player: the win rate with its 95%
//! interval; the same seed gives the same summary on any thread count.
//!
//! ```text
//! cargo run --release -p sapper-engine --example play_many [GAMES]
//! ```

use sapper_engine::{Engine, Level, PlaySettings};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 500,
    };
    let engine = Engine::new()?;
    // Classic rules: the first click is safe, in the top-left corner.
    let settings = PlaySettings::new(Level::BEGINNER).games(games).seed(1);
    let summary = engine.play(&settings)?;
    let (lo, hi) = summary.ci95();
    println!(
        "beginner: {} / {} won, {:.2}% (95% CI {:.2}–{:.2}%), {:.2} guesses a game, {:.0} games/s",
        summary.wins,
        summary.games,
        100.0 * summary.win_rate(),
        100.0 * lo,
        100.0 * hi,
        summary.guesses_per_game(),
        summary.games_per_second()
    );
    Ok(())
}

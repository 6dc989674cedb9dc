//! A game clicked step by step, as a GUI or a bot would: the engine gives
//! each move from what a player sees, the game opens the cells.
//!
//! ```text
//! cargo run -p sapper-engine --example play_game [SEED]
//! ```

use sapper_engine::game::Opened;
use sapper_engine::{Engine, FirstClick, Game, Level, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 4,
    };
    let engine = Engine::new()?;
    // Intermediate, the first click at (3,3) opens an area.
    let mut game = Game::random(Level::INTERMEDIATE, FirstClick::Opening, (3, 3), seed)?;
    let mut moves = 0;
    while !game.is_won() && !game.is_lost() {
        let position: Position = game.position().to_position();
        let m = engine.next_move(&position)?;
        moves += 1;
        if let Some(p) = m.p_mine {
            let (r, c) = game.grid().rc(m.open[0]);
            println!("move {moves}: guess ({r},{c}), mine with probability {p:.3}");
        }
        for &cell in &m.open {
            if game.open(cell) == Opened::Mine {
                break;
            }
        }
    }
    let outcome = if game.is_won() { "won" } else { "lost" };
    println!("{outcome} after {moves} moves; the last position:");
    print!("{}", game.position().to_position());
    Ok(())
}

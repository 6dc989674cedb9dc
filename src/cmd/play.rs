//! `sapper play`: whole games with the sapper player (`sapper_engine::play`).

use super::common::{by_source_json, default_tiers, rules_by_order_json, GameArgs};
use super::CliError;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use sapper_engine::game::FirstClick;
use sapper_engine::play::{play_game, GameRecord, Policy, SapperPlayer, ENDGAME_LAYOUTS};
use sapper_engine::solver::BySource;
use sapper_engine::Method;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Play whole games: deductions where they exist, the best guess where they
/// do not, and report the win rate.
///
/// Each game is a uniform random board under the first-click rule (by
/// default `safe` with the first click in the top-left corner: "classic";
/// `--first-click opening` clicks (3,3) and keeps it and its neighbours
/// mine-free: "modern"), drawn from --seed and the game's index, so a run
/// gives the same games and the same summary on any number of threads.
/// The player sees only what a player sees; it opens every cell the solver
/// proves safe and, when nothing is forced, guesses with the exact mine
/// probabilities: by default (`second-safety`) the cell that maximizes the
/// chance of surviving this guess and the next move; `least` guesses the
/// least likely cell; `informed` prefers, among near-ties, cells likely to
/// open an area.
///
/// Prints wins / games, the win rate with its 95% confidence interval
/// (Wilson), guesses per game (all games, and won games), games per second,
/// and the cells proven safe by what proved them (rules, then each of the
/// four methods).
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// How to guess when nothing is forced.
    #[arg(long, value_enum, default_value_t = PolicyArg::SecondSafety)]
    policy: PolicyArg,
    /// Play positions with at most N mine layouts exactly: an exhaustive
    /// search of the game tree finds the guess that wins most often (it
    /// gives up, and the policy guesses, if the search grows too big).
    /// 0 turns it off.
    #[arg(long, value_name = "N", default_value_t = ENDGAME_LAYOUTS)]
    endgame_layouts: usize,
    /// One JSON summary object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write one JSON line per game to FILE (index, won, clicks,
    /// guesses, seed), written whole at the end.
    #[arg(long, value_name = "FILE")]
    games_json: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PolicyArg {
    Least,
    Informed,
    SecondSafety,
}

/// The Wilson score interval of `wins` out of `n` at 95%.
fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    ((centre - half) / d, (centre + half) / d)
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let (level, first_click, start) = args.game.game(FirstClick::Safe)?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if let Some(file) = &args.games_json {
        sapper_engine::files::write_target(file)?;
    }
    let policy = match args.policy {
        PolicyArg::Least => Policy::LeastProbability,
        PolicyArg::Informed => Policy::Informed,
        PolicyArg::SecondSafety => Policy::SecondSafety,
    };
    let tiers = default_tiers()?;
    let seed = args.game.seed;
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "games {pos}/{len} {msg} [{elapsed_precise}] {wide_bar} eta {eta}",
        )
        .expect("valid template"),
    );
    let wins_so_far = AtomicU64::new(0);
    let t0 = Instant::now();
    let records: Vec<GameRecord> = (0..args.games)
        .into_par_iter()
        .map(|index| {
            // A fresh player per game: the solver's method order adapts
            // to what it has seen, so a player shared by the games one
            // thread happens to get would credit deductions to methods
            // differently from run to run.
            let mut player =
                SapperPlayer::new(Some(&tiers), policy).with_endgame(args.endgame_layouts);
            let r = play_game(level, first_click, start, seed, index, &mut player)?;
            let wins = wins_so_far.fetch_add(r.won as u64, Ordering::Relaxed) + r.won as u64;
            bar.inc(1);
            if index % 64 == 0 {
                bar.set_message(format!(
                    "win rate {:.2}%",
                    100.0 * wins as f64 / bar.position().max(1) as f64
                ));
            }
            Ok(r)
        })
        .collect::<Result<_, String>>()?;
    let seconds = t0.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let n = records.len() as u64;
    let wins = records.iter().filter(|r| r.won).count() as u64;
    let guesses: u64 = records.iter().map(|r| r.guesses as u64).sum();
    let won_guesses: u64 = records
        .iter()
        .filter(|r| r.won)
        .map(|r| r.guesses as u64)
        .sum();
    let mut opened_by = BySource::default();
    for r in &records {
        opened_by.merge(&r.opened_by);
    }
    let (lo, hi) = wilson(wins, n);
    if let Some(file) = &args.games_json {
        let mut text = String::new();
        for r in &records {
            text.push_str(&format!(
                "{{\"index\":{},\"won\":{},\"clicks\":{},\"guesses\":{},\"seed\":{seed}}}\n",
                r.index, r.won, r.clicks, r.guesses
            ));
        }
        sapper_engine::files::write_whole(file, text.as_bytes())?;
    }
    let rate = wins as f64 / n as f64;
    if args.json {
        let summary = serde_json::json!({
            "games": n,
            "wins": wins,
            "win_rate": rate,
            "ci95": [lo, hi],
            "guesses_per_game": guesses as f64 / n as f64,
            "guesses_per_won_game": if wins > 0 { won_guesses as f64 / wins as f64 } else { 0.0 },
            "games_per_second": n as f64 / seconds,
            "level": {"rows": level.rows, "cols": level.cols, "mines": level.mines},
            "first_click": first_click.name(),
            "start": [start.0, start.1],
            "seed": seed,
            "policy": match policy {
                Policy::LeastProbability => "least",
                Policy::Informed => "informed",
                Policy::SecondSafety => "second-safety",
            },
            "endgame_layouts": args.endgame_layouts,
            "opened_by_source": by_source_json(&opened_by),
            "opened_by_rule_order": rules_by_order_json(&opened_by),
        });
        out!("{summary}");
    } else {
        out!(
            "{wins} / {n} games won: {:.2}% (95% CI {:.2}–{:.2}%), {}×{} with {} mines, {} first click at ({},{}), seed {seed}",
            100.0 * rate,
            100.0 * lo,
            100.0 * hi,
            level.rows,
            level.cols,
            level.mines,
            first_click.name(),
            start.0,
            start.1
        );
        out!(
            "guesses per game {:.2} ({:.2} per won game); {:.0} games per second",
            guesses as f64 / n as f64,
            if wins > 0 {
                won_guesses as f64 / wins as f64
            } else {
                0.0
            },
            n as f64 / seconds
        );
        let total = opened_by.total().max(1) as f64;
        let share = |k: u64| format!("{k} ({:.1}%)", 100.0 * k as f64 / total);
        let mut sources = vec![format!("rules {}", share(opened_by.rules()))];
        for m in Method::ALL {
            sources.push(format!(
                "{} {}",
                m.name(),
                share(opened_by.methods[m.index()])
            ));
        }
        out!(
            "cells proven safe: {}; by source: {}",
            opened_by.total(),
            sources.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::wilson;

    /// Against values computed by hand from the formula.
    #[test]
    fn wilson_interval_matches_the_formula() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 10);
        assert!(lo.abs() < 1e-12 && (hi - 0.2775).abs() < 1e-4, "{lo} {hi}");
    }
}

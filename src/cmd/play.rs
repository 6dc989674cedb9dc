//! `sapper play`: whole games with the sapper player (`sapper_engine::play`).

use super::args::{count_arg, GameArgs};
use super::rulebase::default_engine;
use super::{json, CliError};
use clap::builder::TypedValueParser as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sapper_engine::files::WholeFile;
use sapper_engine::game::FirstClick;
use sapper_engine::play::{Guessing, Policy, Refinement, ENDGAME_LAYOUTS, MAX_ENDGAME_LAYOUTS};
use sapper_engine::report::{GameLine, PlayReport};
use sapper_engine::{Method, PlaySettings};
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// Games to play (summed up as they end: any number runs in flat
    /// memory).
    #[arg(long, default_value_t = 1000, allow_hyphen_values = true, value_parser = count_arg::<u64>)]
    games: u64,
    /// How to guess when nothing is forced.
    #[arg(long, default_value = "second-safety", value_parser = policy_arg())]
    policy: Policy,
    /// Play positions with at most N mine layouts exactly: an exhaustive
    /// search of the game tree finds the guess that wins most often (it
    /// gives up, and the policy guesses, past 20,000 states or a 64 MB
    /// table). 0 turns it off; at most 65535.
    #[arg(
        long,
        value_name = "N",
        default_value_t = ENDGAME_LAYOUTS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_ENDGAME_LAYOUTS as u64)
    )]
    endgame_layouts: usize,
    /// Turn off refinements of `second-safety`, to measure what each is
    /// worth on the same games (comma-separated or repeated):
    /// `free-fifties` (open a cell that is safe or half of an unavoidable
    /// 50/50 before any other guess), `influence` (count back the part of a
    /// guess's risk that a 50/50 makes unavoidable anyway), `blend` (rate
    /// the next move by its two best safeties, not the best alone), `dead`
    /// (guess dead cells, which can show one number only, like any other),
    /// `off-frontier-cap` (look ahead from as many cells off the frontier
    /// as there is room for, not the two with fewest closed neighbours),
    /// `isolated` (guess in a region nothing else will tell about like
    /// anywhere else, not by its exact game tree first), `third-move`
    /// (score guesses two moves deep, not three where the next move would
    /// be a guess too: faster, a little weaker; the figures are in
    /// docs/performance.md).
    #[arg(long, value_name = "REFINEMENT", value_delimiter = ',', value_parser = refinement_arg())]
    without: Vec<Refinement>,
    /// Turn refinements on (the same names). Every one is on by default,
    /// so this only restates the default (scripts written when
    /// `third-move` was off keep working); naming a refinement here and in
    /// --without is an error.
    #[arg(long, value_name = "REFINEMENT", value_delimiter = ',', value_parser = refinement_arg())]
    with: Vec<Refinement>,
    /// One JSON summary object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write one JSON line per game to FILE (index, won, clicks,
    /// guesses, seed), in game order as the games end; FILE is replaced
    /// whole at the end (checked writable before the first game).
    #[arg(long, value_name = "FILE")]
    games_json: Option<PathBuf>,
    /// Also write every game as a replay, `DIR/game-INDEX.rawvf` (RAWVF,
    /// the community's open text format; DIR is created if missing): the
    /// board and the player's clicks, which `sapper review` reviews click
    /// by click as it does a person's game.
    #[arg(long, value_name = "DIR")]
    replays: Option<PathBuf>,
}

/// The policies by their engine names.
fn policy_arg() -> impl clap::builder::TypedValueParser<Value = Policy> {
    clap::builder::PossibleValuesParser::new(Policy::ALL.map(Policy::name))
        .map(|name| Policy::from_name(&name).expect("a possible value"))
}

/// The refinements by their engine names.
fn refinement_arg() -> impl clap::builder::TypedValueParser<Value = Refinement> {
    let names = Refinement::ALL.into_iter().map(Refinement::name);
    clap::builder::PossibleValuesParser::new(names)
        .map(|name| Refinement::from_name(&name).expect("a possible value"))
}

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let (level, first_click, start) = args.game.game(FirstClick::Safe)?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    // The per-game file is opened before any game is played: one that
    // cannot be written fails now, not after the games.
    let mut games_json = match &args.games_json {
        Some(file) => Some(WholeFile::create(file)?),
        None => None,
    };
    let replays = args.replays.clone();
    if let Some(folder) = &replays {
        std::fs::create_dir_all(folder)
            .map_err(|e| format!("{}: cannot create the folder: {e}", folder.display()))?;
    }
    let policy = args.policy;
    if let Some(both) = args.with.iter().find(|r| args.without.contains(r)) {
        return Err(format!(
            "--with and --without both name `{}`: give it to one of them",
            both.name()
        )
        .into());
    }
    let mut guessing = Guessing::default();
    for &refinement in &args.without {
        guessing.set(refinement, false);
    }
    for &refinement in &args.with {
        guessing.set(refinement, true);
    }
    let engine = default_engine()?;
    let seed = args.game.seed;
    let settings = PlaySettings {
        level,
        first_click,
        start: Some(start),
        games: args.games,
        seed,
        policy,
        endgame_layouts: args.endgame_layouts,
        guessing,
    };
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "games {pos}/{len} {msg} [{elapsed_precise}] {wide_bar} eta {eta}",
        )
        .expect("valid template"),
    );
    let wins_so_far = AtomicU64::new(0);
    // Each game's line is written in index order as the games end; a
    // failed write stops the lines, not the games, and is reported after
    // the summary.
    let mut write_error = None;
    let mut replay_error = None;
    let progress = |r: &sapper_engine::play::GameRecord| {
        let wins = wins_so_far.fetch_add(r.won as u64, Ordering::Relaxed) + r.won as u64;
        bar.inc(1);
        if r.index.is_multiple_of(64) {
            bar.set_message(format!(
                "win rate {:.2}%",
                100.0 * wins as f64 / bar.position().max(1) as f64
            ));
        }
    };
    let mut line = |r: &sapper_engine::play::GameRecord| {
        let Some(file) = games_json.as_mut() else {
            return ControlFlow::Break(());
        };
        match file.write_all(&json::line(&GameLine { record: r, seed }, 96)) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                write_error = Some(file.error(&e).to_string());
                ControlFlow::Break(())
            }
        }
    };
    let summary = match &replays {
        None => engine.play_each(&settings, &progress, &mut line),
        Some(folder) => {
            let digits = (args.games - 1).to_string().len();
            let mut writing = true;
            engine.play_each_recorded(&settings, &progress, &mut |r, replay| {
                let lines = line(r);
                if writing {
                    let name = format!("game-{:0digits$}.rawvf", r.index);
                    if let Err(e) = write_replay(folder, &name, replay) {
                        writing = false;
                        replay_error = Some(e);
                    }
                }
                match (lines, writing) {
                    (ControlFlow::Break(()), false) => ControlFlow::Break(()),
                    _ => ControlFlow::Continue(()),
                }
            })
        }
    };
    bar.finish_and_clear();
    let summary = summary?;
    let seconds = summary.seconds;
    let (n, wins, opened_by) = (summary.games, summary.wins, summary.opened_by);
    let (lo, hi) = summary.ci95();
    let rate = wins as f64 / n as f64;
    if args.json {
        let report = PlayReport {
            summary: &summary,
            settings: &settings,
        };
        std::io::stdout()
            .lock()
            .write_all(&json::line(&report, 1024))
            .map_err(|e| format!("writing output: {e}"))?;
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
            summary.guesses_per_game(),
            summary.guesses_per_won_game(),
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
    // The per-game file, whole, once the summary is out.
    if let Some(e) = write_error.or(replay_error) {
        return Err(e.into());
    }
    if let Some(file) = games_json {
        file.commit()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `replay` as RAWVF to `folder/name`, whole (a temporary file
/// beside it, then renamed).
fn write_replay(
    folder: &std::path::Path,
    name: &str,
    replay: &sapper_engine::formats::replay::Replay,
) -> Result<(), String> {
    let path = folder.join(name);
    let text = sapper_engine::formats::replay::rawvf::write_rawvf(replay)
        .map_err(|kind| format!("{}: a {} event", path.display(), kind.code()))?;
    let temporary = folder.join(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            format!("{}: cannot write: {e}", path.display())
        })
}

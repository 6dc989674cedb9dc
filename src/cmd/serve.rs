//! `sapper serve`: a local web page — an analyser with a probability heat
//! map and a no-guess game — over a small JSON API.
//!
//! - [`api`]: the router, the JSON endpoints and their limits;
//! - [`assets`]: the page, its style and scripts, embedded in the binary.
//!
//! The heat map's palette is `super::heatmap`'s, shared with the SVG
//! renderer of `sapper analyse --probabilities --svg`.

pub mod api;
mod assets;
#[cfg(test)]
mod tests;

use super::rulebase::default_engine;
use super::CliError;
use sapper_engine::budget::Budget;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Serve a local web page: an analyser that shows every closed cell's
/// exact mine probability as a heat map, and a Minesweeper game with
/// no-guess boards, hints and a probability overlay.
///
/// Open the printed URL in a browser. Everything the page needs is inside
/// the binary: nothing is fetched from the network. Games are held by the
/// browser; the server keeps no state between requests.
///
/// The page:
///   Analyser   pick a size (beginner 9×9/10, intermediate 16×16/40,
///              expert 16×30/99, or up to 100×100), set each cell by
///              hovering it and pressing 0-8, `?` or space (closed), `f`
///              (flag), or by clicking (a click cycles closed → 0 → 1 …
///              → 8 → flag; a right click flags); paste a position text or
///              load a position file or an MBF file. It shows each closed
///              cell's mine probability, the proven safe cells and mines
///              (hover: the method that proved it), the safest cells and
///              the player's move, and the number of layouts.
///   Play       a new game by level: random with a safe first click, or a
///              uniform no-guess board from the server; left click opens,
///              right click flags, a click on a satisfied number opens its
///              neighbours; hint, probability overlay, timer.
///
/// JSON API (POST, JSON bodies; cells are [row, col] from 0):
///   /api/analyse        {"rows": ["??1.", ...], "mines": N} → the object
///                       of `sapper analyse --json`
///   /api/probabilities  {"rows", "mines" or "density"} → the object of
///                       `sapper analyse --probabilities --deductions --json`
///   /api/move           {"rows", "mines", "density"} → the engine
///                       protocol's answer {"open", "flag", "guess", "p_mine"}
///   /api/generate       {"rows": 16, "cols": 30, "mines": 99, "seed": S,
///                       "first_click": "opening" | "safe" | [r, c]} →
///                       {"layout": [[-1 a mine, 0-8 ...], ...], "start":
///                       [r, c], "seed": S}: a uniform no-guess board
///   GET /palette.json   the heat map's colours
/// "rows" are cells only: `?` closed, `F` flag, `0`-`8` a number, `.` a
/// revealed 0, `*` known safe; at most 1,000,000 cells (generate:
/// 100 × 100).
///
/// Limits: a body over 2 MB is refused (413); malformed JSON (400) and a
/// bad or contradictory position (422) are answered {"error": "..."}; each
/// computation gets --budget-secs and --budget-mb (beyond them: 422 with
/// the reason); at most --jobs computations run at once, others wait up to
/// 10 s and then get 503 {"error": "busy"}. A generate request tries at
/// most 20,000 layouts and gives up after about 4 s (422). The server keeps
/// serving after any bad request.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Address to listen on. The default is loopback only: the page is for
    /// this machine. Port 0 picks a free port (the URL printed says which).
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    addr: String,
    /// Open the page in the default browser (`xdg-open`; a failure is
    /// ignored).
    #[arg(long)]
    open: bool,
    /// Seconds one computation may take (lower than the other commands'
    /// default, so that the page stays responsive).
    #[arg(long, value_name = "SECS", default_value_t = api::Limits::DEFAULT.budget_secs)]
    budget_secs: f64,
    /// Megabytes one computation may keep.
    #[arg(long, value_name = "MB", default_value_t = api::Limits::DEFAULT.budget_bytes >> 20)]
    budget_mb: usize,
    /// Computations run at once, at most (others wait their turn).
    #[arg(long, value_name = "N", default_value_t = api::Limits::DEFAULT.jobs)]
    jobs: usize,
}

/// Connections open at once, at most: past it a new connection is closed
/// as soon as it is accepted (the file limit is raised to allow them).
pub const MAX_CONNECTIONS: usize = 4096;

/// How long a connection may take to send a request's header, and how long
/// an idle connection is kept between requests.
pub const HEADER_WAIT: Duration = Duration::from_secs(10);

pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let addr = resolve(&args.addr)?;
    if !(args.budget_secs.is_finite() && args.budget_secs > 0.0) {
        return Err(format!("--budget-secs must be positive, not {}", args.budget_secs).into());
    }
    if args.budget_mb == 0 || args.jobs == 0 {
        return Err("--budget-mb and --jobs must be at least 1".into());
    }
    let loopback = addr.ip().is_loopback();
    if !loopback {
        eprintln!(
            "sapper: warning: listening on {addr}, not loopback: other machines can reach the \
             server"
        );
    }
    let limits = api::Limits {
        budget_secs: args.budget_secs,
        budget_bytes: args.budget_mb.saturating_mul(1 << 20),
        jobs: args.jobs,
        ..api::Limits::DEFAULT
    };
    let engine = default_engine()?.with_budget(Budget::new(
        Some(Duration::from_secs_f64(limits.budget_secs)),
        limits.budget_bytes,
    ));
    let mut state = api::AppState::new(engine, limits);
    if loopback {
        state = state.loopback_only();
    }
    let router = api::router(Arc::new(state));
    raise_file_limit(MAX_CONNECTIONS as u64 + 64);
    // Two workers are plenty for the HTTP side: the engine's work runs on
    // blocking threads, at most `jobs` + `light_jobs` at a time.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(limits.jobs + limits.light_jobs + 4)
        .enable_all()
        .build()
        .map_err(|e| format!("starting the server: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("listening on {addr}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("listening on {addr}: {e}"))?;
        let url = format!("http://{bound}/");
        eprintln!("sapper: serving {url} (Ctrl-C stops)");
        if args.open {
            // Best effort: no browser (or no desktop) is not an error.
            let _ = std::process::Command::new("xdg-open")
                .arg(&url)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn();
        }
        serve(listener, router, MAX_CONNECTIONS, HEADER_WAIT).await;
        Ok::<_, CliError>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `HOST:PORT` as an address: an IP address, or a name (`localhost`)
/// looked up, its first address taken.
fn resolve(text: &str) -> Result<SocketAddr, CliError> {
    use std::net::ToSocketAddrs as _;
    let expected = "expected HOST:PORT, e.g. 127.0.0.1:8080 or localhost:8080";
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let mut found = text
        .to_socket_addrs()
        .map_err(|e| format!("--addr {text}: {e}; {expected}"))?;
    found
        .next()
        .ok_or_else(|| format!("--addr {text}: the name has no address; {expected}").into())
}

/// Serves `router` on `listener` for ever: HTTP/1.1, at most
/// `max_connections` at once (past it a connection is closed when
/// accepted), each closed when a request's header takes longer than
/// `header_wait` or it idles that long between requests. An accept that
/// fails (out of files) is retried after a pause, never fatal.
pub async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    max_connections: usize,
    header_wait: Duration,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let open = Arc::new(tokio::sync::Semaphore::new(max_connections));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_wait)
                .keep_alive(true);
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

/// Raises the soft limit of open files towards `want` (within the hard
/// limit): each connection is a file.
fn raise_file_limit(want: u64) {
    #[cfg(unix)]
    // SAFETY: getrlimit and setrlimit read and write the struct given.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < want {
            limit.rlim_cur = want.min(limit.rlim_max);
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
    #[cfg(not(unix))]
    let _ = want;
}

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
/// exact mine probability as a heat map, a Minesweeper game with
/// no-guess boards, hints and a probability overlay, and a review of
/// recorded games move by move.
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
///   Review     open or drop a replay (.rmv .evf .avf .mvf, RAWVF): the
///              game's metrics, then its moves one by one (buttons, a
///              slider, arrow keys) with the position the player saw,
///              its heat map and the move's verdict (proven safe and by
///              what, a guess and its risk, needless or not, a flag
///              proven or not), and a list of the guesses.
///
/// JSON API (POST with Content-Type: application/json; cells are
/// [row, col] from 0):
///   /api/analyse        {"rows": ["??1.", ...], "mines": N} → the object
///                       of `sapper analyse --json`
///   /api/probabilities  {"rows", "mines" or "density"} → the object of
///                       `sapper analyse --probabilities --deductions --json`
///   /api/move           {"rows", "mines", "density"} → the engine
///                       protocol's answer {"open", "flag", "guess", "p_mine"}
///   /api/review         {"replay": "<the file's bytes, base64>", "name":
///                       "game.rmv"} → the object of `sapper review --json`
///                       for that file (the name's extension helps tell the
///                       format: .avf, .evf, .mvf, .rmv)
///   /api/generate       {"rows": 16, "cols": 30, "mines": 99, "seed": S,
///                       "first_click": "opening" | "safe" | [r, c]} →
///                       {"layout": [[-1 a mine, 0-8 ...], ...], "start":
///                       [r, c], "seed": S}: a uniform no-guess board
///   GET /palette.json   the heat map's colours
/// "rows" are cells only: `?` closed, `F` flag, `0`-`8` a number, `.` a
/// revealed 0, `*` known safe; at most 1,000,000 cells (generate:
/// 100 × 100). Fields a request does not know are ignored.
///
/// Work: each computation gets --budget-secs and --budget-mb (beyond
/// them: 422 with the reason). Two lanes: positions of at most 10,000
/// cells are light and have 2 slots of their own; larger positions,
/// reviews and generated boards are heavy and share --jobs slots. A light
/// computation still running after 0.25 s is stopped and starts again in
/// the heavy lane with the whole budget. So neither large nor small but
/// hard requests keep a quick one waiting. In each lane at most
/// 16 requests wait, for at most 10 s; past either, 503 {"error": "busy"}
/// with Retry-After. A request whose client goes away is called off: its
/// computation stops at its next check and its slot is freed. A generate
/// request tries at most 20,000 layouts and gives up after about 4 s
/// (422).
///
/// Connections: at most 4,096 open at once (the open-file limit is raised
/// to allow them; past it a new connection is closed at once). A request's
/// header must arrive within 10 s, and an idle kept-alive connection is
/// closed after 10 s. A body must arrive within 10 s (408) and be at most
/// 2 MB (413).
///
/// Safety: only JSON bodies are computed (415 otherwise), so a page on
/// another site cannot make the server compute with a form post; no answer
/// carries a CORS header. While bound to a loopback address the server
/// answers only requests whose Host is a loopback name (localhost,
/// 127.0.0.1, `[::1]`, any port); any other Host (a page served under
/// another name: DNS rebinding) gets 403.
///
/// Errors: every failure is answered {"error": "..."}: 400 malformed JSON
/// or a wrong field, 403 a foreign Host, 404 no such path, 405 a wrong
/// method (the API's paths take POST only), 408 a body too slow, 413 a body too
/// large, 415 not JSON, 422 a bad or contradictory position or a request
/// over its budget, 503 busy, 500 an engine defect. The server keeps
/// serving after any bad request.
#[derive(clap::Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Address to listen on: an IP address or a name (`localhost:8080`).
    /// The default is loopback only: the page is for this machine. Another
    /// address lets other machines in (and answers any Host). Port 0 picks
    /// a free port (the URL printed says which).
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
    /// Heavy computations run at once, at most (others wait their turn);
    /// light ones have 2 slots besides.
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
    large_allocations_mapped();
    let runtime = runtime(&limits).map_err(|e| format!("starting the server: {e}"))?;
    runtime.block_on(async move {
        let listener = listen(addr).map_err(|e| format!("listening on {addr}: {e}"))?;
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

/// The server's runtime: two workers are plenty for the HTTP side, the
/// engine's work runs on blocking threads, at most `jobs` + `light_jobs`
/// at a time.
fn runtime(limits: &api::Limits) -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(limits.jobs + limits.light_jobs + 4)
        .enable_all()
        .build()
}

/// A listener on `addr` whose queue of connections not yet accepted holds
/// as many as the server may have open: a burst of connections waits
/// there instead of being turned away by the kernel.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(MAX_CONNECTIONS as u32)
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

/// Allocations of this many bytes or more are mapped pages of their own.
const MAPPED_FROM: usize = 256 << 10;

/// Makes the allocator (glibc) map every allocation of [`MAPPED_FROM`]
/// bytes or more, and unmap it when freed. By default glibc raises that
/// threshold to the largest block freed so far (up to 32 MB): after one
/// large request, the bodies, rows and tables of the next ones are carved
/// out of the heap, which is then too fragmented to shrink when they are
/// freed.
fn large_allocations_mapped() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two integers; it is called before any thread
    // of the server starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED_FROM as libc::c_int);
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

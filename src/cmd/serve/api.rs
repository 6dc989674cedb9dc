//! The router and the JSON endpoints of `sapper serve`.
//!
//! Each endpoint reads its JSON body within a time limit, deserialises it
//! into its typed request ([`sapper_engine::request`]: the body's bytes
//! and any field the request does not know are dropped before it waits),
//! takes a slot in its lane, and runs the engine on a blocking thread
//! under the server's budget. Two lanes: positions of at most
//! [`Limits::light_cells`] cells are light and have slots of their own,
//! so a flood of heavy requests never queues them; a lane whose queue is
//! full answers `503` at once, with `Retry-After`. A request whose client
//! has gone is called off: its budget's cancel switch is thrown and the
//! engine stops at its next check.
//!
//! Every failure is answered `{"error": "..."}` with a 4xx or 5xx status:
//! 400 bad JSON, 403 a foreign `Host` while bound to loopback, 404 no such
//! path, 405 a wrong method, 408 a body that does not arrive in time, 413
//! a body too large, 415 not JSON, 422 a position the engine refuses
//! (malformed, contradictory, over budget), 503 busy, 500 an engine defect
//! (a panic included: it ends that request, not the server). No answer
//! carries a CORS header: a page from another origin cannot read one.

use super::super::analyse::COUNT_UP_TO;
use super::super::{heatmap, json};
use super::assets;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use sapper_engine::budget::{Budget, Cancel};
use sapper_engine::game::{FirstClick, Level};
use sapper_engine::generate::Request as GenerateWork;
use sapper_engine::play::{Player, Policy, DEFAULT_DENSITY};
use sapper_engine::report::{AnalysisReport, BoardReport, MoveReport, Named};
use sapper_engine::request::{GenerateRequest, PositionRequest};
use sapper_engine::{Board, Engine, Error, Position, ProbabilityOptions};
use serde::de::DeserializeOwned;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The name a request's position goes by in the analyse objects' `position`
/// key (the CLI puts the file name there).
pub const SHOWN: &str = "request";

/// The largest board `/api/generate` makes, per side.
pub const GENERATE_MAX_SIDE: usize = 100;

/// Layouts `/api/generate` tries before giving up (the CLI allows a
/// million): enough for the standard levels many times over, few enough
/// that one request ends within seconds.
pub const GENERATE_MAX_ATTEMPTS: u64 = 20_000;

/// Attempts in one round of `/api/generate` (the time limit and the cancel
/// switch are checked between rounds).
const GENERATE_ROUND: u64 = 512;

/// Seconds after which `/api/generate` starts no new round.
const GENERATE_SECONDS: f64 = 4.0;

/// Seconds a client is told to wait before it retries a `503`.
const RETRY_AFTER_SECS: u64 = 1;

/// What one request may cost, and how many wait.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Seconds one computation may take.
    pub budget_secs: f64,
    /// Bytes one computation may keep.
    pub budget_bytes: usize,
    /// Heavy computations at once.
    pub jobs: usize,
    /// Light computations at once, besides the heavy ones.
    pub light_jobs: usize,
    /// A position of at most this many cells is light.
    pub light_cells: usize,
    /// Requests waiting for a slot in one lane, at most: past it a request
    /// is answered `503` at once.
    pub queued: usize,
    /// How long a request waits for a slot before `503 busy`.
    pub queue_wait: Duration,
    /// The largest request body, bytes.
    pub body_bytes: usize,
    /// How long the body of a request may take to arrive.
    pub body_wait: Duration,
}

impl Limits {
    /// 2 s and 256 MB a computation; 4 heavy and 2 light at once, 16
    /// waiting in each lane for at most 10 s; light: at most 10,000 cells
    /// (the page's largest board); 2 MB bodies (a 1000 × 1000 position is
    /// about 1 MB of JSON) arriving within 10 s.
    pub const DEFAULT: Limits = Limits {
        budget_secs: 2.0,
        budget_bytes: 256 << 20,
        jobs: 4,
        light_jobs: 2,
        light_cells: 10_000,
        queued: 16,
        queue_wait: Duration::from_secs(10),
        body_bytes: 2 << 20,
        body_wait: Duration::from_secs(10),
    };
}

/// The slots of one lane and the requests waiting for them.
pub struct Lane {
    /// One permit per computation that may run.
    pub(super) slots: Arc<Semaphore>,
    waiting: AtomicUsize,
}

impl Lane {
    fn new(slots: usize) -> Lane {
        Lane {
            slots: Arc::new(Semaphore::new(slots)),
            waiting: AtomicUsize::new(0),
        }
    }
}

/// What the handlers share: the engine, its two lanes, and whether only
/// loopback names may be the `Host`.
pub struct AppState {
    engine: Engine,
    /// Large positions and no-guess boards.
    pub(super) heavy: Lane,
    /// Positions of at most [`Limits::light_cells`] cells.
    pub(super) light: Lane,
    limits: Limits,
    loopback: bool,
}

impl AppState {
    /// The state over `engine` (its budget is the one each computation
    /// gets) with the lanes of `limits`, answering any `Host`.
    pub fn new(engine: Engine, limits: Limits) -> AppState {
        AppState {
            engine,
            heavy: Lane::new(limits.jobs),
            light: Lane::new(limits.light_jobs),
            limits,
            loopback: false,
        }
    }

    /// The same state answering only requests whose `Host` is a loopback
    /// name or address (`localhost`, `127.0.0.1`, `[::1]`, with any port):
    /// a server bound to loopback is for this machine, and a page served
    /// under another name (DNS rebinding) must not reach it.
    pub fn loopback_only(mut self) -> AppState {
        self.loopback = true;
        self
    }
}

/// A failed request: its status and message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the body is not the JSON the endpoint expects.
    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 422: well-formed, but the engine cannot answer it.
    fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 503: no slot now; the answer says when to come back.
    fn busy() -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy")
    }
}

/// An engine error as a response: an engine defect is 500, everything
/// else (malformed, contradictory, over budget, no board found) 422.
impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        match e {
            Error::Internal(_) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
            Error::OverBudget(o) => ApiError::unprocessable(format!(
                "refused: {o} (the server's limit for one request)"
            )),
            e => ApiError::unprocessable(e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json_response(self.status, json!({ "error": self.message }).to_string());
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
        }
        response
    }
}

/// 404 `{"error": "not found"}`.
pub fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not found").into_response()
}

/// A JSON body with its status.
fn json_response(status: StatusCode, body: impl Into<Body>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.into(),
    )
        .into_response()
}

/// The router: the page, its assets, the palette and the API.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset(Path("index.html".into())).await }),
        )
        .route("/assets/{name}", get(asset))
        .route(
            "/palette.json",
            get(|| async { json_response(StatusCode::OK, heatmap::palette_json().to_string()) }),
        )
        .route(
            "/api/analyse",
            post(|State(s): State<Arc<AppState>>, r: Request| async move {
                run(&s, r, analyse_json).await
            }),
        )
        .route(
            "/api/probabilities",
            post(|State(s): State<Arc<AppState>>, r: Request| async move {
                run(&s, r, probabilities_json).await
            }),
        )
        .route(
            "/api/move",
            post(|State(s): State<Arc<AppState>>, r: Request| async move {
                run(&s, r, move_answer).await
            }),
        )
        .route(
            "/api/review",
            post(|State(s): State<Arc<AppState>>, r: Request| async move {
                run(&s, r, review_json).await
            }),
        )
        .route(
            "/api/generate",
            post(|State(s): State<Arc<AppState>>, r: Request| async move {
                run(&s, r, generate_json).await
            }),
        )
        .fallback(|| async { not_found() })
        .method_not_allowed_fallback(|method: Method| async move {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} is not allowed here: the API takes POST with a JSON body"),
            )
        })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            only_loopback_hosts,
        ))
        .with_state(state)
}

async fn asset(Path(name): Path<String>) -> Response {
    assets::page(&name).unwrap_or_else(not_found)
}

/// Refuses (403) a request whose `Host` is not a loopback name, when the
/// state asks for it.
async fn only_loopback_hosts(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    if state.loopback && !is_loopback_host(request.headers()) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "this server answers only its own machine: the Host must be localhost, 127.0.0.1 \
             or [::1]",
        )
        .into_response();
    }
    next.run(request).await
}

/// Whether the request names a loopback host (a missing `Host` is an
/// HTTP/1.0 client on this machine, named by its address).
fn is_loopback_host(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    // The name without its port: `[::1]:8080`, `localhost:8080`.
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The size a request is judged by: which lane it waits in.
trait Weighed {
    /// The cells of the board it asks about (`usize::MAX`: always heavy).
    fn cells(&self) -> usize;
}

impl Weighed for PositionRequest {
    fn cells(&self) -> usize {
        self.rows.as_ref().map_or(0, |rows| {
            rows.len()
                .saturating_mul(rows.first().map_or(0, String::len))
        })
    }
}

impl Weighed for ReviewRequest {
    fn cells(&self) -> usize {
        usize::MAX
    }
}

impl Weighed for GenerateRequest {
    fn cells(&self) -> usize {
        usize::MAX
    }
}

/// One request: read, deserialised, queued in its lane, computed, answered.
async fn run<T: DeserializeOwned + Weighed + Send + 'static>(
    state: &AppState,
    request: Request,
    work: fn(&Engine, &T) -> Result<Vec<u8>, ApiError>,
) -> Response {
    match answer(state, request, work).await {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(e) => e.into_response(),
    }
}

async fn answer<T: DeserializeOwned + Weighed + Send + 'static>(
    state: &AppState,
    request: Request,
    work: fn(&Engine, &T) -> Result<Vec<u8>, ApiError>,
) -> Result<Vec<u8>, ApiError> {
    let request: T = read_request(state, request).await?;
    let lane = if request.cells() <= state.limits.light_cells {
        &state.light
    } else {
        &state.heavy
    };
    let permit = take_slot(state, lane).await?;
    // The switch is thrown when this future is dropped before the work
    // ends: the client has gone, and the engine stops at its next check.
    let cancel = Cancel::new();
    let _call_off = CallOff(cancel.clone());
    let engine = state
        .engine
        .clone()
        .with_budget(state.engine.budget().with_cancel(&cancel));
    let done = tokio::task::spawn_blocking(move || {
        let result = work(&engine, &request);
        drop(permit);
        drop(request);
        result
    })
    .await;
    match done {
        Ok(result) => result,
        // A panic ends this request only: the thread is gone, the slot
        // released as the closure unwound, and the server goes on.
        Err(e) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error: the computation failed ({e})"),
        )),
    }
}

/// Throws its switch when dropped: when the request's future is dropped
/// (its client has gone) or ends (the work is over: nothing to stop).
struct CallOff(Cancel);

impl Drop for CallOff {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The body of `request` as a `T`: JSON only (415), within the size limit
/// (413) and the time limit (408), well-formed (400). The bytes are
/// dropped once the typed request is built.
async fn read_request<T: DeserializeOwned>(
    state: &AppState,
    request: Request,
) -> Result<T, ApiError> {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|kind| kind.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "expected a JSON body with Content-Type: application/json",
        ));
    }
    let limit = state.limits.body_bytes;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is over {} MB; expected at most {} MB",
                limit >> 20,
                limit >> 20
            ),
        )
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let body = tokio::time::timeout(
        state.limits.body_wait,
        axum::body::to_bytes(request.into_body(), limit),
    )
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s",
                state.limits.body_wait.as_secs_f64()
            ),
        )
    })?
    .map_err(|e| {
        if std::error::Error::source(&e).is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
        {
            too_large()
        } else {
            ApiError::bad_request(format!("reading the request: {e}"))
        }
    })?;
    json::request(&body).map_err(ApiError::bad_request)
}

/// A slot in `lane`, or busy: at once when the lane's queue is full, else
/// after the wait.
async fn take_slot(
    state: &AppState,
    lane: &Lane,
) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    if let Ok(permit) = lane.slots.clone().try_acquire_owned() {
        return Ok(permit);
    }
    if lane.waiting.fetch_add(1, Ordering::Relaxed) >= state.limits.queued {
        lane.waiting.fetch_sub(1, Ordering::Relaxed);
        return Err(ApiError::busy());
    }
    struct Waiting<'a>(&'a AtomicUsize);
    impl Drop for Waiting<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::Relaxed);
        }
    }
    let _waiting = Waiting(&lane.waiting);
    tokio::time::timeout(state.limits.queue_wait, lane.slots.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::busy())?
        .map_err(|_| ApiError::busy())
}

/// The position of a request: rows that are no position are
/// unprocessable.
fn position_of(request: &PositionRequest) -> Result<Position, ApiError> {
    request
        .position()
        .map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// The density of a request, checked.
fn density_of(request: &PositionRequest) -> Result<Option<f64>, ApiError> {
    request
        .density()
        .map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// `/api/analyse`: the object of `sapper analyse --json`.
pub fn analyse_json(engine: &Engine, request: &PositionRequest) -> Result<Vec<u8>, ApiError> {
    let position = position_of(request)?;
    let analysis = engine.analyse(&position)?;
    let report = AnalysisReport::new(position.grid, &analysis);
    Ok(body(&Named::new(SHOWN, &report, None)))
}

/// `/api/probabilities`: the object of `sapper analyse --probabilities
/// --deductions --json`, checked as the CLI checks it (the analysis and
/// the count find the same forced cells).
pub fn probabilities_json(engine: &Engine, request: &PositionRequest) -> Result<Vec<u8>, ApiError> {
    let position = position_of(request)?;
    let density = density_of(request)?;
    if position.total_mines.is_none() && density.is_none() {
        return Err(ApiError::unprocessable(
            "the position does not give the total number of mines: send \"mines\": N or \
             \"density\": D",
        ));
    }
    let start = Instant::now();
    let options = ProbabilityOptions {
        density,
        deductions: true,
        layouts_up_to: COUNT_UP_TO,
    };
    let report = engine.probabilities_with(&mut engine.counter(), &position, &options)?;
    let micros = start.elapsed().as_secs_f64() * 1e6;
    Ok(body(&Named::new(SHOWN, &report, Some(micros))))
}

/// `/api/move`: the engine protocol's answer.
pub fn move_answer(engine: &Engine, request: &PositionRequest) -> Result<Vec<u8>, ApiError> {
    let position = position_of(request)?;
    let density = density_of(request)?.unwrap_or(DEFAULT_DENSITY);
    let mut player = engine.player(Policy::SecondSafety);
    player.set_density(density);
    let board = Board::from_position(&position);
    let m = player.next_move(&board)?;
    Ok(body(&MoveReport::new(board.grid(), &m)))
}

/// `/api/review`: a replay file, its bytes in base64, and the name it goes
/// by (its extension helps tell the format).
#[derive(Debug, serde::Deserialize)]
pub struct ReviewRequest {
    /// The file's bytes, base64 (standard alphabet, padded).
    pub replay: String,
    /// The file's name.
    #[serde(default)]
    pub name: Option<String>,
}

/// `/api/review`: the object of `sapper review --json` for one file.
pub fn review_json(engine: &Engine, request: &ReviewRequest) -> Result<Vec<u8>, ApiError> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(request.replay.trim())
        .map_err(|e| ApiError::unprocessable(format!("\"replay\" is not base64: {e}")))?;
    let name = request.name.as_deref().unwrap_or("replay");
    let replay = sapper_engine::formats::replay::parse_replay(&bytes, std::path::Path::new(name))
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let review = engine.review(&replay)?;
    Ok(body(&sapper_engine::report::Filed::new(name, &review)))
}

/// An answer as the bytes of a response body (no line break).
fn body<T: serde::Serialize>(answer: &T) -> Vec<u8> {
    let mut out = json::line(answer, 256);
    out.pop();
    out
}

/// `/api/generate`: one uniform no-guess board, [`BoardReport`] with its
/// seed. `first_click` is `"opening"` (default) or `"safe"` at the rule's
/// default start or at `"start": [r, c]`, or a cell `[r, c]`: an opening
/// there.
pub fn generate_json(engine: &Engine, request: &GenerateRequest) -> Result<Vec<u8>, ApiError> {
    let level = request
        .level()
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let (rows, cols) = (level.rows, level.cols);
    if !(1..=GENERATE_MAX_SIDE).contains(&rows) || !(1..=GENERATE_MAX_SIDE).contains(&cols) {
        return Err(ApiError::unprocessable(format!(
            "a board of {rows}×{cols}: rows and columns must be 1 to {GENERATE_MAX_SIDE}"
        )));
    }
    let seed = request.seed.unwrap_or_else(fresh_seed);
    let (rule, start) = request.first_click(level);
    let field = generate_bounded(engine, level, rule, start, seed)?;
    Ok(body(&BoardReport::new(&field, start, Some(seed))))
}

/// One uniform no-guess board, searched in rounds of
/// [`GENERATE_ROUND`] attempts until one is found, [`GENERATE_MAX_ATTEMPTS`]
/// are spent, [`GENERATE_SECONDS`] have passed or the request is called
/// off. Round `k` draws from seed `seed + k·2^32`: each round is a
/// rejection sampler of its own, so the first board found is uniform among
/// the no-guess boards all the same.
fn generate_bounded(
    engine: &Engine,
    level: Level,
    rule: FirstClick,
    start: (usize, usize),
    seed: u64,
) -> Result<sapper_engine::Field, ApiError> {
    let began = Instant::now();
    let budget: Budget = engine.budget();
    let (mut tried, mut round) = (0, 0u64);
    loop {
        let mut request = GenerateWork::new(level)
            .seed(seed.wrapping_add(round << 32))
            .first_click(rule, start);
        request.max_attempts = GENERATE_ROUND;
        match engine.generate(&request) {
            Ok(mut board) => {
                return board.fields.pop().ok_or_else(|| {
                    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "no board generated")
                })
            }
            Err(Error::GaveUp(g)) => {
                tried += g.attempts;
                if budget.cancelled() {
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "called off: the client has gone",
                    ));
                }
                if tried >= GENERATE_MAX_ATTEMPTS
                    || began.elapsed().as_secs_f64() > GENERATE_SECONDS
                {
                    return Err(ApiError::unprocessable(format!(
                        "no no-guess board found in {tried} attempts ({:.1} s): at this density \
                         almost no board (perhaps none) is solvable without guessing from this \
                         start",
                        began.elapsed().as_secs_f64()
                    )));
                }
            }
            Err(e) => return Err(e.into()),
        }
        round += 1;
    }
}

/// A seed for a request that gives none: the clock's nanoseconds.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 & ((1 << 53) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A computation that panics ends its own request with a 500 and
    /// `{"error"}`; the slot is released and the next request is answered.
    #[test]
    fn a_panic_is_answered_500_and_the_server_goes_on() {
        fn panics(_: &Engine, _: &PositionRequest) -> Result<Vec<u8>, ApiError> {
            panic!("a defect")
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let limits = Limits {
                jobs: 1,
                light_jobs: 1,
                queue_wait: Duration::from_millis(100),
                ..Limits::DEFAULT
            };
            let state = AppState::new(Engine::new().unwrap(), limits);
            let request = || {
                Request::post("/api/move")
                    .header("content-type", "application/json")
                    .body(Body::from(r#"{"rows": ["?1?"], "mines": 1}"#))
                    .unwrap()
            };
            let e = answer(&state, request(), panics).await.unwrap_err();
            assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
            assert!(e.message.starts_with("internal error"), "{}", e.message);
            let ok = answer(&state, request(), probabilities_json).await.unwrap();
            assert!(String::from_utf8(ok).unwrap().contains("\"layouts\":\"2\""));
        });
    }

    #[test]
    fn loopback_hosts_are_told_apart_from_foreign_ones() {
        let host = |h: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::HOST, HeaderValue::from_str(h).unwrap());
            is_loopback_host(&headers)
        };
        for ok in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1",
            "127.0.0.1:80",
            "127.1.2.3:9",
            "[::1]",
            "[::1]:8080",
        ] {
            assert!(host(ok), "{ok}");
        }
        for foreign in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1:8080",
            "[::2]:80",
            "",
        ] {
            assert!(!host(foreign), "{foreign}");
        }
        assert!(is_loopback_host(&HeaderMap::new()));
    }
}

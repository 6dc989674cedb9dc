//! The router and the JSON endpoints of `sapper serve`.
//!
//! Each endpoint reads a JSON body, waits for one of a few engine slots,
//! and runs the engine on a blocking thread under the server's budget.
//! Every failure is answered `{"error": "..."}` with a 4xx or 5xx status:
//! 400 bad JSON, 413 a body too large, 422 a position the engine refuses
//! (malformed, contradictory, over budget), 503 busy, 500 an engine
//! defect (a panic included: it ends that request, not the server).

use super::super::analyse::COUNT_UP_TO;
use super::super::{heatmap, json};
use super::assets;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use sapper_engine::game::{FirstClick, Level};
use sapper_engine::generate::Request;
use sapper_engine::play::{Player, Policy, DEFAULT_DENSITY};
use sapper_engine::report::{AnalysisReport, BoardReport, MoveReport, Named};
use sapper_engine::request::{GenerateRequest, PositionRequest};
use sapper_engine::{Board, Engine, Error, Position, ProbabilityOptions};
use serde::de::DeserializeOwned;
use serde_json::json;
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

/// Attempts in one round of `/api/generate` (the time limit is checked
/// between rounds).
const GENERATE_ROUND: u64 = 512;

/// Seconds after which `/api/generate` starts no new round.
const GENERATE_SECONDS: f64 = 4.0;

/// What one request may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Seconds one computation may take.
    pub budget_secs: f64,
    /// Bytes one computation may keep.
    pub budget_bytes: usize,
    /// Computations at once.
    pub jobs: usize,
    /// How long a request waits for a slot before `503 busy`.
    pub queue_wait: Duration,
    /// The largest request body, bytes.
    pub body_bytes: usize,
}

impl Limits {
    /// 2 s and 256 MB a computation, 4 at once, 10 s in the queue, 2 MB
    /// bodies (a 1000 × 1000 position is about 1 MB of JSON).
    pub const DEFAULT: Limits = Limits {
        budget_secs: 2.0,
        budget_bytes: 256 << 20,
        jobs: 4,
        queue_wait: Duration::from_secs(10),
        body_bytes: 2 << 20,
    };
}

/// What the handlers share: the engine and the slots it runs in.
pub struct AppState {
    engine: Arc<Engine>,
    /// One permit per computation that may run.
    pub(super) jobs: Arc<Semaphore>,
    limits: Limits,
}

impl AppState {
    /// The state over `engine` (its budget is the one each computation
    /// gets) with `limits.jobs` slots.
    pub fn new(engine: Engine, limits: Limits) -> AppState {
        AppState {
            engine: Arc::new(engine),
            jobs: Arc::new(Semaphore::new(limits.jobs)),
            limits,
        }
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
        json_response(self.status, json!({ "error": self.message }).to_string())
    }
}

/// 404 `{"error": "not found"}`.
pub fn not_found() -> Response {
    ApiError::new(StatusCode::NOT_FOUND, "not found").into_response()
}

/// A JSON body with its status.
fn json_response(status: StatusCode, body: impl Into<axum::body::Body>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.into(),
    )
        .into_response()
}

/// The router: the page, its assets, the palette and the API.
pub fn router(state: Arc<AppState>) -> Router {
    let body_bytes = state.limits.body_bytes;
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
        .route("/api/analyse", post(analyse_endpoint))
        .route("/api/probabilities", post(probabilities_endpoint))
        .route("/api/move", post(move_endpoint))
        .route("/api/generate", post(generate_endpoint))
        .fallback(|| async { not_found() })
        .layer(DefaultBodyLimit::max(body_bytes))
        .with_state(state)
}

async fn asset(Path(name): Path<String>) -> Response {
    assets::page(&name).unwrap_or_else(not_found)
}

async fn analyse_endpoint(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    run(&state, body, analyse_json).await
}

async fn probabilities_endpoint(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    run(&state, body, probabilities_json).await
}

async fn move_endpoint(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    run(&state, body, move_answer).await
}

async fn generate_endpoint(
    State(state): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    run(&state, body, generate_json).await
}

/// One request: the body read and parsed into its request type `T`, a
/// slot taken, `work` run on a blocking thread, its JSON or its error
/// answered.
async fn run<T: DeserializeOwned + Send + 'static>(
    state: &AppState,
    body: Result<Bytes, BytesRejection>,
    work: fn(&Engine, &T) -> Result<Vec<u8>, ApiError>,
) -> Response {
    match answer(state, body, work).await {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(e) => e.into_response(),
    }
}

async fn answer<T: DeserializeOwned + Send + 'static>(
    state: &AppState,
    body: Result<Bytes, BytesRejection>,
    work: fn(&Engine, &T) -> Result<Vec<u8>, ApiError>,
) -> Result<Vec<u8>, ApiError> {
    let body = body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                format!(
                    "the request body is over {} MB; expected at most {} MB",
                    state.limits.body_bytes >> 20,
                    state.limits.body_bytes >> 20
                ),
            )
        } else {
            ApiError::new(status, format!("reading the request: {}", e.body_text()))
        }
    })?;
    // The typed request only is kept while the request waits: unknown
    // fields are skipped, the body's bytes dropped.
    let request: T = json::request(&body).map_err(ApiError::bad_request)?;
    drop(body);
    // A slot, or busy after the wait.
    let permit = tokio::time::timeout(state.limits.queue_wait, state.jobs.clone().acquire_owned())
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy"))?
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy"))?;
    let engine = state.engine.clone();
    let done = tokio::task::spawn_blocking(move || {
        let result = work(&engine, &request);
        drop(permit);
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
/// are spent or [`GENERATE_SECONDS`] have passed. Round `k` draws from seed
/// `seed + k·2^32`: each round is a rejection sampler of its own, so the
/// first board found is uniform among the no-guess boards all the same.
fn generate_bounded(
    engine: &Engine,
    level: Level,
    rule: FirstClick,
    start: (usize, usize),
    seed: u64,
) -> Result<sapper_engine::Field, ApiError> {
    let began = Instant::now();
    let (mut tried, mut round) = (0, 0u64);
    loop {
        let mut request = Request::new(level)
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
                queue_wait: Duration::from_millis(100),
                ..Limits::DEFAULT
            };
            let state = AppState::new(Engine::new().unwrap(), limits);
            let body = || Ok(Bytes::from_static(br#"{"rows": ["?1?"], "mines": 1}"#));
            let e = answer(&state, body(), panics).await.unwrap_err();
            assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
            assert!(e.message.starts_with("internal error"), "{}", e.message);
            let ok = answer(&state, body(), probabilities_json).await.unwrap();
            assert!(String::from_utf8(ok).unwrap().contains("\"layouts\":\"2\""));
        });
    }
}

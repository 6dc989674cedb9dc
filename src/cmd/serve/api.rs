//! The router and the JSON endpoints of `sapper serve`.
//!
//! Each endpoint reads a JSON body, waits for one of a few engine slots,
//! and runs the engine on a blocking thread under the server's budget.
//! Every failure is answered `{"error": "..."}` with a 4xx or 5xx status:
//! 400 bad JSON, 413 a body too large, 422 a position the engine refuses
//! (malformed, contradictory, over budget), 503 busy, 500 an engine
//! defect (a panic included: it ends that request, not the server).

use super::super::analyse;
use super::super::common::move_json;
use super::super::engine::request_position;
use super::{assets, heatmap};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use sapper_engine::game::{FirstClick, Level};
use sapper_engine::generate::Request;
use sapper_engine::play::{Player, Policy};
use sapper_engine::{Board, Engine, Error, Position};
use serde_json::{json, Value};
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
        .route("/", get(|| async { assets::page("index.html") }))
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
    assets::page(&name)
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

/// One request: the body read and parsed, a slot taken, `work` run on a
/// blocking thread, its JSON or its error answered.
async fn run(
    state: &AppState,
    body: Result<Bytes, BytesRejection>,
    work: fn(&Engine, &Value) -> Result<Vec<u8>, ApiError>,
) -> Response {
    match answer(state, body, work).await {
        Ok(json) => json_response(StatusCode::OK, json),
        Err(e) => e.into_response(),
    }
}

async fn answer(
    state: &AppState,
    body: Result<Bytes, BytesRejection>,
    work: fn(&Engine, &Value) -> Result<Vec<u8>, ApiError>,
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
    let request: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("not JSON: {e}")))?;
    if !request.is_object() {
        return Err(ApiError::bad_request("expected a JSON object"));
    }
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

/// The position of a request, with its density when one was given. A
/// body of the wrong shape (no `rows`, a row or `mines` of the wrong type)
/// is a bad request; rows that are no position are unprocessable.
fn position_of(request: &Value) -> Result<(Position, f64, Option<f64>), ApiError> {
    let rows = request
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::bad_request("expected {\"rows\": [\"??1.\", ...]}"))?;
    if let Some(i) = rows.iter().position(|r| !r.is_string()) {
        return Err(ApiError::bad_request(format!("row {i} is not a string")));
    }
    if request
        .get("mines")
        .is_some_and(|m| !m.is_null() && !m.is_number())
    {
        return Err(ApiError::bad_request("\"mines\" must be a number"));
    }
    if request
        .get("density")
        .is_some_and(|d| !d.is_null() && !d.is_number())
    {
        return Err(ApiError::bad_request("\"density\" must be a number"));
    }
    let (position, density) = request_position(request).map_err(ApiError::unprocessable)?;
    let given = request.get("density").and_then(Value::as_f64);
    Ok((position, density, given))
}

/// `/api/analyse`: the object of `sapper analyse --json`.
pub fn analyse_json(engine: &Engine, request: &Value) -> Result<Vec<u8>, ApiError> {
    let (position, _, _) = position_of(request)?;
    let analysis = engine.analyse(&position)?;
    let mut s = Vec::new();
    analyse::forced_json(&mut s, SHOWN, position.grid, &analysis);
    s.push(b'}');
    Ok(s)
}

/// `/api/probabilities`: the object of `sapper analyse --probabilities
/// --deductions --json`, checked as the CLI checks it (the analysis and
/// the count find the same forced cells).
pub fn probabilities_json(engine: &Engine, request: &Value) -> Result<Vec<u8>, ApiError> {
    let (position, _, density) = position_of(request)?;
    if position.total_mines.is_none() && density.is_none() {
        return Err(ApiError::unprocessable(
            "the position does not give the total number of mines: send \"mines\": N or \
             \"density\": D",
        ));
    }
    let start = Instant::now();
    let analysis = engine.analyse(&position)?;
    let board = Board::from_position(&position);
    let mut counter = engine.counter();
    counter.compute(&board, density)?;
    if analyse::forced_cells(&analysis) != analyse::forced_by_count(counter.probabilities()) {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error: the analysis and the count disagree on the forced cells",
        ));
    }
    // As the CLI: the exact count for boards up to 10,000 cells.
    let layouts = if board.grid().len() <= 10_000 {
        Some(counter.layouts()?.to_string())
    } else {
        None
    };
    let micros = start.elapsed().as_secs_f64() * 1e6;
    Ok(analyse::probabilities_json(
        SHOWN,
        &board,
        Some(&analysis),
        counter.probabilities(),
        layouts,
        micros,
    ))
}

/// `/api/move`: the engine protocol's answer.
pub fn move_answer(engine: &Engine, request: &Value) -> Result<Vec<u8>, ApiError> {
    let (position, density, _) = position_of(request)?;
    let mut player = engine.player(Policy::SecondSafety);
    player.set_density(density);
    let board = Board::from_position(&position);
    let m = player.next_move(&board)?;
    Ok(move_json(&m, board.grid()).to_string().into_bytes())
}

/// A whole number field of a request, `default` when absent.
fn whole(request: &Value, key: &str, default: Option<u64>) -> Result<u64, ApiError> {
    match request.get(key) {
        None | Some(Value::Null) => {
            default.ok_or_else(|| ApiError::bad_request(format!("expected \"{key}\"")))
        }
        Some(v) => v
            .as_u64()
            .ok_or_else(|| ApiError::bad_request(format!("\"{key}\" must be a whole number"))),
    }
}

/// A `[row, col]` of a request.
fn cell_of(v: &Value, what: &str) -> Result<(usize, usize), ApiError> {
    match v.as_array().map(Vec::as_slice) {
        Some([r, c]) => match (r.as_u64(), c.as_u64()) {
            (Some(r), Some(c)) => Ok((r as usize, c as usize)),
            _ => Err(ApiError::bad_request(format!(
                "{what}: expected [row, col]"
            ))),
        },
        _ => Err(ApiError::bad_request(format!(
            "{what}: expected [row, col]"
        ))),
    }
}

/// `/api/generate`: one uniform no-guess board, `{"layout", "start",
/// "seed"}`. `first_click` is `"opening"` (default) or `"safe"` at the
/// rule's default start or at `"start": [r, c]`, or a cell `[r, c]`: an
/// opening there.
pub fn generate_json(engine: &Engine, request: &Value) -> Result<Vec<u8>, ApiError> {
    let rows = whole(request, "rows", Some(16))? as usize;
    let cols = whole(request, "cols", Some(30))? as usize;
    let mines = whole(request, "mines", Some(99))?;
    let seed = match request.get("seed") {
        None | Some(Value::Null) => fresh_seed(),
        Some(_) => whole(request, "seed", None)?,
    };
    if !(1..=GENERATE_MAX_SIDE).contains(&rows) || !(1..=GENERATE_MAX_SIDE).contains(&cols) {
        return Err(ApiError::unprocessable(format!(
            "a board of {rows}×{cols}: rows and columns must be 1 to {GENERATE_MAX_SIDE}"
        )));
    }
    let mines = u32::try_from(mines)
        .map_err(|_| ApiError::unprocessable(format!("{mines} mines do not fit")))?;
    let level = Level { rows, cols, mines };
    let (rule, cell) = match request.get("first_click") {
        None | Some(Value::Null) => (FirstClick::Opening, None),
        Some(Value::String(s)) if s == "opening" => (FirstClick::Opening, None),
        Some(Value::String(s)) if s == "safe" => (FirstClick::Safe, None),
        Some(v @ Value::Array(_)) => (FirstClick::Opening, Some(cell_of(v, "\"first_click\"")?)),
        Some(_) => {
            return Err(ApiError::bad_request(
                "\"first_click\" must be \"opening\", \"safe\" or [row, col]",
            ))
        }
    };
    let start = match (cell, request.get("start")) {
        (Some(cell), _) => cell,
        (None, None | Some(Value::Null)) => rule.default_start(level),
        (None, Some(v)) => cell_of(v, "\"start\"")?,
    };
    let field = generate_bounded(engine, level, rule, start, seed)?;
    let grid = field.grid;
    let layout: Vec<Vec<i8>> = (0..grid.h)
        .map(|r| {
            (0..grid.w)
                .map(|c| {
                    let i = grid.index(r, c);
                    if field.mine[i as usize] {
                        -1
                    } else {
                        grid.neighbours(i)
                            .iter()
                            .filter(|&&n| field.mine[n as usize])
                            .count() as i8
                    }
                })
                .collect()
        })
        .collect();
    Ok(
        json!({"layout": layout, "start": [start.0, start.1], "seed": seed})
            .to_string()
            .into_bytes(),
    )
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
        fn panics(_: &Engine, _: &Value) -> Result<Vec<u8>, ApiError> {
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

//! The server's API, driven in process through the router
//! (`tower::ServiceExt::oneshot`) and over a real loopback listener.

use super::api::{self, AppState, Limits};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use sapper_engine::budget::Budget;
use sapper_engine::Engine;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt as _;

/// The router over the default engine with `limits` (the budget included).
fn app_with(limits: Limits) -> Router {
    let engine = Engine::new()
        .expect("the default rules")
        .with_budget(Budget::new(
            Some(Duration::from_secs_f64(limits.budget_secs)),
            limits.budget_bytes,
        ));
    api::router(Arc::new(AppState::new(engine, limits)))
}

fn app() -> Router {
    app_with(Limits::DEFAULT)
}

/// POSTs `body` (raw bytes) to `path`: the status and the JSON answer.
async fn post_raw(app: &Router, path: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .body(body.into())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, value)
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    post_raw(app, path, body.to_string()).await
}

async fn get(app: &Router, path: &str) -> (StatusCode, String, Vec<u8>) {
    let response = app
        .clone()
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap();
    (status, kind, bytes.to_vec())
}

/// 1-2-1 under three closed cells: the outer two are mines, the middle safe.
fn one_two_one() -> Value {
    json!({"rows": ["???", "121", "..."], "mines": 2})
}

/// A good request still answered: the server is unharmed.
async fn still_serving(app: &Router) {
    let (status, body) = post(app, "/api/analyse", one_two_one()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["safe"], json!([[0, 1]]));
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn analyse_answers_the_cli_object() {
    rt().block_on(async {
        let app = app();
        let (status, body) = post(&app, "/api/analyse", one_two_one()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["position"], api::SHOWN);
        assert_eq!(body["safe"], json!([[0, 1]]));
        assert_eq!(body["mines"], json!([[0, 0], [0, 2]]));
        assert_eq!(body["deductions"].as_array().unwrap().len(), 3);
        assert_eq!(body["unknown_left"], 0);
        assert!(body["by_source"].is_object());
    });
}

#[test]
fn probabilities_answers_the_cli_object_with_its_deductions() {
    rt().block_on(async {
        let app = app();
        let (status, body) = post(
            &app,
            "/api/probabilities",
            json!({"rows": ["?1?"], "mines": 1}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["probabilities"], json!([[0.5, null, 0.5]]));
        assert_eq!(body["safest"], json!([[0, 0], [0, 2]]));
        assert_eq!(body["layouts"], "2");
        assert_eq!(body["safe"], json!([]));
        for key in [
            "log10_layouts",
            "error_bound",
            "micros",
            "deductions",
            "by_source",
            "unknown_left",
        ] {
            assert!(body.get(key).is_some(), "{key} missing: {body}");
        }
        // Forced cells carry their proof.
        let (_, body) = post(&app, "/api/probabilities", one_two_one()).await;
        assert_eq!(body["probabilities"][0], json!([1.0, 0.0, 1.0]));
        let sources: Vec<&str> = body["deductions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["source"].as_str().unwrap())
            .collect();
        assert_eq!(sources.len(), 3);
        // A density stands in for the total.
        let (status, body) = post(
            &app,
            "/api/probabilities",
            json!({"rows": ["?1?"], "density": 0.3}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["probabilities"], json!([[0.5, null, 0.5]]));
    });
}

#[test]
fn move_answers_the_engine_protocol() {
    rt().block_on(async {
        let app = app();
        let (status, body) = post(&app, "/api/move", one_two_one()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(
            body,
            json!({"open": [[0, 1]], "flag": [[0, 0], [0, 2]], "guess": false})
        );
        let (status, body) = post(
            &app,
            "/api/move",
            json!({"rows": ["???", "?1?", "???"], "mines": 1}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["guess"], true);
        assert_eq!(body["p_mine"], 0.125);
        assert_eq!(body["open"].as_array().unwrap().len(), 1);
    });
}

#[test]
fn generate_answers_a_no_guess_layout() {
    rt().block_on(async {
        let app = app();
        let (status, body) = post(
            &app,
            "/api/generate",
            json!({"rows": 9, "cols": 9, "mines": 10, "seed": 7, "first_click": [4, 5]}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["start"], json!([4, 5]));
        let layout: Vec<Vec<i64>> = serde_json::from_value(body["layout"].clone()).unwrap();
        assert_eq!((layout.len(), layout[0].len()), (9, 9));
        let mines: Vec<bool> = layout.iter().flatten().map(|&v| v == -1).collect();
        assert_eq!(mines.iter().filter(|&&m| m).count(), 10);
        // The numbers are the layout's, the start an opening.
        let grid = sapper_engine::Grid::new(9, 9);
        for i in 0..81u32 {
            let (r, c) = grid.rc(i);
            if !mines[i as usize] {
                let n = grid
                    .neighbours(i)
                    .iter()
                    .filter(|&&n| mines[n as usize])
                    .count();
                assert_eq!(layout[r][c], n as i64, "({r},{c})");
            }
        }
        assert_eq!(layout[4][5], 0);
        // No guess is needed from the start, and the seed decides the board.
        let engine = Engine::new().unwrap();
        let field = sapper_engine::Field::from_mines(grid, mines, vec![false; 81]);
        assert!(engine.solves_from(&field, (4, 5)).unwrap());
        let (_, again) = post(
            &app,
            "/api/generate",
            json!({"rows": 9, "cols": 9, "mines": 10, "seed": 7, "first_click": [4, 5]}),
        )
        .await;
        assert_eq!(again["layout"], body["layout"]);
        // The other first-click forms.
        for first_click in [json!("opening"), json!("safe")] {
            let (status, body) = post(
                &app,
                "/api/generate",
                json!({"rows": 9, "cols": 9, "mines": 10, "first_click": first_click}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
    });
}

#[test]
fn the_page_its_assets_and_the_palette_are_served() {
    rt().block_on(async {
        let app = app();
        let (status, kind, body) = get(&app, "/").await;
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/html"));
        let page = String::from_utf8(body).unwrap();
        assert!(page.contains("/assets/app.js"));
        for name in [
            "app.js",
            "api.js",
            "board.js",
            "analyser.js",
            "play.js",
            "position.js",
            "rng.js",
        ] {
            let (status, kind, _) = get(&app, &format!("/assets/{name}")).await;
            assert_eq!(status, StatusCode::OK, "{name}");
            assert!(kind.starts_with("text/javascript"), "{name}: {kind}");
        }
        let (status, _, body) = get(&app, "/palette.json").await;
        assert_eq!(status, StatusCode::OK);
        let palette: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(palette, super::super::heatmap::palette_json());
        let (status, _, body) = get(&app, "/assets/nothing.js").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(serde_json::from_slice::<Value>(&body).unwrap()["error"].is_string());
    });
}

/// Every bad request is answered 4xx with `{"error"}`, and the server
/// answers a good one afterwards.
#[test]
fn bad_requests_are_answered_and_the_server_goes_on() {
    rt().block_on(async {
        let app = app();
        let cases: Vec<(&str, String, StatusCode)> = vec![
            // Bad JSON.
            (
                "/api/analyse",
                "{\"rows\": [".into(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "/api/probabilities",
                "not json".into(),
                StatusCode::BAD_REQUEST,
            ),
            ("/api/move", "[1, 2]".into(), StatusCode::BAD_REQUEST),
            ("/api/generate", "".into(), StatusCode::BAD_REQUEST),
            (
                "/api/analyse",
                json!({"rows": "??"}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "/api/analyse",
                json!({"rows": [1, 2]}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "/api/analyse",
                json!({"rows": ["??"], "mines": "x"}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "/api/generate",
                json!({"rows": "9"}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            (
                "/api/generate",
                json!({"first_click": "corner"}).to_string(),
                StatusCode::BAD_REQUEST,
            ),
            // Bad positions.
            (
                "/api/analyse",
                json!({"rows": ["??", "?"]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/analyse",
                json!({"rows": ["?x"]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/analyse",
                json!({"rows": []}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/move",
                json!({"rows": ["9?"]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/probabilities",
                json!({"rows": ["?1?"]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/probabilities",
                json!({"rows": ["?1?"], "density": 2}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/analyse",
                json!({"rows": vec!["?".repeat(1001); 1000]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            // Contradictions: numbers no layout fits, a total the numbers refuse.
            (
                "/api/analyse",
                json!({"rows": ["?1?", "131", "?1?"]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/probabilities",
                json!({"rows": ["1?1", "???", "1?1"], "mines": 3}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/move",
                json!({"rows": ["?2?", "???"], "mines": 1}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            // Boards the generator refuses.
            (
                "/api/generate",
                json!({"rows": 101, "cols": 9, "mines": 10}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/generate",
                json!({"rows": 3, "cols": 3, "mines": 6}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/generate",
                json!({"rows": 9, "cols": 9, "mines": 10, "first_click": [9, 0]}).to_string(),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        ];
        for (path, body, expected) in cases {
            let (status, answer) = post_raw(&app, path, body.clone()).await;
            assert_eq!(status, expected, "{path} {body}: {answer}");
            assert!(answer["error"].is_string(), "{path} {body}: {answer}");
            still_serving(&app).await;
        }
    });
}

#[test]
fn a_body_over_the_limit_is_refused_with_413() {
    rt().block_on(async {
        let app = app();
        let row = "?".repeat(1000);
        let rows: Vec<&str> = vec![&row; 2100];
        let body = json!({"rows": rows}).to_string();
        assert!(body.len() > Limits::DEFAULT.body_bytes);
        let (status, answer) = post_raw(&app, "/api/analyse", body).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("2 MB"),
            "{answer}"
        );
        still_serving(&app).await;
        // A 1000 × 1000 position fits.
        let rows: Vec<&str> = vec![&row; 1000];
        let (status, answer) = post(&app, "/api/analyse", json!({"rows": rows, "mines": 1})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    });
}

/// A wide undecided frontier: every other cell of the top row closed over
/// a row of 1s and 2s, closed cells below.
fn hard_position(width: usize) -> Value {
    let mut rows = Vec::new();
    let top: String = (0..width)
        .map(|c| if c % 3 == 1 { '1' } else { '?' })
        .collect();
    let mid: String = (0..width)
        .map(|c| if c % 3 == 1 { '?' } else { '2' })
        .collect();
    rows.push(top);
    rows.push(mid);
    for _ in 0..width / 2 {
        rows.push("?".repeat(width));
    }
    json!({"rows": rows, "mines": width * width / 5})
}

#[test]
fn over_budget_is_refused_with_the_engines_reason() {
    rt().block_on(async {
        // A server whose computations get 1 KB and no time.
        let app = app_with(Limits {
            budget_secs: 1e-6,
            budget_bytes: 1 << 10,
            ..Limits::DEFAULT
        });
        for path in ["/api/probabilities", "/api/analyse", "/api/move"] {
            let (status, answer) = post(&app, path, hard_position(60)).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {answer}");
            let error = answer["error"].as_str().unwrap();
            assert!(error.starts_with("refused: "), "{path}: {error}");
        }
        // Small positions still fit.
        let (status, answer) = post(&app, "/api/analyse", one_two_one()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    });
}

#[test]
fn a_full_server_answers_busy_and_recovers() {
    rt().block_on(async {
        // No slot at all: every computation waits out its queue time, and
        // the answer says when to come back.
        let app = app_with(Limits {
            jobs: 0,
            light_jobs: 0,
            queue_wait: Duration::from_millis(20),
            ..Limits::DEFAULT
        });
        let response = send(&app, json_post("/api/analyse", one_two_one().to_string())).await;
        assert_eq!(response.0, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.1.get("retry-after").unwrap(), "1");
        assert_eq!(response.2, json!({"error": "busy"}));
        // One slot, held: a request waits, then is refused; once the slot
        // is free, requests are answered.
        let limits = Limits {
            jobs: 1,
            light_jobs: 1,
            queue_wait: Duration::from_millis(50),
            ..Limits::DEFAULT
        };
        let engine = Engine::new().unwrap();
        let state = Arc::new(AppState::new(engine, limits));
        let app = api::router(state.clone());
        let held = state.light.slots.clone().acquire_owned().await.unwrap();
        let (status, answer) = post(&app, "/api/probabilities", one_two_one()).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
        assert_eq!(answer, json!({"error": "busy"}));
        drop(held);
        still_serving(&app).await;
    });
}

/// A request as the router gets it: method, path, headers and body.
fn json_post(path: &str, body: String) -> Request<Body> {
    Request::post(path)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap()
}

/// Sends `request`: the status, the headers and the JSON answer.
async fn send(app: &Router, request: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, headers, value)
}

/// Whatever a browser page from another origin could send, and whatever
/// is not a JSON POST, gets a 4xx with `{"error"}` and no CORS header.
#[test]
fn only_json_posts_from_this_machine_are_computed() {
    rt().block_on(async {
        let engine = Engine::new().unwrap();
        let app = api::router(Arc::new(
            AppState::new(engine, Limits::DEFAULT).loopback_only(),
        ));
        let body = one_two_one().to_string();
        // A form post and a no-cors fetch: text/plain or no type at all.
        for kind in [
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            None,
        ] {
            let mut request = Request::post("/api/analyse");
            if let Some(kind) = kind {
                request = request.header("content-type", kind);
            }
            let (status, headers, answer) =
                send(&app, request.body(Body::from(body.clone())).unwrap()).await;
            assert_eq!(
                status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{kind:?}: {answer}"
            );
            assert!(answer["error"].is_string());
            assert!(headers.get("access-control-allow-origin").is_none());
        }
        // A foreign Host (DNS rebinding), on the API and on the page.
        for path in ["/api/analyse", "/"] {
            let request = Request::post(path)
                .header("host", "evil.example:8080")
                .header("content-type", "application/json")
                .body(Body::from(body.clone()))
                .unwrap();
            let (status, _, answer) = send(&app, request).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {answer}");
            assert!(answer["error"].as_str().unwrap().contains("localhost"));
        }
        // GET on the API, POST on the page: 405 with a body.
        for (method, path) in [("GET", "/api/move"), ("PUT", "/api/analyse"), ("POST", "/")] {
            let request = Request::builder()
                .method(method)
                .uri(path)
                .header("host", "localhost:8080")
                .header("content-type", "application/json")
                .body(Body::from(body.clone()))
                .unwrap();
            let (status, _, answer) = send(&app, request).await;
            assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert!(
                answer["error"].as_str().unwrap().contains(method),
                "{answer}"
            );
        }
        // A missing path: 404 with a body. Loopback names are answered.
        let request = Request::get("/nothing")
            .header("host", "[::1]:80")
            .body(Body::empty())
            .unwrap();
        let (status, _, answer) = send(&app, request).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(answer, json!({"error": "not found"}));
        let mut request = json_post("/api/analyse", body);
        request
            .headers_mut()
            .insert("host", "127.0.0.1:8080".parse().unwrap());
        let (status, _, answer) = send(&app, request).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    });
}

/// Heavy requests fill their own lane; light ones are answered at once.
#[test]
fn light_requests_are_not_queued_behind_heavy_ones() {
    rt().block_on(async {
        let limits = Limits {
            jobs: 1,
            light_jobs: 1,
            queued: 2,
            queue_wait: Duration::from_secs(5),
            ..Limits::DEFAULT
        };
        let state = Arc::new(AppState::new(Engine::new().unwrap(), limits));
        let app = api::router(state.clone());
        // The heavy lane's only slot taken, and its queue filled.
        let held = state.heavy.slots.clone().acquire_owned().await.unwrap();
        let big = || json!({"rows": vec!["?".repeat(200); 200], "mines": 8000}).to_string();
        let waiting: Vec<_> = (0..2)
            .map(|_| {
                let app = app.clone();
                let body = big();
                tokio::spawn(async move { send(&app, json_post("/api/move", body)).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(200)).await;
        // The queue is full: a third heavy request is refused at once.
        let t0 = Instant::now();
        let (status, headers, _) = send(&app, json_post("/api/move", big())).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(headers.get("retry-after").is_some());
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        // A light request goes through its own lane.
        let t0 = Instant::now();
        still_serving(&app).await;
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        drop(held);
        for w in waiting {
            assert_eq!(w.await.unwrap().0, StatusCode::OK);
        }
    });
}

/// A small position that is hard (its analysis runs to the deadline)
/// leaves the light lane after its light time and finishes in the heavy
/// lane with the whole budget: the light lane's only slot is free again
/// for quick answers while it runs.
#[test]
fn a_small_but_hard_position_moves_to_the_heavy_lane_after_its_light_time() {
    rt().block_on(async {
        let limits = Limits {
            budget_secs: 1.5,
            light_jobs: 1,
            light_secs: 0.2,
            ..Limits::DEFAULT
        };
        let engine = Engine::new().unwrap().with_budget(Budget::new(
            Some(Duration::from_secs_f64(limits.budget_secs)),
            limits.budget_bytes,
        ));
        let state = Arc::new(AppState::new(engine, limits));
        let app = api::router(state.clone());
        let hard = lattice(60);
        let t0 = Instant::now();
        let running = {
            let app = app.clone();
            tokio::spawn(async move { post(&app, "/api/analyse", hard).await })
        };
        // It starts in the light lane, then holds a heavy slot instead.
        let started = Instant::now();
        while state.light.slots.available_permits() > 0 {
            assert!(started.elapsed() < Duration::from_secs(2), "not started");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        while state.heavy.slots.available_permits() == limits.jobs {
            assert!(started.elapsed() < Duration::from_secs(2), "never moved");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let moved = t0.elapsed();
        assert_eq!(state.light.slots.available_permits(), 1);
        assert!(moved >= Duration::from_millis(200), "{moved:?}");
        // A light request is answered while the hard one computes.
        let t1 = Instant::now();
        still_serving(&app).await;
        assert!(
            t1.elapsed() < Duration::from_millis(300),
            "{:?}",
            t1.elapsed()
        );
        assert!(!running.is_finished());
        // The hard one is refused by the whole budget, not the light time.
        let (status, body) = running.await.unwrap();
        let took = t0.elapsed();
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("within 1.5 s"),
            "{body}"
        );
        assert!(took >= Duration::from_millis(1500), "{took:?}");
        assert_eq!(state.heavy.slots.available_permits(), limits.jobs);
    });
}

/// A `side × side` position: the numbers of a random layout (a fifth of
/// the cells mines) on every (even row, even column), every other cell
/// closed, with the total.
fn lattice(side: usize) -> Value {
    let grid = sapper_engine::Grid::new(side, side);
    let mut state = 7u64;
    let mine: Vec<bool> = (0..grid.len() as u32)
        .map(|i| {
            let (r, c) = grid.rc(i);
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            !(r % 2 == 0 && c % 2 == 0) && (state >> 33).is_multiple_of(5)
        })
        .collect();
    let rows: Vec<String> = (0..side)
        .map(|r| {
            (0..side)
                .map(|c| {
                    if r % 2 == 0 && c % 2 == 0 {
                        let i = grid.index(r, c);
                        let n = grid
                            .neighbours(i)
                            .iter()
                            .filter(|&&n| mine[n as usize])
                            .count();
                        char::from(b'0' + n as u8)
                    } else {
                        '?'
                    }
                })
                .collect()
        })
        .collect();
    json!({"rows": rows, "mines": mine.iter().filter(|&&m| m).count()})
}

/// A request whose client goes away is called off: its slot comes back
/// long before the computation's budget would have run out.
#[test]
fn an_abandoned_request_is_called_off() {
    rt().block_on(async {
        let limits = Limits {
            budget_secs: 60.0,
            jobs: 1,
            light_cells: 0,
            queue_wait: Duration::from_millis(100),
            ..Limits::DEFAULT
        };
        let state = Arc::new(AppState::new(
            Engine::new()
                .unwrap()
                .with_budget(Budget::new(Some(Duration::from_secs(60)), 1 << 36)),
            limits,
        ));
        let app = api::router(state.clone());
        // A count of many seconds: numbers on every other cell of every
        // other row, a frontier as wide as the board.
        let hard = lattice(22).to_string();
        let request = tokio::spawn({
            let app = app.clone();
            async move { send(&app, json_post("/api/probabilities", hard)).await }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            state.heavy.slots.available_permits() == 0,
            "the work is running"
        );
        // The client gives up: its request's future is dropped.
        request.abort();
        let t0 = Instant::now();
        let slot = tokio::time::timeout(
            Duration::from_secs(10),
            state.heavy.slots.clone().acquire_owned(),
        )
        .await;
        assert!(slot.is_ok(), "the slot was not given back within 10 s");
        assert!(t0.elapsed() < Duration::from_secs(10));
    });
}

/// The exact mine probability of every closed cell, by enumerating every
/// layout of the closed cells that fits the numbers and the total.
fn brute_force(rows: &[String], mines: u32) -> Vec<Vec<Option<f64>>> {
    let (h, w) = (rows.len(), rows[0].len());
    let grid = sapper_engine::Grid::new(h, w);
    let cell = |i: u32| {
        let (r, c) = grid.rc(i);
        rows[r].as_bytes()[c]
    };
    let closed: Vec<u32> = (0..grid.len() as u32)
        .filter(|&i| cell(i) == b'?')
        .collect();
    let mut with_mine = vec![0u64; grid.len()];
    let mut total = 0u64;
    for mask in 0u64..(1 << closed.len()) {
        if mask.count_ones() != mines {
            continue;
        }
        let mut mine = vec![false; grid.len()];
        for (k, &c) in closed.iter().enumerate() {
            mine[c as usize] = mask >> k & 1 == 1;
        }
        let fits = (0..grid.len() as u32).all(|i| match cell(i) {
            b'0'..=b'8' => {
                let n = grid
                    .neighbours(i)
                    .iter()
                    .filter(|&&n| mine[n as usize])
                    .count();
                n == usize::from(cell(i) - b'0')
            }
            _ => true,
        });
        if fits {
            total += 1;
            for &c in &closed {
                with_mine[c as usize] += u64::from(mine[c as usize]);
            }
        }
    }
    assert!(total > 0);
    (0..h)
        .map(|r| {
            (0..w)
                .map(|c| {
                    let i = grid.index(r, c);
                    (cell(i) == b'?').then(|| with_mine[i as usize] as f64 / total as f64)
                })
                .collect()
        })
        .collect()
}

/// A random small position: a random layout, some safe cells revealed.
fn random_position(seed: u64) -> (Vec<String>, u32) {
    // splitmix64: enough randomness for test positions.
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let h = 2 + (next() % 4) as usize;
    let w = 2 + (next() % 4) as usize;
    let grid = sapper_engine::Grid::new(h, w);
    let mine: Vec<bool> = (0..grid.len()).map(|_| next() % 4 == 0).collect();
    let mines = mine.iter().filter(|&&m| m).count() as u32;
    let rows = (0..h)
        .map(|r| {
            (0..w)
                .map(|c| {
                    let i = grid.index(r, c);
                    if !mine[i as usize] && next() % 2 == 0 {
                        let n = grid
                            .neighbours(i)
                            .iter()
                            .filter(|&&n| mine[n as usize])
                            .count();
                        char::from(b'0' + n as u8)
                    } else {
                        '?'
                    }
                })
                .collect()
        })
        .collect();
    (rows, mines)
}

#[test]
fn every_probability_is_the_exact_fraction() {
    rt().block_on(async {
        let app = app();
        let mut checked = 0;
        for seed in 0..300 {
            let (rows, mines) = random_position(seed);
            let exact = brute_force(&rows, mines);
            let (status, body) = post(
                &app,
                "/api/probabilities",
                json!({"rows": rows, "mines": mines}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{rows:?} {mines}: {body}");
            for (r, row) in exact.iter().enumerate() {
                for (c, p) in row.iter().enumerate() {
                    let got = &body["probabilities"][r][c];
                    match p {
                        None => assert!(got.is_null(), "{rows:?} ({r},{c}): {got}"),
                        Some(p) => {
                            let got = got.as_f64().unwrap();
                            assert!(
                                (got - p).abs() <= 1e-12,
                                "{rows:?} {mines} ({r},{c}): {got} vs {p}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    });
}

/// A minimal HTTP/1.1 client: one request, `Connection: close`, the
/// status read back.
async fn http_post(addr: std::net::SocketAddr, path: &str, body: &str) -> std::io::Result<u16> {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Ok(status)
}

/// 2,000 requests from 16 concurrent clients over a real loopback socket:
/// no error; prints the p50 and p99 latency. A load test: `.ci/run` runs
/// it (`cargo test -- --ignored`), not every `cargo test`.
#[test]
#[ignore = "a load test: .ci/run runs it with --ignored"]
fn load_test_over_loopback() {
    rt().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move { axum::serve(listener, app()).await });
        const CLIENTS: usize = 16;
        const REQUESTS: usize = 2000;
        // A mix of the three position endpoints on an expert-sized position.
        let position = expert_position().to_string();
        let paths = ["/api/probabilities", "/api/analyse", "/api/move"];
        let started = Instant::now();
        let tasks: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let position = position.clone();
                tokio::spawn(async move {
                    let mut latencies = Vec::new();
                    for k in (client..REQUESTS).step_by(CLIENTS) {
                        let t = Instant::now();
                        let status = http_post(addr, paths[k % 3], &position).await.unwrap();
                        assert_eq!(status, 200, "request {k}");
                        latencies.push(t.elapsed().as_secs_f64() * 1e3);
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies = Vec::new();
        for t in tasks {
            latencies.extend(t.await.unwrap());
        }
        let seconds = started.elapsed().as_secs_f64();
        assert_eq!(latencies.len(), REQUESTS);
        latencies.sort_by(f64::total_cmp);
        let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
        println!(
            "load test: {REQUESTS} requests from {CLIENTS} clients in {seconds:.2} s \
             ({:.0}/s), latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            REQUESTS as f64 / seconds,
            at(0.50),
            at(0.99),
            at(1.0)
        );
        server.abort();
    });
}

/// A replay's bytes in base64: the object of `sapper review --json`; a
/// file that is no replay, or no base64, is 422 with the reason.
#[test]
fn review_answers_the_cli_object_for_a_replay() {
    use base64::Engine as _;
    rt().block_on(async {
        let app = app();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/replays/rmv/wmp_exp.rmv");
        let bytes = std::fs::read(path).unwrap();
        let replay = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let (status, body) = post(
            &app,
            "/api/review",
            json!({"replay": replay, "name": "wmp_exp.rmv"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["file"], "wmp_exp.rmv");
        assert_eq!(
            (body["bbbv"].as_u64(), body["won"].as_bool()),
            (Some(106), Some(true))
        );
        assert!(body["clicks"].as_array().unwrap().len() > 100);
        let truncated = base64::engine::general_purpose::STANDARD.encode(&bytes[..100]);
        for bad in [json!({"replay": truncated}), json!({"replay": "%%%"})] {
            let (status, body) = post(&app, "/api/review", bad).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert!(body["error"].is_string());
        }
    });
}

/// An expert-sized position: an opening in an otherwise closed 16 × 30
/// board (the load tests').
fn expert_position() -> Value {
    json!({"rows": [
        "??????????????????????????????",
        "???????21?????????????????????",
        "??????21.1????????????????????",
        "?????21..1????????????????????",
        "?????1...2????????????????????",
        "?????1..13????????????????????",
        "?????2.12?????????????????????",
        "?????2.1??????????????????????",
        "?????212??????????????????????",
        "??????????????????????????????",
        "??????????????????????????????",
        "??????????????????????????????",
        "??????????????????????????????",
        "??????????????????????????????",
        "??????????????????????????????",
        "??????????????????????????????"], "mines": 99})
}

mod socket;

//! The page's files, embedded in the binary: nothing is read from disk or
//! fetched at run time, and there is no build step (plain HTML, CSS and
//! JavaScript modules under `web/`).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// Every file the page loads: its name under `/assets/` (`index.html` is
/// also `/`), its content type and its bytes.
const FILES: [(&str, &str, &str); 12] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../../../web/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../../web/style.css"),
    ),
    ("app.js", JS, include_str!("../../../web/app.js")),
    ("api.js", JS, include_str!("../../../web/api.js")),
    ("board.js", JS, include_str!("../../../web/board.js")),
    ("analyser.js", JS, include_str!("../../../web/analyser.js")),
    ("play.js", JS, include_str!("../../../web/play.js")),
    ("position.js", JS, include_str!("../../../web/position.js")),
    ("rng.js", JS, include_str!("../../../web/rng.js")),
    ("format.js", JS, include_str!("../../../web/format.js")),
    ("share.js", JS, include_str!("../../../web/share.js")),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../../../web/favicon.svg"),
    ),
];

const JS: &str = "text/javascript; charset=utf-8";

/// The file `name`, if the page has one.
pub fn page(name: &str) -> Option<Response> {
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, kind, body)| {
            (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, *kind),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                *body,
            )
                .into_response()
        })
}

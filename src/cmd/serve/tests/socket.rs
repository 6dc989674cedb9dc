//! The server over real loopback sockets: [`serve`] on port 0 in a runtime
//! of its own (built as `sapper serve` builds it), driven by a raw HTTP/1.1
//! client that can misbehave, or `sapper serve` itself in a child process
//! when a test measures the process or its file limit.

use super::super::api::{self, AppState, Limits};
use super::super::{runtime, serve, HEADER_WAIT, MAX_CONNECTIONS};
use sapper_engine::budget::Budget;
use sapper_engine::Engine;
use serde_json::{json, Value};
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// Tests whose figures are times or memory run one at a time: each loads
/// the machine's two cores with heavy work of its own.
static TIMED: Mutex<()> = Mutex::new(());

fn timed() -> MutexGuard<'static, ()> {
    TIMED.lock().unwrap_or_else(|e| e.into_inner())
}

/// `serve` on a loopback port in a runtime of its own; stopped when
/// dropped.
struct Server {
    addr: SocketAddr,
    state: Arc<AppState>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Server {
    /// A server with `limits` (the budget included), at most
    /// `max_connections` connections and `wait` for headers and idling.
    fn start(limits: Limits, max_connections: usize, wait: Duration) -> Server {
        let engine = Engine::new()
            .expect("the default rules")
            .with_budget(Budget::new(
                Some(Duration::from_secs_f64(limits.budget_secs)),
                limits.budget_bytes,
            ));
        Server::over(
            AppState::new(engine, limits).loopback_only(),
            max_connections,
            wait,
        )
    }

    fn over(state: AppState, max_connections: usize, wait: Duration) -> Server {
        let runtime = runtime(&state.limits()).unwrap();
        let state = Arc::new(state);
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let router = api::router(state.clone());
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            serve(listener, router, max_connections, wait).await
        });
        Server {
            addr,
            state,
            runtime: Some(runtime),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The client side's runtime.
fn client() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// One answer as read off the socket.
#[derive(Debug)]
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Answer {
    /// A header's value (the name in any case).
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    /// The body as JSON.
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "not JSON ({e}): {}\n{}",
                self.head,
                String::from_utf8_lossy(&self.body[..self.body.len().min(300)])
            )
        })
    }

    /// A 4xx or 5xx answer with `{"error": "..."}`, its message.
    fn error(&self) -> String {
        let body = self.json();
        assert!(self.status >= 400, "{}", self.head);
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "{}",
            self.head
        );
        body["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no \"error\": {body}"))
            .to_string()
    }
}

/// Reads one answer: its head, then its body by `Content-Length` (or to
/// the end). No answer carries a CORS header.
async fn read_answer(stream: &mut TcpStream) -> io::Result<Answer> {
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "closed before an answer: {:?}",
                    String::from_utf8_lossy(&buf)
                ),
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let body = buf.split_off(head_end);
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head}"));
    let mut answer = Answer { status, head, body };
    assert!(
        answer.header("access-control-allow-origin").is_none(),
        "a CORS header: {}",
        answer.head
    );
    assert!(
        answer.header("transfer-encoding").is_none(),
        "{}",
        answer.head
    );
    match answer.header("content-length") {
        Some(n) => {
            let n: usize = n.parse().unwrap();
            while answer.body.len() < n {
                let k = stream.read(&mut chunk).await?;
                if k == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "closed inside the body",
                    ));
                }
                answer.body.extend_from_slice(&chunk[..k]);
            }
        }
        None => {
            stream.read_to_end(&mut answer.body).await?;
        }
    }
    Ok(answer)
}

/// A request's bytes: `method path`, a loopback `Host`, the content type
/// (if any), a `Content-Length` and the body; `extra` header lines.
fn http(method: &str, path: &str, kind: Option<&str>, extra: &str, body: &[u8]) -> Vec<u8> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}");
    if let Some(kind) = kind {
        head += &format!("Content-Type: {kind}\r\n");
    }
    head += &format!("Content-Length: {}\r\n\r\n", body.len());
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// A JSON POST on a connection of its own: the answer and its time.
async fn call(addr: SocketAddr, path: &str, body: &[u8]) -> (Answer, Duration) {
    let t0 = Instant::now();
    let request = http(
        "POST",
        path,
        Some("application/json"),
        "Connection: close\r\n",
        body,
    );
    let answer = send(addr, &request)
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    (answer, t0.elapsed())
}

/// `request` on a connection of its own: its answer.
async fn send(addr: SocketAddr, request: &[u8]) -> io::Result<Answer> {
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(request).await?;
    read_answer(&mut stream).await
}

/// Waits until the server closes `stream` (end of file or reset), at most
/// `limit`: how long that took, or `None` if it stayed open. Bytes the
/// server sends first are skipped.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let t0 = Instant::now();
    let mut chunk = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((t0 + limit).into(), stream.read(&mut chunk)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(t0.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// An all-closed `rows × cols` board with `mines` mines, as a request body.
fn all_closed(rows: usize, cols: usize, mines: usize) -> Vec<u8> {
    json!({"rows": vec!["?".repeat(cols); rows], "mines": mines})
        .to_string()
        .into_bytes()
}

/// The load tests' expert-sized position, as a body.
fn expert() -> Vec<u8> {
    super::expert_position().to_string().into_bytes()
}

/// The player's move on an all-closed 1000 × 1000 board with a total (no
/// density) is answered within the 2 s budget, the answer's transfer
/// included.
#[test]
fn a_move_on_an_all_closed_million_cell_board_is_answered_within_the_budget() {
    let _timed = timed();
    let server = Server::start(Limits::DEFAULT, MAX_CONNECTIONS, HEADER_WAIT);
    client().block_on(async {
        let body = all_closed(1000, 1000, 200_000);
        for path in ["/api/move", "/api/analyse", "/api/probabilities"] {
            let (answer, took) = call(server.addr, path, &body).await;
            println!(
                "{path} on 1000 × 1000 all closed: {} in {took:.2?}",
                answer.status
            );
            assert!(took < Duration::from_millis(2500), "{path}: {took:?}");
            assert_eq!(answer.status, 200, "{path}: {}", answer.json());
        }
        // Every cell alike: one guess at a fifth.
        let (answer, _) = call(server.addr, "/api/move", &body).await;
        let m = answer.json();
        assert_eq!(
            (&m["guess"], &m["p_mine"]),
            (&json!(true), &json!(0.2)),
            "{m}"
        );
        assert_eq!(m["open"].as_array().map(Vec::len), Some(1), "{m}");
    });
}

/// A connection that sends half a header, nothing at all, or idles after
/// an answer is closed once `wait` has passed; a body declared too large
/// is refused at once, and a body that stalls is answered 408 after the
/// body's wait. `wait` and the body's wait are short here; the next test
/// runs at the production values.
#[test]
fn stalled_connections_are_closed_and_stalled_bodies_refused() {
    let wait = Duration::from_millis(400);
    let limits = Limits {
        body_wait: Duration::from_millis(600),
        ..Limits::DEFAULT
    };
    let server = Server::start(limits, MAX_CONNECTIONS, wait);
    let addr = server.addr;
    client().block_on(async move {
        let (a, b, c, d, e) = tokio::join!(
            // Half a header.
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                s.write_all(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")
                    .await
                    .unwrap();
                closed_within(&mut s, Duration::from_secs(5)).await
            },
            // Nothing at all.
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                closed_within(&mut s, Duration::from_secs(5)).await
            },
            // A header sent a byte at a time, each byte well within the wait.
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                let t0 = Instant::now();
                for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                    .iter()
                    .cycle()
                {
                    if s.write_all(&[*byte]).await.is_err() || t0.elapsed() > Duration::from_secs(5)
                    {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Some(t0.elapsed())
            },
            // Idle after an answer on a kept-alive connection.
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                s.write_all(&http("GET", "/palette.json", None, "", b""))
                    .await
                    .unwrap();
                let answer = read_answer(&mut s).await.unwrap();
                assert_eq!(answer.status, 200);
                assert_eq!(answer.header("connection"), None, "kept alive");
                closed_within(&mut s, Duration::from_secs(5)).await
            },
            // Kept alive across requests that each come within the wait.
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                let t0 = Instant::now();
                while t0.elapsed() < Duration::from_millis(1200) {
                    s.write_all(&http("GET", "/palette.json", None, "", b""))
                        .await
                        .unwrap();
                    assert_eq!(read_answer(&mut s).await.unwrap().status, 200);
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                t0.elapsed()
            },
        );
        for (what, closed) in [("half a header", a), ("nothing sent", b), ("idle", d)] {
            let closed = closed.unwrap_or_else(|| panic!("{what}: still open after 5 s"));
            println!("{what}: closed after {closed:.2?}");
            assert!(
                closed >= wait - Duration::from_millis(50),
                "{what}: {closed:?}"
            );
            assert!(closed < wait * 3, "{what}: {closed:?}");
        }
        let slow = c.unwrap();
        assert!(
            slow < wait * 3,
            "a header a byte at a time: open for {slow:?}"
        );
        assert!(e >= Duration::from_millis(1200), "{e:?}");

        // A body declared over the limit: 413 at once, its bytes unread.
        let t0 = Instant::now();
        let mut s = TcpStream::connect(addr).await.unwrap();
        let head = "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                    Content-Type: application/json\r\nContent-Length: 3000000\r\n\r\n";
        s.write_all(head.as_bytes()).await.unwrap();
        s.write_all(b"{\"rows\": [").await.unwrap();
        let answer = read_answer(&mut s).await.unwrap();
        assert_eq!(answer.status, 413, "{}", answer.head);
        assert!(answer.error().contains("2 MB"));
        assert!(
            t0.elapsed() < Duration::from_millis(300),
            "{:?}",
            t0.elapsed()
        );

        // A body that stops: 408 once the body's wait is over.
        for (what, chunked) in [("Content-Length", false), ("chunked", true)] {
            let t0 = Instant::now();
            let mut s = TcpStream::connect(addr).await.unwrap();
            let framing = if chunked {
                "Transfer-Encoding: chunked\r\n\r\n10\r\n{\"rows\": [\"??\", "
            } else {
                "Content-Length: 100\r\n\r\n{\"rows\": [\"??\", "
            };
            let head = format!(
                "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                 Content-Type: application/json\r\n{framing}"
            );
            s.write_all(head.as_bytes()).await.unwrap();
            let answer = read_answer(&mut s).await.unwrap();
            let took = t0.elapsed();
            assert_eq!(answer.status, 408, "{what}: {}", answer.head);
            assert!(answer.error().contains("did not arrive"));
            assert!(took >= limits.body_wait, "{what}: {took:?}");
            assert!(took < limits.body_wait * 3, "{what}: {took:?}");
            assert!(
                closed_within(&mut s, Duration::from_secs(2))
                    .await
                    .is_some(),
                "{what}"
            );
        }

        // A body sent a byte at a time: the wait is for the whole body.
        let t0 = Instant::now();
        let mut s = TcpStream::connect(addr).await.unwrap();
        let body = vec![b' '; 1000];
        let request = http("POST", "/api/move", Some("application/json"), "", &body);
        let (head, body) = request.split_at(request.len() - body.len());
        s.write_all(head).await.unwrap();
        let (mut reader, mut writer) = s.split();
        let dribble = async {
            for byte in body {
                if writer.write_all(&[*byte]).await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        };
        let answer = tokio::select! {
            answer = async {
                let mut buf = Vec::new();
                let _ = reader.read_to_end(&mut buf).await;
                buf
            } => answer,
            _ = dribble => panic!("the whole body was taken"),
        };
        let took = t0.elapsed();
        assert!(
            String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 408"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
        assert!(took < limits.body_wait * 3, "{took:?}");
    });
}

/// The same at the production values: a half-sent header, a silent
/// connection and an idle one are closed after [`HEADER_WAIT`] (well
/// within 30 s), a stalled body is answered 408 after the body's wait.
#[test]
#[ignore = "waits out the production timeouts (10 s): .ci/run runs it with --ignored"]
fn stalled_connections_are_closed_within_30_s_at_the_production_values() {
    let server = Server::start(Limits::DEFAULT, MAX_CONNECTIONS, HEADER_WAIT);
    let addr = server.addr;
    let limit = Duration::from_secs(30);
    client().block_on(async move {
        let (half, silent, idle, body) = tokio::join!(
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                s.write_all(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")
                    .await
                    .unwrap();
                closed_within(&mut s, limit).await
            },
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                closed_within(&mut s, limit).await
            },
            async {
                let mut s = TcpStream::connect(addr).await.unwrap();
                s.write_all(&http("GET", "/palette.json", None, "", b""))
                    .await
                    .unwrap();
                assert_eq!(read_answer(&mut s).await.unwrap().status, 200);
                closed_within(&mut s, limit).await
            },
            async {
                let t0 = Instant::now();
                let mut s = TcpStream::connect(addr).await.unwrap();
                let head = "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                            Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{";
                s.write_all(head.as_bytes()).await.unwrap();
                let answer = read_answer(&mut s).await.unwrap();
                (answer.status, t0.elapsed())
            },
        );
        for (what, closed) in [
            ("half a header", half),
            ("nothing sent", silent),
            ("idle", idle),
        ] {
            let closed = closed.unwrap_or_else(|| panic!("{what}: still open after {limit:?}"));
            println!("{what}: closed after {closed:.2?}");
            assert!(
                closed >= HEADER_WAIT - Duration::from_millis(50),
                "{what}: {closed:?}"
            );
            assert!(
                closed < HEADER_WAIT + Duration::from_secs(2),
                "{what}: {closed:?}"
            );
        }
        println!("a stalled body: {} after {:.2?}", body.0, body.1);
        assert_eq!(body.0, 408);
        assert!(
            body.1 >= Limits::DEFAULT.body_wait && body.1 < limit,
            "{:?}",
            body.1
        );
    });
}

/// Whatever a page from another origin could send, and whatever is not a
/// JSON POST, gets a 4xx with `{"error"}`, over the socket as in process;
/// no answer carries a CORS header ([`read_answer`] checks every one).
#[test]
fn only_json_posts_from_this_machine_are_computed_over_the_socket() {
    let server = Server::start(Limits::DEFAULT, MAX_CONNECTIONS, HEADER_WAIT);
    let addr = server.addr;
    let body = json!({"rows": ["???", "121", "..."], "mines": 2}).to_string();
    let body = body.as_bytes();
    let form = b"rows=%3F%3F%3F&mines=2";
    let json_kind = Some("application/json");
    let origin = "Origin: http://evil.example\r\n";
    let cases: Vec<(Vec<u8>, u16, &str)> = vec![
        // DNS rebinding: a page served as evil.example reaches this port.
        (
            http("POST", "/api/analyse", json_kind, "", body).replace_host("evil.example:8080"),
            403,
            "localhost",
        ),
        (
            http("GET", "/", None, "", b"").replace_host("evil.example"),
            403,
            "localhost",
        ),
        // Simple requests a page may send anywhere without asking.
        (
            http("POST", "/api/analyse", Some("text/plain"), origin, body),
            415,
            "JSON",
        ),
        (
            http(
                "POST",
                "/api/move",
                Some("text/plain;charset=UTF-8"),
                origin,
                body,
            ),
            415,
            "JSON",
        ),
        (
            http(
                "POST",
                "/api/move",
                Some("application/x-www-form-urlencoded"),
                origin,
                form,
            ),
            415,
            "JSON",
        ),
        (
            http(
                "POST",
                "/api/probabilities",
                Some("multipart/form-data; boundary=x"),
                origin,
                b"--x\r\n\r\n{}\r\n--x--\r\n",
            ),
            415,
            "JSON",
        ),
        (
            http("POST", "/api/generate", None, origin, b"{}"),
            415,
            "JSON",
        ),
        // The preflight a JSON fetch from another origin needs, and other
        // methods.
        (
            http(
                "OPTIONS",
                "/api/move",
                None,
                "Origin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\n\
                 Access-Control-Request-Headers: content-type\r\n",
                b"",
            ),
            405,
            "OPTIONS",
        ),
        (http("GET", "/api/move", None, "", b""), 405, "GET"),
        (http("PUT", "/api/analyse", json_kind, "", body), 405, "PUT"),
        (http("POST", "/", json_kind, "", body), 405, "POST"),
        (http("GET", "/api/nothing", None, "", b""), 404, "not found"),
        (
            http("GET", "/../Cargo.toml", None, "", b""),
            404,
            "not found",
        ),
    ];
    client().block_on(async move {
        for (request, status, says) in cases {
            let shown = String::from_utf8_lossy(&request[..request.len().min(120)]).into_owned();
            let answer = send(addr, &request).await.unwrap();
            assert_eq!(answer.status, status, "{shown}\n{}", answer.head);
            let error = answer.error();
            assert!(error.contains(says), "{shown}: {error}");
        }
        // The same JSON request from this machine, by any loopback name,
        // is answered (still without a CORS header, Origin or not).
        for host in ["127.0.0.1", "localhost:8080", "[::1]:8080"] {
            let request = http("POST", "/api/analyse", json_kind, origin, body).replace_host(host);
            let answer = send(addr, &request).await.unwrap();
            assert_eq!(answer.status, 200, "{host}: {}", answer.head);
            assert_eq!(answer.json()["safe"], json!([[0, 1]]));
        }
        let page = send(addr, &http("GET", "/", None, "", b"")).await.unwrap();
        assert_eq!(page.status, 200);
        assert!(page
            .header("content-type")
            .unwrap()
            .starts_with("text/html"));
    });
}

/// A request's bytes with another `Host`.
trait ReplaceHost {
    fn replace_host(self, host: &str) -> Vec<u8>;
}

impl ReplaceHost for Vec<u8> {
    fn replace_host(self, host: &str) -> Vec<u8> {
        let text = String::from_utf8(self).unwrap();
        text.replacen("Host: 127.0.0.1\r\n", &format!("Host: {host}\r\n"), 1)
            .into_bytes()
    }
}

/// Sends `body` to `path`, waits until its work holds the heavy lane's
/// only slot and has run `running`, closes the connection, and returns
/// how long the slot stayed taken after that (`None`: over `limit`).
async fn leave_while_running(
    server: &Server,
    path: &str,
    body: &[u8],
    running: Duration,
    limit: Duration,
) -> Option<Duration> {
    let slots = &server.state.heavy.slots;
    assert_eq!(slots.available_permits(), 1);
    let mut s = TcpStream::connect(server.addr).await.unwrap();
    s.write_all(&http("POST", path, Some("application/json"), "", body))
        .await
        .unwrap();
    let t0 = Instant::now();
    while slots.available_permits() > 0 {
        assert!(t0.elapsed() < Duration::from_secs(5), "{path}: not started");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    tokio::time::sleep(running).await;
    assert_eq!(slots.available_permits(), 0, "{path}: ended by itself");
    drop(s);
    let t0 = Instant::now();
    while slots.available_permits() == 0 {
        if t0.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    Some(t0.elapsed())
}

/// A client that goes away while its request computes: the connection's
/// end is noticed while the handler runs (hyper reads the socket of a
/// connection whose request is being answered), the computation is
/// called off and its slot is free again within a second.
#[test]
fn a_client_that_disconnects_frees_its_slot_within_a_second() {
    let _timed = timed();
    let limits = Limits {
        budget_secs: 60.0,
        budget_bytes: 1 << 30,
        jobs: 1,
        light_cells: 0,
        ..Limits::DEFAULT
    };
    let server = Server::start(limits, MAX_CONNECTIONS, HEADER_WAIT);
    // A count of about four seconds within 1 GB (refused within a second
    // under the default 256 MB), and a board the generator gives up on
    // after 4 s.
    let count = super::lattice(22).to_string().into_bytes();
    let generate = json!({"rows": 100, "cols": 100, "mines": 3000, "seed": 1}).to_string();
    client().block_on(async {
        for (path, body) in [
            ("/api/probabilities", count),
            ("/api/generate", generate.into_bytes()),
        ] {
            let running = Duration::from_millis(1000);
            let freed =
                leave_while_running(&server, path, &body, running, Duration::from_secs(1)).await;
            let freed = freed.unwrap_or_else(|| {
                panic!("{path}: the slot is still taken a second after the client left")
            });
            println!("{path}: slot free {freed:.2?} after the client left");
        }
        // The server answers the next request.
        let (answer, _) = call(server.addr, "/api/analyse", &expert()).await;
        assert_eq!(answer.status, 200);
    });
}

/// The SAT search behind the analysis polls its deadline but not the
/// cancel switch: a request whose client left during it keeps its slot
/// until the budget's deadline, never longer. (A budget of 1 s: the
/// deadline is the same whatever its length.)
#[test]
fn a_client_that_disconnects_during_a_sat_search_frees_its_slot_by_the_deadline() {
    let _timed = timed();
    let limits = Limits {
        budget_secs: 1.0,
        jobs: 1,
        light_cells: 0,
        ..Limits::DEFAULT
    };
    let server = Server::start(limits, MAX_CONNECTIONS, HEADER_WAIT);
    // A frontier of 1,705 cells: the SAT search runs until the deadline.
    let hard = super::lattice(60).to_string().into_bytes();
    let budget = Duration::from_secs_f64(limits.budget_secs);
    client().block_on(async {
        for path in ["/api/analyse", "/api/move"] {
            let running = Duration::from_millis(300);
            let freed = leave_while_running(&server, path, &hard, running, budget).await;
            let freed = freed.unwrap_or_else(|| {
                panic!("{path}: the slot is still taken past the budget's deadline")
            });
            println!("{path}: slot free {freed:.2?} after the client left");
        }
    });
}

/// The variable that makes [`sapper_serve_in_a_child_process`] serve:
/// `nofile=N` first lowers the soft limit of open files to `N`.
const CHILD: &str = "SAPPER_SERVE_CHILD";

/// Not a test: `sapper serve` (its own `run`, with the default limits on
/// `127.0.0.1:0`) as the process of a test that measures one, started by
/// [`Child::spawn`]. Without [`CHILD`] it returns at once.
#[test]
#[ignore = "not a test: the server process of the tests that measure one; returns at once alone"]
fn sapper_serve_in_a_child_process() {
    let Ok(spec) = std::env::var(CHILD) else {
        return;
    };
    if let Some(n) = spec.strip_prefix("nofile=") {
        let n: u64 = n.parse().unwrap();
        // SAFETY: getrlimit and setrlimit read and write the struct given.
        unsafe {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
            limit.rlim_cur = n;
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
    let args = super::super::Args {
        addr: "127.0.0.1:0".into(),
        open: false,
        budget_secs: Limits::DEFAULT.budget_secs,
        budget_mb: Limits::DEFAULT.budget_bytes >> 20,
        jobs: Limits::DEFAULT.jobs,
    };
    super::super::run(args).unwrap();
}

/// `sapper serve` in a process of its own; killed when dropped.
struct Child {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Child {
    /// Starts [`sapper_serve_in_a_child_process`] with `spec` and reads
    /// the address it prints.
    fn spawn(spec: &str) -> Child {
        use std::io::BufRead as _;
        let module = module_path!();
        let name = format!(
            "{}::sapper_serve_in_a_child_process",
            module.split_once("::").unwrap().1
        );
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([&name, "--exact", "--ignored", "--nocapture"])
            .env(CHILD, spec)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the child ended before serving")
                .unwrap();
            if let Some(rest) = line.strip_prefix("sapper: serving http://") {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        // The rest of its output, read so that it never blocks on a pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Child { child, addr }
    }

    /// A `/proc/PID/status` figure in kB (`VmRSS`, `VmHWM`).
    fn status_kb(&self, key: &str) -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("no {key} in /proc/PID/status"))
    }

    /// The files the process has open.
    fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .unwrap()
            .count()
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// 2,000 idle sockets open at once do not stop a normal client, on a
/// system whose soft limit of open files is 1,024: `sapper serve` raises
/// it, accepts them all, and answers the client within a second.
#[test]
fn two_thousand_idle_sockets_do_not_stop_a_normal_client() {
    // The client's side holds 2,000 sockets too.
    super::super::raise_file_limit(8192);
    let server = Child::spawn("nofile=1024");
    let addr = server.addr;
    client().block_on(async {
        // All at once, as a flood would come; the client comes once the
        // server holds them (or after a second).
        let t0 = Instant::now();
        let connecting: Vec<_> = (0..2000)
            .map(|_| tokio::spawn(TcpStream::connect(addr)))
            .collect();
        while server.open_files() < 2000 && t0.elapsed() < Duration::from_secs(1) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        println!(
            "after {:.2?} the server holds {} files",
            t0.elapsed(),
            server.open_files()
        );
        for path in ["/api/analyse", "/api/move"] {
            let t0 = Instant::now();
            let answer = tokio::time::timeout(Duration::from_secs(5), call(addr, path, &expert()))
                .await
                .unwrap_or_else(|_| panic!("{path}: no answer within 5 s"))
                .0;
            let took = t0.elapsed();
            println!(
                "{path} with 2,000 idle sockets open: {} in {took:.2?}",
                answer.status
            );
            assert_eq!(answer.status, 200);
            assert!(took < Duration::from_secs(1), "{path}: {took:?}");
        }
        let page = send(addr, &http("GET", "/", None, "", b"")).await.unwrap();
        assert_eq!(page.status, 200);
        let mut idle = Vec::new();
        for c in connecting {
            idle.push(c.await.unwrap().unwrap());
        }
        assert!(server.open_files() >= 2000, "{}", server.open_files());
        // All within the header wait: the idle sockets were all still open.
        assert!(t0.elapsed() < HEADER_WAIT, "{:?}", t0.elapsed());
        drop(idle);
    });
}

/// Past the cap a connection is closed as soon as it is accepted; as idle
/// connections time out, their places are free again.
#[test]
fn connections_past_the_cap_are_closed_at_once_until_idle_ones_time_out() {
    let wait = Duration::from_millis(500);
    let server = Server::start(Limits::DEFAULT, 50, wait);
    let addr = server.addr;
    client().block_on(async {
        let t0 = Instant::now();
        let mut idle = Vec::new();
        for _ in 0..50 {
            idle.push(TcpStream::connect(addr).await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mut over = TcpStream::connect(addr).await.unwrap();
        over.write_all(&http("GET", "/", None, "", b""))
            .await
            .unwrap();
        let closed = closed_within(&mut over, Duration::from_millis(300)).await;
        assert!(closed.is_some(), "a 51st connection was kept");
        assert!(t0.elapsed() < wait);
        // The idle ones are closed after the wait, and a client is answered.
        tokio::time::sleep(wait + Duration::from_millis(100) - t0.elapsed()).await;
        let answer = send(addr, &http("GET", "/", None, "", b"")).await.unwrap();
        assert_eq!(answer.status, 200);
        for mut s in idle {
            assert!(closed_within(&mut s, Duration::from_millis(100))
                .await
                .is_some());
        }
    });
}

/// A body of about 2 MB (under the limit) that costs the server much
/// more than its size if it is kept as it is parsed: kind 0, a 1000 ×
/// 1000 position with a field the request does not know, an array of
/// numbers; kind 1, 500,000 rows of one cell each.
fn two_megabytes(kind: usize) -> Vec<u8> {
    let limit = Limits::DEFAULT.body_bytes - 64;
    let mut body = if kind == 0 {
        let mut body = all_closed(1000, 1000, 200_000);
        body.pop();
        body.extend_from_slice(b",\"padding\":[0");
        while body.len() + 2 < limit {
            body.extend_from_slice(b",0");
        }
        body.extend_from_slice(b"]}");
        body
    } else {
        let mut body = b"{\"mines\":100000,\"rows\":[\"?\"".to_vec();
        while body.len() + 6 < limit {
            body.extend_from_slice(b",\"?\"");
        }
        body.extend_from_slice(b"]}");
        body
    };
    body.shrink_to_fit();
    body
}

/// 60 bodies of 2 MB sent at once behind 4 heavy computations: the
/// process's peak memory stays under 700 MB and its resident memory is
/// back under 100 MB a second after the last answer. `sapper serve` in a
/// process of its own, measured from outside through `/proc`.
#[test]
fn sixty_queued_two_megabyte_bodies_keep_the_memory_bounded() {
    let _timed = timed();
    let server = Child::spawn("");
    let addr = server.addr;
    let rss = || server.status_kb("VmRSS") >> 10;
    let at_start = rss();
    // Four heavy computations that take their whole budget: a frontier the
    // SAT search works on until the deadline, on 12,000 cells (the columns
    // added are known safe: the same frontier, on a heavy board).
    let hard = {
        let mut position = super::lattice(60);
        let rows: Vec<String> = position["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| format!("{}{}", r.as_str().unwrap(), "*".repeat(140)))
            .collect();
        position["rows"] = json!(rows);
        position.to_string().into_bytes()
    };
    let bodies: Vec<Vec<u8>> = (0..2).map(two_megabytes).collect();
    let (statuses, took, peak_sampled) = client().block_on(async {
        let heavy: Vec<_> = (0..4)
            .map(|_| {
                let hard = hard.clone();
                tokio::spawn(async move { call(addr, "/api/analyse", &hard).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let t0 = Instant::now();
        let sixty: Vec<_> = (0..60)
            .map(|k| {
                let body = bodies[k % 2].clone();
                let path = ["/api/move", "/api/analyse"][k % 2];
                tokio::spawn(async move { call(addr, path, &body).await })
            })
            .collect();
        // Sampled while the answers come, besides the kernel's peak.
        let sampling = async {
            let mut peak = 0;
            loop {
                peak = peak.max(rss());
                tokio::time::sleep(Duration::from_millis(5)).await;
                if t0.elapsed() > Duration::from_secs(60) {
                    return peak;
                }
            }
        };
        let answers = async {
            let mut statuses = Vec::new();
            for (k, task) in heavy.into_iter().chain(sixty).enumerate() {
                let (answer, took) = task.await.unwrap();
                if k < 4 {
                    // The heavy ones ran to the deadline.
                    assert_eq!(answer.status, 422, "{}", answer.error());
                    assert!(took >= Duration::from_millis(1900), "{took:?}");
                }
                statuses.push(answer.status);
            }
            statuses
        };
        tokio::select! {
            statuses = answers => (statuses, t0.elapsed(), 0),
            peak = sampling => panic!("no answers within a minute (peak {peak} MB)"),
        }
    });
    let peak = server.status_kb("VmHWM") >> 10;
    std::thread::sleep(Duration::from_secs(1));
    let after = rss();
    let count = |s: u16| statuses.iter().filter(|&&x| x == s).count();
    println!(
        "60 bodies of 2 MB behind 4 heavy jobs: answered in {took:.2?}: {} × 200, {} × 422, \
         {} × 503; memory {at_start} MB at the start, peak {peak} MB, {after} MB a second after \
         {peak_sampled}",
        count(200),
        count(422),
        count(503),
    );
    assert_eq!(count(200) + count(422) + count(503), 64, "{statuses:?}");
    assert!(peak <= 700, "peak {peak} MB");
    assert!(after < 100, "{after} MB a second after the last answer");
}

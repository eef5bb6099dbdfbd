//! The web board in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) against `kotra-ai serve` on loopback. A whole
//! game is played by clicking and dragging checkers to their
//! destinations, the hint panel is checked against the API, a position
//! is set from an XGID, and a fixture match is uploaded and its review's
//! figures checked.
//! Screenshots go to `target/tmp/screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs
//! them when missing); without them these tests fail and say so.

mod common;

use common::server::Server;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

/// chromedriver on a free loopback port, stopped when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        assert!(
            std::path::Path::new(CHROMEDRIVER).exists() && std::path::Path::new(CHROMIUM).exists(),
            "the browser tests need Debian's chromium and chromium-driver \
             (apt-get install -y chromium chromium-driver; .ci/run installs them)"
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1100,1300",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    // A loaded machine has seen chromedriver reset the connection that
    // asks for a new session while it was still starting: ask again a
    // few times before failing the test.
    let mut tries = 0;
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
        {
            Ok(client) => return client,
            Err(e) if tries < 3 => {
                tries += 1;
                eprintln!("chromium session, try {tries}: {e}; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => panic!("a chromium session: {e}"),
        }
    }
}

fn screenshots() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Clicks `css` once it exists (the page may still be fetching it).
async fn click(c: &Client, css: &str) {
    let start = Instant::now();
    loop {
        match c.find(Locator::Css(css)).await {
            Ok(e) => {
                e.click()
                    .await
                    .unwrap_or_else(|e| panic!("click {css}: {e}"));
                return;
            }
            Err(e) => assert!(start.elapsed() < Duration::from_secs(20), "{css}: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn select(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Waits until the page has no request or animation under way.
async fn idle(c: &Client) {
    let start = Instant::now();
    while js(c, "return window.kotraIdle === true").await != json!(true) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the page stays busy"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits for `css` to exist and returns its text (again if the page
/// redrew it between finding and reading).
async fn text_of(c: &Client, css: &str) -> String {
    let start = Instant::now();
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await
            && let Ok(t) = e.text().await
        {
            return t;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no {css}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks what is drawn on top at the board's point `p` (25 the bar,
/// 0 the tray): the last element there in document order.
async fn click_point(c: &Client, p: u64) {
    let all = c
        .find_all(Locator::Css(&format!("#board [data-point=\"{p}\"]")))
        .await
        .unwrap();
    let top = all
        .last()
        .unwrap_or_else(|| panic!("nothing drawn at point {p}"));
    top.click()
        .await
        .unwrap_or_else(|e| panic!("point {p}: {e}"));
}

/// Drags the checker drawn on top at point `from` to point `to` with
/// the mouse: down, move, up.
async fn drag(c: &Client, from: u64, to: u64) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let mut centres = Vec::new();
    for p in [from, to] {
        let all = c
            .find_all(Locator::Css(&format!("#board [data-point=\"{p}\"]")))
            .await
            .unwrap();
        let (x, y, w, h) = all.last().unwrap().rectangle().await.unwrap();
        centres.push((x + w / 2.0, y + h / 2.0));
    }
    let to_centre = |(x, y): (f64, f64)| PointerAction::MoveTo {
        duration: Some(Duration::from_millis(50)),
        x,
        y,
    };
    let mouse = MouseActions::new("mouse".into())
        .then(to_centre(centres[0]))
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(to_centre(centres[1]))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
    c.release_actions().await.unwrap();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_whole_game_is_played_on_the_board_by_clicking_and_dragging_checkers() {
    let server = Server::start(&[]);
    let driver = Driver::start();
    let profile = tempdir("play");
    runtime().block_on(async {
        let c = browser(&driver, &profile).await;
        c.goto(&format!("http://{}/", server.addr)).await.unwrap();
        // A 1-point match at 0-ply: one game, played to its end.
        select(&c, "#length", "1").await;
        select(&c, "#play-ply", "0").await;
        click(&c, "#new-game").await;
        idle(&c).await;
        let mut turns = 0;
        let mut hint_checked = false;
        let mut undo_checked = false;
        let mut dragged = 0;
        loop {
            let v = js(&c, "return window.kotraGame").await;
            let phase = v["phase"].as_str().unwrap().to_string();
            if phase == "match_over" || phase == "game_over" {
                break;
            }
            turns += 1;
            assert!(turns < 500, "the game does not end: {v}");
            assert_eq!(v["turn"], "you", "{v}");
            match phase.as_str() {
                "to_roll" => click(&c, "#roll").await,
                "to_answer" => click(&c, "#take").await,
                "to_move" => {
                    if !hint_checked {
                        hint_checked = true;
                        // The hint's depth is the player's choice, not
                        // kotra-ai's strength, and the table says it.
                        select(&c, "#hint-ply", "0").await;
                        click(&c, "#hint-button").await;
                        let caption = text_of(&c, "#hint-caption").await;
                        assert!(caption.contains("at 0-ply"), "{caption}");
                        let first = text_of(&c, "#hint tr:nth-child(2) td.move").await;
                        let api = server
                            .get(&format!(
                                "/api/analyze?position={}&ply=0",
                                v["gnubg_id"].as_str().unwrap().replace('/', "%2F")
                            ))
                            .1;
                        assert_eq!(first, api["moves"][0]["move"].as_str().unwrap());
                        let shot = c.screenshot().await.unwrap();
                        std::fs::write(screenshots().join("hint.png"), shot).unwrap();
                    }
                    let order = &v["step_orders"][0]["steps"];
                    let steps = order.as_array().unwrap();
                    assert!(
                        c.find(Locator::Css("#play-move")).await.unwrap().is_enabled().await.unwrap()
                            == steps.is_empty(),
                        "the move is complete only when its steps are all made"
                    );
                    for (k, s) in steps.iter().enumerate() {
                        let (from, to) = (s[0].as_u64().unwrap(), s[1].as_u64().unwrap());
                        if undo_checked && k == 0 && (dragged == 0 || turns % 2 == 0) {
                            // The first move's first checker after the undo
                            // is dragged, then every other move's (by turn
                            // parity alone, a cube answer could shift every
                            // later move onto odd turns and none would be).
                            drag(&c, from, to).await;
                            dragged += 1;
                            continue;
                        }
                        click_point(&c, from).await;
                        // The destination lights up before it is clicked.
                        let lit = js(
                            &c,
                            &format!(
                                "return document.querySelector('#board [data-point=\"{to}\"].dest') !== null"
                            ),
                        )
                        .await;
                        assert_eq!(lit, json!(true), "{to} is not lit after clicking {from}");
                        click_point(&c, to).await;
                        if !undo_checked && k == 0 {
                            // Undo puts the checker back; then play it again.
                            undo_checked = true;
                            click(&c, "#undo").await;
                            click_point(&c, from).await;
                            click_point(&c, to).await;
                        }
                    }
                    let enabled = c
                        .find(Locator::Css("#play-move"))
                        .await
                        .unwrap()
                        .is_enabled()
                        .await
                        .unwrap();
                    assert!(enabled, "all steps made: {v}");
                    click(&c, "#play-move").await;
                }
                other => panic!("phase {other}: {v}"),
            }
            idle(&c).await;
        }
        assert!(hint_checked && undo_checked && dragged > 0);
        // The move list is the game so far as gnubg writes it, ending in
        // the win; the board says the score.
        let v = js(&c, "return window.kotraGame").await;
        let record = v["game_record"].as_array().unwrap();
        let lines = c.find_all(Locator::Css("#move-list li")).await.unwrap();
        assert_eq!(lines.len(), record.len());
        let last = lines.last().unwrap().text().await.unwrap();
        assert!(last.contains("Wins"), "{last}");
        let first_move = record.iter().find(|a| a["text"].as_str().unwrap().contains(':')).unwrap();
        let entry_like = is_mat_move_entry(first_move["text"].as_str().unwrap());
        assert!(entry_like, "{first_move}");
        let info = text_of(&c, "#match-info").await;
        assert!(info.contains("1-point match"), "{info}");
        let status = text_of(&c, "#status").await;
        assert!(status.contains("Game over"), "{status}");
        assert!(status.contains("the match"), "{status}");
        let shot = c.screenshot().await.unwrap();
        std::fs::write(screenshots().join("board.png"), shot).unwrap();
        // The record the page links to replays to the page's result.
        let id = js(&c, "return window.kotraGame.id").await;
        let id = id.as_str().expect("a session id is a string");
        let (status, mat) = server.request("GET", &format!("/api/play/{id}/record.mat"), b"");
        assert_eq!(status, 200);
        let record = kotra::notation::parse_match(&mat).unwrap();
        kotra::notation::match_replay::replay(&record, |_| {}).unwrap();
        c.close().await.unwrap();
    });
}

#[test]
fn an_xgid_is_analysed_and_a_match_is_reviewed_in_the_page() {
    let server = Server::start(&[]);
    let driver = Driver::start();
    let profile = tempdir("review");
    runtime().block_on(async {
        let c = browser(&driver, &profile).await;
        c.goto(&format!("http://{}/", server.addr)).await.unwrap();
        click(&c, "#tab-analyse").await;
        // The XGID of the opening position with 3-1 to play.
        let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:1:0:10";
        let field = c.find(Locator::Css("#position")).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(xgid).await.unwrap();
        let dice = c.find(Locator::Css("#dice")).await.unwrap();
        dice.clear().await.unwrap();
        select(&c, "#ply", "0").await;
        click(&c, "#go").await;
        let first = text_of(&c, "#hint tr:nth-child(2) td.move").await;
        let api = server
            .get(&format!(
                "/api/analyze?position={}&ply=0",
                xgid.replace('=', "%3D")
            ))
            .1;
        assert_eq!(first, api["moves"][0]["move"].as_str().unwrap());
        // Under the table, why the best beats the others: the API's words.
        let why = text_of(&c, "#hint-why p:nth-child(2)").await;
        assert_eq!(
            why,
            format!(
                "2. {}",
                api["moves"][1]["explanation"]["sentence"].as_str().unwrap()
            )
        );
        let ids = text_of(&c, "#ids").await;
        assert!(ids.contains(api["ids"]["gnubg"].as_str().unwrap()), "{ids}");
        // The board shows the position: 167 pips a side.
        assert_eq!(text_of(&c, "#pips-bottom").await, "167");
        // A candidate clicked is shown on the board, with the points its
        // explanation names (the points only it holds, its blots) marked.
        click(&c, "#hint tr:nth-child(2)").await;
        let start = Instant::now();
        while text_of(&c, "#pips-bottom").await != "163" {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the candidate is not shown"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let mut expected: Vec<u64> = Vec::new();
        for f in api["moves"][0]["explanation"]["facts"].as_array().unwrap() {
            for key in ["only_best", "best_blots"] {
                if let Some(points) = f[key].as_array() {
                    expected.extend(points.iter().map(|p| p.as_u64().unwrap()));
                }
            }
        }
        expected.sort_unstable();
        expected.dedup();
        assert!(!expected.is_empty(), "{}", api["moves"][0]);
        assert_eq!(named_on_board(&c).await, expected);

        // Review: upload a fixture match at 0-ply; the page's figures are
        // the API's.
        let review = review_fixture(&c, &server, "3-pt-102.mat").await;
        for (i, p) in review["players"].as_array().unwrap().iter().enumerate() {
            let row = text_of(&c, &format!("#review-players tr:nth-child({})", i + 2)).await;
            let pr = format!("{:.2}", p["pr"].as_f64().unwrap());
            let rate = format!("{:.2}", p["error_rate"].as_f64().unwrap());
            assert!(
                row.contains(&pr) && row.contains(&rate),
                "{row} lacks {pr} / {rate}"
            );
        }
        let games = c.find_all(Locator::Css("svg.graph")).await.unwrap();
        assert_eq!(games.len(), review["games"].as_array().unwrap().len());
        let rows = c
            .find_all(Locator::Css("table.decisions tr"))
            .await
            .unwrap();
        let decisions = review["decisions"].as_array().unwrap();
        assert_eq!(
            rows.len(),
            decisions.len() + games.len(),
            "one header a game"
        );
        // The worst decision, coloured by its mark, shown on the board.
        let marked = decisions.iter().filter(|d| d["mark"].is_string()).count();
        let coloured = c
            .find_all(Locator::Css(
                "table.decisions tr.doubtful, table.decisions tr.bad, table.decisions tr.very_bad",
            ))
            .await
            .unwrap();
        assert_eq!(coloured.len(), marked);
        // Each mark its own colour: as many very bad rows as very bad marks.
        let very_bad = decisions.iter().filter(|d| d["mark"] == "very bad").count();
        let red = c
            .find_all(Locator::Css("table.decisions tr.very_bad"))
            .await
            .unwrap();
        assert_eq!(red.len(), very_bad);
        assert!(very_bad > 0, "the fixture has very bad errors");
        if let Some(row) = coloured.first() {
            row.click().await.unwrap();
            let start = Instant::now();
            while !text_of(&c, "#status").await.contains("played") {
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "the decision is not shown"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // A checker play: the position after the best move is shown
            // on request, the mover's pips fewer by the roll (the mover
            // is at the bottom for the left player, on top for the right:
            // the review keeps each player's side).
            let flip = js(&c, "return shown.extra.flip").await == json!(true);
            let mover = if flip { "#pips-top" } else { "#pips-bottom" };
            let before: u64 = text_of(&c, mover).await.parse().unwrap();
            click(&c, "#show-best").await;
            let start = Instant::now();
            loop {
                let now: u64 = text_of(&c, mover).await.parse().unwrap();
                if now < before {
                    break;
                }
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "the best move is not shown"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            click(&c, "#show-before").await;
            assert_eq!(text_of(&c, mover).await, before.to_string());
        }
        let shot = c.screenshot().await.unwrap();
        std::fs::write(screenshots().join("review.png"), shot).unwrap();
        c.close().await.unwrap();
    });
}

/// Uploads a fixture match in the Review tab at 0-ply and waits for the
/// review; returns the API's review of the same file, to check against.
async fn review_fixture(c: &Client, server: &Server, name: &str) -> Value {
    click(c, "#tab-review").await;
    let path = format!("{}/tests/data/matches/{name}", env!("CARGO_MANIFEST_DIR"));
    c.find(Locator::Css("#review-file"))
        .await
        .unwrap()
        .send_keys(&path)
        .await
        .unwrap();
    select(c, "#review-ply", "0").await;
    click(c, "#review-go").await;
    text_of(c, "#review-players").await;
    let body = std::fs::read(&path).unwrap();
    let (status, review) = server.request("POST", "/api/review?ply=0", &body);
    assert_eq!(status, 200);
    serde_json::from_str(&review).unwrap()
}

/// Replaces the text of the input `css`.
async fn set_field(c: &Client, css: &str, text: &str) {
    let field = c.find(Locator::Css(css)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// Where `css` is drawn: x, y, width, height in CSS pixels.
async fn rect(c: &Client, css: &str) -> (f64, f64, f64, f64) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .rectangle()
        .await
        .unwrap()
}

/// Waits until the page's `script` returns true.
async fn until(c: &Client, script: &str, what: &str) {
    let start = Instant::now();
    while js(c, script).await != json!(true) {
        assert!(start.elapsed() < Duration::from_secs(60), "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn the_board_shows_cube_score_and_turn_and_the_tables_a_gnubg_user_expects() {
    let server = Server::start(&[]);
    let driver = Driver::start();
    let profile = tempdir("board");
    runtime().block_on(async {
        let c = browser(&driver, &profile).await;
        c.set_window_size(1400, 1000).await.unwrap();
        c.goto(&format!("http://{}/", server.addr)).await.unwrap();
        click(&c, "#tab-analyse").await;
        // 7-point match, 2-1, the cube on 2 owned by the side on roll.
        set_field(
            &c,
            "#position",
            "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:1:0:7:10",
        )
        .await;
        set_field(&c, "#dice", "").await;
        select(&c, "#ply", "1").await;
        click(&c, "#go").await;
        until(
            &c,
            "return !!document.getElementById('cube-chances')",
            "the cube table",
        )
        .await;
        assert_eq!(text_of(&c, "#cube-value").await, "2");
        let owner = js(
            &c,
            "return document.getElementById('cube-value').getAttribute('data-owner')",
        )
        .await;
        assert_eq!(owner, "bottom");
        let info = text_of(&c, "#match-info").await;
        assert!(
            info.contains("7-point match") && info.contains("X 2") && info.contains("O 1"),
            "{info}"
        );
        assert!(text_of(&c, "#turn").await.contains("on roll"));
        // The cube table: the three equities with MWC in a match, the
        // chances and the cubeless equity; its depth said.
        assert!(text_of(&c, "#hint-caption").await.contains("at 1-ply"));
        let cube = text_of(&c, "#hint").await;
        assert!(cube.contains("MWC") && cube.contains('%'), "{cube}");
        let chances = text_of(&c, "#cube-chances").await;
        for word in ["Wins", "Losses", "gammon", "Cubeless equity"] {
            assert!(chances.contains(word), "{chances}");
        }
        // Under them, why the action follows, in the API's words.
        let why = text_of(&c, "#cube-why").await;
        assert!(
            why.starts_with("The doubler wins") && why.contains("(the answer: "),
            "{why}"
        );
        // On a 1400×1000 screen the hint table sits beside the board,
        // inside the window, and the point numbers are readable.
        let (bx, by, bw, bh) = rect(&c, "#board").await;
        let (hx, hy, hw, _) = rect(&c, "#hint").await;
        assert!(
            hx >= bx + bw && hy < by + bh,
            "board {bx},{by} {bw}x{bh}; hint at {hx},{hy}"
        );
        let width = js(&c, "return window.innerWidth").await.as_f64().unwrap();
        assert!(hx + hw <= width, "the hint table runs off the window");
        assert!(bw > 600.0, "the board does not use the screen: {bw}");
        let number_height = js(
            &c,
            "return document.querySelector('#board .point-number').getBoundingClientRect().height",
        )
        .await;
        assert!(number_height.as_f64().unwrap() >= 11.0, "{number_height}");

        // Roll out: the position rolled out is drawn first, then the table
        // of equities with their standard errors and the five named
        // probabilities, and the cube decision.
        set_field(
            &c,
            "#position",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        )
        .await;
        select(&c, "#rollout-trials", "36").await;
        click(&c, "#rollout-go").await;
        until(
            &c,
            "return document.getElementById('match-info').textContent === 'Money game'",
            "the rolled-out position drawn",
        )
        .await;
        until(
            &c,
            "return !!document.getElementById('rollout-cube')",
            "the rollout's tables",
        )
        .await;
        let table = text_of(&c, "#rollout-table").await;
        for word in ["36 trials", "equity", "win gammon", "lose bg", "±"] {
            assert!(table.contains(word), "{word}: {table}");
        }
        assert!(text_of(&c, "#rollout-cube").await.contains("Proper action"));
        assert!(
            c.find(Locator::Css("#rollout-result pre")).await.is_err(),
            "raw JSON shown"
        );

        // Review: player 0 keeps the bottom and its colour through the
        // match; the graph's axes are labelled; the Played button shows
        // the board after a move that ends the game.
        let review = review_fixture(&c, &server, "3-pt-102.mat").await;
        let axes = text_of(&c, "svg.graph").await;
        assert!(
            axes.contains("checker play") && axes.contains("equity for gnubg"),
            "{axes}"
        );
        let game1: Vec<&Value> = review["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["game"] == 1)
            .collect();
        let names: Vec<&str> = review["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        for player in [1, 0] {
            let i = game1
                .iter()
                .position(|d| d["player"] == player && d["kind"] == "checker")
                .unwrap();
            click_decision(&c, 1, i).await;
            until(
                &c,
                &format!(
                    "return document.getElementById('turn').textContent.startsWith('{}')",
                    names[player]
                ),
                "the decision drawn",
            )
            .await;
            assert_eq!(text_of(&c, "#name-bottom").await, names[0]);
            assert_eq!(text_of(&c, "#name-top").await, names[1]);
        }
        // A marked error says why the best move beats the played one, and
        // the boards after each mark the blots and points it names, on
        // the side the review draws the mover.
        let erred = game1
            .iter()
            .position(|d| d["explanation"].is_object() && d["kind"] == "checker")
            .expect("a marked checker error in game 1");
        click_decision(&c, 1, erred).await;
        let why = &game1[erred]["explanation"];
        let sentence = why["sentence"].to_string();
        until(
            &c,
            &format!(
                "const p = document.getElementById('decision-why'); return !!p && p.textContent === {sentence}"
            ),
            "the explanation of a marked error",
        )
        .await;
        let mut marked = 0;
        for (button, keys) in [
            ("#show-played", ["only_other", "other_blots"]),
            ("#show-best", ["only_best", "best_blots"]),
        ] {
            click(&c, button).await;
            until(
                &c,
                "return document.getElementById('turn').textContent === 'after the move'",
                "the board after the move",
            )
            .await;
            let flip = js(&c, "return shown.extra.flip").await == json!(true);
            let mut expected: Vec<u64> = Vec::new();
            for f in why["facts"].as_array().unwrap() {
                for key in keys {
                    if let Some(points) = f[key].as_array() {
                        expected.extend(points.iter().map(|p| {
                            let p = p.as_u64().unwrap();
                            if flip { 25 - p } else { p }
                        }));
                    }
                }
            }
            expected.sort_unstable();
            expected.dedup();
            assert_eq!(named_on_board(&c).await, expected, "{button}: {why}");
            marked += expected.len();
            click(&c, "#show-before").await;
        }
        assert!(marked > 0, "{why}");
        // A marked cube error says why its action follows.
        let decisions = review["decisions"].as_array().unwrap();
        let cube_error = decisions
            .iter()
            .find(|d| d["explanation"].is_object() && d["kind"] != "checker")
            .expect("a marked cube error in the match");
        let game = cube_error["game"].as_u64().unwrap();
        let index = decisions
            .iter()
            .filter(|d| d["game"] == game)
            .position(|d| std::ptr::eq(d, cube_error))
            .unwrap();
        click_decision(&c, game, index).await;
        let sentence = cube_error["explanation"]["sentence"].to_string();
        assert!(sentence.contains("take point"), "{sentence}");
        until(
            &c,
            &format!(
                "const p = document.getElementById('decision-why'); return !!p && p.textContent === {sentence}"
            ),
            "the explanation of a marked cube error",
        )
        .await;
        let last = game1.iter().rposition(|d| d["kind"] == "checker").unwrap();
        assert_eq!(game1[last]["player"], 0);
        click_decision(&c, 1, last).await;
        until(
            &c,
            "return !!document.getElementById('show-played')",
            "the Played button",
        )
        .await;
        click(&c, "#show-played").await;
        until(
            &c,
            "return document.getElementById('turn').textContent === 'game over'",
            "the finished board",
        )
        .await;
        assert_eq!(text_of(&c, "#pips-bottom").await, "0");
        assert!(text_of(&c, "#error").await.is_empty());
        let shot = c.screenshot().await.unwrap();
        std::fs::write(screenshots().join("board-1400x1000.png"), shot).unwrap();
        c.close().await.unwrap();
    });
}

/// The points the board marks as named by an explanation, sorted.
async fn named_on_board(c: &Client) -> Vec<u64> {
    let named = js(
        c,
        "return [...document.querySelectorAll('#board polygon.named')].map(p => p.getAttribute('data-point')).join(',')",
    )
    .await;
    let mut named: Vec<u64> = named
        .as_str()
        .unwrap()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    named.sort_unstable();
    named
}

/// Clicks decision `index` (of its game's) in game `game`'s table.
async fn click_decision(c: &Client, game: u64, index: usize) {
    js(
        c,
        &format!(
            "document.querySelectorAll('table.decisions')[{}].rows[{}].click(); return true",
            game - 1,
            index + 1
        ),
    )
    .await;
}

/// Whether `text` reads as a move entry of a `.mat` file: two dice, a
/// colon, then the steps (or nothing, for a roll with no move).
fn is_mat_move_entry(text: &str) -> bool {
    let (dice, steps) = text
        .split_once(": ")
        .unwrap_or((text.trim_end_matches(':'), ""));
    dice.len() == 2
        && dice.chars().all(|c| ('1'..='6').contains(&c))
        && steps.split_whitespace().all(|s| s.contains('/'))
}

/// A fresh, empty browser profile.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("chromium-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

//! Sit in the browser (`web/`, docs/web.md), tested in a real browser: builds the site
//! with `scripts/build-web.sh`, serves `target/web/` on 127.0.0.1 and drives Debian's
//! headless Chromium with playwright-core (`web/tests/browser.mjs`), then checks what
//! the page showed against this `sitc`: an unknown name is E0101 at its line, in the
//! user's own file; a missing `;` is underlined; the fixed model's final values are
//! `sitc run`'s last row, bit for bit; Share puts a link in the address bar and on the
//! clipboard that opens the same model in a new page; a schematic is drawn with its
//! matrices and model, and a model typed over it runs, its CSV and event log those of
//! `sitc run`; the Values tab and the CSV agree with `sitc run`; the methods are
//! `sitc run`'s; a stiff model under an explicit method gets `sitc run`'s warning; a
//! long run stops when asked, promptly, and the page's frames go on through a run
//! that keeps every step; a fault of the model is reported and the page runs on; on a
//! phone's screen the page is no wider than it and every control can be reached; links
//! that carry no model say so. Screenshots are left at
//! `target/web-test/screenshot.png` and `screenshot-phone.png`.
//!
//! Needs `/usr/bin/chromium` (or `SIT_CHROMIUM`), node, the npm packages of
//! `web/package-lock.json` (`npm ci` in web/) and the `wasm32-unknown-unknown` target
//! (`scripts/build-web.sh` installs the last two). Without them the test is skipped with a message, except in
//! CI (`CI=true`), where they are a failure. The wasm is built in its own target directory
//! (`target/web-build`: the workspace's is locked while `cargo test` runs).

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What is missing to build and drive the page, if anything.
fn missing() -> Option<String> {
    let root = root();
    let chromium =
        std::env::var_os("SIT_CHROMIUM").map_or("/usr/bin/chromium".into(), PathBuf::from);
    let works = |cmd: &mut Command| cmd.output().is_ok_and(|o| o.status.success());
    let mut missing = Vec::new();
    if !chromium.exists() {
        missing.push(format!("{} (apt-get install chromium)", chromium.display()));
    }
    if !works(Command::new("node").arg("--version")) {
        missing.push("node (apt-get install nodejs npm)".to_string());
    }
    if !root.join("web/node_modules/playwright-core").is_dir()
        || !root.join("web/node_modules/.bin/esbuild").exists()
    {
        missing.push("the npm packages of web/ (cd web && npm ci)".to_string());
    }
    let targets = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output();
    if !targets.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"))
    {
        missing.push(
            "the wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)"
                .to_string(),
        );
    }
    (!missing.is_empty()).then(|| missing.join(", "))
}

/// `sitc run FILE ARGS...`'s header and last row.
fn sitc_last_row(file: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .arg("run")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    format!("{header}\n{}\n", lines.last().unwrap())
}

/// Base64url without padding (RFC 4648 §5), as share links carry a model.
fn base64url(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[test]
fn base64url_has_no_padding() {
    assert_eq!(base64url(b""), "");
    assert_eq!(base64url(b"f"), "Zg");
    assert_eq!(base64url(b"fo"), "Zm8");
    assert_eq!(base64url(b"foo"), "Zm9v");
    assert_eq!(base64url("é?>".as_bytes()), "w6k_Pg");
}

/// Serves the files below `dir` on 127.0.0.1 (GET only, one thread), for the test's life.
fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).map_or(true, |n| n == 0) || line == "\r\n" {
                    break;
                }
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/");
            let path = path
                .split(['?', '#'])
                .next()
                .unwrap_or("/")
                .trim_start_matches('/');
            let file = dir.join(if path.is_empty() { "index.html" } else { path });
            let body = (!path.contains(".."))
                .then(|| std::fs::read(&file).ok())
                .flatten();
            let head = |status: &str, kind: &str, len: usize| {
                format!(
                    "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n"
                )
            };
            let _ = match body {
                Some(body) => {
                    let kind = match file.extension().and_then(|e| e.to_str()) {
                        Some("html") => "text/html; charset=utf-8",
                        Some("js") => "text/javascript",
                        Some("css") => "text/css",
                        Some("wasm") => "application/wasm",
                        _ => "application/octet-stream",
                    };
                    stream
                        .write_all(head("200 OK", kind, body.len()).as_bytes())
                        .and_then(|_| stream.write_all(&body))
                }
                None => stream.write_all(head("404 Not Found", "text/plain", 0).as_bytes()),
            };
            let _ = stream.read(&mut [0; 1]).ok().filter(|_| false);
        }
    });
    format!("http://{addr}")
}

const UNKNOWN: &str = "/// A ball dropped from 10 m, bouncing with a restitution of 0.8.\nmodel Ball {\n    param g = 9.81, e = 0.8;\n    output real h = 10, v;\n    event impact = h < 0;\n    v = integral(-gravity);\n    h = integral(v);\n    when impact { v = -e * v; h = 0; }\n}\n";

/// A phase that does not end within its limit at t = 0.5 (as in `cli/tests/run.rs`).
const FAULT: &str = "model Count { output real x; x = integral(1); }
model PhaseLimit {
    param target = 1e6;
    output real took;
    phase count: Count step 0.1 limit 100 until count.x >= target;
    event go = time >= 0.5;
    when go => run(count);
    took = count.time;
}
";

/// A model without the `;` after `output real x` (an empty span, between two tokens).
const MISSING_SEMICOLON: &str = "model M {\n    output real x\n    x = integral(1);\n}\n";

/// `sitc run FILE ARGS...` run in `dir` (FILE as the page names it there): stdout,
/// and the warnings on stderr.
fn sitc_in(dir: &Path, file: &str, args: &[&str]) -> (String, Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_sitc"))
        .current_dir(dir)
        .arg("run")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let warnings = (String::from_utf8_lossy(&out.stderr).lines())
        .filter(|l| l.starts_with("warning: "))
        .map(str::to_string)
        .collect();
    (String::from_utf8(out.stdout).unwrap(), warnings)
}

#[test]
fn the_page_checks_runs_draws_shares_and_stops() {
    if let Some(what) = missing() {
        let message = format!("the browser test needs {what}");
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{message}");
        }
        eprintln!("\n!!!!! SKIPPED: {message} !!!!!\n");
        return;
    }
    let root = root();
    let built = Instant::now();
    let status = Command::new("bash")
        .arg(root.join("scripts/build-web.sh"))
        .env("CARGO_TARGET_DIR", root.join("target/web-build"))
        .status()
        .unwrap();
    assert!(status.success(), "scripts/build-web.sh failed");
    eprintln!("built the site in {:.1} s", built.elapsed().as_secs_f64());
    let site = root.join("target/web");
    let base = serve(site.clone());

    let work = root.join("target/web-test");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(work.join("schematics")).unwrap();
    let fixed = UNKNOWN.replace("-gravity", "-g");
    let ball = work.join("ball.sit");
    std::fs::write(&ball, &fixed).unwrap();
    // Shared: a model whose text is not ASCII (é, ·, ²) and whose Run line the page follows.
    let shared = "/// Dahlquist's test equation, x' = λ·x (λ = -2 s⁻¹), from x = 1.\n///\n/// Run: `sitc run shared.sit --dt 0.05 --t-end 3`\nmodel Decay {\n    param lambda = -2;\n    output real x = 1;\n    x = integral(lambda * x);\n}\n";
    let shared_path = work.join("shared.sit");
    std::fs::write(&shared_path, shared).unwrap();
    let hoop = std::fs::read_to_string(root.join("examples/models/hoop.sit")).unwrap();
    let light = std::fs::read_to_string(root.join("examples/models/traffic_light.sit")).unwrap();
    // Typed over a schematic of the library: the user's own file, in its folder.
    std::fs::write(work.join("schematics/untitled.sit"), &light).unwrap();
    let methods: Vec<&str> = (sit_middle::ir::Method::ALL.iter())
        .map(|m| m.name())
        .collect();
    let cases = serde_json::json!({
        "unknown": UNKNOWN,
        "missing_semicolon": MISSING_SEMICOLON,
        "missing_semicolon_line": 2,
        "own_name": "my_model",
        "fixed": fixed,
        "dt": 0.001,
        "t_end": 6,
        "shared": shared,
        "shared_dt": 0.05,
        "shared_t_end": 3,
        "schematic": "schematics/clutch.sch",
        "light": light,
        "light_dt": 0.5,
        "light_t_end": 130,
        "light_every": 20,
        "values_model": "models/thermostat.sit",
        "values_dt": 1,
        "values_t_end": 20000,
        "values_every": 60,
        "stiff_model": "models/robertson.sit",
        "stiff_method": "dopri5",
        "long": hoop,
        "long_dt": 1e-5,
        "long_t_end": 1e5,
        "long_every": 100000,
        "every_dt": 1e-3,
        "every_t_end": 1e5,
        "every_run_ms": 1500,
        "speed": hoop,
        "speed_dt": 1e-4,
        "speed_t_end": 50,
        "speed_every": 100,
        "screenshot_model": "models/hoop.sit",
        "fault": FAULT,
        "bad_fragments": ["%%%notbase64", "_-_-_-"],
    });
    let cases_path = work.join("cases.json");
    std::fs::write(&cases_path, cases.to_string()).unwrap();
    let screenshot = work.join("screenshot.png");
    let out = Command::new("node")
        .arg(root.join("web/tests/browser.mjs"))
        .arg(&base)
        .arg(&cases_path)
        .arg(&screenshot)
        .arg(work.join("profile"))
        .current_dir(root.join("web"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "browser.mjs failed:\n{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "browser.mjs: {e}\n{}\n{stderr}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    eprintln!("{stderr}");
    let shown = {
        // The report without the long texts, to read in the test's output.
        let mut r = report.clone();
        for key in [
            ["schematic", "generated"],
            ["typed_after_schematic", "csv"],
            ["values", "csv"],
        ] {
            if let Some(v) = r.get_mut(key[0]).and_then(|v| v.get_mut(key[1])) {
                *v = serde_json::json!("…");
            }
        }
        r
    };
    eprintln!("browser report: {shown:#}");
    assert!(report["failure"].is_null(), "{}", report["failure"]);
    assert_eq!(
        report["errors"],
        serde_json::json!([]),
        "errors in the page"
    );

    // An unknown name: E0101 at its line, underlined in the editor, in the user's own
    // file: typed over the bouncing ball of the library, it is `models/untitled.sit`,
    // not the library's file (issue 51, item 5).
    let unknown = &report["unknown"];
    assert_eq!(unknown["line"], 6, "{unknown}");
    let text = unknown["text"].as_str().unwrap();
    assert!(text.contains("gravity"), "{unknown}");
    assert!(text.starts_with("models/untitled.sit:6:19: "), "{unknown}");
    assert_eq!(unknown["file"], "models/untitled.sit");
    assert!(unknown["underlined"].as_u64().unwrap() >= 1, "{unknown}");

    // A missing `;`: underlined, on the token after it (issue 51, item 8).
    let semicolon = &report["semicolon"];
    assert!(
        semicolon["text"]
            .as_str()
            .unwrap()
            .starts_with("models/untitled.sit:2:"),
        "{semicolon}"
    );
    let underlines = semicolon["underlines"].as_array().unwrap();
    assert!(
        underlines
            .iter()
            .any(|u| u["text"] == "x" && u["width"].as_f64().unwrap() > 0.0),
        "{semicolon}"
    );

    // A name given in the file box: the text is checked as that file, a `.sit` by its
    // content.
    let own = &report["own_name"];
    assert_eq!(own["path"], "my_model.sit", "{own}");
    assert_eq!(own["file"], "my_model.sit", "{own}");
    assert!(
        own["text"].as_str().unwrap().starts_with("my_model.sit:2:"),
        "{own}"
    );

    // Fixed: the final values are sitc run's, as printed.
    let want = sitc_last_row(&ball, &["--dt", "0.001", "--t-end", "6"]);
    assert_eq!(report["fixed"]["finals"], want.as_str());
    assert_eq!(report["fixed"]["stopped"], false);

    // Share (issue 51, item 1): the link in the address bar and on the clipboard
    // carries the model (text not ASCII); opened in a new page, it loads the same text
    // and runs it (with its Run line) to the same final values, sitc run's.
    let button = &report["share_button"];
    let link = button["address"].as_str().unwrap();
    assert!(
        link.starts_with(&format!("{base}/index.html#model=")),
        "{button}"
    );
    assert_eq!(
        link.split_once("#model=").unwrap().1,
        base64url(shared.as_bytes())
    );
    assert_eq!(button["clipboard"], link, "{button}");
    assert!(
        button["status"].as_str().unwrap().contains("clipboard"),
        "{button}"
    );
    let opened = &button["opened"];
    assert_eq!(
        opened["text"].as_str().unwrap().trim_end(),
        shared.trim_end()
    );
    assert_eq!(button["text"], opened["text"]);
    let shared_finals = sitc_last_row(&shared_path, &["--dt", "0.05", "--t-end", "3"]);
    assert_eq!(report["share_button_run"]["finals"], shared_finals.as_str());
    assert_eq!(opened["finals"], shared_finals.as_str());
    assert_eq!(opened["path"], "untitled.sit");

    // A schematic: drawn, with its matrices and generated model.
    let s = &report["schematic"];
    assert!(s["svg_elements"].as_u64().unwrap() > 10, "{s}");
    assert!(
        s["generated"]
            .as_str()
            .unwrap()
            .contains("model ClutchDrive"),
        "{s}"
    );
    assert!(!s["matrices"].as_str().unwrap().trim().is_empty(), "{s}");
    assert_eq!(s["tab"], "schematic");

    // A model typed over the schematic (issue 51, item 5): a `.sit` file of the user's,
    // `schematics/untitled.sit`, checked and run as sitc runs that file; its event log
    // is `sitc run --events`'s, header and rule paths included (item 9).
    let typed = &report["typed_after_schematic"];
    assert_eq!(typed["path"], "schematics/untitled.sit", "{typed}");
    assert_eq!(typed["stopped"], false);
    let log = work.join("light-events.csv");
    let (csv, _) = sitc_in(
        &work,
        "schematics/untitled.sit",
        &[
            "--dt",
            "0.5",
            "--t-end",
            "130",
            "--every",
            "20",
            "--events",
            log.to_str().unwrap(),
        ],
    );
    assert_eq!(typed["csv"], csv.as_str());
    let log = std::fs::read_to_string(&log).unwrap();
    let want: Vec<&str> = log.lines().take(40).collect();
    assert_eq!(want[0], "t,name,from,to,rule");
    assert!(want[1].contains(",schematics/untitled.sit:"), "{log}");
    assert_eq!(typed["events"], serde_json::json!(want));

    // The Values tab's last row is the CSV's, and both are sitc run's (issue 51, item 8).
    let values = &report["values"];
    let (csv, _) = sitc_in(
        &root,
        "examples/models/thermostat.sit",
        &["--dt", "1", "--t-end", "20000", "--every", "60"],
    );
    assert_eq!(values["csv"], csv.as_str());
    let mut lines = csv.lines();
    let last = format!("{}\n{}\n", lines.next().unwrap(), lines.last().unwrap());
    assert!(last.contains("\n20000,"), "{last}");
    assert_eq!(values["finals"], last.as_str());

    // The methods: every one of sitc run's, radau5 among them (issue 51, item 8).
    assert_eq!(report["methods"], serde_json::json!(methods));

    // An explicit method on a stiff model: sitc run's warning (issue 51, item 8).
    let stiff = &report["stiff"];
    let (_, warnings) = sitc_in(
        &root,
        "examples/models/robertson.sit",
        &[
            "--dt", "1", "--t-end", "40", "--every", "10", "--method", "dopri5",
        ],
    );
    assert!(
        !warnings.is_empty() && warnings[0].contains("rodas5p"),
        "{warnings:?}"
    );
    assert_eq!(stiff["notes"], serde_json::json!(warnings), "{stiff}");

    // A long run (10^10 steps) stopped: promptly, after some steps, before the end.
    let long = &report["long"];
    assert_eq!(long["stopped"], true, "{long}");
    assert!(
        long["done"].as_f64().unwrap() > 0.0 && long["done"].as_f64() < long["steps"].as_f64(),
        "{long}"
    );
    assert!(long["stop_ms"].as_f64().unwrap() < 5000.0, "{long}");

    // Every step of a long run (the hoop at dt 1e-3 to t = 1e5, every 1: 10^8 rows),
    // stopped after 1.5 s (issue 51, items 3 and 7). The page's frames go on: the frame
    // gaps (requestAnimationFrame's timestamps in the page, during the run and 250 ms
    // after it) stay near 16.7 ms: 90 % of them below 50 ms, the goal, and the
    // largest below 250 ms, a slack for the machine: 2 cores shared with other builds
    // (load 5 to 10), where the page's thread is descheduled now and then for a frame
    // or three (measured at loads of 5 to 10: the 95th percentile 17 to 50 ms, the
    // largest gap 17 to 183 ms). The page's own work (`work`: the longest it spent on a
    // message of the worker, and on a drawing of the plot) is printed, not bounded:
    // the wall clock counts a descheduling as the page's (measured: 5 to 18 ms and 7
    // to 13 ms, at times 60 to 98 ms). Before this work the page blocked its thread
    // for 6.0 s with every 1, and for 317 ms at the end of the speed run below: both
    // fail these bounds.
    // The Stop: under 0.5 s from the click to the results shown (the page's own
    // measure). The rows kept for the plot are bounded (2^15); the CSV to download has
    // every row (the header, t = 0 and one a step).
    let every = &report["every"];
    assert_eq!(every["stopped"], true, "{every}");
    let done = every["done"].as_u64().unwrap();
    assert!(done > 1000, "{every}");
    let smooth = |frames: &serde_json::Value| {
        assert!(frames["count"].as_u64().unwrap() > 10, "{frames}");
        assert!(frames["p90"].as_f64().unwrap() < 50.0, "{frames}");
        assert!(frames["max"].as_f64().unwrap() < 250.0, "{frames}");
    };
    smooth(&every["frames"]);
    assert!(every["page_stop_ms"].as_f64().unwrap() < 500.0, "{every}");
    assert!(every["rows"].as_u64().unwrap() <= 1 << 15, "{every}");
    assert_eq!(every["csv"]["lines"].as_u64().unwrap(), done + 2, "{every}");
    assert!(
        every["csv"]["head"]
            .as_str()
            .unwrap()
            .starts_with("t,h,Vy,defl\n0,400,0,0\n"),
        "{every}"
    );
    let last = every["finals"].as_str().unwrap().lines().nth(1).unwrap();
    let tail = every["csv"]["tail"].as_str().unwrap();
    assert!(tail.ends_with(&format!("\n{last}\n")), "{every}");

    // A fault of the model (a panic, a trap in WebAssembly): reported as sitc reports
    // it, and the next run (the speed's) runs in a new worker.
    assert_eq!(
        report["fault"],
        "the model stopped: phase `count` of `PhaseLimit` did not end within its limit of 100 steps (run at t = 0.5)"
    );

    // Speed: the browser's steps of the hoop against the same steps natively; the
    // frames go on through it and through its results (as above).
    let speed = &report["speed"];
    assert_eq!(speed["done"], 500_000.0);
    smooth(&speed["frames"]);
    let hoop_path = root.join("examples/models/hoop.sit");
    let native_ms = (0..3)
        .map(|_| {
            let mut native = sit_host::load_file(&hoop_path, None).unwrap().instance;
            let t = Instant::now();
            for _ in 0..500_000 {
                sit_runtime::Model::step(&mut native, 1e-4);
            }
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min);
    let browser_ms = speed["stepping_ms"].as_f64().unwrap();

    // A phone (390 × 844, issue 51, item 2): the page no wider than the screen, the
    // editor as wide as it, and every control reachable: scrolled to, inside the
    // screen, and what a tap at its centre meets.
    let phone = &report["phone"];
    assert_eq!(phone["width"], 390, "{phone}");
    assert!(phone["document_width"].as_u64().unwrap() <= 390, "{phone}");
    assert!(phone["body_width"].as_u64().unwrap() <= 390, "{phone}");
    assert!(phone["editor_width"].as_f64().unwrap() >= 370.0, "{phone}");
    assert!(phone["controls"].as_u64().unwrap() >= 20, "{phone}");
    assert_eq!(phone["unreachable"], serde_json::json!([]), "{phone}");
    assert_eq!(phone["tab"], "values");

    // Links that carry no model (issue 51, item 6): said so, the editor left empty, no
    // run; and while a model is open, it stays.
    for bad in report["bad_links"].as_array().unwrap() {
        assert!(
            bad["status"].as_str().unwrap().contains("carries no model"),
            "{bad}"
        );
        assert_eq!(bad["text"].as_str().unwrap().trim(), "", "{bad}");
        assert_eq!(bad["runs"], 0, "{bad}");
    }
    assert_eq!(report["bad_links"].as_array().unwrap().len(), 2);
    let kept = &report["bad_link_kept"];
    assert_eq!(kept["same"], true, "{kept}");
    assert!(
        kept["status"]
            .as_str()
            .unwrap()
            .contains("carries no model"),
        "{kept}"
    );

    eprintln!(
        "hoop, 500000 steps: browser {browser_ms:.0} ms, native (test profile) {native_ms:.0} ms, ratio {:.2} (see docs/web.md for release); timings {}; wasm {} bytes; frames every 1 {}, speed {}; stop {} ms (page), {} ms (click to results); the page's part {} s",
        browser_ms / native_ms,
        report["timings"],
        report["wasm_bytes"],
        report["every"]["frames"],
        report["speed"]["frames"],
        report["every"]["page_stop_ms"],
        report["every"]["stop_click_ms"],
        report["page_s"],
    );
    assert!(screenshot.exists());
}

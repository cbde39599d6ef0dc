//! Draws the plots of `BENCHMARKS.md` as SVG from what the benchmarks wrote to
//! `target/bench-results/` (`rounds.json` and `http_load.json`), into this folder.
//!
//! `cargo run -p mrtr-tests --bin bench-plots` after
//! `cargo bench -p mrtr-tests --bench rounds --bench http_load`.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;
use serde_json::Value;

const WIDTH: u32 = 760;
const HEIGHT: u32 = 420;
const COLORS: [RGBColor; 4] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
];

fn read(dir: &Path, name: &str) -> anyhow::Result<Value> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("{}: run the benchmarks first", path.display()))?;
    Ok(serde_json::from_str(&text)?)
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .map(|values| values.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

/// Grouped bars: for each group, one bar per series.
fn bars(
    path: &Path,
    title: &str,
    y_label: &str,
    groups: &[&str],
    series: &[(&str, Vec<f64>)],
) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let top = series
        .iter()
        .flat_map(|(_, values)| values.iter().copied())
        .fold(0.0f64, f64::max)
        * 1.2;
    let slots = groups.len() * (series.len() + 1);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..slots as f64, 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc(y_label)
        .x_desc(groups.join(", then "))
        .x_label_formatter(&|_| String::new())
        .draw()?;
    for (index, (name, values)) in series.iter().enumerate() {
        let color = COLORS[index % COLORS.len()];
        chart
            .draw_series(values.iter().enumerate().map(|(group, value)| {
                let x = (group * (series.len() + 1) + index) as f64;
                Rectangle::new([(x + 0.1, 0.0), (x + 0.9, *value)], color.filled())
            }))?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        chart.draw_series(values.iter().enumerate().map(|(group, value)| {
            let x = (group * (series.len() + 1) + index) as f64;
            Text::new(
                format!("{}: {value:.1}", groups[group]),
                (x + 0.05, value + top * 0.02),
                ("sans-serif", 11),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()?;
    Ok(())
}

/// A ratio and its 95% interval, if the results hold both (runs before 2026-12-01 have none).
fn with_interval(ratio: &Value, interval: &Value) -> Option<(f64, [f64; 2])> {
    match numbers(interval)[..] {
        [low, high] => Some((ratio.as_f64()?, [low, high])),
        _ => None,
    }
}

/// One ratio per comparison, with its 95% interval as a bar, against a dashed line at 1.
fn ratios(path: &Path, title: &str, measured: &[(String, (f64, [f64; 2]))]) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (low, high) = measured
        .iter()
        .fold((1.0f64, 1.0f64), |(low, high), (_, (_, [l, h]))| {
            (low.min(*l), high.max(*h))
        });
    let pad = (high - low) * 0.15 + 0.005;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..measured.len() as f64, (low - pad)..(high + pad))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc("mrtr / hand-written")
        .x_label_formatter(&|_| String::new())
        .draw()?;
    chart.draw_series(DashedLineSeries::new(
        [(0.0, 1.0), (measured.len() as f64, 1.0)],
        6,
        4,
        BLACK.stroke_width(1),
    ))?;
    for (index, (label, (ratio, [l, h]))) in measured.iter().enumerate() {
        let x = index as f64 + 0.5;
        let color = COLORS[index % COLORS.len()];
        let bar = |y| PathElement::new([(x - 0.08, y), (x + 0.08, y)], color.stroke_width(2));
        chart.draw_series([
            PathElement::new([(x, *l), (x, *h)], color.stroke_width(2)),
            bar(*l),
            bar(*h),
        ])?;
        chart.draw_series([Circle::new((x, *ratio), 4, color.filled())])?;
        chart.draw_series([Text::new(
            format!("{ratio:.3}"),
            (x + 0.05, *ratio),
            ("sans-serif", 11),
        )])?;
        chart.draw_series([Text::new(
            label.clone(),
            (index as f64 + 0.05, low - pad * 0.6),
            ("sans-serif", 11),
        )])?;
    }
    root.present()?;
    Ok(())
}

/// Lines over x = 1, 2, ...: one per series, on a linear or a log y axis.
fn lines(
    path: &Path,
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[(String, Vec<(f64, f64)>)],
    log_y: bool,
) -> anyhow::Result<()> {
    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let points = || series.iter().flat_map(|(_, points)| points.iter());
    let x_max = points().map(|(x, _)| *x).fold(1.0, f64::max);
    let y_max = points().map(|(_, y)| *y).fold(0.0, f64::max) * 1.3;
    let y_min = points().map(|(_, y)| *y).fold(f64::INFINITY, f64::min);
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64);
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .draw()?;
            for (index, (name, points)) in series.iter().enumerate() {
                let color = COLORS[index % COLORS.len()];
                chart
                    .draw_series(LineSeries::new(
                        points.iter().copied(),
                        color.stroke_width(2),
                    ))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                    });
                chart.draw_series(
                    points
                        .iter()
                        .map(|point| Circle::new(*point, 3, color.filled())),
                )?;
            }
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperLeft)
                .draw()?;
        }};
    }
    match log_y {
        true => draw!(
            builder
                .build_cartesian_2d(0f64..x_max * 1.05, (y_min * 0.5..y_max * 2.0).log_scale())?
        ),
        false => draw!(builder.build_cartesian_2d(0f64..x_max * 1.05, 0f64..y_max)?),
    }
    root.present()?;
    Ok(())
}

/// `[a, b, c]` as points (1, a), (2, b), (3, c).
fn by_round(values: &[f64]) -> Vec<(f64, f64)> {
    values
        .iter()
        .enumerate()
        .map(|(index, value)| ((index + 1) as f64, *value))
        .collect()
}

fn main() -> anyhow::Result<()> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let results = mrtr_tests::bench_results::dir();
    let out = manifest.join("plots");
    std::fs::create_dir_all(&out)?;
    let rounds = read(&results, "rounds.json")?;
    let http = read(&results, "http_load.json")?;

    // CPU per round against the hand-written baseline: over HTTP (server CPU per request) and
    // on the duplex (time per request, client included, and the servers' CPU alone).
    let tools = ["signup", "wizard5"];
    let http_cpu = |who: &str| -> Vec<f64> {
        tools
            .iter()
            .map(|tool| {
                http[format!("hand_written/{tool}")]["cpu_per_request_us"][who]
                    .as_f64()
                    .unwrap_or(0.0)
            })
            .collect()
    };
    // The paired ratios, each with the interval its benchmark recorded.
    let mut p1 = Vec::new();
    for tool in tools {
        let measured = &rounds[format!("duplex/{tool}")];
        if let Some(paired) = with_interval(
            &measured["paired_ratio"],
            &measured["paired_ratio_95_interval"],
        ) {
            p1.push((format!("duplex, {tool}"), paired));
        }
        if let Some(paired) = with_interval(
            &measured["server_cpu_paired_ratio"],
            &measured["server_cpu_paired_ratio_95_interval"],
        ) {
            p1.push((format!("duplex, server CPU, {tool}"), paired));
        }
    }
    for (key, label) in [
        ("hand_written/signup", "HTTP, signup"),
        ("hand_written/wizard5", "HTTP, wizard5"),
        ("hand_written/control_wizard5", "HTTP, control"),
    ] {
        if let Some(paired) = with_interval(&http[key]["ratio"], &http[key]["ratio_95_interval"]) {
            p1.push((label.to_owned(), paired));
        }
    }
    bars(
        &out.join("cpu_per_round.svg"),
        "Server CPU per request over HTTP: mrtr and hand-written rmcp",
        "microseconds",
        &tools,
        &[
            ("hand-written on rmcp", http_cpu("hand_written")),
            ("mrtr", http_cpu("mrtr")),
        ],
    )?;
    ratios(
        &out.join("p1_ratios.svg"),
        "P1: mrtr / hand-written, paired, with 95% intervals (control: two identical servers)",
        &p1,
    )?;

    // CPU per flow against the other SDKs, by number of questions.
    let growth = &http["sdks/growth"];
    let mut servers: Vec<String> = growth["10"]
        .as_object()
        .map(|servers| servers.keys().cloned().collect())
        .unwrap_or_default();
    servers.sort_by_key(|name| (name != "mrtr", name.clone()));
    let mut counts: Vec<u32> = growth
        .as_object()
        .map(|counts| counts.keys().filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    counts.sort();
    let cpu_lines: Vec<(String, Vec<(f64, f64)>)> = servers
        .iter()
        .map(|server| {
            let points = counts
                .iter()
                .filter_map(|n| {
                    let ms = growth[n.to_string()][server]["cpu_per_flow_ms"].as_f64()?;
                    Some((f64::from(*n), ms))
                })
                .collect();
            (server.clone(), points)
        })
        .collect();
    lines(
        &out.join("sdk_cpu_per_flow.svg"),
        "Server CPU per flow of `questions`, by number of questions",
        ("questions (one per round)", "milliseconds per flow (log)"),
        &cpu_lines,
        true,
    )?;

    // State bytes per round.
    let mut state_lines: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for tool in tools {
        let sizes = &rounds[format!("duplex/{tool}")]["state_bytes"];
        state_lines.push((
            format!("{tool}, hand-written"),
            by_round(&numbers(&sizes["hand_written"])),
        ));
        state_lines.push((format!("{tool}, mrtr"), by_round(&numbers(&sizes["mrtr"]))));
    }
    lines(
        &out.join("state_bytes.svg"),
        "requestState bytes per round: mrtr and hand-written rmcp",
        ("round", "bytes"),
        &state_lines,
        false,
    )?;
    let sdk_states: Vec<(String, Vec<(f64, f64)>)> = servers
        .iter()
        .map(|server| {
            (
                server.clone(),
                by_round(&numbers(&growth["10"][server]["state_bytes"])),
            )
        })
        .collect();
    lines(
        &out.join("sdk_state_bytes.svg"),
        "requestState bytes per round of `questions` (10), by SDK (log)",
        ("round", "bytes (log)"),
        &sdk_states,
        true,
    )?;

    // Latency per request under load (8 clients), mrtr `wizard5` over HTTP.
    let latency = &http["hand_written/wizard5"]["latency"];
    let percentile = |name: &str| -> Vec<(f64, f64)> {
        latency
            .as_array()
            .map(|requests| {
                requests
                    .iter()
                    .filter_map(|r| Some((r["request"].as_f64()?, r[name].as_f64()? / 1000.0)))
                    .collect()
            })
            .unwrap_or_default()
    };
    lines(
        &out.join("latency.svg"),
        "mrtr wizard5 over HTTP, 8 clients: latency of each request",
        ("request (the last one completes)", "milliseconds"),
        &[
            ("p50".to_owned(), percentile("p50_us")),
            ("p90".to_owned(), percentile("p90_us")),
            ("p99".to_owned(), percentile("p99_us")),
        ],
        false,
    )?;
    println!("plots written to {}", out.display());
    Ok(())
}

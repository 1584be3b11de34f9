//! Rendering benchmarks: each game's busiest board drawn and encoded (and Lanrick's drawing and
//! encoding apart, and at the other sizes), with the PNGs' sizes in every theme; the tournament
//! charts; the whole Lanrick game as an animated GIF, per position.

#[path = "../tests/common/busiest.rs"]
mod busiest;

use criterion::{Criterion, criterion_group, criterion_main};
use muster_render::lanrick::{LanrickView, draw};
use muster_render::{Size, Style, Theme};
use muster_rules::Game;
use muster_rules::lanrick::Lanrick;
use std::hint::black_box;

/// Each game's busiest board (tests/common/busiest.rs): view + draw + encode at the normal size
/// in the classic theme, its size; and, for Lanrick, drawing and encoding apart.
fn boards(c: &mut Criterion) {
    for (name, png) in busiest::boards() {
        let sizes: Vec<String> = Theme::ALL
            .iter()
            .map(|t| {
                let style = Style {
                    theme: *t,
                    ..Style::default()
                };
                format!("{} {} B", t.name(), png(style).len())
            })
            .collect();
        eprintln!("{name}: {}", sizes.join(", "));
        c.bench_function(&format!("render/{name} view + draw + encode"), |b| {
            b.iter(|| png(black_box(Style::default())))
        });
    }
    let (game, events) = busiest::lanrick();
    let view = LanrickView::new(&game, &events, busiest::NAMES);
    let canvas = draw(&view, Style::default());
    c.bench_function("render/lanrick draw", |b| {
        b.iter(|| draw(black_box(&view), Style::default()))
    });
    c.bench_function("render/lanrick encode", |b| {
        b.iter(|| muster_render::lanrick::encode(black_box(&canvas), Theme::Classic))
    });
    for size in [Size::Small, Size::Large] {
        let style = Style {
            size,
            ..Style::default()
        };
        c.bench_function(
            &format!("render/lanrick {} view + draw + encode", size.name()),
            |b| {
                b.iter(|| {
                    muster_render::lanrick::png_noted(&game, &events, busiest::NAMES, "", style)
                })
            },
        );
    }
}

/// A Swiss event's standings of 16 after round 5, and an eight-slot bracket half played.
fn charts(c: &mut Criterion) {
    use muster_render::{Align, Bracket, BracketMatch, BracketRound, Column, Table};
    let columns = ["#", "Name", "Pts", "Games", "BhC1", "Bh", "SB", "Wins"]
        .iter()
        .enumerate()
        .map(|(i, h)| Column {
            head: h.to_string(),
            align: if i == 1 { Align::Left } else { Align::Right },
        })
        .collect();
    let rows = (0..16)
        .map(|i| {
            vec![
                (i + 1).to_string(),
                format!("player number {i}"),
                format!("{}½", 5 - i / 4),
                "5".into(),
                "12½".into(),
                "15".into(),
                "11¼".into(),
                "3".into(),
            ]
        })
        .collect();
    let table = Table {
        title: "spring · Swiss · after round 5 of 5".into(),
        columns,
        rows,
        footer: Some("BhC1 Buchholz cut-1 · Bh Buchholz · SB Sonneborn-Berger".into()),
    };
    let m = |i: usize, decided: bool| BracketMatch {
        top: format!("player {} ({})", i, i + 1),
        bottom: format!("player {} ({})", 15 - i, 16 - i),
        top_score: if decided {
            "1 ½".into()
        } else {
            String::new()
        },
        bottom_score: if decided {
            "0 ½".into()
        } else {
            String::new()
        },
        winner: decided.then_some(true),
    };
    let bracket = Bracket {
        title: "cup · knockout".into(),
        rounds: vec![
            BracketRound {
                title: "Quarter-finals".into(),
                matches: (0..4).map(|i| m(i, true)).collect(),
            },
            BracketRound {
                title: "Semi-finals".into(),
                matches: (0..2).map(|i| m(i, false)).collect(),
            },
            BracketRound {
                title: "Final".into(),
                matches: Vec::new(),
            },
        ],
    };
    let png = muster_render::table_png(&table).expect("a table");
    let bracket_png = muster_render::bracket_png(&bracket).expect("a bracket");
    eprintln!(
        "standings PNG (16 rows): {} bytes; bracket PNG (8 slots): {} bytes",
        png.len(),
        bracket_png.len()
    );
    c.bench_function("render/standings table of 16", |b| {
        b.iter(|| muster_render::table_png(black_box(&table)))
    });
    c.bench_function("render/bracket of 8", |b| {
        b.iter(|| muster_render::bracket_png(black_box(&bracket)))
    });
}

/// The whole game of docs/examples as the bot posts its replay: each position drawn without
/// the hints for the player to decide, captioned with the decision's number, shrunk to
/// [`SCALE`](muster_render::animation::SCALE) and encoded. Timed per position (the whole
/// game's time / its frames): encoding frames drawn beforehand, and drawing, shrinking and
/// encoding them.
fn replay(c: &mut Criterion) {
    use muster_render::animation::{SCALE, Timing, Writer, shrunk};
    use muster_render::lanrick::palette;
    use std::time::{Duration, Instant};
    let names = ["Alice", "Bob"];
    let record = include_str!("../../docs/examples/lanrick-whole-game.txt");
    let mut game = Lanrick::new();
    let mut start = LanrickView::new(&game, &[], names);
    start.headline = "Start".into();
    let mut views = vec![start];
    for (i, text) in record
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let seat = game.to_move().expect("to move");
        let events = game.play_text(seat, text).expect("legal");
        let mut view = LanrickView::new(&game, &events, names);
        view.ringed.clear();
        view.dotted.clear();
        if game.outcome().is_none() {
            view.headline = format!("{} · {} ({})", i + 1, names[seat.index()], seat.colour());
        }
        views.push(view);
    }
    let frame = |v: &LanrickView| shrunk(&draw(v, Style::default()).pixmap, SCALE);
    let pixmaps: Vec<_> = views.iter().map(frame).collect();
    let (w, h) = (pixmaps[0].width(), pixmaps[0].height());
    let frames = pixmaps.len() as u32;
    let encode = |pixmaps: &[tiny_skia::Pixmap]| {
        let mut gif = Writer::new(w, h, palette(Theme::Classic), Timing::default());
        for p in pixmaps {
            gif.push(p).expect("a board");
        }
        gif.finish()
    };
    eprintln!(
        "replay GIF: {} bytes for {frames} positions, {w}x{h}",
        encode(&pixmaps).len()
    );
    let per_position = |iters: u64, run: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..iters {
            run();
        }
        start.elapsed() / frames
    };
    let mut group = c.benchmark_group("render/replay");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("encode, per position", |b| {
        b.iter_custom(|iters| per_position(iters, &|| drop(black_box(encode(&pixmaps)))))
    });
    group.bench_function("draw + shrink + encode, per position", |b| {
        b.iter_custom(|iters| {
            per_position(iters, &|| {
                let mut gif = Writer::new(w, h, palette(Theme::Classic), Timing::default());
                for v in &views {
                    gif.push(&frame(black_box(v))).expect("a board");
                }
                black_box(gif.finish());
            })
        })
    });
    group.finish();
}

criterion_group!(benches, boards, charts, replay);
criterion_main!(benches);

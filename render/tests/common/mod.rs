//! What the golden-image suites share: comparing a rendered PNG with its golden image, and the
//! busiest position of each game.
#![allow(dead_code)]

pub mod busiest;

use muster_render::encode::decode_rgb;

/// Compares a rendered PNG with tests/golden/<file>.png by decoded pixels (a pixel differs when
/// a channel is off by more than 8; at most one pixel in a thousand may), rewriting the golden
/// image first when MUSTER_BLESS is set. With MUSTER_RENDER_OUT set to a folder, the rendered
/// image is also written there, to be looked at.
pub fn check(file: &str, png: &[u8]) {
    let path = format!("tests/golden/{file}.png");
    if let Some(dir) = std::env::var_os("MUSTER_RENDER_OUT") {
        let out = std::path::Path::new(&dir).join(format!("{file}.png"));
        std::fs::write(out, png).expect("write the rendered image");
    }
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::write(&path, png).expect("write golden image");
    }
    let golden = std::fs::read(&path)
        .unwrap_or_else(|_| panic!("{path} is missing; run with MUSTER_BLESS=1"));
    let (w, h, want) = decode_rgb(&golden).expect("golden image decodes");
    let (w2, h2, got) = decode_rgb(png).expect("rendered image decodes");
    assert_eq!((w, h), (w2, h2), "{file}: size changed");
    let differing = want
        .chunks_exact(3)
        .zip(got.chunks_exact(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    let allowed = (w * h) as usize / 1000;
    assert!(
        differing <= allowed,
        "{file}: {differing} pixels differ from {path} (allowed {allowed})"
    );
}

//! How a theme's colours look to players with the common colour-vision deficiencies, and whether
//! the pairs of marks a player must tell apart stay apart.
//!
//! The simulation is Machado, Oliveira and Fernandes' (2009) at full severity: each colour is
//! taken to linear light, multiplied by the deficiency's 3 × 3 matrix, and compared with the
//! other in CIELAB (ΔE*ab, D65). A difference of about 2.3 is just noticeable; the boards ask
//! for [`APART`] between marks of different meaning, which reads as "clearly different colours"
//! at a glance. Colours with an alpha are taken over the background they are drawn on.

use crate::style::{Colours, Theme};

/// A kind of colour vision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Vision {
    /// Typical trichromatic vision.
    Typical,
    /// No long-wavelength (red) cones: about 1 % of men.
    Protanopia,
    /// No medium-wavelength (green) cones: about 1 % of men, the commonest.
    Deuteranopia,
    /// No short-wavelength (blue) cones: rare.
    Tritanopia,
}

impl Vision {
    /// Every kind, typical first.
    pub const ALL: [Vision; 4] = [
        Vision::Typical,
        Vision::Protanopia,
        Vision::Deuteranopia,
        Vision::Tritanopia,
    ];

    fn matrix(self) -> [[f64; 3]; 3] {
        match self {
            Vision::Typical => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }

    /// The colour `rgb` as seen with this vision, in CIELAB.
    pub fn lab(self, rgb: [u8; 3]) -> [f64; 3] {
        let linear = rgb.map(|c| {
            let c = c as f64 / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        });
        let m = self.matrix();
        let [r, g, b] = std::array::from_fn(|i| {
            (m[i][0] * linear[0] + m[i][1] * linear[1] + m[i][2] * linear[2]).clamp(0.0, 1.0)
        });
        let x = 0.4124 * r + 0.3576 * g + 0.1805 * b;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// How far apart two colours look with this vision (ΔE*ab).
    pub fn difference(self, a: [u8; 3], b: [u8; 3]) -> f64 {
        let (p, q) = (self.lab(a), self.lab(b));
        ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
    }
}

/// The difference between marks of different meaning that a theme for colour-vision
/// deficiencies keeps under every simulated vision.
pub const APART: f64 = 30.0;

/// `c` over `under`, as drawn.
fn over(c: [u8; 4], under: [u8; 4]) -> [u8; 3] {
    let a = c[3] as u32;
    std::array::from_fn(|i| ((c[i] as u32 * a + under[i] as u32 * (255 - a) + 127) / 255) as u8)
}

/// One pair of colours a player must tell apart, and what they mean.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    /// What telling them apart tells the player.
    pub meaning: &'static str,
    /// The two colours, as drawn.
    pub colours: [[u8; 3]; 2],
}

/// The pairs of marks of different meaning that a player must tell apart on the boards of a
/// theme, with each colour as drawn over what lies under it.
pub fn pairs(k: &Colours) -> Vec<Pair> {
    let field = k.lanrick.field[0];
    let on_field = |c: [u8; 4]| over(c, field);
    let lawn = k.croquet.lawn[0];
    let light = k.lanko.light;
    let pair = |meaning, a: [u8; 3], b: [u8; 3]| Pair {
        meaning,
        colours: [a, b],
    };
    vec![
        pair(
            "White's last move and Black's",
            on_field(k.trail[0]),
            on_field(k.trail[1]),
        ),
        pair(
            "a man to take or move, and a man a shift carries",
            on_field(k.call),
            on_field(k.gold),
        ),
        pair(
            "a taken man's cross, and White's move under it",
            on_field(k.call),
            on_field(k.trail[0]),
        ),
        pair(
            "a taken man's cross, and Black's move under it",
            on_field(k.call),
            on_field(k.trail[1]),
        ),
        pair(
            "a square the mark may go to, and Black's move",
            on_field(k.gold),
            on_field(k.trail[1]),
        ),
        pair(
            "border and field squares",
            over(k.lanrick.border[0], [0; 4]),
            over(field, [0; 4]),
        ),
        pair(
            "the rendezvous' edge, and the field",
            on_field(k.lanrick.zone[1]),
            on_field(field),
        ),
        pair(
            "a step allowed and a step barred (Croquet)",
            over(k.croquet.go, lawn),
            over(k.call, lawn),
        ),
        pair(
            "a ball in its hoop and a ball that missed it (Croquet)",
            over(k.gold, lawn),
            over(k.call, lawn),
        ),
        pair(
            "a piece taken and a pawn burned (Lanko)",
            over(k.call, light),
            over(k.lanko.burn, light),
        ),
        pair(
            "a border strip and the field (Lanko)",
            over(k.lanko.strip[0], [0; 4]),
            over(light, [0; 4]),
        ),
        pair(
            "the middle squares and the strips (Lanko)",
            over(k.lanko.middle, [0; 4]),
            over(k.lanko.strip[0], [0; 4]),
        ),
    ]
}

/// The smallest difference of each pair of `theme` under each vision, in the order of
/// [`Vision::ALL`].
pub fn report(theme: Theme) -> Vec<(Pair, [f64; 4])> {
    pairs(theme.colours())
        .into_iter()
        .map(|p| {
            let d = Vision::ALL.map(|v| v.difference(p.colours[0], p.colours[1]));
            (p, d)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(theme: Theme) -> String {
        let mut out = format!(
            "{}: pair | typical | protanopia | deuteranopia | tritanopia\n",
            theme.name()
        );
        for (p, d) in report(theme) {
            out.push_str(&format!(
                "{} | {:.0} | {:.0} | {:.0} | {:.0}\n",
                p.meaning, d[0], d[1], d[2], d[3]
            ));
        }
        out
    }

    #[test]
    fn the_contrast_theme_keeps_every_pair_apart_for_every_vision() {
        let theme = Theme::Contrast;
        println!("{}", table(theme));
        for (p, d) in report(theme) {
            for (v, d) in Vision::ALL.iter().zip(d) {
                assert!(
                    d >= APART,
                    "{}: {} looks only {d:.0} apart with {v:?}",
                    theme.name(),
                    p.meaning
                );
            }
        }
    }

    #[test]
    fn the_simulation_finds_what_red_green_blindness_loses() {
        // The classic theme's red and green Croquet marks are far apart for typical vision and
        // run together with deuteranopia and protanopia; blue and orange arrows do not.
        println!("{}", table(Theme::Classic));
        println!("{}", table(Theme::Dark));
        let (red, green) = ([0xC6, 0x28, 0x28], [0x2E, 0x7D, 0x32]);
        assert!(Vision::Typical.difference(red, green) > 80.0);
        assert!(Vision::Deuteranopia.difference(red, green) < 20.0);
        assert!(Vision::Protanopia.difference(red, green) < 20.0);
        let (blue, orange) = ([0x00, 0x72, 0xB2], [0xD5, 0x5E, 0x00]);
        for v in Vision::ALL {
            assert!(v.difference(blue, orange) > 80.0, "{v:?}");
        }
        // Greys differ by lightness alone, which every vision keeps.
        let (a, b) = ([0x40; 3], [0xC0; 3]);
        let typical = Vision::Typical.difference(a, b);
        for v in Vision::ALL {
            assert!((v.difference(a, b) - typical).abs() < 1.0, "{v:?}");
        }
    }
}

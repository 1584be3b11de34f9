//! The geometry the canvas shades its shapes by: the columns of a pixel row that a round shape,
//! a line with round ends or a triangle may reach, and how far a pixel's centre lies inside it
//! (negative outside), in pixels.

/// The columns a round shape of radius `r` about (`cx`, `cy`) may reach on the row at `y`.
#[inline]
pub(super) fn round_span(cx: f32, cy: f32, r: f32, y: f32) -> (f32, f32) {
    let dy = y - cy;
    let half = (r * r - dy * dy).max(0.0).sqrt();
    (cx - half, cx + half)
}

/// A line segment, for distances to it.
pub(super) struct Segment {
    a: (f32, f32),
    d: (f32, f32),
    len2: f32,
}

impl Segment {
    pub(super) fn new(a: (f32, f32), b: (f32, f32)) -> Segment {
        let d = (b.0 - a.0, b.1 - a.1);
        Segment {
            a,
            d,
            len2: d.0 * d.0 + d.1 * d.1,
        }
    }

    /// The distance from (`x`, `y`) to the segment.
    #[inline]
    pub(super) fn distance(&self, x: f32, y: f32) -> f32 {
        let (px, py) = (x - self.a.0, y - self.a.1);
        let t = if self.len2 > 0.0 {
            ((px * self.d.0 + py * self.d.1) / self.len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (ex, ey) = (px - t * self.d.0, py - t * self.d.1);
        (ex * ex + ey * ey).sqrt()
    }

    /// The columns within `grow` of the segment on the row at `y`.
    #[inline]
    pub(super) fn span(&self, y: f32, grow: f32) -> (f32, f32) {
        let (b0, b1) = (
            self.a.0.min(self.a.0 + self.d.0),
            self.a.0.max(self.a.0 + self.d.0),
        );
        if self.d.1.abs() < 1e-3 {
            return (b0 - grow, b1 + grow);
        }
        // Where the line crosses the row, and how far either side the band reaches.
        let t = (y - self.a.1) / self.d.1;
        let x = self.a.0 + t * self.d.0;
        let reach = grow * self.len2.sqrt() / self.d.1.abs();
        ((x - reach).max(b0 - grow), (x + reach).min(b1 + grow))
    }

    /// The box around the segment grown by `grow`.
    pub(super) fn bounds(&self, grow: f32) -> (f32, f32, f32, f32) {
        let (bx, by) = (self.a.0 + self.d.0, self.a.1 + self.d.1);
        (
            self.a.0.min(bx) - grow,
            self.a.1.min(by) - grow,
            self.a.0.max(bx) + grow,
            self.a.1.max(by) + grow,
        )
    }
}

/// A triangle, for how far a point is inside it.
pub(super) struct Triangle {
    corners: [(f32, f32); 3],
    /// Each edge's inward unit normal and offset: inside where n·p − o ≥ 0 for all three.
    edges: [(f32, f32, f32); 3],
}

impl Triangle {
    pub(super) fn new(corners: [(f32, f32); 3]) -> Triangle {
        let [a, b, c] = corners;
        // Orientation, so that the normals point inwards either way round.
        let turn = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
        let sign = if turn >= 0.0 { 1.0 } else { -1.0 };
        let edge = |p: (f32, f32), q: (f32, f32)| {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            let (nx, ny) = (-dy * sign / len, dx * sign / len);
            (nx, ny, nx * p.0 + ny * p.1)
        };
        Triangle {
            corners,
            edges: [edge(a, b), edge(b, c), edge(c, a)],
        }
    }

    /// How far (`x`, `y`) is inside the triangle (negative outside).
    #[inline]
    pub(super) fn inside(&self, x: f32, y: f32) -> f32 {
        self.edges
            .iter()
            .map(|(nx, ny, o)| nx * x + ny * y - o)
            .fold(f32::INFINITY, f32::min)
    }

    /// The columns the triangle may reach on the row at `y` (its box's, none on rows beyond
    /// it).
    pub(super) fn span(&self, y: f32) -> (f32, f32) {
        let b = self.bounds();
        if y < b.1 - 1.0 || y > b.3 + 1.0 {
            return (f32::INFINITY, f32::NEG_INFINITY);
        }
        (b.0, b.2)
    }

    pub(super) fn bounds(&self) -> (f32, f32, f32, f32) {
        let xs = self.corners.map(|p| p.0);
        let ys = self.corners.map(|p| p.1);
        (
            xs.into_iter().fold(f32::INFINITY, f32::min),
            ys.into_iter().fold(f32::INFINITY, f32::min),
            xs.into_iter().fold(f32::NEG_INFINITY, f32::max),
            ys.into_iter().fold(f32::NEG_INFINITY, f32::max),
        )
    }
}

//! How a player likes his boards: a colour [`Theme`], which seat sits at the bottom, and a
//! [`Size`]. Every game draws from the same three: the colours come from the theme's
//! [`Colours`] (one table for all games), the orientation turns the board's grid by quarter
//! turns through [`Turn`] (the words stay upright), and the size scales the drawing itself
//! (see [`crate::canvas::Canvas::scaled`]), so no game has colours, turns or sizes of its own.

use serde::{Deserialize, Serialize};

/// A colour scheme.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Warm paper and wood, as the boards have always looked.
    #[default]
    Classic,
    /// Dark paper and muted squares, for dark chat screens.
    Dark,
    /// Strong contrasts, in colours that players with the common colour-vision deficiencies
    /// (protanopia, deuteranopia, tritanopia) can still tell apart (docs/guide.md, "Boards").
    Contrast,
}

impl Theme {
    /// Every theme, in the order the guide lists them.
    pub const ALL: [Theme; 3] = [Theme::Classic, Theme::Dark, Theme::Contrast];

    /// The theme's word in commands and settings.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Classic => "classic",
            Theme::Dark => "dark",
            Theme::Contrast => "contrast",
        }
    }

    /// The theme named `word` (any case).
    pub fn from_name(word: &str) -> Option<Theme> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(word))
    }

    /// The theme's colours.
    pub fn colours(self) -> &'static Colours {
        match self {
            Theme::Classic => &CLASSIC,
            Theme::Dark => &DARK,
            Theme::Contrast => &CONTRAST,
        }
    }
}

/// How large the image is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// Four fifths of normal (about 500 px wide), for slow connections and small screens.
    Small,
    /// About 620–670 px wide: clear at phone size.
    #[default]
    Normal,
    /// Six fifths of normal (about 750–800 px wide), for large screens.
    Large,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 3] = [Size::Small, Size::Normal, Size::Large];

    /// The size's word in commands and settings.
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Normal => "normal",
            Size::Large => "large",
        }
    }

    /// The size named `word` (any case).
    pub fn from_name(word: &str) -> Option<Size> {
        Size::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(word))
    }

    /// How much the drawing is scaled. Fifths keep the boards' squares (70 and 56 px) whole
    /// pixels.
    pub fn scale(self) -> f32 {
        match self {
            Size::Small => 0.8,
            Size::Normal => 1.0,
            Size::Large => 1.2,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// How one board is drawn: its theme, the seat at the bottom, its size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Style {
    /// The colours.
    #[serde(default)]
    pub theme: Theme,
    /// The seat whose side is at the bottom, by index (White 0 or Black 1; Lanko's s, w, n, e
    /// as 0 to 3). The Croquet course has no sides and reads like a page whatever this says.
    #[serde(default)]
    pub bottom: usize,
    /// The size.
    #[serde(default)]
    pub size: Size,
}

/// A turn of a board's grid by quarter turns clockwise (0 to 3), with the labels kept upright.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Turn(u8);

impl Turn {
    /// No turn.
    pub const NONE: Turn = Turn(0);
    /// A half turn.
    pub const HALF: Turn = Turn(2);

    /// `quarters` quarter turns clockwise.
    pub fn quarters(quarters: usize) -> Turn {
        Turn((quarters % 4) as u8)
    }

    /// How many quarter turns clockwise.
    pub fn count(self) -> usize {
        self.0 as usize
    }

    /// The turn that brings the side of the seat `bottom` to the bottom, for a board whose seats
    /// sit round it in turn order starting at the bottom and going clockwise (Lanko's s, w, n,
    /// e): the west seat comes down by three quarter turns, the east by one.
    pub fn bringing_down(bottom: usize, seats: usize) -> Turn {
        match seats {
            2 => Turn(if bottom % 2 == 1 { 2 } else { 0 }),
            _ => Turn(((4 - bottom % 4) % 4) as u8),
        }
    }

    /// Whether width and height change places.
    pub fn swaps(self) -> bool {
        self.0 % 2 == 1
    }

    /// The size of a `rows` × `cols` grid once turned: (rows, cols).
    pub fn dims(self, rows: u8, cols: u8) -> (u8, u8) {
        if self.swaps() {
            (cols, rows)
        } else {
            (rows, cols)
        }
    }

    /// Where the cell (`row`, `col`) of a `rows` × `cols` grid lands once turned.
    pub fn cell(self, row: u8, col: u8, rows: u8, cols: u8) -> (u8, u8) {
        match self.0 {
            1 => (col, rows - 1 - row),
            2 => (rows - 1 - row, cols - 1 - col),
            3 => (cols - 1 - col, row),
            _ => (row, col),
        }
    }

    /// Which side of the picture a side of the board (0 bottom, 1 left, 2 top, 3 right) comes
    /// to once turned.
    pub fn side(self, side: usize) -> usize {
        (side + self.0 as usize) % 4
    }
}

/// An opaque colour from its hex code.
pub const fn rgb(hex: u32) -> [u8; 4] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255]
}

/// A colour with an alpha.
pub const fn rgba(hex: u32, alpha: u8) -> [u8; 4] {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, alpha]
}

/// A colour as it is, with another alpha.
pub const fn alpha(c: [u8; 4], alpha: u8) -> [u8; 4] {
    [c[0], c[1], c[2], alpha]
}

/// Every colour a board is drawn with, for one theme.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Colours {
    /// The page around the board.
    pub paper: [u8; 4],
    /// Captions and strong lines.
    pub ink: [u8; 4],
    /// Coordinates and the caption's second line.
    pub soft_ink: [u8; 4],
    /// White's men, balls and plates: fill and outline.
    pub white: [[u8; 4]; 2],
    /// Black's: fill, outline and the inner ring that sets a black man off a dark square.
    pub black: [[u8; 4]; 3],
    /// The shadow under a man.
    pub shadow: [u8; 4],
    /// The last decision's arrows, by the colour that made it (White, Black).
    pub trail: [[u8; 4]; 2],
    /// What calls for the player's action or was lost: men to take or move, a taken man's cross,
    /// a barred step.
    pub call: [u8; 4],
    /// The mark's coin, the squares where it may go, the men a shift carries; a castle at home.
    pub gold: [u8; 4],
    /// An edge drawn either side of gold rings where gold alone is too light for the squares
    /// under it (transparent: none).
    pub gold_edge: [u8; 4],
    /// The Lanrick board.
    pub lanrick: LanrickColours,
    /// The Croquet course.
    pub croquet: CroquetColours,
    /// The Lanko boards.
    pub lanko: LankoColours,
}

/// The Lanrick board's own colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LanrickColours {
    /// Field squares, light and dark.
    pub field: [[u8; 4]; 2],
    /// Border squares, light and dark.
    pub border: [[u8; 4]; 2],
    /// The line between border and field.
    pub divide: [u8; 4],
    /// The rendezvous being played for: fill and edge.
    pub zone: [[u8; 4]; 2],
    /// The rendezvous set but not played for yet.
    pub faint_zone: [[u8; 4]; 2],
    /// The edge of the dots where the mark may go.
    pub dot_edge: [u8; 4],
}

/// The Croquet course's own colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CroquetColours {
    /// The lawn's cells, light and dark.
    pub lawn: [[u8; 4]; 2],
    /// A hoop's cell.
    pub hoop: [u8; 4],
    /// A cell's edge.
    pub cell_edge: [u8; 4],
    /// The hoops' wire.
    pub wire: [u8; 4],
    /// The peg and its band.
    pub peg: [[u8; 4]; 2],
    /// A step the player to move may take.
    pub go: [u8; 4],
}

/// The Lanko boards' own colours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LankoColours {
    /// Field squares (Lanko-88/68), light squares (Lanko-103), end and standby squares.
    pub light: [u8; 4],
    /// Dark field squares of Lanko-103.
    pub dark: [u8; 4],
    /// The border strips, and their darker shade on Lanko-103.
    pub strip: [[u8; 4]; 2],
    /// The middle (manoeuvre) squares.
    pub middle: [u8; 4],
    /// A square's edge.
    pub square_edge: [u8; 4],
    /// The cross on a manoeuvre square.
    pub mark: [u8; 4],
    /// The ring on an end square.
    pub end_ring: [u8; 4],
    /// The sign on a standby square.
    pub standby: [u8; 4],
    /// The outline of the strips.
    pub strip_rim: [u8; 4],
    /// A barrier.
    pub barrier: [u8; 4],
    /// Square labels: on light squares, on dark ones, on the middle squares.
    pub labels: [[u8; 4]; 3],
    /// The last move's start and landing squares.
    pub last: [u8; 4],
    /// A pawn burned on a middle square.
    pub burn: [u8; 4],
    /// The halo under a cross.
    pub halo: [u8; 4],
    /// The ring round the plate of the seat to move.
    pub turn: [u8; 4],
    /// The text on White's and Black's plates.
    pub plate_ink: [[u8; 4]; 2],
    /// The outline of a star.
    pub star_edge: [u8; 4],
    /// The inner outline that sets a Black piece off a dark square.
    pub piece_inner: [u8; 4],
}

/// The boards as they have always been drawn.
pub const CLASSIC: Colours = Colours {
    paper: rgb(0xF4EFE6),
    ink: rgb(0x3B2F22),
    soft_ink: rgb(0x6B5A45),
    white: [rgb(0xFBFAF4), rgb(0x2B2B2B)],
    black: [rgb(0x1E1E1E), rgb(0x000000), rgb(0x6A6A6A)],
    shadow: rgba(0x000000, 60),
    trail: [rgba(0x1565C0, 210), rgba(0xD84315, 210)],
    call: rgb(0xC62828),
    gold: rgb(0xC99A1E),
    gold_edge: [0; 4],
    lanrick: LanrickColours {
        field: [rgb(0xEBDDBD), rgb(0xDCC69E)],
        border: [rgb(0xA88560), rgb(0x94734F)],
        divide: rgba(0x3B2F22, 120),
        zone: [rgba(0x2E8B57, 80), rgb(0x1F6E42)],
        faint_zone: [rgba(0x2E8B57, 40), rgba(0x1F6E42, 150)],
        dot_edge: rgba(0x3B2F22, 160),
    },
    croquet: CroquetColours {
        lawn: [rgb(0xD9E8C4), rgb(0xCBDFB3)],
        hoop: rgb(0xB8D49A),
        cell_edge: rgba(0x3B2F22, 60),
        wire: rgb(0x5B4A36),
        peg: [rgb(0x8E24AA), rgb(0xFFFFFF)],
        go: rgb(0x2E7D32),
    },
    lanko: LankoColours {
        light: rgb(0xF1E6CE),
        dark: rgb(0xB8916B),
        strip: [rgb(0x9FC3B6), rgb(0x6E9E8E)],
        middle: rgb(0x4E8A78),
        square_edge: rgba(0x3B2F22, 50),
        mark: rgba(0x1F3F36, 150),
        end_ring: rgba(0x2F5E50, 230),
        standby: rgba(0x6B5A45, 190),
        strip_rim: rgb(0x2A5A4C),
        barrier: rgb(0x1C140C),
        labels: [rgb(0x6B5A45), rgb(0x241B12), rgb(0xF4EFE6)],
        last: rgba(0xF2C94C, 120),
        burn: rgb(0xE65100),
        halo: rgba(0xFFFFFF, 200),
        turn: rgb(0x2E9E4F),
        plate_ink: [rgb(0x1B1B1B), rgb(0xF4EFE6)],
        star_edge: rgb(0x5A4300),
        piece_inner: rgb(0xE8E0CC),
    },
};

/// Dark paper, muted squares and lighter marks: for chat clients in dark mode.
pub const DARK: Colours = Colours {
    paper: rgb(0x1E2126),
    ink: rgb(0xECE6DA),
    soft_ink: rgb(0xA99F8F),
    white: [rgb(0xF2EFE6), rgb(0x111111)],
    black: [rgb(0x16181B), rgb(0x000000), rgb(0x9A9A9A)],
    shadow: rgba(0x000000, 90),
    trail: [rgba(0x64B5F6, 220), rgba(0xFF8A50, 220)],
    call: rgb(0xFF5A52),
    gold: rgb(0xE8B923),
    gold_edge: [0; 4],
    lanrick: LanrickColours {
        field: [rgb(0x8A7E6B), rgb(0x7D715F)],
        border: [rgb(0x55473A), rgb(0x4B3E32)],
        divide: rgba(0x0B0B0B, 150),
        zone: [rgba(0x43C07A, 70), rgb(0x5FD896)],
        faint_zone: [rgba(0x43C07A, 35), rgba(0x5FD896, 150)],
        dot_edge: rgba(0x111111, 180),
    },
    croquet: CroquetColours {
        lawn: [rgb(0x3F5A39), rgb(0x375033)],
        hoop: rgb(0x5C7A4A),
        cell_edge: rgba(0x000000, 90),
        wire: rgb(0xE0D4BE),
        peg: [rgb(0xC060E0), rgb(0xFFFFFF)],
        go: rgb(0x6EE07A),
    },
    lanko: LankoColours {
        light: rgb(0x8F8472),
        dark: rgb(0x5E4B3A),
        strip: [rgb(0x4F7A6D), rgb(0x3E6659)],
        middle: rgb(0x2C5D50),
        square_edge: rgba(0x000000, 70),
        mark: rgba(0xD8F0E6, 150),
        end_ring: rgba(0xBFE8D8, 230),
        standby: rgba(0x2A241C, 190),
        strip_rim: rgb(0x9FD8C4),
        barrier: rgb(0xF2E6CF),
        labels: [rgb(0x241E16), rgb(0xE6DCC8), rgb(0xE6F2EC)],
        last: rgba(0xF2C94C, 110),
        burn: rgb(0xFF9800),
        halo: rgba(0x000000, 170),
        turn: rgb(0x4CD273),
        plate_ink: [rgb(0x1B1B1B), rgb(0xF4EFE6)],
        star_edge: rgb(0x3A2B00),
        piece_inner: rgb(0xC8C0AE),
    },
};

/// Strong contrasts in the Okabe–Ito colours (blue 0072B2, vermillion D55E00, orange E69F00,
/// sky blue 56B4E9, yellow F0E442, reddish purple CC79A7) and black, told apart by lightness as
/// well as hue: each pair a player must tell apart stays apart under simulated protanopia,
/// deuteranopia and tritanopia (the tests of [`vision`](crate::vision)). What calls for action
/// is black, the gold marks are yellow edged in black.
pub const CONTRAST: Colours = Colours {
    paper: rgb(0xFFFFFF),
    ink: rgb(0x000000),
    soft_ink: rgb(0x333333),
    white: [rgb(0xFFFFFF), rgb(0x000000)],
    black: [rgb(0x000000), rgb(0x000000), rgb(0xFFFFFF)],
    shadow: rgba(0x000000, 70),
    trail: [rgba(0x0072B2, 240), rgba(0xD55E00, 240)],
    call: rgb(0x000000),
    gold: rgb(0xF0E442),
    gold_edge: rgb(0x000000),
    lanrick: LanrickColours {
        field: [rgb(0xE9E9E9), rgb(0xD6D6D6)],
        border: [rgb(0x8C8C8C), rgb(0x7A7A7A)],
        divide: rgba(0x000000, 220),
        zone: [rgba(0x56B4E9, 90), rgb(0x0072B2)],
        faint_zone: [rgba(0x56B4E9, 40), rgba(0x0072B2, 170)],
        dot_edge: rgb(0x000000),
    },
    croquet: CroquetColours {
        lawn: [rgb(0xF2F2F2), rgb(0xE2E2E2)],
        hoop: rgb(0xB0B0B0),
        cell_edge: rgba(0x000000, 110),
        wire: rgb(0x000000),
        peg: [rgb(0x000000), rgb(0xF0E442)],
        go: rgb(0x0072B2),
    },
    lanko: LankoColours {
        light: rgb(0xFFFFFF),
        dark: rgb(0xA6A6A6),
        strip: [rgb(0x84C5EC), rgb(0x6BB5E2)],
        middle: rgb(0x00507F),
        square_edge: rgba(0x000000, 90),
        mark: rgba(0xFFFFFF, 200),
        end_ring: rgba(0x0072B2, 240),
        standby: rgba(0x000000, 200),
        strip_rim: rgb(0x004A75),
        barrier: rgb(0x000000),
        labels: [rgb(0x333333), rgb(0x000000), rgb(0xFFFFFF)],
        last: rgba(0xF0E442, 150),
        burn: rgb(0xE69F00),
        halo: rgba(0xFFFFFF, 220),
        turn: rgb(0xCC79A7),
        plate_ink: [rgb(0x000000), rgb(0xFFFFFF)],
        star_edge: rgb(0x000000),
        piece_inner: rgb(0xFFFFFF),
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_bring_each_seat_down_and_move_cells_as_the_picture_turns() {
        // Lanrick: Black at the bottom is a half turn.
        assert_eq!(Turn::bringing_down(0, 2), Turn::NONE);
        assert_eq!(Turn::bringing_down(1, 2), Turn::HALF);
        // Lanko: s, w, n, e sit bottom, left, top, right.
        for seat in 0..4 {
            let turn = Turn::bringing_down(seat, 4);
            assert_eq!(turn.side(seat), 0, "seat {seat} comes to the bottom");
        }
        // A quarter turn clockwise: the top-left cell goes to the top right, the bottom-left
        // to the top left.
        let q = Turn::quarters(1);
        assert_eq!(q.dims(3, 5), (5, 3));
        assert_eq!(q.cell(0, 0, 3, 5), (0, 2));
        assert_eq!(q.cell(2, 0, 3, 5), (0, 0));
        // Four quarter turns are none; each keeps the cells of the grid distinct.
        for t in 0..4 {
            let turn = Turn::quarters(t);
            let (rows, cols) = turn.dims(3, 5);
            let mut seen = std::collections::HashSet::new();
            for r in 0..3 {
                for c in 0..5 {
                    let (r2, c2) = turn.cell(r, c, 3, 5);
                    assert!(r2 < rows && c2 < cols);
                    assert!(seen.insert((r2, c2)));
                }
            }
        }
    }

    #[test]
    fn words_name_every_theme_and_size() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_name(&t.name().to_uppercase()), Some(t));
        }
        for s in Size::ALL {
            assert_eq!(Size::from_name(s.name()), Some(s));
        }
        assert_eq!(Theme::from_name("neon"), None);
        assert_eq!(Size::from_name("huge"), None);
    }
}

//! Boards in replies. The core describes a board — the game's record as it stood, and from
//! which decision on the moves just played are marked — and the adapter draws it when it is
//! about to send it: off the async threads, only once it is sure the board will be shown, and
//! as often as it needs after a restart (a description is kept in a receipt; a PNG is not).
//! A tournament's standings table or knockout bracket travels the same way, as a [`Chart`].

use std::sync::OnceLock;

use muster_render::Style;
use muster_rules::{AnyEvent, AnyGame};
use serde::{Deserialize, Serialize};

use crate::store::GameRecord;

/// A board to show: the game as `record` holds it, with the decisions from `from` on marked as
/// just played. Drawn once, on first use.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Board {
    /// The game; absent for a chart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    record: Option<GameRecord>,
    /// A table or bracket drawn instead of a game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chart: Option<Chart>,
    #[serde(default)]
    from: usize,
    /// When the clocks are read (a board shown again later); absent, when the record was
    /// last written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<u64>,
    /// A replay of the whole game instead of its board, at most this many bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replay: Option<usize>,
    /// How it is drawn (absent: not chosen yet, drawn in the default style).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    style: Option<Style>,
    /// Shown to the asker alone, where the platform can.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    private: bool,
    #[serde(skip)]
    drawn: OnceLock<Result<Drawn, String>>,
}

/// A drawn board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Drawn {
    /// The PNG.
    pub png: Vec<u8>,
    /// A description of the image.
    pub alt: String,
    /// The board as text, for terminals.
    pub text: String,
    /// A file name for the image.
    pub name: String,
    /// The image's type: `image/png`, or `image/gif` for a replay.
    pub mime: &'static str,
}

/// A picture that is not a game: a tournament's standings or its knockout bracket, described
/// so that it can be kept in a receipt and drawn when sent.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Chart {
    /// The file name of the image.
    pub name: String,
    /// A description of the image.
    pub alt: String,
    /// What is drawn.
    pub kind: ChartKind,
}

/// What a chart draws.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum ChartKind {
    /// A table: a title, the columns (heading, right-aligned), the rows, a footer.
    Table {
        /// The title.
        title: String,
        /// Each column's heading and whether it is right-aligned (numbers).
        columns: Vec<(String, bool)>,
        /// The cells.
        rows: Vec<Vec<String>>,
        /// A line under the table.
        footer: Option<String>,
    },
    /// A knockout bracket: each round's title and its matches (top, bottom, their results,
    /// and whether the top went through).
    Bracket {
        /// The title.
        title: String,
        /// The rounds, first to last.
        rounds: Vec<(String, Vec<ChartMatch>)>,
    },
}

/// One match of a bracket.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ChartMatch {
    /// The upper side.
    pub top: String,
    /// The lower side.
    pub bottom: String,
    /// The upper side's results.
    pub top_score: String,
    /// The lower side's results.
    pub bottom_score: String,
    /// `Some(true)` when the upper side went through.
    pub winner: Option<bool>,
}

impl Chart {
    fn draw(&self) -> Result<Drawn, String> {
        let png = match &self.kind {
            ChartKind::Table {
                title,
                columns,
                rows,
                footer,
            } => muster_render::table_png(&muster_render::Table {
                title: title.clone(),
                columns: columns
                    .iter()
                    .map(|(head, right)| muster_render::Column {
                        head: head.clone(),
                        align: if *right {
                            muster_render::Align::Right
                        } else {
                            muster_render::Align::Left
                        },
                    })
                    .collect(),
                rows: rows.clone(),
                footer: footer.clone(),
            })?,
            ChartKind::Bracket { title, rounds } => {
                muster_render::bracket_png(&muster_render::Bracket {
                    title: title.clone(),
                    rounds: rounds
                        .iter()
                        .map(|(title, matches)| muster_render::BracketRound {
                            title: title.clone(),
                            matches: matches
                                .iter()
                                .map(|m| muster_render::BracketMatch {
                                    top: m.top.clone(),
                                    bottom: m.bottom.clone(),
                                    top_score: m.top_score.clone(),
                                    bottom_score: m.bottom_score.clone(),
                                    winner: m.winner,
                                })
                                .collect(),
                        })
                        .collect(),
                })?
            }
        };
        Ok(Drawn {
            png,
            alt: self.alt.clone(),
            text: self.alt.clone(),
            name: self.name.clone(),
            mime: "image/png",
        })
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.from == other.from
            && self.record == other.record
            && self.chart == other.chart
            && self.at == other.at
            && self.replay == other.replay
            && self.style == other.style
            && self.private == other.private
    }
}

impl Board {
    /// The board of `record` after its decisions from `from` on (those are marked).
    pub fn new(record: &GameRecord, from: usize) -> Board {
        Board {
            record: Some(record.clone()),
            chart: None,
            from: from.min(record.moves.len()),
            at: None,
            replay: None,
            style: None,
            private: false,
            drawn: OnceLock::new(),
        }
    }

    /// The replay of `record` (every decision from the start, as an animation) in at most
    /// `cap` bytes.
    pub fn replay(record: &GameRecord, cap: usize) -> Board {
        Board {
            replay: Some(cap),
            ..Board::new(record, 0)
        }
    }

    /// Whether this is a replay.
    pub fn is_replay(&self) -> bool {
        self.replay.is_some()
    }

    /// A chart (a standings table, a bracket) to send as boards are sent.
    pub fn chart(chart: Chart) -> Board {
        Board {
            record: None,
            chart: Some(chart),
            from: 0,
            at: None,
            replay: None,
            style: None,
            private: false,
            drawn: OnceLock::new(),
        }
    }

    /// The same board with its clocks read at `at` (a board shown again some time after the
    /// last move).
    pub fn at(mut self, at: u64) -> Board {
        self.at = Some(at);
        self
    }

    /// The same board drawn in `style`.
    pub fn styled(mut self, style: Style) -> Board {
        self.set_style(style);
        self
    }

    /// Draws the board in `style` (drawn again if it was drawn before).
    pub fn set_style(&mut self, style: Style) {
        self.style = Some(style);
        self.drawn = OnceLock::new();
    }

    /// The style chosen for the board, if one was.
    pub fn style(&self) -> Option<Style> {
        self.style
    }

    /// The same board, for the asker's eyes only where the platform can show it so.
    pub fn private(mut self) -> Board {
        self.private = true;
        self
    }

    /// Whether only the asker should see it.
    pub fn is_private(&self) -> bool {
        self.private
    }

    /// The game shown, if it is a game's board or replay.
    pub fn record(&self) -> Option<&GameRecord> {
        self.record.as_ref()
    }

    /// The image's file name: the game and how many decisions it shows.
    pub fn name(&self) -> String {
        match (&self.record, &self.chart) {
            (Some(r), _) if self.replay.is_some() => format!("{}-replay.gif", r.id),
            (Some(r), _) => format!("{}-{:03}.png", r.id, r.moves.len()),
            (None, Some(c)) => c.name.clone(),
            (None, None) => "board.png".into(),
        }
    }

    /// The drawn board (drawn on the first call); `Err` says why it cannot be drawn.
    pub fn drawn(&self) -> Result<&Drawn, &str> {
        self.drawn
            .get_or_init(|| {
                if let Some(chart) = &self.chart {
                    return chart.draw();
                }
                let record = self.record.as_ref().ok_or("nothing to draw")?;
                let style = self.style.unwrap_or_default();
                if let Some(cap) = self.replay {
                    return super::replay::draw(record, cap, style);
                }
                let (game, events) = record
                    .replay(self.from)
                    .map_err(|e| format!("the record does not replay: {}", e.0))?;
                Ok(draw(record, &game, &events, self.name(), self.at, style))
            })
            .as_ref()
            .map_err(String::as_str)
    }
}

/// The events of one game kind, out of a list of any game's events.
macro_rules! events_of {
    ($events:expr, $kind:ident) => {
        $events
            .iter()
            .filter_map(|e| {
                if let AnyEvent::$kind(e) = e {
                    Some(e.clone())
                } else {
                    None
                }
            })
            .collect::<Vec<_>>()
    };
}
pub(super) use events_of;

/// The names of the players on the four seats (empty where a seat is open or the game has
/// fewer): what the boards write beside the seats.
pub(super) fn seat_names(record: &GameRecord) -> [String; 4] {
    std::array::from_fn(|i| record.player(i).map_or(String::new(), |p| p.name.clone()))
}

/// The clocks of a timed game being played, as the record stood when it was written:
/// `Clocks: alice 2d 4h · bob 3d` (empty otherwise).
fn clock_note(record: &GameRecord, at: Option<u64>) -> String {
    if record.status != crate::store::Status::Active {
        return String::new();
    }
    let Some((left, _)) = record.time_left(at.unwrap_or(record.updated)) else {
        return String::new();
    };
    let parts: Vec<String> = left
        .iter()
        .enumerate()
        .filter_map(|(i, left)| {
            let name = &record.player(i)?.name;
            Some(format!("{name} {}", crate::clock::duration(*left)))
        })
        .collect();
    format!("Clocks: {}", parts.join(" · "))
}

fn draw(
    record: &GameRecord,
    game: &AnyGame,
    events: &[AnyEvent],
    name: String,
    at: Option<u64>,
    style: Style,
) -> Drawn {
    let started = std::time::Instant::now();
    let note = clock_note(record, at);
    let all = seat_names(record);
    let four = [
        all[0].as_str(),
        all[1].as_str(),
        all[2].as_str(),
        all[3].as_str(),
    ];
    let names = [four[0], four[1]];
    let mut drawn = match game {
        AnyGame::Lanrick(g) => {
            let events = events_of!(events, Lanrick);
            Drawn {
                png: muster_render::lanrick::png_noted(g, &events, names, &note, style),
                alt: muster_render::lanrick::alt_text(g, names),
                text: muster_render::text::lanrick(g),
                name,
                mime: "image/png",
            }
        }
        AnyGame::Lanrick1880(g) => {
            let events = events_of!(events, Lanrick1880);
            Drawn {
                png: muster_render::lanrick1880::png_noted(g, &events, names, &note, style),
                alt: muster_render::lanrick1880::alt_text(g, names),
                text: muster_render::text::lanrick1880(g),
                name,
                mime: "image/png",
            }
        }
        AnyGame::Croquet(g) => {
            let events = events_of!(events, Croquet);
            let alt = muster_render::croquet::alt_text(g, names);
            Drawn {
                png: muster_render::croquet::png_noted(g, &events, names, &note, style),
                text: alt.clone(),
                alt,
                name,
                mime: "image/png",
            }
        }
        AnyGame::Lanko(g) => {
            let events = events_of!(events, Lanko);
            Drawn {
                png: muster_render::lanko::png_noted(g, &events, four, &note, style),
                alt: muster_render::lanko::alt_text_after(g, &events, four),
                text: muster_render::text::lanko(g),
                name,
                mime: "image/png",
            }
        }
    };
    if !note.is_empty() {
        let stop = if drawn.alt.ends_with('.') { "" } else { "." };
        drawn.alt.push_str(&format!("{stop} {note}."));
    }
    crate::ops::metrics::metrics().render(&record.game, started.elapsed());
    drawn
}

//! Boards in replies. The core describes a board — the game's record as it stood, and from
//! which decision on the moves just played are marked — and the adapter draws it when it is
//! about to send it: off the async threads, only once it is sure the board will be shown, and
//! as often as it needs after a restart (a description is kept in a receipt; a PNG is not).
//! A tournament's standings table or knockout bracket travels the same way, as a [`Chart`].

use std::sync::{Arc, OnceLock};

use muster_render::Style;
use muster_rules::{AnyEvent, AnyGame, GameId};
use serde::{Deserialize, Serialize};

use super::draw::{Drawn, draw};
use super::store::GameRecord;
use crate::kernel::replayable::Replayable;

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
    /// The game as the command that made the board played it, with the events of the decisions
    /// marked: drawing it replays nothing. Not kept in a receipt (a board read back replays
    /// its record).
    #[serde(skip)]
    played: Option<Arc<Played>>,
    #[serde(skip)]
    drawn: OnceLock<Result<Drawn, String>>,
}

/// A game as played: the position, and the events of the decisions a board marks.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game after its last decision.
    pub game: AnyGame,
    /// The events of the marked decisions, in order.
    pub events: Vec<AnyEvent>,
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
        /// Lines under the table, separated by `\n`.
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
            poster: None,
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
            played: None,
            drawn: OnceLock::new(),
        }
    }

    /// The board of a game that is not played, only shown (a rules step, a lesson): `game`
    /// after `moves`, under the name `id`, its seats empty (said by their colours), its
    /// decisions from `from` on marked; asked for in `channel` of `platform`.
    pub fn shown(
        game: GameId,
        id: &str,
        moves: Vec<String>,
        from: usize,
        (platform, channel): (&str, &str),
    ) -> Board {
        let record = GameRecord {
            schema: crate::kernel::store::SCHEMA,
            id: id.into(),
            game: game.as_str().into(),
            platform: platform.into(),
            channel: channel.into(),
            created: 0,
            updated: 0,
            started: None,
            version: 0,
            seats: vec![Default::default(); game.table().len()],
            status: crate::kernel::store::Status::Active,
            moves,
            times: Vec::new(),
            ending: None,
            draw_offer: None,
            takeback: None,
            clock: None,
            pauses: Vec::new(),
            wait: None,
            tournament: None,
            community: None,
            casual: true,
            away: None,
        };
        Board::new(&record, from)
    }

    /// The board of `record` as `game` stands after it (the game already played, so that
    /// drawing replays nothing), its decisions from `from` on marked with their `events`.
    pub fn played(
        record: &GameRecord,
        from: usize,
        game: &AnyGame,
        events: Vec<AnyEvent>,
    ) -> Board {
        Board {
            played: Some(Arc::new(Played {
                game: game.clone(),
                events,
            })),
            ..Board::new(record, from)
        }
    }

    /// The game as played, when the board carries it.
    pub fn game(&self) -> Option<&AnyGame> {
        self.played.as_ref().map(|p| &p.game)
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
            played: None,
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
                if let Some(p) = &self.played {
                    return Ok(draw(
                        record,
                        &p.game,
                        &p.events,
                        self.name(),
                        self.at,
                        style,
                    ));
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

//! What the bot's test suites share (each uses a part of it).
#![allow(dead_code)]

use muster_bot::core::{Reply, Request, User};

/// A console command by `user` in `channel`.
pub fn request(user: &str, channel: &str, text: &str) -> Request {
    Request {
        platform: "console".into(),
        channel: channel.into(),
        user: User::named(user),
        text: text.into(),
        mentions: vec![],
        policy: Default::default(),
    }
}

/// The board of a Lanrick game `id` between alice and bob, before its first move.
pub fn lanrick(id: &str) -> Reply {
    use muster_bot::store::{GameRecord, Player, SCHEMA, SeatEntry, Status};
    let seat = |id: &str| SeatEntry {
        player: Some(Player {
            id: id.into(),
            name: id.into(),
        }),
        accepted: true,
        hand: None,
    };
    let record = GameRecord {
        schema: SCHEMA,
        id: id.into(),
        game: "lanrick".into(),
        platform: "console".into(),
        channel: "general".into(),
        created: 1,
        updated: 1,
        started: None,
        version: 1,
        seats: vec![seat("alice"), seat("bob")],
        status: Status::Active,
        moves: Vec::new(),
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: None,
        pauses: Vec::new(),
        wait: None,
        tournament: None,
        community: None,
        casual: false,
    };
    Reply::board(&record, 0)
}

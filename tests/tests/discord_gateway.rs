//! Muster's gateway client when the connection to Discord misbehaves, end to end: the real
//! `muster serve` binary against the stand-ins (`muster_tests::discord`), playing two Lanrick
//! games in two channels while the gateway asks it to reconnect (op 7), invalidates its session
//! (op 9, resumable or not), stalls, resets the connection, closes it with Discord's codes,
//! revokes its token, delivers an interaction twice, or while the bot is stopped with SIGTERM.
//!
//! Each time the bot must do what Discord requires: RESUME on a new connection to READY's
//! `resume_gateway_url` where it may, IDENTIFY afresh where it must, get the dispatches it
//! missed by replay, answer every interaction exactly once (one callback per interaction, no
//! second answer and nothing Discord would refuse), post the board of every accepted move; and
//! the games must go on afterwards.

use std::path::PathBuf;
use std::time::Duration;

use muster_tests::discord::bot::{
    self, Bot, CHANNEL, GUILD, Mode, WAIT, assert_none_refused, button_ids, callback,
};
use muster_tests::discord::{
    Ending, GatewayConnection, Handshake, Listener, Outcome, Person, Recorded, StandIn, button,
    command,
};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

/// The second channel, with a game of its own.
const CHANNEL_B: &str = "1300000000000000201";
const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");

/// The moves of the whole-game record, in order.
fn record() -> Vec<&'static str> {
    WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// How many times the bot has logged answering an interaction (`MUSTER_DISCORD_TIMINGS`).
fn answers_logged(log: &str) -> usize {
    log.matches(" answered in ").count()
}

/// Whether `r` belongs to the answer to the interaction with `token`.
fn answers(r: &Recorded, token: &str) -> bool {
    r.path.contains(&format!("/{token}/"))
}

/// A Lanrick game in one channel, played from the record.
struct Table {
    channel: &'static str,
    players: [Person; 2],
    /// Moves of the record sent so far.
    sent: usize,
}

/// A bot on the stand-ins with a game in each of two channels, and every interaction sent to
/// it.
struct Run {
    standin: StandIn,
    bot: Bot,
    dir: PathBuf,
    tables: [Table; 2],
    record: Vec<&'static str>,
    /// The token of every interaction sent (once, however many times it was delivered).
    sent: Vec<String>,
    /// The tokens of the moves (and accepted challenges): each must have posted a board.
    boards: Vec<String>,
    /// Answers logged by earlier processes of the bot (a restart starts a new log).
    earlier_answers: usize,
}

impl Run {
    /// Starts the stand-ins (with HELLO's `heartbeat` if given) and the bot; the bot must have
    /// identified on the main gateway address, as Discord's clients do.
    async fn start(name: &str, heartbeat: Option<Duration>) -> Run {
        let standin = StandIn::start(bot::APP).await;
        if let Some(interval) = heartbeat {
            standin.set_heartbeat_interval(interval);
        }
        let dir = data_dir("discord-gateway", name);
        let bot = bot::start(&standin, &muster_binary!(), &dir, Mode::Gateway, &[]).await;
        let first = standin.wait_handshake(0, WAIT).await;
        assert_eq!(
            (first.op, first.listener, first.outcome),
            (2, Listener::Main, Outcome::Ready),
            "the first session starts with IDENTIFY on the address GET /gateway gives"
        );
        let connection = &standin.gateway_connections()[first.connection - 1];
        let query: Vec<&str> = connection.query.split('&').collect();
        assert!(
            query.contains(&"v=10") && query.contains(&"encoding=json"),
            "{connection:?}"
        );
        let table = |channel, a: &str, b: &str| Table {
            channel,
            players: [Person::new(a), Person::new(b)],
            sent: 0,
        };
        Run {
            standin,
            bot,
            dir,
            tables: [
                table(CHANNEL, "alice", "bob"),
                table(CHANNEL_B, "carol", "dave"),
            ],
            record: record(),
            sent: Vec::new(),
            boards: Vec::new(),
            earlier_answers: 0,
        }
    }

    /// Opens both games: a challenge, accepted with its button.
    async fn open(&mut self) {
        for t in 0..2 {
            self.challenge(t).await;
            self.accept(t, false).await;
        }
    }

    /// `/new lanrick` against the second player of table `t`, by the first; waits for it.
    async fn challenge(&mut self, t: usize) {
        let table = &self.tables[t];
        let options = json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "opponent", "type": 6, "value": table.players[1].id},
        ]);
        let asked = command(
            "new",
            options,
            &table.players[0],
            table.channel,
            Some(GUILD),
        );
        self.send(asked, 1).await;
        self.settle().await;
    }

    /// The challenged player's click on "accept" (delivered twice if `twice`); waits for the
    /// answer.
    async fn accept(&mut self, t: usize, twice: bool) {
        let table = &self.tables[t];
        let challenge = self
            .standin
            .messages()
            .into_iter()
            .rev()
            .find(|m| m.channel_id == table.channel && m.content.contains("challenges you"))
            .expect("the challenge");
        assert!(button_ids(&challenge).contains(&"muster:accept".to_owned()));
        let click = button(
            "muster:accept",
            &challenge,
            &table.players[1],
            table.channel,
            Some(GUILD),
        );
        let token = self.send(click, if twice { 2 } else { 1 }).await;
        self.boards.push(token);
        self.settle().await;
    }

    /// Sends the next move of table `t`'s game by the player the bot last asked to move,
    /// `times` times (a duplicate delivery), without waiting for the answer; returns its token.
    async fn send_move(&mut self, t: usize, times: usize) -> String {
        let mover = self.to_move(t);
        let table = &mut self.tables[t];
        let notation = self.record[table.sent];
        table.sent += 1;
        let options = json!([{"name": "notation", "type": 3, "value": notation}]);
        let played = command("move", options, &mover, table.channel, Some(GUILD));
        let token = self.send(played, times).await;
        self.boards.push(token.clone());
        token
    }

    /// Plays `n` moves at table `t`, each answered before the next.
    async fn play(&mut self, t: usize, n: usize) {
        for _ in 0..n {
            self.send_move(t, 1).await;
            self.settle().await;
        }
    }

    /// Dispatches `interaction` `times` times; returns its token.
    async fn send(&mut self, interaction: Value, times: usize) -> String {
        let token = interaction["token"].as_str().expect("a token").to_owned();
        self.sent.push(token.clone());
        match times {
            1 => self.standin.dispatch(interaction).await,
            2 => self.standin.dispatch_twice(interaction).await,
            _ => unreachable!("once or twice"),
        }
        token
    }

    /// Who the newest public message in table `t`'s channel asks to move.
    fn to_move(&self, t: usize) -> Person {
        let table = &self.tables[t];
        let content = self
            .standin
            .messages()
            .into_iter()
            .rev()
            .find(|m| {
                m.channel_id == table.channel
                    && m.flags & 64 == 0
                    && m.content.contains("your turn")
            })
            .map(|m| m.content)
            .unwrap_or_else(|| panic!("nobody asked to move in {}", table.channel));
        let line = content
            .lines()
            .find(|l| l.contains("your turn"))
            .unwrap_or_default();
        table
            .players
            .iter()
            .find(|p| line.starts_with(&p.mention()))
            .cloned()
            .unwrap_or_else(|| panic!("whose turn? {content}"))
    }

    /// Answers logged by this bot and the ones before it.
    fn answers_logged(&self) -> usize {
        self.earlier_answers + answers_logged(&self.bot.log())
    }

    /// Waits until the bot has answered every interaction sent, and checks that every move
    /// (and accepted challenge) was accepted with its board.
    async fn settle(&self) {
        let deadline = tokio::time::Instant::now() + WAIT;
        while self.answers_logged() < self.sent.len() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "{} of {} interactions answered after {WAIT:?}; handshakes: {:#?}\n{}",
                self.answers_logged(),
                self.sent.len(),
                self.standin.handshakes(),
                self.bot.log()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let requests = self.standin.requests();
        for token in &self.boards {
            let mine: Vec<Recorded> = requests
                .iter()
                .filter(|r| answers(r, token))
                .cloned()
                .collect();
            let answer = callback(&mine);
            let text = answer.data["content"].as_str().unwrap_or_default();
            let public = answer.data["flags"].as_u64().unwrap_or(0) & 64 == 0;
            let board = answer
                .files
                .iter()
                .any(|(_, name, bytes)| name.ends_with(".png") && bytes.starts_with(b"\x89PNG"));
            assert!(
                public && board,
                "interaction {token} was not accepted with a board: {text}\n{}",
                self.bot.log()
            );
        }
    }

    /// Checks the whole run: nothing the bot sent was refused (no 40060 "already
    /// acknowledged", no unknown interaction), every interaction got exactly one callback and
    /// was answered once, and each channel shows one board per accepted move and challenge.
    async fn check(&self) {
        self.settle().await;
        let requests = self.standin.requests();
        assert_none_refused(&requests, &self.bot.log());
        for token in &self.sent {
            let callbacks = requests
                .iter()
                .filter(|r| answers(r, token) && r.callback_type().is_some())
                .count();
            assert_eq!(callbacks, 1, "callbacks to interaction {token}");
        }
        assert_eq!(
            self.answers_logged(),
            self.sent.len(),
            "every interaction answered once:\n{}",
            self.bot.log()
        );
        for (t, table) in self.tables.iter().enumerate() {
            let boards = self
                .standin
                .messages()
                .iter()
                .filter(|m| {
                    m.channel_id == table.channel
                        && m.flags & 64 == 0
                        && m.attachments.iter().any(|(n, _)| n.ends_with(".png"))
                })
                .count();
            let expected = usize::from(self.accepted(t)) + table.sent;
            assert_eq!(boards, expected, "boards in {}", table.channel);
        }
    }

    /// Whether table `t`'s challenge has been accepted (it then shows a board).
    fn accepted(&self, t: usize) -> bool {
        let channel = self.tables[t].channel;
        self.standin
            .messages()
            .iter()
            .any(|m| m.channel_id == channel && m.content.contains("your turn"))
    }

    /// Replaces the bot (which has exited) with a new process on the same data.
    async fn restart(&mut self) {
        self.earlier_answers += answers_logged(&self.bot.log());
        self.bot = bot::start(
            &self.standin,
            &muster_binary!(),
            &self.dir,
            Mode::Gateway,
            &[],
        )
        .await;
    }

    /// The connection the current session is delivered through: where the last successful
    /// handshake happened.
    fn current_connection(&self) -> usize {
        self.standin
            .handshakes()
            .iter()
            .rev()
            .find(|h| matches!(h.outcome, Outcome::Ready | Outcome::Resumed(_)))
            .map(|h| h.connection)
            .expect("a session")
    }

    /// The first handshake since `index` (see [`StandIn::handshakes`]).
    async fn handshake_since(&self, index: usize) -> Handshake {
        self.standin.wait_handshake(index, WAIT).await
    }

    /// Checks `h` resumed the run's current session on a new connection to the resume
    /// address, from the last dispatch the old connection `old` delivered; returns how many
    /// dispatches it got by replay.
    fn assert_resumed(&self, h: &Handshake, old: &GatewayConnection) -> usize {
        let session = self
            .standin
            .handshakes()
            .iter()
            .rev()
            .find(|x| x.connection == old.number && x.outcome != Outcome::Invalid)
            .map(|x| x.session_id.clone())
            .expect("the old connection's session");
        assert_eq!(h.op, 6, "RESUME, not IDENTIFY: {h:?}");
        assert_eq!(h.session_id, session, "{h:?}");
        assert_ne!(h.connection, old.number, "on a new connection: {h:?}");
        assert_eq!(
            h.listener,
            Listener::Resume,
            "to READY's resume_gateway_url: {h:?}"
        );
        assert_eq!(
            h.seq, old.last_seq,
            "the last sequence number received: {h:?}"
        );
        match h.outcome {
            Outcome::Resumed(replayed) => replayed,
            ref other => panic!("the RESUME failed: {other:?}"),
        }
    }

    /// Connection `number` once it has ended; checks the bot did not end it as a client that
    /// means to stop (1000 or 1001 would end the session on Discord).
    async fn left_open_to_resume(&self, number: usize) -> GatewayConnection {
        let ended = self.standin.wait_ended(number, WAIT).await;
        assert!(
            !matches!(ended.ending, Some(Ending::ClientClosed(Some(1000 | 1001)))),
            "closed as if stopping: {ended:?}"
        );
        ended
    }

    /// Removes the data directory.
    fn clean(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn op_7_is_resumed_on_the_resume_url_with_what_was_sent_meanwhile() {
    bot::runtime().block_on(async {
        let mut run = Run::start("reconnect", None).await;
        run.open().await;
        run.play(0, 2).await;
        run.play(1, 1).await;
        // Op 1 from the gateway: a heartbeat at once, with the last sequence number.
        let live = run.current_connection();
        let before = run.standin.gateway_connections()[live - 1].heartbeats.len();
        assert_eq!(run.standin.request_heartbeat().await, live);
        let beats = run.standin.wait_heartbeats(live, before + 1, WAIT).await;
        let last_seq = run.standin.gateway_connections()[live - 1].last_seq;
        assert_eq!(beats[before].as_u64(), last_seq, "{beats:?}");
        // Twice: the resume address is still known after a RESUME (which has no READY).
        for round in 0..2 {
            let index = run.standin.handshakes().len();
            let old = run.standin.reconnect().await;
            // Sent while the bot reconnects: kept in the session, delivered once it resumes.
            run.send_move(round, 1).await;
            let h = run.handshake_since(index).await;
            let old = run.standin.gateway_connections()[old - 1].clone();
            run.assert_resumed(&h, &old);
            run.settle().await;
            run.left_open_to_resume(old.number).await;
            run.play(0, 1).await;
            run.play(1, 1).await;
        }
        assert_eq!(run.standin.connections(), 1, "one session throughout");
        run.check().await;
        run.clean();
    });
}

#[test]
fn op_9_resumable_is_resumed_and_not_resumable_starts_a_new_session() {
    bot::runtime().block_on(async {
        let mut run = Run::start("invalid-session", None).await;
        run.open().await;
        run.play(0, 2).await;

        let index = run.standin.handshakes().len();
        let old = run.standin.invalidate_session(true).await;
        let h = run.handshake_since(index).await;
        assert_eq!((h.op, h.outcome.clone()), (6, Outcome::Resumed(0)), "{h:?}");
        if h.connection != old {
            assert_eq!(h.listener, Listener::Resume, "{h:?}");
        }
        run.play(0, 1).await;
        run.play(1, 1).await;

        let index = run.standin.handshakes().len();
        let old = run.standin.invalidate_session(false).await;
        let h = run.handshake_since(index).await;
        assert_eq!(
            (h.op, h.outcome.clone()),
            (2, Outcome::Ready),
            "a new session, without trying to resume the old: {h:?}"
        );
        if h.connection != old {
            assert_eq!(
                h.listener,
                Listener::Main,
                "new sessions start at GET /gateway's address: {h:?}"
            );
        }
        assert_eq!(run.standin.connections(), 2);
        // The games survive the lost session.
        run.play(0, 2).await;
        run.play(1, 2).await;
        run.check().await;
        run.clean();
    });
}

#[test]
fn a_stalled_connection_is_left_and_what_was_queued_is_answered_after_resuming() {
    bot::runtime().block_on(async {
        // A short heartbeat, so that the missing acknowledgements show within a second or two.
        let mut run = Run::start("stall", Some(Duration::from_millis(400))).await;
        run.open().await;
        run.play(0, 1).await;
        run.play(1, 1).await;

        let index = run.standin.handshakes().len();
        let stalled = run.standin.stall().await;
        let queued = [run.send_move(0, 1).await, run.send_move(1, 1).await];
        let h = run.handshake_since(index).await;
        let old = run.standin.gateway_connections()[stalled - 1].clone();
        // The moves were sent at once, well before the bot could notice a missing heartbeat
        // ACK: they waited in the session (only under a heavy load could the second arrive
        // after the RESUME, delivered then as usual).
        let replayed = run.assert_resumed(&h, &old);
        assert!(
            (1..=queued.len()).contains(&replayed),
            "{replayed} replayed"
        );
        run.settle().await;
        run.left_open_to_resume(stalled).await;

        run.play(0, 2).await;
        run.play(1, 2).await;
        assert_eq!(run.standin.connections(), 1, "one session throughout");
        run.check().await;
        run.clean();
    });
}

#[test]
fn an_abrupt_reset_is_resumed() {
    bot::runtime().block_on(async {
        let mut run = Run::start("reset", None).await;
        run.open().await;
        run.play(0, 2).await;

        let index = run.standin.handshakes().len();
        let reset = run.standin.reset().await;
        run.send_move(1, 1).await;
        let h = run.handshake_since(index).await;
        let old = run.standin.gateway_connections()[reset - 1].clone();
        assert_eq!(old.ending, Some(Ending::Reset));
        run.assert_resumed(&h, &old);
        run.settle().await;

        run.play(0, 2).await;
        run.play(1, 1).await;
        assert_eq!(run.standin.connections(), 1, "one session throughout");
        run.check().await;
        run.clean();
    });
}

#[test]
fn an_interaction_delivered_twice_is_answered_once() {
    bot::runtime().block_on(async {
        let mut run = Run::start("duplicate", None).await;
        // A challenge accepted by a click that arrives twice.
        run.challenge(0).await;
        run.accept(0, true).await;
        run.challenge(1).await;
        run.accept(1, false).await;
        run.play(0, 1).await;
        // A move that arrives twice: once is a move, twice would be "not your turn" too.
        run.send_move(0, 2).await;
        run.settle().await;
        run.send_move(1, 2).await;
        run.settle().await;
        // Later moves show the duplicates were not taken as moves, and give a late second
        // answer time to show itself.
        run.play(0, 2).await;
        run.play(1, 2).await;
        run.check().await;
        run.clean();
    });
}

#[test]
fn sigterm_finishes_the_answers_in_flight_then_closes_with_1000_and_exits_0() {
    bot::runtime().block_on(async {
        let mut run = Run::start("sigterm", None).await;
        run.open().await;
        run.play(0, 2).await;
        run.play(1, 1).await;

        // Two moves in flight: the bot has read them and is waiting for Discord to take their
        // answers.
        let live = run.current_connection();
        run.standin.hold_callbacks();
        let in_flight = [run.send_move(0, 1).await, run.send_move(1, 1).await];
        run.standin.wait_held_callbacks(2, WAIT).await;
        run.bot.terminate();
        // Time for the signal to arrive; the bot must not exit with its answers held.
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            run.bot.running(),
            "exited with answers in flight:\n{}",
            run.bot.log()
        );
        run.standin.release_callbacks();
        let status = run.bot.exit_status(WAIT).await;
        assert_eq!(status.code(), Some(0), "{status:?}\n{}", run.bot.log());
        let ended = run.standin.wait_ended(live, WAIT).await;
        assert_eq!(
            ended.ending,
            Some(Ending::ClientClosed(Some(1000))),
            "a close frame with 1000 before exiting"
        );
        // The close came after everything the answers did.
        let requests = run.standin.requests();
        for (i, r) in requests.iter().enumerate() {
            if in_flight.iter().any(|token| answers(r, token)) {
                assert!(
                    i < ended.requests_at_end,
                    "{} {} came after the close",
                    r.method,
                    r.path
                );
            }
        }
        run.settle().await;

        // A new process starts a new session, and the games go on.
        let index = run.standin.handshakes().len();
        run.restart().await;
        let h = run.handshake_since(index).await;
        assert_eq!(
            (h.op, h.listener, h.outcome.clone()),
            (2, Listener::Main, Outcome::Ready)
        );
        run.play(0, 2).await;
        run.play(1, 1).await;
        run.check().await;
        run.clean();
    });
}

#[test]
fn close_codes_decide_between_resuming_identifying_and_stopping() {
    bot::runtime().block_on(async {
        let mut run = Run::start("close-codes", None).await;
        run.open().await;
        run.play(0, 1).await;

        // 4000 (unknown error): the session may be resumed.
        let index = run.standin.handshakes().len();
        let closed = run.standin.close_connection(4000).await;
        let h = run.handshake_since(index).await;
        let old = run.standin.gateway_connections()[closed - 1].clone();
        run.assert_resumed(&h, &old);
        run.play(1, 1).await;

        // 4007 (invalid seq) and 4009 (session timed out): a new session, identified afresh.
        for code in [4007, 4009] {
            let index = run.standin.handshakes().len();
            run.standin.close_connection(code).await;
            let h = run.handshake_since(index).await;
            assert_eq!(
                (h.op, h.listener, h.outcome.clone()),
                (2, Listener::Main, Outcome::Ready),
                "after {code}"
            );
            run.play(0, 1).await;
            run.play(1, 1).await;
        }
        run.check().await;

        // 4004 (authentication failed): the bot stops with an error, without reconnecting.
        let index = run.standin.handshakes().len();
        assert!(run.standin.revoke_token().is_some());
        let status = run.bot.exit_status(WAIT).await;
        let log = run.bot.log();
        assert!(
            status.code().is_some_and(|code| code != 0),
            "{status:?}\n{log}"
        );
        assert!(!log.contains("panicked"), "{log}");
        assert_eq!(
            run.standin.handshakes().len(),
            index,
            "no IDENTIFY or RESUME after 4004: {:#?}",
            run.standin.handshakes()
        );
        run.clean();
    });
}

#[test]
fn a_second_sigterm_while_answers_are_held_exits_at_once() {
    bot::runtime().block_on(async {
        let mut run = Run::start("second-sigterm", None).await;
        run.open().await;
        run.play(0, 2).await;
        // An answer in flight holds the first stop back …
        run.standin.hold_callbacks();
        run.send_move(1, 1).await;
        run.standin.wait_held_callbacks(1, WAIT).await;
        run.bot.terminate();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(run.bot.running(), "exited with an answer in flight");
        // … and a second signal ends the process without waiting for it.
        run.bot.terminate();
        let status = run.bot.exit_status(Duration::from_secs(5)).await;
        assert_eq!(status.code(), Some(143), "{status:?}\n{}", run.bot.log());
        assert!(
            run.bot
                .log()
                .contains("a second stop signal: exiting at once"),
            "{}",
            run.bot.log()
        );
        run.standin.release_callbacks();
        run.clean();
    });
}

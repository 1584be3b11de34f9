//! The texts of `help`, `rules` and `notation`: what Muster says of its commands and games.

use muster_rules::GameId;

use crate::games::lanko_words;
use crate::kernel::text::excerpt;

/// The help on each command: the words that ask for it, and its text, `{p}` standing for the
/// place's prefix.
const TOPICS: &[(&[&str], &str)] = &[
    (
        &["new"],
        "`{p}new <game> [@opponent|bot[:level]] [as white|black] [clock 3d|10d+1d|none] [timeout claim]` starts a game in this channel. Name an opponent to challenge them (they `accept` or `decline`), name the bot (`bot`, or `bot:easy|good|strong`, or `bot:500` for a search of 500 ms; in Croquet `strong` is perfect play), or name nobody and the other seat is open: anyone may `join`. Games: lanrick, lanrick1880, croquet, lanko88, lanko68, lanko103. Lanko takes up to three others (`@a @b @c` sit W, N, E); with one other, each holds both seats of a colour; with two, the second holds W and E alone. For open seats say how many players: `{p}new lanko88 for 2|3|4`. Time: `clock 3d` gives each move 3 days (the clock is full again after each move), `clock 10d+1d` a bank of 10 days with a day added after each move (never above 10 days), `clock 5m+3s` for live play, `clock none` no clock; without it the channel's default applies. When a clock runs out the seat to move loses on time (a forfeit if it never moved); with `timeout claim` the opponent may `claim` the win instead.",
    ),
    (
        &["join"],
        "`{p}join [seat]` takes an open seat of this channel's game; the game starts when every seat is taken.",
    ),
    (
        &["accept", "decline"],
        "`{p}accept` or `{p}decline` answers a challenge addressed to you.",
    ),
    (
        &["abort"],
        "`{p}abort` calls off this channel's game before its first move (any player at the table). It also sets aside a damaged game record.",
    ),
    (
        &["move", "play"],
        "`{p}move <notation>` plays your decision; see `{p}notation`. Only the player whose decision it is may move.",
    ),
    (
        &["board", "show"],
        "`{p}board` shows you the board as you like it to look (only you see it, where the platform can), with whose decision it is. Change how your boards look, in every game and channel: `{p}board flip` turns them over, `{p}board white` or `{p}board black` puts that colour at the bottom (in Lanko a seat of that colour — yours if you hold one), `{p}board theme classic|dark|contrast` (contrast: strong colours that stay apart with colour blindness), `{p}board size small|normal|large`; several at once are fine (`{p}board black dark large`). The board posted in a game's channel is drawn as the player to move likes it.",
    ),
    (
        &["moves"],
        "`{p}moves` lists the legal moves (shortened when there are many).",
    ),
    (&["history"], "`{p}history` lists the moves so far."),
    (
        &["learn", "lesson"],
        "`{p}learn <game>` gives you the next lesson of a game's course (Lanrick, Croquet, the 1880 Lanrick, Lanko): a board and a task, answered with `{p}learn <decision>` in the game's notation and checked by the rules; `{p}learn <game> <n>` gives lesson n; `{p}learn solution` shows the answer (then one star); `{p}learn` shows your progress. Up to three stars a lesson, for solving it in few tries. For you alone; a channel's game is never touched, and lessons never count in ratings.",
    ),
    (
        &["puzzle", "puzzles"],
        "`{p}puzzle [game]` gives you a puzzle from the bot's own games, near your puzzle rating: a position where one decision wins the rendezvous now (Lanrick), is the only step that keeps a won game won (Croquet), or gains the most points (Lanko), proved by trying every legal decision. Answer with `{p}puzzle <decision>`; `{p}puzzle solution` shows it. Your first try of each puzzle is rated (Glicko-2, as games are, but a rating of its own); `{p}puzzle rating` shows your rating, streak and latest tries; `{p}puzzle daily` is the day's puzzle, the same for everyone. For you alone; never a game's rating.",
    ),
    (
        &["replay", "gif"],
        "`{p}replay [game-id]` shows the game as an animation, one frame a decision; without an id, this channel's game or your last finished one. Every finished game's replay is posted with its result.",
    ),
    (
        &["export"],
        "`{p}export [game-id]` gives the record as a file, its decisions one a line: a finished game's, or this channel's game by its id; without an id, this channel's game or your last finished one.",
    ),
    (&["resign"], "`{p}resign` gives up the game (players only)."),
    (
        &["declare"],
        "`{p}declare` (Lanko) declares, on your turn, that your castles will not go onto the middle (end) squares; you then still move. When every seat with castles has declared and no castle can be captured, the game ends.",
    ),
    (
        &["draw"],
        "`{p}draw` offers a draw; the opponent answers `{p}draw accept` or `{p}draw decline`. A move withdraws the offer.",
    ),
    (
        &["takeback"],
        "`{p}takeback` asks to take back the last move; the opponent answers `{p}takeback accept` or `{p}takeback decline`.",
    ),
    (
        &["hint"],
        "`{p}hint` gives your best decision, with what it does: in Arithmetical Croquet the perfect step (Muster has solved the game), elsewhere the bot's search after 300 ms, with the chance it gives it. Hints are given in games against the bot and in casual games, never in rated or tournament games.",
    ),
    (
        &["games"],
        "`{p}games [player]` shows a player's games (yours by default): the live ones in every channel here, those waiting for his move first, then the finished ones with their ids for `{p}export`.",
    ),
    (
        &["claim"],
        "`{p}claim` wins a game whose timeouts are claimed (`new … timeout claim`) once the opponent's clock has run out. Until someone claims, the late player may still move.",
    ),
    (
        &["notify"],
        "`{p}notify` shows your reminder settings. `{p}notify mention|dm|off` — where reminders go (a mention in the game's channel, a direct message, or none); `{p}notify remind 24h 1h` — the times left to remind you at (`off`, `default`); `{p}notify quiet 22:00-07:00 Europe/Berlin` — hours in your time zone during which reminders wait (`off`). Reminders due close together come as one message. With accounts linked on two platforms (`link`), the settings are your accounts' alike, and `{p}notify on <platform>` sends every reminder to you there as a direct message (`{p}notify on each`: each game's reminders on its own platform).",
    ),
    (
        &["vacation"],
        "`{p}vacation` shows what is left of your allowance this year. `{p}vacation start [days]` stops your clocks in all your games (the whole allowance left, without a number); `{p}vacation end` starts them again and gives back the days not taken. Your opponents are told.",
    ),
    (
        &["tournament", "tournaments"],
        "`{p}tournament new <name> <game> swiss|roundrobin|double|knockout [rounds N] [clock 3d] [timeout claim] [pairs]` opens an event here; players `{p}tournament join <name>` (a Lanko pair: `join <name> @partner`) or `leave`; `{p}tournament list` shows the events. The organiser `start`s it; then every round is paired by the bot and each game gets its own place (a thread, a room, a channel `<name>-<round>-<board>`). `{p}tournament standings|pairings [round]|export <name>` for everyone (`export <name>` gives the event as JSON, `export <name> trf` as FIDE's Tournament Report File, TRF-16, for a Swiss or round robin); `add @x`, `kick @x`, `result <board> 1-0|0-1|1/2-1/2|forfeit white|black`, `pause`, `resume`, `cancel` for organisers. In the event's channel the name may be left out.",
    ),
    (
        &["rating", "ratings", "leaderboard"],
        "`{p}rating [@player] [game]` shows a player's ratings here (yours by default): the rating, its deviation, games, best and last change; a rating is provisional, shown with `?`, while its deviation is high, and only established ratings count as a best. `{p}leaderboard <game>` lists the ten strongest established players and your place. `{p}ratings export [game]` gives every rated game and rating as a JSON file. Games between people are rated (Glicko-2; Lanko by sides with Weng-Lin) unless started `casual` (`{p}new lanrick @bob casual`); games against the bot, called off, forfeited before a move, or with fewer than two moves by a player are not. Tournament games are rated. See docs/ratings.md.",
    ),
    (
        &["link", "unlink", "whoami"],
        "`{p}link` gives you a one-time code, for your eyes only; within 10 minutes say `{p}link CODE` as yourself on the other platform this Muster serves, and your two accounts are one player. A code works once; five wrong codes in 10 minutes and you wait. `{p}unlink` parts the accounts again; `{p}whoami` shows your account and those linked with it.",
    ),
    (
        &["rules", "notation"],
        "`{p}rules [game]` and `{p}notation [game]` explain a game and how its moves are written.",
    ),
];

/// The list of commands, `{p}` standing for the place's prefix.
const OVERVIEW: &str = "Muster plays Lewis Carroll's games. New to them? Try `{p}new croquet bot:easy` and `{p}rules croquet`.\n\
             Games (the word to name them by, then what they are):\n\
             • `lanrick` — Lanrick (1881): two players race five men each into a 3×3 rendezvous; whoever has all his men in first takes one of the other's, and four taken win\n\
             • `lanrick1880` — Lanrick's first version (1880): the same race as Carroll first wrote it (all ten men set at once, the rendezvous chosen and shifted), played until one side has no men left\n\
             • `croquet` — Arithmetical Croquet: two balls step 1 to 8 along the numbers to 100, taking the hoops at 10, 20 … 90 on the way; each step bars two numbers for the other\n\
             • `lanko88` · `lanko68` · `lanko103` — Lanko: castles and pawns for four seats in two teams (two to four players), capturing across a board of 88, 68 or 103 squares\n\
             Commands (prefix `{p}`):\n\
             • `{p}new lanrick @opponent` — challenge someone (`as black` to choose your side); `{p}new lanrick` leaves the seat open\n\
             • `{p}join` · `{p}accept` · `{p}decline` · `{p}abort` — seating, before the first move\n\
             • `{p}move <notation>` — play, e.g. `{p}move c1-c3 d1-e2` (in a game, the notation alone also works)\n\
             • `{p}board` · `{p}moves` · `{p}history` · `{p}export` · `{p}replay` — look at the game · `{p}board flip|dark|large…` — how your boards look\n\
             • `{p}resign` · `{p}draw` · `{p}takeback` — with the opponent's consent where needed · `{p}declare` — Lanko\n\
             • `{p}new lanko88 @a @b @c` — Lanko for 2, 3 or 4 players (also lanko68, lanko103)\n\
             • `{p}new lanrick bot[:easy|good|strong]` — play the bot, in any game · `{p}hint` — its advice, against it or in casual games\n\
             • `{p}new lanrick @bob clock 3d` — a timed game (`clock 10d+1d`: a bank and an increment; `clock none`) · `{p}claim` — the win when the opponent's time ran out (`timeout claim` games)\n\
             • `{p}notify` — your reminders (`mention`, `dm`, `off`, `remind 24h 1h`, `quiet 22:00-07:00 Europe/Berlin`) · `{p}vacation [start [days]|end]` — your clocks stand still\n\
             • `{p}rating [@player] [game]` · `{p}leaderboard <game>` · `{p}ratings export` — ratings; `casual` in `new` for an unrated game\n\
             • `{p}tournament new spring lanrick swiss` — run an event; `{p}tournament join spring` · `standings` · `pairings` (`{p}help tournament`)\n\
             • `{p}link` — one player on two platforms (`{p}link CODE` on the other) · `{p}unlink` · `{p}whoami`\n\
             • `{p}learn lanrick` · `{p}learn croquet` · `{p}learn lanrick1880` · `{p}learn lanko` — lessons on a board, for you alone · `{p}learn` — your stars · `{p}puzzle` — a proved puzzle, rated\n\
             • `{p}games [player]` — your games, your move first · `{p}rules` · `{p}notation` · `{p}help <command>`";

/// The help text, or help on one command; the overview ends with the games' rules pages when
/// the web pages are served at `web`.
pub fn help(topic: Option<&str>, prefix: &str, web: Option<&str>) -> String {
    let Some(topic) = topic else {
        let overview = OVERVIEW.replace("{p}", prefix);
        return match web {
            Some(base) => {
                format!("{overview}\nEvery game's rules, with the boards drawn: {base}/rules")
            }
            None => overview,
        };
    };
    let word = topic.trim_start_matches(prefix);
    match TOPICS.iter().find(|(words, _)| words.contains(&word)) {
        Some((_, text)) => text.replace("{p}", prefix),
        None => format!(
            "There is no command `{}`. Say `{prefix}help` for the list.",
            excerpt(word, 32)
        ),
    }
}

/// A short statement of a game's rules, ending with where the whole rules are read, with
/// diagrams, when the web pages are served at `web` (their base address).
pub fn rules(game: GameId, web: Option<&str>) -> String {
    let short = short_rules(game);
    match web {
        Some(base) => format!(
            "{short}\nThe whole rules, with every ruling and the boards drawn: {base}/rules/{game}"
        ),
        None => short,
    }
}

/// How a game's moves are written, with where the whole notation is read when the web pages
/// are served at `web`.
pub fn notation(game: GameId, web: Option<&str>) -> String {
    let short = short_notation(game);
    match web {
        Some(base) => format!("{short}\nThe whole notation: {base}/rules/{game}#notation"),
        None => short,
    }
}

/// The rules in a few steps.
fn short_rules(game: GameId) -> String {
    match game {
        GameId::Lanrick => "Lanrick (Lewis Carroll, Third Edition 1881). Two players, five men each, on a chess-board; \
the 28 edge squares are the border, the 36 inner squares the field.\n\
1. Placement: White, then Black, alternately set a man on the border, five each.\n\
2. The mark: White sets a coin on a field square; the coin's square and its 8 neighbours are the rendezvous. \
None of the setter's men may be in it, and he must not be able to bring them all in with one turn.\n\
3. Play: the other player moves first, at most 2 squares; afterwards each turn moves at most as many squares \
as the player has men, split among his men as he likes. Men move like queens, never over other men; \
a man moved twice in a turn keeps to one line. The coin is no obstacle.\n\
4. As soon as all a player's men are in the rendezvous he wins it: he takes one of the other's men that is not in it, \
and moves each of the other's wanderers (his men neither in the rendezvous nor on the border) to the border. \
Then the fields are equalised: whoever has more men in the field moves his own to the border until both have as many. \
Then both return their field men to the border, one at a time, alternately, beginning with the player who has fewer \
men (or, if equal, the loser); when every man is on the border, that player sets the next mark.\n\
5. Taking four men wins. A round runs from one mark to the next; the game is drawn when the same position (the men, \
the mark and the player to move) occurs for the third time in one round, or by agreement."
            .into(),
        GameId::Lanrick1880 => "Lanrick, first version (Lewis Carroll, December 1880). Two players, five men each.\n\
1. White sets all ten men on border squares.\n\
2. Black chooses the rendezvous: any 3×3 block holding none of Black's men (it may hold White's).\n\
3. White plays first. Each turn a player moves as many squares as he has men, split among his men; each man keeps to one line and is moved at most once a turn; men never pass over men.\n\
4. Instead of moving, the player who did not choose may shift the mark one square (the men inside move with it), as long as he has not yet moved a man this round, the new block holds none of his men, and no two men would share a square.\n\
5. As soon as a player has all his men in, he takes one of the other's men that is not in, and moves the other's wanderers (his men neither in the rendezvous nor on the border) to the border. The loser chooses the next rendezvous; the winner plays first. A player with no men left loses."
            .into(),
        GameId::Croquet => "Arithmetical Croquet (Lewis Carroll, 1889). Two players move balls along the numbers 0 to 100; \
White starts. Each turn a player steps 1 to 8 forward.\n\
1. The hoops are 10, 20, … 90, to be taken in order, then the peg, 100. To take a hoop, go from below it to the \
same distance above it (17 → 23 takes 20), or step exactly into it and out again by the same step (17 → 20, then 3).\n\
2. Any other step past a hoop misses it: next turn the ball must go back below it with a back step (-1 to -8). \
Missing the same hoop, or the peg, twice loses.\n\
3. Each step bars the other from that step and from 9 minus it on his next turn (playing 2 bars 2 and 7), except a \
step into a hoop, or a step from 91–99 unless the other is also at 91–99.\n\
4. Keeping in: while the other is in a hoop needing n, you may bar him with n or 9 − n, but not the same one twice running.\n\
5. Whoever lands exactly on 100 wins. With no legal step a player passes."
            .into(),
        GameId::Lanko88 | GameId::Lanko68 | GameId::Lanko103 => {
            lanko_words::rules(game.lanko().expect("a Lanko game"))
        }
    }
}

/// How a game's moves are written, in a few lines.
fn short_notation(game: GameId) -> String {
    match game {
        GameId::Lanrick => "Lanrick notation: squares a1–h8, a1 bottom-left.\n\
• placing a man or setting the mark: the square — `b1`, `d4`\n\
• a turn: its steps from-to, in order, separated by spaces — `c1-c3 d1-e2` (a man moving twice: `c1-c2 c2-c4`)\n\
• taking a man after a won rendezvous: `x` and his square — `xe5`\n\
• each man moved to the border (wanderers, equalising, returns): one step — `e5-e1`"
            .into(),
        GameId::Lanrick1880 => "Lanrick (1880) notation: squares a1–h8, a1 bottom-left.\n\
• the set-up, all ten men: `W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7`\n\
• choosing the rendezvous: its centre — `d4`\n\
• a turn: steps from-to, each man once — `c1-c3 d1-e2`\n\
• shifting the mark: `*` and the new centre — `*e5`\n\
• taking a man: `xe5`; moving a wanderer to the border: `e5-e1`"
            .into(),
        GameId::Croquet => "Croquet notation: a step is how far you move — `1` to `8` forward, `-1` to `-8` back \
(back only to return below a missed hoop or the peg). Example: from 17, `6` goes to 23 and takes hoop 20."
            .into(),
        GameId::Lanko88 | GameId::Lanko68 | GameId::Lanko103 => {
            lanko_words::notation(game.lanko().expect("a Lanko game"))
        }
    }
}

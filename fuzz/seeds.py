#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/seed-*) from the documentation's
examples, the golden games and the Discord fixtures. Run from anywhere; seeds are rewritten,
inputs the fuzzers added are kept."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
# The byte that picks each game: the order of GameId::ALL.
GAME = {"lanrick": 0, "lanrick1880": 1, "croquet": 2, "lanko88": 3, "lanko68": 4, "lanko103": 5}


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (folder / f"seed-{name}").write_bytes(data)


def moves_of(path):
    return [l.strip() for l in path.read_text().splitlines() if l.strip() and not l.startswith("#")]


def game_seeds():
    games = {
        "lanrick": moves_of(ROOT / "docs/examples/lanrick-whole-game.txt"),
        "croquet": moves_of(ROOT / "docs/examples/croquet-game.txt"),
        "lanrick1880": ["W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7", "d4", "*d5", "c8-c6", "*c5"],
    }
    for variant in ("lanko88", "lanko68", "lanko103"):
        games[variant] = moves_of(ROOT / f"rules/tests/golden/{variant}-game.txt")
    for game, moves in games.items():
        for start, count in ((0, 64), (0, 12), (max(0, len(moves) - 40), 40)):
            body = "\n".join(moves[start:start + count])
            # A later part is played from the start too: the target plays from the opening.
            write("play", f"{game}-{start}-{count}", bytes([GAME[game]]) + body.encode())
        # Typing a player might do: spaces, capitals, a wrong move in between.
        typed = [moves[0].upper(), " " + moves[0] + " ", "z9", moves[0]] + moves[1:8]
        write("play", f"{game}-typed", bytes([GAME[game]]) + "\n".join(typed).encode())


def position_seeds():
    positions = {g: set() for g in GAME}
    golden = ROOT / "rules/tests/golden"
    for line in (golden / "lanrick-game.txt").read_text().splitlines()[1:]:
        if line.startswith("     "):
            positions["lanrick"].add(line.strip())
    for line in (golden / "croquet-game.txt").read_text().splitlines()[1:]:
        if line.startswith("     "):
            positions["croquet"].add(line.strip())
    for variant in ("lanko88", "lanko68", "lanko103"):
        for line in (golden / f"{variant}-game.txt").read_text().splitlines()[1:]:
            if line.startswith("# "):
                positions[variant].add(line[2:].strip())
    for line in (ROOT / "rules/tests/data/lanrick-turns.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            positions["lanrick"].add(line.split(" ", 1)[1].strip())
    for line in (ROOT / "rules/tests/data/lanko-captures.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            game, _, position = line.split(" ", 2)
            positions[game].add(position.strip())
    for line in (ROOT / "fuzz/seeds-lanrick1880.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            positions["lanrick1880"].add(line.strip())
    for game, found in positions.items():
        for i, position in enumerate(sorted(found)[:24]):
            write("position", f"{game}-{i}", bytes([GAME[game]]) + position.encode())


def command_seeds():
    words = set()
    for doc in ("guide.md", "tournaments.md", "ratings.md", "discord.md", "matrix.md", "ai.md"):
        for span in re.findall(r"`([a-z][^`\n]*)`", (ROOT / "docs" / doc).read_text()):
            first = span.split(" ", 1)[0]
            if first in {"new", "join", "accept", "decline", "abort", "move", "board", "moves",
                         "history", "export", "resign", "draw", "takeback", "rules", "help",
                         "notation", "tournament", "rating", "ratings", "leaderboard", "games",
                         "notify", "vacation", "claim", "hint", "replay", "declare", "clock"}:
                words.add(span)
    words |= {"3d", "10d+1d", "5m+3s", "none", "7d claim", "2026-11-25T10:00:00Z", "90m",
              "22:00-07:00\nEurope/Berlin", "sled:/var/lib/muster", "postgres://muster@localhost/muster",
              "0/2", "0-1/4"}
    for i, w in enumerate(sorted(words)):
        write("command", f"{i:03}", w)


def discord_seeds():
    for fixture in sorted((ROOT / "tests/fixtures/discord").glob("*.json")):
        value = json.loads(fixture.read_text())
        write("discord", fixture.stem, json.dumps(value, separators=(",", ":")))
        if "data" in value and value["data"].get("name") == "new":
            # The same command as a move, and as a resignation.
            for name, options in (("play", [{"name": "notation", "type": 3, "value": "c1-c3 d1-e2"}]),
                                  ("resign", [])):
                value["data"]["name"] = name
                value["data"]["options"] = options
                write("discord", f"{fixture.stem}-{name}", json.dumps(value, separators=(",", ":")))
        if value.get("data", {}).get("custom_id"):
            for command in ("move h7", "draw accept", "takeback decline", "new lanrick"):
                value["data"]["custom_id"] = "muster:" + command
                write("discord", f"{fixture.stem}-{command.replace(' ', '-')}",
                      json.dumps(value, separators=(",", ":")))


def matrix_seeds():
    def event(content, sender="@alice:example.org", kind="m.room.message", **extra):
        e = {"type": kind, "sender": sender, "event_id": "$e1:example.org",
             "origin_server_ts": 1764064800000, "content": content}
        e.update(extra)
        return json.dumps(e, separators=(",", ":"))

    seeds = {
        "board": event({"msgtype": "m.text", "body": "!board"}),
        "move": event({"msgtype": "m.text", "body": "!move h7"}),
        "bare-move": event({"msgtype": "m.text", "body": "h7"}),
        "mentions": event({"msgtype": "m.text", "body": "!new lanrick @bob:example.org",
                           "m.mentions": {"user_ids": ["@bob:example.org"]}}),
        "reply": event({"msgtype": "m.text",
                        "body": "> <@bob:example.org> !new lanrick\n\n!accept",
                        "m.relates_to": {"m.in_reply_to": {"event_id": "$e0:example.org"}}}),
        "edit": event({"msgtype": "m.text", "body": "* !resign",
                       "m.new_content": {"msgtype": "m.text", "body": "!resign"},
                       "m.relates_to": {"rel_type": "m.replace", "event_id": "$e0:example.org"}}),
        "thread": event({"msgtype": "m.text", "body": "!moves",
                         "m.relates_to": {"rel_type": "m.thread", "event_id": "$e0:example.org"}}),
        "notice": event({"msgtype": "m.notice", "body": "!board"}),
        "join": event({"membership": "join"}, sender="@muster:example.org", kind="m.room.member",
                      state_key="@muster:example.org"),
        "encrypted": event({"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgA",
                            "session_id": "s", "device_id": "D", "sender_key": "k"},
                           kind="m.room.encrypted"),
    }
    for name, body in seeds.items():
        write("matrix", name, body)


def record_seeds():
    for path in sorted((ROOT / "fuzz/seeds-records").glob("*.json")):
        write("record", path.stem, path.read_bytes().strip())


if __name__ == "__main__":
    game_seeds()
    position_seeds()
    command_seeds()
    discord_seeds()
    matrix_seeds()
    record_seeds()

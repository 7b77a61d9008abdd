"""``/domino rules``: each game's rules in plain words, following RULES.md (which the
engine enforces; the rule numbers are given so players can look them up)."""

from __future__ import annotations

COMMON = (
    "**Every game** — one double-six set of 28 tiles; a tile is written high end first "
    "(`6-5`). If you hold a tile that fits you must play it (R-ALL-4). A round ends when "
    "someone plays their last tile, or when nobody can play or draw (blocked): then the "
    "lowest count (pips left in hand) wins; a tie for lowest scores nothing (R-ALL-5, 8). "
    "Your hand is only ever shown to you."
)

RULES: dict[str, str] = {
    "cross": (
        "**Cross** (2–4 players; 7 tiles each with 2 players, 5 with 3 or 4)\n"
        "• The highest double leads as the spinner; it has four arms: N, E, S, W (R-CR-2).\n"
        "• First build the cross: each play must start an empty arm with a tile matching the "
        "spinner, until all four are started (R-CR-3). Then play on any arm's open end (R-CR-4).\n"
        "• Can't play? Draw one tile: play it at once if it fits, otherwise pass. The last two "
        "boneyard tiles are never drawn (R-CR-5).\n"
        "• Play out: score everyone else's count. Blocked: the lowest count scores the others' "
        "total minus their own (13 vs 30 → 17) (R-CR-6). First to 100 wins (R-CR-7)."
    ),
    "maltese-cross": (
        "**Maltese Cross** — Cross with a second phase (2–4 players, hands as Cross)\n"
        "• Start all four arms first (R-MC-2).\n"
        "• Then cap every arm with the double of its open number, laid crosswise; only such "
        "doubles may be played until all four are capped (R-MC-3). Then open play (R-MC-4).\n"
        "• When the boneyard is down to two with the cross unfinished, every arm without a cap "
        "is dead for the round (R-MC-5).\n"
        "• Scoring as Cross (18 vs 40 → 22); first to 100 by default, or 60, or your choice "
        "(R-MC-6)."
    ),
    "merry-go-round": (
        "**Merry-Go-Round** (2–4 players, 7 tiles each)\n"
        "• The holder of the highest double leads any double: the spinner (R-MG-2); all four "
        "sides must be played before anything else (R-MG-3).\n"
        "• After every tile, add up the open ends (a double at an end counts both halves; the "
        "spinner counts both halves until two arms start). A multiple of 5 scores a point per 5 "
        "(R-MG-4).\n"
        "• Can't play? Draw until you can, or the boneyard is empty (option: keep the last two) "
        "(R-MG-5).\n"
        "• Round winner: the others' count minus yours, to the nearest 5, divided by 5 "
        "(23 → 5, 22 → 4) (R-MG-6). The game is to exactly 61: a score that goes past is not "
        "added (bust); reaching 61 ends the game at once (R-MG-7)."
    ),
    "milo": (
        "**Milo** (4 players in two partnerships: seats 1 & 3 against 2 & 4; 7 tiles each, no "
        "boneyard)\n"
        "• One line with two ends, L and R; doubles lie crosswise and are not spinners (R-MI-2).\n"
        "• The first round of a game is led with 6-6; then the lead passes to the next seat, who "
        "may lead any tile (R-MI-3). Can't play? Pass (R-MI-4).\n"
        "• Play out: 1 point for your team, 1 more if both ends then show the same number. "
        "Blocked: the team with the lower count scores 1; a tie scores nothing (R-MI-5).\n"
        "• First team to 5 wins (R-MI-6); a match is first to win N games (R-MI-7)."
    ),
}


def rules_for(game: str) -> str:
    return f"{RULES[game]}\n\n{COMMON}"

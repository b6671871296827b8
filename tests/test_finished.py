"""The end of a match on the Play page, told from the engine's Outcome: who won, said to
the player, and the reason with every cutthroat player named."""

from __future__ import annotations

from spades.app.play import GameController
from spades.app.seats import HUMAN_SEAT, player_names
from spades.bots.drive import play_match
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.scoring import EndReason
from spades.ui.finished import reason_words, winner_heading

THREE = Rules(players=3, partnerships=False, target_score=150)


def _controller(match: Match) -> GameController:
    return GameController(
        match, players=player_names(match.rules, "Ada"), bot_levels={}, undo_allowed=False
    )


def test_the_heading_names_the_winning_side_as_the_player_sees_it() -> None:
    headings = set()
    for seed in range(12):
        match = play_match(Rules(target_score=150), seed, ["random"] * 4)
        heading = winner_heading(_controller(match))
        if match.winner is None:
            assert heading == "A shared game"
        elif match.winner == match.rules.side_of(HUMAN_SEAT):
            assert heading == ":material/trophy: You and your partner win!"
        else:
            assert heading == "East and West win this time"
        headings.add(heading)
    assert len(headings) >= 2


def test_someone_else_s_finished_game_is_told_by_its_players_names_never_as_yours() -> None:
    # A read-only view (a game's link opened by another browser) is not the viewer's game.
    for seed in range(12):
        match = play_match(Rules(target_score=150), seed, ["random"] * 4)
        if match.winner != match.rules.side_of(HUMAN_SEAT):
            continue
        watched = GameController(
            match,
            players=player_names(match.rules, "Ada"),
            bot_levels={},
            undo_allowed=False,
            read_only=True,
        )
        assert winner_heading(watched) == "North and Ada win this time"
        return
    raise AssertionError("no seed gave South's side the match")


def test_the_heading_names_the_cutthroat_winner() -> None:
    seen = set()
    for seed in range(12):
        match = play_match(THREE, seed, ["random"] * 3)
        heading = winner_heading(_controller(match))
        names = player_names(THREE, "Ada")
        if match.winner == HUMAN_SEAT:
            assert heading == ":material/trophy: You win!"
        elif match.winner is not None:
            assert heading == f"{names[match.winner]} wins this time"
        seen.add(match.winner)
    assert HUMAN_SEAT in seen and len(seen) >= 2


def test_the_reason_names_the_cutthroat_players_the_engine_names_by_seat() -> None:
    for seed in range(40):
        match = play_match(THREE.replace(mercy_score=-60), seed, ["random"] * 3)
        if match.outcome.code is not EndReason.LAST_IN:
            continue
        names = player_names(THREE, "Ada")
        said = reason_words(match.outcome.words(names))
        assert "seat" not in said
        assert said.endswith(f"{names[match.outcome.winners[0]]} wins as the last player in")
        assert all(names[seat] in said for seat in match.outcome.fallen)
        return
    raise AssertionError("no seeded match ended with the last player in")

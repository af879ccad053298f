"""Players, the arena and the strategy checker."""

from __future__ import annotations

import csv

import pytest

import connectk

MISERE = connectk.Rules(rules="misere")
SMALL = connectk.Rules(k=4, width=5, height=4, rules="misere")


def test_player_names_list_bots_then_strategies():
    names = connectk.player_names()
    assert names[:5] == ["random", "easy", "medium", "hard", "perfect"]
    assert "take-even" in names and "canonical" in names


def test_take_even_answers_on_top():
    player = connectk.Player("take-even")
    position = connectk.Position.from_moves("4", MISERE)
    assert player.choose(position) == 3
    assert player(connectk.Position.from_moves("446", MISERE)) == 5


def test_perfect_keeps_the_value():
    player = connectk.Player("perfect", table_mb=16)
    solver = connectk.Solver(table_mb=16)
    position = connectk.Position.from_moves("3322", SMALL)
    before = solver.solve(position, best_moves=False)
    after = solver.solve(position.play(player.choose(position)), best_moves=False)
    assert after.outcome == before.outcome
    assert after.remoteness == before.remoteness - 1


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: connectk.Player("grandmaster"), "unknown player"),
        (lambda: connectk.Player("take-even").choose(connectk.Position(MISERE)), "does not apply"),
        (lambda: connectk.Player("random").choose(connectk.Position.from_moves("1212121")), "over"),
        (lambda: connectk.arena("random", "nobody"), "unknown player"),
        (lambda: connectk.arena("take-even", "random", rules=MISERE), "does not apply"),
        (lambda: connectk.arena(lambda p: 99, "random"), "column index 99 is out of range"),
        (lambda: connectk.arena(42, "random"), "a player must be"),
        (lambda: connectk.verify("take-even", "P3", MISERE), "unknown player"),
        (lambda: connectk.verify("take-even", "P2", MISERE, claim="lose"), "unknown claim"),
        (lambda: connectk.verify("take-even", "P1", MISERE), "does not apply"),
        (lambda: connectk.verify("mirror", "P1", MISERE), "unknown strategy"),
    ],
)
def test_bad_players_raise_value_error(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_arena_records_are_reproducible_by_seed():
    first = connectk.arena("random", "medium", games=20, seed=5, rules=SMALL, frame=False)
    again = connectk.arena("random", "medium", games=20, seed=5, rules=SMALL, frame=False)
    other = connectk.arena("random", "medium", games=20, seed=6, rules=SMALL, frame=False)
    assert first == again
    assert [r["moves"] for r in first] != [r["moves"] for r in other]
    assert {r["outcome"] for r in first} <= {"P1", "P2", "Draw"}
    for record in first:
        end = connectk.Position.from_moves(record["moves"], SMALL)
        assert end.is_over and end.winner == record["outcome"]
        assert record["winning_indices"] == " ".join(map(str, end.winning_indices))


def test_arena_records_match_the_cli(cli, tmp_path):
    out = tmp_path / "games.csv"
    cli.run("arena", *cli.board_args(SMALL), "--p1", "easy", "--p2", "take-even",
            "--games", "12", "--seed", "9", "--out", str(out))
    with open(out) as f:
        theirs = list(csv.DictReader(f))
    ours = connectk.arena("easy", "take-even", games=12, seed=9, rules=connectk.Rules(
        k=4, width=5, height=4, rules="misere"), frame=False)
    assert [(r["seed"], r["moves"], r["outcome"]) for r in ours] == [
        (int(r["seed"]), r["moves"], r["outcome"]) for r in theirs
    ]


def test_a_python_callable_plays():
    def leftmost(position):
        return position.legal_moves()[0]

    records = connectk.arena(leftmost, "take-even", games=4, seed=3, rules=MISERE, frame=False)
    assert all(r["p1"] == "leftmost" and r["p2"] == "take-even" for r in records)
    # Take-even wins misère 7x6 as P2 against anything (Theorem 1).
    assert all(r["outcome"] == "P2" for r in records)
    assert records == connectk.arena(leftmost, "take-even", games=4, seed=3, rules=MISERE,
                                     frame=False)


def test_a_callable_and_a_named_player_seed_as_the_library_does():
    """A callable that plays as `random` would, seeded with the game's seed, gives the game
    the named players give: P1 draws from the game's seed, P2 from the seed plus one."""
    named = connectk.arena("random", "hard", games=1, seed=2, rules=SMALL, frame=False)[0]
    replay = connectk.Player("random", seed=named["seed"])
    mixed = connectk.arena(replay.choose, "hard", games=1, seed=2, rules=SMALL, frame=False)[0]
    assert mixed["moves"] == named["moves"] and mixed["seed"] == named["seed"]


def test_arena_returns_a_dataframe_with_pandas():
    pandas = pytest.importorskip("pandas")
    frame = connectk.arena("random", "random", games=3, seed=1, rules=SMALL)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns)[:7] == ["rules", "k", "width", "height", "p1", "p2", "seed"]
    assert len(frame) == 3


def test_tournament_skips_pairs_the_paper_does_not_cover():
    records = connectk.tournament(["random", "take-even"], games=2, seed=1, rules=MISERE,
                                  frame=False)
    pairs = {(r["p1"], r["p2"]) for r in records}
    assert pairs == {("random", "take-even")}


def test_verify_holds_and_refutes_as_the_paper_says():
    holds = connectk.verify("take-even", "P2", MISERE)
    assert holds and holds.holds and holds.positions == 72673 and holds.longest_game == 37
    small = connectk.Rules(k=4, width=3, height=4, rules="misere")
    refuted = connectk.verify("take-even", "P2", small)
    assert not refuted and refuted.line == "111122223333"
    assert refuted.reason == "the game ends draw: board full"
    tally = connectk.verify("tally", "P2", connectk.Rules(k=2, width=6, height=1, rules="misere"))
    assert tally.line == "163254"

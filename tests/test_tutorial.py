"""The tutorial's exercises: across many seeds, every answer is the one the engine gives."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.app.tutorial import (
    EXERCISES_TO_PASS,
    LESSONS,
    PRACTICE_LESSON,
    RULES,
    Course,
    Exercise,
    PracticeHand,
    Progress,
    exercise_seed,
    make_exercise,
    trick_kind,
)
from spades.app.tutorial.lessons import quoted
from spades.bots import make_bot
from spades.bots.hint import hint_bot_name
from spades.engine.cards import BLIND_NIL, NIL, NORTH, SOUTH
from spades.engine.rules import Rules
from spades.engine.scoring import (
    TeamResult,
    apply_bag_penalty,
    match_outcome,
    score_hand,
    score_players,
)
from spades.engine.state import SPADES, HandState, IllegalAction, Phase

SEEDS = st.integers(min_value=0, max_value=10**6)
QUICK_LESSONS = (1, 2, 3, 4, 6, 7, 8, 10)
MANY = settings(max_examples=60, deadline=None)


def _position(ex: Exercise) -> HandState:
    assert ex.position is not None
    return ex.position


def _wrong_pick(ex: Exercise) -> int | set[int]:
    """An answer that must be judged wrong."""
    if ex.kind == "cards":
        outside = [o.value for o in ex.options if o.value not in ex.answer]
        return set(ex.answer) - {min(ex.answer)} | set(outside[:1])
    return next(o.value for o in ex.options if o.value not in ex.answer)


def _north_south(ex: Exercise) -> TeamResult:
    """North/South's score of the exercise's hand, straight from the engine's scoring."""
    assert ex.case is not None and sum(ex.case.tricks) == 13
    case = ex.case
    hand = score_hand(
        RULES, bids=case.bids, blind=case.blind, tricks=case.tricks, bags_before=(0, 0)
    )
    return hand.teams[0]


def _fingerprint(ex: Exercise) -> tuple[object, ...]:
    return (ex.prompt, tuple(o.label for o in ex.options), ex.hand, ex.trick)


@MANY
@given(seed=SEEDS)
def test_following_suit_answer_is_every_card_the_engine_allows(seed: int) -> None:
    ex = make_exercise(2, seed)
    state = _position(ex)
    assert state.current_player == SOUTH and state.trick
    assert ex.hand == tuple(state.hand(SOUTH))
    for card in ex.hand:
        trial = state.clone()
        if card in ex.answer:
            trial.apply(card)
        else:
            with pytest.raises(IllegalAction):
                trial.apply(card)
    assert ex.check(ex.answer).correct


@MANY
@given(seed=SEEDS, lesson_no=st.sampled_from((2, 4)))
def test_the_cards_allowed_are_explained_in_the_engines_words(seed: int, lesson_no: int) -> None:
    ex = make_exercise(lesson_no, seed)
    state = _position(ex)
    for card in ex.hand:
        if card in ex.answer:
            continue
        with pytest.raises(IllegalAction) as refused:
            state.clone().apply(card)
        assert str(refused.value) in ex.explanation


def test_following_suit_seeds_cover_must_follow_and_void() -> None:
    must_follow = make_exercise(2, 0)
    led = _position(must_follow).trick[0] // 13
    assert {c // 13 for c in must_follow.answer} == {led}
    assert len(must_follow.answer) < len(must_follow.hand)
    void = make_exercise(2, 1)
    led = _position(void).trick[0] // 13
    assert all(c // 13 != led for c in void.hand)
    assert void.answer == set(void.hand)


@MANY
@given(seed=SEEDS, lesson_no=st.sampled_from((1, 3)))
def test_trick_winner_is_the_winner_when_the_engine_plays_the_trick(
    seed: int, lesson_no: int
) -> None:
    ex = make_exercise(lesson_no, seed)
    state = _position(ex).clone()
    assert not state.trick and state.current_player == ex.trick[0][0]
    for seat, card in ex.trick:
        assert state.current_player == seat
        state.apply(card)
    winner = state.tricks[-1].winner
    expected = dict(ex.trick)[winner] if lesson_no == 1 else winner
    assert ex.answer == {expected}
    assert ex.check(expected).correct
    assert not ex.check(_wrong_pick(ex)).correct


def test_trumped_tricks_are_taught_with_seeds_that_ask_for_them() -> None:
    for seed in range(0, 30, 3):
        ex = make_exercise(3, seed)
        state = _position(ex).clone()
        for _, card in ex.trick:
            state.apply(card)
        assert trick_kind(state.tricks[-1]) in ("trumped", "overtrumped")
        assert dict(ex.trick)[state.tricks[-1].winner] // 13 == SPADES


@MANY
@given(seed=SEEDS)
def test_leading_answer_is_every_card_the_engine_allows(seed: int) -> None:
    ex = make_exercise(4, seed)
    state = _position(ex)
    assert state.phase is Phase.PLAYING and state.current_player == SOUTH and not state.trick
    assert ex.answer == set(state.legal_actions())
    spades = {c for c in ex.hand if c // 13 == SPADES}
    assert spades, "a leading exercise is about spades, so the hand holds some"
    if seed % 3 == 0:
        assert not state.spades_broken and not spades & ex.answer
    elif seed % 3 == 1:
        assert state.spades_broken and ex.answer == set(ex.hand)
    else:
        assert not state.spades_broken and spades == set(ex.hand) == ex.answer


def test_only_spades_exception_explains_itself() -> None:
    ex = make_exercise(4, 2)
    assert "only spades" in ex.check(ex.answer).text
    wrong = ex.check(set(ex.answer) - {min(ex.answer)})
    assert not wrong.correct and "Missing" in wrong.text


def test_bidding_answer_holds_the_expert_bid() -> None:
    for seed in range(3):
        ex = make_exercise(5, seed)
        state = _position(ex)
        assert state.current_player == SOUTH and state.phase is Phase.BIDDING
        bot = make_bot(hint_bot_name(), seed=0)
        expert = bot.act(state.observation(SOUTH)) - NIL
        assert expert in ex.answer
        assert {o.value + NIL for o in ex.options} == set(state.legal_actions())
        assert ex.answer <= {expert - 1, expert, expert + 1}


@MANY
@given(seed=SEEDS)
def test_nil_exercises_follow_the_engine(seed: int) -> None:
    ex = make_exercise(6, seed)
    if seed % 3 == 0:
        state = _position(ex)
        assert state.bids[NORTH] == 0 and state.tricks_won[NORTH] == 0
        assert len(state.trick) == 3
        for card in ex.hand:
            trial = state.clone()
            if not trial.can(card):
                assert card not in ex.answer
                continue
            trial.apply(card)
            assert (trial.tricks[-1].winner != NORTH) == (card in ex.answer)
    elif seed % 3 == 1:
        state = _position(ex)
        assert ex.scores == state.scores and state.current_player == SOUTH
        assert ex.answer == {int(BLIND_NIL in state.legal_actions())}
    else:
        team = _north_south(ex)
        nil_points = [line.points for line in team.lines if "nil" in line.kind]
        assert ex.answer == set(nil_points)
    assert ex.check(min(ex.answer)).correct
    assert not ex.check(_wrong_pick(ex)).correct


def test_blind_nil_needs_a_deficit_of_one_hundred() -> None:
    seen = set()
    for seed in range(1, 200, 3):
        ex = make_exercise(6, seed)
        assert ex.scores is not None
        allowed = ex.scores[1] - ex.scores[0] >= 100
        assert ex.answer == {int(allowed)}
        seen.add(allowed)
    assert seen == {True, False}


@MANY
@given(seed=SEEDS)
def test_scoring_answer_is_the_engines_points_with_its_breakdown(seed: int) -> None:
    ex = make_exercise(7, seed)
    team = _north_south(ex)
    assert ex.answer == {team.points}
    assert sum(o.value == team.points for o in ex.options) == 1
    assert all(line.text in ex.explanation for line in team.lines)
    assert not ex.check(_wrong_pick(ex)).correct


def test_scoring_covers_made_set_and_nil() -> None:
    kinds = set()
    for seed in range(40):
        kinds |= {line.kind for line in _north_south(make_exercise(7, seed)).lines}
    assert {"contract_made", "contract_set", "nil_made", "nil_failed", "bags"} <= kinds


@MANY
@given(seed=SEEDS)
def test_bags_and_game_end_answers_come_from_scoring(seed: int) -> None:
    ex = make_exercise(8, seed)
    picked = ex.label(min(ex.answer))
    if ex.bags is not None:
        penalty, after = apply_bag_penalty(RULES, *ex.bags)
        assert (f"−{penalty} points" if penalty else "No penalty") in picked
        assert f"{after} bag" in picked
    else:
        assert ex.scores is not None
        outcome = match_outcome(RULES, ex.scores)
        if not outcome.over:
            assert picked == "Another hand is played"
        else:
            assert picked == ("North/South win", "East/West win")[outcome.winner or 0]
    assert not ex.check(_wrong_pick(ex)).correct


@MANY
@given(seed=SEEDS)
def test_cutthroat_answers_are_the_engines_for_three_players(seed: int) -> None:
    ex = make_exercise(10, seed)
    picked = ex.label(min(ex.answer))
    three = Rules(players=3, partnerships=False)
    if ex.scores is None:
        # "You bid B and took T": the learner's own score, with nobody's tricks but theirs.
        assert ex.case is not None and sum(ex.case.tricks) == three.hand_size
        bid, took = map(int, re.findall(r"\d+", ex.prompt)[:2])
        assert (ex.case.bids[SOUTH], ex.case.tricks[SOUTH]) == (bid, took)
        mine = score_players(
            three,
            bids=ex.case.bids,
            blind=ex.case.blind,
            tricks=ex.case.tricks,
            bags_before=(0, 0, 0),
        ).players[SOUTH]
        assert ex.answer == {mine.points} and picked == f"{mine.points:+d}"
    else:
        outcome = match_outcome(three, ex.scores)
        if not outcome.over:
            assert picked == "Another hand is played"
        else:
            assert picked == ("Left wins", "Right wins", "You win")[outcome.winner or 0]
    assert not ex.check(_wrong_pick(ex)).correct


def test_cutthroat_end_cases_include_every_ending() -> None:
    outcomes = {
        make_exercise(10, seed).label(min(make_exercise(10, seed).answer))
        for seed in range(1, 41, 2)
    }
    assert outcomes == {"Left wins", "Right wins", "You win", "Another hand is played"}


def test_the_lessons_quote_the_rules_and_the_engines_scoring() -> None:
    numbers = quoted(Rules(target_score=300, mercy_score=-500, bag_limit=5, bag_penalty=50))
    assert (numbers["target"], numbers["mercy"], numbers["bag_limit"]) == (300, "−500", 5)
    assert numbers["bag_penalty"] == 50
    made_nil = (
        score_hand(
            RULES,
            bids=(0, 3, 4, 6),
            blind=(True, False, False, False),
            tricks=(0, 3, 4, 6),
            bags_before=(0, 0),
        )
        .teams[0]
        .lines[0]
    )
    assert quoted(RULES)["blind_nil"] == made_nil.points == 200
    texts = {item.number: item.explanation for item in LESSONS}
    assert "{" not in "".join(texts.values())
    assert f"±{quoted(RULES)['nil']}" in texts[7] and f"**{RULES.target_score}**" in texts[8]
    assert f"**{quoted(RULES)['mercy']}**" in texts[8]
    assert f"{Rules(players=3, partnerships=False).hand_size} cards" in texts[10]


def test_game_end_cases_include_every_ending() -> None:
    outcomes = set()
    for seed in range(1, 17, 2):
        ex = make_exercise(8, seed)
        outcomes.add(ex.label(min(ex.answer)))
    assert outcomes == {"North/South win", "East/West win", "Another hand is played"}


@pytest.mark.parametrize("lesson_no", QUICK_LESSONS)
def test_seed_zero_is_the_same_first_example_every_time(lesson_no: int) -> None:
    first, again = make_exercise(lesson_no, 0), make_exercise(lesson_no, 0)
    assert _fingerprint(first) == _fingerprint(again) and first.answer == again.answer
    assert exercise_seed(1, lesson_no, 0) == exercise_seed(99, lesson_no, 0) == 0


@pytest.mark.parametrize("lesson_no", QUICK_LESSONS)
def test_practice_exercises_do_not_repeat(lesson_no: int) -> None:
    seeds = {exercise_seed(5, lesson_no, i) for i in range(1, 13)}
    assert len(seeds) == 12 and 0 not in seeds
    prints = {_fingerprint(make_exercise(lesson_no, s)) for s in seeds}
    assert len(prints) >= 10
    other_session = {exercise_seed(6, lesson_no, i) for i in range(1, 13)}
    assert seeds != other_session


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, lesson_no=st.sampled_from(QUICK_LESSONS))
def test_every_wrong_answer_says_why(seed: int, lesson_no: int) -> None:
    ex = make_exercise(lesson_no, seed)
    right = ex.answer if ex.kind == "cards" else min(ex.answer)
    assert ex.check(right).text.startswith("Right.")
    wrong = ex.check(_wrong_pick(ex))
    assert not wrong.correct
    assert wrong.text.startswith("Not") and len(wrong.text) > len("Not quite. ") + 20


def test_illegal_card_feedback_quotes_the_engine() -> None:
    ex = make_exercise(2, 0)
    state = _position(ex)
    illegal = next(c for c in ex.hand if c not in ex.answer)
    with pytest.raises(IllegalAction) as err:
        state.clone().apply(illegal)
    assert str(err.value) in ex.check({illegal}).text


def test_unknown_lessons_and_seeds_are_refused() -> None:
    with pytest.raises(ValueError, match="lesson 9 has no exercises"):
        make_exercise(PRACTICE_LESSON, 0)
    with pytest.raises(ValueError, match="seed"):
        make_exercise(2, -1)
    with pytest.raises(ValueError, match="not options"):
        make_exercise(7, 0).check(12345)


def test_a_lesson_is_done_after_enough_right_answers() -> None:
    progress = Progress()
    progress.record(2, correct=False, first_attempt=True)
    progress.record(2, correct=True, first_attempt=False)
    assert progress.first_try_totals() == (0, 1) and 2 not in progress.done
    for _ in range(EXERCISES_TO_PASS - 1):
        progress.record(2, correct=True, first_attempt=True)
    assert 2 in progress.done
    assert progress.first_try_totals() == (EXERCISES_TO_PASS - 1, EXERCISES_TO_PASS)
    assert not progress.finished
    for item in LESSONS:
        progress.complete(item.number)
    assert progress.finished


def test_course_builds_a_card_answer_and_counts_only_the_first_try() -> None:
    course = Course(base_seed=3)
    course.go(2)
    ex = course.exercise
    assert ex is not None and ex.seed == 0
    wrong = next(c for c in ex.hand if c not in ex.answer)
    course.toggle(wrong)
    assert not course.answer().correct
    course.toggle(wrong)
    for card in ex.answer:
        course.toggle(card)
    assert course.answer().correct and course.solved
    assert course.progress.first_try_totals() == (0, 1)
    course.next_exercise()
    assert course.exercise is not None and course.exercise.seed == exercise_seed(3, 2, 1)
    assert course.picked == [] and course.feedback is None


def test_practice_hand_explains_a_card_other_than_the_experts() -> None:
    hand = PracticeHand(0, table_bot="random")
    differed = agreed = 0
    while not hand.is_over:
        advice = hand.advice()
        legal = hand.state.legal_actions()
        others = [a for a in legal if a != advice.action]
        # Alternate: follow the expert, then pick something else when there is a choice.
        choice = others[0] if others and len(hand.turns) % 2 else advice.action
        note = hand.act(choice)
        if choice == advice.action:
            agreed += 1
            assert note == ""
        else:
            differed += 1
            assert hand.state.describe(advice.action) in note
    review = hand.review()
    result = hand.state.result()
    assert f"{result.teams[0].points:+d} points" in review[1]
    assert f"in {agreed} of {agreed + differed} decisions" in review[3]
    assert len(review) == 4 + differed


def test_practice_hand_refuses_an_illegal_card_and_changes_nothing() -> None:
    hand = PracticeHand(0, table_bot="random")
    before = list(hand.state.history)
    with pytest.raises(IllegalAction):
        hand.act(BLIND_NIL)
    assert hand.state.history == before and not hand.turns


def test_finishing_the_practice_hand_completes_the_lesson() -> None:
    course = Course(base_seed=1)
    course.go(PRACTICE_LESSON)
    assert course.practice is not None
    course.practice.bots = {seat: make_bot("random", seed=seat) for seat in course.practice.bots}
    while not course.practice.is_over:
        course.practice_act(course.practice.state.legal_actions()[0])
    assert PRACTICE_LESSON in course.progress.done


def test_a_click_left_over_from_another_exercise_changes_nothing() -> None:
    course = Course(base_seed=2)
    course.go(2)
    ex = course.exercise
    assert ex is not None
    stranger = next(c for c in range(52) if c not in ex.hand)
    course.toggle(stranger)
    assert course.picked == []
    course.go(7)
    with pytest.raises(ValueError, match="not options"):
        course.answer(123456)
    assert course.progress.tried == {} and course.feedback is None


def test_a_lesson_opened_again_goes_on_with_a_fresh_exercise() -> None:
    course = Course(base_seed=4)
    course.go(3)
    assert course.exercise is not None and course.exercise.seed == 0
    course.next_exercise()
    course.go(3)
    assert course.index == 1, "opening the lesson already open keeps its exercise"
    course.go(1)
    course.go(3)
    assert course.index == 2
    assert course.exercise is not None
    assert course.exercise.seed == exercise_seed(4, 3, 2)

"""A provider's 429s shared by a run's worker processes (models/shared_refusals.py): the
streak's file, its turns and its accounting, over generated inputs and real processes.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.models import shared_refusals
from skynet_jupyter.models.rate_limit import _backoff, implied_pause
from skynet_jupyter.models.shared_refusals import SharedStreak, Streak

ENDPOINT = ("openai/gpt-4o-mini", "http://127.0.0.1:9/v1")


class Gone(Exception):
    pass


class Refused(Exception):
    pass


def turn(streak: SharedStreak, timeout: float = 60.0, abandoned=lambda: False) -> None:
    streak.take_turn(timeout, abandoned=abandoned, refused=Refused, gone=Gone)


def test_no_folder_no_sharing(tmp_path):
    assert SharedStreak.of(None, ENDPOINT) is None
    assert SharedStreak.of(str(tmp_path / "gone"), ENDPOINT) is None  # the run ended
    one, other = SharedStreak.of(str(tmp_path), ENDPOINT), SharedStreak.of(str(tmp_path), ENDPOINT)
    assert one == other  # every process of the run finds the same file
    assert one != SharedStreak.of(str(tmp_path), ("openai/gpt-4o", ENDPOINT[1]))


def test_without_a_streak_a_request_goes_at_once(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    started = time.monotonic()
    turn(streak)
    streak.answered()  # nothing to end: no file, no lock made
    assert time.monotonic() - started < 0.05
    assert list(tmp_path.iterdir()) == []


def test_a_429_pauses_the_next_request_and_an_answer_ends_the_streak(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    assert streak.refused(None, 60.0, implied_pause) is False
    started = time.monotonic()
    turn(streak)
    assert 0.4 <= time.monotonic() - started < 1.0  # the implied 0.5 s
    streak.answered()
    started = time.monotonic()
    turn(streak)
    assert time.monotonic() - started < 0.05


def test_a_retry_after_is_the_pause(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(0.2, 60.0, implied_pause)
    started = time.monotonic()
    turn(streak)
    assert 0.15 <= time.monotonic() - started < 0.45


def test_one_request_takes_the_turn_the_others_wait_for_its_answer(tmp_path):
    """Eight callers once the pause is over: one goes; the others wait until its answer
    ends the streak (as one process's window lets one request through a refusing
    endpoint), or until its 429 and the pause that follows."""
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(0.05, 60.0, implied_pause)
    time.sleep(0.1)
    went: list[float] = []
    lock = threading.Lock()

    def caller() -> None:
        turn(SharedStreak.of(str(tmp_path), ENDPOINT))
        with lock:
            went.append(time.monotonic())

    threads = [threading.Thread(target=caller) for _ in range(8)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    assert len(went) == 1  # the turn's holder; the others wait for its answer
    streak.answered()
    for thread in threads:
        thread.join(5)
    assert len(went) == 8 and all(at - began >= 0.3 for at in sorted(went)[1:])


def test_the_turns_answer_ends_the_turn(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(0.01, 60.0, implied_pause)
    time.sleep(0.02)
    turn(streak)  # takes the turn: the next caller would wait two seconds for its answer
    streak.refused(0.01, 60.0, implied_pause)  # its answer, a 429
    started = time.monotonic()
    turn(streak)  # waits the 429's pause only, not the turn's two seconds
    assert time.monotonic() - started < 0.3


def test_a_streak_that_lasted_the_timeout_refuses_all_but_the_probe(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(None, 0.3, implied_pause)
    time.sleep(0.35)
    assert streak.refused(None, 0.3, implied_pause) is True  # refused for 0.35 s of 0.3
    with pytest.raises(Refused):  # its pause runs: no request but the probe after it
        turn(streak, timeout=0.3)
    kept = streak._read()
    assert kept is not None
    time.sleep(max(0.0, kept.until - time.time()) + 0.05)
    turn(streak, timeout=0.3)  # the probe: the pause is over
    with pytest.raises(Refused):  # the others fail at once while the probe is out
        turn(streak, timeout=0.3)


def test_a_case_given_up_stops_waiting(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(30.0, 60.0, implied_pause)
    given_up = threading.Event()
    threading.Timer(0.2, given_up.set).start()
    started = time.monotonic()
    with pytest.raises(Gone):
        turn(streak, abandoned=given_up.is_set)
    assert time.monotonic() - started < 1.0


def test_a_damaged_file_is_no_streak(tmp_path):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    damaged = ("", "{", "[1, 2]", '["a", 1, 1, 1, 1, 1]', "[0, 0, -1, 0, 0, 0]", "null")
    for text in (*damaged, "[0, 0, 1, 0, 1e400, 0]", "[0, 0, 1, 0, 0, NaN]"):
        (tmp_path / streak.path.rsplit("/", 1)[1]).write_text(text)
        turn(streak)  # goes at once
        assert streak.refused(None, 60.0, implied_pause) is False  # a new streak, written whole
        streak.answered()


def _refuse_in_a_child(path: str, ready) -> None:
    SharedStreak(path).refused(1.0, 60.0, implied_pause)
    ready.set()


def test_another_process_waits_for_the_pause_a_429_set(tmp_path):
    """The point of the module: a 429 seen by one worker process holds back another's."""
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    context = multiprocessing.get_context("spawn")
    ready = context.Event()
    child = context.Process(target=_refuse_in_a_child, args=(streak.path, ready))
    child.start()
    assert ready.wait(60)
    child.join(30)
    started = time.monotonic()
    turn(streak)
    assert 0.5 <= time.monotonic() - started < 1.5


# --- the accounting, over generated streaks --------------------------------------------

_PAUSES = st.one_of(st.none(), st.floats(0.0, 120.0))


@settings(max_examples=200, deadline=None)
@given(
    timeout=st.floats(0.1, 120.0),
    refusals=st.lists(st.tuples(st.floats(0.0, 30.0), _PAUSES), min_size=1, max_size=30),
)
def test_the_streaks_accounting(tmp_path_factory, timeout, refusals):
    """Over any 429s (the time since the last one, the Retry-After they carry): the 429s
    in a row and the streak's start are counted as one process counts them; no pause
    goes past the moment the streak reaches the refusal timeout; the streak refuses
    exactly when its 429s lasted the timeout; and an idle spell begins a new streak."""
    folder = tmp_path_factory.mktemp("streak")
    streak = SharedStreak.of(str(folder), ENDPOINT)
    now = 1_000_000.0
    since, last, in_row, pause = now, now, 0, 0.0
    with mock.patch.object(shared_refusals.time, "time", lambda: now):
        for gap, asked in refusals:
            now += gap
            was_refusing = in_row > 0 and last - since >= timeout
            if in_row == 0 or (now - last > timeout + pause and not was_refusing):
                since, in_row = now, 0
            in_row += 1
            last = now
            refusing = streak.refused(asked, timeout, implied_pause)
            kept = streak._read()
            assert kept is not None
            assert (kept.since, kept.last, kept.in_row) == (since, last, in_row)
            if asked is not None and asked > 0:
                pause = asked  # a Retry-After is honoured whole
            else:
                pause = _backoff(in_row)
                if since + timeout > now:  # cut to the refusal timeout, never past it
                    pause = min(pause, max(0.05, since + timeout - now))
                assert pause >= min(_backoff(in_row), 0.05)  # never a stream of requests
            assert kept.pause == pytest.approx(pause)
            assert kept.until >= now + pause - 1e-9
            assert refusing is (last - since >= timeout)


@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=5, max_size=5),
    st.integers(0, 10**6),
)
def test_a_streak_reads_back_as_written(numbers, in_row):
    since, last, pause, until, turn = numbers
    streak = Streak(since, last, in_row, pause, until, turn)
    assert Streak.from_json(streak.to_json()) == streak


@given(st.recursive(st.none() | st.booleans() | st.floats() | st.text(), st.lists))
def test_anything_else_reads_as_no_streak_or_a_streak(data):
    read = Streak.from_json(data)  # never raises
    assert read is None or read.in_row >= 0


def test_a_streak_that_refused_everything_is_not_begun_anew_by_a_late_429(tmp_path):
    """A case that hung past the stop and asks again (its 429 long after the last) meets
    the refusing streak, not a new one: it fails at once instead of starting the retries
    over (the attack's scenario sent 3 more requests after the run had stopped)."""
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(None, 0.2, implied_pause)
    time.sleep(0.25)
    assert streak.refused(None, 0.2, implied_pause) is True
    time.sleep(0.5)  # idle longer than the limit and the pause
    assert streak.refused(None, 0.2, implied_pause) is True
    with pytest.raises(Refused):
        turn(streak, timeout=0.2)


def test_past_the_stop_a_probe_waits_the_whole_backoff(tmp_path):
    """Once the refusals lasted the limit, the pause is no longer cut to it: what still
    asks is a probe every backoff, not a request every 0.05 s."""
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(None, 0.2, implied_pause)
    time.sleep(0.25)
    streak.refused(None, 0.2, implied_pause)  # the 2nd in a row, past the limit: 1 s
    kept = streak._read()
    assert kept is not None and kept.pause == pytest.approx(1.0)


@pytest.mark.parametrize("asked", [0.0, None])
def test_a_429_that_asks_for_no_pause_is_paced_as_one_without(tmp_path, asked):
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(asked, 60.0, implied_pause)
    kept = streak._read()
    assert kept is not None and kept.pause == pytest.approx(0.5)


def test_a_long_retry_after_is_honoured_whole(tmp_path):
    """Threads wait a Retry-After whole: so do the run's processes (cut to the refusal
    limit, another worker asked 8 s before the provider allowed it)."""
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(10.0, 2.0, implied_pause)
    kept = streak._read()
    assert kept is not None and kept.pause == 10.0 and kept.until - kept.last == 10.0


class Closed(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


def test_a_pause_longer_than_any_call_waits_fails_every_call_at_once(tmp_path):
    """An hour asked for (a quota window), past the 300 s a call waits: the other
    processes' calls fail at once, saying what is left, instead of waiting an hour."""
    streak = SharedStreak.of(str(tmp_path), ENDPOINT)
    streak.refused(3600.0, 60.0, implied_pause)
    started = time.monotonic()
    with pytest.raises(Closed) as closed:
        streak.take_turn(
            60.0, abandoned=lambda: False, refused=Refused, gone=Gone, longest=300.0, closed=Closed
        )
    assert time.monotonic() - started < 0.5
    assert 3590 < closed.value.seconds <= 3600

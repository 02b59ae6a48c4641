"""Issue 34, item 2: every magic runs one resolve → view → call skeleton.

A failing call closes the magic's live view (shown at its first event) and ends
the magic the same way in every magic: the same errors are a one-line
``UsageError`` (bad data in the run's language, a broken rule, a wrong keyword, no
model for a role, no gepa); any other error is raised as it is, its view closed too.
Before, %skynet_check and the quality magics left their view open, and each magic
caught different errors.

The work behind each magic is replaced by a stand-in that feeds its listener one
event (the view shows) and then fails; the views record what is done to them.
"""

from __future__ import annotations

import importlib

import pytest
from IPython.core.error import UsageError

import skynet_jupyter as sj
from skynet_jupyter.core.errors import DataError
from skynet_jupyter.models.settings import ModelNotConfigured
from skynet_jupyter.notebook import session as session_module
from skynet_jupyter.notebook.widgets import LiveView
from skynet_jupyter.notebook.widgets._align_view import AlignView
from skynet_jupyter.notebook.widgets._optimize_view import OptimizeView
from skynet_jupyter.notebook.widgets._quality_views import QualityView
from tests.quality_support import labelled_shell

ROWS = "--outputs label --output-column label"
RUN = "--outputs label --run classify --artifact prompt"

# magic -> (its line, the module and name of the function its work calls)
MAGICS = {
    "check": (f"skynet_check --data tickets {ROWS}", "skynet_jupyter.run.engine", "execute"),
    "eval": (f"skynet_eval --data tickets {ROWS}", "skynet_jupyter.run.engine", "execute"),
    "probe": (f"skynet_probe --data tickets {ROWS}", "skynet_jupyter.quality.probe", "probe_with"),
    "stability": (
        f"skynet_stability --data tickets {ROWS}",
        "skynet_jupyter.quality.stability",
        "stability_with",
    ),
    "agree": (
        f"skynet_agree --data labelled {ROWS} --labels human",
        "skynet_jupyter.quality.agreement",
        "agreement_with",
    ),
    "compare": (
        f"skynet_compare default lenient --data tickets {ROWS}",
        "skynet_jupyter.quality.compare",
        "compare_with",
    ),
    "optimize": (
        f"skynet_optimize --data tickets {RUN}",
        "skynet_jupyter.optimizers.optimize",
        "optimize_with",
    ),
    "align": (
        f"skynet_align --data labelled {ROWS} --labels human",
        "skynet_jupyter.alignment.align",
        "align_with",
    ),
}

VIEWS = (LiveView, QualityView, OptimizeView, AlignView)


def _gepa_missing() -> Exception:
    from skynet_jupyter.optimizers.gepa_adapter import GepaMissing

    return GepaMissing("The optimizer needs the gepa library.")


# What the stand-in raises -> the one line the magic ends with (in French: --lang fr).
USAGE_ERRORS = {
    "data": (lambda: DataError("data.no_file", path="x.csv"), "Aucun fichier de données"),
    "rule": (lambda: ValueError("budget must be a whole number."), "budget must be a whole"),
    "keyword": (lambda: TypeError("unknown keyword 'budjet'."), "unknown keyword 'budjet'."),
    "model": (lambda: ModelNotConfigured("reflection"), "reflection"),
    "gepa": (_gepa_missing, "needs the gepa library"),
}


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with labelled_shell(tmp_path, monkeypatch) as shell:
        yield shell


@pytest.fixture
def seen(monkeypatch):
    """What is done to any magic's view: "show", "event", "close", in order."""
    done: list[str] = []
    for view in VIEWS:
        monkeypatch.setattr(view, "show", lambda self: done.append("show"))
        monkeypatch.setattr(view, "on_event", lambda self, event: done.append("event"))
        monkeypatch.setattr(view, "close", lambda self: done.append("close"))
    return done


def _failing(monkeypatch, magic: str, make_error) -> None:
    """The function behind ``magic`` feeds its listener one event, then raises."""
    _, module, name = MAGICS[magic]

    def stand_in(*args, on_event=None, **options):
        on_event("started")
        raise make_error()

    # By the module object: skynet_jupyter.quality.probe, as a dotted name, is the function.
    monkeypatch.setattr(importlib.import_module(module), name, stand_in)


@pytest.mark.parametrize("error", list(USAGE_ERRORS))
@pytest.mark.parametrize("magic", list(MAGICS))
def test_a_failing_call_closes_the_view_and_ends_as_one_usage_line(
    shell, seen, monkeypatch, magic, error
):
    make_error, words = USAGE_ERRORS[error]
    _failing(monkeypatch, magic, make_error)
    line = MAGICS[magic][0]
    name, _, rest = line.partition(" ")
    with pytest.raises(UsageError) as ended:
        shell.run_line_magic(name, f"{rest} --lang fr")
    assert words in str(ended.value)
    assert seen == ["show", "event", "close"]


@pytest.mark.parametrize("magic", list(MAGICS))
def test_an_error_that_is_not_the_users_closes_the_view_and_is_raised_as_it_is(
    shell, seen, monkeypatch, magic
):
    _failing(monkeypatch, magic, lambda: KeyError("a bug of ours"))
    name, _, rest = MAGICS[magic][0].partition(" ")
    with pytest.raises(KeyError, match="a bug of ours"):
        shell.run_line_magic(name, rest)
    assert seen == ["show", "event", "close"]


@pytest.mark.parametrize("magic", list(MAGICS))
def test_a_silenced_magic_has_no_view_and_ends_the_same_way(shell, seen, monkeypatch, magic):
    def stand_in(*args, on_event=None, **options):
        assert on_event is None  # ';' hides the view: nothing listens
        raise ValueError("budget must be a whole number.")

    _, module, function = MAGICS[magic]
    monkeypatch.setattr(importlib.import_module(module), function, stand_in)
    name, _, rest = MAGICS[magic][0].partition(" ")
    with pytest.raises(UsageError, match="budget must be a whole number"):
        shell.run_line_magic(name, f"{rest};")
    assert seen == []


def test_the_skeleton_closes_the_view_on_an_interrupt_and_lets_it_through():
    done: list[str] = []

    class View:
        def show(self) -> None:
            done.append("show")

        def on_event(self, event: object) -> None:
            done.append("event")

        def close(self) -> None:
            done.append("close")

    def interrupted(listener):
        listener("started")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        session_module.call_showing(View(), interrupted)
    assert done == ["show", "event", "close"]


def test_an_unusable_name_is_a_usage_line_before_any_view(shell, seen):
    with pytest.raises(UsageError, match="--data nowhere"):
        shell.run_line_magic("skynet_probe", f"--data nowhere {ROWS}")
    assert seen == []


def test_the_returned_report_is_the_calls_own(shell):
    # The skeleton returns what the call returned (here through %skynet_eval, unpatched).
    report = shell.run_line_magic("skynet_eval", f"--data tickets {ROWS};")
    assert isinstance(report, sj.EvalReport)
    assert report.mean_score == 1.0

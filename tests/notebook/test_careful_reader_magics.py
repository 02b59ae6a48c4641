"""Issue 25, items 12-14 and 17: the small things a careful reader trips on, through the magics.

The same scenarios through the API are in tests/run/test_careful_reader_cases.py,
tests/show/test_legend_words.py and tests/quality/test_probe_words.py.  Each
message is read in English, French and Portuguese (``%config SkynetMagics.lang``).
"""

from __future__ import annotations

import re

import pytest

from skynet_jupyter.i18n import LANGUAGES, ends_sentence, t
from skynet_jupyter.notebook.check_failed import CheckFailed
from skynet_jupyter.show.render import marks_legend
from tests.notebook.test_said_once_magics import cell
from tests.run.test_careful_reader_cases import EMAILS, METRIC, first_line
from tests.show.test_legend_words import DANGLING

LANGS = pytest.mark.parametrize("lang", LANGUAGES)


@pytest.fixture
def shell(shell):
    """conftest.py's shell with the emails, a run function that wants text, and a number."""
    shell.user_ns.update(emails=EMAILS, first_line=first_line, year=2024)
    return shell


def run_error_and_note(lang: str) -> tuple[str, str]:
    """The run step's error for ``first_line(2024, ...)`` and the inputs note, in ``lang``."""
    error = "AttributeError: 'int' object has no attribute 'splitlines'"  # Python's words
    return error, t("data.inputs_chosen", lang, columns="email")


# --- 12. the run step's error and the inputs note are two sentences ---------------------


@LANGS
def test_the_run_error_and_the_inputs_note_read_apart_in_the_checkfailed_line(shell, lang):
    cell(shell, "%%skynet_metric\n" + METRIC, lang)[0].raise_error()
    result, captured = cell(
        shell, "%skynet_check --data emails --outputs date --run first_line --artifact year", lang
    )
    problem = result.error_in_exec
    assert isinstance(problem, CheckFailed)
    error, note = run_error_and_note(lang)
    assert f"{error}. {note}" in str(problem)
    assert f"{error} {note}" not in str(problem)
    assert f"{error}. {note}" in captured.stdout  # the summary above it says the same


@LANGS
def test_the_run_error_and_the_inputs_note_read_apart_in_the_edit_loop(shell, lang):
    cell(shell, "%%skynet_metric\n" + METRIC, lang)[0].raise_error()
    cell(shell, "%skynet_check --data emails --outputs date --run first_line --artifact year", lang)
    result, captured = cell(shell, "%%skynet_metric\n" + METRIC.replace("Compared", "Read"), lang)
    result.raise_error()
    _, note = run_error_and_note(lang)
    said = " ".join(captured.stdout.split())
    assert t("magic.rechecked", lang, name="default", outcome="")[:12] in said
    assert note in said
    assert ends_sentence(said.split(note)[0]), said  # whatever the run step said before it


# --- 13. the legend under the case table reads as a sentence ---------------------------


@LANGS
def test_the_check_view_shows_the_legend_as_a_sentence(shell, lang):
    import html

    shell.user_ns.update(echo_date=lambda artifact, input: artifact)
    cell(shell, "%%skynet_metric\n" + METRIC, lang)[0].raise_error()
    result, captured = cell(
        shell,
        "%skynet_check --data emails --outputs date --run echo_date --artifact '2024-03-14'",
        lang,
    )
    assert isinstance(result.error_in_exec, CheckFailed) or result.success
    shown = html.unescape(" ".join(str(output.data) for output in captured.outputs))
    assert marks_legend(lang) in shown
    assert not re.search(DANGLING[lang], shown)


# --- 14. the probe table's columns; the injection finding blames a judge only if called --


@LANGS
def test_the_probe_magic_names_each_column_once_and_blames_no_judge_it_never_called(shell, lang):
    from tests.quality.test_probe_words import CONTAINS, answer_billing, judge_obeys

    shell.user_ns.update(tickets=__import__("skynet_jupyter").load_example("tickets"))
    shell.user_ns.update(answer_billing=answer_billing)
    cell(shell, "%%skynet_metric\n" + CONTAINS, lang)[0].raise_error()
    result, captured = cell(
        shell,
        "%skynet_probe --data tickets --outputs label --run answer_billing --artifact '-'"
        " --cases 4",
        lang,
    )
    report = result.result
    assert report is not None, (result.error_in_exec, captured.stdout)
    assert report.finding("injection") is not None
    shown = " ".join(str(output.data) for output in captured.outputs)
    assert t("quality.probe.col_expected", lang) in shown
    assert judge_obeys(lang) not in shown
    assert judge_obeys(lang) not in report.finding("injection").message

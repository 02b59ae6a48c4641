"""Data files keep their meaning: JSON in CSV cells, cell types, what goes in ``input``.

The docs' "several checks" metric, gepa's ``ContainsAnswerEvaluator`` ported
to a metric, and the human-label column of an agreement, run for real through
``check``, the ``skynet-check`` console script and the magics in a real shell.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import ipywidgets
import pandas as pd
import pytest
from IPython.utils.capture import capture_output

import skynet_jupyter as sj
from skynet_jupyter.core.dataset import DataError, load_cases
from skynet_jupyter.core.metric import load_function
from skynet_jupyter.quality import agreement
from tests import cli_support

# The docs' "several checks" example (docs/*/scorers.md), as written.
SEVERAL_CHECKS = """\
import json


def score(input, output, expected=None):
    try:
        data = json.loads(output)
    except ValueError as exc:
        return 0.0, {"feedback": f"Output is not valid JSON: {exc}", "scores": {"format": 0.0, "fields": 0.0}}
    want = expected["fields"]
    found = [key for key in want if key in data]
    fields = len(found) / len(want) if want else 1.0
    missing = [key for key in want if key not in data]
    feedback = "All fields present." if not missing else f"Missing fields: {', '.join(missing)}."
    return 0.5 + 0.5 * fields, {"feedback": feedback, "scores": {"format": 1.0, "fields": fields}}
"""  # noqa: E501 (the docs' example, as written)

EXTRACT = """\
import json


def run(artifact, input):
    parts = [part.strip() for part in input["text"].split(",")]
    found = {"name": parts[0]}
    for part in parts[1:]:
        found["email" if "@" in part else "phone"] = part
    return json.dumps(found)
"""

FIELDS_CSV = (
    "text,fields\n"
    '"Ann, ann@example.com","[""name"", ""email""]"\n'
    '"Bob, 555-1234","[""name"", ""phone""]"\n'
    '"Cy, cy@example.com, 555-9","[""name"", ""email"", ""phone""]"\n'
)

# gepa's ContainsAnswerEvaluator (gepa.adapters.default_adapter), ported to a metric.
CONTAINS_ANSWER = """\
def score(input, output, expected=None):
    is_correct = expected["answer"] in output
    if is_correct:
        feedback = f"The generated response is correct. The response include the correct answer '{expected['answer']}'"
        return 1.0, {"feedback": feedback}
    feedback = (
        f"The generated response is incorrect. The correct answer is '{expected['answer']}'. "
        "Ensure that the correct answer is included in the response exactly as it is."
    )
    return 0.0, {"feedback": feedback}
"""  # noqa: E501 (gepa's wording, as written)


@pytest.fixture
def fields(tmp_path):
    (tmp_path / "metric.py").write_text(SEVERAL_CHECKS, encoding="utf-8")
    (tmp_path / "run.py").write_text(EXTRACT, encoding="utf-8")
    (tmp_path / "cases.csv").write_text(FIELDS_CSV, encoding="utf-8")
    return tmp_path


def several_checks(folder: Path, **options):
    return sj.check(
        str(folder / "metric.py"),
        folder / "cases.csv",
        outputs="fields",
        run=f"{folder / 'run.py'}:run",
        artifact="Extract the fields.",
        **options,
    )


def skynet_check(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed console script, through the one runner (tests/cli_support.py)."""
    return cli_support.skynet_check(*args, how="script", timeout=180)


# --- JSON inside CSV cells ---------------------------------------------------------------


def test_several_checks_passes_wrongly_without_json_columns_and_the_advice_says_why(fields):
    report = several_checks(fields)
    # The trap: the check passes, the metric looping over the characters of a string.
    assert report.passed
    assert report.cases[0].expected == {"fields": '["name", "email"]'}
    assert [case.score for case in report.cases] == [0.5, 0.5, 0.5]
    assert report.cases[0].feedback.startswith('Missing fields: [, ", n, a, m, e')
    advice = report.step("feedback_advice")
    assert advice.status == "advice"
    assert (
        "The column 'fields' of the CSV/TSV file holds text that looks like JSON "
        '(such as \'["name", "email"]\')' in advice.message
    )
    assert "pass json_columns=['fields'] (--json-columns fields)" in advice.message


def test_several_checks_is_right_with_json_columns(fields):
    report = several_checks(fields, json_columns=["fields"])
    assert report.passed
    assert report.cases[0].expected == {"fields": ["name", "email"]}
    assert [case.score for case in report.cases] == [1.0, 1.0, 1.0]
    assert {case.feedback for case in report.cases} == {"All fields present."}
    assert "json_columns" not in report.step("feedback_advice").message
    # the same, evaluated, with the comma-separated spelling
    full = sj.evaluate(
        str(fields / "metric.py"),
        fields / "cases.csv",
        outputs="fields",
        run=f"{fields / 'run.py'}:run",
        json_columns="fields",
    )
    assert full.mean_score == 1.0


def test_a_cell_that_is_not_json_names_the_file_column_and_row(fields):
    data = fields / "cases.csv"
    data.write_text(FIELDS_CSV + '"Di, di@example.com","[name, email]"\n', encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_cases(data, outputs="fields", json_columns=["fields"])
    assert caught.value.message_id == "data.bad_json_cell_file"
    assert str(caught.value).startswith(
        f"{data}, column 'fields', row 4: the cell '[name, email]' is not valid JSON"
    )
    assert "json_columns (--json-columns)" in str(caught.value)
    assert caught.value.message("fr").startswith(f"{data}, colonne 'fields', ligne 4 :")

    done = skynet_check(
        str(fields / "metric.py"), "--data", str(data), "--outputs", "fields",
        "--output-column", "text", "--json-columns", "fields", "--json",
    )  # fmt: skip
    assert done.returncode == 2
    assert json.loads(done.stdout)["message"].startswith(f"{data}, column 'fields', row 4:")


def test_json_columns_leave_the_callers_data_unchanged_and_values_as_they_are():
    rows = [
        {"q": "a", "tags": '["x", "y"]', "meta": {"k": 1}},
        {"q": "b", "tags": ["already", "a list"], "meta": {"k": 2}},
    ]
    before = json.loads(json.dumps(rows))
    cases = load_cases(rows, outputs="tags", json_columns="tags,meta")
    assert [case.expected for case in cases] == [
        {"tags": ["x", "y"]},
        {"tags": ["already", "a list"]},
    ]
    assert cases[0].input == {"q": "a", "meta": {"k": 1}}
    assert rows == before
    frame = pd.DataFrame({"q": ["a"], "n": ["42"]})
    assert load_cases(frame, outputs="n", json_columns=["n"])[0].expected == {"n": 42}
    assert frame["n"].tolist() == ["42"]
    with pytest.raises(DataError, match=r"^Column 'n', row 1: the cell 'x' is not valid JSON"):
        load_cases([{"n": "x"}], json_columns=["n"])
    with pytest.raises(DataError, match=r"^json_columns: no column 'nope'\. The data has: q, n\.$"):
        load_cases(frame, json_columns=["nope"])


def test_only_columns_that_reach_the_metric_and_look_like_json_are_named(tmp_path):
    data = tmp_path / "cases.csv"
    data.write_text(
        'q,meta,label,note\nx,"{""a"": 1}",yes,[draft]\ny,"{""b"": 2}",no,\n', encoding="utf-8"
    )
    assert load_cases(data, outputs="label").json_like == ("meta",)  # [draft] is not JSON
    assert load_cases(data, outputs="label", json_columns="meta").json_like == ()

    def score(input, output, expected=None):
        return (1.0 if output == expected["label"] else 0.0), {"feedback": "Expected yes."}

    left_out = sj.check(score, data, outputs="label", inputs="q", output_column="label")
    assert "json_columns" not in left_out.step("feedback_advice").message


# --- cell types: one rule --------------------------------------------------------------


def test_csv_cells_are_text_so_the_contains_answer_port_works(tmp_path):
    data = tmp_path / "math.csv"
    data.write_text(
        "input,answer,response\nWhat is 6 x 7?,42,The answer is 42.\n"
        "What is 2 + 2?,4,It is five.\nBond's number?,007,Bond is 007.\n",
        encoding="utf-8",
    )
    cases = load_cases(data, outputs="answer", output_column="response")
    assert [case.expected for case in cases] == [
        {"answer": "42"},
        {"answer": "4"},
        {"answer": "007"},
    ]
    report = sj.check(CONTAINS_ANSWER, data, outputs="answer", output_column="response", cases=None)
    assert report.passed, str(report)
    assert [case.score for case in report.cases] == [1.0, 0.0, 1.0]
    # what pandas alone would have done: integers, and the port's TypeError
    guessed = pd.read_csv(data, keep_default_na=False)
    assert guessed["answer"].tolist() == [42, 4, 7]


def test_dtype_is_handed_to_pandas_for_the_columns_it_names(tmp_path):
    data = tmp_path / "cases.tsv"
    data.write_text("q\tanswer\tweight\nA\t42\t0.5\nB\t7\t1\n", encoding="utf-8")
    cases = load_cases(data, outputs="answer", dtype={"answer": int})
    assert [case.expected for case in cases] == [{"answer": 42}, {"answer": 7}]
    assert cases[0].input == {"q": "A", "weight": "0.5"}  # the other columns stay text
    with pytest.raises(DataError, match=rf"^{data}: the cells do not fit the dtype given"):
        load_cases(data, dtype={"q": int})
    with pytest.raises(DataError, match=r"^dtype: no column 'nope'\."):
        load_cases(data, dtype={"nope": int})


def test_a_type_that_never_matches_the_output_is_advice():
    rows = [{"q": "6 x 7", "answer": 42}, {"q": "2 + 2", "answer": 4}]

    def run(artifact, input):
        return "42" if "6" in input["q"] else "4"

    def exact(input, output, expected=None):
        ok = output == expected["answer"]
        return (1.0 if ok else 0.0), {"feedback": f"Expected {expected['answer']}, got {output}."}

    report = sj.check(exact, rows, outputs="answer", inputs="q", run=run)
    advice = report.step("feedback_advice")
    assert advice.status == "advice"
    assert (
        "On every case read, output is str and expected['answer'] is int: "
        "output == expected['answer'] is never true." in advice.message
    )
    assert advice.cases == (0, 1)
    assert "dtype=" in advice.message
    assert (
        "est str et expected['answer'] est int"
        in sj.check(exact, rows, outputs="answer", inputs="q", run=run, lang="fr")
        .step("feedback_advice")
        .message
    )

    def converting(input, output, expected=None):
        ok = str(output) == str(expected["answer"])
        return (1.0 if ok else 0.0), {"feedback": f"Expected {expected['answer']}, got {output}."}

    fine = sj.check(converting, rows, outputs="answer", inputs="q", run=run)
    assert "never true" not in fine.step("feedback_advice").message


# --- what goes in input ----------------------------------------------------------------


def test_the_output_column_and_outputs_never_reach_input():
    rows = [
        {"q": "a", "label": "x", "prediction": "x", "human": 1},
        {"q": "b", "label": "y", "prediction": "z", "human": 0},
    ]
    seen = []

    def score(input, output, expected=None):
        seen.append(dict(input))
        return (1.0 if output == expected["label"] else 0.0), {"feedback": "Expected x."}

    report = sj.check(score, rows, outputs="label", output_column="prediction")
    assert [case.input for case in report.cases] == [{"q": "a", "human": 1}, {"q": "b", "human": 0}]
    assert seen == [{"q": "a", "human": 1}, {"q": "b", "human": 0}]
    assert "Inputs (" not in str(report)  # no run: nothing ran on an input


def test_the_human_label_column_never_reaches_the_metric_or_run():
    rows = [
        {"q": "a", "label": "x", "ok": "pass"},
        {"q": "b", "label": "y", "ok": "fail"},
        {"q": "c", "label": "x", "ok": "pass"},
    ]
    given_to_run, given_to_metric = [], []

    def run(artifact, input):
        given_to_run.append(dict(input))
        return "x"

    def score(input, output, expected=None):
        given_to_metric.append(dict(input))
        ok = output == expected["label"]
        return (1.0 if ok else 0.0), {"feedback": f"Expected {expected['label']}."}

    found = agreement(score, rows, human="ok", outputs="label", run=run, artifact="a")
    assert found.accuracy == 1.0
    assert sorted(map(str, given_to_run)) == sorted(map(str, [{"q": q} for q in "abc"]))
    assert sorted(map(str, given_to_metric)) == sorted(map(str, [{"q": q} for q in "abc"]))


def test_with_run_and_no_inputs_the_report_names_the_inputs(tickets):
    def run(artifact, input):
        return "billing"

    def score(input, output, expected=None):
        return (1.0 if output == expected["label"] else 0.0), {"feedback": "Expected billing."}

    report = sj.check(score, tickets, outputs="label", run=run)
    step = report.step("run_function")
    assert step.status == "passed"
    assert step.message == (
        "Inputs (every column but the Output ones): text. Name them with --inputs (inputs=) "
        "to choose."
    )
    assert "Inputs (every column but the Output ones): text." in str(report)
    assert "Inputs (every column but the Output ones): text." in report._repr_html_()
    fr = sj.check(score, tickets, outputs="label", run=run, lang="fr").step("run_function")
    assert fr.message.startswith("Entrées (toutes les colonnes sauf celles de sortie) : text.")
    named = sj.check(score, tickets, outputs="label", inputs="text", run=run)
    assert named.step("run_function").message == ""


# --- the magics ------------------------------------------------------------------------


# The ``shell`` fixture is conftest.py's: the extension freshly loaded, cwd a temp folder.


def run_cell(shell, source: str):
    with capture_output() as captured:
        result = shell.run_cell(textwrap.dedent(source).lstrip("\n"), store_history=True)
    assert result.error_in_exec is None and result.error_before_exec is None, captured.stdout
    return result


def widget_text(view) -> str:
    seen, parts = set(), []

    def walk(widget):
        if id(widget) in seen:
            return
        seen.add(id(widget))
        parts.append(json.dumps(widget.get_state(), default=str))
        for child in getattr(widget, "children", ()):
            walk(child)

    for value in vars(view).values():
        if isinstance(value, ipywidgets.Widget):
            walk(value)
    return "\n".join(parts)


def test_the_magic_takes_json_columns_and_names_the_inputs(shell, fields):
    run_cell(shell, f"%%skynet_metric\n{SEVERAL_CHECKS}")
    shell.user_ns["extract"] = load_function(f"{fields / 'run.py'}:run")
    line = "--data cases.csv --outputs fields --run extract --artifact 'Extract the fields.'"
    run_cell(shell, f"without = %skynet_check {line}")
    without = shell.user_ns["without"]
    assert without.mean_score == 0.5
    assert "--json-columns fields" in without.step("feedback_advice").message

    run_cell(shell, f"fixed = %skynet_check {line} --json-columns fields --fresh")
    fixed = shell.user_ns["fixed"]
    assert fixed.mean_score == 1.0
    note = "Inputs (every column but the Output ones): text."
    assert fixed.step("run_function").message.startswith(note)
    magics = shell.magics_manager.registry["SkynetMagics"]
    assert note in widget_text(magics.last_checks["default"].view)
    for name in ("skynet_check", "skynet_eval", "skynet_agree", "skynet_probe"):
        assert "--json-columns COLS" in getattr(magics, name).__doc__, name

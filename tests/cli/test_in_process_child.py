"""``cli/child.py``: what the child does with a Job (here, in this process).

Part of the in-process CLI tests (``tests/cli/test_in_process_*.py``, one file per module
of ``skynet_jupyter/cli``): each pins exact values, so that mutmut, which sees only what
runs in the test process, measures the command with them.  The project they work in is
``tests/cli/in_process_support.py``; its ``project`` fixture is in ``tests/cli/conftest.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from skynet_jupyter.cli import (
    child,
    job,
    parse,
)
from skynet_jupyter.core.model_settings import ModelSettings
from tests.cli.in_process_support import (
    COLUMN,
)

# --- child: what the child does with a Job (here, in this process) -----------------------


def checked_in_process(*args: object, lang: str = "en") -> tuple[list[dict], dict]:
    """The child's check of the Job these arguments make: the messages sent, the last one."""
    parsed = parse.parse([str(arg) for arg in args])
    sent: list[dict] = []
    last = child._check(job.job_from(parsed, lang), sent.append)
    json.dumps(last, allow_nan=False)  # the child sends it as strict JSON
    return sent, last


def test_the_child_loads_the_metric_then_sends_the_report(project):
    sent, last = checked_in_process("good.py", *COLUMN)
    assert sent == [{"event": "loading", "path": "good.py"}, {"event": "loaded"}]
    assert set(last) == {"event", "passed", "interrupted", "output"}
    assert (last["event"], last["passed"], last["interrupted"]) == ("done", True, False)
    assert last["output"].startswith("Contract check passed — metric 'good.py' · 3 cases")
    assert str(project.resolve()) == sys.path[0]  # the metric's folder is importable


def test_the_child_loads_the_run_file_first(project):
    sent, last = checked_in_process(
        "good.py", "--data", "cases.csv", "--outputs", "label", "--run", "run.py:run",
        "--artifact-text", "farewell", "--json",
    )  # fmt: skip
    assert sent == [
        {"event": "loading", "path": "run.py"},
        {"event": "loading", "path": "good.py"},
        {"event": "loaded"},
    ]
    document = json.loads(last["output"])
    assert [case["output"] for case in document["cases"]] == ["greeting", "farewell", "greeting"]
    assert document["passed"] is True and last["passed"] is True


def test_the_child_adds_annotations_and_its_junit_suite(project):
    _, last = checked_in_process("failing.py", *COLUMN, "--format", "github", "--junit-xml", "r")
    assert last["passed"] is False
    lines = last["output"].splitlines()
    assert lines[0].startswith("::error file=failing.py,line=4,title=Metric return value::")
    assert re.fullmatch("::stop-commands::[0-9a-f]{32}", lines[2])  # the report runs nothing
    assert lines[3].startswith("Contract check failed")
    assert lines[-1] == f"::{lines[2].removeprefix('::stop-commands::')}::"
    assert ET.fromstring(last["junit"]).get("failures") == "2"


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "def helper():\n    pass\n",
            "The run file run.py defines no function 'run'; it defines: helper. Name one after "
            "the colon: --run FILE.py:FUNC.",
        ),
        (
            "X = 1\n",
            "The run file run.py defines no function 'run'; it defines: nothing callable. Name "
            "one after the colon: --run FILE.py:FUNC.",
        ),
        ("import os\nos.nowhere\n", "module 'os' has no attribute 'nowhere'"),
        (
            "x = 1\nraise RuntimeError('no key sk-abcdefghijklmnop')\n",
            "The run file run.py failed while loading, on line 2: RuntimeError: no key "
            "sk-[redacted].",
        ),
        (
            "import sys\nsys.exit(3)\n",
            "The run file run.py failed while loading, on line 2: SystemExit: 3.",
        ),
        (
            "exec('x = (')\n",
            "run.py, line 1: syntax error ('(' was never closed); fix it and run again.",
        ),
    ],
)
def test_a_run_file_that_does_not_load_is_a_usage_error_naming_it(project, source, said):
    (project / "run.py").write_text(source)
    sent, last = checked_in_process("good.py", "--data", "cases.csv", "--run", "run.py")
    assert last == {"event": "usage", "message": said}
    assert sent == [{"event": "loading", "path": "run.py"}]


def test_a_run_file_failing_in_another_file_has_no_line_of_its_own(project):
    (project / "helpers.py").write_text("raise ValueError('in the helper')\n")
    (project / "run.py").write_text("import helpers\n")
    _, last = checked_in_process("good.py", "--data", "cases.csv", "--run", "run.py", lang="fr")
    assert last["message"] == (
        "Le fichier run run.py a échoué au chargement, ligne 1 : ValueError: in the helper."
    )
    assert child._load_failure("gone.py", ValueError("v"), "en") == (
        "The run file gone.py failed while loading, on line ?: ValueError: v."
    )


def test_a_run_file_gone_since_it_was_read_is_said(project):
    parsed = parse.parse(["good.py", "--data", "cases.csv", "--run", "run.py:run"])
    made_job = job.job_from(parsed, "en")
    (project / "run.py").unlink()
    last = child._check(made_job, lambda message: None)
    assert last == {"event": "usage", "message": "No run file at 'run.py' (from 'run.py:run')."}
    (project / "run.py").write_bytes(b"x = '\xff'\n")
    last = child._check(made_job, lambda message: None)
    assert last["event"] == "usage" and last["message"].startswith("run.py is not valid utf-8")


def test_a_metric_that_does_not_load_is_a_usage_error_with_its_line(project):
    (project / "raises.py").write_text("x = 1\nraise ValueError('at import')\n")
    sent, last = checked_in_process("raises.py", *COLUMN)
    assert sent == [{"event": "loading", "path": "raises.py"}]
    assert last["event"] == "usage" and last["line"] == 2
    assert last["message"].startswith("The metric file raises.py does not load: ")
    assert "ValueError: at import" in last["message"]


def test_a_metric_that_loads_but_breaks_the_contract_is_a_report(project):
    sent, last = checked_in_process("one_argument.py", *COLUMN)
    assert sent[-1] == {"event": "loaded"}
    assert last["event"] == "done" and last["passed"] is False
    assert "✗ Metric signature: score(input) cannot be called" in last["output"]


def test_data_problems_are_usage_errors(project):
    _, last = checked_in_process("good.py", *COLUMN[:3], "labl", *COLUMN[4:])
    assert last["event"] == "usage" and "--outputs: no column 'labl'" in last["message"]
    _, last = checked_in_process("good.py", "--data", "gone.csv", *COLUMN[2:])
    assert last["event"] == "usage" and last["message"].startswith("No data file")


def test_a_check_without_the_model_it_needs_names_the_option(project):
    (project / "judge.py").write_text(
        "from skynet import llm\n\n\ndef score(input, output, expected=None):\n"
        "    return float(llm('Judge it.', output) == 'yes'), {'feedback': 'judged'}\n"
    )
    _, last = checked_in_process("judge.py", *COLUMN)
    assert last == {
        "event": "usage",
        "configuration": True,  # found by the run: the metric loaded (JUnit files it so)
        "message": "The check cannot run without a model: score calls llm(), which asks the "
        "metric model, and none is set: set the environment variable SKYNET_METRIC_MODEL, call "
        "skynet_jupyter.configure(metric_model=...), or run %config SkynetMagics.metric_model = "
        "... (the reflection model, SKYNET_REFLECTION_MODEL, is the fallback); offline, use "
        "skynet_jupyter.StandInModel(). On the command line: --metric-model MODEL (a litellm "
        "model string).",
    }
    (project / "task.py").write_text(
        "from skynet import llm\n\n\ndef run(artifact, case_input):\n    return llm(artifact)\n"
    )
    args = ("good.py", "--data", "cases.csv", "--outputs", "label", "--run", "task.py:run")
    _, last = checked_in_process(*args, "--artifact-text", "Label it.")
    assert last["event"] == "usage"
    assert last["message"].endswith(
        "On the command line: --task-model MODEL (a litellm model string)."
    )


def test_missing_model_reads_the_hint_or_the_traceback():
    case = SimpleNamespace(failed_step=None, hint_id=None, traceback=None, error=None)
    assert child._missing_model(SimpleNamespace(cases=[case])) is None
    hinted = SimpleNamespace(failed_step="run_function", hint_id="hint.no_task_model",
                             traceback=None, error=None)  # fmt: skip
    assert child._missing_model(SimpleNamespace(cases=[case, hinted])) == "task"
    unfailed = SimpleNamespace(**{**vars(hinted), "failed_step": None})
    assert child._missing_model(SimpleNamespace(cases=[unfailed])) is None
    said = "ModelNotConfigured: No metric model is set"
    in_error = SimpleNamespace(failed_step="x", hint_id=None, traceback=None, error=said)
    assert child._missing_model(SimpleNamespace(cases=[in_error])) == "metric"
    in_trace = SimpleNamespace(failed_step="x", hint_id=None, traceback=f"T\n{said}", error="E")
    assert child._missing_model(SimpleNamespace(cases=[in_trace])) == "metric"


def test_the_models_are_asked_at_api_base_with_the_key_from_the_environment(monkeypatch):
    given = ModelSettings(task_model="t/m", metric_model={"model": "j/m", "temperature": 0})
    at_base = child._models(given, "http://h:1/v1")
    assert at_base.task_model == {"model": "t/m", "api_base": "http://h:1/v1"}
    assert at_base.metric_model == {"model": "j/m", "temperature": 0}  # litellm's own arguments
    assert at_base.reflection_model is None
    assert child._models(given, None) == given
    monkeypatch.setenv("SKYNET_REFLECTION_MODEL", "r/m")
    assert child._models(ModelSettings(), None).reflection_model == "r/m"
    assert child._models(ModelSettings(), "http://h").reflection_model == {
        "model": "r/m",
        "api_base": "http://h",
    }


def test_the_run_cache_is_the_file_cache_dir_names(project):
    parsed = parse.parse(["good.py", *COLUMN, "--cache-dir", "cache"])
    cached = child._run_cache(job.job_from(parsed, "en"))
    assert cached.disk.path == project.resolve() / "cache" / "runs.sqlite"
    assert child._run_cache(job.job_from(parse.parse(["good.py", *COLUMN]), "en")) is None
    _, last = checked_in_process("good.py", *COLUMN, "--cache-dir", "cache")
    assert last["passed"] is True


def test_a_missing_function_named_by_the_files_own_code_is_shown_as_raised(project):
    other = AttributeError("module 'os' has no attribute 'x'", name="x", obj=os)
    assert child._no_function(other, "run.py", "en") == "module 'os' has no attribute 'x'"
    module = SimpleNamespace(__file__=str((project / "run.py").resolve()), go=print, _hid=print)
    mine = AttributeError("gone", name="run", obj=module)
    assert child._no_function(mine, "run.py", "pt") == (
        "O ficheiro run run.py não define nenhuma função 'run'; define: go. Indique uma depois "
        "dos dois pontos: --run FICHEIRO.py:FUNÇÃO."
    )


class _Exited(Exception):
    """os._exit, called by the child's main: here it ends the call, not the test process."""


@contextlib.contextmanager
def as_the_child(made_job: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Run ``child.main`` in this process as the child would run: its job on stdin, its
    stdout (fd 1) the channel; yields the list of the lines it sent and the parent it
    asked to end with.  ``end_with_parent`` is recorded, not run: in the test process it
    would tie pytest to its own parent (a SIGTERM handler, the kernel's death signal)."""
    channel_file = tmp_path / "channel"
    asked: list[int] = []
    monkeypatch.setattr(child, "end_with_parent", asked.append)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(pickle.dumps(made_job))))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))

    def exited(code: int) -> None:
        raise _Exited(code)

    monkeypatch.setattr(os, "_exit", exited)
    saved = os.dup(1)
    with open(channel_file, "wb") as channel:
        os.dup2(channel.fileno(), 1)
    sent: list[str] = []
    try:
        with pytest.raises(_Exited) as ended:
            yield sent, asked
        assert ended.value.args == (0,)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        sent.extend(channel_file.read_text(encoding="ascii").splitlines())


def test_the_childs_main_sends_each_message_as_one_ascii_json_line(
    project, monkeypatch, tmp_path, capfd
):
    made_job = job.job_from(parse.parse(["good.py", *COLUMN]), "en")
    with as_the_child(made_job, monkeypatch, tmp_path) as (sent, asked):
        child.main()
    assert asked == [os.getppid()]
    assert [json.loads(line)["event"] for line in sent] == ["loading", "loaded", "done"]
    done = sent[-1]
    assert "\\u2713 Metric loads" in done and "✓" not in done  # ASCII on the channel
    assert json.loads(done)["passed"] is True


def test_the_childs_own_failure_is_one_crashed_line(project, monkeypatch, tmp_path):
    made_job = job.job_from(parse.parse(["good.py", *COLUMN]), "fr")
    broken = job.Job(**{**{f: getattr(made_job, f) for f in made_job.__slots__}, "metric": 5})
    with as_the_child(broken, monkeypatch, tmp_path) as (sent, _):
        child.main()
    (line,) = sent
    assert json.loads(line) == {
        "event": "crashed",
        "message": "Pas de verdict : skynet-check lui-même a échoué (TypeError: expected str, "
        "bytes or os.PathLike object, not int) ; la vérification n'est pas réussie. Merci de "
        "le signaler.",
    }


# --- the edges: each found by asking what a changed line would still let through ---------


def test_a_run_file_failing_in_a_function_it_calls_names_the_deepest_line(project):
    (project / "run.py").write_text("def setup():\n    raise OSError('no')\n\n\nsetup()\n")
    _, last = checked_in_process("good.py", "--data", "cases.csv", "--run", "run.py")
    assert last["message"] == "The run file run.py failed while loading, on line 2: OSError: no."


def test_a_metric_that_is_not_text_is_said_as_it_is(project):
    parsed = parse.parse(["good.py", *COLUMN])
    made_job = job.job_from(parsed, "en")
    (project / "good.py").write_bytes(b"x = '\xff'\n")
    last = child._check(made_job, lambda message: None)
    assert last["event"] == "usage"
    assert last["message"].startswith("good.py is not valid utf-8 text (byte 0xff on line 1)")


def test_a_users_own_skynet_module_is_named_when_the_metric_does_not_load(project, monkeypatch):
    import types

    theirs = types.ModuleType("skynet")
    theirs.__file__ = str(project / "skynet.py")
    monkeypatch.setitem(sys.modules, "skynet", theirs)
    (project / "helped.py").write_text(
        "from skynet import llm\n\n\ndef score(input, output, expected=None):\n    return 1.0\n"
    )
    _, last = checked_in_process("helped.py", *COLUMN)
    assert last["event"] == "usage" and last["line"] == 1
    assert last["message"].startswith("The metric file helped.py does not load: ")
    assert last["message"].endswith(
        f"`import skynet` gives your own module {project / 'skynet.py'}, not the Skynet helpers "
        "(llm, reward, observation, service_cost): rename it (or move it out of the folder and "
        "the path) so that metric code gets them."
    )


def test_the_childs_report_is_laid_out_to_the_parents_width(project):
    made_job = job.job_from(parse.parse(["good.py", *COLUMN]), "en")
    wide = child._check(made_job, lambda message: None)["output"]
    narrow_job = job.Job(**{**{f: getattr(made_job, f) for f in made_job.__slots__}, "width": 50})
    narrow = child._check(narrow_job, lambda message: None)["output"]
    assert max(map(len, wide.splitlines())) > 50
    assert max(map(len, narrow.splitlines())) <= 50


def test_ctrl_c_while_the_metric_loads_is_the_interrupted_line(project, monkeypatch, tmp_path):
    (project / "stopped.py").write_text("raise KeyboardInterrupt\n")
    made_job = job.job_from(parse.parse(["stopped.py", *COLUMN]), "en")
    with as_the_child(made_job, monkeypatch, tmp_path) as (sent, _):
        child.main()
    assert [json.loads(line) for line in sent] == [
        {"event": "loading", "path": "stopped.py"},
        {"event": "interrupted"},
    ]


def test_what_the_user_code_writes_to_stdout_goes_to_stderr(project, monkeypatch, tmp_path, capfd):
    (project / "writes.py").write_text(
        "import os\n\nos.write(1, b'from the metric\\n')\n\n\n"
        "def score(input, output, expected=None):\n    return 1.0, {'feedback': output}\n"
    )
    made_job = job.job_from(parse.parse(["writes.py", *COLUMN]), "en")
    with as_the_child(made_job, monkeypatch, tmp_path) as (sent, _):
        child.main()
    assert [json.loads(line)["event"] for line in sent] == ["loading", "loaded", "done"]
    assert "from the metric\n" in capfd.readouterr().err


# --- the child, in another language, and against a real model server ---------------------


def test_the_childs_usage_errors_are_said_in_the_jobs_language(project):
    (project / "run.py").write_text("def helper():\n    pass\n\n\ndef other():\n    pass\n")
    run = ("good.py", "--data", "cases.csv", "--run", "run.py")
    _, last = checked_in_process(*run, lang="fr")
    assert last["message"] == (
        "Le fichier run run.py ne définit pas de fonction 'run' ; il définit : helper, other. "
        "Nommez-en une après les deux-points : --run FICHIER.py:FONCTION."
    )
    (project / "run.py").write_text("X = 1\n")
    _, last = checked_in_process(*run, lang="fr")
    assert "rien d'appelable" in last["message"]
    (project / "run.py").write_text("raise SyntaxError('made up')\n")
    _, last = checked_in_process(*run, lang="fr")
    # A SyntaxError raised by the file's code has no line: said as line 0, as Python does.
    assert last["message"] == (
        "run.py, ligne 0 : erreur de syntaxe (made up) ; corrigez-la et relancez."
    )
    (project / "raises.py").write_text("raise ValueError('at import')\n")
    _, last = checked_in_process("raises.py", *COLUMN, lang="fr")
    assert last["message"].startswith("Le fichier de métrique raises.py ne se charge pas : ")
    _, last = checked_in_process("good.py", "--data", "gone.csv", *COLUMN[2:], lang="fr")
    assert last["event"] == "usage" and "gone.csv" in last["message"]
    assert not last["message"].startswith("No data file")


def test_the_no_model_sentence_is_in_the_jobs_language(project):
    (project / "judge.py").write_text(
        "from skynet import llm\n\n\ndef score(input, output, expected=None):\n"
        "    return float(llm('Judge it.', output) == 'yes'), {'feedback': 'judged'}\n"
    )
    _, last = checked_in_process("judge.py", *COLUMN, lang="fr")
    assert last["message"].startswith(
        "La vérification ne peut pas tourner sans modèle : score appelle llm(), qui interroge "
        "le modèle de la métrique, et aucun n'est défini : "
    )
    assert last["message"].endswith(
        "En ligne de commande : --metric-model MODÈLE (un nom de modèle litellm)."
    )


def test_missing_model_reads_cases_without_a_hint_id():
    said = "ModelNotConfigured: No task model is set"
    bare = SimpleNamespace(failed_step="run_function", traceback=None, error=said)
    assert child._missing_model(SimpleNamespace(cases=[bare])) == "task"


def test_a_missing_function_reported_by_an_object_without_a_file_is_shown_as_raised():
    problem = AttributeError("no run here", name="run", obj=SimpleNamespace())
    assert child._no_function(problem, "run.py", "en") == "no run here"


def test_the_child_adds_no_separator_between_annotations(project):
    _, last = checked_in_process("failing.py", *COLUMN, "--format", "github")
    lines = last["output"].splitlines()
    assert lines[0].startswith("::error ") and lines[1].startswith("::warning ")


def test_the_child_makes_the_run_files_folder_importable_and_loads_it_once(project):
    (project / "lib").mkdir()
    (project / "lib" / "neighbor.py").write_text("ANSWER = 'greeting'\n")
    (project / "lib" / "run.py").write_text(
        "import pathlib\nfrom neighbor import ANSWER\n\n"
        "with pathlib.Path('imports.log').open('a') as log:\n    log.write('imported\\n')\n\n\n"
        "def run(artifact, case_input):\n    return ANSWER\n"
    )
    before = list(sys.path)
    args = ("good.py", "--data", "cases.csv", "--outputs", "label", "--run", "lib/run.py:run")
    _, last = checked_in_process(*args, "--all", "--json")
    here = str(project.resolve())
    assert sys.path == [here, f"{here}/lib", *before]  # put before, nothing replaced
    document = json.loads(last["output"])
    assert document["kind"] == "eval"
    assert [case["output"] for case in document["cases"]] == ["greeting"] * 3
    assert (project / "imports.log").read_text() == "imported\n"  # loaded once, by the child


def test_each_case_gets_the_models_at_api_base_and_the_cache_dirs_cache(project):
    # What a case's llm() would use, read where llm() reads it (no model is called: the
    # real calls, through litellm to a loopback server, are tests/cli/test_models.py's).
    # A model given makes the engine import litellm: seconds, once per test process.
    (project / "peek.py").write_text(
        "from skynet_jupyter.models.case_context import current_case\n\n\n"
        "def run(artifact, case_input):\n    case = current_case.get()\n"
        "    disk = case.call_cache.disk if case.call_cache is not None else None\n"
        "    path = None if disk is None else str(disk.path)\n"
        "    return [case.models.task_model, case.models.metric_model, path]\n"
    )
    args = ("good.py", "--data", "cases.csv", "--outputs", "label", "--run", "peek.py:run")
    given = ("--task-model", "openai/task-x", "--api-base", "http://127.0.0.1:9/v1")
    _, last = checked_in_process(*args, *given, "--cache-dir", "cache", "--json", "--cases", "1")
    (case,) = json.loads(last["output"])["cases"]
    assert case["output"] == [
        {"model": "openai/task-x", "api_base": "http://127.0.0.1:9/v1"},
        None,
        str(project.resolve() / "cache" / "runs.sqlite"),
    ]
    _, last = checked_in_process(*args, "--task-model", "openai/t", "--json", "--cases", "1")
    assert json.loads(last["output"])["cases"][0]["output"] == ["openai/t", None, None]


def test_the_childs_inner_reasons_are_in_the_jobs_language_too(project, monkeypatch):
    import types

    (project / "raises.py").write_text("raise ValueError('at import')\n")
    _, last = checked_in_process("raises.py", *COLUMN, lang="fr")
    assert last["message"].startswith(
        "Le fichier de métrique raises.py ne se charge pas : La métrique a échoué au chargement"
    )
    parsed = parse.parse(["good.py", "--data", "cases.csv", "--run", "run.py"])
    made_job = job.job_from(parsed, "fr")
    (project / "run.py").write_bytes(b"x = 1\n# \xff\n")  # changed since it was read
    last = child._check(made_job, lambda message: None)
    assert last["message"].startswith("run.py n'est pas un texte utf-8 valide (octet 0xff ligne 2)")
    theirs = types.ModuleType("skynet")
    theirs.__file__ = str(project / "skynet.py")
    monkeypatch.setitem(sys.modules, "skynet", theirs)
    (project / "helped.py").write_text("from skynet import llm\n")
    _, last = checked_in_process("helped.py", *COLUMN, lang="fr")
    assert last["message"].endswith(
        f"`import skynet` donne votre propre module {project / 'skynet.py'}, et non les outils "
        "Skynet (llm, reward, observation, service_cost) : renommez-le (ou sortez-le du dossier "
        "et du chemin) pour que le code de la métrique les obtienne."
    )

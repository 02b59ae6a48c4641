"""%skynet_history and %skynet_diff in a live IPython shell: the same runs through the magics
and through sj.history / sj.diff; %skynet_check and %skynet_eval record as notebook runs."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import skynet_jupyter as sj

METRIC = """def score(input, output, expected=None):
    if output == expected["label"]:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {expected['label']!r}, got {output!r}."}
"""
EDITED = METRIC.replace('if output == expected["label"]:', 'if output == expected["label"] != "b":')
CHECK = "--data rows --outputs label --output-column guess --no-raise"


@pytest.fixture
def notebook(shell, tmp_path, monkeypatch):
    monkeypatch.setenv("SKYNET_RUN_LOG", str(tmp_path / "runs"))
    shell.run_cell(
        'rows = [{"text": t, "label": l, "guess": g} for t, l, g in '
        '[("one", "a", "a"), ("two", "b", "b"), ("three", "c", "x"), ("four", "a", "a")]]'
    )
    with capture_output():
        shell.run_cell_magic("skynet_metric", "", METRIC)
        shell.run_line_magic("skynet_eval", CHECK)
        shell.run_cell_magic("skynet_metric", "", EDITED)  # replays no check: none was made
        shell.run_line_magic("skynet_eval", CHECK)
    return shell


def test_the_magics_record_notebook_runs_and_show_the_history(notebook):
    with capture_output() as shown:
        found = notebook.run_line_magic("skynet_history", "")
    assert [r.origin for r in found] == ["notebook", "notebook"]
    assert [r.id for r in found] == [r.id for r in sj.history()]
    assert found[0].version != found[1].version
    bundles = [output.data for output in shown.outputs]
    assert any("application/vnd.jupyter.widget-view+json" in b for b in bundles)
    static = next(b["text/html"] for b in bundles if "text/html" in b)
    assert "skh-chart" in static and found[0].id in static


def test_the_diff_magic_is_sj_diff(notebook):
    with capture_output():
        through_magic = notebook.run_line_magic("skynet_diff", "last~1 last")
    through_function = sj.diff("last~1", "last")
    assert through_magic.to_dict() == through_function.to_dict()
    (regressed,) = through_magic.regressions
    assert regressed.input == {"text": "two"} and regressed.delta == -1.0
    assert str(through_magic).startswith("1 case regressed")


def test_the_magics_say_what_is_wrong_in_one_line(notebook):
    with pytest.raises(UsageError, match="No run 'nope'"):
        notebook.run_line_magic("skynet_diff", "nope last")
    with pytest.raises(UsageError, match="There is no last~5 run"):
        notebook.run_line_magic("skynet_diff", "last~5 last")
    with pytest.raises(UsageError, match="limit= needs"):
        notebook.run_line_magic("skynet_history", "--limit 0")


def test_prune_from_the_magic(notebook):
    with capture_output() as said:
        notebook.run_line_magic("skynet_history", "--prune 1")
    assert "Removed 1 run" in said.stdout
    assert len(sj.history()) == 1


def test_the_views_speak_the_notebook_language(notebook):
    notebook.run_line_magic("config", 'SkynetMagics.lang = "fr"')
    with capture_output():
        found = notebook.run_line_magic("skynet_diff", "last~1 last")
    assert str(found).startswith("1 cas a régressé")
    with capture_output():
        history = notebook.run_line_magic("skynet_history", "--lang pt;")
    assert str(history).startswith("Histórico de execuções")


def test_unload_removes_the_magics(notebook):
    notebook.extension_manager.unload_extension("skynet_jupyter")
    assert "skynet_history" not in notebook.magics_manager.magics["line"]
    assert "skynet_diff" not in notebook.magics_manager.magics["line"]
    notebook.extension_manager.load_extension("skynet_jupyter")
    assert "skynet_history" in notebook.magics_manager.magics["line"]


def test_an_unreachable_shared_log_is_a_usage_error_in_the_magics(notebook, monkeypatch):
    """A log at a URL nothing answers: the magic's one sentence, not a traceback."""
    import socket

    s3fs = pytest.importorskip("s3fs")
    with socket.socket() as taken:  # a port nothing listens on
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "skynettestkeyid")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "skynettestsecret42")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    s3fs.S3FileSystem.clear_instance_cache()
    try:
        for magic, line in [
            ("skynet_history", "--log s3://nowhere/runs"),
            ("skynet_diff", "last~1 last --log s3://nowhere/runs"),
        ]:
            with pytest.raises(UsageError, match="s3://nowhere/runs cannot be reached"):
                notebook.run_line_magic(magic, line)
    finally:
        s3fs.S3FileSystem.clear_instance_cache()

"""``%%skynet_metric --save`` after a kernel restart, and from a second notebook (issue 44,
item 1).

Save, restart the kernel, edit the cell, run it: the file still holds what the cell saved
there, so the edit is written, without ``--force`` and without running the unchanged cell
first ("Restart and run all" goes through).  The same holds for the same cell in a second
notebook.  Only a real outside change is refused, and the refusal names it: the line an
editor or git changed, or the other metric whose save the file holds.

Driven in the in-process shell (a restart is a fresh load of the extension: nothing of
the rule lives in the kernel), then in real kernels with nbclient (a real restart, and two
notebooks with a kernel each).
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from skynet_jupyter.core import saving
from tests.conftest import ROOT
from tests.notebook_client import WAIT_FOR_OUTPUTS

GOOD = """
def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return 1.0, {"feedback": "Correct."}
    return 0.0, {"feedback": f"Expected {want!r}, got {output!r}."}
"""
EDITED = GOOD.replace('"Correct."', '"Correct: the label matches."')


def cell(shell, line: str, body: str):
    with capture_output() as captured:
        result = shell.run_cell(f"%%skynet_metric {line}\n{textwrap.dedent(body)}")
    return result, " ".join(captured.stdout.split())


def saved_ok(shell, line: str, body: str) -> str:
    result, printed = cell(shell, line, body)
    result.raise_error()
    return printed


def refused(shell, line: str, body: str) -> str:
    result, _ = cell(shell, line, body)
    assert isinstance(result.error_in_exec, UsageError), result.error_in_exec
    return " ".join(str(result.error_in_exec).split())


def restart(shell) -> None:
    """What a kernel restart leaves: a fresh namespace and a fresh load of the extension."""
    shell.extension_manager.unload_extension("skynet_jupyter")
    shell.reset(new_session=True)
    shell.extension_manager.load_extension("skynet_jupyter")


def test_after_a_restart_the_edited_cell_replaces_its_own_save(shell, tmp_path):
    saved = tmp_path / "my_metric.py"
    saved_ok(shell, "--save my_metric.py", GOOD)
    restart(shell)
    printed = saved_ok(shell, "--save my_metric.py", EDITED)  # no unchanged run first
    assert "Saved to my_metric.py (replacing this metric's earlier save there)." in printed
    assert saved.read_text() == textwrap.dedent(EDITED)


def test_after_a_restart_a_file_changed_outside_is_refused_naming_the_change(shell, tmp_path):
    saved = tmp_path / "my_metric.py"
    saved_ok(shell, "--save my_metric.py", GOOD)
    restart(shell)
    saved.write_text(textwrap.dedent(GOOD).replace("Correct.", "Right."))  # an editor
    said = refused(shell, "--save my_metric.py", EDITED)
    assert said.startswith(
        "Not saved: my_metric.py changed since %%skynet_metric default saved it on "
    )
    assert (
        'line 5 is now \'return 1.0, {"feedback": "Right."}\' '
        '(it was \'return 1.0, {"feedback": "Correct."}\')'
    ) in said
    assert "to keep that change, copy it into the cell and run the cell again. Add --force" in said
    assert saved.read_text() == textwrap.dedent(GOOD).replace("Correct.", "Right.")
    saved_ok(shell, "--save my_metric.py --force", EDITED)
    assert saved.read_text() == textwrap.dedent(EDITED)


def test_lines_added_or_removed_are_named_with_how_many_differ(shell, tmp_path):
    saved = tmp_path / "metric.py"
    saved_ok(shell, "--save metric.py", GOOD)
    saved.write_text("import json\n" + textwrap.dedent(GOOD) + "# a\n# b\n")
    said = refused(shell, "--save metric.py", EDITED)
    assert "line 1 was added: 'import json', and 3 lines differ in all" in said
    saved.write_text(textwrap.dedent(GOOD).replace("    want = expected['label']\n", ""))
    lines = textwrap.dedent(GOOD).splitlines()
    saved.write_text("\n".join(lines[:2] + lines[3:]) + "\n")
    said = refused(shell, "--save metric.py", EDITED)
    assert "a line was removed at line 3: 'want = expected[\"label\"]'" in said


def test_another_metrics_save_is_refused_naming_that_metric(shell, tmp_path):
    saved_ok(shell, "judge --save metric.py", GOOD)
    said = refused(shell, "--save metric.py", EDITED)
    assert said.startswith(
        "Not saved: metric.py holds the metric 'judge', saved there by %%skynet_metric judge"
    )
    assert (
        "not 'default'" in said
        and "to keep both, save this metric to another file. Add --force" in said
    )


def test_a_file_no_save_is_on_record_for_is_refused_saying_so(shell, tmp_path):
    (tmp_path / "metric.py").write_text("# written by hand\n")
    said = refused(shell, "--save metric.py", GOOD)
    record = tmp_path / ".skynet_cache" / "saved"
    assert said.startswith(
        f"Not saved: metric.py holds content that no %%skynet_metric cell saved there "
        f"(an editor, git or you wrote it; the saves are recorded in {record})"
    )


def test_the_record_is_beside_the_file_and_git_ignores_it(shell, tmp_path):
    saved_ok(shell, "--save sub/metric.py", GOOD)
    record = saving.recall(tmp_path / "sub" / "metric.py")
    assert record is not None and record.metric == "default"
    assert record.text == textwrap.dedent(GOOD)
    folder = tmp_path / "sub" / ".skynet_cache" / "saved"
    assert sorted(p.name for p in folder.iterdir()) == [".gitignore", "metric.py.json"]
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"


def test_the_record_names_the_notebook_and_a_second_notebook_replaces_the_save(
    shell, tmp_path, monkeypatch
):
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "first.ipynb"))
    saved_ok(shell, "--save metric.py", GOOD)
    restart(shell)
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "second.ipynb"))
    (tmp_path / "metric.py").write_text("# changed\n")
    said = refused(shell, "--save metric.py", EDITED)
    assert "changed since %%skynet_metric default saved it from first.ipynb on " in said
    saved_ok(shell, "--save metric.py --force", GOOD)
    printed = saved_ok(shell, "--save metric.py", EDITED)
    assert "replacing this metric's earlier save there" in printed
    assert saving.recall(tmp_path / "metric.py").notebook == "second.ipynb"


def test_a_damaged_record_is_no_record(shell, tmp_path):
    saved_ok(shell, "--save metric.py", GOOD)
    saving.record_path(tmp_path / "metric.py").write_text("{not json")
    said = refused(shell, "--save metric.py", EDITED)
    assert "no %%skynet_metric cell saved there" in said


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_record_that_cannot_be_written_leaves_the_save_done(shell, tmp_path):
    folder = tmp_path / ".skynet_cache"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        printed = saved_ok(shell, "--save metric.py", GOOD)
    finally:
        folder.chmod(0o700)
    assert "Saved to metric.py." in printed


def test_a_record_folder_that_is_a_file_leaves_the_save_done(shell, tmp_path):
    (tmp_path / ".skynet_cache").write_text("not a folder")
    printed = saved_ok(shell, "--save metric.py", GOOD)
    assert "Saved to metric.py." in printed
    assert saving.recall(tmp_path / "metric.py") is None


def test_the_refusal_is_in_the_report_language(shell, tmp_path):
    saved = tmp_path / "metric.py"
    saved_ok(shell, "--save metric.py", GOOD)
    saved.write_text(textwrap.dedent(GOOD).replace("Correct.", "Right."))
    shell.run_line_magic("config", "SkynetMagics.lang = 'fr'")
    said = refused(shell, "--save metric.py", EDITED)
    assert said.startswith("Non enregistrée : metric.py a changé depuis que %%skynet_metric")
    assert "la ligne 5 est maintenant" in said


def test_a_line_whose_spaces_alone_changed_is_quoted_with_them(shell, tmp_path):
    """Found by the attack on issue 44: a line whose indentation or trailing spaces alone
    changed was quoted stripped, the same before and after ("line 5 is now 'x' (it was
    'x')"), so the refusal named a change nobody could see."""
    saved = tmp_path / "my_metric.py"
    saved_ok(shell, "--save my_metric.py", GOOD)
    line = '        return 1.0, {"feedback": "Correct."}'
    saved.write_text(textwrap.dedent(GOOD).replace(line, "    " + line + "  "))
    result, _ = cell(shell, "--save my_metric.py", EDITED)
    assert isinstance(result.error_in_exec, UsageError)
    assert (
        "line 5 is now "
        '\'            return 1.0, {"feedback": "Correct."}  \' '
        '(it was \'        return 1.0, {"feedback": "Correct."}\'): only its spacing changed'
    ) in str(result.error_in_exec)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("x = " + "1 + " * 30 + "1", "x = " + "1 + " * 30 + "1   "),  # trailing, past the cut
        ("x = " + "1 + " * 30 + "1", "\tx = " + "1 + " * 30 + "1"),  # a tab for indentation
        ("x = " + "1 + " * 30 + "1", "x = " + "1 + " * 25 + "1  + " + "1 + " * 4 + "1"),
    ],
)
def test_a_changed_line_is_quoted_where_it_differs_even_past_the_cut(before, after):
    """Found by the attack on issue 44: the quotes of a changed line must differ where the
    line does, also when the change lies past the first 60 characters shown."""
    said = saving.change_said(f"a = 1\n{before}\n", f"a = 1\n{after}\n", "en")
    quoted = re.search(r"is now ('.*?') \(it was ('.*?')\)", said)
    assert quoted is not None, said
    assert quoted.group(1) != quoted.group(2), said
    assert "line 2" in said


def test_the_changed_line_is_numbered_as_python_counts_lines(shell, tmp_path):
    """Found by the attack on issue 44: the refusal counted U+2028, U+2029, U+0085, a form
    feed and the other separators str.splitlines breaks at as line breaks, so every later
    line number was off; Python, tracebacks and editors end a line only at \\n, \\r\\n
    or \\r."""
    saved = tmp_path / "my_metric.py"
    body = "# a note: one\u2028two\u2029three\x85four\x0cfive\x1csix\n" + textwrap.dedent(GOOD)
    saved_ok(shell, "--save my_metric.py", body)
    saved.write_text(saved.read_text().replace("def score", "def  score"))
    result, _ = cell(shell, "--save my_metric.py", EDITED)
    assert isinstance(result.error_in_exec, UsageError)
    assert (
        "line 3 is now 'def  score(input, output, expected=None):' "
        "(it was 'def score(input, output, expected=None):')"
    ) in str(result.error_in_exec)
    assert saving.change_said("a\u2028b\nc\n", "a\u2028b\nC\n", "en") == (
        "line 2 is now 'C' (it was 'c')"
    )
    assert saving.change_said("a\rb\r\nc\n", "a\nb\nC\n", "en") == (
        "line 3 is now 'C' (it was 'c')"
    )


# --- real kernels: a restart, and a second notebook ---------------------------------------


def _notebook(*sources: str):
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    return notebook


def _said(cell) -> str:
    parts = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type == "error":
            parts.append(f"{output.ename}: {output.evalue}")
    return " ".join(" ".join(parts).split())


@pytest.fixture
def kernel_env(monkeypatch):
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setenv("SKYNET_LANG", "en")
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)


@pytest.mark.slow
def test_restart_and_run_all_and_a_second_notebook_in_real_kernels(tmp_path, kernel_env):
    import nbformat
    from nbclient import NotebookClient
    from nbclient.util import run_sync

    metric = "%%skynet_metric --save my_metric.py\n" + textwrap.dedent(GOOD)
    first = _notebook("%load_ext skynet_jupyter", metric)
    client = NotebookClient(
        first,
        **WAIT_FOR_OUTPUTS,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    with client.setup_kernel(env={**os.environ, "JPY_SESSION_NAME": "first.ipynb"}):
        for index, each in enumerate(first.cells):
            client.execute_cell(each, index)
        assert "Saved to my_metric.py." in _said(first.cells[1])

        # Restart the kernel, edit the cell, "Run All": saved, no error, no --force.
        run_sync(client.km.restart_kernel)(now=True)
        run_sync(client.kc.wait_for_ready)(timeout=60)
        loaded = "print('skynet_jupyter' in get_ipython().extension_manager.loaded)"
        first.cells.append(nbformat.v4.new_code_cell(loaded))
        client.execute_cell(first.cells[2], 2)
        assert _said(first.cells.pop()) == "False", "restarted: nothing of the first run is left"
        first.cells[1].source = "%%skynet_metric --save my_metric.py\n" + textwrap.dedent(EDITED)
        for index, each in enumerate(first.cells):
            client.execute_cell(each, index)
        said = _said(first.cells[1])
        assert "Saved to my_metric.py (replacing this metric's earlier save there)." in said
        assert (tmp_path / "my_metric.py").read_text() == textwrap.dedent(EDITED)

    # The same cell, edited again, in a second notebook with its own kernel.
    again = "%%skynet_metric --save my_metric.py\n" + textwrap.dedent(GOOD)
    second = _notebook("%load_ext skynet_jupyter", again)
    client = NotebookClient(
        second,
        **WAIT_FOR_OUTPUTS,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    with client.setup_kernel(env={**os.environ, "JPY_SESSION_NAME": "second.ipynb"}):
        for index, each in enumerate(second.cells):
            client.execute_cell(each, index)
        assert "replacing this metric's earlier save there" in _said(second.cells[1])
        assert (tmp_path / "my_metric.py").read_text() == textwrap.dedent(GOOD)

        # A real outside change is refused, naming the line and the notebook that saved it.
        changed = textwrap.dedent(GOOD).replace("Correct.", "Right.")
        (tmp_path / "my_metric.py").write_text(changed)
        second.cells[1].source = "%%skynet_metric --save my_metric.py\n" + textwrap.dedent(EDITED)
        from nbclient.exceptions import CellExecutionError

        with pytest.raises(CellExecutionError):
            client.execute_cell(second.cells[1], 1)
        said = _said(second.cells[1])
        assert "UsageError: Not saved: my_metric.py changed since %%skynet_metric default" in said
        assert "saved it from second.ipynb on " in said and "line 5 is now" in said
        assert (tmp_path / "my_metric.py").read_text() == changed
    assert Path(tmp_path / ".skynet_cache" / "saved" / "my_metric.py.json").is_file()

"""``%%skynet_metric --save PATH`` writes only a new path or a regular file.

A named pipe, a device, a directory or a symbolic link is refused with a
sentence saying what it is, even with --force; the thing itself is untouched.
Driven in a real in-process IPython shell, on real special files.
"""

from __future__ import annotations

import os
import stat
import textwrap

import pytest
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

import skynet_jupyter as sj

GOOD = """
def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}
"""


# The ``shell`` fixture is conftest.py's: the extension freshly loaded, cwd a temp folder.


def save(shell, line: str) -> str:
    """Run a metric cell with ``line`` as its options; what it printed (it must succeed)."""
    with capture_output() as captured:
        result = shell.run_cell(f"%%skynet_metric {line}\n{textwrap.dedent(GOOD)}")
    result.raise_error()
    return " ".join(captured.stdout.split())


def refused(shell, line: str) -> str:
    """Run a metric cell whose save must be refused: the cell ends with a usage error (so
    "Run All" stops); the error's sentence."""
    with capture_output():
        result = shell.run_cell(f"%%skynet_metric {line}\n{textwrap.dedent(GOOD)}")
    assert isinstance(result.error_in_exec, UsageError), result.error_in_exec
    return " ".join(str(result.error_in_exec).split())


def registered_path(shell) -> str | None:
    return shell.magics_manager.registry["SkynetMagics"].metrics["default"].path


@pytest.mark.parametrize("force", ["", "--force"])
def test_a_named_pipe_is_refused_and_left_a_pipe(shell, tmp_path, force):
    pipe = tmp_path / "metric.py"
    os.mkfifo(pipe)
    printed = refused(shell, f"--save metric.py {force}")
    assert "Not saved: metric.py is a named pipe (FIFO), not a regular file" in printed
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert registered_path(shell) is None  # registered, but not as that file
    assert [p.name for p in tmp_path.iterdir()] == ["metric.py"]  # no temporary left behind


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
@pytest.mark.parametrize("force", ["", "--force"])
def test_a_device_is_refused_even_as_root(shell, tmp_path, force):
    # The same device as /dev/null (1, 3), made here: the real one is never put at risk.
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    printed = refused(shell, f"--save {device} {force}")
    assert f"Not saved: {device} is a device, not a regular file" in printed
    assert stat.S_ISCHR(device.lstat().st_mode)
    assert device.lstat().st_rdev == os.makedev(1, 3)


@pytest.mark.parametrize("force", ["", "--force"])
def test_a_symlink_is_refused_and_its_target_kept(shell, tmp_path, force):
    target = tmp_path / "submitted.py"
    target.write_text("# the submitted metric\n")
    (tmp_path / "metric.py").symlink_to(target)
    printed = refused(shell, f"--save metric.py {force}")
    assert f"Not saved: metric.py is a symbolic link (to {target})" in printed
    assert "even with --force" in printed
    assert (tmp_path / "metric.py").is_symlink()
    assert target.read_text() == "# the submitted metric\n"


def test_a_dangling_symlink_is_refused_not_created_through(shell, tmp_path):
    (tmp_path / "metric.py").symlink_to(tmp_path / "elsewhere.py")
    printed = refused(shell, "--save metric.py --force")
    assert "is a symbolic link" in printed
    assert not (tmp_path / "elsewhere.py").exists()


def test_a_directory_is_refused(shell, tmp_path):
    (tmp_path / "metric.py").mkdir()
    printed = refused(shell, "--save metric.py --force")
    assert "Not saved: metric.py is a directory, not a regular file" in printed
    assert (tmp_path / "metric.py").is_dir()


@pytest.mark.parametrize("kind", ["directory", "named pipe"])
def test_a_directory_is_said_to_be_one_not_to_hold_a_metric(shell, tmp_path, kind):
    """Found by the attack on issue 44: the refusal for --save onto a directory ended "while
    metric.py (what skynet-check and Skynet read) holds the other one": a directory (or a
    pipe) holds no metric.  It says what the path is and what to do, and that the cell's
    metric is registered."""
    if kind == "directory":
        (tmp_path / "metric.py").mkdir()
        what = "a directory"
    else:
        os.mkfifo(tmp_path / "metric.py")
        what = "a named pipe (FIFO)"
    printed = refused(shell, "--save metric.py")
    assert "holds the other one" not in printed
    assert printed == (
        f"Not saved: metric.py is {what}, not a regular file, and was left untouched. "
        "--save writes a new file or replaces a regular file (with --force): choose another "
        "path. The cell's metric is registered as 'default' all the same: the notebook now "
        "checks it."
    )


def test_the_refusal_is_in_the_report_language(shell, tmp_path):
    os.mkfifo(tmp_path / "metric.py")
    shell.run_line_magic("config", "SkynetMagics.lang = 'fr'")
    printed = refused(shell, "--save metric.py")
    assert "Non enregistrée : metric.py est un tube nommé (FIFO)" in printed


def test_force_still_replaces_a_regular_file_and_a_new_path_is_written(shell, tmp_path):
    saved = tmp_path / "metric.py"
    saved.write_text("# old\n")
    assert "no %%skynet_metric cell saved there" in refused(shell, "--save metric.py")
    assert saved.read_text() == "# old\n"
    assert "Saved to metric.py" in save(shell, "--save metric.py --force")
    assert saved.read_text() == textwrap.dedent(GOOD)
    assert registered_path(shell) == str(saved.resolve())
    assert "Saved to new/metric.py" in save(shell, "--save new/metric.py")
    assert (tmp_path / "new" / "metric.py").is_file()


def test_an_existing_file_that_is_not_utf8_is_refused_not_a_traceback(shell, tmp_path):
    saved = tmp_path / "metric.py"
    saved.write_bytes(b"# caf\xe9\n")
    printed = refused(shell, "--save metric.py")
    assert "no %%skynet_metric cell saved there" in printed
    assert saved.read_bytes() == b"# caf\xe9\n"


# --- an existing path is a path, whatever its name ---------------------------------

ROWS = [{"text": "I was charged twice.", "label": "billing"}]


@pytest.mark.parametrize("name", ["metric(1).py", "METRIC.PY", "metric", "my metric.v2"])
def test_an_existing_file_is_read_as_a_file_whatever_its_name(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(GOOD)
    report = sj.check(name, ROWS, outputs="label", output_column="label")
    assert report.passed, str(report)
    assert sj.load_metric(name).path == str((tmp_path / name).resolve())


def test_a_missing_py_path_in_any_case_says_no_file_not_a_name_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = sj.check("metric(2).PY", ROWS, outputs="label", output_column="label")
    assert not report.passed
    assert report.step("metric_loads").message == "No metric file at metric(2).PY."


def test_one_line_of_source_is_still_source(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    metric = sj.load_metric("score = lambda input, output: (1.0, {'feedback': 'ok'})")
    assert metric.path is None and metric({}, "x") == (1.0, {"feedback": "ok"})


def test_a_coding_line_is_honoured_and_other_bytes_name_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    body = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'reçu'}\n"
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n" + body.encode("latin-1"))
    assert sj.load_metric("latin.py")({}, "x", {}) == (1.0, {"feedback": "reçu"})
    (tmp_path / "broken.py").write_bytes(body.encode("latin-1"))
    with pytest.raises(sj.ContractError) as caught:
        sj.load_metric("broken.py")
    assert str(caught.value).startswith("broken.py is not valid utf-8 text (byte 0xe7 on line 2)")


def test_the_load_magic_reads_odd_names_and_encodings(shell, tmp_path):
    (tmp_path / "metric(1).py").write_text(GOOD)
    body = "def score(input, output, expected=None):\n    return 1.0, {'feedback': 'reçu'}\n"
    (tmp_path / "latin.py").write_bytes(b"# coding: latin-1\n" + body.encode("latin-1"))
    for name, line in (("one", "'metric(1).py' one"), ("latin", "latin.py latin")):
        with capture_output() as captured:
            shell.run_line_magic("skynet_metric", f"--load {line}")
        assert f"Metric '{name}' registered: score(input, output, expected)." in captured.stdout
        metric = shell.magics_manager.registry["SkynetMagics"].metrics[name]
        assert metric.path is not None and metric({}, "x", {})[0] == 1.0

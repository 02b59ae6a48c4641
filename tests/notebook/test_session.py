"""Issue 34, items 2, 3 and 5 in the notebook: the magics' work gets a typed session.

The work modules (option_groups, quality_magics, optimize_magic, align_magic)
receive the parsed line and a :class:`~skynet_jupyter.notebook.session.Session`,
never the ``Magics`` object; a magic sets its run's language once (``--lang``, else
``SkynetMagics.lang``) and everything below reads it; ``%skynet_agree`` names the
human column ``--labels`` as ``%skynet_align`` does (``--human`` still works).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from IPython.core.error import UsageError

import skynet_jupyter
from skynet_jupyter.i18n import current_lang
from skynet_jupyter.notebook import names
from tests.quality_support import TICKETS, labelled_shell

NOTEBOOK = Path(skynet_jupyter.__file__).parent / "notebook"
ROWS = "--outputs label --output-column label"


@pytest.fixture
def shell(tmp_path, monkeypatch):
    with labelled_shell(tmp_path, monkeypatch) as shell:
        yield shell


def _reaches_the_magics(tree: ast.AST) -> list[str]:
    """Where a module names the Magics object: a parameter ``magics``, or ``x.magics``/
    ``self._magics``, or an attribute read on a name ``magics``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.arg in ("magics", "_magics"):
            found.append(f"parameter {node.arg}")
        if isinstance(node, ast.Attribute) and node.attr in ("magics", "_magics"):
            found.append(f".{node.attr}")
        named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if named and node.value.id == "magics":
            found.append(f"magics.{node.attr}")
    return found


def test_no_module_but_magics_py_touches_the_magics_object():
    found = {
        path.name: _reaches_the_magics(ast.parse(path.read_text(encoding="utf-8")))
        for path in NOTEBOOK.glob("*.py")
        if path.name != "magics.py"
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_notebook_has_one_option_error_class_of_its_own_with_its_own_name():
    from skynet_jupyter.core.options import OptionError

    assert not hasattr(names, "OptionError")
    assert not issubclass(names.UnusableName, OptionError)
    with pytest.raises(names.UnusableName, match="--data nowhere"):
        names.resolve("--data", "nowhere", names.data_file, {})


def test_save_no_longer_re_exports_the_core_writer():
    from skynet_jupyter.notebook import save

    assert save.__all__ == ["save_source"]
    assert not hasattr(save, "write_atomically")


@pytest.mark.parametrize(
    "line",
    [
        f"skynet_probe --data tickets {ROWS}",
        f"skynet_stability --data tickets {ROWS} --repeats 2",
        f"skynet_agree --data labelled {ROWS} --labels human",
        f"skynet_compare default lenient --data tickets {ROWS}",
        f"skynet_check --data tickets {ROWS}",
    ],
)
def test_a_data_error_ends_every_magic_in_the_runs_language(shell, line):
    # Before, the quality magics said it in English (str() of the DataError) under --lang fr.
    name, _, rest = line.partition(" ")
    wrong = rest.replace("--outputs label", "--outputs nope")
    with pytest.raises(UsageError, match=r"^--outputs : aucune colonne 'nope'"):
        shell.run_line_magic(name, f"{wrong} --lang fr")


def test_the_language_is_set_once_for_the_run_and_ends_with_it(shell, monkeypatch):
    probe = importlib.import_module("skynet_jupyter.quality.probe")
    heard: list[tuple[str, str]] = []
    real = probe.probe_with

    def listening(metric, data, options, **kwargs):
        heard.append((current_lang(), options.language))
        return real(metric, data, options, **kwargs)

    monkeypatch.setattr(probe, "probe_with", listening)
    shell.run_line_magic("skynet_probe", f"--data tickets {ROWS} --lang pt;")
    shell.run_line_magic("config", "SkynetMagics.lang = 'fr'")
    shell.run_line_magic("skynet_probe", f"--data tickets {ROWS};")
    assert heard == [("pt", "pt"), ("fr", "fr")]  # the context, and what worker processes get
    assert current_lang() == "en"  # outside any run again


def test_the_setting_speaks_for_the_magics_without_a_lang_option(shell, capsys):
    shell.run_line_magic("config", "SkynetMagics.lang = 'fr'")
    shell.run_line_magic("skynet_metric", "")
    assert "forme d'appel" in capsys.readouterr().out  # the listing's head, in French


@pytest.mark.parametrize("option", ["--labels", "--human"])
def test_agree_names_the_human_column_labels_and_human_is_the_same_option(shell, option):
    report = shell.run_line_magic("skynet_agree", f"--data labelled {ROWS} {option} human;")
    assert report.n == len(TICKETS)  # every case labelled from the column named
    assert report.accuracy is not None


def test_agree_documents_the_older_name_once():
    from skynet_jupyter.notebook.magics import SkynetMagics

    said = " ".join(SkynetMagics.skynet_agree.__wrapped__.__doc__.split())  # the description
    assert "--labels COL" in said
    assert said.count("--human") == 1
    (option,) = [
        action
        for action in SkynetMagics.skynet_agree.parser._actions
        if "--labels" in action.option_strings
    ]
    assert option.option_strings == ["--labels", "--human"]
    assert "--human" not in option.help  # the option's own line lists both names already

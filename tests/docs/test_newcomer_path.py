"""What a newcomer opens first and reads on (issue 36, items 12 and 13).

- The README's first command roots JupyterLab at the repository, so the quickstart's
  link to ``../README.md`` opens; the quickstart's Next section lists every tutorial; the
  README's reward-view picture says which tutorial shows a reward view.
- Tutorial 04 states the legend's weights the code computes; tutorial 08's direct
  ``gepa.optimize`` run says, from its result, what GEPA kept and why.
"""

from __future__ import annotations

import ast
import re
import shlex

import nbformat
import pytest

from skynet_jupyter.core.reward import PARTS, RewardSpec
from skynet_jupyter.notebook.widgets._html import legend_html
from tests.conftest import ROOT
from tests.docs.test_notebooks import NOTEBOOKS, TUTORIALS
from tests.docs.test_tutorials import LINK, executed, output_text

README = ROOT / "README.md"


def stored(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)


# --- item 12 ---------------------------------------------------------------------------


def jupyter_lab_arguments() -> list[str]:
    """The options and file the README's first command gives ``jupyter lab``."""
    first = re.search(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[1]
    for command in first.split("&&"):
        words = shlex.split(command)
        if words[:2] == ["jupyter", "lab"]:
            return words[2:]
    raise AssertionError("the README's first command does not start jupyter lab")


def test_the_first_command_roots_jupyterlab_where_the_quickstart_links_open(tmp_path, monkeypatch):
    from jupyter_server.serverapp import ServerApp  # what `jupyter lab` hands its options to

    (tmp_path / "notebooks").mkdir()
    (tmp_path / "README.md").write_text(README.read_text(encoding="utf-8"))
    quickstart = tmp_path / "notebooks" / "01-quickstart.ipynb"
    quickstart.write_text((NOTEBOOKS / "01-quickstart.ipynb").read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)  # the command runs from the repository's root
    app = ServerApp()
    app.parse_command_line(jupyter_lab_arguments())
    root = app.root_dir
    assert app._resolve_file_to_run_and_root_dir() == "notebooks/01-quickstart.ipynb"
    # Every relative link of the quickstart opens inside what JupyterLab serves.
    for target in {t.partition("#")[0] for t in LINK.findall(quickstart.read_text())}:
        if re.match(r"[a-z]+://", target):
            continue
        path = (quickstart.parent / target).resolve()
        assert path.is_relative_to(root), (
            f"JupyterLab is rooted at {root}: the quickstart's link {target} leads nowhere"
        )


def test_the_quickstart_next_section_lists_every_tutorial():
    last = stored("01-quickstart").cells[-1]
    targets = LINK.findall(last.source)
    missing = [name for name in TUTORIALS[1:] if f"{name}.ipynb" not in targets]
    assert missing == [], f"the quickstart's Next section does not list {missing}"


def test_the_reward_picture_says_which_tutorial_shows_a_reward_view():
    text = README.read_text(encoding="utf-8")
    at = text.index("(docs/check.png)")
    around = text[at : text.index("\n\n", text.index("\n\n", at) + 2)]
    named = re.findall(r"\(notebooks/(\d\d-[\w-]+)\.ipynb\)", around)
    shows = [
        name
        for name in named
        if any("REWARD_SPEC" in c.source for c in stored(name).cells if c.cell_type == "code")
    ]
    assert shows, "the picture shows a reward view: name the tutorial whose check has one"
    quickstart = stored("01-quickstart").cells
    assert not any("REWARD_SPEC" in c.source for c in quickstart if c.cell_type == "code")


# --- item 13 ---------------------------------------------------------------------------

SLIDERS = re.compile(
    r"move speed to (?P<speed>\d\.\d\d), leaving accuracy at (?P<accuracy>\d\.\d\d) "
    r"and cost at (?P<cost>\d\.\d\d), and the legend shows accuracy (?P<shown_accuracy>\d\.\d\d), "
    r"speed (?P<shown_speed>\d\.\d\d) and cost (?P<shown_cost>\d\.\d\d)"
)


def tutorial_reward_spec(name: str) -> RewardSpec:
    for cell in stored(name).cells:
        if cell.cell_type == "code" and cell.source.startswith("%%skynet_metric\n"):
            module = ast.parse(cell.source.split("\n", 1)[1])
            for node in module.body:
                if isinstance(node, ast.Assign) and node.targets[0].id == "REWARD_SPEC":
                    return RewardSpec.from_dict(ast.literal_eval(node.value))
    raise AssertionError(f"{name} registers no REWARD_SPEC metric")


def test_tutorial_04_states_the_weights_the_legend_shows():
    text = " ".join(c.source for c in stored("04-accuracy-speed-cost").cells)
    found = SLIDERS.search(re.sub(r"\s+", " ", text))
    assert found, "tutorial 04 no longer says which slider values give which legend weights"
    spec = tutorial_reward_spec("04-accuracy-speed-cost")
    sliders = tuple(float(found[part]) for part in PARTS)
    # The sliders start at the metric's weights: the ones the text leaves alone are those.
    for part in ("accuracy", "cost"):
        assert float(found[part]) == pytest.approx(spec.weights[part]), part
    rescaled = spec.with_weights(*sliders).weights
    legend = legend_html(tuple(rescaled[part] for part in PARTS), "en", sliders)
    shown = dict(re.findall(r"(accuracy|speed|cost) × (\d\.\d\d)", legend))
    stated = {part: found[f"shown_{part}"] for part in PARTS}
    assert stated == shown, f"the legend shows {shown}, tutorial 04 says {stated}"


@pytest.mark.timeout(600)
def test_tutorial_08_says_what_gepa_kept_and_why(tmp_path_factory):
    notebook = executed("08-preview-the-optimizer", tmp_path_factory)
    cell = next(
        c for c in reversed(notebook.cells) if c.cell_type == "code" and "gepa.optimize" in c.source
    )
    shown = output_text(cell)
    weak = re.search(r'weak_prompt = "(.*)"', "\n".join(c.source for c in notebook.cells))[1]
    weak = weak.encode().decode("unicode_escape")
    assert "validation" in shown, f"the gepa.optimize run shows no validation score:\n{shown}"
    if shown.rstrip().endswith(weak):
        assert "kept the seed" in shown, f"the seed came back with no word why:\n{shown}"
    else:
        assert "GEPA kept #" in shown, shown

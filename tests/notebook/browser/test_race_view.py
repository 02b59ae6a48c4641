"""The race's live view in a real JupyterLab, in real Chromium (marked ``browser``).

A notebook runs tutorial 10's set-up cells and its first race cell
(``%skynet_race --metrics informative,terse ... --repeats 3``, offline, with the
tutorial's stand-in reflection model), in a window 1300 px wide with the file
browser open.  The test records the view while the race runs (the "running"
title with calls counted), then reads the finished view against the report's
numbers: the verdict ("'informative' wins"), the standings with both metrics
and their held-out scores, the chart (one ``polyline`` per run, a colour per
metric, inside the output area), each best artifact's word diff; proves nothing
in the output area scrolls sideways and the static copy is hidden while the
widget shows.  The screenshot goes to a temporary path; to refresh the
README's picture, run::

    SKYNET_RACE_SCREENSHOT=docs/race.png \\
        python -m pytest tests/notebook/browser/test_race_view.py -m browser -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest

from skynet_jupyter.optimizers.race_render import PAD
from tests.browser_support import (
    ROOT,
    chromium_page,
    require_browser,
    running_lab,
    wait_kernel_idle,
    write_notebook,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TUTORIAL = ROOT / "notebooks" / "10-race-your-feedback.ipynb"
VIEW = ".skynet-race-view"
CELL = f".jp-Cell:has({VIEW})"  # the race cell (its widget, then its static copy)


def tutorial_cells() -> list[str]:
    """Tutorial 10's code cells up to and including its first race."""
    cells = []
    for cell in nbformat.read(TUTORIAL, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        cells.append(cell.source)
        if cell.source.startswith("race = %skynet_race"):
            return cells
    raise AssertionError("tutorial 10 has no `race = %skynet_race` cell")


NUMBERS = """\
import json
print("NUMBERS" + json.dumps({
    "winner": race.winner,
    "held_out": len(race.held_out_cases),
    "repeats": race.repeats,
    "seed_artifact": race.seed_artifact,
    "standings": [{"name": e.name, "mean": e.mean, "low": e.low, "high": e.high,
                   "runs": len([r for r in e.runs if r.curve]),
                   "best": e.best_artifact, "best_seed": e.best_run.seed}
                  for e in race.standings],
}))
"""

# Snapshots of the view taken every 20 ms while the race cell runs (in the page).
WATCH = """() => {
    window.__raceSeen = [];
    window.__raceWatch = setInterval(() => {
        const view = document.querySelector('.skynet-race-view');
        if (!view) return;
        const title = view.querySelector('.sko-title');
        const bar = [...view.querySelectorAll('.widget-label')]
            .find(e => /metric calls/.test(e.innerText));
        window.__raceSeen.push({
            running: !!(title && title.classList.contains('sko-run')),
            title: title ? title.innerText : '',
            progress: bar ? bar.innerText : '',
            rows: view.querySelectorAll('table.skr-standings tr[data-metric]').length,
            lines: view.querySelectorAll('svg.skr-chart polyline').length,
        });
    }, 20);
}"""

# Everything in the race cell's output area that is wider than its box or lies outside it.
MEASURE = r"""cell => {
    const area = cell.querySelector('.jp-Cell-outputArea');
    const box = area.getBoundingClientRect();
    const problems = [];
    for (const e of [area, ...area.querySelectorAll('*')]) {
        if (!e.getClientRects().length) continue;
        const style = getComputedStyle(e);
        if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0
                && !['visible', 'hidden', 'clip'].includes(style.overflowX))
            problems.push(['scrolls', e.className.baseVal ?? e.className,
                           e.scrollWidth, e.clientWidth]);
        const r = e.getBoundingClientRect();
        if (r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1))
            problems.push(['outside', e.tagName, String(e.className.baseVal ?? e.className),
                           Math.round(r.left), Math.round(r.right),
                           Math.round(box.left), Math.round(box.right)]);
    }
    const page = document.querySelector('.jp-WindowedPanel-outer');
    if (page && page.scrollWidth > page.clientWidth + 1)
        problems.push(['notebook scrolls', page.scrollWidth, page.clientWidth]);
    return {problems, width: Math.round(box.width)};
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    require_browser()
    root = tmp_path_factory.mktemp("race-root")
    home = tmp_path_factory.mktemp("race-home")
    write_notebook(root / "race.ipynb", [*tutorial_cells(), NUMBERS])
    with running_lab(root, home) as running:
        yield running


@pytest.fixture(scope="module")
def page_and_seen(lab):
    with chromium_page(lab.home, width=1300, height=1400) as page:
        page.goto(lab.open_url("race.ipynb"))
        wait_kernel_idle(page)
        page.evaluate(WATCH)
        # Not awaited: the command's promise resolves only when every cell has run.
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        page.wait_for_selector(".jp-OutputArea-output:has-text('NUMBERS')", timeout=180_000)
        page.wait_for_selector(f"{VIEW} .sko-title.sko-up", timeout=30_000)
        page.wait_for_selector(f"{VIEW} svg.skr-chart", timeout=30_000)
        wait_kernel_idle(page)
        seen = page.evaluate(
            "() => { clearInterval(window.__raceWatch); return window.__raceSeen; }"
        )
        yield page, seen


def _numbers(page) -> dict:
    text = page.locator(".jp-OutputArea-output:has-text('NUMBERS')").inner_text()
    return json.loads(text.split("NUMBERS", 1)[1].strip())


def test_the_view_moves_while_the_race_runs(page_and_seen):
    _, seen = page_and_seen
    running = [s for s in seen if s["running"]]
    assert running, seen[:5]
    assert any("Racing 2 metrics" in s["title"] for s in running), running[:3]
    # Calls counted on screen before the end: "N of 360 metric calls", N > 0.
    counted = [s for s in running if "of 360 metric calls" in s["progress"]]
    assert any(not s["progress"].startswith("0 of") for s in counted), running[-3:]


def test_the_verdict_names_the_winner(page_and_seen):
    page, _ = page_and_seen
    numbers = _numbers(page)
    assert numbers["winner"] == "informative"
    first, second = numbers["standings"]
    title = page.locator(f"{VIEW} .sko-title").inner_text()
    assert "'informative' wins" in title
    assert f"held-out score {first['mean']:.3f} against {second['mean']:.3f}" in title
    assert f"on {numbers['held_out']} held-out cases" in title


def test_the_standings_show_both_metrics_and_their_held_out_scores(page_and_seen):
    page, _ = page_and_seen
    numbers = _numbers(page)
    rows = page.locator(f"{VIEW} table.skr-standings tr[data-metric]")
    assert [r.get_attribute("data-metric") for r in rows.all()] == ["informative", "terse"]
    for row, entry in zip(rows.all(), numbers["standings"], strict=True):
        assert float(row.get_attribute("data-mean")) == pytest.approx(entry["mean"])
        held = row.locator("td").nth(1).inner_text()
        assert held == f"{entry['mean']:.3f} [{entry['low']:.3f}–{entry['high']:.3f}]"
        assert row.is_visible()
    assert rows.first.get_attribute("class") == "sko-best"  # the winner is marked


def test_the_chart_draws_one_line_per_run_a_colour_per_metric(page_and_seen):
    page, _ = page_and_seen
    numbers = _numbers(page)
    chart = page.locator(f"{VIEW} svg.skr-chart")
    assert chart.count() == 1 and chart.is_visible()
    lines = chart.locator("polyline").all()
    chart_width = float(chart.get_attribute("viewBox").split()[2])
    runs = sum(entry["runs"] for entry in numbers["standings"])
    assert len(lines) == runs == numbers["repeats"] * 2 == 6
    colours: dict[str, set[str]] = {}
    for line in lines:
        points = (line.get_attribute("points") or "").split()
        assert points and all("," in p for p in points), points
        # A line you can see: it runs to the calls its run spent (a run that never beat
        # the seed, as "terse", is a flat line, not a dot under another metric's line).
        drawn = line.evaluate("e => e.getBBox().width")
        assert drawn > 0.8 * (chart_width - 2 * PAD), (drawn, points)
        name = line.locator("title").text_content()
        colours.setdefault(name, set()).add(line.get_attribute("stroke"))
    assert set(colours) == {"informative", "terse"}
    assert all(len(c) == 1 for c in colours.values()), colours  # one colour per metric...
    assert len(set.union(*colours.values())) == 2  # ...and a different one for each
    # The swatch in each standings row is its metric's line colour.
    for name, (colour,) in colours.items():
        swatch = page.locator(f'{VIEW} tr[data-metric="{name}"] .skr-swatch')
        assert colour.lower() in (swatch.get_attribute("style") or "").lower()
    area = page.locator(f"{CELL} .jp-Cell-outputArea").bounding_box()
    box = chart.bounding_box()
    assert box["width"] > 200 and box["height"] > 60, box
    assert box["x"] >= area["x"] - 1 and box["x"] + box["width"] <= area["x"] + area["width"] + 1


def test_each_best_artifact_shows_its_word_diff(page_and_seen):
    page, _ = page_and_seen
    numbers = _numbers(page)
    heads = page.locator(f"{VIEW} .skr-body .sko-h").all_inner_texts()
    diffs = page.locator(f"{VIEW} .skr-body .sko-diff").all()
    assert len(heads) == len(diffs) == 2
    for head, diff, entry in zip(heads, diffs, numbers["standings"], strict=True):
        assert f"Best artifact of {entry['name']!r} (seed {entry['best_seed']})" in head
        # The diff read without its deleted words is the best artifact itself.
        kept = diff.evaluate(
            "e => { const c = e.cloneNode(true); c.querySelectorAll('del')"
            ".forEach(d => d.remove()); return c.textContent; }"
        )
        assert kept == entry["best"]
    informative, terse = diffs
    added = " ".join(informative.locator("ins").all_inner_texts())
    assert "refund" in added and "fail" in added, added
    assert terse.locator("ins, del").count() == 0  # "Wrong." taught nothing: the seed
    assert numbers["standings"][1]["best"] == numbers["seed_artifact"]


def test_no_sideways_scroll_with_the_file_browser_open(page_and_seen):
    page, _ = page_and_seen
    assert page.viewport_size["width"] == 1300
    assert page.locator("#filebrowser").is_visible()
    cell = page.locator(CELL)
    cell.scroll_into_view_if_needed()
    measured = cell.evaluate(MEASURE)
    assert measured["width"] < 1000, measured  # the file browser takes its share
    assert not measured["problems"], measured


def test_the_static_copy_is_hidden_while_the_widget_shows(page_and_seen):
    page, _ = page_and_seen
    assert page.locator(VIEW).is_visible()
    static = page.locator(f"{CELL} .skynet-static")
    assert static.count() == 1
    assert static.locator(".skynet-race").count() == 1  # the finished report is there...
    assert not static.is_visible()  # ...but hidden: one report on screen
    titles = [t for t in page.locator(f"{CELL} .sko-title").all() if t.is_visible()]
    assert len(titles) == 1


def test_screenshot_of_the_live_view(page_and_seen, tmp_path):
    page, _ = page_and_seen
    view = page.locator(VIEW)
    view.scroll_into_view_if_needed()
    shot = tmp_path / "race.png"
    view.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    wanted = os.environ.get("SKYNET_RACE_SCREENSHOT")
    if wanted:  # only on request: tests never rewrite tracked files by themselves
        target = Path(wanted)
        target = target if target.is_absolute() else ROOT / target
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, target)

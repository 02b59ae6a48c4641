"""Regenerate the pictures in docs/ from a realistic check, in a real JupyterLab.

    python -m tests.make_pictures                  # all of them
    python -m tests.make_pictures --only check     # docs/check.png (the README's picture)
    python -m tests.make_pictures --out-dir /tmp/p # somewhere else

A notebook checks the ticket example the way a person would: the shipped
tickets, a keyword classifier behind a priced stand-in task model, and a
``REWARD_SPEC`` metric whose feedback says what a correct label looks like.
Three of the tickets are checked, one of them misclassified, so the pictures
show the steps, a failing case's feedback and the reward decomposition.  A
second metric reads a column the data doesn't have, so the broken contract's
reason and fix show too.

- ``check.png``: the view in JupyterLab (light theme, a wide window);
- ``narrow.png``: an 800x900 window with the file browser open;
- ``dark.png``: JupyterLab Dark, the passing and the broken check;
- ``export.png``: ``jupyter nbconvert --to html --execute``, opened with the network off;
- ``no-judge.png``: a judge metric checked with no model configured (a failing check);
- ``legend.png``: the case table and the legend under it (what a mark and a colour mean).

Needs Chromium and the ``[test]`` extra (the same setup as the browser tests).
Tests never write these files; only this command does.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    ROOT,
    browser_missing,
    chromium_page,
    lab_env,
    run_all_cells,
    running_lab,
    set_theme,
    wait_kernel_idle,
    write_notebook,
)

DOCS = ROOT / "docs"

SETUP = '''\
import time

import pandas as pd
import skynet_jupyter as sj
from skynet_jupyter import ModelReply

tickets = pd.read_csv(sj.load_example("tickets"))
PROMPT = open(sj.load_example("prompt")).read()


def keyword_model(instructions, text):
    """A stand-in for the task model: the prompt's keyword rules, priced like a small model."""
    time.sleep(0.05 + len(text) / 2000)
    for line in instructions.splitlines():
        label, _, words = line.partition(":")
        if any(w.strip() and w.strip() in text.lower() for w in words.split(",")):
            return ModelReply(label.strip(), 60, 2, cost_usd=0.00003 + len(text) * 1e-6)
    return ModelReply("other", 60, 2, cost_usd=0.00003 + len(text) * 1e-6)


sj.configure(task_model=keyword_model)


def classify(prompt, input):
    from skynet import llm

    return llm(prompt, input["text"])
'''

METRIC = """\
%%skynet_metric
from skynet import reward

REWARD_SPEC = {
    "weights": {"accuracy": 0.7, "speed": 0.2, "cost": 0.1},
    "accuracy": {},
    "speed": {"reference": 100},
    "cost": {"reference": 0.0001},
}

HINTS = {
    "billing": "charges, invoices, refunds, prices and discounts are billing",
    "technical": "crashes, errors and features that do not work are technical",
    "other": "anything that is neither a payment nor a fault is other",
}


def score(input, output, expected=None):
    want = expected["label"]
    if output == want:
        return reward(REWARD_SPEC, 1.0, f"Correct: {want!r}.")
    return reward(
        REWARD_SPEC,
        0.0,
        f"Expected {want!r}, got {output!r} for {input['text']!r}: {HINTS[want]}.",
    )
"""

CHECK = "%skynet_check --data tickets[7:10] --outputs label --run classify --artifact PROMPT"

BROKEN_METRIC = """\
%%skynet_metric by_customer
def score(input, output, expected=None):
    plan = input["customer_plan"]  # not a column of the tickets
    return (1.0 if output == expected["label"] else 0.0, f"Plan {plan}.")
"""

BROKEN_CHECK = (
    "%skynet_check --metric by_customer --data tickets[7:10] --outputs label "
    "--run classify --artifact PROMPT --no-raise"
)

NUMBERS = """\
import json
from skynet_jupyter.show.render import headline
print("NUMBERS" + json.dumps({
    "title": headline(_report),
    "feedback": [c.feedback for c in _report.cases],
    "scores": [c.score for c in _report.cases],
    "mean": _report.mean_score,
}))
"""

CELLS = [
    "%load_ext skynet_jupyter",
    SETUP,
    METRIC,
    "_report = " + CHECK,
    BROKEN_METRIC,
    BROKEN_CHECK,
    NUMBERS,
]

# A judge asked with no model set: the environment's models are cleared first.
NO_JUDGE_METRIC = """\
%%skynet_metric judge
from skynet import llm


def score(input, output, expected=None):
    verdict = llm(
        "Answer PASS if the label fits the support ticket, else FAIL, then say why.",
        input=f"Ticket: {input['text']}\\nLabel: {output}",
    )
    return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict}
"""
NO_JUDGE_CHECK = (
    "%skynet_check --metric judge --data tickets[7:10] --outputs label "
    "--run classify --artifact PROMPT --no-raise"
)
NO_MODELS = """\
import os

for variable in ("SKYNET_METRIC_MODEL", "SKYNET_REFLECTION_MODEL"):
    os.environ.pop(variable, None)
print("NUMBERS" + json.dumps({"judge": "unset"}))
"""
JUDGE_CELLS = [
    "%load_ext skynet_jupyter",
    "import json\n" + SETUP,
    NO_MODELS,
    METRIC,
    "_report = " + CHECK,
    NO_JUDGE_METRIC,
    NO_JUDGE_CHECK,
]
PICTURES = ("check", "narrow", "dark", "export", "no-judge", "legend")


def numbers_of(text: str) -> dict:
    """The NUMBERS line the notebook printed (the report's own title, feedback, scores)."""
    return json.loads(text.split("NUMBERS", 1)[1].strip().splitlines()[0])


def open_and_run(page, lab, name: str) -> None:
    page.goto(lab.open_url(name, workspace=Path(name).stem))  # alone: no other tabs
    wait_kernel_idle(page)
    run_all_cells(page)
    page.wait_for_selector(".jp-OutputArea-output:has-text('NUMBERS')", timeout=120_000)
    page.wait_for_selector(".skynet-view .skv-title.skv-pass", timeout=60_000)
    page.wait_for_selector(".skynet-view .skv-title.skv-fail", timeout=60_000)
    page.wait_for_selector(".skynet-view .skv-track[data-mean]", timeout=30_000)


def judge_and_legend(page, lab, out_dir: Path, only: tuple[str, ...]) -> list[Path]:
    """``no-judge.png`` (the judge's check, failed); ``legend.png`` (the passing check's table)."""
    page.goto(lab.open_url("judge.ipynb", workspace="judge"))
    wait_kernel_idle(page)
    run_all_cells(page)
    page.wait_for_selector(".jp-OutputArea-output:has-text('NUMBERS')", timeout=120_000)
    page.wait_for_selector(".skynet-view .skv-title.skv-pass", timeout=120_000)
    page.wait_for_selector(".skynet-view .skv-title.skv-fail", timeout=120_000)
    written = []
    if "no-judge" in only:
        failed = page.locator(".skynet-view:has(.skv-title.skv-fail)").first
        failed.scroll_into_view_if_needed()
        failed.screenshot(path=str(out_dir / "no-judge.png"))
        written.append(out_dir / "no-judge.png")
    if "legend" in only:
        table = page.locator(".skynet-view:has(.skv-title.skv-pass) .skv-cases-box").first
        table.scroll_into_view_if_needed()
        table.screenshot(path=str(out_dir / "legend.png"))
        written.append(out_dir / "legend.png")
    return written


def export_html(root: Path, home: Path, notebook: Path, *, widget_state: bool = True) -> Path:
    """``jupyter nbconvert --to html --execute`` (widget state stored, as by default)."""
    out = root / "export"
    command = [
        sys.executable,
        "-m",
        "nbconvert",
        "--to",
        "html",
        "--execute",
        str(notebook),
        "--output-dir",
        str(out),
        f"--ExecutePreprocessor.store_widget_state={widget_state}",
        "--ExecutePreprocessor.timeout=300",
    ]
    if not widget_state:
        command += ["--output", notebook.stem + "-nostate"]
    done = subprocess.run(
        command, env=lab_env(home), cwd=root, capture_output=True, text=True, timeout=600
    )
    if done.returncode:
        raise RuntimeError(f"nbconvert failed ({done.returncode}):\n{done.stderr[-4000:]}")
    name = notebook.stem + ("" if widget_state else "-nostate") + ".html"
    return out / name


def offline_page(browser, path: Path, *, width: int = 1100, height: int = 1000):
    """The exported file as a reader without network sees it (the widget CDN unreachable)."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=1, offline=True
    )
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector(".skynet-static .skynet-report", timeout=30_000)
    return page


def make_pictures(out_dir: Path, only: tuple[str, ...] = PICTURES) -> list[Path]:
    written = []
    with tempfile.TemporaryDirectory(prefix="skynet-pictures-") as scratch:
        root, home = Path(scratch, "root"), Path(scratch, "home")
        root.mkdir()
        for name in ("check", "narrow", "dark"):
            write_notebook(root / f"{name}.ipynb", CELLS)
        write_notebook(root / "judge.ipynb", JUDGE_CELLS)
        out_dir.mkdir(parents=True, exist_ok=True)
        with running_lab(root, home) as lab:
            if "no-judge" in only or "legend" in only:
                with chromium_page(lab.home, height=1000) as page:
                    written += judge_and_legend(page, lab, out_dir, only)
            if "check" in only:
                with chromium_page(lab.home, height=1000) as page:
                    open_and_run(page, lab, "check.ipynb")
                    view = page.locator(".skynet-view").first
                    view.scroll_into_view_if_needed()
                    view.screenshot(path=str(out_dir / "check.png"))
                    written.append(out_dir / "check.png")
            if "narrow" in only:
                with chromium_page(lab.home, width=800, height=900) as page:
                    open_and_run(page, lab, "narrow.ipynb")
                    page.locator(".skynet-view").first.scroll_into_view_if_needed()
                    page.screenshot(path=str(out_dir / "narrow.png"))
                    written.append(out_dir / "narrow.png")
            if "dark" in only:
                with chromium_page(lab.home, height=1000) as page:
                    open_and_run(page, lab, "dark.ipynb")
                    set_theme(page, "JupyterLab Dark")
                    try:
                        area = page.locator(".jp-Notebook")
                        broken = page.locator(".skynet-view").nth(1)
                        broken.evaluate("e => e.scrollIntoView({block: 'start'})")
                        area.screenshot(path=str(out_dir / "dark.png"))
                    finally:
                        set_theme(page, "JupyterLab Light")
                    written.append(out_dir / "dark.png")
        if "export" in only:
            source = root / "exported"  # its own folder: its own run cache, so a fresh run
            source.mkdir()
            write_notebook(source / "export.ipynb", CELLS)
            exported = export_html(source, home, source / "export.ipynb")
            from playwright.sync_api import sync_playwright

            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
                )
                try:
                    page = offline_page(browser, exported)
                    page.locator(".skynet-static").first.screenshot(
                        path=str(out_dir / "export.png")
                    )
                finally:
                    browser.close()
            written.append(out_dir / "export.png")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.make_pictures", description=__doc__)
    parser.add_argument("--out-dir", type=Path, default=DOCS, help=f"default: {DOCS}")
    parser.add_argument("--only", choices=PICTURES, action="append", help="one picture (repeat)")
    args = parser.parse_args(argv)
    missing = browser_missing()
    if missing:
        print(f"make_pictures: cannot run a browser here: {missing}", file=sys.stderr)
        return 2
    for path in make_pictures(args.out_dir, tuple(args.only or PICTURES)):
        print(f"Wrote {path} ({path.stat().st_size:,} bytes).")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the README's picture of the probe view, docs/probe.png, in a real JupyterLab.

    python -m tests.make_quality_picture             # writes docs/probe.png
    python -m tests.make_quality_picture --out x.png

The notebook (``CELLS``, shared with tests/notebook/browser/test_quality_views.py) loads the
ticket example, a chatty classifier that answers in a sentence, and a metric
that only checks the answer *contains* the label; ``%skynet_probe`` then shows
what an optimizer could game.  It goes on to the other three views
(stability with a stand-in judge that flips, agreement with a small
human-labelled column, compare after fixing the metric), which the browser
test reads.  Needs Chromium and the ``[test]`` extra; tests never write the
picture, only this command does.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tests.browser_support import (
    ROOT,
    browser_missing,
    chromium_page,
    run_all_cells,
    running_lab,
    wait_kernel_idle,
    write_notebook,
)

PICTURE = ROOT / "docs" / "probe.png"
HOSTILE = '<img src=x onerror="window.__pwned=1">'

SETUP = f'''\
import pandas as pd

import skynet_jupyter as sj

tickets = pd.read_csv(sj.load_example("tickets")).head(6)
tickets.loc[5, "text"] = {"The " + HOSTILE + " logo is broken on the invoice page."!r}
prompt = sj.load_example("prompt").read_text()


def classify(artifact, input):
    text = input["text"].lower()
    for line in artifact.splitlines():
        label, _, words = line.partition(":")
        if any(word.strip() and word.strip() in text for word in words.split(",")):
            return f"I would file this under {{label.strip()}}."
    return "I would file this under other."


asked = {{}}


def moody(instructions, input):
    """A stand-in judge that changes its verdict on every second look at an 'other' answer."""
    asked[input["ticket"]] = asked.get(input["ticket"], 0) + 1
    right = input["expected"] in input["answer"].lower()
    if "other" in input["answer"] and asked[input["ticket"]] % 2 == 0:
        right = not right
    return ("PASS" if right else "FAIL") + ". The answer names the category."


labelled = tickets.copy()
labelled["ok"] = ["pass", "pass", "pass", "fail", "pass", "pass"]
'''

CONTAINS = """\
%%skynet_metric
def score(input, output, expected=None):
    want = expected["label"]
    if want in output.lower():
        return 1.0, {"feedback": "Names the right category."}
    return 0.0, {"feedback": f"Expected the category {want!r}; the answer was {output!r}."}
"""

PROBE = "probes = %skynet_probe --data tickets --outputs label --run classify --artifact prompt"

JUDGE = """\
%%skynet_metric judge
from skynet import llm


def score(input, output, expected=None):
    verdict = llm(
        "Does the answer name the expected category? Reply PASS or FAIL, then one sentence.",
        input={"ticket": input["text"], "expected": expected["label"], "answer": output},
    )
    return (1.0 if verdict.startswith("PASS") else 0.0), {"feedback": verdict}
"""

STABILITY = (
    '%config SkynetMagics.metric_model = sj.StandInModel(moody, tag="")\n'
    "steady = %skynet_stability --metric judge --data tickets --outputs label --run classify "
    "--artifact prompt --repeats 4\n"
)

AGREE = (
    "agreed = %skynet_agree --data labelled --outputs label --run classify --artifact prompt "
    "--human ok"
)

FIXED = """\
%%skynet_metric
import re


def score(input, output, expected=None):
    words = re.findall(r"[a-z]+", str(output).lower())
    named = [label for label in ("billing", "technical", "other") if label in words]
    if len(words) > 12 or len(named) != 1:
        return 0.0, {"feedback": "Answer in one short sentence that names one category."}
    if named[0] != expected["label"]:
        return 0.0, {"feedback": f"Expected {expected['label']!r}, got {named[0]!r}."}
    return 1.0, {"feedback": "Names the right category."}
"""

COMPARE = (
    "compared = %skynet_compare default --data tickets --outputs label --run classify "
    "--artifact prompt"
)

NUMBERS = """\
import json
print("NUMBERS" + json.dumps({
    "flagged": sorted(probes.flagged),
    "flip_rate": steady.flip_rate,
    "kappa": agreed.kappa,
    "changed": compared.changed,
    "feedback_changed": compared.feedback_changed,
}))
"""

CELLS = [
    "%load_ext skynet_jupyter",
    SETUP,
    CONTAINS,
    PROBE,
    JUDGE,
    STABILITY,
    AGREE,
    FIXED,
    COMPARE,
    NUMBERS,
]


def open_views(page) -> None:
    """Run the notebook and wait until the four views and the numbers are drawn."""
    wait_kernel_idle(page)
    run_all_cells(page)
    page.wait_for_selector(".jp-OutputArea-output:has-text('NUMBERS')", timeout=120_000)
    page.wait_for_selector(".skynet-compare .skq-compare", timeout=30_000)


def make_probe_picture(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="skynet-pictures-") as scratch:
        root, home = Path(scratch, "root"), Path(scratch, "home")
        root.mkdir()
        write_notebook(root / "quality.ipynb", CELLS[:4])
        with running_lab(root, home) as lab, chromium_page(lab.home, height=1000) as page:
            page.goto(lab.open_url("quality.ipynb"))
            wait_kernel_idle(page)
            run_all_cells(page)
            page.wait_for_selector(".skynet-probe .skq-probes", timeout=120_000)
            view = page.locator(".skynet-probe")
            view.scroll_into_view_if_needed()
            out.parent.mkdir(parents=True, exist_ok=True)
            view.screenshot(path=str(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.make_quality_picture", description=__doc__
    )
    parser.add_argument("--out", type=Path, default=PICTURE, help=f"default: {PICTURE}")
    args = parser.parse_args(argv)
    missing = browser_missing()
    if missing:
        print(f"make_quality_picture: cannot run a browser here: {missing}", file=sys.stderr)
        return 2
    make_probe_picture(args.out)
    print(f"Wrote {args.out} ({args.out.stat().st_size:,} bytes).")
    return 0


if __name__ == "__main__":
    sys.exit(main())

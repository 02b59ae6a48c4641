"""Issue 25, item 13: the legend under every case table reads as a sentence, in each language.

It said "its score is, red below 0.5, ...": the sentence stopped before its verdict.  The
magic's side is in tests/notebook/test_careful_reader_magics.py.
"""

from __future__ import annotations

import html
import re

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import LANGUAGES, t
from skynet_jupyter.show.render import marks_legend, score_level

# The broken clause in each language: a verb, then a comma where its complement belongs.
DANGLING = {"en": r"\bis, red", "fr": r"l'est, rouge", "pt": r"\bé, vermelha"}
# Written as the scores beside them are (fmt_score: a point in every language), so one view
# never mixes 0,5 and 0.625.
THRESHOLDS = {"en": ("0.5", "0.8"), "fr": ("0.5", "0.8"), "pt": ("0.5", "0.8")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_legend_says_what_the_colours_of_the_score_mean(lang):
    legend = marks_legend(lang)
    assert not re.search(DANGLING[lang], legend), legend
    low, high = THRESHOLDS[lang]
    assert legend.index(low) < legend.index(high)  # the colours' bounds, as score_level has them
    assert (score_level(0.49), score_level(0.5), score_level(0.79), score_level(0.8)) == (
        "lo",
        "mid",
        "mid",
        "hi",
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_report_shows_the_legend_under_its_table(lang, examples_dir):
    report = sj.check(
        str(examples_dir / "metric.py"),
        sj.load_example("tickets"),
        outputs="label",
        run=str(examples_dir / "classify.py") + ":run",
        artifact="billing: charge",
        lang=lang,
    )
    shown = html.unescape(report._repr_html_())
    assert t("view.marks_legend", lang, held="✓", broke="✗").split("(")[1] in shown
    assert not re.search(DANGLING[lang], shown)

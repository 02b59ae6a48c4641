"""A misspelled option of a quality tool is refused as Python refuses one, naming the tool."""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.i18n import t

ROWS = [{"text": "hi", "label": "a", "said": "a", "human": 1}]


def exact(input, output, expected=None):
    ok = float(output == expected["label"])
    return ok, {"feedback": "Same." if ok else "Different.", "scores": {"exact": ok}}


SAID = {"outputs": "label", "output_column": "said"}
TOOLS = {
    "stability": lambda **kw: sj.stability(exact, ROWS, **SAID, **kw),
    "probe": lambda **kw: sj.probe(exact, ROWS, **SAID, **kw),
    "agreement": lambda **kw: sj.agreement(exact, ROWS, **SAID, **kw),
    "compare": lambda **kw: sj.compare(exact, exact, ROWS, **SAID, **kw),
}


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_a_misspelled_option_names_the_tool_and_the_nearest_option(tool):
    with pytest.raises(TypeError) as refused:
        TOOLS[tool](timout=3)
    said = t("options.unknown_keyword", "en", function=tool, name="timout")
    assert str(refused.value) == said + " Did you mean 'timeout'?"
    assert "RunOptions" not in str(refused.value)


@pytest.mark.parametrize("lang", ["fr", "pt"])
def test_an_option_far_from_every_name_is_refused_in_the_users_language(lang):
    with pytest.raises(TypeError) as refused:
        # (labels= was the example once; it is agreement's name for the human column now)
        TOOLS["agreement"](rubric="human", lang=lang)
    said = t("options.unknown_keyword", lang, function="agreement", name="rubric")
    assert str(refused.value) == said

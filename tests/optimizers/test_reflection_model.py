"""The reflection model GEPA calls: the text it is given, counted, and how it names itself.

GEPA sends chat messages instead of one prompt when the records hold images: the
model then reads the text parts, in order, one paragraph each.
"""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.examples.classify import run as classify
from skynet_jupyter.optimizers.gepa_adapter import ReflectionModel
from tests.race_support import TERSE, WEAK_PROMPT, tickets


def propose(instructions, input):
    return instructions


def test_chat_messages_reach_the_model_as_their_text_parts_in_order():
    asked = []

    def model(instructions, input):
        asked.append((instructions, input))
        return "a new text"

    reflection = ReflectionModel(model)
    messages = [
        {"role": "system", "content": "Improve the prompt."},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Case 1 failed."},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}},
                "not a part",  # skipped: a part is a mapping
                {"type": "text", "text": 7},
            ],
        },
        {"role": "user"},  # no content: nothing to read
    ]
    assert reflection(messages) == "a new text"
    expected = "Improve the prompt.\n\nCase 1 failed.\n\n\n\n7"
    assert asked == [(expected, None)]
    assert reflection.prompts == [expected]
    assert (reflection.calls, reflection.cost_usd, reflection.cost_known) == (1, 0.0, True)


def test_a_prompt_string_reaches_the_model_as_it_is():
    asked = []
    reflection = ReflectionModel(lambda instructions, input: asked.append(instructions) or "x")
    assert reflection("  two\n\nlines ") == "x"
    assert asked == ["  two\n\nlines "]


def test_the_reflection_model_names_itself_without_secrets():
    assert repr(ReflectionModel("openai/gpt-4o-mini")) == "<reflection model openai/gpt-4o-mini>"
    keyed = ReflectionModel({"model": "openai/gpt-4o-mini", "api_key": "sk-abcdef123456secret"})
    assert repr(keyed) == "<reflection model openai/gpt-4o-mini>"
    assert repr(ReflectionModel(propose)) == "<reflection model callable propose>"


def test_a_model_that_failed_is_not_asked_again():
    """Issue 43, K2: GEPA retries a failed batched proposal task by task; the second ask
    gets the same error, and no request."""
    asked = []

    def down(instructions, input):
        asked.append(instructions)
        raise RuntimeError("The provider is down.")

    reflection = ReflectionModel(down)
    with pytest.raises(RuntimeError) as first:
        reflection("Improve the prompt.")
    with pytest.raises(RuntimeError) as again:
        reflection("Improve the prompt, task by task.")
    assert again.value is first.value and len(asked) == 1
    assert reflection.calls == 0


def test_the_reflection_failure_is_one_sentence_with_one_period():
    """Issue 43, K2: "…not a bug in your code.. Check" had two periods."""
    pytest.importorskip("gepa")

    def down(instructions, input):
        raise RuntimeError("The provider is down. Try again later.")

    report = sj.optimize(
        TERSE,
        tickets(),
        outputs="label",
        run=classify,
        artifact=WEAK_PROMPT,
        budget=30,
        reflection_model=down,
    )
    assert report.stopped == "reflection_error" and report.stop is None
    assert report.error == (
        "The reflection model failed: RuntimeError: The provider is down. Try again later. "
        "Check reflection_model (or SkynetMagics.reflection_model); the candidates found "
        "before are kept."
    )
    assert ".." not in str(report)

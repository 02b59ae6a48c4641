"""The offline stand-in model: :class:`StandInModel` (``skynet_jupyter.StandInModel``).

For tutorials, tests and a first check without network access or an API key.
With ``cacheable=True`` its replies are kept in the run cache as a real model's
are (issue 44, item 6), keyed on the request it was asked: the run cache, and a
restart that asks nothing, can then be tried offline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .llm import ModelReply, messages_for, render_input

__all__ = ["StandInModel"]


class StandInModel:
    """An offline **stand-in** for a real model, for tutorials and tests.

    It answers without network access, exactly what it is told to answer
    (``sj.StandInModel("PASS")`` replies ``"PASS"``), so a metric that reads
    the verdict works as it will with a real model; reports and views count
    and mark the calls a stand-in answered instead.  ``answer`` is a fixed
    text, or a function ``(instructions, input) -> str``; without one, the
    reply describes the request.  ``tag`` is put before every reply (none by
    default).  Tokens are counted as words; the cost is 0 unless you give
    prices per token.  ``calls`` keeps every ``(instructions, input)`` asked (in this
    process: a stand-in is never copied, so the object you configured is the one asked).

    ``cacheable=True``: its replies are kept in the run cache (``RunCache``,
    ``%skynet_cache``), keyed on the request as a real call's are: its ``name``
    stands for the model (with its fixed answer and tag), then the instructions,
    the input and the options.  A check after a restart then asks it nothing for
    a request it has seen.  Give it a new ``name`` when you change what a
    function answer says, as a real model's name changes with the model.

        sj.configure(metric_model=sj.StandInModel("PASS"))   # offline
        sj.configure(metric_model="openai/gpt-4o-mini")       # the real one
    """

    names_itself = True  # messages name it by its repr (describe_model reads this)
    stand_in = True  # its replies, also those replayed from the run cache, are a stand-in's

    def __init__(
        self,
        answer: str | Callable[[str, Any], str] | None = None,
        *,
        tag: str = "",
        input_cost_per_token: float = 0.0,
        output_cost_per_token: float = 0.0,
        name: str = "stand-in",
        cacheable: bool = False,
    ) -> None:
        if answer is not None and not isinstance(answer, str) and not callable(answer):
            raise TypeError("answer must be a str or a function (instructions, input) -> str.")
        self.answer = answer
        self.tag = tag
        self.input_cost_per_token = float(input_cost_per_token)
        self.output_cost_per_token = float(output_cost_per_token)
        self.name = name
        self.cacheable = bool(cacheable)
        self.calls: list[tuple[str, Any]] = []

    def request_model(self) -> Mapping[str, Any] | None:
        """What stands for the model in a cached request's key (None: never cached): the
        name, the fixed answer and the tag, and the prices (a reply's cost is kept)."""
        if not self.cacheable:
            return None
        answer = self.answer if isinstance(self.answer, str) or self.answer is None else "fn"
        return {
            "stand_in": self.name,
            "answer": answer,
            "tag": self.tag,
            "prices": [self.input_cost_per_token, self.output_cost_per_token],
        }

    def __call__(self, instructions: str, input: Any = None) -> ModelReply:
        self.calls.append((instructions, input))  # list.append is atomic: safe across cases
        if self.answer is None:
            text = (
                f"A stand-in reply, not a real model's, to {_short(instructions)} "
                f"about {_short(render_input(input))}."
            )
        elif isinstance(self.answer, str):
            text = self.answer
        else:
            text = str(self.answer(instructions, input))
        text = self.tag + text
        asked = sum(len(m["content"].split()) for m in messages_for(instructions, input))
        said = len(text.split())
        cost = asked * self.input_cost_per_token + said * self.output_cost_per_token
        return ModelReply(text, asked, said, cost, stand_in=True)

    # A live handle, never copied: ``%config SkynetMagics.metric_model = judge`` hands the
    # magics a deep copy of what it sets (traitlets), and ``judge.calls`` must count the
    # calls the check made (issue 44).  A process worker still gets a pickled copy.
    def __copy__(self) -> StandInModel:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> StandInModel:
        return self

    def __repr__(self) -> str:
        kept = ", cacheable" if self.cacheable else ""
        return f"StandInModel({self.name!r}, offline{kept})"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split())
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")

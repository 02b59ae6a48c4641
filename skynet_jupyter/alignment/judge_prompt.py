"""The judge's instructions in a metric's source: found, rewritten, loaded as a fresh module.

A judge metric keeps its instructions in a module-level string, such as
``JUDGE = \"\"\"...\"\"\"`` used as ``llm(JUDGE, input=...)``.  :func:`find_prompt`
finds that string literal in the metric's source (a ``%%skynet_metric`` cell
or a ``metric.py`` file: both run as their own module).  A candidate text is
the same source with only that literal replaced (:meth:`JudgePrompt.source_with`),
loaded as a new module (:meth:`JudgePrompt.metric_with`): the user's metric
and its module are never changed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..core.metric import Metric, load_metric
from ..i18n import t

__all__ = ["JudgePrompt", "PromptNotFound", "find_prompt", "string_literal"]


class PromptNotFound(ValueError):
    """The metric has no usable string of that name; the message says what it has."""


@dataclass(frozen=True)
class JudgePrompt:
    """Where the instructions sit in the metric's source: ``source[start:end]`` is their
    literal, ``text`` its value."""

    name: str
    text: str
    source: str
    start: int
    end: int
    metric: Metric

    def source_with(self, text: str) -> str:
        """The metric's source with the instructions ``text``: only that literal changes."""
        literal = string_literal(text, self.source[self.start : self.end])
        return self.source[: self.start] + literal + self.source[self.end :]

    def metric_with(self, text: str) -> Metric:
        """The metric with the instructions ``text``, in a module of its own."""
        source = self.source if text == self.text else self.source_with(text)
        name = self.metric.name
        variant = load_metric(
            source,
            name=name,
            filename=f"<skynet_metric {name}: {self.name}>",
            first_line=self.metric.first_line,  # a cell's lines keep their numbers
        )
        variant.path = None  # the source of no file (until it is saved)
        return variant


def string_literal(text: str, like: str) -> str:
    """A Python literal for ``text``, triple-quoted as ``like`` was when that reads back the same.

    ``ast.literal_eval`` is the judge: a text a triple-quoted literal would change
    (a backslash, a closing quote) is written with ``repr``.
    """
    quote = '"""' if not like.startswith("'''") else "'''"
    if "\\" not in text and (like.startswith(('"""', "'''")) or "\n" in text):
        candidate = f"{quote}{text}{quote}"
        try:
            if ast.literal_eval(candidate) == text:
                return candidate
        except (SyntaxError, ValueError):
            pass
    return repr(text)


def _offset(lines: list[str], line: int, column: int) -> int:
    """The character offset of ``ast``'s (1-based line, UTF-8 byte column) position."""
    before = sum(len(text) for text in lines[: line - 1])
    return before + len(lines[line - 1].encode("utf-8")[:column].decode("utf-8"))


def _assignments(tree: ast.Module, name: str) -> list[ast.expr | None]:
    """The values assigned to ``name`` at the module's top level (None: no value)."""
    values: list[ast.expr | None] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            if any(isinstance(target, ast.Name) and target.id == name for target in node.targets):
                values.append(node.value)
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == name
        ):
            values.append(node.value)
    return values


def _strings(metric: Metric) -> list[str]:
    """The module-level names of the metric that hold a string."""
    module = metric.module
    names = vars(module) if module is not None else {}
    return [n for n, v in names.items() if isinstance(v, str) and not n.startswith("__")]


def find_prompt(metric: Metric, name: Any, lang: str) -> JudgePrompt:
    """The instructions ``name`` in ``metric``'s source, or a :class:`PromptNotFound` sentence."""
    if not isinstance(name, str) or not name.isidentifier():
        raise PromptNotFound(t("align.prompt_name", lang, value=repr(name)))
    source = metric.source
    if source is None:
        raise PromptNotFound(t("align.no_source", lang, name=metric.name))
    tree = ast.parse(source)
    values = _assignments(tree, name)
    if not values:
        known = ", ".join(_strings(metric)) or t("align.none", lang)
        raise PromptNotFound(t("align.no_prompt", lang, prompt=name, known=known))
    if len(values) > 1:
        raise PromptNotFound(t("align.assigned_twice", lang, prompt=name, count=len(values)))
    value = values[0]
    if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        raise PromptNotFound(t("align.not_literal", lang, prompt=name))
    assert value.end_lineno is not None and value.end_col_offset is not None
    lines = source.splitlines(keepends=True)
    start = _offset(lines, value.lineno, value.col_offset)
    end = _offset(lines, value.end_lineno, value.end_col_offset)
    return JudgePrompt(name, value.value, source, start, end, metric)

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
import re
from dataclasses import dataclass
from typing import Any

from ..core.metric import Metric, load_metric
from ..i18n import t

__all__ = ["JudgePrompt", "PromptNotFound", "find_prompt", "locate_prompt", "string_literal"]


class PromptNotFound(ValueError):
    """The metric has no usable string of that name; the message says what it has."""


class _NotBound(PromptNotFound):
    """Nothing in the module's scope binds the name (the caller lists what there is)."""


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
        if text == self.text:
            return self.source  # the literal as written, its quotes and escapes kept
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

    def in_source(self, source: str, lang: str) -> JudgePrompt:
        """The same instructions found in ``source`` (the metric's file as it is now)."""
        text, start, end = locate_prompt(source, self.name, lang)
        return JudgePrompt(self.name, text, source, start, end, self.metric)


def string_literal(text: str, like: str) -> str:
    """A Python literal for ``text``, triple-quoted as ``like`` was when that reads back the same.

    ``ast.literal_eval`` is the judge: a text a triple-quoted literal would change
    (a backslash, a closing quote) is written with ``repr``, as is one with a character
    that is not printable (a carriage return, U+2028...).  A one-line text keeps the
    quotes of ``like``; its ``u`` prefix is kept (``ast`` records it), an ``r`` is not needed.
    """
    prefix = like[: len(like) - len(like.lstrip("rRuU"))]
    bare = like[len(prefix) :]
    keep = "u" if "u" in prefix.lower() else ""
    triple = bare.startswith(('"""', "'''"))
    # Escaped (repr) when written out they would be invisible or break lines for other tools.
    plain = "\\" not in text and all(c.isprintable() or c in "\n\t" for c in text)
    if plain and (triple or "\n" in text):
        quote = "'''" if bare.startswith("'''") else '"""'
    elif plain and bare[:1] in ("'", '"') and "\n" not in text:
        quote = bare[0]  # one line, quoted as it was
    else:
        return keep + repr(text)
    candidate = f"{quote}{text}{quote}"
    try:
        if ast.literal_eval(candidate) == text:
            return keep + candidate
    except (SyntaxError, ValueError):
        pass
    return keep + repr(text)


# Python ends a line of source at \n, \r\n or \r only; str.splitlines() also breaks at
# \v, \f, \x1c-\x1e, \x85, \u2028 and \u2029, and would count lines Python does not.
_LINE_END = re.compile(r"\r\n|\r|\n")


def _line_starts(source: str) -> list[int]:
    """The character offset where each line of ``source`` starts, as Python counts lines."""
    return [0, *(match.end() for match in _LINE_END.finditer(source))]


def _offset(source: str, starts: list[int], line: int, column: int) -> int:
    """The character offset of ``ast``'s (1-based line, UTF-8 byte column) position."""
    begin = starts[line - 1]
    stop = starts[line] if line < len(starts) else len(source)
    head = source[begin:stop].encode("utf-8", "surrogatepass")[:column]
    return begin + len(head.decode("utf-8", "surrogatepass"))


class _Bindings(ast.NodeVisitor):
    """Every statement of the module's own scope that binds or changes ``name``, as
    (what it is, the node).

    Functions and classes are scopes of their own (only ``global name`` in one
    reaches the module's), so their bodies are not visited; ``if``, ``try``,
    ``with`` and loops at the top level are.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[tuple[str, ast.AST]] = []

    def _binds(self, target: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id == self.name for n in ast.walk(target))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == self.name:
                # JUDGE = OTHER = "...": rewriting the literal would change OTHER too.
                alone = len(node.targets) == 1
                self.found.append(("assign", node.value) if alone else ("expression", node))
            elif self._binds(target):
                self.found.append(("expression", node))
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and node.target.id == self.name:
            self.found.append(("assign", node.value) if node.value else ("no_value", node))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if self._binds(node.target):
            self.found.append(("changed", node))
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        if node.target.id == self.name:
            self.found.append(("expression", node))
        self.generic_visit(node)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        if self._binds(node.target):
            self.found.append(("expression", node))
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node: ast.withitem) -> None:
        if node.optional_vars is not None and self._binds(node.optional_vars):
            self.found.append(("expression", node.context_expr))
        self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name == self.name:
            self.found.append(("expression", node))
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name == self.name:
            self.found.append(("expression", node))
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        for alias in node.names:
            if (alias.asname or alias.name.split(".")[0]) == self.name:
                self.found.append(("import", node))

    visit_ImportFrom = visit_Import

    def _scope(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, kind: str
    ) -> None:
        """A function or class: its name is bound here; ``global name`` in it changes it."""
        if node.name == self.name:
            self.found.append((kind, node))
        for inner in ast.walk(node):
            if isinstance(inner, ast.Global) and self.name in inner.names:
                self.found.append(("changed", inner))
                break
        for decorator in node.decorator_list:
            self.visit(decorator)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._scope(node, "function")

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._scope(node, "class")

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return  # a scope of its own, which binds nothing of the module's


# What a binding that is not one plain string literal is, in words (by _Bindings' kinds).
_KINDS = {
    "function": "align.kind_function",
    "class": "align.kind_class",
    "import": "align.kind_import",
    "no_value": "align.kind_no_value",
}
_KINDS_AT_A_LINE = {"expression": "align.kind_expression", "changed": "align.kind_changed"}


def _refusal(kind: str, node: ast.AST, name: str, lang: str) -> str | None:
    """Why ``name`` cannot be rewritten, in one sentence (None: it is one plain literal)."""
    if kind == "assign":
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return None
        if isinstance(node, ast.JoinedStr):
            what = t("align.kind_fstring", lang)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes):
            what = t("align.kind_bytes", lang)
        elif isinstance(node, ast.Constant):
            what = t("align.kind_constant", lang, value=repr(node.value)[:40])
        else:  # built from other values
            return t("align.not_literal", lang, prompt=name)
    elif kind in _KINDS_AT_A_LINE:
        what = t(_KINDS_AT_A_LINE[kind], lang, line=getattr(node, "lineno", "?"))
    else:
        what = t(_KINDS[kind], lang)
    return t("align.prompt_is", lang, prompt=name, what=what)


def locate_prompt(source: str, name: str, lang: str) -> tuple[str, int, int]:
    """(the value, start, end) of the one string literal assigned to ``name`` in ``source``,
    ``source[start:end]`` that literal as written; else a :class:`PromptNotFound` sentence.

    ``ast`` gives positions as (line, UTF-8 byte column), lines counted as Python
    counts them; the literal found must read back as the value, or nothing is rewritten.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as problem:  # a null byte is a ValueError
        raise PromptNotFound(t("align.unparsable", lang, error=problem)) from None
    visitor = _Bindings(name)
    for statement in tree.body:
        visitor.visit(statement)
    if not visitor.found:
        raise _NotBound(t("align.no_prompt", lang, prompt=name, known=t("align.none", lang)))
    assigned = [node for kind, node in visitor.found if kind == "assign"]
    if len(assigned) > 1:
        raise PromptNotFound(t("align.assigned_twice", lang, prompt=name, count=len(assigned)))
    for kind, node in visitor.found:
        refusal = _refusal(kind, node, name, lang)
        if refusal is not None:
            raise PromptNotFound(refusal)
    value = assigned[0]
    assert isinstance(value, ast.Constant) and isinstance(value.value, str)
    assert value.end_lineno is not None and value.end_col_offset is not None
    starts = _line_starts(source)
    start = _offset(source, starts, value.lineno, value.col_offset)
    end = _offset(source, starts, value.end_lineno, value.end_col_offset)
    try:
        same = ast.literal_eval("(" + source[start:end] + "\n)") == value.value
    except (SyntaxError, ValueError):
        same = False
    if not same:  # never rewrite another string than the one named
        raise PromptNotFound(t("align.not_located", lang, prompt=name, line=value.lineno))
    return value.value, start, end


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
    try:
        text, start, end = locate_prompt(source, name, lang)
    except _NotBound:
        known = ", ".join(_strings(metric)) or t("align.none", lang)
        raise PromptNotFound(t("align.no_prompt", lang, prompt=name, known=known)) from None
    module = metric.module
    if module is not None and vars(module).get(name, text) != text:  # globals()[name] = ...
        what = t("align.kind_runtime", lang)
        raise PromptNotFound(t("align.prompt_is", lang, prompt=name, what=what))
    return JudgePrompt(name, text, source, start, end, metric)

"""What a magic's option names: a notebook variable, an expression, or a file.

``--data tickets``, ``--run classify``, ``--run run.py:classify``,
``--artifact 'Solve it.'``, ``--executor client``: the magics read these here.
Nothing in this module needs a shell: the notebook's namespaces come in as
arguments (``user_ns``, and ``global_ns`` for expressions), so the rules are
tested with a plain dict.  A name that resolves to nothing ends in
:class:`UnusableName`, one sentence saying what was looked for and where; a
run file that fails to load ends in :class:`UserCodeError`, with the user's
own frames.
"""

from __future__ import annotations

import builtins
import difflib
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.tracebacks import user_traceback
from ..i18n import resolve_lang, t

__all__ = [
    "DEFAULT_NAME",
    "MISSING",
    "UnusableName",
    "UserCodeError",
    "artifact_file",
    "data_file",
    "executor",
    "no_file",
    "quoted",
    "resolve",
    "run_file",
    "unquote",
]

MISSING: Any = object()
"""What a file finder returns when there is no such file."""

DEFAULT_NAME = "default"  # the metric a magic uses when none is named


class UnusableName(ValueError):
    """An option names nothing usable; the message says what and how to fix it."""


class UserCodeError(Exception):
    """The user's own file failed to load: one sentence, then their own frames."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail

    def _render_traceback_(self) -> list[str]:  # how IPython shows it: no frames of ours
        return [f"{type(self).__name__}: {self}", *([self.detail] if self.detail else [])]


def unquote(text: str) -> str:
    """``text`` without surrounding spaces and one pair of matching quotes."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def quoted(text: str) -> str | None:
    """The text inside quotes (``--artifact 'Solve the problem.'``), or None if unquoted.

    One rule for the artifact: quoted is the text itself; unquoted names a
    notebook variable, an expression or a file.
    """
    stripped = text.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'":
        return stripped[1:-1]
    return None


def data_file(text: str) -> Any:
    """The path ``text`` names, as a string, if something is there (else :data:`MISSING`)."""
    path = Path(text).expanduser()
    return str(path) if path.exists() else MISSING


def artifact_file(text: str) -> Any:
    """The text of the file ``text`` names, if it is a file (else :data:`MISSING`)."""
    path = Path(text).expanduser()
    return path.read_text(encoding="utf-8") if path.is_file() else MISSING


def no_file(text: str) -> Any:
    """For options that never name a file (``--executor``)."""
    return MISSING


def resolve(
    option: str,
    text: str,
    from_file: Callable[[str], Any],
    user_ns: dict[str, Any],
    global_ns: dict[str, Any] | None = None,
    lang: str | None = None,
) -> Any:
    """What ``text`` names: a variable of ``user_ns``, an expression, else a file.

    The expression is evaluated with ``global_ns`` as globals (default:
    ``user_ns``) and ``user_ns`` as locals, as IPython runs a cell.
    ``from_file(text)`` is asked last; it returns :data:`MISSING` when there is
    no such file.  Nothing found: :class:`UnusableName`, saying so, or giving
    the expression's own error when it named something but failed.
    """
    text = unquote(text)
    if text in user_ns:
        return _not_by_accident(option, text, user_ns[text], user_ns, lang)
    problem: BaseException | None = None
    try:
        code = compile(text, f"<{option}>", "eval")
    except SyntaxError:
        code = None
    if code is not None:
        try:
            found = eval(code, user_ns if global_ns is None else global_ns, user_ns)
        except NameError as exc:
            problem = None if exc.name == text else exc
        except Exception as exc:
            problem = exc
        else:
            return _not_by_accident(option, text, found, user_ns, lang)
    value = from_file(text)
    if value is not MISSING:
        return value
    lang = resolve_lang(lang)
    if problem is not None:
        error = f"{type(problem).__name__}: {problem}"
        raise UnusableName(t("magic.eval_failed", lang, option=option, text=text, error=error))
    hint = _closest_name(text, user_ns, lang) if text.isidentifier() else ""
    raise UnusableName(t("magic.not_found", lang, option=option, text=text, hint=hint))


def _not_by_accident(
    option: str, text: str, found: Any, user_ns: dict[str, Any], lang: str | None
) -> Any:
    """``found``, unless a bare name picked up a builtin function or a module by accident.

    ``--artifact format`` in a notebook that defines ``formats`` would otherwise take
    Python's ``format``, and the run fail far away; no option takes a module or a
    builtin function, so either is a typo: said here, with the closest notebook name.
    """
    if not text.isidentifier():
        return found  # an expression: what the user wrote
    builtin = text not in user_ns and getattr(builtins, text, None) is found and callable(found)
    if not builtin and not isinstance(found, types.ModuleType):
        return found
    lang = resolve_lang(lang)
    hint = _closest_name(text, user_ns, lang)
    message_id = "magic.builtin_found" if builtin else "magic.module_found"
    raise UnusableName(t(message_id, lang, option=option, text=text, hint=hint))


def _closest_name(text: str, user_ns: dict[str, Any], lang: str) -> str:
    """The "Did you mean 'formats'?" that follows a typo of a notebook name, or ""."""
    names = [name for name in user_ns if not name.startswith("_") and name != text]
    close = difflib.get_close_matches(text, names, n=1)
    return t("magic.did_you_mean", lang, name=close[0]) if close else ""


def run_file(text: str, lang: str | None = None) -> Any:
    """The function ``FILE.py:FUNC`` (or ``run`` of ``FILE.py``) names, if that file exists.

    :data:`MISSING` when ``text`` names no ``.py`` file; :class:`UnusableName`
    when the file has no such function; :class:`UserCodeError` when loading it
    raises.
    """
    path, _, func = (text, "", "run") if text.endswith(".py") else text.rpartition(":")
    if not path.endswith(".py") or not Path(path).expanduser().is_file():
        return MISSING
    spec = f"{Path(path).expanduser()}:{func or 'run'}"
    from ..core.metric import load_function  # metric loading: at first use, not %load_ext

    try:
        return load_function(spec)
    except (FileNotFoundError, AttributeError) as problem:
        raise UnusableName(str(problem)) from None
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        message = t("magic.run_file_failed", resolve_lang(lang), path=path, error=error)
        raise UserCodeError(message, user_traceback(exc)) from None


def executor(
    text: str,
    user_ns: dict[str, Any],
    global_ns: dict[str, Any] | None = None,
    lang: str | None = None,
) -> Any:
    """The ``concurrent.futures.Executor`` (anything with ``submit``) ``text`` names."""
    found = resolve("--executor", text, no_file, user_ns, global_ns, lang)
    if not callable(getattr(found, "submit", None)):
        lang = resolve_lang(lang)
        raise UnusableName(t("magic.not_executor", lang, text=text, type=type(found).__name__))
    return found

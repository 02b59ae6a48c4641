"""The parts of a record's head that describe the run around its cases: its options,
its totals, its steps, and where it ran (surface, git commit, package, models).

Everything here is plain JSON with secrets redacted: a model is named (a litellm
string, a dict model's ``"model"``, a callable's type), never shown with its
arguments; an ``api_base`` keeps no password.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.json_export import json_value
from ..core.secrets import masked

if TYPE_CHECKING:
    from ..core.options import RunOptions
    from ..core.report import CaseResult

__all__ = ["git_commit", "model_name", "options_record", "origin_record", "steps_record", "totals"]

Clean = Callable[[str], str]
_ARTIFACT_CHARS = 2_000  # an artifact (a prompt) is kept this long in the options


def options_record(options: RunOptions | None, clean: Clean) -> dict[str, Any]:
    """The run options as plain JSON: what was asked, not the objects (an executor by type)."""
    if options is None:
        return {}
    run = options.run
    artifact = options.artifact
    shown_artifact: Any = None
    if artifact is not None:
        text = artifact if isinstance(artifact, str) else repr(artifact)
        shown_artifact = clean(text[:_ARTIFACT_CHARS])
    return {
        "outputs": json_value(_listed(options.outputs), clean),
        "inputs": json_value(_listed(options.inputs), clean),
        "split": options.split,
        "run": None if run is None else clean(run if isinstance(run, str) else _named(run)),
        "artifact": shown_artifact,
        "output_column": options.output_column,
        "cases": options.cases,
        "sample": str(options.sample),
        "seed": options.seed,
        "json_columns": json_value(_listed(options.json_columns), clean),
        "timeout": options.timeout,
        "run_timeout": options.run_timeout,
        "isolation": str(options.isolation),
        "concurrency": options.concurrency,
        "executor": None if options.executor is None else type(options.executor).__name__,
        "lang": options.lang,
    }


def _listed(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    return list(value)


def _named(function: Any) -> str:
    module = getattr(function, "__module__", None) or ""
    name = getattr(function, "__qualname__", None) or type(function).__qualname__
    return f"{module}.{name}" if module and module != "__main__" else str(name)


def model_name(model: Any) -> str | None:
    """A model as a record names it: a string as it is (no password), a dict model's
    ``"model"``, a callable by its name; never an argument that may hold a key."""
    if model is None:
        return None
    if isinstance(model, str):
        shown: str = masked(model)
        return shown
    if isinstance(model, dict):
        inner = model.get("model")
        return model_name(inner) if isinstance(inner, str) else "dict"
    name = getattr(model, "name", None)
    if isinstance(name, str):
        return f"{type(model).__name__}({name!r})"
    return _named(model)


def origin_record(
    surface: str, models: Any, cwd: Path, metric_path: str | None, clean: Clean
) -> dict[str, Any]:
    named = {}
    if models is not None:
        for role in ("task_model", "metric_model", "reflection_model"):
            name = model_name(getattr(models, role, None))
            named[role.removesuffix("_model")] = None if name is None else clean(name)
    where = Path(metric_path).parent if metric_path else cwd
    return {
        "surface": surface,
        "git_commit": git_commit(where) or (git_commit(cwd) if where != cwd else None),
        "package": f"skynet-jupyter {package_version()}",
        "python": ".".join(map(str, sys.version_info[:3])),
        "models": named,
    }


@functools.cache  # read once per process: the installed package does not change under it
def package_version() -> str:
    """The installed skynet-jupyter's version (from its metadata; "?" when not installed)."""
    from importlib import metadata

    try:
        return metadata.version("skynet-jupyter")
    except metadata.PackageNotFoundError:
        return "?"


def git_commit(folder: Path) -> str | None:
    """The commit checked out in the repository holding ``folder`` (None: not in one).

    Read from ``.git`` itself (HEAD, the ref it names, or packed-refs): no ``git``
    process, and no ``git`` needed on the machine.
    """
    try:
        found = _git_dir(folder.resolve())
        if found is None:
            return None
        head = (found / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head if _is_sha(head) else None
        ref = head.partition(":")[2].strip()
        loose = found / ref
        if loose.is_file():
            value = loose.read_text(encoding="utf-8").strip()
            return value if _is_sha(value) else None
        common = _common_dir(found)
        for place in (common / ref, common / "packed-refs", found / "packed-refs"):
            if place.name != "packed-refs" and place.is_file():
                value = place.read_text(encoding="utf-8").strip()
                return value if _is_sha(value) else None
            if place.name == "packed-refs" and place.is_file():
                for line in place.read_text(encoding="utf-8").splitlines():
                    sha, _, name = line.partition(" ")
                    if name.strip() == ref and _is_sha(sha):
                        return sha
    except (OSError, ValueError):
        return None
    return None


def _git_dir(folder: Path) -> Path | None:
    for place in (folder, *folder.parents):
        marker = place / ".git"
        if marker.is_dir():
            return marker
        if marker.is_file():  # a worktree or a submodule: "gitdir: PATH"
            text = marker.read_text(encoding="utf-8").strip()
            if text.startswith("gitdir:"):
                target = Path(text.partition(":")[2].strip())
                return target if target.is_absolute() else (place / target).resolve()
    return None


def _common_dir(git_dir: Path) -> Path:
    common = git_dir / "commondir"
    if common.is_file():
        target = Path(common.read_text(encoding="utf-8").strip())
        return target if target.is_absolute() else (git_dir / target).resolve()
    return git_dir


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def steps_record(steps: Sequence[Any], clean: Clean) -> list[dict[str, Any]]:
    return [
        {
            "id": step.id,
            "status": str(step.status),
            "message": clean(step.message),
            "hint": clean(step.hint),
            "cases": list(step.cases),
        }
        for step in steps
    ]


def _finite_numbers(values: Sequence[Any]) -> list[float]:
    """The finite numbers among ``values`` (a bool is no number here)."""
    return [
        v
        for v in values
        if (type(v) is float or (isinstance(v, int | float) and not isinstance(v, bool)))
        and math.isfinite(v)
    ]


def totals(
    cases: Sequence[CaseResult], passed: bool, interrupted: bool, total: int
) -> dict[str, Any]:
    """The run's numbers: counts, pass rate, mean score (and named), cost, cached cases."""
    count = len(cases)
    passing = sum(1 for case in cases if case.failed_step is None)
    scores = _finite_numbers([case.score for case in cases])
    named: dict[str, list[float]] = {}
    for case in cases:
        if case.scores:
            for name, value in case.scores.items():
                if _finite_numbers([value]):
                    named.setdefault(str(name), []).append(float(value))
    judge = _finite_numbers([case.judge_cost_usd for case in cases])
    costs = _finite_numbers([case.cost_usd for case in cases]) + judge
    return {
        "cases": count,
        "asked": total,
        "passed": passing,
        "failed": count - passing,
        "pass_rate": passing / count if count else None,
        "mean": sum(scores) / len(scores) if scores else None,
        "mean_scores": {name: sum(v) / len(v) for name, v in named.items()},
        "cost_usd": sum(costs) if costs else None,
        "judge_cost_usd": sum(judge) if judge else None,
        "cached": sum(1 for case in cases if case.cached),
        "passed_check": passed,
        "interrupted": interrupted,
    }

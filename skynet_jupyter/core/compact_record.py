"""``@compact_record``: a slotted record declared like a dataclass, with rarely set fields
sharing one slot.

A run of 10,000 cases keeps 10,000 :class:`~skynet_jupyter.core.report.CaseResult`
records, and the garbage collector visits every slot of each, again and again,
as the run grows (``benchmarks/bench_floor.py``).  So the fields most records
leave at their defaults (declared ``= rare(default)``) share one ``_rare`` slot,
None until one of them is set.  Everything else is what ``@dataclass`` gives:
the constructor in declaration order, equality, repr and pickling field by
field, ``__match_args__``.  ``__init__`` is generated as straight-line code,
as :mod:`dataclasses` does, because it runs once per case.

Declare a field once, in the class body: the decorator reads the annotations.
"""

from __future__ import annotations

import inspect
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

__all__ = ["compact_record", "fresh", "lean_constructor", "rare"]

_T = TypeVar("_T")


class _Rare:
    __slots__ = ("default",)

    def __init__(self, default: Any) -> None:
        self.default = default


class _Fresh:
    __slots__ = ("factory",)

    def __init__(self, factory: Callable[[], Any]) -> None:
        self.factory = factory


def rare(*, default: Any = None) -> Any:
    """A field most records leave at ``default`` (an immutable value): kept in ``_rare``.

    Keyword-only, so that type checkers read it as a default (PEP 681).
    """
    return _Rare(default)


def fresh(*, factory: Callable[[], Any]) -> Any:
    """A field whose default (also for an explicit None) is a new ``factory()``."""
    return _Fresh(factory)


_REQUIRED = object()


def _fields(cls: type) -> list[tuple[str, Any]]:
    """(name, declared default) in declaration order; ``_REQUIRED`` when there is none."""
    return [
        (name, cls.__dict__.get(name, _REQUIRED))
        for name in inspect.get_annotations(cls)
        if not name.startswith("_")
    ]


def _generate(source: str, name: str, namespace: dict[str, Any]) -> Any:
    exec(compile(source, f"<compact_record {name}>", "exec"), namespace)
    return namespace[name]


@dataclass_transform(eq_default=True, field_specifiers=(rare, fresh))
def compact_record(cls: type[_T]) -> type[_T]:
    """The record class declared by ``cls``'s annotated fields (see the module docstring)."""
    fields = _fields(cls)
    names = [name for name, _ in fields]
    rare_names = [name for name, default in fields if isinstance(default, _Rare)]
    common = [name for name in names if name not in rare_names]
    rare_defaults = tuple(default.default for _, default in fields if isinstance(default, _Rare))

    record = _slotted_class(cls, names, common)
    init = _generated_init(record, fields, common, rare_names)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    record.__init__ = init
    for position, name in enumerate(rare_names):
        setattr(record, name, _rare_property(position, rare_defaults))
    _add_value_methods(record, names, frozenset(rare_names), rare_defaults)
    record._lean_defaults = {
        name: default for name, default in fields if name in common and default is not _REQUIRED
    }
    return record  # type: ignore[no-any-return]


def _slotted_class(cls: type, names: list[str], common: list[str]) -> Any:
    """``cls`` made again with slots for its common fields and one ``_rare`` slot."""
    body = {
        key: value
        for key, value in cls.__dict__.items()
        if key not in names and key not in ("__dict__", "__weakref__")
    }
    body["__slots__"] = ("_rare", *common)
    body["__match_args__"] = tuple(names)
    body["__hash__"] = None  # mutable, compared by value
    metaclass: Any = type(cls)
    return metaclass(cls.__name__, cls.__bases__, body)


def _generated_init(
    record: Any, fields: list[tuple[str, Any]], common: list[str], rare_names: list[str]
) -> Any:
    """``__init__`` as straight-line code: it runs once per case."""
    namespace: dict[str, Any] = {"_new": object.__new__, "_record": record}
    params = [_init_parameter(name, default, namespace) for name, default in fields]
    lines = [
        f"    self.{name} = {_common_value(name, default)}"
        for name, default in fields
        if name in common
    ]
    # Kept only if some value is not the default itself (a 0.0 given for 0 stays 0.0):
    # a chain of identity tests, the cheapest check.
    unchanged = " and ".join(f"{name} is {_constant(name, namespace)}" for name in rare_names)
    unchanged = unchanged or "True"
    lines += [
        f"    if {unchanged}:",
        "        self._rare = None",
        "    else:",
        f"        self._rare = [{', '.join(rare_names)}]",
    ]
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(lines)
    return _generate(source, "__init__", namespace)


def _init_parameter(name: str, default: Any, namespace: dict[str, Any]) -> str:
    """The parameter of one field in ``__init__``; its default put in ``namespace``."""
    if default is _REQUIRED:
        return name
    if isinstance(default, _Rare):
        namespace[f"_d_{name}"] = default.default
    elif isinstance(default, _Fresh):  # None stands for "a new one": made in the body
        namespace[f"_d_{name}"] = None
        namespace[f"_f_{name}"] = default.factory
    else:
        namespace[f"_d_{name}"] = default
    return f"{name}=_d_{name}"


def _common_value(name: str, default: Any) -> str:
    """What ``__init__`` stores in a common field's slot."""
    if isinstance(default, _Fresh):
        return f"_f_{name}() if {name} is None else {name}"
    return name


def _add_value_methods(
    record: Any, names: list[str], rare_set: frozenset[str], rare_defaults: tuple[Any, ...]
) -> None:
    """Equality and repr field by field, over ``_values`` (the rare fields unpacked)."""

    def values(self: Any) -> tuple[Any, ...]:
        spare = iter(rare_defaults if self._rare is None else self._rare)
        return tuple(next(spare) if name in rare_set else getattr(self, name) for name in names)

    def eq(self: Any, other: object) -> Any:  # bool, or NotImplemented
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(values(self) == values(other))

    @reprlib.recursive_repr()
    def show(self: Any) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, values(self), strict=True))
        return f"{type(self).__qualname__}({shown})"

    record._values, record.__eq__, record.__repr__ = values, eq, show


def _constant(name: str, namespace: dict[str, Any]) -> str:
    """How generated code names a field's default: a literal for None, True and False
    (no lookup at run time), else the namespace's name for it."""
    default = namespace[f"_d_{name}"]
    return repr(default) if default is None or isinstance(default, bool) else f"_d_{name}"


def _rare_property(position: int, defaults: tuple[Any, ...]) -> property:
    default = defaults[position]

    def get(self: Any) -> Any:
        spare = self._rare
        return default if spare is None else spare[position]

    def put(self: Any, value: Any) -> None:
        spare = self._rare
        if spare is None:
            spare = self._rare = list(defaults)
        spare[position] = value

    return property(get, put)


def lean_constructor(record: type[_T], *given: str) -> Callable[..., _T]:
    """A constructor taking only ``given`` fields (the others at their defaults, none rare).

    Skips the full constructor's many arguments, the expensive part of a call
    made once per case.
    """
    defaults: dict[str, Any] = record._lean_defaults  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"_new": object.__new__, "_record": record}
    lines = [f"def lean({', '.join(given)}):", "    made = _new(_record)"]
    for name in record.__slots__[1:]:  # type: ignore[attr-defined]
        if name not in given:
            default = defaults[name]
            namespace[f"_d_{name}"] = default.factory if isinstance(default, _Fresh) else default
            fresh_value = f"_d_{name}()" if isinstance(default, _Fresh) else None
            name_value = fresh_value or _constant(name, namespace)
        else:
            name_value = name
        lines.append(f"    made.{name} = {name_value}")
    lines += ["    made._rare = None", "    return made"]
    made: Callable[..., _T] = _generate("\n".join(lines), "lean", namespace)
    return made

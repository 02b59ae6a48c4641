"""Every message id is written out where it is used, and the catalogs hold exactly those.

The package is read with ``ast``: the ids are the literal arguments of ``t()`` and
of every function or class that takes a message id (a parameter named ``msg_id`` or
``message_id``: ``DataError``, ``ContractError``, ``OptionError``...), and every
literal shaped like an id (``"step.metric_loads"``) in the tables that pick one by a
value.  An id built at run time (``t(f"step.{name}")``) cannot be checked, so none
may be built.  The scan is tested on small sources first, so that it is known to
catch each fault it looks for.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from skynet_jupyter.i18n import LANGUAGES, PLURAL_FORMS, catalog

PACKAGE = Path(__file__).resolve().parents[2] / "skynet_jupyter"
CATALOG_FILES = {PACKAGE / "i18n" / f"{lang}.py" for lang in LANGUAGES}
ID_PARAMETERS = {"msg_id", "message_id"}
# A message id: lowercase words joined by dots ("quality.probe.count").
ID_SHAPE = re.compile(r"[a-z_]+(?:\.[a-z0-9_]+)+")


@dataclass(frozen=True)
class Use:
    message_id: str
    where: str


@dataclass(repr=False)  # a short repr in a failed assertion
class Scan:
    """What the sources say about message ids."""

    uses: list[Use] = field(default_factory=list)
    built: list[str] = field(default_factory=list)  # "where: expression" of ids built at run time
    plural_calls: list[tuple[Use, set[str | None]]] = field(default_factory=list)


def forms(message: str | Mapping[str, str]) -> dict[str, str]:
    """A catalog value's texts by plural form (a plain sentence is its own "other")."""
    if isinstance(message, str):
        return {"other": message}
    return {form: text for form, text in message.items() if form != "by"}


def placeholders(message: str | Mapping[str, str]) -> set[str]:
    return {
        name
        for text in forms(message).values()
        for _, name, _, _ in string.Formatter().parse(text)
        if name
    }


def plural_fields(message_id: str, catalogs: Mapping[str, Mapping[str, object]]) -> set[str]:
    """The fields that choose the forms of ``message_id`` (none if it has no plural)."""
    return {
        message.get("by", "count")
        for messages in catalogs.values()
        if isinstance(message := messages.get(message_id), Mapping)
    }


def _id_parameter(function: ast.FunctionDef, skip: int) -> tuple[int | None, str] | None:
    """(position, name) of ``function``'s message-id parameter; ``skip``: self."""
    positional = [*function.args.posonlyargs, *function.args.args][skip:]
    for position, argument in enumerate(positional):
        if argument.arg in ID_PARAMETERS:
            return position, argument.arg
    for argument in function.args.kwonlyargs:
        if argument.arg in ID_PARAMETERS:
            return None, argument.arg
    return None


Takers = dict[str, tuple[int | None, str]]


def id_takers(trees: Mapping[str, ast.Module]) -> tuple[Takers, Takers]:
    """The functions and classes, then the methods, that take a message id: where."""
    takers: Takers = {}
    method_takers: Takers = {}
    bases: dict[str, list[str]] = {}  # classes without an __init__ of their own
    methods: set[ast.AST] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            own_init = False
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    methods.add(item)
                    found = _id_parameter(item, skip=1)
                    own_init = own_init or item.name == "__init__"
                    if found and item.name == "__init__":
                        takers[node.name] = found
                    elif found:
                        method_takers[item.name] = found
            if not own_init:
                bases[node.name] = [
                    base.id if isinstance(base, ast.Name) else getattr(base, "attr", "")
                    for base in node.bases
                ]
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node not in methods:
                found = _id_parameter(node, skip=0)
                if found:
                    takers[node.name] = found
    changed = True
    while changed:  # a class without __init__ takes an id as its base class does
        changed = False
        for name, names in bases.items():
            inherited = next((takers[base] for base in names if base in takers), None)
            if name not in takers and inherited:
                takers[name] = inherited
                changed = True
    return takers, method_takers


def _taker(call: ast.Call, takers: Takers, method_takers: Takers) -> tuple[int | None, str] | None:
    """Where ``call`` passes a message id, if it calls something that takes one."""
    if isinstance(call.func, ast.Name):
        return takers.get(call.func.id)
    if isinstance(call.func, ast.Attribute):
        own = isinstance(call.func.value, ast.Name) and call.func.value.id in ("self", "cls")
        found = method_takers.get(call.func.attr)
        return found if own or found else takers.get(call.func.attr)  # module.Function()
    return None


def _id_argument(call: ast.Call, position: int | None, name: str) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return keyword.value
    if position is None or position >= len(call.args):
        return None
    if any(isinstance(arg, ast.Starred) for arg in call.args[: position + 1]):
        return None
    return call.args[position]


def _literals(expression: ast.expr) -> Iterator[ast.Constant]:
    """The literal strings an id expression can be: "a", "a" if c else "b", x or "a"."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        yield expression
    elif isinstance(expression, ast.IfExp):
        yield from _literals(expression.body)
        yield from _literals(expression.orelse)
    elif isinstance(expression, ast.BoolOp):
        for value in expression.values:
            yield from _literals(value)


def _added(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_added(node.left), *_added(node.right)]
    return [node]


def _pieces(node: ast.AST) -> list[str | None] | None:
    """A string built at run time as its literal pieces (None: a value), else None."""
    if isinstance(node, ast.JoinedStr):
        return [v.value if isinstance(v, ast.Constant) else None for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        terms = _added(node)
        pieces = [
            t.value if isinstance(t, ast.Constant) and isinstance(t.value, str) else None
            for t in terms
        ]
        return pieces if any(piece is not None for piece in pieces) else None
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
    ):
        split = re.split(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]", node.left.value)
        return [piece for text in split for piece in (text, None)][:-1]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):
        text = node.func.value.value
        if node.func.attr == "format":
            parsed = string.Formatter().parse(text)
            return [p for literal, name, _, _ in parsed for p in (literal, name and None)]
        if (
            node.func.attr == "join"
            and node.args
            and isinstance(node.args[0], ast.List | ast.Tuple)
        ):
            items = [
                e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None
                for e in node.args[0].elts
            ]
            return [p for item in items for p in (item, text)][:-1]
    return None


def _builds_an_id(pieces: list[str | None], keys: set[str]) -> bool:
    """Whether the pieces spell a catalog key around a value (``"step." + name``)."""
    if not any(piece and re.search("[a-z]", piece) for piece in pieces):
        return False  # f"{package}.{module}": no word of an id in it
    dotted = any(piece and "." in piece for piece in pieces)
    pattern = re.compile("".join(".+" if p is None else re.escape(p) for p in pieces))
    # f"{role}_model" (an attribute name) spells a dotted id only if the value has the dot.
    return any(pattern.fullmatch(key) and (dotted or "." not in key) for key in keys)


def _is_module_path(text: str) -> bool:
    """``"run.engine"``: a module of the package named in a lazy import, not a message."""
    path = PACKAGE.joinpath(*text.split("."))
    return path.with_suffix(".py").is_file() or path.is_dir()


def scan(sources: Mapping[str, str], catalogs: Mapping[str, Mapping[str, object]]) -> Scan:
    """The message ids ``sources`` (path → Python source) use, and the ids they build."""
    keys = set().union(*(set(messages) for messages in catalogs.values()))
    prefixes = {key.split(".")[0] for key in keys if "." in key}
    trees = {path: ast.parse(text, filename=path) for path, text in sources.items()}
    takers, method_takers = id_takers(trees)
    found = Scan()
    for path, tree in trees.items():
        # The literal pieces of a built string are not ids of their own (f"step.{x}").
        pieces_of = {
            id(piece)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr | ast.BinOp)
            for piece in (node.values if isinstance(node, ast.JoinedStr) else _added(node))
        }
        added_inside = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            for part in (node.left, node.right)
        }
        for node in ast.walk(tree):
            where = f"{path}:{getattr(node, 'lineno', 0)}"
            taker = _taker(node, takers, method_takers) if isinstance(node, ast.Call) else None
            if taker is not None:
                assert isinstance(node, ast.Call)
                argument = _id_argument(node, *taker)
                if argument is not None and _pieces(argument) is not None:
                    found.built.append(f"{where}: {ast.unparse(argument)}")
                for literal in _literals(argument) if argument is not None else ():
                    use = Use(literal.value, where)
                    found.uses.append(use)
                    if not any(k.arg is None for k in node.keywords):  # no **fields
                        found.plural_calls.append((use, {k.arg for k in node.keywords}))
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in pieces_of
                and ID_SHAPE.fullmatch(node.value)
                and node.value.split(".")[0] in prefixes
                and not _is_module_path(node.value)
            ):
                found.uses.append(Use(node.value, where))
            if id(node) not in added_inside:
                pieces = _pieces(node)
                if pieces is not None and _builds_an_id(pieces, keys):
                    found.built.append(f"{where}: {ast.unparse(node)}")
    found.built = sorted(set(found.built))
    return found


def package_sources() -> dict[str, str]:
    return {
        str(path.relative_to(PACKAGE.parent)): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
        if path not in CATALOG_FILES
    }


def catalogs() -> dict[str, Mapping[str, object]]:
    return {lang: catalog(lang) for lang in LANGUAGES}


@pytest.fixture(scope="module")
def package() -> Scan:
    return scan(package_sources(), catalogs())


# --- the package ----------------------------------------------------------------------


def test_the_scan_finds_the_ways_ids_travel(package):
    takers, _ = id_takers({p: ast.parse(s) for p, s in package_sources().items()})
    for name in (
        "t",
        "DataError",
        "ContractError",
        "OptionError",
        "OutputsError",
        "SourceFileError",
    ):
        assert name in takers, name
    assert len({use.message_id for use in package.uses}) > 350


def test_every_id_used_exists_in_every_language(package):
    for lang, messages in catalogs().items():
        missing = sorted(
            {
                f"{use.where}: {use.message_id}"
                for use in package.uses
                if use.message_id not in messages
            }
        )
        assert missing == [], f"ids missing from {lang}.py: {missing}"


def test_every_catalog_key_is_used(package):
    used = {use.message_id for use in package.uses}
    dead = sorted(set(catalog("en")) - used)
    assert dead == [], f"catalog keys no code uses (delete them): {dead}"


def test_no_message_id_is_built_at_run_time(package):
    assert package.built == [], (
        "message ids built at run time: write each id out (a dict of literal ids chosen by "
        f"a value is fine): {package.built}"
    )


def test_the_catalogs_have_the_same_keys_and_placeholders():
    english = catalog("en")
    for lang in LANGUAGES:
        other = catalog(lang)
        assert sorted(set(english) ^ set(other)) == [], lang
        for key, message in english.items():
            assert placeholders(other[key]) == placeholders(message), (lang, key)


def test_plural_messages_have_their_forms():
    for lang in LANGUAGES:
        for key, message in catalog(lang).items():
            if isinstance(message, str):
                assert message.strip(), (lang, key)
                continue
            assert {"one", "other"} <= set(message) <= {*PLURAL_FORMS, "by"}, (lang, key)
            assert str.isidentifier(message.get("by", "count")), (lang, key)
            assert all(text.strip() for text in forms(message).values()), (lang, key)


def test_a_plural_message_is_given_its_count(package):
    every = catalogs()
    missing = [
        f"{use.where}: {use.message_id} needs {sorted(needed - given)}"
        for use, given in package.plural_calls
        if (needed := plural_fields(use.message_id, every)) - given
    ]
    assert missing == []


# --- the scan itself, on small sources ---------------------------------------------------

CATALOGS = {
    "en": {
        "step.metric_loads": "Metric loads",
        "hint.metric_loads": "Fix it.",
        "report.cases": {"one": "{count} case", "other": "{count} cases"},
    },
}
TAKERS = """
def t(msg_id, lang=None, /, **fields): ...
class ContractError(Exception):
    def __init__(self, step, message_id, /, **fields): ...
class LoadError(ContractError):
    pass
def _fail(message_id, value, **fields): ...
class Store:
    def _fail(self, what, error): ...
"""


def scanned(code: str) -> Scan:
    return scan({"lib.py": TAKERS, "use.py": code}, CATALOGS)


def ids(code: str) -> set[str]:
    return {use.message_id for use in scanned(code).uses}


def test_the_scan_reads_literal_ids_wherever_they_are_passed():
    assert ids('t("step.metric_loads", lang)') == {"step.metric_loads"}
    assert ids('LoadError("metric_loads", "hint.metric_loads")') == {"hint.metric_loads"}
    assert ids('ContractError(step, message_id="typo.here")') == {"typo.here"}
    assert ids('t("step.metric_loads" if ok else "hint.metric_loads")') == {
        "step.metric_loads",
        "hint.metric_loads",
    }
    # An id table, and an id kept in a variable.
    assert ids('TITLES = {"loads": "step.metric_loads"}\nx = "hint.nope"') == {
        "step.metric_loads",
        "hint.nope",
    }
    assert ids('import_module("run.engine")\nt("labelled")') == {"labelled"}
    # A method of the same name as a function that takes an id takes none.
    assert ids('self._fail("opened", e)\n_fail("hint.metric_loads", v)') == {"hint.metric_loads"}


def test_the_scan_finds_ids_that_do_not_exist():
    missing = {u.message_id for u in scanned('t("step.metric_lods")').uses} - set(CATALOGS["en"])
    assert missing == {"step.metric_lods"}


def test_the_scan_finds_a_dead_key():
    used = {
        use.message_id for use in scanned('t("step.metric_loads")\nt("report.cases", count=1)').uses
    }
    assert set(CATALOGS["en"]) - used == {"hint.metric_loads"}


@pytest.mark.parametrize(
    "code",
    [
        't(f"step.{name}", lang)',
        't("step." + name, lang)',
        'title = f"hint.{step}"',
        'ContractError(step, "step.%s" % name)',
        'ContractError(step, "hint.{}".format(name))',
        't(".".join(["step", name]))',
        'key = "report." + kind + "s"',
        't(f"{kind}.metric_loads")',
    ],
)
def test_the_scan_finds_an_id_built_at_run_time(code):
    assert scanned(code).built != [], code


@pytest.mark.parametrize(
    "code",
    ['f"{__name__}.{module}"', 'f"scores.{name}"', '"line " + str(n)', 'f"{a}: {b}"'],
)
def test_other_built_strings_are_not_ids(code):
    assert scanned(code).built == [], code


def test_the_scan_finds_a_plural_message_without_its_count():
    found = scanned('t("report.cases", lang)\nt("report.cases", lang, count=2)')
    needs = [plural_fields(use.message_id, CATALOGS) - given for use, given in found.plural_calls]
    assert needs == [{"count"}, set()]

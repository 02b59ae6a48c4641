"""The run keywords, declared once (core/keywords.py): every public function that takes
them shows them in its signature, fills its own defaults, and refuses any other keyword
as Python would, naming itself and the nearest keyword."""

from __future__ import annotations

import dataclasses
import inspect
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skynet_jupyter as sj
from skynet_jupyter.core.keywords import (
    CHECK,
    EVALUATE,
    OPTIMIZER,
    CheckKeywords,
    EvalKeywords,
    OptimizerKeywords,
)
from skynet_jupyter.core.options import CHECK_CASES, CHECK_CONCURRENCY, EVAL_CONCURRENCY, RunOptions

FIELDS = {field.name for field in dataclasses.fields(RunOptions)}
TAKERS = [
    (sj.check, CHECK),
    (sj.evaluate, EVALUATE),
    (sj.probe, EVALUATE),
    (sj.stability, EVALUATE),
    (sj.agreement, EVALUATE),
    (sj.compare, EVALUATE),
    (sj.align, OPTIMIZER),
]


def score(input, output, expected=None):
    return 1.0, {"feedback": "Fine."}


def test_each_family_is_made_of_run_options_fields():
    assert set(EvalKeywords.__annotations__) == FIELDS
    assert set(CheckKeywords.__annotations__) == FIELDS - {"concurrency", "executor"}
    assert set(OptimizerKeywords.__annotations__) == FIELDS - {"sample", "seed"}


@pytest.mark.parametrize(("function", "family"), TAKERS, ids=lambda f: getattr(f, "__name__", ""))
def test_the_signature_spells_out_every_keyword_with_its_default(function, family):
    parameters = inspect.signature(function).parameters
    assert not any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    for name in family.names:
        if name == "seed" and function is sj.align:
            continue  # align's own seed (the split's and GEPA's) is declared by align
        shown = parameters[name]
        assert shown.kind is shown.KEYWORD_ONLY
        wanted = family.defaults.get(name, RunOptions.__dataclass_fields__[name].default)
        assert shown.default == wanted, name
    assert "options" not in parameters


def test_the_defaults_a_user_reads_are_the_ones_a_run_gets():
    check = inspect.signature(sj.check).parameters
    assert check["cases"].default == CHECK_CASES
    assert check["isolation"].default == "thread" and type(check["isolation"].default) is str
    assert check["sample"].default == "first" and type(check["sample"].default) is str
    assert inspect.signature(sj.evaluate).parameters["concurrency"].default == EVAL_CONCURRENCY
    made = CHECK.options("check", {"output_column": "label"})
    # The check's cases run side by side (issue 45, item 2); it takes no concurrency keyword.
    assert made.cases == CHECK_CASES and made.concurrency == CHECK_CONCURRENCY


def test_check_refuses_the_keywords_only_evaluate_takes():
    refused = r"^check\(\) got an unexpected keyword argument 'concurrency'"
    with pytest.raises(TypeError, match=refused):
        sj.check(score, [{"q": 1, "a": "x"}], output_column="a", concurrency=4)


names = st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=20)


@settings(max_examples=300, deadline=None)
@given(name=names, lang=st.sampled_from(["en", "fr", "pt"]))
def test_any_other_keyword_is_refused_naming_the_function_and_never_run(name, lang):
    """Generated names: a declared one is taken, any other is a TypeError in the user's
    language that names the function called, with a hint only to a declared keyword."""
    for function, family in (("check", CHECK), ("probe", EVALUATE), ("align", OPTIMIZER)):
        if name in family.names:
            continue
        with pytest.raises(TypeError) as refused:
            family.options(function, {"output_column": "a", "lang": lang, name: 1})
        said = str(refused.value)
        assert said.startswith(f"{function}() ") and repr(name) in said
        hinted = re.findall(r"'(\w+)'", said.split(repr(name), 1)[1])
        assert len(hinted) <= 1 and set(hinted) <= set(family.names)

"""Advice on the feedback text itself: the optimizer learns from it.

GEPA, DSPy GEPA and Auto read only the feedback string to write the next
version of the artifact, so a metric that scores well but says "Wrong." teaches
them nothing.  ``advise`` reads the cases of a report and returns one advisory
step, ``feedback_advice``, that never fails the check.  It flags:

- empty feedback, and generic feedback ("Wrong.", "OK", "Bad format.", "Faux.",
  "Errado." and their like, in English, French and Portuguese, whatever the
  case and punctuation) on a case without full marks;
- the same feedback on cases with different scores;
- a score that does not vary across the cases (two or more of them);
- on a low score, feedback that says nothing about what a correct output looks
  like: it names no expected value, quotes no value other than the output, and
  has none of the words that describe a target ("expected", "should",
  "missing", "attendu", "doit", "esperado", "deve", ...).  What it echoes of the
  output itself is not read for these: a model's completion given back as the
  feedback may hold the expected value, or "should", without stating a target.
  An echo is the output whole, or any piece of it of ``ECHO_WORDS`` words or more
  (a prefix cut mid-word, its first sentence, "Model said: " and a part of it).

Definitions:

- **Full marks** is the higher of 1.0 and the best score seen in the report:
  scores are usually 0..1, and a metric on another scale shows its top when
  some case reaches it.
- A **low** score is below half of full marks.
- For a metric with a ``REWARD_SPEC`` the advice reads the ``accuracy`` part
  (``scores["accuracy"]``): speed and cost vary from run to run and are measured
  by Skynet, while the feedback is about accuracy.

The step is always there, so every view shows what the check looked at: with
nothing to flag it passes and says "no advice" (naming how many cases it read),
and when no case returned a valid pair it is skipped and says there was no
feedback to read.  Only cases that returned a valid pair are read; a check whose
metric fails to load stops before any case runs, and before this step.  An
evaluation's advice reads its first ``ADVICE_CASES`` such cases: advice is about
the metric's habits, which a few hundred cases show, and reading every one of
100,000 would cost more than the run.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from ..i18n import t
from .contract import FEEDBACK_ADVICE, short_repr, step_title
from .report import ADVICE, PASSED, SKIPPED, CaseResult, CheckReport, Step

ADVICE_CASES = 500

LOW_FRACTION = 0.5  # a score below this share of full marks is "low"
SHOWN_CASES = 5  # case numbers listed per flag before "+N more"
EXAMPLE_CHARS = 40  # longer values make the suggested sentence a pattern instead
# This many words of the output in a row, said again in a feedback, are an echo of it (a
# coincidence rarely runs that long; an expected value of a few words stays the metric's).
ECHO_WORDS = 5
_TOLERANCE = 1e-9


def _vocabulary(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words that, on their own, say nothing about a case: a feedback made only of
# these (and numbers) is generic.  Accents are stripped before comparing.
_GENERIC_WORDS = _vocabulary(
    """
    wrong incorrect bad invalid error errors fail failed failure fails mismatch mismatched
    not no nope ok okay fine good great nice correct right yes pass passed true false none
    the a an is was it this that output answer result response prediction label format
    formatted formatting value try again score zero very totally completely poor sorry does
    doesn doesn't do did match matches matching unexpected na n t s valid json wrongly
    faux fausse incorrecte mauvais mauvaise invalide erreur echec rate ratee non pas bien bon
    bonne correcte juste vrai oui la le les l un une est c reponse sortie resultat etiquette
    valeur reessayez encore tres totalement ne correspond de du mal valide
    errado errada incorreto incorreta ruim invalida erro falha falhou nao bom boa certo certa
    correto correta sim o os as e um uma resposta saida resultado formato rotulo valor tente
    novamente muito da do corresponde errou valido valida
    """
)

# Words that describe what a correct output looks like.
_TARGET_WORDS = _vocabulary(
    """
    expected expect expects expecting should must need needs needed needing required requires
    require correct correctly instead rather missing lacks lacking want wanted ought use valid
    include includes contain contains mention
    attendu attendue attendus attendues attendait doit doivent devrait devraient faut manque
    manquent correcte correctement plutot lieu requis requise necessaire valide utilisez
    contenir inclure mentionner
    esperado esperada esperados esperadas esperava deve devem deveria precisa precisam falta
    faltam correto correta corretamente vez necessario necessaria obrigatorio valido valida
    use incluir conter mencionar
    """
)

_QUOTED = re.compile(r"(?<!\w)'([^']+)'(?!\w)|\"([^\"]+)\"|«\s*([^»]+?)\s*»|“([^”]+)”|`([^`]+)`")


@lru_cache(maxsize=4096)  # the same feedback comes back case after case
def _plain(text: str) -> str:
    """Case-folded text without accents, punctuation or repeated spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w.]+|(?<!\d)\.|\.(?!\d)", " ", bare).split())


def _words(text: str) -> list[str]:
    return _plain(text).split()


@lru_cache(maxsize=4096)  # a metric says the same few things case after case
def is_generic(feedback: str) -> bool:
    """True when ``feedback`` is empty or made only of words that say nothing specific."""
    words = _words(feedback)
    return all(word in _GENERIC_WORDS or _is_number(word) for word in words)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _leaves(value: Any) -> Iterable[str]:
    """The scalar values inside ``value`` as text (the expected value(s) of a case)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _leaves(item)
    elif value is not None and not isinstance(value, bool):
        text = str(value).strip()
        if text:
            yield text


def names_target(feedback: str, case: CaseResult) -> bool:
    """True when ``feedback`` says something about what a correct output looks like.

    What the feedback quotes of the output itself does not count: a feedback that
    echoes a model's completion ("... 540 meters per week ...") names the expected
    value only where the completion happens to, and says nothing about a target.
    """
    return _names_target(feedback, _expected_texts(case.expected), _output_texts(case.output))


def _output_texts(output: Any) -> tuple[str, ...]:
    """The output's own texts, as a feedback may echo them: a string output, or the strings
    inside a list or dict output (a structured prediction)."""
    if isinstance(output, str):
        return (output,) if output.strip() else ()
    return tuple(_texts_in(output))


def _texts_in(value: Any, depth: int = 0) -> Iterable[str]:
    """The non-blank strings inside a dict, list or tuple, in order (nothing else is read:
    an object's ``str()`` may raise, and it is not what a feedback echoes)."""
    if depth > 20:  # a structure nested that deep (or one that holds itself): read no more
        return
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, str):
                if item.strip():
                    yield item
            else:
                yield from _texts_in(item, depth + 1)


def _expected_texts(expected: Any) -> tuple[str, ...]:
    """``tuple(_leaves(expected))``, read straight off a dict of text (the usual expected)."""
    if type(expected) is not dict:
        return tuple(_leaves(expected))
    texts = []
    for value in expected.values():
        if type(value) is not str:
            return tuple(_leaves(expected))
        text = value.strip()
        if text:
            texts.append(text)
    return tuple(texts)


@lru_cache(maxsize=4096)  # the same feedback, expected value and output come back often
def _names_target(feedback: str, expected: tuple[str, ...], outputs: tuple[str, ...]) -> bool:
    """:func:`names_target` on what it reads of the case: the expected values, the output's
    texts.  Words inside an echo of the output, whole or a piece of it, are not the
    feedback's own."""
    plain = _plain(feedback)
    plain_outputs = [_plain(text) for text in outputs]
    whole = _spans(plain, plain_outputs)
    pieces = _pieces_echoed(plain, plain_outputs)
    echoes = whole + pieces
    for word in re.finditer(r"\S+", plain):
        if word.group() in _TARGET_WORDS and not _inside(word.span(), echoes):
            return True
    for value in expected:
        needle = _plain(value)
        if needle and any(
            # A piece of the output that is the expected value and nothing more is the
            # metric naming it ("... but the answer is 'New York City Hall Annex'").
            not _inside(found.span(), whole) and not _inside(found.span(), pieces, larger=True)
            for found in re.finditer(rf"(?<!\w){re.escape(needle)}(?!\w)", plain)
        ):
            return True
    shown = _spans(feedback, [text.strip() for text in outputs])
    for match in _QUOTED.finditer(feedback):
        quoted = _plain(next(group for group in match.groups() if group is not None))
        if quoted and not _echoes(quoted, plain_outputs) and not _inside(match.span(), shown):
            return True
    return False


def _echoes(quoted: str, outputs: Sequence[str]) -> bool:
    """Whether ``quoted`` (plain) is an output, or a long enough piece of one (cut anywhere:
    "… 540 meters per w")."""
    return any(
        quoted == output or (len(quoted.split()) >= ECHO_WORDS and quoted in output)
        for output in outputs
    )


def _pieces_echoed(plain: str, outputs: Sequence[str]) -> list[tuple[int, int]]:
    """Where ``plain`` (a feedback, plain) says ``ECHO_WORDS`` or more words of an output
    (plain) again in a row, as (start, end) spans: a prefix of a completion, its first
    sentence, a stretch of its middle."""
    words = list(re.finditer(r"\S+", plain))
    if len(words) < ECHO_WORDS:
        return []
    runs: set[tuple[str, ...]] = set()
    for output in outputs:
        runs.update(_word_runs(output))
    if not runs:
        return []
    said = [word.group() for word in words]
    echoed = [False] * len(words)
    for at in range(len(words) - ECHO_WORDS + 1):
        if tuple(said[at : at + ECHO_WORDS]) in runs:
            echoed[at : at + ECHO_WORDS] = [True] * ECHO_WORDS
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for at, inside in enumerate([*echoed, False]):
        if inside and start is None:
            start = at
        elif not inside and start is not None:
            spans.append((words[start].start(), words[at - 1].end()))
            start = None
    return spans


def _word_runs(output: str) -> Iterable[tuple[str, ...]]:
    """Every ``ECHO_WORDS`` words in a row of ``output`` (plain)."""
    words = output.split()
    return (tuple(words[at : at + ECHO_WORDS]) for at in range(len(words) - ECHO_WORDS + 1))


def _spans(text: str, needles: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``text`` holds each of ``needles`` (word-bounded), as (start, end) spans."""
    spans: list[tuple[int, int]] = []
    for needle in needles:
        if needle:
            pattern = rf"(?<!\w){re.escape(needle)}(?!\w)"
            spans.extend(found.span() for found in re.finditer(pattern, text))
    return spans


def _inside(
    span: tuple[int, int], echoes: Sequence[tuple[int, int]], *, larger: bool = False
) -> bool:
    """Whether ``span`` lies within one of the ``echoes`` (an echo of the output); with
    ``larger``, within one that holds more than ``span`` itself."""
    return any(
        start <= span[0] and span[1] <= end and not (larger and (start, end) == span)
        for start, end in echoes
    )


def _quality(case: CaseResult, reward: bool) -> float:
    if reward and "accuracy" in case.scores:
        return case.scores["accuracy"]
    return case.score  # type: ignore[return-value]


def advise(report: CheckReport, data: Any = None) -> Step:
    """The ``feedback_advice`` step for ``report``: advice, "no advice", or nothing to read.

    ``data`` is what :func:`~skynet_jupyter.load_cases` returned (its notes say
    which CSV/TSV columns look like JSON but were read as text).
    """
    lang = report.lang
    title = step_title(FEEDBACK_ADVICE, lang)
    cases = _cases_read(report)
    data_flags = _json_like_flags(report, getattr(data, "json_like", ()))
    if not cases:
        return _nothing_to_read(title, data_flags, lang)
    reward = report.reward_spec is not None
    quality = _qualities(cases, reward)
    full = max(1.0, *quality.values())

    # What the data does to the metric first: it explains the rest.
    advice = _Advice(list(data_flags))
    type_flags = _type_flags(cases, quality, full, lang)
    advice.messages.extend(type_flags)
    if type_flags:  # a type mismatch holds on every case read
        advice.flagged.extend(case.index for case in cases)
    about_data = len(advice.messages)

    empty, generic, no_target = _weak_feedback(cases, quality, full)
    if empty:
        example = _example(empty, lang)
        advice.flag(t("advice.empty", lang, cases=_case_list(empty, lang), example=example), empty)
    if generic:
        advice.flag(_generic_sentence(generic, lang), generic)
    _flag_same_feedback(advice, cases, quality, lang)
    _flag_constant_score(advice, cases, quality, reward, lang)
    if no_target:
        cases_named, example = _case_list(no_target, lang), _example(no_target, lang)
        advice.flag(t("advice.no_target", lang, cases=cases_named, example=example), no_target)
    return _advice_step(advice, about_data, title, len(cases), lang)


class _Advice:
    """The sentences of the advice so far, and the numbers of the cases they name."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = messages
        self.flagged: list[int] = []

    def flag(self, message: str, group: Sequence[CaseResult]) -> None:
        self.messages.append(message)
        self.flagged.extend(case.index for case in group)


def _cases_read(report: CheckReport) -> list[CaseResult]:
    """The first ``ADVICE_CASES`` cases that returned a valid pair (a score and feedback)."""
    return list(
        itertools.islice(
            (case for case in report.cases if case.score is not None and case.feedback is not None),
            ADVICE_CASES,
        )
    )


def _nothing_to_read(title: str, data_flags: list[str], lang: str) -> Step:
    """The step when no case returned a pair: skipped, unless the data may be why."""
    if data_flags:  # the data may be why no case returned a pair: say so still
        hint = t("advice.data_hint", lang)
        message = " ".join(data_flags)
        return Step(FEEDBACK_ADVICE, title, ADVICE, message, hint)
    return Step(id=FEEDBACK_ADVICE, title=title, status=SKIPPED, message=t("advice.no_cases", lang))


def _qualities(cases: Sequence[CaseResult], reward: bool) -> dict[int, float]:
    """The score the advice reads, by case number (the accuracy part under a reward)."""
    if reward:
        return {case.index: _quality(case, reward) for case in cases}
    # _quality without a reward: the score (every case read has one)
    return {case.index: case.score for case in cases if case.score is not None}


def _weak_feedback(
    cases: Sequence[CaseResult], quality: dict[int, float], full: float
) -> tuple[list[CaseResult], list[CaseResult], list[CaseResult]]:
    """The cases without full marks whose feedback is empty, generic, or (on a low
    score) names no target; each case in the first of these that fits."""
    low = LOW_FRACTION * full
    empty: list[CaseResult] = []
    generic: list[CaseResult] = []
    no_target: list[CaseResult] = []
    for case in cases:
        value = quality[case.index]
        feedback = case.feedback or ""
        if value >= full - _TOLERANCE:
            continue
        if not feedback.strip():
            empty.append(case)
        elif is_generic(feedback):
            generic.append(case)
        elif value < low and not names_target(feedback, case):
            no_target.append(case)
    return empty, generic, no_target


def _generic_sentence(generic: Sequence[CaseResult], lang: str) -> str:
    """One paragraph for every generic sentence: the advice would be the same for each."""
    sentences = _by_feedback(generic)
    said = ", ".join(
        f"{short_repr(feedback)} {_case_list(group, lang)}" for feedback, group in sentences.items()
    )
    example = _example(generic, lang)
    return t("advice.generic", lang, count=len(sentences), feedback=said, example=example)


def _flag_same_feedback(
    advice: _Advice, cases: Sequence[CaseResult], quality: dict[int, float], lang: str
) -> None:
    """Flag each feedback given to cases with different scores."""
    for feedback, group in _by_feedback(cases).items():
        # Rounded once per distinct score (in the order first seen), not per case: the same set.
        values = {round(value, 9) for value in dict.fromkeys(quality[case.index] for case in group)}
        if feedback.strip() and len(values) > 1:
            message = t(
                "advice.same_feedback",
                lang,
                cases=_case_list(group, lang),
                feedback=short_repr(feedback),
                scores=_score_list(group, quality, lang),
            )
            advice.flag(message, group)


def _flag_constant_score(
    advice: _Advice,
    cases: Sequence[CaseResult],
    quality: dict[int, float],
    reward: bool,
    lang: str,
) -> None:
    """Flag a score (or accuracy) that is the same on two or more cases and no other."""
    distinct = {round(value, 9) for value in dict.fromkeys(quality.values())}
    if len(cases) < 2 or len(distinct) != 1:
        return
    constant = (
        "advice.constant_accuracy"
        if reward and _all_have_accuracy(cases)
        else "advice.constant_score"
    )
    score = f"{next(iter(distinct)):.3g}"
    advice.flag(t(constant, lang, count=len(cases), score=score), cases)


def _advice_step(advice: _Advice, about_data: int, title: str, read: int, lang: str) -> Step:
    """The step: the advice (its hint about the data alone when only the data is flagged),
    or "no advice" after reading ``read`` cases."""
    if not advice.messages:
        # Shown as a passed step, so a reader told to look at it finds it.
        message = t("advice.none", lang, count=read)
        return Step(id=FEEDBACK_ADVICE, title=title, status=PASSED, message=message)
    only_data = len(advice.messages) == about_data
    return Step(
        id=FEEDBACK_ADVICE,
        title=title,
        status=ADVICE,
        message=" ".join(advice.messages),
        hint=t("advice.data_hint" if only_data else "advice.hint", lang),
        cases=tuple(sorted(set(advice.flagged))),
    )


def _json_like_flags(report: CheckReport, columns: Sequence[str]) -> list[str]:
    """One sentence for the text columns that look like JSON and reach the metric as text.

    The output column is looked at first: when the outputs came from one and are JSON
    text, it is named alone (the metric gets ``output`` as a string; an Output column the
    metric parses itself must not be named in its place).  Once it is parsed, the input
    and Output columns are named, for a metric that does not parse them itself.
    """
    if not columns:
        return []
    output_column = _json_output_column(report, columns)
    if output_column is not None:
        name, example = output_column
        return [
            t(
                "advice.json_like_output",
                report.lang,
                column=repr(name),
                example=_json_example(example),
                name=repr(name),
                option=name,
            )
        ]
    examples: dict[str, str] = {}
    for case in report.cases:
        if len(examples) == len(columns):
            break
        for part in (case.input, case.expected or {}):
            for name in columns:
                if name not in examples and isinstance(part.get(name), str):
                    examples[name] = part[name]
    if not examples:  # those columns are not given to the metric (e.g. left out of inputs)
        return []
    names = [name for name in columns if name in examples]
    return [
        t(
            "advice.json_like",
            report.lang,
            columns=", ".join(repr(name) for name in names),
            count=len(names),
            example=_json_example(examples[names[0]]),
            names=", ".join(repr(name) for name in names),
            option=",".join(names),
        )
    ]


def _json_example(text: str) -> str:
    return short_repr(text if len(text) <= EXAMPLE_CHARS else text[:EXAMPLE_CHARS])


def _json_output_column(report: CheckReport, columns: Sequence[str]) -> tuple[str, str] | None:
    """(the output column, an output) when the outputs came from a column of the data (no
    run measured them) that looks like JSON, and they reach the metric as JSON text.

    The output column is the one JSON-like column that no case has among its inputs or
    Output columns (those are the others the metric gets).
    """
    given = [case for case in report.cases[:ADVICE_CASES] if case.output is not None]
    if not given or any(case.measured is not None or case.run_ms is not None for case in given):
        return None  # outputs of a run: no column of the data is theirs
    texts = [case.output for case in given if isinstance(case.output, str)]
    filled = [text for text in texts if text.strip()]  # an empty cell is no JSON, nor text
    if len(texts) < len(given) or not filled or not all(map(_looks_like_json, filled)):
        return None
    seen: set[str] = set()
    for case in given:
        seen.update(case.input, case.expected or {})
    candidates = [name for name in columns if name not in seen]
    if len(candidates) != 1:
        return None
    return candidates[0], filled[0]


def _looks_like_json(text: str) -> bool:
    """Whether ``text`` is a JSON list or object (as the data reader tells JSON-like cells)."""
    text = text.strip()
    if not text or (text[0], text[-1]) not in (("[", "]"), ("{", "}")):
        return False
    try:
        return isinstance(json.loads(text), list | dict)
    except ValueError:
        return False


def _kind(value: Any) -> str | None:
    """'text', 'number' or 'bool' for a scalar (NumPy's too); None for anything else."""
    if hasattr(value, "item") and not isinstance(value, str | int | float):
        value = value.item()
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "text"
    return None


def _type_flags(
    cases: Sequence[CaseResult], quality: dict[int, float], full: float, lang: str
) -> list[str]:
    """Expected values whose type never matches the output's, on cases without full marks.

    A str output never equals an int expected value, so such a metric scores
    zero on every case; a metric that converts them reaches full marks
    somewhere and is not flagged.
    """
    if any(quality[case.index] >= full - _TOLERANCE for case in cases):
        return []
    keys = list(cases[0].expected or {})
    flags = []
    for key in keys:
        pairs = []
        for case in cases:
            expected = (case.expected or {}).get(key)
            got, want = _kind(case.output), _kind(expected)
            if got is None or want is None or got == want:
                break
            pairs.append((case.output, expected))
        else:
            output, expected = pairs[0]
            flags.append(
                t(
                    "advice.type_mismatch",
                    lang,
                    output_type=type(output).__name__,
                    expected_type=type(expected).__name__,
                    where=f"expected[{key!r}]",
                )
            )
    return flags


def _all_have_accuracy(cases: Sequence[CaseResult]) -> bool:
    return all("accuracy" in case.scores for case in cases)


def _by_feedback(cases: Sequence[CaseResult]) -> dict[str, list[CaseResult]]:
    """Cases grouped by their feedback, compared without case, accents or punctuation."""
    groups: dict[str, list[CaseResult]] = {}
    first: dict[str, str] = {}
    same_text: dict[str, list[CaseResult]] = {}  # the group of each feedback text seen
    for case in cases:
        feedback = case.feedback or ""
        group = same_text.get(feedback)
        if group is None:  # a text not seen before: its key, once
            text = first.setdefault(_plain(feedback), feedback)
            group = same_text[feedback] = groups.setdefault(text, [])
        group.append(case)
    return groups


def _case_list(cases: Sequence[CaseResult], lang: str) -> str:
    """'case 2' or 'cases 0, 1, 4' (with '+N more' past a handful)."""
    ids = [str(case.index) for case in cases]
    shown = ", ".join(ids[:SHOWN_CASES])
    if len(ids) > SHOWN_CASES:
        shown += " " + t("advice.more", lang, count=len(ids) - SHOWN_CASES)
    return t("advice.case" if len(ids) == 1 else "advice.cases", lang, ids=shown)


def _score_list(cases: Sequence[CaseResult], quality: dict[int, float], lang: str) -> str:
    """The scores of the cases `_case_list` names, in the same order: case 2 -> first score."""
    shown = ", ".join(f"{quality[case.index]:.3g}" for case in cases[:SHOWN_CASES])
    if len(cases) > SHOWN_CASES:
        shown += " " + t("advice.more", lang, count=len(cases) - SHOWN_CASES)
    return shown


def _example(cases: Sequence[CaseResult], lang: str) -> str:
    """A better feedback sentence: with the case's own values for a one-value label.

    Taken from a case whose output is wrong: "Expected '2024-03-14', got
    '2024-03-14'" would teach the contradiction it shows.
    """
    for case in cases:
        values = list(case.expected.values()) if case.expected else []
        if len(values) == 1 and _is_scalar(values[0]) and _is_scalar(case.output):
            if _plain(str(values[0])) == _plain(str(case.output)):
                continue  # a right output scored low: no example of a wrong one
            want, got = short_repr(values[0]), short_repr(case.output)
            if len(want) <= EXAMPLE_CHARS and len(got) <= EXAMPLE_CHARS:
                return t("advice.example", lang, expected=want, output=got)
    return t("advice.example_no_expected", lang)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


__all__ = ["advise", "is_generic", "names_target"]

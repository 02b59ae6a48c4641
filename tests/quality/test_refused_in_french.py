"""A measurement that cannot start says why in the language asked for, word for word: a metric
that does not load, or a data set on which no run gave an output."""

from __future__ import annotations

import pytest

import skynet_jupyter as sj
from skynet_jupyter.quality import MetricNotUsable
from tests.quality_support import TICKETS, Classify

FIX = "Corrigez-la d'abord (%skynet_check montre la vérification du contrat)."


def down(artifact, input):
    raise RuntimeError("down")


def compare_with_itself(metric, data, **options):
    return sj.compare(metric, metric, data, **options)


MEASURES = [sj.probe, sj.stability, compare_with_itself]


@pytest.mark.parametrize("measure", [*MEASURES, sj.agreement])
def test_a_metric_that_does_not_load_is_refused_in_french(measure):
    rows = [dict(row, human="yes") for row in TICKETS]
    with pytest.raises(MetricNotUsable) as refused:
        measure("def score(x):\n    return 1.0\n", rows, outputs="label", run=Classify(), lang="fr")
    assert str(refused.value) == (
        "Impossible de mesurer la métrique : Signature de la métrique : score(x) ne peut être "
        f"appelée ni comme score(input, output, expected) ni comme score(input, output). {FIX}"
    )


@pytest.mark.parametrize("measure", MEASURES)
def test_no_output_to_score_is_refused_in_french(measure):
    with pytest.raises(MetricNotUsable) as refused:
        measure("def score(input, output):\n    return 1.0\n", TICKETS, run=down, lang="fr")
    assert str(refused.value) == (
        "Aucun cas n'a de sortie à noter : chaque run a échoué. Corrigez d'abord "
        "run(artifact, input) (%skynet_check montre pourquoi)."
    )

"""tools/mutation_sample.py: the sample is uniform and repeatable, the figures count it right."""

from __future__ import annotations

import json
from pathlib import Path

from tools.mutation_sample import figures, pick, wilson


def mutants(root: Path, module: str, codes: dict[str, int | None]) -> None:
    meta = root / "mutants" / (module.replace(".", "/") + ".py.meta")
    meta.parent.mkdir(parents=True, exist_ok=True)
    meta.write_text(json.dumps({"exit_code_by_key": codes}))


def test_pick_takes_n_of_each_module_the_same_way_each_time(tmp_path: Path):
    big = {f"pkg.big.x_f__mutmut_{n}": None for n in range(1, 41)}
    big["pkg.big.x_f__mutmut_1"] = 1  # a verdict mutmut already has is kept, not run again
    mutants(tmp_path, "pkg.big", big)
    mutants(tmp_path, "pkg.small", {"pkg.small.x_g__mutmut_1": None})
    todo = pick(tmp_path, 10, seed=3)
    sample = (tmp_path / "sample.txt").read_text().split()
    assert len(sample) == 11 and "pkg.small.x_g__mutmut_1" in sample
    assert set(todo) == {name for name in sample if name != "pkg.big.x_f__mutmut_1"}
    assert pick(tmp_path, 10, seed=3) == todo and pick(tmp_path, 10, seed=4) != todo


def test_figures_count_timeouts_as_caught_and_list_the_survivors(tmp_path: Path):
    codes = {"m.x_a__mutmut_1": 1, "m.x_a__mutmut_2": 36, "m.x_a__mutmut_3": 0}
    codes |= {"m.x_a__mutmut_4": 33, "m.x_a__mutmut_5": None, "m.x_a__mutmut_6": 1}
    mutants(tmp_path, "m", codes)
    (tmp_path / "sample.txt").write_text("\n".join(list(codes)[:5]) + "\n")  # not mutant 6
    low, high = wilson(2, 3)
    assert figures(tmp_path, listing=True) == [
        "m: 6 mutants, 5 taken: killed 1, no tests 1, not run 1, survived 1, timeout 1; "
        f"2/3 = 66.7% (95%: {100 * low:.0f}–{100 * high:.0f}%)",
        "   survived: m.x_a__mutmut_3",
        "   no tests: m.x_a__mutmut_4",
    ]


def test_the_wilson_interval_holds_the_rate_and_stays_within_0_and_1():
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(95, 100)
    assert 0.88 < low < 0.95 < high < 0.98
    low, high = wilson(50, 50)
    assert 0.92 < low < 1.0 and abs(high - 1.0) < 1e-12

"""Issue 25, item 21: claims of README.md and docs/ that code or the tree can check.

(``observation()`` and ``llm()`` outside a check: tests/helper/test_outside_a_check.py.)
"""

from __future__ import annotations

import re

from skynet_jupyter.models import rate_limit
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
MODELS = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
BENCHMARKS = ROOT / "benchmarks"


def section(text: str, title: str) -> str:
    start = text.index(f"\n{title}\n")
    following = text.find("\n## ", start + 1)
    return text[start : following if following > 0 else len(text)]


def test_models_md_says_who_retries_a_429_and_how_often():
    errors = " ".join(section(MODELS, "## Errors and retries").split())
    assert not re.search(r"Rate limits \(429\)[^.]*retried by litellm", errors)
    found = re.search(r"429s itself, up to (\d+) times and (\d+) seconds in all", errors)
    assert found, errors
    assert int(found.group(1)) == rate_limit.RATE_LIMIT_RETRIES
    assert float(found.group(2)) == rate_limit.MAX_WAIT_SECONDS


def test_the_readme_links_the_benchmark_figures_instead_of_copying_them():
    benchmarks = section(README, "## Benchmarks")
    assert "(benchmarks/README.md)" in benchmarks
    # A figure (**7.6x**, **31 ms**) is stated in benchmarks/README.md only.
    assert not re.findall(r"\*\*[\d.,–-]+ ?(?:x|ms|µs|s)\*\*", benchmarks)
    for script in re.findall(r"`(bench_\w+\.py)", benchmarks):
        assert (BENCHMARKS / script).is_file(), script


def test_benchmarks_readme_names_every_script():
    listed = (BENCHMARKS / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in sorted(BENCHMARKS.glob("bench_*.py")) if p.name not in listed]
    assert missing == []


def test_the_readme_does_not_count_the_browser_tests_as_one():
    browser = ROOT / "tests" / "notebook" / "browser"
    tests = sum(
        len(re.findall(r"^(?:async )?def test_", path.read_text(encoding="utf-8"), re.M))
        for path in browser.glob("test_*.py")
    )
    assert tests > 1
    opening = " ".join(README[: README.index("## Why")].split())
    assert "that one test is skipped" not in opening and "the browser tests" in opening


def test_every_picture_the_docs_show_is_there_and_can_be_made_again():
    from tests import make_pictures

    linked = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(((?:docs/)?[\w-]+\.png)\)", text):
            picture = (path.parent / target).resolve()
            assert picture.is_file(), (path.name, target)
            linked.add(picture.name)
    # Issue 25: a failing judge check without a model, and the legend under a case table.
    assert {"no-judge.png", "legend.png"} <= linked
    assert {"no-judge", "legend"} <= set(make_pictures.PICTURES)

"""A tournament's format is an object every layer asks (`tournaments/formats/`, STYLE.md
habit 21): outside that package no code and no template compares a format's stored word
("individual", "pairs", "swiss", "knockout"; "all", a word of other things too, through
the attribute that holds it) or the attribute that holds one (`kind`, `pairing`, `stage`
of a tournament or a round), nor a format by name. Read from the source, as
tests/test_purity.py reads the imports."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tichu_scorer"
FORMATS = PACKAGE / "tournaments" / "formats"
WORDS = {"individual", "pairs", "swiss", "knockout"}
HELD_IN = {"pairing", "stage"}  # a tournament's pairing, a round's stage
NAMES = {"INDIVIDUAL", "PAIRS", "PAIRS_SWISS", "PAIRS_ALL", "SWISS", "ALL", "KNOCKOUT"}
# a comparison in a template whose one side is a format's word or what holds it
TEMPLATE = re.compile(
    r"""(\.(kind|pairing|stage)\s*(==|!=|\bin\b|\bis\b))"""
    r"""|((==|!=)\s*['"](individual|pairs|swiss|knockout)['"])"""
    r"""|(['"](individual|pairs|swiss|knockout)['"]\s*(==|!=))""")


def _operand(node: ast.expr) -> str | None:
    """Why this side of a comparison names a format, if it does."""
    if isinstance(node, ast.Constant) and node.value in WORDS:
        return repr(node.value)
    if isinstance(node, ast.Attribute) and node.attr in HELD_IN | NAMES:
        return f".{node.attr}"
    if isinstance(node, ast.Name) and node.id in NAMES:
        return node.id
    return None


def compared(source: str) -> list[tuple[int, str]]:
    """Each comparison of `source` with a format's word, its holder or a format by name.

    >>> compared('if t.kind == "pairs": pass\\nx = r.stage != KNOCKOUT\\nok = p == "tonight"')
    [(1, "'pairs'"), (2, '.stage')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if (why := _operand(side)) is not None:
                    found.append((node.lineno, why))
                    break
    return found


def python_files() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if FORMATS not in p.parents]


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_outside_the_formats_compares_a_format(path):
    assert compared(path.read_text(encoding="utf-8")) == []


def test_no_template_compares_a_format():
    found = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, hit.start()) + 1}: "
             f"{hit.group(0)}"
             for path in sorted((ROOT / "templates").rglob("*.html"))
             for text in [path.read_text(encoding="utf-8")]
             for hit in TEMPLATE.finditer(text)]
    assert found == []


@pytest.mark.parametrize("template", [
    "{% if tournament.kind == 'individual' %}", "{{ 'A' if t.pairing == 'swiss' }}",
    "{% if r.round.stage == 'knockout' %}", "{% if 'pairs' == kind %}",
    "{% if kind != \"swiss\" %}", "{% if t.pairing == \"all\" %}",
])
def test_the_template_check_sees_a_comparison(template):
    assert TEMPLATE.search(template)


@pytest.mark.parametrize("template", [
    "{{ _(fmt.title) }}", "{% if fmt.match_points %}", "{% if period == 'all' %}",
    "{{ 'TN3' if name in ('pairing', 'knockout') else 'TN1' }}",  # the form's fields
])
def test_the_template_check_lets_the_formats_answers_pass(template):
    assert not TEMPLATE.search(template)

"""The shape of the house (docs/ARCHITECTURE.md): the package's modules import one another
without a circle, read from their imports at module level with `ast`; an import inside a
function holds none open but the one named; no module is over 400 lines; and every module's
examples in its docstrings run as tests."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tichu_scorer"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's modules an import statement of `module` loads: the module named and,
    for `from x import y`, `x.y` when that is a module. A package that holds `module` is
    loaded before it anyway, and is left out."""
    if isinstance(node, ast.Import):
        named = {alias.name for alias in node.names}
    else:
        base = module.split(".")
        if node.level:
            here = base if MODULES[module].name == "__init__.py" else base[:-1]
            base = here[:len(here) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        named = {source} | {f"{source}.{alias.name}" for alias in node.names}
    return {name for name in named if name in MODULES and not module.startswith(name + ".")
            and name != module}


def module_level_imports(module: str) -> set[str]:
    """What `module` imports when it is loaded: its statements outside functions and
    classes (those under `if TYPE_CHECKING:` are never run)."""
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import | ast.ImportFrom):
                found.update(imported(module, node))
            elif isinstance(node, ast.If):
                if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                for block in (node.body, node.orelse, node.finalbody,
                              *(handler.body for handler in node.handlers)):
                    visit(block)

    visit(ast.parse(MODULES[module].read_text(encoding="utf-8")).body)
    return found


def test_the_package_imports_without_a_circle():
    graph = {module: module_level_imports(module) for module in MODULES}
    assert sum(map(len, graph.values())) > 200  # the graph was read, not empty
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        raise AssertionError(f"an import circle: {' → '.join(reversed(error.args[1]))}") from None


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        module = todo.pop()
        if module == goal:
            return True
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return False


def inner_imports() -> set[tuple[str, str]]:
    """Each (module, what it imports) of an import inside a function."""
    found = set()
    for module, path in MODULES.items():
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(function):
                    if isinstance(node, ast.Import | ast.ImportFrom):
                        found.update((module, name) for name in imported(module, node))
    return found


# The imports inside a function that would close a circle at module level, each with why it
# waits for its call.
REACHING_BACK = {
    ("tichu_scorer.core.answers", "tichu_scorer.core.waiting"),
}


def test_no_import_inside_a_function_holds_a_circle_open():
    """An import inside a function that would close a circle were it at the top is one of
    the listed few. `answers` imports `waiting`, which imports it, when the phone's worker
    asks for the hands waiting: the worker imports both before its snapshot, and the server
    never asks (docs/OFFLINE_CORE.md)."""
    graph = {module: module_level_imports(module) for module in MODULES}
    found = {(module, name) for module, name in inner_imports() if reaches(graph, name, module)}
    assert found == REACHING_BACK


MOST_LINES = 400  # STYLE.md habit 15: a module past it is two modules


def test_no_module_is_over_400_lines():
    long = {module: lines for module, path in MODULES.items()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long


def test_every_module_with_examples_is_where_pytest_looks_for_them(pytestconfig):
    """A docstring's `>>>` example is a test only where pytest collects it: under one of the
    configured `testpaths`, with `--doctest-modules` on. A module left outside them kept a
    broken example (views/game_pages.py named a function it never imported)."""
    assert pytestconfig.getoption("doctestmodules")
    looked_in = [pytestconfig.rootpath / path for path in pytestconfig.getini("testpaths")]
    with_examples = [path for path in MODULES.values() if any(
        line.lstrip().startswith(">>> ") for line in path.read_text(encoding="utf-8").splitlines())]
    assert len(with_examples) > 30
    unseen = [str(path.relative_to(PACKAGE.parent)) for path in with_examples
              if not any(place == path or place in path.parents for place in looked_in)]
    assert unseen == []

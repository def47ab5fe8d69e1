"""Which modules of Pyodide's standard library the phone's core imports (docs/OFFLINE_CORE.md,
"The standard library, cut"): the real worker (static/js/core-worker.js) started in headless
Chromium with the *whole* standard library, asked every operation it serves (a preview
after waiting hands, the waiting hands' regions with the chart, Grand Seigneur's seating
and records, a verdict and the referee page's fields, house rules, a batch; each well formed
and not, in English and German, and the errors: an unknown request, a malformed one, text
that is no JSON, a body nested past Python's limit), from nothing and again from its
memory snapshot; then asked for `sys.modules`. The names that are files of the archive are
the cut's list, tools/core_stdlib.txt:

    python -m tests.browser.stdlib_trace          # prints the list
    python -m tests.browser.stdlib_trace --write  # writes tools/core_stdlib.txt

tests/browser/test_phone_stdlib.py runs the same trace and fails on a module the list lacks.
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path

from tests.browser.conftest import ARGS, CHROMIUM, browser_app, serving
from tichu_scorer.core import follow_panel
from tichu_scorer.core.follow import Event, Table
from tichu_scorer.game import variants
from tichu_scorer.game.house import PRESETS
from tichu_scorer.scoring.games import game_of
from tichu_scorer.scoring.state import MatchState
from tichu_scorer.views import core

LIST = Path(core.ROOT) / "tools" / "core_stdlib.txt"
# Whole packages: Pyodide's own (its JavaScript imports their modules as it needs them:
# errors, the archive's unpacking, the snapshot) and the codecs (looked up by name).
WHOLE = ("_pyodide", "encodings", "pyodide")
# Named by an import in the core's files but reached by no operation today: markupsafe's
# Markup.unescape and striptags (tests/views/test_core_stdlib.py checks the core's imports)
ALSO = ("html", "html.entities")
ASK_MODULES = '"modules"'  # the trace's own request, answered by the patched answers.py
PATCH = f'''

_served = phone


def phone(text, locales, seconds):  # the trace's: the modules imported so far
    if text == {ASK_MODULES!r}:
        import sys
        return json.dumps({{"ok": sorted(sys.modules)}})
    return _served(text, locales, seconds)
'''
NAMES = {"nanking": ["Ann", "Bob", "Cy", "Dee"], "threechu": ["Tom", "Uma", "Vic", "Dummy"],
         "tientsin": ["A1", "B1", "A2", "B2", "A3", "B3"],
         "seigneur": ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]}
HANDS = [{"out_order": [0, 1], "calls": {"0": "tichu"}, "card_points": [75, None]},
         {"out_order": [1, 3], "calls": {"2": "grand"}, "card_points": [None, 40],
          "wish_penalty": {"offender": 1}},
         {"out_order": [0, 2]}, {"out_order": [9, "x"], "calls": {"x": 3}, "card_points": "50"},
         {"out_order": [], "card_points": [-35, 300]}, {"out_order": [0, 1, 2, 3, 4, 5, 6]}]
QUESTIONS = [{"trick": [], "play": ["2j"]},
             {"trick": [{"cards": ["Aj"]}], "play": ["DR"], "hand": ["DR"],
              "house_rules": {"dragon_kept_when_out": True}},
             {"trick": [{"cards": ["4j"]}], "play": [], "hand": ["8s"], "wish": "8"},
             {"trick": [{"cards": ["5j", "5s"]}], "play": ["PH", "6j"], "variant": "seigneur",
              "decks": 2, "out_of_turn": True, "strict_wish": True},
             {"trick": [{"cards": ["3p", "4p", "5p", "6p", "7p"]}],
              "play": ["9t", "9j", "9s", "9p"]},
             {"play": ["DR"], "house_rules": {"custom_calls": {"tichu": 400}}},
             {"trick": 0, "play": []}, {"trick": [], "play": ["xx"], "decks": True}]
FIELDS = [{"trick": "Aj\n", "play": "DR", "hand": "2s 3s", "dragon_kept": "1"},
          {"trick": "pass\n5j 5s", "play": "PH 6j", "variant": "seigneur", "decks": "1",
           "wish": "8", "strict_wish": "on"}, {"play": "MJ", "dummy": "1"}, {}]
PAGE = {"hand_url": "/m/hands/new", "rules_url": "/rules", "decimal": ",",
        "tournament_url": "/t/x", "extras": [{"bombs": [0, 1, 0, 0], "note": "late <b>"}]}


def chart(sides: int) -> dict:
    """The server's chart.json for two stored hands."""
    return {"running": [[200] + [0] * (sides - 1), [300] + [100] * (sides - 1)],
            "hands": [[{"0": "tichu"}, [0, 2]], [{}, [1, 0]]]}


def facts(variant: str, *, count: int = 2, totals=(400, 300, 200, 100),
          house: str | None = None) -> dict:
    """A match's facts as its page carries them (`MatchState.to_dict`); Threechu's is a
    match of nine hands."""
    sides = len(variants.variant(variant).sides(NAMES[variant]))
    nine = variant == "threechu"
    state = MatchState.from_dict({
        "variant": variant, "names": NAMES[variant], "target": None if nine else 500,
        "hand_limit": 9 if nine else None,
        "hand_count": count, "totals": list(totals)[:sides], "finished": False,
        "house": PRESETS[house].rules.as_dict() if house else None,
        "lead_by": 200 if house else None, "victory": [4, 2, 1, 0][:sides] if house else []})
    return state.to_dict() | {"names": list(NAMES[variant])}


def followed(variant: str) -> dict:
    """The followed hand's panel as a scorer's page hands it to the core, with events of
    every kind (a Grand Seigneur table has no calls)."""
    seats = len(NAMES[variant])
    table = Table.of(game_of(variants.variant(variant)), seats, shuffler=0)
    events = [Event("start", None, None), Event("dealt", None, None),
              Event("passed", None, None), Event("wish", 1, 8), Event("bomb", 2, None),
              Event("out", 1, None)]
    if table.calls:
        events[1:1] = [Event("grand", 2, None)]
        events[4:4] = [Event("tichu", 3, None)]
    return follow_panel.facts(table, NAMES[variant], events, 3)


TAPS = [{"event": "fulfilled"}, {"event": "out:0"}, {"event": "grand:3"},
        {"event": "missed:2"}, {"event": "tichu:0"}, {"event": "bomb:9"}, {"event": "fly"}]


def requests() -> list[str]:
    """Every operation the worker serves, each as the JSON text a page sends."""
    asked: list[object] = []
    for lang in ("en", "de"):
        asked += [{"op": "follow", "facts": followed(variant), "taps": TAPS, "lang": lang}
                  for variant in NAMES]
        for variant in NAMES:
            for house in (None, "club", "tournament"):
                state = facts(variant, house=house)
                asked += [{"op": "preview", "facts": state, "body": body, "lang": lang,
                           "waiting": HANDS[:2]} for body in HANDS]
                asked.append({"op": "waiting", "facts": state, "bodies": [*HANDS, None],
                              "chart": chart(len(state["totals"])), "page": PAGE,
                              "lang": lang})
                asked.append({"op": "waiting", "facts": state, "bodies": HANDS[:1] * 3,
                              "page": {}, "lang": lang})
            asked.append({"op": "waiting", "facts": facts(variant, count=0, totals=(0,) * 4),
                          "bodies": [], "page": {}, "lang": lang})
        asked.append({"op": "waiting", "facts": facts("seigneur"), "lang": lang,
                      "bodies": [{"out_order": [3, 1, 0, 2, 4, 6, 5]}, {"out_order": [1]}],
                      "rankings": [[2, 0, 4, 1, 3, 6, 5]], "page": PAGE})
        asked += [{"op": "judge", "body": body, "lang": lang} for body in QUESTIONS]
        asked += [{"op": "judge_fields", "fields": fields, "lang": lang} for fields in FIELDS]
        asked += [{"op": "preview", "facts": facts("nanking"), "lang": lang,
                   "body": {"out_order": [0, 1], "note": "a\u0000b"}},
                  {"op": "judge", "body": {"play": ["\ud800"]}, "lang": lang},
                  {"op": "preview", "facts": facts("nanking"), "body": [[[[[]]]]] * 40},
                  {"op": "preview", "facts": dict(facts("nanking"), variant="chess"),
                   "body": {}}]
    texts = [json.dumps({"op": "batch", "items": asked[:3]})]
    texts += [json.dumps(one) for one in asked]
    # errors the worker reports (a Python exception crossing into JavaScript)
    texts += [json.dumps({"op": "nothing"}), json.dumps({"op": "preview"}), "{not json",
              '{"lang": "de", "body": ' + "[" * 1500 + "]" * 1500 + "}"]
    return texts


def traced_archive() -> bytes:
    """The core's archive with the trace's request added to answers.py."""
    buffer = io.BytesIO()
    source = zipfile.ZipFile(io.BytesIO(core.core_archive()))
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "tichu_scorer/core/answers.py":
                data += PATCH.encode()
            out.writestr(info, data)
    return buffer.getvalue()


START = """async ([url, texts, ask]) => {
  const worker = new Worker(url, { type: "module" });
  let next = 0;
  const call = (text) => new Promise((resolve) => {
    next += 1;
    const id = next;
    worker.addEventListener("message", function got(e) {
      if (e.data.id !== id) return;
      worker.removeEventListener("message", got);
      resolve(e.data);
    });
    worker.postMessage({ id, text });
  });
  const answers = [];
  for (const text of texts) answers.push(await call(text));
  const modules = await call(ask);
  const snapshot = await (async () => {
    for (let i = 0; i < 300; i += 1) {
      const keys = await (await caches.open("tichu-core")).keys();
      if (keys.some((r) => r.url.includes("/core/snapshot"))) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  })();
  worker.terminate();
  return { answers, modules: modules.answer, steps: modules.steps || modules, snapshot };
}"""


def trace(browser, whole: bool = True) -> tuple[set[str], list[list[dict]]]:
    """The modules the worker imported (from nothing, then from its snapshot) with the
    whole standard library, and its answers (each start's, in order); `whole` False: the
    bundle as served (the cut), its answers only."""
    app = browser_app(Path(tempfile.mkdtemp()))
    with app.app_context():
        found = core.bundle()
        if found is None:
            raise LookupError("no Pyodide bundle: run `make pyodide` first")
        with app.test_request_context():
            url = core.worker_url()
        full = (found.runtime / "python_stdlib.zip").read_bytes()
        archive = traced_archive()
    with serving(app) as base:
        context = browser.new_context(service_workers="block")
        if whole:
            context.route("**/core/pyodide/*/core_stdlib.zip*", lambda route: route.fulfill(
                body=full, content_type="application/zip"))
            context.route("**/core/core.zip*", lambda route: route.fulfill(
                body=archive, content_type="application/zip"))
        page = context.new_page()
        page.goto(base + "/offline")
        texts, modules, answers = requests(), set(), []
        for start in ("nothing", "snapshot"):
            out = page.evaluate(START, [url, texts, ASK_MODULES if whole else texts[0]])
            if not out["snapshot"] or (start == "snapshot") != bool(out["steps"].get("snapshot")):
                raise AssertionError(f"the start from {start} was not one: {out['steps']}")
            modules |= set(out["modules"] if whole else ())
            answers.append(out["answers"])
        context.close()
    return modules, answers


def in_archive(modules: set[str], names: set[str]) -> list[str]:
    """The modules that are files of the standard library's archive (the others are built
    into the interpreter, or the core's own), a whole package once as `pkg.*`."""
    kept = {f"{top}.*" for top in WHOLE} | set(ALSO)
    for module in modules:
        path = module.replace(".", "/")
        if module.split(".")[0] in WHOLE or module.startswith("tichu_scorer") \
                or module.startswith("markupsafe"):
            continue
        if f"{path}.py" in names or f"{path}/__init__.py" in names:
            kept.add(module)
    return sorted(kept)


def main(argv: list[str]) -> None:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        modules, _answers = trace(browser)
        browser.close()
    app = browser_app(Path(tempfile.mkdtemp()))
    with app.app_context():
        runtime = core.bundle().runtime
    names = set(zipfile.ZipFile(runtime / "python_stdlib.zip").namelist())
    text = "\n".join(in_archive(modules, names)) + "\n"
    if "--write" in argv:
        LIST.write_text(HEADER + text)
    print(text, end="")


HEADER = """\
# The modules of Pyodide's standard library the phone's core imports, one a line (`pkg.*`:
# the whole package): the set-up cuts python_stdlib.zip to them (tools/fetch_pyodide.py).
# Written by `python -m tests.browser.stdlib_trace --write`, which traces the worker under
# Pyodide; tests/browser/test_phone_stdlib.py fails on a module it imports that is not here.
"""

if __name__ == "__main__":
    main(sys.argv[1:])

"""Issue 29's sizes: no function in viz/ over 80 lines (the generated schema literal aside) and
no module over 800, so each reads as one thing."""
from __future__ import annotations

import ast
from pathlib import Path

VIZ = Path(__file__).resolve().parent.parent / "viz"
EXEMPT = {("model/schema.py", "script_schema")}  # a generated JSON Schema literal


def long_functions(source: str, limit: int = 80) -> list[tuple[str, int]]:
    return [(n.name, n.end_lineno - n.lineno + 1) for n in ast.walk(ast.parse(source))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.end_lineno - n.lineno + 1 > limit]


def test_no_function_is_over_80_lines_and_no_module_over_800():
    long, big = [], []
    for p in sorted(VIZ.rglob("*.py")):
        rel = p.relative_to(VIZ).as_posix()
        src = p.read_text(encoding="utf-8")
        long += [f"{rel}:{name} ({n} lines)" for name, n in long_functions(src)
                 if (rel, name) not in EXEMPT]
        if src.count("\n") > 800:
            big.append(f"{rel} ({src.count(chr(10))} lines)")
    assert long == [] and big == [], (long, big)


def test_the_measure_sees_a_long_function():
    body = "".join(f"    x{i} = {i}\n" for i in range(81))
    assert long_functions("def f():\n" + body) == [("f", 82)]
    assert long_functions("def g():\n    return 1\n") == []

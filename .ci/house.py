#!/usr/bin/env python3
"""The house rules CI checks (DEVELOPERS.md, "Architecture"): no source file over 1,000 lines
and no import cycle between the files of src/, each with an allowance for what was there when
the check came in. An allowance may only shrink: a long file may not grow past its recorded
length, a cycle may not gain a file, and an allowance that is no longer needed must be removed.

    python3 .ci/house.py            # both checks (what .ci/run runs)
    python3 .ci/house.py --cycles   # print every import cycle with the imports that tie it

Allowances: .ci/allow/long-files.txt ("<lines> <path>" a line) and .ci/allow/import-cycles.txt
(one cycle a line: its files, space-separated). Lines starting with # are comments.

Long files: every .rs file under src/, tests/ and benches/ (tests are read and changed like
code: a newcomer should be able to find a test). Import cycles: the files of src/ are the
nodes; a file depends on another when it names an item defined there, through a `use` or a
path in its code (`crate::…`, `super::…`, `self::…`, a child module's name, or a name a `use`
bound), resolved through re-exports (`pub use`) and `mod` declarations to the file that defines
the item. A `mod` declaration alone is not a dependency (a module holding its children is not
an import). Each strongly connected component of two or more files is one cycle.

Tests in test binaries only: the library is built without `cfg(test)` (`[lib] test = false` in
Cargo.toml, so `cargo test` compiles it once), and a `#[test]` or `#[cfg(test)]` in src/ would
never run; the check refuses one.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 1000
LONG_ALLOWANCE = ROOT / ".ci/allow/long-files.txt"
CYCLE_ALLOWANCE = ROOT / ".ci/allow/import-cycles.txt"
LONG_DIRS = ("src", "tests", "benches")
CRATE_NAME = "skymines"

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


# ---------------------------------------------------------------------------------------------
# Long files


def read_allowance(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def count_lines(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in f)


def check_long_files() -> list[str]:
    errors = []
    allowed: dict[str, int] = {}
    for line in read_allowance(LONG_ALLOWANCE):
        parts = line.split()
        if len(parts) != 2 or not parts[0].isdigit():
            errors.append(f"{LONG_ALLOWANCE.relative_to(ROOT)}: cannot read line {line!r}")
            continue
        allowed[parts[1]] = int(parts[0])
    seen = set()
    for top in LONG_DIRS:
        for path in sorted((ROOT / top).rglob("*.rs")):
            rel = path.relative_to(ROOT).as_posix()
            n = count_lines(path)
            if rel in allowed:
                seen.add(rel)
                limit = allowed[rel]
                if n <= MAX_LINES:
                    errors.append(
                        f"{rel}: now {n} lines, within the {MAX_LINES}-line limit: remove its "
                        f"allowance from {LONG_ALLOWANCE.relative_to(ROOT)}"
                    )
                elif n > limit:
                    errors.append(
                        f"{rel}: {n} lines, more than its allowance of {limit} (files over "
                        f"{MAX_LINES} lines may only shrink): split it, or move the new code "
                        f"to a new file"
                    )
                elif n < limit:
                    print(
                        f"note: {rel} is down to {n} lines (allowance {limit}); lower its line "
                        f"in {LONG_ALLOWANCE.relative_to(ROOT)} to keep the gain"
                    )
            elif n > MAX_LINES:
                errors.append(
                    f"{rel}: {n} lines, over the {MAX_LINES}-line limit: split it by what its "
                    f"parts are about"
                )
    for rel in sorted(set(allowed) - seen):
        errors.append(
            f"{rel}: allowed in {LONG_ALLOWANCE.relative_to(ROOT)} but not there any more: "
            f"remove its allowance"
        )
    return errors


def check_no_unit_tests() -> list[str]:
    errors = []
    for path in sorted((ROOT / "src").rglob("*.rs")):
        code = strip_comments_and_strings(path.read_text())
        for number, line in enumerate(code.splitlines(), 1):
            if re.search(r"#\[(cfg\(test\)|test)\]", line):
                rel = path.relative_to(ROOT).as_posix()
                errors.append(
                    f"{rel}:{number}: a unit test in src/ never runs (the library is built "
                    f"without cfg(test)): move it to a module of the right test binary under "
                    f"tests/, reaching private items through the module's `testing` re-exports"
                )
    return errors


# ---------------------------------------------------------------------------------------------
# Reading Rust source (just enough of it: comments, strings, `use` trees, paths)


def strip_comments_and_strings(text: str) -> str:
    """The text with comments removed and string/char literals emptied (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (
            i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{..}') or a lifetime ('a): only the first is skipped.
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:i + 12])
            if m:
                out.append("' '")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)



def split_use_tree(tree: str) -> list[tuple[list[str], str | None]]:
    """`a::{b, c::d as e, f::*}` → [(["a","b"], "b"), (["a","c","d"], "e"), (["a","f"], None)];
    the bound name is None for a glob, and the name of the module for `self`."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree))
    out: list[tuple[list[str], str | None]] = []

    def walk(prefix: list[str], s: str) -> None:
        if not s:
            return
        brace = s.find("{")
        if brace >= 0 and s.endswith("}"):
            head = s[:brace].rstrip(":")
            base = prefix + [p for p in head.split("::") if p]
            inner = s[brace + 1 : -1]
            depth, start = 0, 0
            for k, ch in enumerate(inner + ","):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    walk(base, inner[start:k])
                    start = k + 1
            return
        alias = None
        if "@" in s:
            s, alias = s.split("@", 1)
        parts = prefix + [p for p in s.split("::") if p]
        if parts and parts[-1] == "*":
            out.append((parts[:-1], None))
        elif parts and parts[-1] == "self":
            out.append((parts[:-1], alias or (parts[-2] if len(parts) > 1 else None)))
        elif parts:
            out.append((parts, alias or parts[-1]))

    walk([], tree)
    return out


USE_RE = re.compile(r"(?<![A-Za-z0-9_])(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);")
PATH_RE = re.compile(r"(?<![A-Za-z0-9_:])(" + IDENT + r"(?:\s*::\s*" + IDENT + r")+)")
DEF_RE = re.compile(
    r"(?<![A-Za-z0-9_])(?:fn|struct|enum|trait|type|const|static|union|mod)\s+(" + IDENT + ")"
    r"|macro_rules!\s*(" + IDENT + ")"
)


class Module:
    def __init__(self, path: tuple[str, ...], file: Path):
        self.path = path  # ("crate", "engine", "actions")
        self.file = file
        self.code = strip_comments_and_strings(file.read_text())
        # name -> (absolute or relative path, is it a re-export)
        self.bindings: dict[str, tuple[list[str], bool]] = {}
        self.globs: list[list[str]] = []
        self.uses: list[tuple[list[str], bool]] = []
        for m in USE_RE.finditer(self.code):
            public = bool(m.group(1))
            for parts, bound in split_use_tree(m.group(2)):
                if parts and parts[0] == "":
                    parts = parts[1:]
                if bound is None:
                    self.globs.append(parts)
                else:
                    self.bindings.setdefault(bound, (parts, public))
                self.uses.append((parts, public))
        self.defs = {a or b for a, b in DEF_RE.findall(self.code)}
        body = USE_RE.sub(" ", self.code)
        self.body = body
        self.body_words = set(re.findall(IDENT, body))


class Crate:
    def __init__(self, src: Path):
        self.modules: dict[tuple[str, ...], Module] = {}
        for file in sorted(src.rglob("*.rs")):
            rel = file.relative_to(src).with_suffix("").parts
            if rel in (("lib",), ("main",)):
                path = ("crate",) if rel == ("lib",) else ("main",)
            elif rel[-1] == "mod":
                path = ("crate",) + rel[:-1]
            else:
                path = ("crate",) + rel
            self.modules[path] = Module(path, file)

    def child(self, module: tuple[str, ...], name: str) -> tuple[str, ...] | None:
        if module == ("main",):
            return None
        cand = module + (name,)
        return cand if cand in self.modules else None

    def absolute(self, module: tuple[str, ...], parts: list[str]) -> tuple[tuple[str, ...], list[str]] | None:
        """Where a path written in `module` starts: (the module, the rest of the segments)."""
        if not parts:
            return None
        head = parts[0]
        if head == "crate":
            return ("crate",), parts[1:]
        if head == CRATE_NAME:
            return ("crate",), parts[1:]
        if head == "self":
            return module, parts[1:]
        if head == "super":
            cur, rest = module, parts
            while rest and rest[0] == "super":
                cur, rest = cur[:-1], rest[1:]
            return (cur, rest) if cur else None
        if self.child(module, head):
            return module, parts
        mod = self.modules.get(module)
        if mod and head in mod.bindings:
            target, _ = mod.bindings[head]
            if target and target[0] not in (head,):
                start = self.absolute(module, target)
                if start:
                    return start[0], start[1] + parts[1:]
        return None

    def resolve(self, module: tuple[str, ...], rest: list[str], depth: int = 0) -> Path | None:
        """The file defining what `rest` names inside `module` (None: outside the crate)."""
        if depth > 20:
            return None
        cur = module
        for k, seg in enumerate(rest):
            child = self.child(cur, seg)
            if child:
                cur = child
                continue
            mod = self.modules.get(cur)
            if mod is None:
                return None
            if seg in mod.bindings and seg not in mod.defs:
                target, _ = mod.bindings[seg]
                start = self.absolute(cur, target)
                if start is None:
                    return None
                return self.resolve(start[0], start[1] + rest[k + 1 :], depth + 1)
            if seg not in mod.defs:
                for glob in mod.globs:
                    start = self.absolute(cur, glob)
                    if start is None:
                        continue
                    found = self.resolve(start[0], start[1] + [seg], depth + 1)
                    if found is not None and found != self.modules[start[0]].file or (
                        found is not None and seg in self.modules[start[0]].defs
                    ):
                        return found
            return mod.file
        return self.modules[cur].file if cur in self.modules else None

    def dependencies(self, module: Module) -> dict[Path, set[str]]:
        """The files `module` depends on, each with the names that tie it."""
        deps: dict[Path, set[str]] = {}

        def add(parts: list[str]) -> None:
            start = self.absolute(module.path, parts)
            if start is None:
                return
            target = self.resolve(start[0], start[1])
            if target is not None and target != module.file:
                deps.setdefault(target, set()).add("::".join(parts))

        for name, (parts, public) in module.bindings.items():
            # A re-export is a dependency only when the file's own code uses the name.
            if not public or name in module.body_words:
                add(parts)
        for parts in module.globs:
            add(parts)
        for m in PATH_RE.finditer(module.body):
            parts = [p.strip() for p in m.group(1).split("::")]
            add(parts)
        return deps


def strongly_connected(graph: dict[Path, set[Path]]) -> list[list[Path]]:
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on_stack: set[Path] = set()
    out: list[list[Path]] = []
    counter = [0]

    def visit(v: Path) -> None:
        # Iterative Tarjan (deep module graphs would hit Python's recursion limit otherwise).
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def import_cycles() -> tuple[list[list[str]], dict[str, dict[str, set[str]]]]:
    crate = Crate(ROOT / "src")
    edges: dict[str, dict[str, set[str]]] = {}
    graph: dict[Path, set[Path]] = {}
    for module in crate.modules.values():
        deps = crate.dependencies(module)
        rel = module.file.relative_to(ROOT).as_posix()
        edges[rel] = {t.relative_to(ROOT).as_posix(): names for t, names in deps.items()}
        graph[module.file] = set(deps)
    cycles = [
        [p.relative_to(ROOT).as_posix() for p in comp] for comp in strongly_connected(graph)
    ]
    return sorted(cycles), edges


def describe(cycle: list[str], edges: dict[str, dict[str, set[str]]]) -> str:
    members = set(cycle)
    lines = [f"  {len(cycle)} files: {' '.join(cycle)}"]
    for a in cycle:
        for b, names in sorted(edges.get(a, {}).items()):
            if b in members:
                lines.append(f"    {a} -> {b}: {', '.join(sorted(names))}")
    return "\n".join(lines)


def check_cycles() -> list[str]:
    cycles, edges = import_cycles()
    allowed = [sorted(line.split()) for line in read_allowance(CYCLE_ALLOWANCE)]
    rel = CYCLE_ALLOWANCE.relative_to(ROOT)
    errors = []
    for cycle in cycles:
        if cycle in allowed:
            continue
        bigger = [a for a in allowed if set(cycle) < set(a)]
        if bigger:
            errors.append(
                f"an allowed import cycle shrank (good): replace its line in {rel} with\n"
                f"    {' '.join(cycle)}\n{describe(cycle, edges)}"
            )
        else:
            errors.append(
                f"new import cycle (no file may depend on a file that depends on it):\n"
                f"{describe(cycle, edges)}"
            )
    for a in allowed:
        if a not in cycles and not any(set(c) < set(a) for c in cycles):
            errors.append(
                f"the allowed import cycle of {' '.join(a)} is gone: remove its line from {rel}"
            )
    return errors


def main() -> int:
    if "--cycles" in sys.argv[1:]:
        cycles, edges = import_cycles()
        for cycle in cycles:
            print(describe(cycle, edges))
        print(f"{len(cycles)} import cycles")
        return 0
    errors = check_long_files() + check_no_unit_tests() + check_cycles()
    for e in errors:
        print(f"house check: {e}", file=sys.stderr)
    if errors:
        print(
            f"house check failed ({len(errors)} problem(s)); see .ci/house.py for the rules",
            file=sys.stderr,
        )
        return 1
    print(
        "house check: no file over its line limit, no unit test in src/, no import cycle "
        "beyond the allowance"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

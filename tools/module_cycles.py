#!/usr/bin/env python3
"""Import cycles between the modules of each Rust crate of the workspace.

    python3 tools/module_cycles.py [CRATE_SRC_DIR ...]   (default: crates/*/src, bench/src)

Builds, per crate, the graph "module A names module B" from the paths in
its source (`use` lines and paths in code: `crate::`, `super::`, `self::`,
a child module's name or a name a `use` line bound to a module), with
comments and string literals removed, and reports every strongly connected
component of more than one module: a set of modules that import each other,
directly or around a loop. `mod` declarations are not imports; a `pub use`
re-export is (a parent that re-exports a child and a child that reads the
parent's items form a cycle). Inline `mod name { ... }` blocks count as
part of their file's module. A binary (`src/bin/*`, and `src/main.rs`
beside a `src/lib.rs`) is a crate of its own and is not read as the
library's root. Exits 1 if any crate has a cycle.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def strip_comments_and_strings(text):
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 12]):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x..|\\.|[^\\'])'", text[i:])
            i += len(m.group(0)) if m else 1
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def crate_modules(src):
    """{module path tuple: file} for the files of one crate."""
    mods = {}
    for f in sorted(src.rglob("*.rs")):
        rel = f.relative_to(src).with_suffix("").parts
        if rel[0] == "bin":  # each binary is a crate of its own
            continue
        if rel == ("main",) and (src / "lib.rs").exists():
            # src/main.rs beside src/lib.rs is the binary: a crate of its
            # own that names the library's modules through the library.
            continue
        if rel[-1] in ("lib", "main", "mod"):
            rel = rel[:-1]
        mods[tuple(rel)] = f
    return mods


def resolve(mods, here, segs, aliases):
    """The module a path names (its longest module prefix), or None."""
    if not segs:
        return None
    first = segs[0]
    if first == "crate":
        base, rest = (), segs[1:]
    elif first in ("super", "self"):
        base, rest = here, segs
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    elif here + (first,) in mods:
        base, rest = here + (first,), segs[1:]
    elif first in aliases:
        base, rest = aliases[first], segs[1:]
    else:
        return None
    for s in rest:
        if base + (s,) in mods:
            base = base + (s,)
        else:
            break
    return base


PATH = re.compile(r"\b((?:[A-Za-z_][A-Za-z0-9_]*\s*::\s*)+)(\{[^;]*?\}|[A-Za-z_][A-Za-z0-9_]*|\*)?")


def expand(tree, prefix):
    tree = tree.strip()
    if "{" in tree and tree.endswith("}"):
        head, body = tree.split("{", 1)
        head_segs = [s.strip() for s in head.split("::") if s.strip()]
        depth, part, parts = 0, "", []
        for ch in body[:-1]:
            if ch == "," and depth == 0:
                parts.append(part)
                part = ""
                continue
            depth += ch == "{"
            depth -= ch == "}"
            part += ch
        parts.append(part)
        for p in parts:
            if p.strip():
                yield from expand(p, prefix + head_segs)
        return
    alias = None
    m = re.match(r"(.*)\s+as\s+(\w+)$", tree)
    if m:
        tree, alias = m.group(1), m.group(2)
    segs = prefix + [s.strip() for s in tree.split("::") if s.strip()]
    if segs and segs[-1] == "self":
        segs = segs[:-1]
    if segs:
        yield segs, alias if alias else segs[-1]


def inline_modules(code):
    """[(start, end, name)] of the inline `mod name { ... }` blocks."""
    spans = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += code[i] == "{"
            depth -= code[i] == "}"
            i += 1
        spans.append((m.start(), i, m.group(1)))
    return spans


def scope_at(spans, pos):
    """The inline module path at `pos` (outermost first)."""
    return tuple(name for start, end, name in spans if start < pos < end)


def graph(mods):
    edges = {m: set() for m in mods}
    for here, f in mods.items():
        code = strip_comments_and_strings(f.read_text())
        spans = inline_modules(code)

        def add(target):
            # Inline modules are not in `mods`: a path into one resolves
            # to this module itself and adds nothing.
            if target is not None and target != here:
                edges[here].add(target)

        aliases = {}
        for m in re.finditer(r"\buse\s+([^;]+);", code):
            scope = here + scope_at(spans, m.start())
            for segs, alias in expand(m.group(1).replace("\n", " "), []):
                target = resolve(mods, scope, segs, {})
                add(target)
                if target is not None and target[-1:] == (segs[-1],):
                    aliases[alias] = target  # the line binds a module to a name
        for m in PATH.finditer(code):
            if m.group(2) and m.group(2).startswith("{"):
                # A use tree (`crate::{a, b}`): the loop above added what
                # it names; its prefix alone (the root, a parent) is not
                # an import.
                continue
            segs = [s.strip() for s in m.group(1).split("::") if s.strip()]
            if m.group(2):
                segs.append(m.group(2))
            add(resolve(mods, here + scope_at(spans, m.start()), segs, aliases))
    return edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(("crate",) + m)


def main(argv):
    srcs = [Path(a) for a in argv] or sorted(ROOT.glob("crates/*/src")) + [ROOT / "bench" / "src"]
    bad = 0
    for src in srcs:
        mods = crate_modules(src)
        edges = graph(mods)
        found = cycles(edges)
        nedges = sum(len(v) for v in edges.values())
        label = src.parent.name
        if not found:
            print(f"{label}: {len(mods)} modules, {nedges} import edges, no cycles")
        for comp in found:
            bad += 1
            print(f"{label}: cycle among {', '.join(name(m) for m in comp)}")
            for m in comp:
                for t in sorted(edges[m]):
                    if t in comp:
                        print(f"    {name(m)} -> {name(t)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""layers.py: src/ includes only downward (doc/DESIGN.md, "Layers").

Reads every `#include "..."` of the .c and .h files under a source tree and checks the
rule DESIGN.md states:

  - each folder is a layer, in the order of LAYERS below (the files directly in src/ are
    the top layer); a file includes headers of its own layer or of layers below it,
    never above: the edge is printed with the two layers;
  - base/ includes only base/ (implied by the order, said on its own because it is the
    rule people break first);
  - the folder graph has no cycle, and neither has the module graph, where a module is
    a .c file with its .h (chart/chart.c and chart/chart.h are the module chart/chart):
    each cycle is printed as the chain of includes that closes it, file and line;
  - every quoted include names a file of the tree, and every folder is a declared layer
    (a new folder is placed in LAYERS, and in DESIGN.md, before it is used).

Given the build's folder too, the same two rules hold for calls, which includes alone do
not show (a header may declare what a module above defines): the object files under
BUILD_DIR/src, read with nm, give which module uses a function or variable another
defines; a use going up a layer, and a cycle of modules using each other, are printed
with the symbol that makes the edge; and no module of chart/ or above (the writers) uses
one of the model's statistic functions (STATISTICS: the suspect rule, a band's
statistics), which only model/ and facts/ apply: the writers format facts/' figures. (An object automake names "libev2hp_a-sink.o" is
the module sink.) Files the build makes under BUILD_DIR/src (protoc-c's code) may be
included.

Usage: layers.py SRC_DIR [BUILD_DIR]. Exit status 0 when the tree keeps the rule, 1 with
one line per broken rule on stdout otherwise, 2 on a usage error.
"""

import os
import re
import subprocess
import sys

# Bottom up. "" is the top layer: cli, convert, main (files directly in src/).
LAYERS = ["base", "model", "read", "census", "chart", "render", "facts", "sink", "serve", ""]

# The model's statistic functions. A figure an output states (a peak, a growth, a suspect,
# a verdict) is decided in facts/, which the layers that draw and write (chart/ and
# above) ask: none of them calls these itself (doc/DESIGN.md, "Where new code goes").
# (profile_suspects, the suspects' search the writers called before facts/suspects.c
# took it, stays listed so that it does not come back.)
STATISTICS = {"profile_is_suspect", "profile_suspects", "bandstats_of", "profile_stats"}
WRITERS = {"chart", "render", "sink", "serve", ""}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_name(folder):
    return folder + "/" if folder else "src/ (top)"


def sources(top):
    """The .c and .h files under top, relative to it."""
    files = []
    for root, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(root, name), top))
    return files


def scan(src, build=None):
    """Every include of the tree: (file, line, included file), paths relative to src.
    Files the build made under BUILD/src (protoc-c's code) may be included too."""
    files = sources(src)
    known = set(files)
    if build is not None and os.path.isdir(os.path.join(build, "src")):
        known |= set(sources(os.path.join(build, "src")))
    edges, problems = [], []
    for path in files:
        with open(os.path.join(src, path), encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, 1):
                m = INCLUDE.match(text)
                if not m:
                    continue
                # As the compiler looks: beside the including file, then -I src.
                beside = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
                target = beside if beside in known else os.path.normpath(m.group(1))
                if target not in known:
                    problems.append('%s:%d: includes "%s", which is not a file of src/'
                                    % (path, number, m.group(1)))
                    continue
                edges.append((path, number, target))
    return files, edges, problems


def folder_of(path):
    return os.path.dirname(path)


def module_of(path):
    return os.path.splitext(path)[0]


def cycles(nodes, graph):
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # Iterative, so a deep include chain cannot exhaust Python's recursion limit.
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, successors = work[-1]
            advanced = False
            for w in successors:
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
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def cycle_path(component, graph):
    """One cycle through the component's first node, as a list of nodes (first repeated)."""
    members = set(component)
    start = component[0]
    # Breadth-first from start's successors back to start, inside the component.
    parents = {}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(graph.get(v, ())):
                if w not in members or w in parents:
                    continue
                parents[w] = v
                if w == start:
                    path = [start]
                    while True:
                        path.append(parents[path[-1]])
                        if path[-1] == start:
                            return list(reversed(path))
                following.append(w)
        frontier = following
    return component + [component[0]]


def check_graph(kind, key, edges, show):
    """Cycles of the graph of edges (file, where, file) with nodes key(file)."""
    graph, where = {}, {}
    for path, place, target in edges:
        a, b = key(path), key(target)
        if a == b:
            continue
        graph.setdefault(a, set()).add(b)
        where.setdefault((a, b), place)
    nodes = set(graph) | {b for bs in graph.values() for b in bs}
    problems = []
    for component in cycles(nodes, graph):
        path = cycle_path(component, graph)
        steps = ", ".join("%s -> %s (%s)" % (show(a), show(b), where[(a, b)])
                          for a, b in zip(path, path[1:]))
        if len(component) > len(path) - 1:
            steps += " (one of the cycles among %s)" % ", ".join(show(m) for m in component)
        problems.append("%s cycle: %s" % (kind, steps))
    return problems


def symbol_uses(build):
    """Every use of a symbol one object of BUILD/src defines by another: (module of the
    user, symbol, module of the definer), modules as "folder/name" paths."""
    objects = []
    top = os.path.join(build, "src")
    for root, dirs, names in os.walk(top):
        dirs[:] = sorted(dirs)
        objects += [os.path.join(root, n) for n in sorted(names) if n.endswith(".o")]
    if not objects:
        return None
    out = subprocess.run([os.environ.get("NM", "nm"), "-A"] + objects, check=True,
                         capture_output=True, text=True).stdout
    defined, used = {}, []
    for line in out.splitlines():
        path, _, rest = line.partition(":")
        fields = rest.split()
        rel = os.path.relpath(path, top)
        # automake prefixes objects of a target with its own flags: libev2hp_a-sink.o
        module = os.path.join(os.path.dirname(rel),
                              re.sub(r"^\w+_a-", "", os.path.basename(rel)[:-2]))
        if len(fields) == 3 and fields[1] in "TDBRCVW":
            defined.setdefault(fields[2], module)
        elif len(fields) == 2 and fields[0] in "Uw":
            used.append((module, fields[1]))
    return [(m, sym, defined[sym]) for m, sym in used if sym in defined]


def check(src, build=None):
    files, edges, problems = scan(src, build)
    edges = [(path, "%s:%d" % (path, number), target) for path, number, target in edges]
    rank = {name: i for i, name in enumerate(LAYERS)}
    for folder in sorted({folder_of(p) for p in files}):
        if folder not in rank:
            problems.append("%s: a folder that is not a declared layer (LAYERS in "
                            "tests/layers.py and \"Layers\" in doc/DESIGN.md)"
                            % layer_name(folder))
    for path, place, target in edges:
        a, b = folder_of(path), folder_of(target)
        if a == b or a not in rank or b not in rank:
            continue
        if a == "base":
            problems.append("%s: base/ includes %s: base/ may include only base/"
                            % (place, target))
        elif rank[b] > rank[a]:
            problems.append("%s: includes %s: %s is above %s (includes go down only)"
                            % (place, target, layer_name(b), layer_name(a)))
    problems += check_graph("folder", folder_of, edges, layer_name)
    problems += check_graph("module", module_of, edges, lambda m: m)
    if build is not None:
        problems += check_calls(symbol_uses(build), rank)
    return problems


def check_calls(uses, rank):
    """The layer rule and the module cycles for uses of symbols (symbol_uses)."""
    if uses is None:
        return ["the build has no object files under src/ (build first)"]
    problems = []
    for user, sym, definer in sorted(set(uses)):
        a, b = folder_of(user), folder_of(definer)
        if a != b and a in rank and b in rank and rank[b] > rank[a]:
            problems.append("%s uses %s of %s: %s is above %s (calls go down only)"
                            % (user, sym, definer, layer_name(b), layer_name(a)))
        if sym in STATISTICS and a in WRITERS:
            problems.append("%s uses %s of %s: a statistic is decided in facts/, which %s "
                            "only formats" % (user, sym, definer, layer_name(a)))
    calls = [(user, "%s" % sym, definer) for user, sym, definer in sorted(set(uses))]
    problems += check_graph("call", lambda m: m, calls, lambda m: m)
    return problems


def main(argv):
    if len(argv) not in (2, 3) or not all(os.path.isdir(a) for a in argv[1:]):
        print("usage: layers.py SRC_DIR [BUILD_DIR]", file=sys.stderr)
        return 2
    problems = check(argv[1], argv[2] if len(argv) == 3 else None)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

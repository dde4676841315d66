#!/usr/bin/env python3
"""Checks run by .ci/docs before DocC.

coverage GRAPHS MODULE...  Every public top-level symbol of each module (from GRAPHS/MODULE/*.symbols.json) is
                           curated in a `## Topics` section of Sources/MODULE/MODULE.docc, and so is every type that
                           the module extends in another module. Deprecated symbols are exempt: DocC lists them on
                           its own; members are left to their type's page.
samples                    Every ```swift block in Sources/*/*.docc appears in some Swift file under Tests/,
                           OpenAPITests/Tests/ or ServerTests/Tests/ (the packages that turn on a trait): its
                           non-blank lines, whitespace-trimmed, each equal to a line of that file, in the same order.
                           A block whose first line is `// Package.swift` is a manifest excerpt, which no test can
                           compile, and is skipped.
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def is_deprecated(symbol):
    for entry in symbol.get("availability", []):
        if entry.get("isUnconditionallyDeprecated") or "deprecated" in entry:
            return True
    return False


def topics_links(catalog):
    """The symbol links listed under every `## Topics` heading of the catalog, as lists of path components."""
    links = []
    for page in glob.glob(os.path.join(catalog, "**", "*.md"), recursive=True):
        in_topics = False
        for line in open(page, encoding="utf-8"):
            if re.match(r"^##\s", line):
                in_topics = line.strip() == "## Topics"
                continue
            if in_topics:
                for target in re.findall(r"``([^`]+)``", line):
                    links.append(normalized(target))
    return links


def normalized(target):
    return [part for part in target.strip().split("/") if part]


def strip_suffix(part):
    """Drops a DocC disambiguation suffix (`-swift.struct`, `-4abc1`): Swift names hold no `-`."""
    return re.sub(r"\)-[A-Za-z0-9_.]+$", ")", re.sub(r"^([A-Za-z_$][A-Za-z0-9_$]*)-[A-Za-z0-9_.]+$", r"\1", part))


def coverage(graphs, modules):
    failures = []
    for module in modules:
        catalog = os.path.join(ROOT, "Sources", module, module + ".docc")
        links = [[strip_suffix(p) for p in link] for link in topics_links(catalog)]
        links = [link[1:] if link and link[0] == module and len(link) > 1 else link for link in links]
        first = {link[0] for link in links if len(link) == 1}
        prefixes = {tuple(link[:2]) for link in links if len(link) >= 2}

        main = json.load(open(os.path.join(graphs, module, module + ".symbols.json"), encoding="utf-8"))
        for symbol in main["symbols"]:
            path = symbol["pathComponents"]
            if len(path) != 1 or is_deprecated(symbol):
                continue
            title = path[0]
            # A link without parentheses to a function's base name is its overload group (all of them).
            covered = title in first or title.split("(")[0] in first
            if not covered:
                failures.append(f"{module}: ``{title}`` ({symbol['kind']['displayName']}) is in no Topics section")

        for extension_graph in glob.glob(os.path.join(graphs, module, module + "@*.symbols.json")):
            extended_module = os.path.basename(extension_graph).split("@")[1].split(".symbols.json")[0]
            graph = json.load(open(extension_graph, encoding="utf-8"))
            for symbol in graph["symbols"]:
                if symbol["kind"]["identifier"] != "swift.extension" or is_deprecated(symbol):
                    continue
                extended = (extended_module, symbol["pathComponents"][0])
                if extended not in prefixes:
                    failures.append(f"{module}: ``{'/'.join(extended)}`` (what {module} adds to it) is in no Topics "
                                    "section; curate the type or one of the members it gains")
    if failures:
        print("docs: public symbols missing from the catalogs' Topics sections:")
        for failure in sorted(set(failures)):
            print("  " + failure)
        sys.exit(1)
    print(f"docs: every public top-level symbol of {', '.join(modules)} is curated")


def swift_blocks(page):
    blocks, current, start = [], None, 0
    for number, line in enumerate(open(page, encoding="utf-8"), 1):
        stripped = line.strip()
        if current is None and stripped == "```swift":
            current, start = [], number
        elif current is not None and stripped.startswith("```"):
            blocks.append((start, current))
            current = None
        elif current is not None and stripped:
            current.append(stripped)
    if current is not None:
        sys.exit(f"docs: {page}:{start}: a ```swift block is never closed")
    return blocks


def samples():
    tests = {}
    paths = glob.glob(os.path.join(ROOT, "Tests", "**", "*.swift"), recursive=True)
    paths += glob.glob(os.path.join(ROOT, "OpenAPITests", "Tests", "**", "*.swift"), recursive=True)
    paths += glob.glob(os.path.join(ROOT, "ServerTests", "Tests", "**", "*.swift"), recursive=True)
    for path in paths:
        tests[path] = [line.strip() for line in open(path, encoding="utf-8") if line.strip()]
    failures, count = [], 0
    pages = sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "**", "*.md"), recursive=True))
    pages.append(os.path.join(ROOT, "README.md"))   # the front door's samples too
    for page in pages:
        for start, block in swift_blocks(page):
            if block and block[0].startswith("// Package.swift"):
                continue
            count += 1
            best = (-1, None)
            for path, lines in tests.items():
                matched, position = 0, 0
                for wanted in block:
                    try:
                        position = lines.index(wanted, position) + 1
                        matched += 1
                    except ValueError:
                        break
                if matched == len(block):
                    best = (matched, path)
                    break
                if matched > best[0]:
                    best = (matched, path)
            if best[0] != len(block):
                where = os.path.relpath(best[1], ROOT) if best[1] else "no file"
                failures.append(f"{os.path.relpath(page, ROOT)}:{start}: the sample is in no test; closest is {where}, "
                                f"which lacks (in order) the line: {block[best[0]]}")
    if failures:
        print("docs: samples that no test compiles (put the same lines, in order, in a test under Tests/):")
        for failure in failures:
            print("  " + failure)
        sys.exit(1)
    print(f"docs: all {count} Swift samples of the catalogs and the README are in tests")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "coverage":
        coverage(sys.argv[2], sys.argv[3:])
    elif sys.argv[1:] == ["samples"]:
        samples()
    else:
        sys.exit(__doc__)

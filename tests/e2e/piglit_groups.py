#!/usr/bin/python3
"""Compares whole piglit runs (`piglit run ... DIR`) made natively and
through Conduit, group by group, as docs/reports/conformance.md reports them.

usage: piglit_groups.py LABEL=DIR [LABEL=DIR...]

The first label is the reference (native). A label given several times
joins its runs (a profile measured in parts). Prints a markdown table of
the tests each run passes per group (spec@GROUP@..., else the first part
of the name), then every test that passes in the reference and not in
another run, and the other way round, with both results.
"""
import bz2
import collections
import json
import os
import sys


def load(directory):
    path = os.path.join(directory, "results.json.bz2")
    opener = bz2.open if os.path.exists(path) else open
    if opener is open:
        path = os.path.join(directory, "results.json")
    with opener(path, "rt") as f:
        return {name: t["result"] for name, t in json.load(f)["tests"].items()}


def group_of(name):
    parts = name.split("@")
    return parts[1] if parts[0] == "spec" and len(parts) > 2 else parts[0]


def join_runs(args):
    runs = collections.OrderedDict()
    for arg in args:
        label, directory = arg.split("=", 1)
        runs.setdefault(label, {}).update(load(directory))
    return runs


def table(runs):
    labels = list(runs)
    reference = runs[labels[0]]
    per_group = collections.defaultdict(lambda: collections.Counter())
    for name in reference:
        g = per_group[group_of(name)]
        g["tests"] += 1
        for label in labels:
            g[label] += runs[label].get(name) == "pass"
    lines = ["| group | tests | " + " | ".join(f"{label} pass" for label in labels) + " |",
             "|---|---:|" + "---:|" * len(labels)]
    total = collections.Counter()
    for group in sorted(per_group):
        g = per_group[group]
        total.update(g)
        lines.append(f"| {group} | {g['tests']:,} | " + " | ".join(f"{g[label]:,}" for label in labels) + " |")
    lines.append(f"| all | {total['tests']:,} | " + " | ".join(f"{total[label]:,}" for label in labels) + " |")
    return lines


def differences(runs):
    labels = list(runs)
    reference = runs[labels[0]]
    lines = []
    for name in sorted(reference):
        ours = {label: runs[label].get(name, "not run") for label in labels[1:]}
        if any((reference[name] == "pass") != (r == "pass") for r in ours.values()):
            lines.append(f"- {name}: {labels[0]} {reference[name]}, " +
                         ", ".join(f"{label} {r}" for label, r in ours.items()))
    return lines


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    runs = join_runs(sys.argv[1:])
    print("\n".join(table(runs)))
    diffs = differences(runs)
    print(f"\n{len(diffs)} differences" + (":" if diffs else ""))
    print("\n".join(diffs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The docs stay true to the tree: the README's folder table names every
top-level folder and no other, its coverage lines are what the generators
report, and every relative link in the README and docs/ reaches a file (and
a heading, when it names one)."""
import os
import re
import sys
import unittest

ROOT = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def top_level_folders(root):
    """Folders of the source tree: not hidden, and not build trees (meson's
    hold meson-private/)."""
    return {
        name
        for name in os.listdir(root)
        if os.path.isdir(os.path.join(root, name))
        and not name.startswith(".")
        and not os.path.isdir(os.path.join(root, name, "meson-private"))
    }


def folder_table(readme):
    """The folders the README's `| folder | what it holds |` table names."""
    named, inside = set(), False
    for line in readme.splitlines():
        if re.match(r"^\|\s*folder\s*\|", line):
            inside = True
            continue
        if not inside:
            continue
        if not line.startswith("|"):
            break
        first_cell = line.split("|")[1]
        named.update(re.findall(r"`([^`/]+)/`", first_cell))
    return named


def slug(heading):
    """A heading's anchor as GitHub makes it."""
    text = re.sub(r"`|\*\*|\[|\]\([^)]*\)", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(markdown):
    found, seen, fenced = set(), {}, False
    for line in markdown.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def markdown_files(root):
    yield os.path.join(root, "README.md")
    for folder, _, names in os.walk(os.path.join(root, "docs")):
        for name in sorted(names):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def links(markdown):
    fenced = False
    for line in markdown.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if not re.match(r"^[a-z]+:", target):
                yield target


class Docs(unittest.TestCase):
    def test_folder_table_names_every_folder(self):
        named = folder_table(read(os.path.join(ROOT, "README.md")))
        present = top_level_folders(ROOT)
        self.assertTrue(named, "the README has no folder table")
        self.assertEqual(sorted(present - named), [], "folders the README's table does not name")
        self.assertEqual(sorted(named - present), [], "folders the README's table names that are not there")

    def test_relative_links_reach_their_files_and_headings(self):
        broken = []
        for source in markdown_files(ROOT):
            for target in links(read(source)):
                path, _, anchor = target.partition("#")
                where = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
                shown = f"{os.path.relpath(source, ROOT)}: {target}"
                if not os.path.exists(where):
                    broken.append(shown + " (no such file)")
                elif anchor and where.endswith(".md") and anchor not in anchors(read(where)):
                    broken.append(shown + " (no such heading)")
        self.assertEqual(broken, [])

    def test_readme_coverage_lines_are_what_the_generators_report(self):
        # meson hands the reports of this configuration to the test.
        reports = [os.environ[k] for k in ("GL_COVERAGE_REPORT", "VK_COVERAGE_REPORT") if k in os.environ]
        if not reports:
            self.skipTest("run by meson, which passes the generators' reports")
        readme = read(os.path.join(ROOT, "README.md"))
        for report in reports:
            self.assertIn(f"`{report}`", readme, "the README's coverage line is stale")

    def test_the_checks_see_what_they_check(self):
        # A table or a link the parsers no longer see would pass unnoticed.
        self.assertEqual(folder_table("| folder | what |\n|---|---|\n| `a/` | x |\n| `b/`, `c/` | y |\n\nz"),
                         {"a", "b", "c"})
        self.assertEqual(list(links("[x](a.md#b) `[y](no.md)` [z](https://e.org)")), ["a.md#b"])
        self.assertEqual(anchors("# A `b` c\n```\n# not\n```\n## A b c\n## Where: it's\n"),
                         {"a-b-c", "a-b-c-1", "where-its"})


if __name__ == "__main__":
    unittest.main()

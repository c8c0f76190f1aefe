"""Tests of docs/check_links.py: a good book passes, every kind of broken link fails.

    python3 -m unittest discover -s docs -p 'test_*.py'
"""

import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_links  # noqa: E402

GOOD = {
    "docs/book/index.html": '<h1 id="intro">Intro</h1><a href="guide/page.html#C11">C11</a>'
    '<a href="#intro">top</a><a href="https://example.com/x.md">out</a><a href="guide/">folder</a>',
    "docs/book/guide/page.html": '<a id="C11"></a><a href="../index.html">back</a>'
    '<a href="../../../setups/forum-12.toml">setup</a><a href="../../../reports/study/README.html">study</a>'
    '<a href="../../../reports/study/">folder</a>',
    "docs/book/guide/index.html": "<p>the guide</p>",
    "setups/forum-12.toml": "name = 'forum-12'",
    "reports/study/README.md": "# A study",
}


class CheckLinks(unittest.TestCase):
    def book(self, extra: dict[str, str]) -> list[str]:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for name, text in {**GOOD, **extra}.items():
                path = root / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            return check_links.check(root / "docs/book", root)

    def test_a_good_book_passes(self):
        self.assertEqual(self.book({}), [])

    def test_a_missing_page_fails(self):
        broken = self.book({"docs/book/bad.html": '<a href="guide/nowhere.html">x</a>'})
        self.assertEqual(broken, ["bad.html: guide/nowhere.html (no such file in the book)"])

    def test_a_missing_anchor_fails(self):
        broken = self.book({"docs/book/bad.html": '<a href="guide/page.html#C12">x</a><a href="#nope">y</a>'})
        self.assertEqual(
            broken,
            [
                "bad.html: guide/page.html#C12 (no id 'C12' on guide/page.html)",
                "bad.html: #nope (no id 'nope' on bad.html)",
            ],
        )

    def test_a_missing_repository_file_fails(self):
        broken = self.book({"docs/book/bad.html": '<a href="../../setups/gone.toml">x</a><a href="../../../../etc/passwd">y</a>'})
        self.assertEqual(
            broken,
            [
                "bad.html: ../../setups/gone.toml (no such file in the repository)",
                "bad.html: ../../../../etc/passwd (leaves the repository)",
            ],
        )

    def test_the_command_line_exits_1_on_a_broken_link(self):
        with tempfile.TemporaryDirectory() as tmp:
            book = Path(tmp) / "docs/book"
            book.mkdir(parents=True)
            (book / "index.html").write_text('<a href="missing.html">x</a>', encoding="utf-8")
            self.assertEqual(check_links.main(["check_links.py", str(book), tmp]), 1)
            (book / "index.html").write_text('<a id="x" href="#x">x</a>', encoding="utf-8")
            self.assertEqual(check_links.main(["check_links.py", str(book), tmp]), 0)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Check the links of the built book (docs/book) offline.

Every link and image of every HTML page must resolve:

- a link inside the book to a file that exists (a folder to its
  index.html), and its `#anchor` to an element with that id on that page;
- a link that leaves the book (`../../setups/forum-12.toml` from a chapter)
  to a file or folder of the repository. mdBook rewrites every relative
  `.md` link to `.html`, so a repository file `X.html` that does not exist
  is accepted when `X.md` does. Anchors into repository files are not
  checked (GitHub makes its own).

Links with a scheme (https:, mailto:) are not followed: the check is
offline. Standard library only.

    python3 docs/check_links.py [BOOK_DIR [REPO_ROOT]]

prints every broken link with its page and exits 1 if there is any.
"""

from __future__ import annotations

import os
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINK_ATTRS = {"a": "href", "link": "href", "img": "src", "script": "src", "area": "href"}


class Page(HTMLParser):
    """The ids a page defines, the links it makes and its <base>, if any."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.base: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v for k, v in attrs if v is not None}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "a" and "name" in values:
            self.ids.add(values["name"])
        if tag == "base" and "href" in values:
            self.base = values["href"]
        attr = LINK_ATTRS.get(tag)
        if attr and attr in values:
            self.links.append(values[attr])

    handle_startendtag = handle_starttag


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
        return True
    except ValueError:
        return False


def check(book: Path, repo: Path) -> list[str]:
    """Every broken link of the book at `book`, as 'page: link (why)'."""
    book = book.resolve()
    repo = repo.resolve()
    pages = {p.resolve(): parse(p) for p in sorted(book.rglob("*.html"))}
    broken: list[str] = []
    for path, page in pages.items():
        name = path.relative_to(book).as_posix()
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # external: not checked offline
            folder = path.parent
            if page.base is not None:
                base = urlsplit(page.base)
                if base.scheme or base.netloc:
                    continue
                # An absolute <base> (404.html's site root) stands for the book's root.
                folder = book / base.path.lstrip("/") if base.path.startswith("/") else folder / base.path
            target_path = unquote(parts.path)
            if target_path.startswith("/"):
                target = (book / target_path.lstrip("/")).resolve()
            elif target_path:
                target = (folder / target_path).resolve()
            else:
                target = path
            fragment = unquote(parts.fragment)
            why = resolve(target, fragment, book, repo, pages)
            if why:
                broken.append(f"{name}: {link} ({why})")
    return broken


def resolve(target: Path, fragment: str, book: Path, repo: Path, pages: dict[Path, Page]) -> str | None:
    """None if the link resolves, else why not."""
    if inside(target, book):
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            return "no such file in the book"
        if fragment and target.suffix == ".html":
            page = pages.get(target)
            if page is None or fragment not in page.ids:
                return f"no id '{fragment}' on {target.relative_to(book).as_posix()}"
        return None
    if not inside(target, repo):
        return "leaves the repository"
    if target.exists():
        return None
    if target.suffix == ".html" and target.with_suffix(".md").exists():
        return None  # mdBook's rewrite of a link to a repository .md file
    return "no such file in the repository"


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    book = Path(argv[1]) if len(argv) > 1 else here / "book"
    repo = Path(argv[2]) if len(argv) > 2 else here.parent
    if not (book / "index.html").exists():
        print(f"{book}: no built book here (run `mdbook build docs` first)", file=sys.stderr)
        return 2
    broken = check(book, repo)
    count = sum(len(parse(p).links) for p in book.rglob("*.html"))
    if broken:
        print(f"{len(broken)} broken link(s) in {os.path.relpath(book)}:", file=sys.stderr)
        for line in broken:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"links: ok ({count} links in {sum(1 for _ in book.rglob('*.html'))} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

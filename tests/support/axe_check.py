"""axe-core run in a page the browser tests opened: :func:`axe_source` (a fixture's body:
the script, or a skip) and :func:`axe` (the serious and critical findings)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest


def axe_source() -> str:
    """axe-core's script, or a skip (a failure when the browser is required)."""
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or spec.origin is None:
        if os.environ.get("TAROT_BROWSER", "") == "required":
            pytest.fail("TAROT_BROWSER=required but axe-playwright-python is not installed")
        pytest.skip("axe-playwright-python (axe-core) is not installed")
    return (Path(spec.origin).parent / "axe.min.js").read_text(encoding="utf-8")


#: axe-core's rules whose verdict hangs on colours: all a page's dark scheme changes (its
#: ``prefers-color-scheme: dark`` rules set colours, backgrounds, borders and shadows only,
#: never what is shown or where), so that the other rules, run on the light scheme of the
#: same page, would find the same on the dark one.
COLOUR_RULES = ("color-contrast", "link-in-text-block")


def axe(page: Any, source: str, only: tuple[str, ...] | None = None) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (with the
    label-content-name-mismatch rule, experimental, turned on), by all its rules or
    ``only`` those named."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(source)
    found = page.evaluate(
        "async only => (await axe.run(document, {resultTypes: ['violations'], preload: false,"
        " ...(only ? {runOnly: {type: 'rule', values: only}}"
        " : {rules: {'label-content-name-mismatch': {enabled: true}}})})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))",
        None if only is None else list(only))
    return [str(f) for f in found]

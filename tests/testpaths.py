"""Where the tests find the repository and their files, wherever a test file sits under tests/ (pytest's pythonpath
holds tests/, so every test imports this by name)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"

"""What the board's bring-up raises when a state cannot be reached (an AssertionError: Robot fails the keyword)."""

from __future__ import annotations


class BringUpError(AssertionError):
    """The board did not reach a state, even after a power-cycle and a retry."""

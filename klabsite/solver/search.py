"""What both solvers share: finding an exact value with a monotone null-window test.

A solver asks questions of the form "is the value at least ``t``?"; each answer is monotone in
``t`` and comes with a fail-soft bound (a search that passes proves more than ``t`` when its
value says so, one that fails may prove less). :func:`largest` turns such a test into the exact
answer by bisection, jumping with the bounds, trying a guess (a value expected nearby) first.

>>> largest(lambda t: (t <= 37, t), low=0, high=100)
37
>>> calls = []
>>> largest(lambda t: (calls.append(t) or t <= 37, 37), low=0, high=100, guess=30)   # bounds jump
37
>>> calls
[30, 69]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["largest", "Test", "DealCards"]

Test = Callable[[int], tuple[bool, int]]
"""``test(t) -> (passed, bound)``: passed means every ``t' <= bound`` passes too; failed means
every ``t' > bound`` fails too (``bound = t`` and ``t - 1`` are always safe answers)."""


def largest(test: Test, low: int, high: int, guess: int | None = None, step: int = 0) -> int:
    """The largest ``t`` in ``[low, high]`` that passes ``test``, given that ``low`` passes and the
    test is monotone (passes up to some point, fails after it).

    With ``step``, the tests gallop up from ``low`` (``low + step``, then doubling the step) until
    one fails, then bisect: for answers expected near ``low``.
    """
    while low < high:
        if guess is not None and low < guess <= high:
            t = guess
        elif step:
            t = min(high, low + step)
            step *= 2
        else:
            t = (low + high + 1) // 2
        guess = None
        passed, bound = test(t)
        if passed:
            low = max(t, min(bound, high))
        else:
            high = min(t - 1, max(bound, low))
            step = 0
    return low


class DealCards:
    """Which cards each seat has held in the deal a search core works on: a transposition table
    keyed by the cards still held is valid while each card stays with one seat.

    >>> cards = DealCards(2)
    >>> cards.same_deal([0b0011, 0b1100]), cards.same_deal([0b0001, 0b0100])
    (True, True)
    >>> cards.same_deal([0b0100, 0b0001])   # a card changed hands: another deal
    False
    """

    def __init__(self, seats: int) -> None:
        self.held = [0] * seats

    def same_deal(self, held: Sequence[int]) -> bool:
        """Record ``held`` (each seat's cards, those it played to the trick in progress included);
        whether they fit the deal seen so far (if not, only ``held`` is remembered)."""
        seen = self.held
        every = 0
        for mask in seen:
            every |= mask
        same = all(not (mask & ~seen[seat] & every) for seat, mask in enumerate(held))
        self.held = [(seen[seat] if same else 0) | mask for seat, mask in enumerate(held)]
        return same

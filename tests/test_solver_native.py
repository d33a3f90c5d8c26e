"""The C search cores (``klabsite.solver._search``) are built by the install and search exactly
like the Python cores: the same value and the same number of nodes on seeded positions (every
rule variant, mid-trick roots, pit, roem limits, capot terms); their card-play rule, roem and
table of interchangeable cards agree with the fast path and :mod:`klabsite.solver.tables`.

With ``KLABSITE_SOLVER_PURE_PYTHON=1`` the solver ignores the extension (as where no C compiler
was at hand): the C tests are skipped and every other test runs on the Python cores.
"""

from __future__ import annotations

import os
import random

import pytest

from klabsite.engine.fast import klaberjass as fast_klaberjass
from klabsite.engine.fast import klaverjas as fast_klaverjas
from klabsite.solver import native
from klabsite.solver.tables import representatives

PURE = os.environ.get("KLABSITE_SOLVER_PURE_PYTHON") == "1"
needs_c = pytest.mark.skipif(PURE or not native.AVAILABLE, reason="the C search cores are not built")


def _cards(mask: int) -> list[int]:
    return [card for card in range(32) if mask >> card & 1]


def test_the_c_cores_are_built_by_the_install() -> None:
    if PURE:
        pytest.skip("KLABSITE_SOLVER_PURE_PYTHON=1")
    assert native.AVAILABLE, "pip install should have built klabsite.solver._search (see setup.py)"


@needs_c
def test_klaberjass_cores_agree_on_values_and_nodes() -> None:
    rng = random.Random("native klaberjass")
    for _ in range(250):
        deck = list(range(32))
        rng.shuffle(deck)
        size = rng.randrange(1, 8)
        hands = [sum(1 << c for c in deck[:size]), sum(1 << c for c in deck[size:2 * size])]
        trump, any_lead, leader = rng.randrange(4), rng.random() < 0.5, rng.randrange(2)
        led = -1
        if rng.random() < 0.4:
            led = rng.choice(_cards(hands[leader]))
            hands[leader] ^= 1 << led
        capot, sign = rng.choice([(-1, 1), (0, 1), (1, 1), (0, -1), (1, -1)])
        python = native.klaberjass_search(trump, any_lead, native=False)
        c = native.klaberjass_search(trump, any_lead, native=True)
        for beta in (-40, -5, 0, 13, 40):
            args = ((hands[0], hands[1]), leader, led, beta - 1, beta, capot, sign)
            assert python.search(*args) == c.search(*args)
            assert python.nodes == c.nodes


@needs_c
def test_klaverjas_cores_agree_on_values_and_nodes() -> None:
    rng = random.Random("native klaverjas")
    for _ in range(150):
        deck = list(range(32))
        rng.shuffle(deck)
        size = rng.randrange(1, 5)
        hands = [sum(1 << c for c in deck[size * seat:size * seat + size]) for seat in range(4)]
        trump, playing, leader = rng.randrange(4), rng.randrange(2), rng.randrange(4)
        rotterdam, undertrump = rng.random() < 0.5, rng.random() < 0.5
        trick: list[int] = []
        for n in range(rng.randrange(4) if size > 1 else 0):
            seat = (leader + n) & 3
            card = rng.choice(_cards(fast_klaverjas.legal_mask(hands[seat], trick, trump, rotterdam, undertrump)))
            hands[seat] ^= 1 << card
            trick.append(card)
        python = native.klaverjas_search(trump, playing, rotterdam, undertrump, native=False)
        c = native.klaverjas_search(trump, playing, rotterdam, undertrump, native=True)
        for pit in (True, False):
            for limit in (-1, 0, 20, 70):
                for beta in (-60, 1, 35):
                    args = (hands, leader, trick, pit, limit, beta - 1, beta)
                    assert python.search(*args) == c.search(*args)
                    assert python.nodes == c.nodes


@needs_c
def test_c_card_play_rules_agree_with_the_fast_path() -> None:
    from klabsite.solver import _search  # type: ignore[attr-defined]

    rng = random.Random("native rules")
    for trump in range(4):
        for any_lead in (False, True):
            core = _search.KlaberjassCore(trump, (int(any_lead), 0, 0, 0), (1, 10, 0, 1), native._tables(trump, False))
            for _ in range(300):
                hand, led = rng.getrandbits(32), rng.randrange(-1, 32)
                hand &= ~(1 << led) if led >= 0 else -1
                assert core.legal(hand, led) == fast_klaberjass.legal_mask(hand, led, trump, any_lead)
        for rotterdam in (False, True):
            for undertrump in (False, True):
                flags = (0, 0, int(rotterdam), int(undertrump))
                core = _search.KlaverjasCore(trump, flags, (1, 10, 100, 1), native._tables(trump, True))
                for _ in range(300):
                    cards = rng.sample(range(32), 12)
                    hand, trick = sum(1 << c for c in cards[:8]), cards[8:8 + rng.randrange(4)]
                    expected = fast_klaverjas.legal_mask(hand, trick, trump, rotterdam, undertrump)
                    assert core.legal(hand, trick) == expected
                    four = sum(1 << c for c in cards[:4])
                    assert core.trick_roem(four) == fast_klaverjas.trick_roem(four, trump)


@needs_c
def test_c_interchangeable_cards_agree_with_the_tables() -> None:
    from klabsite.solver import _search  # type: ignore[attr-defined]

    rng = random.Random("native classes")
    for trump in range(4):
        cores = {
            False: _search.KlaberjassCore(trump, (0, 0, 0, 0), (1, 10, 0, 1), native._tables(trump, False)),
            True: _search.KlaverjasCore(trump, (0, 0, 0, 0), (1, 10, 100, 1), native._tables(trump, True)),
        }
        for _ in range(2000):
            cards = rng.sample(range(32), 20)
            hand, others = sum(1 << c for c in cards[:8]), sum(1 << c for c in cards[8:8 + rng.randrange(13)])
            for roem, core in cores.items():
                assert core.representatives(hand, others) == representatives(hand, others, trump, roem)

"""The choices left in a deal besides the cards: declarations still to come and the bella claim.

A position's value is the best over the choices its player may still make (docs/record-format.md,
``dd``): before a Klaberjass declaration, the value equals the best of the values after each
declaration the engine allows (``nomeld`` included); a bella card's value is the better of
claiming and not claiming, also while the sequences of a player without a trick hang on his
winning one (``no-trick-melds=void``), where the solver searches the choice as a real branch.
"""

from __future__ import annotations

import random

import pytest

from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import parse_cards
from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules, Seat, stack_deck
from klabsite.solver import Solver, native
from tests.solver_helpers import both_cores, brute_force_cards, copy_deal, klaberjass_deal, side_of


def _apply(deal: KlaberjassDeal, lines: list[str]) -> None:
    for line in lines:
        seat, words = line.split(" ", 1)
        deal.apply(Action.parse(seat, words))


def _best_after_each(deal: KlaberjassDeal, solver: Solver, kinds: set[ActionKind]) -> int:
    """The best, for the player to act, of the solver's values after each action of ``kinds``."""
    assert deal.to_act is not None
    key = side_of(deal, deal.to_act)
    values = []
    for action in deal.legal_actions():
        if action.kind not in kinds:
            continue
        child = copy_deal(deal)
        child.apply(action)
        value = solver.solve(child)
        values.append(value if side_of(child, child.to_act) == key else -value)
    return max(values)


@pytest.mark.parametrize("no_trick_melds", ["score", "void"])
@pytest.mark.parametrize("core", ["c", "python"])
def test_a_declaration_still_to_come_is_worth_the_best_declaration(no_trick_melds: str, core: str) -> None:
    rules = KlaberjassRules(schmeiss="off", no_trick_melds=no_trick_melds, equal_meld="elder")
    rng = random.Random(f"declarations {no_trick_melds}")
    if core == "c" and not native.AVAILABLE:
        pytest.skip("the C search cores are not built")
    solver = Solver(native=core == "c")
    checked = {"elder": 0, "dealer": 0, "nomeld best": 0}
    for _ in range(40):
        deal = klaberjass_deal(rules, rng)
        declarations = {ActionKind.MELD, ActionKind.NOMELD}
        if any(action.kind is ActionKind.MELD for action in deal.legal_actions()):  # the non-dealer declares
            assert solver.solve(deal) == _best_after_each(deal, solver, declarations)
            checked["elder"] += 1
        while not deal.trick:
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind is not ActionKind.MELD]
                                  or deal.legal_actions()))
        if any(action.kind is ActionKind.MELD for action in deal.legal_actions()):  # now the dealer
            best = _best_after_each(deal, solver, declarations)
            assert solver.solve(deal) == best
            checked["dealer"] += 1
            if _best_after_each(deal, solver, {ActionKind.NOMELD}) > _best_after_each(deal, solver,
                                                                                      {ActionKind.MELD}):
                checked["nomeld best"] += 1
    assert checked["elder"] and checked["dealer"], checked  # the seeds reach both declarations
    if no_trick_melds == "score":
        assert checked["nomeld best"], checked  # and a dealer for whom declaring nothing is best


def test_a_failing_maker_declines_bella_while_his_sequences_hang() -> None:
    # N, the maker, declared 9D-8D-7D but has lost every trick; with no-trick-melds=void his
    # sequence counts only if he wins one. S leads 9H: N's QH, forced, is his second of K and Q
    # of trumps, and N still has no trick: claiming would hand S 20 more.
    north = parse_cards("7D 8D 9D KH QH 7C 8C 7S 8S")
    south = parse_cards("JH 9H AH AC TC KC AS TS AD")
    deal = KlaberjassDeal(KlaberjassRules(no_trick_melds="void"), Seat.S, stack_deck(north, south, parse_cards("8H")[0]))
    _apply(deal, ["N take", "N meld 9D-8D-7D", "N 7S", "S nomeld", "S AS", "S TS", "N 8S", "S AC", "N 7C",
                  "S TC", "N 8C", "S AD", "N 7D", "S JH", "N KH"])
    assert brute_force_cards(deal) == {"KC": 139, "9H": 119, "AH": 119}
    for solver in both_cores():
        assert {str(card): value for card, value in solver.card_values(deal).items()} == brute_force_cards(deal)
    after = copy_deal(deal)
    _apply(after, ["S 9H"])
    claimed, declined = (copy_deal(after), copy_deal(after))
    _apply(claimed, ["N QH"])
    _apply(declined, ["N QH nobella"])
    solver = Solver()
    assert solver.solve(after) == -119 == max(-solver.solve(claimed), -solver.solve(declined))
    assert solver.solve(declined) < solver.solve(claimed)  # S to act: declining leaves S less


def test_bella_is_decided_as_a_branch_when_neither_choice_is_better_whatever_happens() -> None:
    # N, maker, declared 9D-8D-7D and has lost four tricks of low cards: were he to win the 83
    # points left, claiming bella would help him make it; but he wins no trick, and then claiming
    # only adds 20 to what he gives S. Neither choice is better in both futures, so the solver
    # searches the claim as a branch: declining is right (S: 22 + 83 = 105, not 125).
    north = parse_cards("7D 8D 9D KH QH 7C 8C 7S 8S")
    south = parse_cards("9C AC 9S AS JH 9H AH TD AD")
    deal = KlaberjassDeal(KlaberjassRules(no_trick_melds="void"), Seat.S, stack_deck(north, south, parse_cards("8H")[0]))
    _apply(deal, ["N take", "N meld 9D-8D-7D", "N 7C", "S nomeld", "S 9C", "S 9S", "N 7S", "S AS", "N 8S",
                  "S AC", "N 8C", "S JH", "N KH", "S 9H"])
    assert [str(action) for action in deal.legal_actions()] == ["N QH", "N QH nobella"]
    assert brute_force_cards(deal) == {"QH": -105}
    for solver in both_cores():
        assert {str(card): value for card, value in solver.card_values(deal).items()} == {"QH": -105}

"""The ``search`` bot: only legal actions, never a look at hidden cards, the same choice for the
same seed, and the decisions a perfect player must get right.

The bot runs with a small budget here (a world or two per decision) to keep the tests fast; the
code paths are those of the default budget."""

from __future__ import annotations

import random

import pytest

from klabsite.bots import BOTS, get_bot
from klabsite.bots.inference import infer
from klabsite.bots.search import SearchBot, SearchStyle
from klabsite.bots.search_bidding import BiddingSearch
from klabsite.bots.search_trump import TrumpSearch
from klabsite.bots.search_worlds import Budget
from klabsite.engine.actions import Action, ActionKind
from klabsite.engine.cards import DECK, Suit, mask_of, parse_cards
from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules, stack_deck
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules, deck_from_hands
from klabsite.engine.seats import Seat
from klabsite.solver import Solver
from tests.bots_positions import every_option_set, hidden_truth, new_deal, positions, replay

ONE = Budget(worlds=1, min_worlds=1, nodes=0)
TWO = Budget(worlds=2, min_worlds=2, nodes=0)
SMALL = SearchStyle(klaberjass_play=TWO, klaverjas_play=ONE, klaverjas_trump=TrumpSearch(budget=ONE, margin=12),
                    klaberjass_bidding=BiddingSearch(budget=TWO))


def small_bot() -> SearchBot:
    return SearchBot(SMALL)


def play(rules, rng: random.Random, bots: dict[Seat, object]) -> list[str]:
    """One seeded deal; every choice checked to be one of the legal actions; the actions."""
    deal = new_deal(rules, rng).deal
    actions = []
    while not deal.is_over:
        seat = deal.to_act
        legal = deal.legal_actions()
        action = bots[seat].choose(deal.view_for(seat), legal, rng)
        assert any(action is candidate for candidate in legal), (str(action), [str(a) for a in legal])
        deal.apply(action)
        actions.append(str(action))
    return actions


def test_the_search_bot_is_registered():
    assert "search" in BOTS and get_bot("search").name == "search"


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_only_legal_actions_in_every_option_set(game):
    rule_sets = every_option_set(game)
    rng = random.Random(f"search legal {game}")
    search, other = small_bot(), get_bot("random")
    deals = 256 if game == "klaberjass" else 48
    for i in range(deals):
        rules = rule_sets[i % len(rule_sets)]
        if game == "klaberjass":
            bots = {Seat.N: search, Seat.S: other} if i % 2 else {Seat.N: other, Seat.S: search}
        else:  # one searching seat a deal, in turn
            bots = {seat: search if seat.index == i % 4 else other for seat in Seat}
        play(rules, rng, bots)


def test_the_measured_variants_play_only_legal_cards():
    """The knobs benchmarks/search_variants.py turns (the bid and play fits' factors, the
    partner's bid factor, the rejection tries, no play fit, the tie-break, the trump search's
    biases, bar and candidates) keep every choice legal and seeded."""
    trump = TrumpSearch(budget=ONE, candidates=3, playing_bias=15.0, dd_weight=0.75,
                        confidence=0.75, margin=50.0)
    styles = [SearchStyle(klaverjas_play=TWO, klaverjas_trump=trump, bid_misfit=0.05, play_misfit=0.1,
                          partner_bid_misfit=0.2, world_tries=100, tie_break=5.0),
              SearchStyle(klaverjas_play=TWO, klaverjas_trump=None, fit_plays=0, tie_break=None)]
    rule_sets = every_option_set("klaverjas")
    for i in range(16):
        rules, style = rule_sets[i % len(rule_sets)], styles[i // 12]
        first = play(rules, random.Random(i), dict.fromkeys(Seat, SearchBot(style)))
        assert play(rules, random.Random(i), dict.fromkeys(Seat, SearchBot(style))) == first


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_same_seed_gives_the_same_choices_whatever_came_before(game):
    rules = every_option_set(game)[-1]
    used = small_bot()
    seats = (Seat.N, Seat.S) if game == "klaberjass" else tuple(Seat)
    for seed in range(3 if game == "klaberjass" else 1):
        first = play(rules, random.Random(seed), dict.fromkeys(seats, used))
        again = play(rules, random.Random(seed), dict.fromkeys(seats, small_bot()))
        assert first == again


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_scrambling_the_hidden_cards_changes_no_choice(game):
    rng = random.Random(f"search hidden {game}")
    rule_sets = every_option_set(game)
    bot = small_bot()
    compared = scrambled = 0
    for i in range(24 if game == "klaberjass" else 7):
        for step, position in enumerate(positions(rule_sets[(i * 7) % len(rule_sets)], rng,
                                                  ["heuristic", "random"])):
            deal = position.deal
            seat = deal.to_act
            legal = deal.legal_actions()
            if len(legal) < 2 or step % 2:
                continue
            view = deal.view_for(seat)
            knowledge = infer(view)
            layout = dict(zip(knowledge.places, knowledge.sampler().sample(rng), strict=True))
            other = replay(position, seat, knowledge, layout, rng)
            if any(mask_of(other.hands[s]) != mask_of(deal.hands[s]) for s in other.hands):
                scrambled += 1
            assert all(layout[place] == hidden_truth(other, place) for place in layout)
            choice = bot.choose(view, legal, random.Random(step))
            assert bot.choose(other.view_for(seat), other.legal_actions(), random.Random(step)) == choice
            compared += 1
    assert compared > 60 and scrambled > 0.6 * compared


# ---------------------------------------------------------------------------------------------
# What a perfect player gets right


def _always_best(position, knowledge, solver: Solver):
    """The cards best in every world the seat cannot tell apart (all of them enumerated, when there
    are few), when each other card is worse in at least a third of the worlds; else ``None``. A
    player who sees only his view cannot do better than one of these; a dozen worlds show the
    others' cost (a card worse in few worlds may tie in all a sample holds)."""
    sampler = knowledge.sampler()
    if sampler.count > 60:
        return None
    rng = random.Random(0)
    layouts: set[tuple[int, ...]] = set()
    for _ in range(2000):
        layouts.add(sampler.sample(rng))
        if len(layouts) == sampler.count:
            break
    else:
        return None
    worse: dict = {}
    for layout in layouts:
        world = replay(position, knowledge.seat, knowledge, dict(zip(knowledge.places, layout, strict=True)), rng)
        values = solver.card_values(world)
        top = max(values.values())
        for card, value in values.items():
            worse[card] = worse.get(card, 0) + (value < top)
    best = {card for card, count in worse.items() if not count}
    if not best or any(0 < count < len(layouts) / 3 for count in worse.values()) or len(best) == len(worse):
        return None
    return best


@pytest.mark.parametrize("game", ["klaberjass", "klaverjas"])
def test_the_card_best_in_every_world_is_found_in_endgames(game):
    rng = random.Random(f"search endgames {game}")
    budget = Budget(worlds=12, min_worlds=12, nodes=0)
    bot = SearchBot(SearchStyle(klaverjas_play=budget, klaberjass_play=budget))
    rules = KlaberjassRules() if game == "klaberjass" else KlaverjasRules()
    solver = Solver()
    found = 0
    for _ in range(40 if game == "klaberjass" else 16):
        for position in positions(rules, rng, ["heuristic"]):
            deal = position.deal
            played = len(deal.played) if game == "klaberjass" else 4 * len(deal.tricks)
            legal = deal.legal_actions()
            if deal.phase.value != "play" or played < (10 if game == "klaberjass" else 16) or len(legal) < 2:
                continue
            view = deal.view_for(deal.to_act)
            best = _always_best(position, infer(view), solver)
            if best is not None:
                assert bot.choose(view, legal, random.Random(1)).card in best
                found += 1
    assert found >= 8


def test_an_overwhelming_klaberjass_hand_takes():
    elder = parse_cards("JH 9H AH AC AS AD TC 8S 8D")        # the non-dealer: jack, menel, three aces
    dealer = parse_cards("7C 8C 9C QD KD 7S TS QS KS")
    deal = KlaberjassDeal(KlaberjassRules(), Seat.S, stack_deck(elder, dealer, parse_cards("TH")[0]))
    bot = SearchBot(SearchStyle(klaberjass_bidding=BiddingSearch(budget=Budget(16, 16, 0))))
    assert bot.choose(deal.view_for(Seat.N), deal.legal_actions(), random.Random(3)).kind is ActionKind.TAKE


def test_a_hopeless_klaberjass_hand_does_not_take():
    elder = parse_cards("7H 7C 8C 8D 9S 8S QD 9D JS")
    dealer = parse_cards("JH 9H AH AC AS AD TC KC KS")
    deal = KlaberjassDeal(KlaberjassRules(schmeiss="off"), Seat.S, stack_deck(elder, dealer, parse_cards("TH")[0]))
    bot = SearchBot(SearchStyle(klaberjass_bidding=BiddingSearch(budget=Budget(16, 16, 0))))
    assert bot.choose(deal.view_for(Seat.N), deal.legal_actions(), random.Random(3)).kind is ActionKind.PASS


def test_klaverjas_names_an_overwhelming_hand():
    strong = parse_cards("JS 9S AS TS KS AH AD AC")
    weak = parse_cards("7C 8C 7D 8D 7H 8H 9H 7S")
    others = [card for card in DECK if card not in strong + weak]
    hands = {Seat.N: strong, Seat.E: weak, Seat.S: others[:8], Seat.W: others[8:]}
    search = SearchBot(SearchStyle(klaverjas_trump=TrumpSearch(budget=Budget(6, 6, 0), margin=1000)))
    deal = KlaverjasDeal(KlaverjasRules(), Seat.W, deck_from_hands(Seat.W, hands))
    choice = search.choose(deal.view_for(Seat.N), deal.legal_actions(), random.Random(2))
    assert choice == Action.name(Seat.N, Suit.SPADES)


def test_simulate_seats_the_search_bot():
    from klabsite.commands.simulate import simulate
    from klabsite.records.klab import read_record

    record = simulate("klaberjass", "search", deals=2, bot_names=["search", "heuristic"])
    assert record.tags["Source"] == "simulated seed=search bots=search,heuristic"
    assert read_record(record.to_text()).to_text() == record.to_text() and len(record.deals) == 2

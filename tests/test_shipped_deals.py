"""The deals the default site ships (site_src/deals/): enough of them, valid and analysed, and
between them every tag word, every option value, a whole match of each game and a score sheet."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from klabsite.commands.check import check_file
from klabsite.engine.games import get_game
from klabsite.records.klab import read_record
from klabsite.records.replay import replay
from klabsite.records.tags import TAG_WORDS

DEALS = Path(__file__).resolve().parents[1] / "site_src" / "deals"
FILES = sorted(DEALS.glob("*.klab"))
GAMES = ("klaberjass", "klaverjas")
HEURISTIC = {"klaverjas-roem-100.klab", "klaverjas-roem-200.klab"}
"""The files whose word is too rare for the search bots (the script's docstring says why)."""


@pytest.fixture(scope="module")
def shipped():
    """Each shipped file: (path, record, replay)."""
    loaded = []
    for path in FILES:
        record = read_record(path.read_text(encoding="utf-8"))
        loaded.append((path, record, replay(record)))
    return loaded


def _played(shipped, game):
    return [done for _, record, match in shipped if record.tags["Game"] == game
            for done in match.deals if done.deal is not None]


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_every_shipped_record_checks_clean_with_its_analysis(path):
    out, err = io.StringIO(), io.StringIO()
    assert check_file(str(path), False, out, err, dd=True) == 0, err.getvalue()


@pytest.mark.parametrize("game", GAMES)
def test_at_least_thirty_played_deals_of_each_game(shipped, game):
    assert len(_played(shipped, game)) >= 30


def test_the_shipped_deals_between_them_have_every_tag_word(shipped):
    words = {word for _, record, _ in shipped for deal in record.deals for word in deal.tags.get("Tags", "").split()}
    assert set(TAG_WORDS) - {"thrown-in"} <= words
    assert "thrown-in" in words, "a Klaberjass deal nobody takes"


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_deals_between_them_play_every_option_value(shipped, game):
    rules_class = get_game(game).rules_class
    played = {(name, value) for _, record, match in shipped if record.tags["Game"] == game
              for name, value in (word.split("=", 1) for word in record.tags.get("Rules", "").split())}
    for name, values in rules_class.CHOICES.items():
        defaults = rules_class()
        for value in values:
            is_default = getattr(defaults, name.replace("-", "_")) == value
            assert is_default or (name, value) in played, f"{name}={value}"
    if game == "klaberjass":
        assert ("long-sequence", "100") in played


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_of_each_game_played_to_its_target(shipped, game):
    whole = [match for _, record, match in shipped if record.tags["Game"] == game
             and "deals=" not in record.tags.get("Rules", "") and "Deck" in record.deals[0].tags
             and match.score.over and match.score.winner is not None]
    assert whole, f"no whole {game} match"


def test_one_score_sheet_match(shipped):
    sheets = [record for _, record, _ in shipped if record.deals and all("Deck" not in deal.tags for deal in record.deals)]
    assert sheets


def test_the_search_bots_play_the_shipped_deals(shipped):
    for path, record, _ in shipped:
        source = record.tags.get("Source", "")
        if "bots=" not in source:
            continue
        bots = set(source.split("bots=")[1].split()[0].split(","))
        assert bots == ({"heuristic"} if path.name in HEURISTIC else {"search"}), path.name


def test_each_game_has_a_worked_example(shipped):
    for game in GAMES:
        assert any("worked-example" in deal.tags.get("Tags", "").split()
                   for _, record, _ in shipped if record.tags["Game"] == game for deal in record.deals), game


def _play_rules(match):
    """Each card play of a replayed match: the cards the rules allowed and the word of the rule."""
    for done in match.deals:
        if done.deal is None:
            continue
        deal = done.fresh()
        for action, _events in done.applied:
            if action.card is not None:
                yield deal.play_rule()
            deal.apply(action)

def test_the_shipped_deals_show_every_rule_that_decides_which_cards_may_be_played(shipped):
    """A record that shows a variant has the variant happen: each play rule of the engine (the
    forbidden undertrump of a Rotterdam table among them) decides some card of the shipped deals."""
    from klabsite.engine.klaverjas import PLAY_RULES

    seen = {game: set() for game in GAMES}
    for _, record, match in shipped:
        seen[record.tags["Game"]].update(rule for _, rule in _play_rules(match))
    assert set(PLAY_RULES) <= seen["klaverjas"], set(PLAY_RULES) - seen["klaverjas"]
    assert {"lead", "follow", "higher-trump", "lower-trump", "trump", "any", "beat"} <= seen["klaberjass"]


def test_the_long_sequences_record_scores_a_sequence_of_five_at_100(shipped):
    """The record titled for ``long-sequence=100`` has the option decide: a sequence of five scores 100."""
    from klabsite.engine.melds import Declared, MeldsCompared

    scored = []
    for _, record, match in shipped:
        if "long-sequence=100" not in record.tags.get("Rules", ""):
            continue
        for done in match.deals:
            events = [event for _, events in done.applied for event in events]
            fives = {event.seat for event in events if isinstance(event, Declared)
                     and any(len(meld) >= 5 for meld in event.melds)}
            scored += [event.points for event in events if isinstance(event, MeldsCompared) and event.best in fives]
    assert scored and all(points >= 100 for points in scored), scored


def test_each_shipped_file_has_the_title_its_generator_gives():
    """``generate.py`` rewrites the files: a title changed by hand would be lost."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("shipped_deals_generate", DEALS / "generate.py")
    generate = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = generate  # its dataclasses look their module up
    spec.loader.exec_module(generate)
    for entry in generate.PLAN:
        assert read_record(entry.path.read_text(encoding="utf-8")).tags["Title"] == entry.title, entry.name


def test_an_amsterdam_deal_shows_a_player_choosing_how_to_overtrump(shipped):
    """Amsterdam's own rule (an opponent has trumped: trump higher) with more than one card to do it."""
    choices = sum(rule == "overtrump" and len(allowed) > 1 for _, record, match in shipped
                  if record.tags["Game"] == "klaverjas" and match.rules.trick_rules == "amsterdam"
                  for allowed, rule in _play_rules(match))
    assert choices

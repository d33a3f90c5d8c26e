"""``[[klab:see-deal tag=…]]``: each tag word leads to the step of a deal that shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from klabsite.commands.simulation import simulate
from klabsite.records.klab import read_record
from klabsite.records.replay import replay
from klabsite.records.tags import holds_stuk
from klabsite.site.deal_links import find_step, see_deal, step_of
from klabsite.site.i18n import Localizer
from klabsite.site.replays import LoadedRecord, deal_views

AUDIT = Path(__file__).parent / "fixtures" / "audit"


def _deal(name: str, tags: str):
    text = (AUDIT / name).read_text(encoding="utf-8").replace('[Dealer', f'[Tags "{tags}"]\n[Dealer', 1)
    record = read_record(text)
    return deal_views([LoadedRecord(name, record, replay(record), text)])[0]


def _text(link) -> str:
    return "".join(map(str, link.content.parts))


def test_dix_leads_to_the_exchange_and_schmeiss_to_the_offer():
    assert step_of("dix", _deal("kb_dix_exchange.klab", "dix")).name == "dix"
    assert step_of("schmeiss", _deal("kb_schmeiss_refused_schmeisser_makes.klab", "schmeiss")).name == "b1"


def test_roem_leads_to_the_card_that_completes_the_trick_with_it():
    deal = _deal("kv_pit_four_of_a_kind.klab", "pit roem-200")
    step = step_of("roem-200", deal)
    assert step.card_number == 4 and step.table.tricks[-1].roem >= 200
    assert step_of("pit", deal).name == "end"


def test_klaverjas_bella_leads_to_the_trick_with_stuk_not_to_an_earlier_sequence():
    text = simulate("klaverjas", "s12", deals=1).to_text()  # a sequence in trick 1, stuk in trick 4
    record = read_record(text)
    (deal,) = deal_views([LoadedRecord("s12.klab", record, replay(record), text)])
    assert "bella" in deal.tags and deal.tricks[0].roem >= 20
    step = step_of("bella", deal)
    trump = step.table.trump
    assert step.name == "t4-4" and holds_stuk(step.table.tricks[-1], trump)
    assert not holds_stuk(deal.tricks[0], trump)


def test_a_tag_the_deal_does_not_have_leads_nowhere():
    deal = _deal("kv_roem_nat.klab", "nat")
    assert step_of("pit", deal) is None
    assert find_step([deal], "pit") is None and find_step([deal], "nat", "klaberjass") is None
    assert see_deal(Localizer.untranslated("en"), {"tag": "pit"}, [deal]) == ()


def test_the_link_goes_to_the_step_from_a_rules_page():
    deal = _deal("kv_roem_nat.klab", "nat")
    (note,) = see_deal(Localizer.untranslated("en"), {"tag": "nat"}, [deal])
    link = note.sentences[0]
    assert link.href == f"deals/{deal.id}/end.html"
    assert _text(link) == "See it happen in a deal, step by step: nat"


def test_each_link_names_what_it_shows_so_links_side_by_side_differ():
    deal = _deal("kv_pit_four_of_a_kind.klab", "pit roem-200")
    texts = {_text(see_deal(Localizer.untranslated("en"), {"tag": tag}, [deal])[0].sentences[0])
             for tag in ("pit", "roem-200")}
    assert texts == {"See it happen in a deal, step by step: pit", "See it happen in a deal, step by step: 200 roem"}


@pytest.mark.parametrize(("raw", "says"), [
    ({"tag": "pit", "game": "chess"}, "klab:see-deal: game=chess: the games are klaberjass and klaverjas"),
    ({"tag": "../../etc"}, "klab:see-deal: tag=../../etc: no shipped deal has this word"),
    ({"tag": "thrwn-in"}, "klab:see-deal: tag=thrwn-in: no shipped deal has this word; klabsite's are schmeiss, dix"),
    ({"tag": "pit", "game": "klaberjass"}, "klab:see-deal: tag=pit never happens in klaberjass: write game=klaverjas or none"),
    ({"game": "klaverjas"}, "klab:see-deal: needs a tag word: write [[klab:see-deal tag=WORD"),
    ({"tag": "pit", "seed": "3"}, "klab:see-deal: no option seed: write [[klab:see-deal tag=WORD"),
])
def test_a_mistyped_directive_is_an_error_that_says_what_to_write(raw, says):
    deal = _deal("kv_roem_nat.klab", "nat")
    with pytest.raises(ValueError, match=re.escape(says)):
        see_deal(Localizer.untranslated("en"), raw, [deal])


def test_a_word_of_a_records_author_links_when_a_shipped_deal_carries_it():
    deal = _deal("kv_roem_nat.klab", "nat family-game")
    (note,) = see_deal(Localizer.untranslated("en"), {"tag": "family-game"}, [deal])
    assert note.sentences[0].href == f"deals/{deal.id}/end.html"
    assert _text(note.sentences[0]) == "See it happen in a deal, step by step: family-game"


def test_klabsites_own_words_and_a_replay_of_other_records_draw_nothing_without_a_deal():
    deal = _deal("kv_roem_nat.klab", "nat")
    english = Localizer.untranslated("en")
    assert see_deal(english, {"tag": "worked-example"}, [deal]) == ()
    assert see_deal(english, {"tag": "family-game"}, [deal], own_words=False) == ()

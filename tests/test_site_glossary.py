"""The glossary page (an anchor per term, sorted A–Z in each language) and the rules pages' links
to the first use of each term; the § link of every heading."""

from __future__ import annotations

import re

from klabsite.site.build import render
from klabsite.site.config import load_config
from klabsite.site.glossary import initial, sort_key, term_pattern
from klabsite.site.markdown_ext import DocumentContext, convert

GLOSSARY = """# Glossary

- **Trump suit**: the suit chosen.
- **Dealer**: the player who deals.
- **A trump**: a card of the trump suit.
- **Trick**: one card from each player.
- **"Good."**: the answer.
"""

TRANSLATIONS = {
    "**Trump suit**: the suit chosen.": "**Couleur d’atout** : la couleur choisie.",
    "**Dealer**: the player who deals.": "**Donneur** : celui qui distribue.",
    "**A trump**: a card of the trump suit.": "**Atout** : une carte de la couleur d’atout.",
    "**Trick**: one card from each player.": "**Pli** : une carte de chaque joueur.",
}


def _glossary(lang: str = "en"):
    translate = TRANSLATIONS.get if lang != "en" else (lambda msgid: None)
    return convert(GLOSSARY, DocumentContext("08-glossary.md", lang=lang, translate=translate, glossary=True))


def test_every_glossary_entry_has_an_anchor_from_its_english_term():
    for lang in ("en", "fr"):
        html = _glossary(lang).html
        ids = re.findall(r'<li class="term" id="([^"]+)"', html)
        assert sorted(ids) == ["term-a-trump", "term-dealer", "term-good", "term-trick", "term-trump-suit"]


def test_glossary_entries_are_sorted_a_to_z_in_the_pages_language():
    english = [term for _, term in _glossary("en").terms]
    assert english == ["A trump", "Dealer", '"Good."', "Trick", "Trump suit"]
    french = [term for _, term in _glossary("fr").terms]
    assert french == ["Atout", "Couleur d’atout", "Donneur", '"Good."', "Pli"]
    html = _glossary("fr").html
    assert html.index('id="term-a-trump"') < html.index('id="term-trump-suit"') < html.index('id="term-dealer"')


def test_sorting_ignores_accents_case_quotes_and_the_arabic_article():
    assert sorted(["Élan", "ecart", "Eb"], key=lambda term: sort_key(term, "fr")) == ["Eb", "ecart", "Élan"]
    assert sort_key("«Bonne»", "fr")[0] == "bonne" and sort_key("الحكم", "ar")[0] == "حكم"


def test_a_list_that_is_not_all_terms_is_left_as_written():
    html = convert("# G\n\n- **B**: b\n- plain item\n- **A**: a\n", DocumentContext("g.md", glossary=True)).html
    assert 'class="term"' not in html and html.index("B</strong>") < html.index("A</strong>")


TERMS = [("term-trump", "Trump"), ("term-trump-suit", "Trump suit"), ("term-trick", "Trick"),
         ("term-dealer", "Dealer"), ("term-good", '"Good."'), ("term-ace", "Ace, king")]


def _page(source: str, lang: str = "en") -> str:
    return convert(source, DocumentContext("p.md", lang=lang, glossary_href="glossary.html", terms=TERMS)).html


def test_the_first_use_of_each_term_links_to_the_glossary_and_only_the_first():
    html = _page("# P\n\nThe dealer names the trump suit. The dealer wins a trick, then tricks.\n")
    links = re.findall(r'<a class="term-link" href="glossary.html#([^"]+)">([^<]+)</a>', html)
    assert links == [("term-dealer", "dealer"), ("term-trump-suit", "trump suit"), ("term-trick", "trick")]


def test_terms_are_never_linked_in_headings_links_code_or_table_headers():
    source = ("# P\n\n## The dealer\n\nSee [the dealer](p.md) and `trump`.\n\n"
              "| Trick | Points |\n|---|---|\n| dealer | 1 |\n\nA trump and a trick.\n")
    html = convert(source, DocumentContext("p.md", glossary_href="glossary.html", terms=TERMS,
                                           page_links={"p.md": "p.html"})).html
    assert "<h2" in html and 'term-link' not in html.split("<h2")[1].split("</h2>")[0]
    assert '<th>Trick</th>' in html, "not in a table header"
    assert '<td><a class="term-link" href="glossary.html#term-dealer">dealer</a></td>' in html, \
        "a table cell is prose: the first use there links"
    assert "<code><span>trump</span></code>" in html
    assert html.endswith('<p>A <a class="term-link" href="glossary.html#term-trump">trump</a> and a '
                         '<a class="term-link" href="glossary.html#term-trick">trick</a>.</p>')


def test_phrases_and_groups_are_not_looked_for():
    pattern, ids = term_pattern(TERMS, "en")
    assert "ace, king" not in ids and '"good."' not in ids and pattern is not None


def test_a_headings_words_link_to_it_and_stay_its_accessible_name():
    html = convert("# T\n\n## Tricks and `code`\n\nText.\n",
                   DocumentContext("t.md", anchor_label="Lien vers cette section")).html
    assert html.startswith('<h2 id="tricks-and-code"><a class="heading-anchor" href="#tricks-and-code" '
                           'title="Lien vers cette section">Tricks and <code><span>code</span></code></a></h2>')


def test_a_heading_holding_a_link_gets_a_section_mark_of_its_own():
    html = convert("# T\n\n## See [x](https://example.org/)\n\nText.\n",
                   DocumentContext("t.md", anchor_label="Lien vers cette section")).html
    assert html.startswith('<h2 id="see-x">See <a href="https://example.org/">x</a> <a aria-label="Lien vers cette '
                           'section" class="heading-anchor is-mark" href="#see-x">§</a></h2>')


def test_the_built_glossary_and_pages_link_up(project):
    glossary = project / "site_src" / "rules" / "03-glossary.md"
    glossary.write_text("# Glossary\n\n- **Non-dealer**: the other player.\n- **Card**: one of 32.\n",
                        encoding="utf-8")
    outputs, _ = render(load_config(project))
    page = outputs["en/play.html"].decode()
    assert '<a class="term-link" href="glossary.html#term-non-dealer">non-dealer</a>' in page
    built = outputs["en/glossary.html"].decode()
    assert re.findall(r'<li class="term" id="([^"]+)">', built) == ["term-card", "term-non-dealer"]
    assert 'class="term-link"' not in built, "the glossary does not link to itself"


HEADED = """# Glossary

Intro.

## D

### Dealer

The player who deals.

## T

### Trick

One card from each player.

### Trump suit

The suit chosen.
"""

HEADED_FR = {"Dealer": "Donneur", "Trick": "Pli", "Trump suit": "Couleur d’atout",
             "The player who deals.": "Celui qui distribue.", "One card from each player.": "Une carte de chacun.",
             "The suit chosen.": "La couleur choisie."}


def test_a_glossary_of_headed_entries_is_sorted_under_letters_of_the_pages_language():
    french = convert(HEADED, DocumentContext("08-glossary.md", lang="fr", translate=HEADED_FR.get, glossary=True))
    assert [term for _, term in french.terms] == ["Couleur d’atout", "Donneur", "Pli"]
    letters = re.findall(r'<h2 class="letter" id="([^"]+)">([^<]+)</h2>', french.html)
    assert letters == [("letter-c", "C"), ("letter-d", "D"), ("letter-p", "P")]
    html = french.html
    assert html.index("Couleur d’atout") < html.index("La couleur choisie.") < html.index("Donneur")
    assert html.index("Intro.") < html.index('id="letter-c"'), "what comes before the first letter stays first"
    assert '<h3 class="term" id="trump-suit"' in html, "entries keep the id of their English heading"


HR_TERMS = [("term-trump", "Adut"), ("term-trump-suit", "Adutska boja"), ("term-suit", "Boja"),
            ("term-plain-suit", "Obična boja"), ("term-last-trick", "Zadnji štih"), ("term-trick", "Štih"),
            ("term-non-dealer", "Igrač koji ne dijeli"), ("term-sequence", "Niz"), ("term-side", "Par"),
            ("term-pit", "Pit"), ("term-meld", "Zvanje"), ("term-win-a-trick", "Odnijeti štih"),
            ("term-bella", "Bela"), ("term-lead", "Izaći"), ("term-suit-led", "Izašla boja"),
            ("term-follow-suit", "Odgovoriti na boju"), ("term-take", "Uzeti"), ("term-name-a-suit", "Zvati boju"),
            ("term-declare", "Zvati niz"), ("term-claim", "Prijaviti")]
AR_TERMS = [("term-trick", "الأكلة"), ("term-dealer", "الموزّع"), ("term-partner", "الشريك"),
            ("term-trump", "ورقة الحكم"), ("term-plain-suit", "النوع العادي"), ("term-suit", "النوع"),
            ("term-bidding-round", "اللفّة"), ("term-hand", "اليد"), ("term-target", "الهدف"),
            ("term-take", "شراء"), ("term-sequence", "المشروع"), ("term-roem", "مشاريع الأكلة"),
            ("term-rank", "الرتبة"), ("term-score-sheet", "ورقة النتائج"), ("term-variant", "الصيغة البديلة")]


def _links(source: str, lang: str, terms) -> list[tuple[str, str]]:
    html = convert(source, DocumentContext("p.md", lang=lang, glossary_href="glossary.html", terms=terms)).html
    return re.findall(r'<a class="term-link" href="glossary.html#([^"]+)">([^<]+)</a>', html)


def _found(text: str, lang: str, terms) -> str | None:
    pattern, _ids = term_pattern(terms, lang)
    match = pattern.search(text)
    return match.group(0) if match else None


def test_croatian_terms_are_found_in_their_case_forms():
    links = _links("# P\n\nNakon 9. štiha svaki igrač zbraja bodove od zadnjeg štiha. Karta neke druge obične "
                   "boje nikad ne odnosi štih; sijeci adutom. Nema adutske boje. Karte 1–3 igraču koji ne "
                   "dijeli.\n", "hr", HR_TERMS)
    assert links == [("term-trick", "štiha"), ("term-last-trick", "zadnjeg štiha"),
                     ("term-plain-suit", "obične boje"), ("term-win-a-trick", "odnosi štih"), ("term-trump", "adutom"),
                     ("term-trump-suit", "adutske boje"), ("term-non-dealer", "igraču koji ne dijeli")]
    for text, form in [("igraju u dva para", "para"), ("svoje nizove", "nizove"), ("u nekoj drugoj boji", "boji"),
                       ("sa zadnjim štihom", "zadnjim štihom"), ("s adutima", "adutima")]:
        assert _found(text, "hr", HR_TERMS) == form


def test_croatian_verbs_and_terms_of_another_sense_are_found_only_as_the_glossary_means_them():
    assert _found("Djelitelj pita „Do čega?“", "hr", HR_TERMS) is None, "pita is 'asks', not a form of pit"
    assert _found("tko odnosi koji štih", "hr", HR_TERMS) == "štih", "a verb is found only before its object"
    assert _found("pri zvanju aduta", "hr", HR_TERMS) == "aduta", "zvanje aduta is the bidding, not a meld"
    assert _found("prije zvanja nizova", "hr", HR_TERMS) == "zvanja"
    assert _found("preuzima parove oznaka", "hr", HR_TERMS) is None, "pairs of tags, not sides"
    for games in ("Klaberjass, belote, jass, bela, baloot", "bela i belot u jugoistočnoj Europi"):
        assert _found(games, "hr", HR_TERMS) is None, "bela, the game"
    assert _found("20 za belu, ako ju je zvao", "hr", HR_TERMS) == "belu"


def test_croatian_verb_terms_are_found_in_their_finite_forms():
    links = _links("# P\n\nJedan igrač izlazi, odnosno igra prvu kartu. Karta obične boje nikad ne odnosi štih. "
                   "Odgovori na boju ako možeš. Igrači zovu nizove. Svaki igrač redom zove boju za adut ili "
                   "kaže „dalje“. Jedan igrač uzima boju okrenute karte. Roem koji nitko ne prijavi propada.\n",
                   "hr", HR_TERMS)
    assert links == [("term-lead", "izlazi"), ("term-plain-suit", "obične boje"), ("term-win-a-trick", "odnosi štih"),
                     ("term-follow-suit", "Odgovori na boju"), ("term-declare", "zovu nizove"),
                     ("term-name-a-suit", "zove boju"), ("term-trump", "adut"), ("term-take", "uzima"),
                     ("term-suit", "boju"), ("term-claim", "prijavi")]
    for text, form in [("Kad je protivnik izašao:", "izašao"), ("Kad izađe obična boja", "izađe"),
                       ("Izašla je obična boja", "Izašla"), ("Sjever je odnio štih: 34 boda", "odnio štih"),
                       ("kad su zvači odnijeli štihove", "odnijeli štihove"), ("Zvati nizove nije obvezno", "Zvati nizove"),
                       ("Igrač koji uzme adut", "uzme"), ("Sjever uzima.", "uzima"), ("Tko odnese štih", "odnese štih"),
                       ("Kad odgovaraš na boju", "odgovaraš na boju"), ("tko odnese zadnji štih", "zadnji štih")]:
        assert _found(text, "hr", HR_TERMS) == form


def test_croatian_verb_forms_of_another_sense_are_not_linked():
    for text in ("Izlaz je u kanonskom obliku", "na standardnom izlazu", "kad su izašli jas i nel",
                 "Kaže dix i uzima okrenutu kartu", "uzima u ruku", "Nizozemci to zovu boompje",
                 "Djelitelj odgovara „Dobro.“", "ponuda i odgovor na nju", "odnosno prvu kartu",
                 "klabsite check prijavljuje pogrešku"):
        assert _found(text, "hr", HR_TERMS) is None, text
    assert _found("izašle boje", "hr", HR_TERMS) == "izašle boje", "the suit led, not a form of izaći"


def test_arabic_terms_are_found_in_their_broken_plurals():
    links = _links("# P\n\nمن السبعة إلى الآس في أربعة أنواع. أما الأنواع الثلاثة الأخرى فهي الأنواع العادية. "
                   "عُدّ أوراق الحكم. يعلن اللاعبان مشاريعهما. كما في الرتب الأخرى. ويدوّن أوراق النتائج.\n",
                   "ar", AR_TERMS)
    assert links == [("term-suit", "أنواع"), ("term-plain-suit", "الأنواع العادية"), ("term-trump", "أوراق الحكم"),
                     ("term-sequence", "مشاريعهما"), ("term-rank", "الرتب"), ("term-score-sheet", "أوراق النتائج")]
    for text in ("والأنواع", "بأنواعها", "للأنواع", "أوراق حكم", "بأوراق الحكم", "وأوراق حكم", "بالأنواع العادية",
                 "أنواع عادية", "لمشاريعه", "بالمشاريع", "والرتب", "الصيغ البديلة", "بصيغ بديلة"):
        assert _found(text, "ar", AR_TERMS) == text


def test_arabic_broken_plurals_of_another_sense_are_not_linked():
    for text in ("رتّب الأوراق", "ورتبها", "أوراق اللاعبين", "أوراق حكمة"):
        assert _found(text, "ar", AR_TERMS) is None, text
    assert _found("ومشاريع أكلاته", "ar", AR_TERMS) == "أكلاته", "the roem of his tricks, not sequences"
    assert _found("لا مشاريع في الأكلة", "ar", AR_TERMS) == "الأكلة", "no roem in the trick"
    assert _found("تُحسب مشاريع الأكلة", "ar", AR_TERMS) == "مشاريع الأكلة"
    assert _links("# P\n\nومشاريع أكلاته، ثم مشاريع الأكلة.\n", "ar", AR_TERMS) == [
        ("term-trick", "أكلاته"), ("term-roem", "مشاريع الأكلة")]


def test_arabic_terms_are_found_with_their_prefixes_and_suffixes():
    links = _links("# P\n\nثم ثلاثًا للموزّع. تُحسب المشاريع والأكلات. اترك الأكلة لشريكك، أو فالعب ورقة حكم. "
                   "وإذا افتُتحت بنوع عادي، فاتبعه إلا إذا لم يكن في يدك سوى أوراق حكم.\n", "ar", AR_TERMS)
    assert links == [("term-dealer", "للموزّع"), ("term-sequence", "المشاريع"), ("term-trick", "والأكلات"),
                     ("term-partner", "لشريكك"), ("term-trump", "ورقة حكم"), ("term-plain-suit", "بنوع عادي"),
                     ("term-hand", "يدك")]
    for text in ("بالأكلة", "أكلتين", "الأكلةَ", "الشريكان", "شريكين", "نوعًا", "بالنوع", "اللفّة"):
        assert _found(text, "ar", AR_TERMS) == text


def test_arabic_terms_of_another_sense_are_not_linked():
    assert _found("فإن لم يكن فيها حكم أكلتها أعلى ورقة", "ar", AR_TERMS) is None, "the verb: it took it"
    assert _found("هدف الجولة", "ar", AR_TERMS) is None and _found("بلوغ الهدف", "ar", AR_TERMS) == "الهدف"
    assert _found("أن تكتب سجلًّا بيدك", "ar", AR_TERMS) is None, "by your own hand"
    assert _found("في أي دور من الشراء", "ar", AR_TERMS) is None, "الشراء is the bidding; the term is شراء"


def test_a_longer_word_that_starts_like_a_term_is_not_linked_in_any_language():
    assert _found("Nizozemci i partneri", "hr", HR_TERMS) is None, "niz, par"
    assert _found("وكلفة الورقة", "ar", AR_TERMS) is None, "ك + لفة is not اللفّة, whose shadda is written"
    assert _found("بالأكل", "ar", AR_TERMS) is None and _found("ويدوّن", "ar", AR_TERMS) is None
    assert _found("a trumpet and a tricky dealership", "en", TERMS) is None
    french = [("term-trick", "Pli"), ("term-trump", "Atout")]
    assert _found("un pliage", "fr", french) is None and _found("deux plis", "fr", french) == "plis"
    assert _found("un bazar", "es", [("term-trick", "Baza")]) is None


def test_game_names_and_words_of_everyday_sense_are_not_linked_nor_taken_for_another_terms_plural():
    terms = [("jas", "Jas"), ("jass", "Jass"), ("take", "Take"), ("made", "Made"),
             ("rank", "Rank"), ("klaverjas", "Klaverjas"), ("dealer", "Dealer")]
    text = ("# P\n\nKlaberjass players call it the Jass. Take out the 6s: in most card games the 10 is lower, "
            "cards rank so, the deck was made so. Klaverjas players call it the jas; the dealer deals.\n")
    assert _links(text, "en", terms) == [("jas", "jas"), ("dealer", "dealer")]


def test_croatian_letters_with_marks_or_of_two_characters_sort_after_their_base_letter_in_sections_of_their_own():
    terms = ["Žir", "Zvanje", "Šah", "Stuk", "Njiva", "Nat", "Ljubav", "Lopta", "Đak", "Džep", "Dama", "Ćup",
             "Četiri iste", "Cijena"]
    ordered = sorted(terms, key=lambda term: sort_key(term, "hr"))
    assert ordered == ["Cijena", "Četiri iste", "Ćup", "Dama", "Džep", "Đak", "Lopta", "Ljubav", "Nat", "Njiva",
                       "Stuk", "Šah", "Zvanje", "Žir"]
    assert [initial(sort_key(term, "hr")[0], "hr") for term in ordered] == [
        "C", "Č", "Ć", "D", "DŽ", "Đ", "L", "LJ", "N", "NJ", "S", "Š", "Z", "Ž"]
    assert sorted(["Štih", "Stuk"], key=lambda term: sort_key(term, "fr")) == ["Štih", "Stuk"], "only in Croatian"

"""The glossary page's terms, and the rules pages' links to them: two stages of the Markdown pipeline.

**The glossary** (the rules page whose slug is ``glossary``, :data:`GLOSSARY_SLUG`): every list
item that starts with a term in bold (``- **Trump suit**: the suit chosen…``) is an entry. Each
entry gets an anchor from its ENGLISH term (``id="term-trump-suit"``, the same in every
language), and the entries of each list are sorted A–Z by the term as the page's language writes
it (:func:`sort_key`), so a translated glossary is in its own alphabetical order. The page's
terms, as shown, are :attr:`RenderedDocument.terms <klabsite.site.markdown_ext.RenderedDocument.terms>`.

**Every other rules page** links the first use of each term to its entry
(:class:`TermLinks`): the term list is the glossary page's in the same language (translated
terms come from the content catalog, as the glossary's items do). A term is found case-blind,
as a whole word (English, French and Spanish also find it with a plural ``s``; Croatian and
Arabic in their inflected forms, :func:`croatian_forms` and :func:`arabic_forms`); the longest term
wins where two start at the same place (*trump suit* before *trump*). Only the first use on a
page is linked, and never inside a heading, a link, code, a table header or a caption. A term
that holds a comma, a quotation mark or a digit (``Ace, king, …``, ``"Good."``) names a group or
a phrase, not a word of the prose, and is not looked for. The entries of :data:`UNLINKED` are
found but not linked: a word that is one of them is never taken for another term's plural
(*Jass* is not the plural of *Jas*).

>>> sort_key("Élder hand", "fr") < sort_key("Enchère", "fr"), sort_key("الكبّة", "ar") == sort_key("كبّة", "ar")
(True, True)
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import markdown
from markdown.treeprocessors import Treeprocessor

if TYPE_CHECKING:
    from klabsite.site.markdown_ext import DocumentState

__all__ = ["GLOSSARY_SLUG", "UNLINKED", "TERM_PREFIX", "sort_key", "term_id", "english_term",
           "GlossaryEntries", "TermLinks", "term_pattern", "matched_term", "croatian_forms", "arabic_forms",
           "initial"]

UNLINKED = frozenset({"klaberjass", "klaverjas", "jass", "take", "made", "rank"})
"""Glossary entries (by anchor) the rules pages do not link to: the games' names, which every
page is about (*Jass* is also a Swiss game), and words the pages use as often in their everyday
sense as in the game's (*take out the 6s*, *the deck was made*, *cards rank above*). Where the
game's sense matters, the prose links the entry itself."""

GLOSSARY_SLUG = "glossary"
"""The slug of the glossary page (``NN-glossary.md``)."""

TERM_PREFIX = "term-"
"""The anchors of the glossary's entries: ``term-`` and the English term's slug."""

_BOLD_START = re.compile(r"^\s*\*\*(.+?)\*\*")
_NOT_A_WORD = re.compile(r"[,\"“”«»„‘’\d]")
_PLURALS = {"en": "(?:s|es)?", "fr": "(?:s|x)?", "es": "(?:s|es)?"}
_SKIPPED = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "a", "code", "pre", "th", "caption", "kbd"})
_ARTICLE = re.compile(r"^(?:al-|ال)")
_HARAKAT_CHARS = "\u064b\u064c\u064d\u064e\u064f\u0650\u0651\u0652\u0670"
"""Arabic vowel marks (tanwin, fatha … sukun, shadda, dagger alif): written or not, the same word."""
_HARAKAT = f"[{_HARAKAT_CHARS}]"
_SHADDA = "\u0651"
_WORD = rf"[\w{_HARAKAT_CHARS}]"
"""A character of a word: a term ends where none follows (an Arabic vowel mark is part of its word)."""

_HR_ENDINGS = ("a", "e", "i", "o", "u", "om", "em", "im", "og", "eg", "oj", "ih", "ima", "ama",
               "oga", "ega", "ome", "omu", "emu", "ov", "ova", "ove", "ovi", "ovima", "ev", "eva", "eve",
               "evi", "evima")
"""The case endings of Croatian nouns and adjectives (and the possessive *-ov*): *adut, aduta,
adutu, adutom, aduti, adute, adutima; boja, boje, boju, bojom; zadnji, zadnjeg, zadnjem;
štihovi, štihova*."""
_HR_UNINFLECTED = frozenset({"s", "sa", "u", "od", "do", "za", "na", "iz", "po", "pri", "o",
                             "koji", "koja", "koje", "je", "ne"})
"""Prepositions and the words of a relative clause: from the first of these on, a Croatian term
is written as in the glossary (*Bodovi od karata*, *Igrač koji ne dijeli*)."""
_HR_VERB = re.compile(r"(?:ti|ći|ao|io|eo)$")
"""A Croatian infinitive (*uzeti*, *izaći*) or past participle (*pao*, *prošao*)."""
_HR_VERB_FORMS = {
    "izaći": ("izađe", "izađeš", "izađu", "izađi", "izlazi", "izlaziš", "izlaze", "izašao", "izašla",
              "izašlo"),
    "odnijeti": ("odnese", "odneseš", "odnesu", "odnosi", "odnose", "odnio", "odnijela", "odnijelo",
                 "odnijeli"),
    "odgovoriti": ("odgovori", "odgovoriš", "odgovore", "odgovara", "odgovaraš", "odgovaraju", "odgovorio"),
    "prijaviti": ("prijavi", "prijaviš", "prijave", "prijavio", "prijavila", "prijavili"),
    "uzeti": ("uzme", "uzmeš", "uzmu", "uzima", "uzimaš", "uzimaju", "uzeo", "uzela", "uzeli"),
    "zvati": ("zove", "zoveš", "zovu", "zovi", "zvao", "zvala", "zvali"),
}
"""The finite forms of the verbs the glossary's verb terms start with (*izaći*; *odnijeti štih*,
*odgovoriti na boju*, *prijaviti*, *uzeti*, *zvati boju*, *zvati niz*): present, imperative and
past (*izlazi, izađe, izašao; odnese, odnesu, odnio; zove boju*), and the imperfective present the
pages use (*ne odnosi štih*, *odgovara na boju*). Not *izašli*, *izašle* (*kad su izašli jas i
nel*: the cards have been played, not led; *izašle boje* is the suit led)."""
_HR_OBJECTS = {"štih": ("štih", "štihove"), "niz": ("niz", "nizove")}
"""The object of a verb term, one or many (*odnesu štihove*, *zvati nizove*)."""
_HR_VERB_SENSES = {"uzeti": r"(?=\ (?:boju|predloženu\ boju|adut)(?!\w)|\.)"}
"""Verbs whose finite forms have another sense too, found only where the words after them give the
glossary's: *uzima boju okrenute karte*, *uzima predloženu boju*, *uzme adut*, *Sjever uzima.* is
taking the trump; *uzima okrenutu kartu* (the dix), *uzima u ruku*, *uzima niz sjemena* are not."""
_HR_STEMS = {"poredak": "poretk"}
"""Words whose stem changes before an ending (*poredak, poretka, poretku*)."""
_HR_AS_WRITTEN = frozenset({"pit"})
"""Terms whose inflected forms are other Croatian words (*pita* "asks", *piti* "to drink")."""
_HR_SENSES = {"zvanje": r"(?=\ (?:nizova|u\ štihu)(?!\w))", "par": r"(?!\ oznaka(?!\w))",
              "bela": r"(?!,\ (?:baloot|jass|belot)(?!\w)|\ i\ belot(?!\w))"}
"""Terms that have another sense too, told apart by the words after them: *zvanje* is a meld only
in *zvanje nizova* and *zvanja u štihu* (*zvanje aduta*, and *zvanje* alone, is the bidding);
*parovi oznaka* are pairs of tags, not sides; *bela* in a list of games (*bela, baloot*; *bela i
belot*) is the game, not the bella."""

_AR_AND = "[وف]?"
"""And (و, ف), the first of an Arabic word's prefixes."""
_AR_DEFINITE = "(?:[بك]?ال|لل)"
"""The article ال, after by or like (ب, ك); after for (ل) it is written لل."""
_AR_INDEFINITE = "[بكل]?"
"""By, for, like (ب, ل, ك) before a word without the article."""
_AR_NUMBERS = ("ان", "ين", "ون", "ات", "ا", "ي", "و")
"""Dual (ان, ين), plural (ون, ين, ات), the accusative ًا and the construct forms (ـا, ـي, ـو)."""
_AR_PRONOUNS = ("ه", "ها", "هما", "هم", "هن", "ك", "كما", "كم", "كن", "ي", "نا")
"""The attached pronouns: his, her, their, your, my, our (شريكك, أكلاته)."""
_AR_SENSES = {"الأكلة": (r"(?![وف]?أكلت(?:ه|ها|هم|هما|ك|كم)(?!\w))", ""), "اليد": ("(?!بيد)", ""),
              "الهدف": ("", r"(?!\ ال)"), "البلوت": ("", r"(?!\ \(Baloot\))"),
              "المشروع": ("", r"(?!\ (?:في\ )?(?:ال)?أكل)")}
"""Terms that have another sense too, told apart by how the word starts or what follows it:
*أكلتها* is also "it took it" (the verb), *بيدك* is by your own hand, not the cards you hold;
*هدف الجولة* is the aim of the deal, not the target score; *البلوت (Baloot)* is the Gulf game,
not the bella; *مشاريع أكلاته*, *لا مشاريع في الأكلة* are the roem of a trick (klaverjas), not the
sequences of klaberjass."""
_AR_BROKEN_PLURALS = {"النوع": "الأنواع", "النوع العادي": "الأنواع العادية", "ورقة الحكم": "أوراق الحكم",
                      "ورقة النتائج": "أوراق النتائج", "المشروع": "المشاريع", "الرتبة": "الرتب",
                      "الصيغة البديلة": "الصيغ البديلة"}
"""The glossary's terms whose plural is a broken plural, which no ending makes: *الأنواع*, suits;
*أوراق الحكم*, trumps; *المشاريع*, sequences; *الرتب*, ranks; with the adjective that agrees with
it (*الأنواع العادية*; *الصيغ البديلة*)."""


def english_term(msgid: str) -> str | None:
    """The bold term an entry's msgid starts with (``**Trump suit**: …`` → ``Trump suit``)."""
    match = _BOLD_START.match(msgid)
    return match.group(1).strip("*_ ") if match else None


def term_id(term: str) -> str:
    """The anchor of an entry, from its English term.

    >>> term_id("Trump suit"), term_id('"Good."')
    ('term-trump-suit', 'term-good')
    """
    from klabsite.site.markdown_ext import slugify

    return TERM_PREFIX + slugify(term)


def sort_key(term: str, lang: str) -> tuple[str, str]:
    """How a term sorts A–Z in ``lang``: letters and digits only (no accents, spaces, apostrophes or
    hyphens), case-blind, and in Arabic without the article ال; ties broken by the exact text, so
    the order is stable (``Règles d’Amsterdam`` before ``Règles de Rotterdam``).

    This is a simple approximation of each language's collation, enough for a glossary of a
    hundred terms. The letters of the Croatian alphabet that are not the Latin ones (č ć dž đ lj
    nj š ž) are letters of their own, each after the one it is written with.

    >>> sorted(["Štih", "Stuk", "Četiri iste", "Cijena", "Dama"], key=lambda term: sort_key(term, "hr"))
    ['Cijena', 'Četiri iste', 'Dama', 'Stuk', 'Štih']
    """
    text = term.strip().strip("\"“”«»„‘’'¡¿*_ ")
    if lang == "ar":
        text = _ARTICLE.sub("", text)
    folded = text.casefold()
    if lang == "hr":
        for letter, key in _HR_LETTERS.items():
            folded = folded.replace(letter, key)
    decomposed = unicodedata.normalize("NFKD", folded)
    base = "".join(char for char in decomposed if char.isalnum() or char in _AFTER)  # no accents, spaces or ’
    return base, text


_HR_LETTERS = {"dž": "d{", "đ": "d|", "lj": "l{", "nj": "n{", "č": "c{", "ć": "c|", "š": "s{", "ž": "z{"}
"""The Croatian letters written with a mark or two characters, as sort keys: the letter they are
written with, then a character after every Latin letter (``{``, ``|``)."""
_AFTER = "{|"
_HR_INITIALS = {key: letter.upper() for letter, key in _HR_LETTERS.items()}


def initial(key: str, lang: str) -> str:
    """The letter a glossary section of terms starting with this :func:`sort_key` key is headed
    with (``Č`` for a Croatian ``č…``)."""
    if lang == "hr" and key[:2] in _HR_INITIALS:
        return _HR_INITIALS[key[:2]]
    return (key[:1] or "#").upper()


def _text(element: etree.Element) -> str:
    return " ".join("".join(element.itertext()).split())


class GlossaryEntries(Treeprocessor):
    """On the glossary page: an anchor per entry, the entries of each list sorted A–Z, the terms
    collected in ``state.terms``. Runs after inline parsing, before the link stage collects ids.

    The English term of each entry is the ``data-klab-msgid`` attribute the translation stage left
    on the item (removed here).
    """

    def __init__(self, md: markdown.Markdown, lang: str, state: DocumentState, enabled: bool) -> None:
        super().__init__(md)
        self.lang = lang
        self.state = state
        self.enabled = enabled

    def run(self, root: etree.Element) -> None:
        if not self.enabled:
            for element in root.iter():
                element.attrib.pop("data-klab-msgid", None)
            return
        used: set[str] = set()
        if any(child.tag == "h3" for child in root):
            self._heading_entries(root, used)
        for parent in list(root.iter()):
            if parent.tag not in ("ul", "ol") or not len(parent):
                continue
            found: list[tuple[str, str, etree.Element]] = []
            for item in parent:
                loose = len(item) and item[0].tag == "p" and not (item.text or "").strip()
                block = item[0] if loose else item
                msgid = block.attrib.pop("data-klab-msgid", None)
                english = english_term(msgid) if item.tag == "li" and msgid else None
                first = block[0] if len(block) else None
                if english is None or first is None or first.tag != "strong" or (block.text or "").strip():
                    found = []
                    break
                found.append((english, _text(first), item))
            entries = []
            for english, term, item in found:
                ident = term_id(english)
                while ident in used:
                    ident += "-2"
                used.add(ident)
                item.set("id", ident)
                item.set("class", "term")
                entries.append((sort_key(term, self.lang), ident, term, item))
            if not entries:
                continue
            entries.sort(key=lambda entry: entry[0])
            for item in list(parent):
                parent.remove(item)
            for _key, ident, term, item in entries:
                parent.append(item)
                self.state.terms.append((ident, term))
        for element in root.iter():
            element.attrib.pop("data-klab-msgid", None)

    def _heading_entries(self, root: etree.Element, used: set[str]) -> None:
        """The glossary written as ``## Letter`` sections of ``### Term`` entries: every entry (its
        heading and the blocks up to the next heading) sorted A–Z by its term in the page's
        language, under letter headings drawn again from the sorted terms."""
        children = list(root)
        start = next(index for index, child in enumerate(children) if child.tag in ("h2", "h3"))
        entries: list[tuple[tuple[str, str], list[etree.Element]]] = []
        for child in children[start:]:
            root.remove(child)
            if child.tag == "h3":
                english = child.attrib.pop("data-klab-msgid", None) or _text(child)
                ident = child.get("id") or term_id(english)  # the heading's own id: links keep working
                used.add(ident)
                child.set("class", "term")
                term = _text(child)
                entries.append((sort_key(term, self.lang), [child]))
                self.state.terms.append((ident, term))
            elif child.tag != "h2" and entries:
                entries[-1][1].append(child)
        entries.sort(key=lambda entry: entry[0])
        self.state.terms.sort(key=lambda item: sort_key(item[1], self.lang))
        letter = None
        for key, blocks in entries:
            first = initial(key[0], self.lang)
            if first != letter:
                letter = first
                ident = f"letter-{first.lower()}" if first.isascii() and first.isalnum() else \
                    f"letter-{len(used)}"
                used.add(ident)
                heading = etree.SubElement(root, "h2", {"id": ident, "class": "letter"})
                heading.text = first
            for block in blocks:
                root.append(block)


def croatian_forms(term: str) -> str:
    """A pattern of a (case-folded) Croatian term in every case: each word's final vowel gives way
    to an ending of :data:`_HR_ENDINGS` (a word without one may also take none), so the adjectives
    before the noun inflect with it; from a preposition or a relative word on the term is written as
    in the glossary. A verb (the term starts with an infinitive or a past participle) and its object
    are written as in the glossary, but for the finite forms of the verbs of :data:`_HR_VERB_FORMS`
    (*odnese štih*, :func:`_croatian_verb`), and so are the few terms of :data:`_HR_AS_WRITTEN`; a
    term of :data:`_HR_SENSES` is found only in its glossary sense.

    >>> forms = re.compile(croatian_forms("adutska boja"))
    >>> [bool(forms.fullmatch(text)) for text in ("adutske boje", "adutskom bojom", "adutsk boj")]
    [True, True, False]
    """
    words = term.split(" ")
    if words[0] in _HR_VERB_FORMS:
        return _croatian_verb(words)
    if _HR_VERB.search(words[0]) or term in _HR_AS_WRITTEN:
        return re.escape(term)
    parts = []
    for index, word in enumerate(words):
        if word in _HR_UNINFLECTED:
            parts.append(re.escape(" ".join(words[index:])))
            break
        parts.append(_croatian_word(word))
    return r"\ ".join(parts) + _HR_SENSES.get(term, "")


def _croatian_verb(words: list[str]) -> str:
    """A verb term: its infinitive or a finite form of :data:`_HR_VERB_FORMS` (the finite forms
    only in the sense of :data:`_HR_VERB_SENSES`), then its object, one or many
    (:data:`_HR_OBJECTS`), and the rest as the glossary writes it (*odgovori na boju*).

    >>> forms = re.compile(croatian_forms("odnijeti štih"))
    >>> [bool(forms.fullmatch(text)) for text in ("odnese štih", "odnio štihove", "odnosno štih")]
    [True, True, False]
    """
    verb, rest = words[0], words[1:]
    finite = "|".join(re.escape(form) for form in _HR_VERB_FORMS[verb])
    forms = f"(?:{re.escape(verb)}|(?:{finite}){_HR_VERB_SENSES.get(verb, '')})"
    if not rest:
        return forms
    objects = "|".join(re.escape(form) for form in _HR_OBJECTS.get(rest[0], (rest[0],)))
    return r"\ ".join([forms, f"(?:{objects})", *(re.escape(word) for word in rest[1:])])


def _croatian_word(word: str) -> str:
    endings = "|".join(_HR_ENDINGS)
    if word[-1] in "aeiou":
        forms = [f"{re.escape(word[:-1])}(?:{endings})"]
    else:
        forms = [f"{re.escape(word)}(?:{endings})?"]
    if word in _HR_STEMS:
        forms.append(f"{re.escape(_HR_STEMS[word])}(?:{endings})")
    return "(?:" + "|".join(forms) + ")"


def arabic_forms(term: str) -> str:
    """A pattern of an Arabic term as it is written in a sentence: with or without its vowel marks,
    after the attached prefixes: and (:data:`_AR_AND`), then by, for, like with or without the
    article (:data:`_AR_DEFINITE`, :data:`_AR_INDEFINITE`). A term the glossary writes with the
    article is also found without it (*أكلة*, and with the adjectives that agree with it:
    *النوع العادي*, *بنوع عادي*); one written without it is not found with it (*الشراء* is the
    bidding, not *شراء*, take). The genitive of a term such as *ورقة الحكم* may lose its article
    (*ورقة حكم*, a trump). A single word also takes the endings of :data:`_AR_NUMBERS` (not a
    word of two letters, whose forms would look like verbs: *يدوّن*) and :data:`_AR_PRONOUNS`
    (ة becomes ت before them): *أكلات*, *أكلتين*, *شريكك*. A term of :data:`_AR_BROKEN_PLURALS`
    is also found in its broken plural (:func:`_arabic_plural`). A term of :data:`_AR_SENSES` is
    found only in its glossary sense, and a term in Latin letters only as written.

    >>> forms = re.compile(arabic_forms("الأكلة"))
    >>> [bool(forms.fullmatch(text)) for text in ("بالأكلة", "للأكلة", "والأكلات", "أكلتين", "الأكلةَ")]
    [True, True, True, True, True]
    >>> bool(forms.fullmatch("بالأكل")), bool(re.fullmatch(arabic_forms("النوع العادي"), "بنوع عادي"))
    (False, True)
    """
    words = term.split(" ")
    if not re.search("[\u0621-\u064a]", term):
        return re.escape(term)
    before, after = _AR_SENSES.get(term, ("", ""))
    forms = _arabic_phrase(words)
    if term in _AR_BROKEN_PLURALS:
        forms = f"(?:{forms}|{_arabic_plural(_AR_BROKEN_PLURALS[term])})"
    return before + forms + after


def _arabic_phrase(words: list[str]) -> str:
    first, rest = words[0], words[1:]
    if not _ARTICLE.match(first):
        if not rest:
            return _AR_AND + _AR_INDEFINITE + _arabic_word(first, suffixes=True)
        genitive = [_arabic_word(word) for word in rest]  # the genitive with or without its article
        if _ARTICLE.match(rest[0]):
            genitive[0] = "(?:ال)?" + _arabic_word(_ARTICLE.sub("", rest[0]))
        return _AR_AND + _AR_INDEFINITE + r"\ ".join([_arabic_word(first), *genitive])
    if not rest:
        word = _arabic_word(_ARTICLE.sub("", first), suffixes=True)
        return f"{_AR_AND}(?:{_AR_DEFINITE}|{_AR_INDEFINITE}){word}"
    agreeing = 1  # the noun and the adjectives right after it, which take the article when it does
    while agreeing < len(words) and _ARTICLE.match(words[agreeing]):
        agreeing += 1
    bare = [_ARTICLE.sub("", word) for word in words[:agreeing]] + words[agreeing:]
    definite = [bare[0], *words[1:]]
    return f"{_AR_AND}(?:{_AR_DEFINITE}{_spaced(definite)}|{_AR_INDEFINITE}{_spaced(bare)})"


def _arabic_plural(plural: str) -> str:
    """The broken plural of a term (:data:`_AR_BROKEN_PLURALS`) with the prefixes of the singular; a
    single word also with the accusative ـًا and the attached pronouns (*أنواعها*), and, if it has
    no more than three letters, only with the article (*الرتب*, ranks; *رتّب* is arrange).

    >>> forms = re.compile(arabic_forms("النوع"))
    >>> [bool(forms.fullmatch(text)) for text in ("والأنواع", "أنواعه", "بأنواع", "الأنواعات")]
    [True, True, True, False]
    >>> ranks = re.compile(arabic_forms("الرتبة"))
    >>> bool(ranks.fullmatch("بالرتب")), bool(ranks.fullmatch("ورتب"))
    (True, False)
    """
    words = plural.split(" ")
    if len(words) > 1:
        return _arabic_phrase(words)
    bare = _ARTICLE.sub("", plural)
    word = f"{_marked(bare)}(?:ا|{'|'.join(_AR_PRONOUNS)})?{_HARAKAT}*"
    if len(re.sub(_HARAKAT, "", bare)) <= 3:
        return f"{_AR_AND}{_AR_DEFINITE}{word}"
    return f"{_AR_AND}(?:{_AR_DEFINITE}|{_AR_INDEFINITE}){word}"


def _spaced(words: Sequence[str]) -> str:
    return r"\ ".join(_arabic_word(word) for word in words)


def _marked(text: str) -> str:
    """Arabic text as a pattern that allows any vowel marks after each letter; a shadda the text
    writes is part of the spelling (*اللفّة*, not *كلفة*)."""
    pattern = []
    for char in text:
        if char == _SHADDA:
            pattern.append(f"{_SHADDA}{_HARAKAT}*")
        elif not re.fullmatch(_HARAKAT, char):
            pattern.append(re.escape(char) + (f"{_HARAKAT}*" if char.isalpha() else ""))
    return "".join(pattern)


def _arabic_word(word: str, suffixes: bool = False) -> str:
    """One Arabic word; with the endings of a single-word term if ``suffixes`` (vowel marks are
    allowed before the endings and after them, not inside them)."""
    if not suffixes:
        return _marked(word)
    letters = re.sub(_HARAKAT, "", word)
    numbers = "|".join(_AR_NUMBERS) if len(letters.rstrip("ة")) > 2 else None
    pronouns = "|".join(_AR_PRONOUNS)
    counted = f"(?:{numbers})(?:{pronouns})?|" if numbers else ""
    if letters.endswith("ة"):
        word = word.rstrip(_HARAKAT_CHARS)
        endings = f"ة|ات(?:{pronouns})?|{_marked('ت')}(?:{counted}{pronouns})"
        return f"{_marked(word[:-1])}(?:{endings}){_HARAKAT}*"
    return f"{_marked(word)}(?:{counted}{pronouns})?{_HARAKAT}*"


_WORD_FORMS: dict[str, Callable[[str], str]] = {"hr": croatian_forms, "ar": arabic_forms}
"""The patterns of a term's inflected forms, in the languages that have more than a plural."""


def term_pattern(terms: Sequence[tuple[str, str]],
                 lang: str) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """One pattern finding every term that names a word (longest first; :data:`UNLINKED` ones
    too, which the links skip), and each term's anchor by its case-folded text, in the pattern's
    order: the term a match found is the one whose group (``t0``, ``t1`` …) matched
    (:func:`matched_term`).

    >>> pattern, ids = term_pattern([("term-trump", "Trump"), ("term-trump-suit", "Trump suit")], "en")
    >>> match = pattern.search("Two trump suits")
    >>> match.group(0), ids[matched_term(match, ids)]
    ('trump suits', 'term-trump-suit')
    """
    found: dict[str, str] = {}
    for ident, term in terms:
        if term and not _NOT_A_WORD.search(term):
            found.setdefault(term.casefold(), ident)
    if not found:
        return None, found
    ids = {term: found[term] for term in sorted(found, key=lambda text: (-len(text), text))}
    forms = _WORD_FORMS.get(lang, re.escape)
    alternatives = "|".join(f"(?P<t{index}>{forms(term)})" for index, term in enumerate(ids))
    plural = _PLURALS.get(lang, "")
    return re.compile(rf"(?<!{_WORD})(?:{alternatives}){plural}(?!{_WORD})", re.IGNORECASE), ids


def matched_term(match: re.Match[str], ids: dict[str, str]) -> str:
    """The (case-folded) term a match of :func:`term_pattern` found."""
    return list(ids)[int((match.lastgroup or "t0")[1:])]


class TermLinks(Treeprocessor):
    """On every other rules page: the first use of each glossary term links to its entry."""

    def __init__(self, md: markdown.Markdown, href: str, terms: Sequence[tuple[str, str]], lang: str) -> None:
        super().__init__(md)
        self.href = href
        self.pattern, self.ids = term_pattern(terms, lang)
        self.linked: set[str] = set()

    def run(self, root: etree.Element) -> None:
        if self.pattern is not None:
            self._walk(root)

    def _walk(self, element: etree.Element) -> None:
        if element.tag in _SKIPPED or "card" in (element.get("class") or "").split():
            return
        element.text = self._link_in(element, element.text, 0)
        index = 0
        while index < len(element):
            child = element[index]
            self._walk(child)
            child.tail = self._link_in(element, child.tail, index + 1)
            index += 1

    def _link_in(self, parent: etree.Element, text: str | None, position: int) -> str | None:
        """Link the first unlinked term in ``text`` (the text before ``parent[position]``); the
        rest of the text becomes the new link's tail, where the next term is looked for."""
        if not text or self.pattern is None:
            return text
        for match in self.pattern.finditer(text):
            ident = self.ids[matched_term(match, self.ids)]
            in_placeholder = "\x02" in text[:match.start()].rsplit("\x03", 1)[-1]  # stashed markup
            if ident in self.linked or ident in UNLINKED or in_placeholder:
                continue
            self.linked.add(ident)
            link = etree.Element("a", {"class": "term-link", "href": f"{self.href}#{ident}"})
            link.text = match.group(0)
            link.tail = text[match.end():]
            parent.insert(position, link)
            return text[:match.start()]
        return text

"""klabsite: a rules engine for Klaberjass and Klaverjas, deal records, and a static rules and replay site.

What a script needs is here at the top (the README shows it at work)::

    >>> from klabsite import DECK, KlaverjasDeal, KlaverjasRules, Seat
    >>> deal = KlaverjasDeal(KlaverjasRules(trick_rules="rotterdam"), Seat.W, DECK)
    >>> deal.to_act, [str(action) for action in deal.legal_actions()[:2]]
    (<Seat.N: 'N'>, ['N pass', 'N name C'])

The layers below it, each importing only the ones under it: :mod:`klabsite.engine` (the pure
rules), :mod:`klabsite.records` (the ``.klab`` format, replays, score sheets),
:mod:`klabsite.solver` (double-dummy analysis), :mod:`klabsite.bots` (the players),
:mod:`klabsite.site` (the static site) and :mod:`klabsite.commands` (the command line).
Beside them, :mod:`klabsite.files` writes files safely for the commands and the translation tools.
"""

from klabsite.engine.actions import Action, IllegalAction
from klabsite.engine.cards import DECK, Card, Rank, Suit
from klabsite.engine.klaberjass import KlaberjassDeal, KlaberjassRules
from klabsite.engine.klaverjas import KlaverjasDeal, KlaverjasRules
from klabsite.engine.seats import Seat, Side
from klabsite.records.klab import Record, RecordError, read_record
from klabsite.records.replay import replay

__version__ = "0.1.0"

__all__ = [
    "Action", "Card", "DECK", "IllegalAction", "KlaberjassDeal", "KlaberjassRules", "KlaverjasDeal",
    "KlaverjasRules", "Rank", "Record", "RecordError", "Seat", "Side", "Suit", "read_record", "replay",
    "__version__",
]

"""Klaberjass double-dummy values: the deal's scoring on top of the card-point search.

A :class:`KlaberjassPosition` is a card-play position with both hands visible, plus what the score
still depends on: points and tricks won so far, the sequences (declared, or still to be declared,
as a matrix of comparison outcomes), bella scored, and who may still claim bella. Its **value**
for a player is the deal's score for him minus his opponent's as the rules award it (the maker
rule included; hanging points count 0: a tied maker's total that would hang scores nothing here).

How the score is searched. With the sequences and bella fixed, a deal's value for the maker is a
non-decreasing function of the card points the maker still wins (made: his total minus the
other's; tie: minus the other's total; failed: minus both totals, which does not depend on how
the points are split). Minimax commutes with a non-decreasing function, so the card play is
searched on card points alone (:mod:`~klabsite.solver.klaberjass_search`) and the scoring is a
table of values indexed by the maker's points. Only the levels of the table matter (all failing
points give one value): null-window tests at the level starts, the level where the maker makes
it first, then galloping up and bisecting (:func:`~klabsite.solver.search.largest`).

The choices left in the deal fold into that table: the dealer's (and the non-dealer's) declaration
still to come and the bella claim change only the totals, never the card play, and each choice's
value is again non-decreasing in the maker's points; so the value of the position is the table
``opt_declaration opt_bella value(points)`` (``opt`` is max for the maker's choices, min for his
opponent's), still non-decreasing. A bella card's value is therefore the better of claiming and
not claiming.

One option breaks the fold: ``no-trick-melds=void``. While the player whose sequences would score
has won no trick, his sequences hang on whether he wins one, and the value is not a function of
the card points alone. Then "is the value at least v?" is "he wins a trick and the maker's points
reach t, or he wins none and that outcome's value (fixed: every point to his opponent, no
sequences) reaches v": still one card-point search, with a capot term whose sign says whether
the second outcome passes (:meth:`KlaberjassSolver._spec`). A bella claim still to come folds in
when one choice is at least as good whatever happens next. What does not fold is searched with
its choices as real branches (:meth:`KlaberjassSolver._test`, with a table of its own): the
first trick's declarations under ``void``, when it is not yet known whose sequences hang, and a
bella claim where claiming is better if the player wins a trick and declining if he does not.

>>> from klabsite.engine.cards import mask_of, parse_cards
>>> hands = (mask_of(parse_cards("JH 7C")), mask_of(parse_cards("9H AC")))
>>> position = KlaberjassPosition(hands, trump=2, maker=0, leader=0)
>>> solver = KlaberjassSolver()
>>> solver.value(position)              # N makes 44 to 11
33
>>> {str(card): value for card, value in solver.card_values(position).items()}
{'7C': 33, 'JH': 13}
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace

from klabsite.engine.cards import DECK, Card, Rank
from klabsite.engine.fast import klaberjass as fast
from klabsite.engine.tricks import LAST_TRICK_BONUS
from klabsite.solver.klaberjass_search import INFINITY
from klabsite.solver.native import KlaberjassCore, klaberjass_search
from klabsite.solver.search import largest
from klabsite.solver.tables import cards_in, points_in, representatives

__all__ = [
    "MeldOutcome",
    "NO_MELDS",
    "BELLA",
    "KlaberjassPosition",
    "KlaberjassSolver",
    "maker_value",
]

BELLA = 20
"""Points for bella."""

MeldOutcome = tuple[int | None, int]
"""A comparison of declarations: the player (0 = N, 1 = S) whose sequences score and their points."""
NO_MELDS: MeldOutcome = (None, 0)
"""Nobody scores sequences."""

_KING_QUEEN = tuple((1 << (8 * trump + Rank.KING.index)) | (1 << (8 * trump + Rank.QUEEN.index))
                    for trump in range(4))


def maker_value(maker_total: int, opponent_total: int) -> int:
    """The deal's score for the maker minus the opponent's, from both totals (the maker rule,
    "Klaberjass: scoring and the match").

    Made: both score their totals. Failed: the opponent scores both. Tie: the maker scores
    nothing and the opponent his own total (a total that would hang counts 0).

    >>> maker_value(90, 72), maker_value(72, 90), maker_value(81, 81)
    (18, -162, -81)
    """
    if maker_total > opponent_total:
        return maker_total - opponent_total
    if maker_total < opponent_total:
        return -(maker_total + opponent_total)
    return -opponent_total


@dataclass(frozen=True, slots=True)
class KlaberjassPosition:
    """A Klaberjass card-play position, all cards visible. Players are 0 (``N``) and 1 (``S``).

    ``hands`` are the cards still held (bit ``i`` is card ``i`` of ``DECK``), ``leader`` leads the
    trick in progress and ``led`` is the card he led (-1 before the lead). ``points`` are the card
    points won so far, the last trick's 10 included once won; ``tricks`` the tricks won.
    ``melds[row][column]`` is the comparison of declarations when the non-dealer (``elder``) makes
    his row's declaration and the dealer his column's: one row while the non-dealer has declared,
    one column while the dealer has (a single ``NO_MELDS`` when nobody declared anything).
    ``bella`` is the bella each player has scored; ``bella_holder`` the player who holds (or has
    played one of and holds the other of) the K and Q of trumps and has still to claim or decline
    bella; a position right after his second card with ``bella_holder`` still set means "claiming
    is still his choice". ``any_lead`` is ``must-beat=any-lead``, ``void`` is ``no-trick-melds=void``.
    """

    hands: tuple[int, int]
    trump: int
    maker: int
    leader: int
    led: int = -1
    points: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    melds: tuple[tuple[MeldOutcome, ...], ...] = ((NO_MELDS,),)
    elder: int = 0
    bella: tuple[int, int] = (0, 0)
    bella_holder: int | None = None
    any_lead: bool = False
    void: bool = False

    @property
    def to_act(self) -> int:
        """The player to play next."""
        return self.leader if self.led < 0 else 1 - self.leader

    @property
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return not (self.hands[0] | self.hands[1]) and self.led < 0

    def legal(self) -> int:
        """The cards the player to act may play, as a mask."""
        return fast.legal_mask(self.hands[self.to_act], self.led, self.trump, self.any_lead)

    def future_points(self) -> int:
        """The card points still to be won: cards held, the card led, and the last trick's 10."""
        cards = self.hands[0] | self.hands[1] | (1 << self.led if self.led >= 0 else 0)
        return points_in(cards, self.trump) + (LAST_TRICK_BONUS if cards else 0)

    def play(self, card: int) -> KlaberjassPosition:
        """The position after the player to act plays ``card`` (unchecked), completing the trick
        if it is the second card. Declarations and bella are left as they are."""
        position = fast.Position(list(self.hands), self.trump, self.leader, self.any_lead, self.led,
                                 list(self.points))
        position.play(card)
        hands, points, tricks = position.hands, position.points, self.tricks
        if position.led < 0:  # the trick is complete: its winner leads the next
            tricks = (tricks[0] + 1, tricks[1]) if position.leader == 0 else (tricks[0], tricks[1] + 1)
        return replace(self, hands=(hands[0], hands[1]), leader=position.leader, led=position.led,
                       points=(points[0], points[1]), tricks=tricks)

    def settle_bella(self, claim: bool) -> KlaberjassPosition:
        """The position once the bella holder has claimed (20) or declined bella."""
        holder = self.bella_holder
        assert holder is not None
        bella = list(self.bella)
        if claim:
            bella[holder] += BELLA
        return replace(self, bella=(bella[0], bella[1]), bella_holder=None)

    def choose_melds(self, row: int | None = None, column: int | None = None) -> KlaberjassPosition:
        """The position once the non-dealer chose declaration ``row`` or the dealer ``column``."""
        melds = self.melds
        if row is not None:
            melds = (melds[row],)
        if column is not None:
            melds = tuple((outcomes[column],) for outcomes in melds)
        return replace(self, melds=melds)

    def melds_hang(self) -> bool:
        """Whether, under ``no-trick-melds=void``, some player whose sequences may still score has
        won no trick: then the value is not a function of the card points alone."""
        if not self.void:
            return False
        tricks = self.tricks
        return any(winner is not None and points and not tricks[winner]
                   for outcomes in self.melds for winner, points in outcomes)

    def bella_due(self) -> bool:
        """Whether the bella holder has played both K and Q of trumps and has still to decide."""
        holder = self.bella_holder
        return holder is not None and not self.hands[holder] & _KING_QUEEN[self.trump]

    def totals(self) -> tuple[int, int]:
        """Each player's total at the end of the deal (one declaration each, bella settled)."""
        assert self.is_over and self.bella_holder is None
        assert len(self.melds) == 1 and len(self.melds[0]) == 1
        winner, meld_points = self.melds[0][0]
        totals = [self.points[0] + self.bella[0], self.points[1] + self.bella[1]]
        if winner is not None and not (self.void and not self.tricks[winner]):
            totals[winner] += meld_points
        return totals[0], totals[1]

    def is_opening_lead(self) -> bool:
        """Whether no card has been played yet (the non-dealer leads to the first trick)."""
        return self.led < 0 and self.tricks == (0, 0)

    def final_value(self) -> int:
        """The value for the maker of a finished deal."""
        totals = self.totals()
        return maker_value(totals[self.maker], totals[1 - self.maker])


def _capot_value(position: KlaberjassPosition, player: int) -> int:
    """The maker's value if ``player`` wins no trick from here (so no trick at all: his sequences
    do not count): every card point still to win goes to his opponent (bella settled)."""
    points = list(position.points)
    points[1 - player] += position.future_points()
    totals = [points[0] + position.bella[0], points[1] + position.bella[1]]
    return maker_value(totals[position.maker], totals[1 - position.maker])


def _values(maker_total: int, opponent_total: int, future: int) -> list[int]:
    """:func:`maker_value` of ``(maker_total + x, opponent_total - x)`` for x = 0 … ``future``."""
    gap = opponent_total - maker_total
    failed = -(maker_total + opponent_total)
    return [2 * x - gap if 2 * x > gap else (failed if 2 * x < gap else x - opponent_total)
            for x in range(future + 1)]


def _combine(opt: Callable[[int, int], int], tables: list[list[int]]) -> list[int]:
    """``opt`` (max or min) of the tables, point by point."""
    combined = tables[0]
    for table in tables[1:]:
        combined = list(map(opt, combined, table))
    return combined


class _Table:
    """The value for the maker as a non-decreasing function of his card points still to win
    (every choice folded in), with the points where it changes."""

    __slots__ = ("values", "starts")

    def __init__(self, position: KlaberjassPosition) -> None:
        future = position.future_points()
        maker, opponent = position.maker, 1 - position.maker
        holder = position.bella_holder
        claimed = (BELLA, 0) if holder == maker else (0, BELLA)
        bella_choices = ((0, 0),) if holder is None else ((0, 0), claimed)
        base_maker = position.points[maker] + position.bella[maker]
        base_opponent = position.points[opponent] + position.bella[opponent] + future
        elder_opt = max if position.elder == maker else min
        dealer_opt = min if position.elder == maker else max
        holder_opt = max if holder == maker else min
        rows = []
        for outcomes in position.melds:
            columns = []
            for winner, meld_points in outcomes:
                add_maker = meld_points if winner == maker else 0
                add_opponent = meld_points if winner == opponent else 0
                choices = [_values(base_maker + add_maker + bm, base_opponent + add_opponent + bo, future)
                           for bm, bo in bella_choices]
                columns.append(_combine(holder_opt, choices))
            rows.append(_combine(dealer_opt, columns))
        values = _combine(elder_opt, rows)
        self.values = values
        self.starts = [x for x in range(future + 1) if x == 0 or values[x] != values[x - 1]]

    def threshold(self, value: int) -> int:
        """The fewest points for which the table reaches ``value`` (one past the end: never)."""
        values = self.values
        for x in self.starts:
            if values[x] >= value:
                return x
        return len(values)


class KlaberjassSolver:
    """Exact values of Klaberjass positions, with a card-point search per trump and option kept
    (and its transposition table) between calls: positions of one deal share it.

    ``nodes`` counts the cards played by the searches of the last :meth:`value` or
    :meth:`card_values` call. ``native``: use the C search core (``True``), the Python one
    (``False``), or C when it is built (``None``).
    """

    def __init__(self, native: bool | None = None) -> None:
        self.native = native
        self._searches: dict[tuple[int, bool], KlaberjassCore] = {}
        self._tables: dict[tuple[object, ...], _Table] = {}
        self._exact: dict[tuple[object, ...], tuple[int, int]] = {}
        self._exact_nodes = 0
        self.nodes = 0

    def _search(self, position: KlaberjassPosition) -> KlaberjassCore:
        key = (position.trump, position.any_lead)
        search = self._searches.get(key)
        if search is None:
            search = self._searches[key] = klaberjass_search(*key, native=self.native)
            self._exact.clear()
        return search

    def _table(self, position: KlaberjassPosition) -> _Table:
        key = (position.maker, position.elder, position.points, position.future_points(), position.melds,
               position.bella, position.bella_holder)
        table = self._tables.get(key)
        if table is None:
            if len(self._tables) > 4096:
                self._tables.clear()
            table = self._tables[key] = _Table(position)
        return table

    # -- the card-point search through the scoring table ----------------------------------------

    def _points_test(self, position: KlaberjassPosition, points: int, capot: int = -1,
                     sign: int = 1) -> tuple[bool, int]:
        """Whether the maker can win at least ``points`` more card points (with the capot term of
        :mod:`~klabsite.solver.klaberjass_search` for ``capot``, ``sign``); with a bound on what
        he can win (a lower bound when he can, an upper bound when he cannot; no capot term)."""
        future = position.future_points()
        search = self._search(position)
        beta = 2 * points - future  # the maker's points minus his opponent's
        if position.leader == position.maker:
            found = search.search(position.hands, position.leader, position.led, beta - 1, beta, capot, sign)
            if found >= beta:
                return True, -(-(future + found) // 2)
            return False, (future + found) // 2
        beta = 1 - beta  # the opponent leads: his difference must stay below 1 - beta
        found = search.search(position.hands, position.leader, position.led, beta - 1, beta, capot, sign)
        if found < beta:
            return True, -(-(future - found) // 2)
        return False, (future - found) // 2

    def _folded_value(self, position: KlaberjassPosition, guess: int | None) -> int:
        """The maker's value of a position where the fold holds: a search over the table's levels
        (the first test at ``guess`` or else at the level where the maker makes it), galloping up."""
        table = self._table(position)
        values, starts = table.values, table.starts

        def test(level: int) -> tuple[bool, int]:
            found, bound = self._points_test(position, starts[level])
            return found, bisect_right(starts, bound) - 1

        first = bisect_left(starts, table.threshold(1 if guess is None else guess))
        top = largest(test, 0, len(starts) - 1, first if first < len(starts) else None, step=4)
        return values[starts[top]]

    # -- the exact search of positions where the fold fails ------------------------------------

    def _exact_key(self, position: KlaberjassPosition) -> tuple[object, ...]:
        return (position.hands, position.leader, position.points, position.tricks, position.melds,
                position.bella, position.bella_holder)

    def _spec(self, position: KlaberjassPosition, value: int) -> tuple[int, int, int] | None:
        """"Is the maker's value at least ``value``?" as one card-point search: ``(points, capot,
        sign)`` for :meth:`_points_test`, or ``None`` when a choice must be searched as a branch.

        Where the fold holds: the table's threshold, no capot term. Where the sequences of
        ``winner`` hang on his winning a trick (``no-trick-melds=void``; the declarations made):
        the threshold with his sequences counted, and the capot term for ``winner`` whose sign
        says whether "he wins no trick" (all points to his opponent, no sequences) passes. A bella
        claim still to come folds in when one choice is at least as good whatever happens next
        (fewer points needed and the capot outcome passing at least as often); else ``None``.
        """
        if not position.melds_hang():
            return self._table(position).threshold(value), -1, 1
        if len(position.melds) > 1 or len(position.melds[0]) > 1:
            return None
        winner = position.melds[0][0][0]
        assert winner is not None
        if position.bella_holder is None:
            choices = [position]
        else:
            choices = [position.settle_bella(claim) for claim in (True, False)]
        specs = [(self._table(choice).threshold(value), _capot_value(choice, winner) >= value)
                 for choice in choices]
        if position.bella_holder == position.maker:  # the holder wants fewer points, the capot passing
            best = min(point for point, _ in specs), max(passes for _, passes in specs)
        else:
            best = max(point for point, _ in specs), min(passes for _, passes in specs)
        if best not in specs:
            return None
        points, passes = best
        maker_sign = 1 if passes else -1
        return points, winner, maker_sign if winner == position.maker else -maker_sign

    def _spec_test(self, position: KlaberjassPosition, spec: tuple[int, int, int]) -> bool:
        points, capot, sign = spec
        if capot < 0:
            if points >= position.future_points() + 1:
                return False
            if points == 0:
                return True
        return self._points_test(position, points, capot, sign)[0]

    def _test(self, position: KlaberjassPosition, value: int) -> bool:
        """Whether the maker's value of ``position`` is at least ``value``: one card-point search
        where :meth:`_spec` allows, else exact, every choice (declarations, bella) a branch.

        A choice is branched on when it is due: bella once the holder has played both cards; the
        non-dealer's declaration at once (it comes before anything else still open); the dealer's
        once a card has been played (it comes after the non-dealer's first card). A player's
        choice and his card at the same turn commute, so a choice may be branched on right after
        its card.
        """
        if not position.is_over:
            spec = self._spec(position, value)
            if spec is not None:
                return self._spec_test(position, spec)
        maker = position.maker
        if position.bella_due():
            holder_is_maker = position.bella_holder == maker
            results = (self._test(position.settle_bella(claim), value) for claim in (True, False))
            return any(results) if holder_is_maker else all(results)
        elder_is_maker = position.elder == maker
        if len(position.melds) > 1:
            rows = range(len(position.melds))
            results = (self._test(position.choose_melds(row=row), value) for row in rows)
            return any(results) if elder_is_maker else all(results)
        if len(position.melds[0]) > 1 and not position.is_opening_lead():
            results = (self._test(position.choose_melds(column=column), value)
                       for column in range(len(position.melds[0])))
            return all(results) if elder_is_maker else any(results)
        if position.is_over:
            return position.final_value() >= value
        player = position.to_act
        key = self._exact_key(position) if position.led < 0 else None
        if key is not None:
            low, high = self._exact.get(key, (-INFINITY, INFINITY))
            if low >= value:
                return True
            if high < value:
                return False
        others = position.hands[1 - player] | (1 << position.led if position.led >= 0 else 0)
        cards = position.legal() & representatives(position.hands[player], others, position.trump, False)
        found = player != maker
        for card in cards_in(cards):
            self._exact_nodes += 1
            result = self._test(position.play(card), value)
            if result != found:
                found = result
                break
        if key is not None:
            low, high = self._exact.get(key, (-INFINITY, INFINITY))
            self._exact[key] = (max(low, value), high) if found else (low, min(high, value - 1))
        return found

    def _exact_value(self, position: KlaberjassPosition, guess: int | None) -> int:
        """The maker's value by bisection on :meth:`_test`."""
        # + 400: more than the sequences of one player (only one scores) can bring
        reach = position.future_points() + sum(position.points) + sum(position.bella) + 2 * BELLA + 400
        low, high = -reach, reach
        while low < high:
            middle = (low + high + 1) // 2 if guess is None else min(max(guess, low + 1), high)
            guess = None
            if self._test(position, middle):
                low = middle
            else:
                high = middle - 1
        return low

    # -- public --------------------------------------------------------------------------------

    def maker_value(self, position: KlaberjassPosition, guess: int | None = None) -> int:
        """The exact value of ``position`` for the maker (``guess``: a value to try first)."""
        if position.is_over and position.bella_holder is None:
            return position.final_value()
        if position.melds_hang() or position.is_over:
            return self._exact_value(position, guess)
        return self._folded_value(position, guess)

    @property
    def total_nodes(self) -> int:
        """The cards played by all searches of this solver so far (a deterministic measure of
        work, for budgets that must not depend on the machine's speed)."""
        return self._counted()

    def _counted(self) -> int:
        return sum(search.nodes for search in self._searches.values()) + self._exact_nodes

    def value(self, position: KlaberjassPosition) -> int:
        """The exact value of ``position`` for the player to act.

        >>> from klabsite.engine.cards import mask_of, parse_cards
        >>> hands = (mask_of(parse_cards("KH QH")), mask_of(parse_cards("AH 7C")))
        >>> position = KlaberjassPosition(hands, trump=2, maker=1, leader=0, bella_holder=0)
        >>> KlaberjassSolver().value(position)      # S, the maker, takes 15; N 13 + bella 20: failed
        48
        """
        start = self._counted()
        value = self.maker_value(position)
        self.nodes = self._counted() - start
        return value if position.to_act == position.maker else -value

    def card_values(self, position: KlaberjassPosition) -> dict[Card, int]:
        """The value, for the player to act, of each card he may play (a bella card: the better of
        claiming and declining), in card order."""
        start = self._counted()
        player = position.to_act
        sign = 1 if player == position.maker else -1
        values: dict[Card, int] = {}
        guess: int | None = None
        for card in cards_in(position.legal()):
            value = self.maker_value(position.play(card), guess)
            guess = value
            values[DECK[card]] = sign * value
        self.nodes = self._counted() - start
        return values


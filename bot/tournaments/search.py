"""The seating search under Swiss and round-robin rounds: entrants at tables of given sizes
with the fewest repeated meetings, each table as near to the entrants' order as that
allows.

Seating ``n`` entrants at tables of 3 or 4 so that nobody meets anyone twice is a hard
problem in general (it holds the social golfer problem), so the search counts its steps
(a tablemate tried) and stops at a budget; the same inputs always give the same seating.

1. Free of repeats, top-down: the best placed entrant still standing heads the next
   table and takes their tablemates nearest to them in the order — the leaders at table
   1, the next at table 2, as Board Game Arena seats its multiplayer Swiss rounds —
   except that an entrant running out of tablemates they have not met (``CRITICAL`` or
   fewer left) heads the next table first, so as not to be stranded at the bottom.
2. If that spends its share of the budget: the same, the neediest entrant always
   heading (first with the nearest tablemates, then with them shuffled within a window
   of ``WIDTHS`` tables' worth of places). A search that runs out of seatings, not of
   budget, proves that none is free of repeats.
3. Otherwise a branch and bound: the greedy top-down seating (each table taking the
   tablemates that add the least cost) is the first bound, and the cheapest seating
   found in the budget is kept — the fewest repeats when the search finishes.

Within the budget the search is exact: it finds a seating free of repeats whenever one
exists, and otherwise the cheapest. Tests check it against every seating of small
rounds; a 256-player Swiss of tables of four finds its seatings in steps 1 or 2.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable

from bot.tournaments.seating import Table

CRITICAL = 8
"""Unmet tablemates left at which an entrant heads the next table before the best placed
(step 1)."""

WIDTHS = (0, 1, 2, 4, 8, 16)
"""The windows of step 2's searches, in tables' worth of places (0: nearest first)."""

History = dict[int, Counter[int]]
"""For each entrant, how many times they have met (or partnered) each other."""

PairCost = Callable[[int], int]
"""What seating two entrants together costs, from the times they have met already."""


def repeats(times: int) -> int:
    """Swiss: any repeat costs one."""
    return 1 if times else 0


COVER = 1 << 32
"""Round robin: what a repeat costs before anything else, more than all the spreading
terms of a round together."""


def spread(times: int) -> int:
    """Round robin: each repeat costs ``COVER`` (a round seats as many pairs who have not
    met as it can), and a pair's ``m``-th meeting ``m - 1`` more than its one before (so
    that, among those seatings, repeats fall on the pairs that have met least)."""
    return COVER + (times - 1) * times // 2 if times else 0


def seat(
    order: list[int],
    sizes: tuple[int, ...],
    drawn_partners: bool,
    met: History,
    partnered: History,
    cost: PairCost,
    budget: int,
) -> tuple[Table, ...]:
    """``order`` (best placed first) seated at tables of ``sizes``: see the module. With
    ``drawn_partners`` each table of four is split into two sides of two, the cheapest
    split by ``partnered`` (a repeated partnership outweighing any number of repeated
    meetings). The tables come best placed first, each in order."""
    return _Search(order, sizes, drawn_partners, met, partnered, cost, budget).seat()


class _Spent(Exception):
    """The search used its budget."""


class _Search:
    """One seating (see the module).

    Entrants are numbered by their place in the order and sets of them are bit masks:
    ``layers`` holds, for each extra cost a repeat may add, that cost and each entrant's
    mask of those whose meeting costs it (so a pair's cost is the sum of the layers
    holding it); ``partner_layers`` the same for partnerships; ``shunned`` each entrant's
    mask of everyone they have met.
    """

    def __init__(
        self,
        order: list[int],
        sizes: tuple[int, ...],
        drawn_partners: bool,
        met: History,
        partnered: History,
        cost: PairCost,
        budget: int,
    ) -> None:
        self.order = order
        self.all_sizes = sizes
        self.sizes = Counter(sizes)
        self.partners = drawn_partners
        self.budget = self.budget_total = budget
        self.steps = 0
        self.jitter = 0.0
        self.rng = random.Random(len(order))
        self.layers = self._layers(met, cost)
        slots = sum(size * (size - 1) // 2 for size in sizes)
        dearest = sum(weight for weight, _ in self.layers)
        # A repeated partnership outweighs every repeated meeting a round can hold.
        self.partner_layers = [
            (weight * (slots * dearest + 1), masks)
            for weight, masks in self._layers(partnered, repeats)
        ]
        self.shunned = [0] * len(order)
        for _, masks in self.layers:
            for index, mask in enumerate(masks):
                self.shunned[index] |= mask
        self.free = True
        self.chosen: list[tuple[int, ...]] = []
        self.best: list[tuple[int, ...]] = []
        self.bound = 0
        self.floor = 0
        self.critical = CRITICAL

    def _layers(self, history: History, cost: PairCost) -> list[tuple[int, list[int]]]:
        index = {entrant: number for number, entrant in enumerate(self.order)}
        most = max((max(seen.values(), default=0) for seen in history.values()), default=0)
        layers = []
        for times in range(1, most + 1):
            weight = cost(times) - cost(times - 1)
            if weight == 0:
                continue
            masks = [0] * len(self.order)
            for entrant, number in index.items():
                for other, seen in history.get(entrant, Counter()).items():
                    if seen >= times and other in index:
                        masks[number] |= 1 << index[other]
            layers.append((weight, masks))
        return layers

    def seat(self) -> tuple[Table, ...]:
        """The tables: the first seating free of repeats, else the cheapest found (steps 1
        to 3 of the module)."""
        everyone = (1 << len(self.order)) - 1
        size = max(self.all_sizes, default=2)
        # A quarter of the budget for step 1, half shared by step 2's tries, a quarter
        # for step 3.
        tries = [(CRITICAL, 0.0, self.budget // 4)]
        share = self.budget // (2 * len(WIDTHS))
        tries += [(len(self.order), width * size, share) for width in WIDTHS]
        for critical, jitter, budget in tries:
            self.critical, self.jitter, self.budget = critical, jitter, budget
            self.steps, self.chosen = 0, []
            self.sizes = Counter(self.all_sizes)
            try:
                if self._tables(everyone, 0):
                    return self._named(self.chosen)
                self.floor = 1  # every seating was tried: none is free of repeats
                break
            except _Spent:
                pass
        self.free, self.steps, self.chosen, self.jitter = False, 0, [], 0.0
        self.budget = self.budget_total // 4
        self.sizes = Counter(self.all_sizes)
        self.best = self._greedy(everyone)
        # One above the greedy seating's cost: an earlier seating as cheap replaces it.
        self.bound = self._price(self.best) + 1
        if self.bound > self.floor + 1:
            with contextlib.suppress(_Spent):
                self._tables(everyone, 0)
        return self._named(self.best)

    def _named(self, tables: list[tuple[int, ...]]) -> tuple[Table, ...]:
        """The tables as entrants, each in order and the best placed table first."""
        named = []
        for members in sorted(tuple(sorted(members)) for members in tables):
            sides = self._split(members)[1] if self.partners else tuple((m,) for m in members)
            named.append(Table(tuple(tuple(self.order[m] for m in side) for side in sides)))
        return tuple(named)

    def _cost(self, member: int, table: int) -> int:
        """What seating ``member`` with the entrants of mask ``table`` adds."""
        return sum(weight * (masks[member] & table).bit_count() for weight, masks in self.layers)

    def _price(self, tables: list[tuple[int, ...]]) -> int:
        total = 0
        for members in tables:
            table = 0
            for member in members:
                total += self._cost(member, table)
                table |= 1 << member
            if self.partners:
                total += self._split(tuple(sorted(members)))[0]
        return total

    def _split(self, members: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """Drawn partners: the cheapest of a table of four's three splits into sides, in
        the order best and worst against the middle two, then 1–3 v 2–4, then 1–2 v 3–4;
        and what it costs."""
        a, b, c, d = members
        best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        for sides in (((a, d), (b, c)), ((a, c), (b, d)), ((a, b), (c, d))):
            cost = sum(
                weight * (masks[one] >> other & 1)
                for weight, masks in self.partner_layers
                for one, other in sides
            )
            if best is None or cost < best[0]:
                best = (cost, sides)
        assert best is not None
        return best

    def _head(self, unseated: int) -> int:
        """Who heads the next table: the best placed entrant still standing, unless one
        is running out of tablemates they have not met (``CRITICAL`` or fewer left), and
        then the one with the fewest (the best placed of them): seated early, they cannot
        be stranded at the bottom of the list. -1 when one has too few to fill a table."""
        head = (unseated & -unseated).bit_length() - 1
        if self.free:
            fewest, neediest, scan = len(self.order), head, unseated
            while scan:
                low = scan & -scan
                scan ^= low
                member = low.bit_length() - 1
                left = (unseated & ~self.shunned[member]).bit_count() - 1
                if left < fewest:
                    neediest, fewest = member, left
            if fewest < min(size for size, left in self.sizes.items() if left) - 1:
                return -1
            if fewest <= self.critical:
                head = neediest
        return head

    def _nearest(self, head: int, candidates: int) -> list[int]:
        """``candidates`` nearest to ``head`` in the order first (the better placed of two
        as near)."""
        listed = []
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            listed.append(low.bit_length() - 1)
        if self.jitter:
            near = {m: abs(m - head) + self.rng.random() * self.jitter for m in listed}
            listed.sort(key=near.__getitem__)
        else:
            listed.sort(key=lambda member: (abs(member - head), member))
        return listed

    def _tables(self, unseated: int, cost: int) -> bool:
        """Seats ``unseated`` at the sizes left; True to stop the search (a free seating,
        or one as cheap as any can be)."""
        if not unseated:
            if self.free:
                return True
            self.best, self.bound = list(self.chosen), cost
            return cost <= self.floor
        head = self._head(unseated)
        if head < 0:
            return False
        rest = unseated ^ (1 << head)
        nearest = self._nearest(head, rest & ~self.shunned[head] if self.free else rest)
        for size in sorted((size for size, left in self.sizes.items() if left), reverse=True):
            self.sizes[size] -= 1
            found = self._grow((head,), 1 << head, nearest, 0, rest, size - 1, cost)
            self.sizes[size] += 1
            if found:
                return True
        return False

    def _grow(
        self,
        members: tuple[int, ...],
        table: int,
        nearest: list[int],
        start: int,
        rest: int,
        need: int,
        cost: int,
    ) -> bool:
        """Adds ``need`` more tablemates to ``members`` from ``nearest[start:]`` (the head's
        candidates, nearest first), then seats the rest."""
        if need == 0:
            if self.partners and not self.free:
                cost += self._split(tuple(sorted(members)))[0]
                if cost >= self.bound:
                    return False
            self.chosen.append(members)
            if self._tables(rest & ~table, cost):
                return True
            self.chosen.pop()
            return False
        for position in range(start, len(nearest) - need + 1):
            member = nearest[position]
            self.steps += 1
            if self.steps > self.budget:
                raise _Spent
            if self.free:
                if self.shunned[member] & table:
                    continue
                more = cost
            else:
                more = cost + self._cost(member, table)
                if more >= self.bound:
                    continue
            if self._grow(
                (*members, member), table | 1 << member, nearest, position + 1, rest, need - 1, more
            ):
                return True
        return False

    def _greedy(self, unseated: int) -> list[tuple[int, ...]]:
        """Top-down, each table taking, nearest first, the tablemates that add the least
        cost."""
        tables = []
        for size in sorted(self.sizes.elements(), reverse=True):
            head = (unseated & -unseated).bit_length() - 1
            unseated ^= 1 << head
            members, table = [head], 1 << head
            nearest = self._nearest(head, unseated)
            while len(members) < size:
                best, best_cost = -1, 0
                for member in nearest:
                    if unseated >> member & 1:
                        cost = self._cost(member, table)
                        if best < 0 or cost < best_cost:
                            best, best_cost = member, cost
                members.append(best)
                table |= 1 << best
                unseated ^= 1 << best
            tables.append(tuple(members))
        return tables

# SPDX-License-Identifier: Apache-2.0
"""plots/median.py: the median of a stream of numbers in memory that does not grow with it.

Median is exact (the lower median of an even count) up to MEDIAN_EXACT values; past that a
remedian (Rousseeuw and Bassett 1990): each full buffer of
MEDIAN_EXACT values passes its median to the next level, and the result is the weighted lower
median of what the levels hold, so a value of the stream in every case. Two Medians of parts of
a stream merge (merge()) into one of the whole: exact while the whole has fewer than
MEDIAN_EXACT values.
"""
import array

# Values whose median is exact; past that, a remedian of this base.
MEDIAN_EXACT = 255


class Median:
    """The median of the floats given to add() (see the module's text); levels[j] holds the
    values of level j, each standing for MEDIAN_EXACT ** j of the stream."""

    __slots__ = ("levels",)

    def __init__(self):
        self.levels = [array.array("d")]

    def add(self, v):
        low = self.levels[0]
        low.append(v)
        if len(low) == MEDIAN_EXACT:
            self.carry()

    def carry(self):
        """Passes the median of each full level on to the next (after an append to levels[0])."""
        j = 0
        while len(self.levels[j]) == MEDIAN_EXACT:
            m = sorted(self.levels[j])[(MEDIAN_EXACT - 1) // 2]
            self.levels[j] = array.array("d")
            if j + 1 == len(self.levels):
                self.levels.append(array.array("d"))
            self.levels[j + 1].append(m)
            j += 1

    def merge(self, other):
        """Adds the values other holds, level by level; then each full buffer of a level, from
        the lowest, passes its median on."""
        for j, values in enumerate(other.levels):
            if j == len(self.levels):
                self.levels.append(array.array("d"))
            self.levels[j].extend(values)
        j = 0
        while j < len(self.levels):
            while len(self.levels[j]) >= MEDIAN_EXACT:
                full = sorted(self.levels[j][:MEDIAN_EXACT])
                del self.levels[j][:MEDIAN_EXACT]
                if j + 1 == len(self.levels):
                    self.levels.append(array.array("d"))
                self.levels[j + 1].append(full[(MEDIAN_EXACT - 1) // 2])
            j += 1

    def result(self):
        """The median, or None when no value was added."""
        pairs = sorted((v, MEDIAN_EXACT ** j) for j, lv in enumerate(self.levels) for v in lv)
        total, acc = sum(w for _, w in pairs), 0
        for v, w in pairs:
            acc += w
            if 2 * acc >= total:
                return v
        return None

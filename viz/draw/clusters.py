"""Single-linkage clusters: the groups that pairs of items standing close join (union-find).
The window's formations (viz.draw.formations) and a plate's heaps of arrows
(viz.draw.plate_people) are found with it."""
from __future__ import annotations

from collections.abc import Iterable


def clusters(n: int, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The groups the pairs (i, j) join the items 0 … n-1 in, a lone item a group of one: each
    group's members ascending, the groups in the order of their least member."""
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in pairs:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())

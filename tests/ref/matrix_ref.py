#!/usr/bin/env python3
"""Spec-literal reference of Matrix's structured-stack algorithm (method-beat.md section 5),
written independently of the C code, line by line from the pseudocode: popping with restore,
a completed list with front insertion, node objects with children lists, list removal in the
trim, Python's stable sort for the key. Used by difftest.py to check `tracetool beat --format
matrix` on random buffers."""

import struct

DISPATCH = 1048574


def w32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= (1 << 31) else x


def w64(x):
    x &= 0xFFFFFFFFFFFFFFFF
    return x - (1 << 64) if x >= (1 << 63) else x


def int_to_f32(x):
    """Java (float) of a long: round to nearest even on a 24-bit mantissa, exactly."""
    if x == 0:
        return 0.0
    neg = x < 0
    a = -x if neg else x
    bits = a.bit_length()
    if bits > 24:
        shift = bits - 24
        q, r = divmod(a, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and (q & 1)):
            q += 1
        a = q << shift
    f = float(a)
    return -f if neg else f


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f2l(f):
    if f != f:
        return 0
    if f >= 9.223372036854775807e18:
        return (1 << 63) - 1
    if f <= -9.223372036854775808e18:
        return -(1 << 63)
    return int(f)


class Item:
    def __init__(self, id_, dur, depth):
        self.id, self.dur, self.depth, self.count = id_, dur, depth, 1


class Node:
    def __init__(self, item):
        self.item, self.father, self.children = item, None, []


def is_entry(w):
    return (w >> 63) & 1 == 1


def mid(w):
    return (w >> 43) & 0xFFFFF


def mt(w):
    return w & 0x7FFFFFFFFFF


def add_item(completed, it):
    if completed:
        last = completed[0]
        if last.id == it.id and last.depth == it.depth and it.depth != 0:
            if it.dur == 5000:
                it.dur = last.dur
            last.count = w32(last.count + 1)
            last.dur = w32(last.dur + it.dur)
            return
    completed.insert(0, it)


def structured(words, strict, end_time, time_base):
    pending, completed = [], []
    depth = 0
    begun = not strict
    for w in words:
        if w == 0:
            continue
        if strict:
            if is_entry(w) and mid(w) == DISPATCH:
                begun = True
            if not begun:
                continue
        if is_entry(w):
            if mid(w) == DISPATCH:
                depth = 0
            depth += 1
            pending.append(w)
            continue
        x = mid(w)
        if not pending:
            continue
        popped = []
        e = pending.pop()
        depth -= 1
        popped.append(e)
        while mid(e) != x and pending:
            e = pending.pop()
            depth -= 1
            popped.append(e)
        if mid(e) != x and mid(e) == DISPATCH:
            for p in reversed(popped):
                pending.append(p)
            depth += len(popped)
            continue
        dur = mt(w) - mt(e)
        if dur < 0:
            return []
        add_item(completed, Item(x, w32(dur), depth))
    if strict:
        while pending:
            e = pending.pop()
            if not is_entry(e):
                continue
            in_time = w64(mt(e) + time_base)
            add_item(completed, Item(mid(e), w32(end_time - in_time), len(pending)))
    # tree
    root = Node(None)
    last = None
    for it in completed:
        node = Node(it)
        node.father = last
        if last is None and it.depth != 0:
            return []
        if last is None or it.depth == 0:
            root.children.insert(0, node)
        elif last.item.depth >= it.depth:
            while last is not None and last.item.depth > it.depth:
                last = last.father
            if last is not None and last.father is not None:
                node.father = last.father
                last.father.children.insert(0, node)
        else:
            last.children.insert(0, node)
        last = node
    out = []

    def walk(n):
        for c in n.children:
            out.append(c.item)
            walk(c)
    walk(root)
    return out


def trim(items, target):
    if target < 0:
        items.clear()
        return
    pas = 1
    cur = len(items)
    while cur > target:
        for i in range(len(items) - 1, -1, -1):
            if items[i].dur < pas * 5:
                del items[i]
                cur -= 1
                if cur <= target:
                    return
        cur = len(items)
        pas += 1
        if pas > 60:
            break
    if len(items) > target:
        del items[target:]


def tree_key(items, stack_cost):
    limit = f2l(f32(int_to_f32(stack_cost) * f32(0.3)))
    cands = [it for it in items if it.dur >= limit]
    cands.sort(key=lambda it: -w32(w32(it.depth + 1) * it.dur))
    if not cands and items:
        cands = [items[0]]
    elif len(cands) > 1 and cands[0].id == DISPATCH:
        cands.pop(0)
    return "%d|" % cands[0].id if cands else ""


def matrix_json(words, strict=True, end_time=None, time_base=0, cost=0, trim_to=30):
    if strict and end_time is None:
        nz = [w for w in words if w != 0]
        end_time = w64(time_base + mt(nz[-1])) if nz else 0
    items = structured(words, strict, end_time if end_time is not None else -1, time_base)
    if trim_to > 0:
        trim(items, trim_to)
    s = "".join("%d,%d,%d,%d\n" % (i.depth, i.id, i.count, i.dur) for i in items)
    mx = 0
    for i in items:
        if i.dur > mx:
            mx = i.dur
    stack_cost = max(cost, mx)
    key = tree_key(items, stack_cost)
    return '{"cost":%d,"stack":"%s","stackKey":"%s"}' % (stack_cost, s.replace("\n", "\\n"), key)

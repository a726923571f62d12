---------------------------- MODULE SequencesExt ----------------------------
(* The operators of the community module SequencesExt that bsolve provides, each written here from *)
(* its documented meaning; an operator of SequencesExt not listed here is reported as unknown where *)
(* it is used. Names bound inside start with `bsolve_`.                                             *)
EXTENDS Sequences, Naturals, FiniteSets

ToSet(s) == {s[bsolve_i] : bsolve_i \in DOMAIN s}

Contains(s, e) == \E bsolve_i \in 1..Len(s) : s[bsolve_i] = e

Cons(e, s) == <<e>> \o s

Front(s) == SubSeq(s, 1, Len(s) - 1)

Last(s) == s[Len(s)]

Reverse(s) == [bsolve_i \in 1..Len(s) |-> s[(Len(s) - bsolve_i) + 1]]

Remove(s, e) == SelectSeq(s, LAMBDA bsolve_t : bsolve_t # e)

ReplaceAll(s, old, new) ==
    [bsolve_i \in 1..Len(s) |-> IF s[bsolve_i] = old THEN new ELSE s[bsolve_i]]

InsertAt(s, i, e) == SubSeq(s, 1, i - 1) \o <<e>> \o SubSeq(s, i, Len(s))

ReplaceAt(s, i, e) == [s EXCEPT ![i] = e]

RemoveAt(s, i) == SubSeq(s, 1, i - 1) \o SubSeq(s, i + 1, Len(s))

IsPrefix(s, t) == Len(s) <= Len(t) /\ SubSeq(t, 1, Len(s)) = s

IsStrictPrefix(s, t) == IsPrefix(s, t) /\ s # t

IsSuffix(s, t) == Len(s) <= Len(t) /\ SubSeq(t, Len(t) - Len(s) + 1, Len(t)) = s

IsStrictSuffix(s, t) == IsSuffix(s, t) /\ s # t

Prefixes(s) == {SubSeq(s, 1, bsolve_l) : bsolve_l \in 0..Len(s)}

Suffixes(s) == {SubSeq(s, bsolve_l, Len(s)) : bsolve_l \in 1..Len(s) + 1}

TupleOf(S, n) == [1..n -> S]

SeqOf(S, n) == UNION {[1..bsolve_m -> S] : bsolve_m \in 0..n}

BoundedSeq(S, n) == SeqOf(S, n)

(* op(op(op(base, s[1]), s[2]), ...) *)
FoldLeft(op(_, _), base, s) ==
    LET bsolve_f[bsolve_i \in 0..Len(s)] ==
            IF bsolve_i = 0 THEN base ELSE op(bsolve_f[bsolve_i - 1], s[bsolve_i])
    IN bsolve_f[Len(s)]

(* op(s[1], op(s[2], ... op(s[Len(s)], base))) *)
FoldRight(op(_, _), s, base) ==
    LET bsolve_f[bsolve_i \in 0..Len(s)] ==
            IF bsolve_i = 0 THEN base ELSE op(s[Len(s) - bsolve_i + 1], bsolve_f[bsolve_i - 1])
    IN bsolve_f[Len(s)]

(* The elements of S in some order, each once (TLC's order is unspecified too). *)
SetToSeq(S) ==
    LET bsolve_f[bsolve_t \in SUBSET S] ==
            IF bsolve_t = {} THEN <<>>
            ELSE LET bsolve_x == CHOOSE bsolve_x \in bsolve_t : TRUE
                 IN <<bsolve_x>> \o bsolve_f[bsolve_t \ {bsolve_x}]
    IN bsolve_f[S]
=============================================================================

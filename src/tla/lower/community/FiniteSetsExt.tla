--------------------------- MODULE FiniteSetsExt ---------------------------
(* The operators of the community module FiniteSetsExt, as bsolve provides them: each written here *)
(* from its documented meaning (folds over a finite set, sums, extrema, subsets of a size). Names   *)
(* bound inside start with `bsolve_`: an argument's own free names are never captured by them.     *)
EXTENDS Naturals, FiniteSets

(* op(f(x), acc) over the elements x of S, one at a time (chosen by choose); the order is           *)
(* unspecified unless choose fixes it, so op should be associative and commutative.               *)
MapThenFoldSet(op(_, _), base, f(_), choose(_), S) ==
    LET bsolve_iter[bsolve_s \in SUBSET S] ==
            IF bsolve_s = {} THEN base
            ELSE LET bsolve_x == choose(bsolve_s)
                 IN op(f(bsolve_x), bsolve_iter[bsolve_s \ {bsolve_x}])
    IN bsolve_iter[S]

FoldSet(op(_, _), base, S) ==
    MapThenFoldSet(op, base, LAMBDA bsolve_x : bsolve_x,
                   LAMBDA bsolve_s : CHOOSE bsolve_x \in bsolve_s : TRUE, S)

ReduceSet(op(_, _), S, base) == FoldSet(op, base, S)

SumSet(S) == FoldSet(LAMBDA bsolve_a, bsolve_b : bsolve_a + bsolve_b, 0, S)

ProductSet(S) == FoldSet(LAMBDA bsolve_a, bsolve_b : bsolve_a * bsolve_b, 1, S)

MapThenSumSet(f(_), S) ==
    MapThenFoldSet(LAMBDA bsolve_a, bsolve_b : bsolve_a + bsolve_b, 0, f,
                   LAMBDA bsolve_s : CHOOSE bsolve_x \in bsolve_s : TRUE, S)

Max(S) == CHOOSE bsolve_x \in S : \A bsolve_y \in S : bsolve_x >= bsolve_y

Min(S) == CHOOSE bsolve_x \in S : \A bsolve_y \in S : bsolve_x <= bsolve_y

Quantify(S, P(_)) == Cardinality({bsolve_x \in S : P(bsolve_x)})

kSubset(k, S) == {bsolve_s \in SUBSET S : Cardinality(bsolve_s) = k}

SymDiff(A, B) == (A \ B) \cup (B \ A)

FlattenSet(S) == UNION S
=============================================================================

---------------------------- MODULE SelectSeq ----------------------------
(* Sequences' SelectSeq, loaded with Sequences: the subsequence of the elements that pass Test, in   *)
(* order; the k-th kept index is the one with exactly k kept indices up to it. Names bound inside   *)
(* start with `bsolve_`: an argument's own free names are never captured by them.                  *)
EXTENDS Naturals, FiniteSets

SelectSeq(s, Test(_)) ==
    LET bsolve_kept == {bsolve_i \in DOMAIN s : Test(s[bsolve_i])}
    IN [bsolve_k \in 1..Cardinality(bsolve_kept) |->
            s[CHOOSE bsolve_i \in bsolve_kept :
                Cardinality({bsolve_j \in bsolve_kept : bsolve_j <= bsolve_i}) = bsolve_k]]
=============================================================================

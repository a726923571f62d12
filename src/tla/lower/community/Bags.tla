-------------------------------- MODULE Bags --------------------------------
(* The standard module Bags as bsolve provides it, from its definitions in Specifying Systems (a bag *)
(* is a function from its elements to their positive numbers of copies); SubBag is not provided.   *)
(* Names bound inside start with `bsolve_`.                                                         *)
EXTENDS Naturals

IsABag(B) == \A bsolve_e \in DOMAIN B : B[bsolve_e] \in Nat /\ B[bsolve_e] > 0

BagToSet(B) == DOMAIN B

SetToBag(S) == [bsolve_e \in S |-> 1]

BagIn(e, B) == e \in DOMAIN B

EmptyBag == SetToBag({})

CopiesIn(e, B) == IF BagIn(e, B) THEN B[e] ELSE 0

B1 (+) B2 ==
    [bsolve_e \in (DOMAIN B1) \cup (DOMAIN B2) |-> CopiesIn(bsolve_e, B1) + CopiesIn(bsolve_e, B2)]

B1 (-) B2 ==
    [bsolve_e \in {bsolve_d \in DOMAIN B1 : CopiesIn(bsolve_d, B1) > CopiesIn(bsolve_d, B2)} |->
        B1[bsolve_e] - CopiesIn(bsolve_e, B2)]

B1 \sqsubseteq B2 ==
    /\ DOMAIN B1 \subseteq DOMAIN B2
    /\ \A bsolve_e \in DOMAIN B1 : B1[bsolve_e] <= B2[bsolve_e]

(* Each sum below is a recursive function of its own: one shared by all would have one type only. *)
BagCardinality(B) ==
    LET bsolve_g[bsolve_t \in SUBSET DOMAIN B] ==
            IF bsolve_t = {} THEN 0
            ELSE LET bsolve_x == CHOOSE bsolve_x \in bsolve_t : TRUE
                 IN B[bsolve_x] + bsolve_g[bsolve_t \ {bsolve_x}]
    IN bsolve_g[DOMAIN B]

BagUnion(S) ==
    LET bsolve_g[bsolve_e \in UNION {DOMAIN bsolve_b : bsolve_b \in S}, bsolve_t \in SUBSET S] ==
            IF bsolve_t = {} THEN 0
            ELSE LET bsolve_b == CHOOSE bsolve_b \in bsolve_t : TRUE
                 IN CopiesIn(bsolve_e, bsolve_b) + bsolve_g[bsolve_e, bsolve_t \ {bsolve_b}]
    IN [bsolve_e \in UNION {DOMAIN bsolve_b : bsolve_b \in S} |-> bsolve_g[bsolve_e, S]]

BagOfAll(F(_), B) ==
    LET bsolve_g[bsolve_t \in SUBSET DOMAIN B] ==
            IF bsolve_t = {} THEN 0
            ELSE LET bsolve_x == CHOOSE bsolve_x \in bsolve_t : TRUE
                 IN B[bsolve_x] + bsolve_g[bsolve_t \ {bsolve_x}]
    IN [bsolve_e \in {F(bsolve_d) : bsolve_d \in DOMAIN B} |->
            bsolve_g[{bsolve_d \in DOMAIN B : F(bsolve_d) = bsolve_e}]]
=============================================================================

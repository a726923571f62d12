---- MODULE Boats ----
(***************************************************************************)
(* Operators are not macros: their bound names never capture an argument, *)
(* and LET definitions see the parameters of the operator they are in.     *)
(*                                                                         *)
(* Two banks 0 and 1; `load` people wait on the boat's bank. A crossing    *)
(* takes 1 or 2 of them (S) to the other bank. With Capacity = 3 the       *)
(* states are (boat, people on bank 0): the boat on 0 with 3, 2 or 1       *)
(* people, or on 1 with 2, 1 or 0 people on bank 0 -- reached as 3->1 (2   *)
(* cross) or 3->2 (1 crosses) and back: 6 distinct states, by hand:        *)
(*   boat 0: onZero in {3, 2, 1}, boat 1: onZero in {2, 1, 0}              *)
(* (boat 0 with 0 on bank 0 is never reached: the boat returns with at     *)
(* least one person).                                                      *)
(*                                                                         *)
(* `Has(v)` binds `i`; `NoneAbove(i)` calls it under an `i` of its own:    *)
(* as a macro it would read \E i \in 1..Capacity : i = i, always true.     *)
(***************************************************************************)
EXTENDS Naturals
CONSTANT Capacity
VARIABLES boat, onZero

Other(b) == 1 - b
Has(v) == \E i \in 1..Capacity : i = v
NoneAbove(n) == \A i \in {n + Capacity + 1} : ~Has(i)

Cross(S, b) ==
    LET here  == IF b = 0 THEN onZero ELSE Capacity - onZero
        moved == IF b = 0 THEN onZero - S ELSE onZero + S
    IN  /\ S <= here
        /\ boat' = Other(b)
        /\ onZero' = [k \in {0} |-> moved][0]

Init == boat = 0 /\ onZero = Capacity
Next == \E S \in {1, 2} : Cross(S, boat)

TypeOK == boat \in {0, 1} /\ onZero \in 0..Capacity
NoCapture == NoneAbove(0) /\ NoneAbove(onZero)
NotAllAcross == onZero > 0
====

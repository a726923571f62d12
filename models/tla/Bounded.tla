------------------------------ MODULE Bounded ------------------------------
(* An unbounded counter, bounded by the model file's CONSTRAINT x <= 5 as TLC bounds it: the states  *)
(* x = 0..5 are kept (6 distinct states); x = 6 is generated, its invariant checked, and left out, so *)
(* x = 5 is no deadlock. BelowSix is false at x = 6 only: TLC reports it there.                       *)
EXTENDS Naturals

VARIABLE x

Init == x = 0
Next == x' = x + 1

Bound == x <= 5
BelowSix == x < 6
=============================================================================

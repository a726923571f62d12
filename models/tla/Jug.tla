---- MODULE Jug ----
(* One jug of capacity Cap, filled or emptied whole; instantiated twice by TwoJugs.tla. *)
EXTENDS Naturals
CONSTANT Cap
VARIABLE contents
TypeOK == contents \in 0..Cap
Init == contents = 0
Fill == contents' = Cap
Empty == contents' = 0
Next == Fill \/ Empty
Full == contents = Cap
====

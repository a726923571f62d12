---- MODULE TwoJugs ----
(* Two named instances of Jug with their constant and variable substituted: a in {0, 3}, b in {0, 5}, *)
(* 4 distinct states; NotBothFull is false first after two steps (one Fill of each).               *)
EXTENDS Naturals
VARIABLES a, b
Small == INSTANCE Jug WITH Cap <- 3, contents <- a
Big == INSTANCE Jug WITH Cap <- 5, contents <- b
Init == Small!Init /\ Big!Init
Next == (Small!Next /\ UNCHANGED b) \/ (Big!Next /\ UNCHANGED a)
Inv == Small!TypeOK /\ Big!TypeOK
NotBothFull == ~(Small!Full /\ Big!Full)
====

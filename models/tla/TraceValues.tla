---- MODULE TraceValues ----
(* A value of every kind in each state, for the TLC-style traces and the ITF export (tests/cli_tla.rs):
   an integer, a boolean, a string, a set of model values, a tuple, a sequence, a record and a function.
   Small fails once n = 2: the shortest trace has three states. *)
EXTENDS Naturals, Sequences
CONSTANT Procs
VARIABLES n, flag, name, seen, pair, log, msg, count

Init == /\ n = 0
        /\ flag = FALSE
        /\ name = "start"
        /\ seen = {}
        /\ pair = <<0, "none">>
        /\ log = <<>>
        /\ msg = [hops |-> 0, note |-> "start"]
        /\ count = [p \in Procs |-> 0]

Step(p) == /\ n < 3
           /\ n' = n + 1
           /\ flag' = ~flag
           /\ name' = "step"
           /\ seen' = seen \cup {p}
           /\ pair' = <<n + 1, "step">>
           /\ log' = Append(log, n)
           /\ msg' = [msg EXCEPT !.hops = @ + 1]
           /\ count' = [count EXCEPT ![p] = @ + 1]

Next == \E p \in Procs : Step(p)

Small == n < 2
====

---- MODULE TokenPass ----
(* A token passed between the processes of a set of model values, each process passing at most Max times.
   With Procs = {a, b} and Max = 2 the run is a line of 5 states, CHOOSE picking the first holder:
     holder a, counts (0, 0) -> b (1, 0) -> a (1, 1) -> b (2, 1) -> a (2, 2)
   and the last state is a deadlock (a has passed Max times). The invariants exercise records, functions,
   EXCEPT with @, CHOOSE, both kinds of set comprehension, SUBSET, UNION, LET, CASE, DOMAIN and strings;
   all hold. *)
EXTENDS Naturals, FiniteSets, Sequences, TLC
CONSTANTS Procs, Max
VARIABLES holder, count, last

vars == <<holder, count, last>>
First == CHOOSE p \in Procs : TRUE
Other(p) == CHOOSE q \in Procs : q # p

TypeOK == /\ holder \in Procs
          /\ count \in [Procs -> 0..Max]
          /\ last \in [from : Procs, to : Procs, note : STRING]

Init == /\ holder = First
        /\ count = [p \in Procs |-> 0]
        /\ last = [from |-> First, to |-> First, note |-> "start"]

Pass(p, q) == /\ holder = p
              /\ q # p
              /\ count[p] < Max
              /\ holder' = q
              /\ count' = [count EXCEPT ![p] = @ + 1]
              /\ last' = [from |-> p, to |-> q, note |-> "pass"]

Next == \E p, q \in Procs : Pass(p, q)

Spec == Init /\ [][Next]_vars /\ WF_vars(Next)

Balanced == count[holder] <= count[Other(holder)] + 1
Passes == LET total == count[holder] + count[Other(holder)]
          IN CASE total = 0 -> last.note = "start"
               [] OTHER -> last.note = "pass" /\ last.to = holder
Sets == /\ {s \in SUBSET Procs : Cardinality(s) = 1} = {{p} : p \in Procs}
        /\ UNION {{1}, {2, 3}} = 1..3
        /\ DOMAIN count = Procs
        /\ Len(<<"x", "y">>) = 2
====

---- MODULE MixedValues ----
\* Values of mixed kind, as TLC allows: x holds the model value Nil or an integer, s mixes integers and
\* strings. x runs Nil, 0, 1, 2 and back to Nil, which first adds "b" to s: reachable are the 4 values of x
\* with s = {1, "a"} and the same 4 with s = {1, "a", "b"}: 8 states. No deadlock, TypeOK holds.
EXTENDS Naturals
CONSTANT Nil
VARIABLES x, s
vars == <<x, s>>
TypeOK == /\ x \in {Nil} \cup 0..2
          /\ s \subseteq {1, "a", "b"}
          /\ Nil \notin s
          /\ 1 \in s
Init == x = Nil /\ s = {1, "a"}
Start == x = Nil /\ x' = 0 /\ UNCHANGED s
Count == x # Nil /\ x < 2 /\ x' = x + 1 /\ UNCHANGED s
Stop == x = 2 /\ x' = Nil /\ s' = s \cup {"b"}
Next == Start \/ Count \/ Stop
Spec == Init /\ [][Next]_vars
====

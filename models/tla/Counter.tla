---- MODULE Counter ----
\* Two counters below N, incremented one at a time; a reset sets both to 0.
\* Reachable: all pairs (x, y) in 0..N x 0..N: (N+1)^2 = 16 states for N = 3. No deadlock (Reset is always
\* enabled), TypeOK holds.
EXTENDS Naturals
CONSTANT N
VARIABLES x, y
vars == <<x, y>>
TypeOK == x \in 0..N /\ y \in 0..N
\* Violated (CounterSmall.cfg): first by x + y = 3, three steps from the initial state.
Small == x + y < 3
Init == x = 0 /\ y = 0
IncX == x < N /\ x' = x + 1 /\ UNCHANGED y
IncY == y < N /\ y' = y + 1 /\ UNCHANGED x
Reset == x' = 0 /\ y' = 0
Next == IncX \/ IncY \/ Reset
Spec == Init /\ [][Next]_vars
====

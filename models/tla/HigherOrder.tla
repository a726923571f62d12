---------------------------- MODULE HigherOrder ----------------------------
(* Operators taking operators: a LAMBDA reading a state variable, an operator passed by name, an     *)
(* operator parameter passed on to another such operator, and one applied twice. x counts 0..3: 4    *)
(* distinct states (TLC's count); each conjunct of Inv states the value computed by hand for every x. *)
EXTENDS Naturals, FiniteSets

VARIABLE x

ChooseOne(S, P(_)) == CHOOSE e \in S : P(e) /\ \A y \in S : P(y) => y = e
Count(S, P(_)) == Cardinality({e \in S : P(e)})
Wrap(S, Q(_)) == Count(S, Q)
Twice(F(_), v) == F(F(v))
IsEven(n) == n % 2 = 0

Init == x = 0
Next == x < 3 /\ x' = x + 1

Inv == /\ ChooseOne(0..5, LAMBDA e : e = x + 2) = x + 2
       /\ Count(0..x, IsEven) = x \div 2 + 1
       /\ Twice(LAMBDA v : v + x, 1) = 1 + 2 * x
       /\ Count(0..5, LAMBDA e : e > x) = 5 - x
       /\ Wrap(0..4, LAMBDA e : e < x) = x

\* False from x = 2 on: Count(0..x, IsEven) is 2 there.
OneEven == Count(0..x, IsEven) = 1
=============================================================================

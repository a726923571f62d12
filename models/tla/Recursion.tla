---------------------------- MODULE Recursion ----------------------------
(* Recursive definitions: a RECURSIVE operator, one reading a state variable, a recursive function at  *)
(* module level and one in a LET reading a variable and its operator's parameter. x counts 0..3 and   *)
(* log is <<1, ..., x>>: 4 distinct states (TLC's count), and Inv holds in each:                     *)
(* SumSeq(log) = x(x+1)/2, CountUp(4) = 4x, fact is the factorial, Weighted({1,2,3}) = (1+2+3)x.      *)
EXTENDS Naturals, Sequences, FiniteSets

VARIABLES x, log

RECURSIVE SumSeq(_)
SumSeq(s) == IF s = <<>> THEN 0 ELSE Head(s) + SumSeq(Tail(s))

RECURSIVE CountUp(_)
CountUp(n) == IF n = 0 THEN 0 ELSE x + CountUp(n - 1)

fact[n \in 0..6] == IF n = 0 THEN 1 ELSE n * fact[n - 1]

Weighted(S) ==
  LET w[T \in SUBSET S] == IF T = {} THEN 0
                           ELSE LET e == CHOOSE y \in T : TRUE IN e * x + w[T \ {e}]
  IN w[S]

Init == x = 0 /\ log = <<>>

Next == x < 3 /\ x' = x + 1 /\ log' = Append(log, x + 1)

Inv == /\ SumSeq(log) = (x * (x + 1)) \div 2
       /\ CountUp(4) = 4 * x
       /\ fact[x + 3] = fact[x + 2] * (x + 3)
       /\ Weighted({1, 2, 3}) = 6 * x

\* False once log = <<1, 2>>: two steps from the initial state.
SumBelowThree == SumSeq(log) < 3
=============================================================================

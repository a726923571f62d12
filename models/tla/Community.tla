----------------------------- MODULE Community -----------------------------
(* Sequences' SelectSeq and the community modules Functions and FiniteSetsExt, as bsolve ships them.  *)
(* s grows by one element of 1..3 per step up to length 4 (n its length): 1 + 3 + 9 + 27 + 81 = 121  *)
(* distinct states, no deadlock since the model file turns deadlock checking off. Every conjunct of  *)
(* Laws holds in every state (each states one operator against another way to compute it);          *)
(* SumBelowSix is false exactly where the range is {1, 2, 3}, first at length 3.                     *)
EXTENDS Naturals, Sequences, FiniteSets, Functions, FiniteSetsExt

VARIABLES s, n

Init == s = <<>> /\ n = 0
Next == n < 4 /\ \E x \in 1..3 : s' = Append(s, x) /\ n' = n + 1

IsEven(x) == x % 2 = 0
Evens == SelectSeq(s, IsEven)
Total == FoldFunction(LAMBDA a, b : a + b, 0, s)

Laws ==
    /\ Len(Evens) = Quantify(DOMAIN s, LAMBDA i : IsEven(s[i]))
    /\ \A i \in DOMAIN Evens : IsEven(Evens[i])
    /\ \A i \in 1..Len(Evens) - 1 : \E j, k \in DOMAIN s : j < k /\ s[j] = Evens[i] /\ s[k] = Evens[i + 1]
    /\ SelectSeq(s, LAMBDA x : TRUE) = s
    /\ Range(s) = {s[i] : i \in 1..n}
    /\ Total = MapThenSumSet(LAMBDA i : s[i], DOMAIN s)
    /\ Total >= SumSet(Range(s))
    /\ IsInjective(s) <=> Cardinality(Range(s)) = Len(s)
    /\ s # <<>> => Max(Range(s)) >= Min(Range(s)) /\ Max(Range(s)) \in Range(s)
    /\ Cardinality(kSubset(2, Range(s))) = (Cardinality(Range(s)) * (Cardinality(Range(s)) - 1)) \div 2
    /\ SymDiff(Range(s), 1..2) = (Range(s) \ 1..2) \cup (1..2 \ Range(s))
    /\ Restrict(s, {}) = <<>>

SumBelowSix == SumSet(Range(s)) < 6
=============================================================================

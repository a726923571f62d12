---- MODULE GuardedActions ----
\* An action-level IF and CASE over a variable of mixed kind: slot holds the model value None, the string
\* "full" or a record [val |-> n]. Step is reached through a definition that only calls it (as PlusCal's
\* Proc(self) == label(self)) and its IF sits under a conjunction beside k' = ..., so Next splits into one
\* guarded operation per arm. The CASE guards overlap (val = 1 satisfies both): the first true arm is
\* taken, as TLC does.
\*
\* Reachable, by hand: from None, v = 1 or 2 gives [val |-> 1] or [val |-> 2]; [val |-> 1] goes to "full"
\* (first arm), [val |-> 2] to [val |-> 4] (second arm), [val |-> 4] stays (OTHER), "full" goes back to
\* None. Five values of slot, each with k = 0 and k = 1 (k flips on every step, and every value is
\* reached with both): 10 distinct states, none deadlocked. [val |-> 3] would come from the second arm
\* at val = 1, which the first arm takes: NeverThree holds. GuardedActionsViolated.cfg checks NeverFour,
\* which fails after 2 steps (None -> [val |-> 2] -> [val |-> 4]).
EXTENDS Naturals
CONSTANT None
VARIABLES slot, k
vars == <<slot, k>>

TypeOK == slot \in {None, "full"} \cup [val : 1..4] /\ k \in 0..1
NeverThree == slot # [val |-> 3]
NeverFour == slot # [val |-> 4]

Init == slot = None /\ k = 0

Step(v) == /\ k' = IF k = 0 THEN 1 ELSE 0
           /\ IF slot = None
                 THEN slot' = [val |-> v]
                 ELSE IF slot = "full"
                         THEN slot' = None
                         ELSE CASE slot.val = 1 -> slot' = "full"
                                [] slot.val <= 2 -> slot' = [val |-> slot.val + 2]
                                [] OTHER -> UNCHANGED slot

Proc(v) == Step(v)

Next == \E v \in 1..2 : Proc(v)
Spec == Init /\ [][Next]_vars
====

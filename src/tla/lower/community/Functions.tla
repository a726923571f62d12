---------------------------- MODULE Functions ----------------------------
(* The operators of the community module Functions, as bsolve provides them: each written here from  *)
(* its documented meaning (a function's range, restriction, inverse, injectivity, folds). Names bound *)
(* inside start with `bsolve_`: an argument's own free names are never captured by them.             *)

Restrict(f, S) == [bsolve_x \in S |-> f[bsolve_x]]

RestrictDomain(f, Test(_)) ==
    [bsolve_x \in {bsolve_y \in DOMAIN f : Test(bsolve_y)} |-> f[bsolve_x]]

RestrictValues(f, Test(_)) ==
    [bsolve_x \in {bsolve_y \in DOMAIN f : Test(f[bsolve_y])} |-> f[bsolve_x]]

IsRestriction(f, g) ==
    DOMAIN f \subseteq DOMAIN g /\ \A bsolve_x \in DOMAIN f : f[bsolve_x] = g[bsolve_x]

Range(f) == {f[bsolve_x] : bsolve_x \in DOMAIN f}

Inverse(f, S, T) ==
    [bsolve_t \in T |-> CHOOSE bsolve_s \in S : bsolve_t \in Range(f) => f[bsolve_s] = bsolve_t]

AntiFunction(f) == [bsolve_y \in Range(f) |-> CHOOSE bsolve_x \in DOMAIN f : f[bsolve_x] = bsolve_y]

IsInjective(f) ==
    \A bsolve_a, bsolve_b \in DOMAIN f : f[bsolve_a] = f[bsolve_b] => bsolve_a = bsolve_b

IsSurjective(f, S, T) == \A bsolve_t \in T : \E bsolve_s \in S : f[bsolve_s] = bsolve_t

IsBijection(f, S, T) == IsInjective(f) /\ IsSurjective(f, S, T)

Injection(S, T) == {bsolve_f \in [S -> T] : IsInjective(bsolve_f)}

Surjection(S, T) == {bsolve_f \in [S -> T] : IsSurjective(bsolve_f, S, T)}

Bijection(S, T) == Injection(S, T) \cap Surjection(S, T)

ExistsInjection(S, T) == Injection(S, T) # {}

ExistsSurjection(S, T) == Surjection(S, T) # {}

ExistsBijection(S, T) == Bijection(S, T) # {}

(* op(fun[i], acc) over the indices i in `indices`, one at a time; the order is unspecified, so op  *)
(* should be associative and commutative.                                                           *)
FoldFunctionOnSet(op(_, _), base, fun, indices) ==
    LET bsolve_iter[bsolve_s \in SUBSET indices] ==
            IF bsolve_s = {} THEN base
            ELSE LET bsolve_i == CHOOSE bsolve_i \in bsolve_s : TRUE
                 IN op(fun[bsolve_i], bsolve_iter[bsolve_s \ {bsolve_i}])
    IN bsolve_iter[indices]

FoldFunction(op(_, _), base, fun) == FoldFunctionOnSet(op, base, fun, DOMAIN fun)
=============================================================================

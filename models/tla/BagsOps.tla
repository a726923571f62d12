---- MODULE BagsOps ----
EXTENDS Naturals, Bags, TLC
(* The bundled Bags operators on small bags, each result worked out by hand. *)
VARIABLE x
ASSUME IsABag(SetToBag({1, 2})) /\ BagToSet(SetToBag({1, 2})) = {1, 2}
ASSUME BagIn(1, SetToBag({1})) /\ ~BagIn(2, SetToBag({1}))
ASSUME CopiesIn(1, SetToBag({1}) (+) SetToBag({1, 2})) = 2
ASSUME (SetToBag({1}) (+) SetToBag({1, 2})) (-) SetToBag({1}) = SetToBag({1, 2})
ASSUME SetToBag({1}) (-) SetToBag({1}) = EmptyBag
ASSUME SetToBag({1}) \sqsubseteq SetToBag({1, 2}) /\ ~(SetToBag({1, 2}) \sqsubseteq SetToBag({1}))
ASSUME BagCardinality(SetToBag({1, 2}) (+) SetToBag({2})) = 3 /\ BagCardinality(EmptyBag) = 0
ASSUME BagUnion({SetToBag({1}), SetToBag({1, 2})}) = SetToBag({1}) (+) SetToBag({1, 2})
ASSUME BagOfAll(LAMBDA n : n % 2, SetToBag({1, 2, 3})) = (0 :> 1) @@ (1 :> 2)
Init == x = 0
Next == x < 1 /\ x' = x + 1
====

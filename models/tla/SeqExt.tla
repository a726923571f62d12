---- MODULE SeqExt ----
EXTENDS Naturals, Sequences, SequencesExt
(* The bundled SequencesExt operators on small values, each result worked out by hand. *)
VARIABLE x
ASSUME ToSet(<<3, 1, 3>>) = {1, 3}
ASSUME Contains(<<1, 2>>, 2) /\ ~Contains(<<1, 2>>, 3) /\ ~Contains(<<>>, 1)
ASSUME Cons(0, <<1, 2>>) = <<0, 1, 2>>
ASSUME Front(<<1, 2, 3>>) = <<1, 2>> /\ Last(<<1, 2, 3>>) = 3
ASSUME Reverse(<<1, 2, 3>>) = <<3, 2, 1>> /\ Reverse(<<>>) = <<>>
ASSUME Remove(<<1, 2, 1, 3>>, 1) = <<2, 3>>
ASSUME ReplaceAll(<<1, 2, 1>>, 1, 5) = <<5, 2, 5>>
ASSUME InsertAt(<<1, 3>>, 2, 2) = <<1, 2, 3>> /\ InsertAt(<<1>>, 2, 2) = <<1, 2>>
ASSUME ReplaceAt(<<1, 2>>, 2, 7) = <<1, 7>> /\ RemoveAt(<<1, 2, 3>>, 2) = <<1, 3>>
ASSUME IsPrefix(<<1>>, <<1, 2>>) /\ IsPrefix(<<>>, <<1>>) /\ ~IsPrefix(<<2>>, <<1, 2>>)
ASSUME IsStrictPrefix(<<1>>, <<1, 2>>) /\ ~IsStrictPrefix(<<1, 2>>, <<1, 2>>)
ASSUME IsSuffix(<<2>>, <<1, 2>>) /\ ~IsSuffix(<<1>>, <<1, 2>>) /\ ~IsStrictSuffix(<<1>>, <<1>>)
ASSUME Prefixes(<<1, 2>>) = {<<>>, <<1>>, <<1, 2>>}
ASSUME Suffixes(<<1, 2>>) = {<<>>, <<2>>, <<1, 2>>}
ASSUME Cardinality(SeqOf({0, 1}, 2)) = 7 /\ Cardinality(TupleOf({0, 1}, 2)) = 4
ASSUME FoldLeft(LAMBDA a, b : 2 * a + b, 0, <<1, 0, 1>>) = 5
ASSUME FoldRight(LAMBDA a, b : a - b, <<5, 3, 1>>, 0) = 3
ASSUME LET q == SetToSeq({4, 5, 6}) IN Len(q) = 3 /\ ToSet(q) = {4, 5, 6}
Init == x = 0
Next == x < 2 /\ x' = x + 1
====

---- MODULE Tuples ----
(* Two-element tuples as TLA+ uses them: messages <<p, "ECHO">> in a set typed by \X, pairs appended to a
   log and read back with [1] / [2], and a 2-element sequence Pos used with Len and Append.
   Reachable states with three processes (counted by hand): sent is a subset of the processes and log
   lists them in the order they were sent, so 1 + 3 + 3*2 + 3*2*1 = 16 states. *)
EXTENDS Naturals, Sequences, FiniteSets
CONSTANT Procs
VARIABLES sent, log

Init == sent = {} /\ log = <<>>

Send(p) == /\ <<p, "ECHO">> \notin sent
           /\ sent' = sent \cup {<<p, "ECHO">>}
           /\ log' = Append(log, <<p, Len(log)>>)

Next == \E p \in Procs : Send(p)

TypeOK == /\ sent \subseteq Procs \X {"ECHO"}
          /\ \A i \in DOMAIN log : log[i][1] \in Procs /\ log[i][2] = i - 1
          /\ {m[1] : m \in sent} = {log[i][1] : i \in DOMAIN log}

Pos == <<1, 2>>
SeqOK == Len(Pos) = 2 /\ Pos[2] = 2 /\ Append(Pos, 3) = <<1, 2, 3>>

FewSent == Cardinality(sent) < 2
====

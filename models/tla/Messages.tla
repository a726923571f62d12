---- MODULE Messages ----
\* A message set as TLA+ specifications write one: a union of record sets whose records have different
\* fields (a request has a ballot, an acknowledgement a ballot and an acceptor). A request for ballot 0 or 1
\* may be sent, an acceptor acknowledges a request, and an acknowledged acceptor is noted in got.
\* Reachable: the requests R of {0, 1}, acknowledgements K of R \X A, got of the acceptors K names. R = {}:
\* 1 state; R of one ballot (2 ways): K of two pairs, 1 + 2 * 2 + 4 = 9 states each; R = {0, 1}: per
\* acceptor its two pairs are absent (1 way) or some present (3 ways, got with or without it), 1 + 3 * 2 = 7,
\* for two acceptors 49. In all 1 + 18 + 49 = 68 states. LowAcks fails after a request for ballot 1 and
\* its acknowledgement (a trace of two steps).
EXTENDS Integers
CONSTANT A
VARIABLES msgs, got
Messages == [type : {"req"}, bal : 0..2] \cup [type : {"ack"}, bal : 0..2, acc : A]
TypeOK == msgs \subseteq Messages /\ got \subseteq A
Init == msgs = {} /\ got = {}
Req(b) == /\ b < 2
          /\ msgs' = msgs \cup {[type |-> "req", bal |-> b]}
          /\ UNCHANGED got
Ack(a) == \E m \in msgs : /\ m.type = "req"
                          /\ msgs' = msgs \cup {[type |-> "ack", bal |-> m.bal, acc |-> a]}
                          /\ UNCHANGED got
Got == \E m \in msgs : /\ m.type = "ack"
                       /\ got' = got \cup {m.acc}
                       /\ UNCHANGED msgs
Next == (\E b \in 0..2 : Req(b)) \/ (\E a \in A : Ack(a)) \/ Got
LowAcks == \A m \in msgs : m.type = "ack" => m.bal < 1
====

//! ProB's LTL[e] and CTL syntax.

//! The doubling cube in evaluation: match equity tables, and (to come) the
//! cube's state, Janowski's cubeful equities and cube decisions.

pub mod met;

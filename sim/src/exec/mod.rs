//! The engine room: the runner, the executor and paired play.

pub mod executor;
pub mod paired;
pub mod runner;

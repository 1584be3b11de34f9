//! Running Muster as a service (docs/operations.md): the operations listener, which serves the
//! metrics, the health and backups on request, the scheduled backups, and the process's open
//! files. The logs, metrics and health themselves are [`muster_core::telemetry`]'s, below every other
//! part.

pub mod backups;
pub mod files;
pub mod listener;
pub mod service;

//! Running Muster as a service (docs/operations.md): its logs, its metrics, its health, and the
//! operations listener that serves them with backups on request.

pub mod backups;
pub mod health;
pub mod listener;
pub mod logging;
pub mod metrics;
pub mod service;

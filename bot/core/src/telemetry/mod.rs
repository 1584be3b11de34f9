//! What Muster tells its operator while it runs: logs ([`logging`]), Prometheus metrics
//! ([`metrics`]) and the health of each part ([`health`]). The ground of the house: every other
//! part may report here, and nothing here reads a game.

pub mod health;
pub mod logging;
pub mod metrics;

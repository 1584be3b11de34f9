//! The metrics `/metrics` serves, in Prometheus' text format (docs/operations.md, "Metrics"):
//! one set a process, counted where things happen — commands in the core, game changes in the
//! store, reminders and timeouts in the scheduler, boards in the renderer, and every error or
//! warning logged, by the part of Muster that logged it.

use std::sync::OnceLock;
use std::time::Duration;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry,
    TextEncoder,
};

/// Muster's metrics.
pub struct Metrics {
    registry: Registry,
    commands: IntCounterVec,
    command_seconds: HistogramVec,
    moves: IntCounterVec,
    started: IntCounterVec,
    finished: IntCounterVec,
    errors: IntCounterVec,
    reminders: IntCounter,
    timeouts: IntCounter,
    active: IntGauge,
    render_seconds: HistogramVec,
    store_seconds: HistogramVec,
    web_refused: IntCounterVec,
}

/// Buckets from 100 µs to 10 s: a store read, a move with its flush, a board drawn, a command
/// that waited on a busy store.
const BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    10.0,
];

fn counter(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), labels).expect("a valid metric");
    registry
        .register(Box::new(c.clone()))
        .expect("registered once");
    c
}

/// A metric without labels, registered.
fn registered<M>(registry: &Registry, metric: prometheus::Result<M>) -> M
where
    M: prometheus::core::Collector + Clone + 'static,
{
    let metric = metric.expect("a valid metric");
    registry
        .register(Box::new(metric.clone()))
        .expect("registered once");
    metric
}

fn histogram(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> HistogramVec {
    let opts = HistogramOpts::new(name, help).buckets(BUCKETS.to_vec());
    let h = HistogramVec::new(opts, labels).expect("a valid metric");
    registry
        .register(Box::new(h.clone()))
        .expect("registered once");
    h
}

impl Metrics {
    fn new() -> Metrics {
        let registry = Registry::new();
        let reminders = IntCounter::new(
            "muster_reminders_total",
            "Reminders sent to players whose clock runs low.",
        );
        let timeouts = IntCounter::new(
            "muster_timeouts_total",
            "Clocks that ran out, ending the game or opening a claim.",
        );
        let active = IntGauge::new(
            "muster_active_games",
            "Live games: being played or waiting for their players.",
        );
        Metrics {
            reminders: registered(&registry, reminders),
            timeouts: registered(&registry, timeouts),
            active: registered(&registry, active),
            commands: counter(
                &registry,
                "muster_commands_total",
                "Commands handled, by platform, command and outcome (changed: a game was \
                 stored; answered: nothing to store; invalid: not a command; failed: the store \
                 refused the change).",
                &["platform", "command", "outcome"],
            ),
            command_seconds: histogram(
                &registry,
                "muster_command_duration_seconds",
                "Time to decide and store a command, boards not drawn.",
                &["platform"],
            ),
            moves: counter(
                &registry,
                "muster_moves_total",
                "Moves stored, by game.",
                &["game"],
            ),
            started: counter(
                &registry,
                "muster_games_started_total",
                "Games whose play began, by game.",
                &["game"],
            ),
            finished: counter(
                &registry,
                "muster_games_finished_total",
                "Games finished, by game and how they ended (rules, resigned, draw_agreed, \
                 aborted, time, forfeit).",
                &["game", "termination"],
            ),
            errors: counter(
                &registry,
                "muster_errors_total",
                "Errors and warnings logged, by the part of Muster that logged them.",
                &["component", "level"],
            ),
            render_seconds: histogram(
                &registry,
                "muster_render_duration_seconds",
                "Time to draw a board image, by game.",
                &["game"],
            ),
            store_seconds: histogram(
                &registry,
                "muster_store_duration_seconds",
                "Time of a store operation, by operation.",
                &["operation"],
            ),
            web_refused: counter(
                &registry,
                "muster_web_refused_total",
                "Web connections and requests refused, by why (address, overall: the \
                 connection allowance was full; slow_head: a request's head came too slowly; \
                 bad_request, uri_too_long, fields_too_large, method: the request's head).",
                &["reason"],
            ),
            registry,
        }
    }

    /// A web connection or request refused, for `reason`.
    pub fn web_refused(&self, reason: &str) {
        self.web_refused.with_label_values(&[reason]).inc();
    }

    /// A command handled on `platform`.
    pub fn command(&self, platform: &str, command: &str, outcome: &str, took: Duration) {
        self.commands
            .with_label_values(&[platform, command, outcome])
            .inc();
        self.command_seconds
            .with_label_values(&[platform])
            .observe(took.as_secs_f64());
    }

    /// `n` moves stored in a game of `game`.
    pub fn moves(&self, game: &str, n: u64) {
        if n > 0 {
            self.moves.with_label_values(&[game]).inc_by(n);
        }
    }

    /// A game of `game` began.
    pub fn started(&self, game: &str) {
        self.started.with_label_values(&[game]).inc();
    }

    /// A game of `game` finished, as `termination` says.
    pub fn finished(&self, game: &str, termination: &str) {
        self.finished.with_label_values(&[game, termination]).inc();
    }

    /// An error or a warning logged by `component`.
    pub fn error(&self, component: &str, level: &str) {
        self.errors.with_label_values(&[component, level]).inc();
    }

    /// A reminder sent.
    pub fn reminder(&self) {
        self.reminders.inc();
    }

    /// A clock ran out.
    pub fn timeout(&self) {
        self.timeouts.inc();
    }

    /// A board of `game` drawn.
    pub fn render(&self, game: &str, took: Duration) {
        self.render_seconds
            .with_label_values(&[game])
            .observe(took.as_secs_f64());
    }

    /// A store operation.
    pub fn store(&self, operation: &str, took: Duration) {
        self.store_seconds
            .with_label_values(&[operation])
            .observe(took.as_secs_f64());
    }

    /// Everything, in Prometheus' text format (version 0.0.4), with `active` live games.
    pub fn encode(&self, active: Option<usize>) -> String {
        if let Some(n) = active {
            self.active.set(i64::try_from(n).unwrap_or(i64::MAX));
        }
        let mut out = Vec::new();
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

/// The content type of [`Metrics::encode`]'s text.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_names_each_metric_with_its_labels() {
        let m = Metrics::new();
        m.command("console", "move", "changed", Duration::from_millis(3));
        m.moves("lanrick", 2);
        m.finished("croquet", "resigned");
        let text = m.encode(Some(4));
        assert!(
            text.contains("# TYPE muster_commands_total counter"),
            "{text}"
        );
        assert!(
            text.contains(
                "muster_commands_total{command=\"move\",outcome=\"changed\",platform=\"console\"} 1"
            ),
            "{text}"
        );
        assert!(
            text.contains("muster_moves_total{game=\"lanrick\"} 2"),
            "{text}"
        );
        assert!(
            text.contains(
                "muster_games_finished_total{game=\"croquet\",termination=\"resigned\"} 1"
            ),
            "{text}"
        );
        assert!(text.contains("muster_active_games 4"), "{text}");
        assert!(
            text.contains(
                "muster_command_duration_seconds_bucket{platform=\"console\",le=\"0.005\"} 1"
            ),
            "{text}"
        );
    }
}

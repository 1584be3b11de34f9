//! The chats served: the web pages' listener, the operations listener and backups, the
//! scheduler, the bot's thread, and each configured adapter, until one fails or the process is
//! asked to stop (`muster serve`, and `muster` with chat settings).

/// The web pages' listener bound, and serving from then on.
async fn start_web(
    base: &std::sync::Arc<muster_core::desk::Core>,
    web: muster_config::Web,
    changes: std::sync::Arc<muster_core::kernel::store::Changes>,
) -> Result<(), String> {
    base.store().listen(std::sync::Arc::clone(&changes));
    let shared = muster_web::Shared::new(
        std::sync::Arc::clone(base),
        changes,
        muster_web::listen::Limits::from_settings(&web),
    );
    let listener = muster_web::serve::bind(web.listen).await?;
    tokio::spawn(muster_web::serve::run(shared, listener));
    Ok(())
}

/// The bot's searches, on one thread of their own: the players keep the other core.
fn start_bot_player(base: &std::sync::Arc<muster_core::desk::Core>) -> Result<(), String> {
    let core = std::sync::Arc::clone(base);
    let stopping = muster_core::signals::install().subscribe();
    std::thread::Builder::new()
        .name("muster-bot".into())
        .spawn(move || {
            core.resume_bots();
            core.bot_worker(|| *stopping.borrow());
        })
        .map_err(|e| format!("cannot start the bot's thread: {e}"))?;
    Ok(())
}

/// Runs every configured adapter; returns when one fails, or when the process is asked to
/// stop and every adapter has stopped (each finishes what it is answering first: the Matrix
/// adapter its batch, the Discord adapter its interactions, closing its gateway connection).
pub(crate) async fn serve_chats(
    base: std::sync::Arc<muster_core::desk::Core>,
    settings: muster_config::Settings,
    changes: std::sync::Arc<muster_core::kernel::store::Changes>,
) -> Result<(), String> {
    // From here on a stop signal is caught and remembered, even by an adapter still starting.
    muster_core::signals::install();
    let muster_config::Settings {
        data_dir,
        discord,
        matrix,
        ops,
        web,
        ..
    } = settings;
    // The web pages, beside the chats: their listener is bound before anything is answered.
    if let Some(web) = web {
        start_web(&base, web, changes).await?;
    }
    let backups = crate::ops::service::backups(base.store_arc(), base.clock_arc(), &data_dir, &ops);
    crate::ops::service::start(std::sync::Arc::clone(base.store_arc()), backups, &ops).await?;
    if discord.is_some() {
        muster_core::telemetry::health::down("discord", "connecting");
    }
    if matrix.is_some() {
        muster_core::telemetry::health::down("matrix", "connecting");
    }
    // Beside other instances on one store, each sees to the due moments of the platforms it
    // announces on: Discord's if it serves Discord, Matrix's while it syncs Matrix.
    if base.store().shared() {
        base.timers()
            .fire_for(muster_discord::PLATFORM, discord.is_some());
        base.timers().fire_for(muster_matrix::PLATFORM, false);
    }
    // One core's timers serve every adapter: one scheduler for the process.
    tokio::spawn(muster_core::desk::scheduler::run(std::sync::Arc::clone(
        &base,
    )));
    start_bot_player(&base)?;
    let discord = async {
        match discord {
            Some(d) => muster_discord::serve::serve(std::sync::Arc::clone(&base), d).await,
            None => {
                muster_core::signals::shutdown().await;
                Ok(())
            }
        }
    };
    let matrix = async {
        match matrix {
            Some(m) => {
                muster_matrix::serve::serve(std::sync::Arc::clone(&base), &data_dir, m).await
            }
            None => {
                muster_core::signals::shutdown().await;
                Ok(())
            }
        }
    };
    let (mut discord, mut matrix) = (std::pin::pin!(discord), std::pin::pin!(matrix));
    // The first to end: a failure ends the process; a stop waits for the other adapter to
    // finish what it is answering, for a while (it may still be starting, or waiting on an
    // unreachable server).
    let grace = std::time::Duration::from_secs(15);
    tokio::select! {
        r = &mut discord => {
            r?;
            tokio::time::timeout(grace, matrix).await.unwrap_or(Ok(()))
        }
        r = &mut matrix => {
            r?;
            tokio::time::timeout(grace, discord).await.unwrap_or(Ok(()))
        }
    }
}

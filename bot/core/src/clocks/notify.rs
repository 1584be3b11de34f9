//! `notify`: how a player is reminded of his move in timed games — where (`notify
//! mention|dm|off`), at what times left (`notify remind 24h 1h`) and not in his quiet hours
//! (`notify quiet 22:00-07:00 Europe/Berlin`). Changing them brings his games' reminders up to
//! date at once.

use super::command::NotifyCommand;
use super::schedule::reschedule_player;
use crate::kernel::clock::duration;
use crate::kernel::clock::quiet::Quiet;
use crate::kernel::context::Context;
use crate::kernel::reply::{Replies, private};
use crate::kernel::request::Request;
use crate::kernel::text::capitalised;
use crate::players::links;
use crate::players::profile::{Mode, Profile, update};

fn points_text(points: &[u64]) -> String {
    if points.is_empty() {
        return "never".into();
    }
    let list: Vec<String> = points.iter().map(|p| duration(*p)).collect();
    format!("at {} left", list.join(" and "))
}

/// `notify …`: the settings changed (all together), then shown. A player whose accounts are
/// linked has them changed under every account, so that his games on each platform are
/// reminded alike; `notify on <platform>` sends every reminder to his account there.
pub fn notify(core: &Context, req: &Request, changes: Vec<NotifyCommand>) -> Replies {
    let store = core.base.as_ref();
    let accounts = links::accounts_of(store, &req.platform, &req.user.id);
    for change in &changes {
        if let NotifyCommand::Route(Some(platform)) = change
            && !accounts.iter().any(|a| a.platform == *platform)
        {
            let yours: Vec<String> = accounts.iter().map(|a| capitalised(&a.platform)).collect();
            return private(format!(
                "You have no account on {} linked with this one (yours: {}); `link` links one, \
                 `whoami` shows them. Nothing was changed.",
                capitalised(platform),
                yours.join(", ")
            ));
        }
    }
    let apply = |p: &mut Profile| {
        for change in &changes {
            match change {
                NotifyCommand::Mode(m) => p.notify = *m,
                NotifyCommand::Remind(points) => p.remind = Some(points.clone()),
                NotifyCommand::RemindDefault => p.remind = None,
                NotifyCommand::Quiet(q) => p.quiet = q.clone(),
                NotifyCommand::Route(r) => p.route = r.clone(),
            }
        }
        Ok(())
    };
    let result = update(store, &req.platform, &req.user.id, apply);
    let profile = match result {
        Ok((p, ())) => p,
        Err(e) => return private(format!("Your settings could not be saved: {e}.")),
    };
    for other in accounts.iter().skip(1) {
        if let Err(e) = update(store, &other.platform, &other.id, apply) {
            return private(format!(
                "Your settings were saved here, but not for your account on {}: {e}. Say it again.",
                capitalised(&other.platform)
            ));
        }
        reschedule_player(core, &other.platform, &other.id);
    }
    reschedule_player(core, &req.platform, &req.user.id);
    private(settings_text(core, &profile, &accounts))
}

/// The player's reminder settings in words, with how his linked accounts share them and how
/// to change them.
fn settings_text(core: &Context, profile: &Profile, accounts: &[links::Account]) -> String {
    let mode = match profile.notify {
        Mode::Mention => "a mention in the game's channel",
        Mode::Dm => "a direct message",
        Mode::Off => "nothing (reminders are off)",
    };
    let quiet = profile
        .quiet
        .as_ref()
        .map_or("none".to_string(), Quiet::typed);
    let mut text = format!(
        "Your reminders: {mode}, {}; quiet hours: {quiet}.",
        points_text(&profile.points())
    );
    let routed = profile
        .route
        .as_ref()
        .filter(|r| accounts.iter().any(|a| a.platform == **r));
    if let Some(route) = routed {
        text.push_str(&format!(
            " Every game's reminder, on each of your platforms, goes to you on {} as a direct \
             message (`notify on each`: each game's own platform).",
            capitalised(route)
        ));
    } else if accounts.len() > 1 {
        text.push_str(
            " Your linked accounts share these settings; each game is reminded on its own \
             platform (`notify on <platform>` sends them all to one).",
        );
    }
    if profile.notify != Mode::Off && !profile.points().is_empty() {
        text.push_str(" A point at or above a game's whole time is not used in that game.");
    }
    text.push_str(&format!(
        " Change them with `{p}notify mention|dm|off`, `{p}notify remind 24h 1h` or `{p}notify quiet 22:00-07:00 Europe/Berlin`.",
        p = core.prefix
    ));
    text
}

//! How Discord shows what the core says: its own timestamps (each reader sees his own time and
//! a countdown), channel and user mentions, an 8 MiB file, and a thread opened for each event
//! board — and, served by this process with a games channel set, a thread under it for each
//! game challenged from another platform.

use super::PLATFORM;
use muster_core::desk::{Opening, Place, Surface, User};

/// Discord's surface; with what this process serves, when it serves Discord.
#[derive(Default)]
pub struct DiscordSurface {
    /// Served here, with the channel under which games from other platforms get threads.
    served: Option<Option<u64>>,
}

impl DiscordSurface {
    /// The surface of a process that serves Discord, with its `games_channel` setting.
    pub fn serving(games_channel: Option<u64>) -> DiscordSurface {
        DiscordSurface {
            served: Some(games_channel),
        }
    }
}

/// `user` as Discord mentions him.
pub fn mention(user: &User) -> String {
    format!("<@{}>", user.id)
}

impl Surface for DiscordSurface {
    fn platform(&self) -> &str {
        PLATFORM
    }

    fn time(&self, at: u64, _now: u64) -> String {
        format!("<t:{at}:f> (<t:{at}:R>)")
    }

    fn channel_link(&self, channel: &str) -> String {
        format!("<#{channel}>")
    }

    /// The channel's address in Discord's web and apps (`https://discord.com/channels/<server>/<channel>`),
    /// which any reader can open; without the server, the channel's mention.
    fn address(&self, community: Option<&str>, channel: &str) -> String {
        match community.filter(|c| !c.is_empty()) {
            Some(guild) => format!("https://discord.com/channels/{guild}/{channel}"),
            None => self.channel_link(channel),
        }
    }

    fn mention(&self, user: &User) -> String {
        mention(user)
    }

    /// A Discord account (a linked player's, named from another platform) can be challenged
    /// where this process serves Discord and has a channel for such games' threads.
    fn reachable(&self, _: &User) -> Result<(), String> {
        match self.served {
            None => Err(
                "this Muster does not serve Discord (an operator can set it up in the settings)"
                    .into(),
            ),
            Some(None) => Err(
                "Discord has no channel for games from other platforms here (an \
                 operator sets `games_channel` in `[discord]`)"
                    .into(),
            ),
            Some(Some(_)) => Ok(()),
        }
    }

    /// Under Discord's 10 MiB for a bot's message: the final board and the text go beside a
    /// replay.
    fn upload_limit(&self) -> usize {
        8 << 20
    }

    fn place(&self, _: &Opening) -> Place {
        Place::Opened
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_discord_timestamps_that_each_reader_sees_in_his_own_zone() {
        let s = DiscordSurface::default();
        assert_eq!(
            s.time(1_800_000_000, 0),
            "<t:1800000000:f> (<t:1800000000:R>)"
        );
        assert_eq!(s.channel_link("42"), "<#42>");
        assert_eq!(s.mention(&User::named("7")), "<@7>");
    }
}

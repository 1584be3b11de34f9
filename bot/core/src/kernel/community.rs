//! Communities across platforms: clubs made of places on more than one platform (a chat server
//! on one, rooms on another), declared in the settings. Their ratings, leaderboards, tournament
//! names and organisers are shared. A place belongs to at most one.

use std::sync::Arc;

/// A place a community takes in: a whole community of one platform (a chat server, or the
/// rooms that name it), or one channel of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Member {
    /// The platform.
    pub platform: String,
    /// The platform's own community (`Policy::community`), when the member is all of it.
    pub community: Option<String>,
    /// One channel, when the member is only that.
    pub channel: Option<String>,
}

impl Member {
    /// All of `community` on `platform`.
    pub fn community(platform: &str, community: &str) -> Member {
        Member {
            platform: platform.into(),
            community: Some(community.into()),
            channel: None,
        }
    }

    /// The one channel `channel` of `platform`.
    pub fn channel(platform: &str, channel: &str) -> Member {
        Member {
            platform: platform.into(),
            community: None,
            channel: Some(channel.into()),
        }
    }

    fn holds(&self, platform: &str, community: &str, channel: &str) -> bool {
        self.platform == platform
            && match (&self.community, &self.channel) {
                (_, Some(c)) => c == channel,
                (Some(c), None) => c == community,
                (None, None) => false,
            }
    }
}

/// One community across platforms.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Community {
    /// Its name, from the settings.
    pub name: String,
    /// Its places.
    pub members: Vec<Member>,
    /// Its organisers, by their ids on any platform.
    pub organisers: Vec<String>,
    /// What it shows on the web (docs/web.md).
    pub web: muster_config::Visibility,
}

impl Community {
    /// Whether `id` (a user's id on some platform) organises it.
    pub fn organised_by(&self, id: &str) -> bool {
        self.organisers.iter().any(|o| o == id)
    }

    /// The platforms it has places on.
    pub fn platforms(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.members.iter().map(|m| m.platform.as_str()).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Every community across platforms the settings declare.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Communities {
    list: Vec<Arc<Community>>,
}

impl Communities {
    /// These communities.
    pub fn new(list: Vec<Community>) -> Communities {
        Communities {
            list: list.into_iter().map(Arc::new).collect(),
        }
    }

    /// The community the place belongs to: `channel` of `platform`'s own `community`. A
    /// member naming the channel comes before one naming its whole community.
    pub fn of(&self, platform: &str, community: &str, channel: &str) -> Option<Arc<Community>> {
        let by_channel = self.list.iter().find(|c| {
            c.members
                .iter()
                .any(|m| m.channel.is_some() && m.holds(platform, community, channel))
        });
        by_channel
            .or_else(|| {
                self.list.iter().find(|c| {
                    c.members
                        .iter()
                        .any(|m| m.holds(platform, community, channel))
                })
            })
            .cloned()
    }

    /// The community named `name`.
    pub fn named(&self, name: &str) -> Option<Arc<Community>> {
        self.list.iter().find(|c| c.name == name).cloned()
    }

    /// All of them.
    pub fn all(&self) -> &[Arc<Community>] {
        &self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_found_by_its_channel_before_its_community() {
        let all = Communities::new(vec![
            Community {
                name: "club".into(),
                members: vec![Member::community("a", "42"), Member::community("b", "")],
                organisers: vec!["7".into()],
                ..Community::default()
            },
            Community {
                name: "other".into(),
                members: vec![Member::channel("b", "!room")],
                organisers: vec![],
                ..Community::default()
            },
        ]);
        let name = |p: &str, c: &str, ch: &str| all.of(p, c, ch).map(|c| c.name.clone());
        assert_eq!(name("a", "42", "x").as_deref(), Some("club"));
        assert_eq!(name("a", "43", "x"), None);
        assert_eq!(name("b", "", "!elsewhere").as_deref(), Some("club"));
        assert_eq!(name("b", "", "!room").as_deref(), Some("other"));
        assert_eq!(name("c", "42", "x"), None);
        assert!(all.named("club").unwrap().organised_by("7"));
        assert_eq!(all.named("club").unwrap().platforms(), vec!["a", "b"]);
    }
}

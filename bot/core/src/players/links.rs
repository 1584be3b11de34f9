//! Linked accounts: one player on two platforms. `link` on one platform gives a one-time code
//! (eight letters and digits of Crockford's base 32, 40 random bits, good for ten minutes and
//! one use); `link CODE` said on the other platform joins the two accounts into one player;
//! `unlink` parts them again; `whoami` shows them. A code is only ever shown to the one who
//! asked for it: as a private answer where the platform has them, else in a direct message.
//! A wrong code counts against the account that typed it: five in ten minutes, and it must
//! wait. A code typed anywhere is spent, whatever came of it (it may have been seen).
//!
//! Kept in notes beside no platform (`\u{1e}accounts`): `code:<CODE>` (who asked, when, whether
//! used), `issued:<account>` (his newest code), `account:<account>` (his player), `player:<id>`
//! (the player's accounts), `tries:<account>` (wrong codes lately), `name:<name>` (the linked
//! players one of whose accounts has that name, lowercased: a challenge from another platform
//! names them so), an account being `<platform>␟<user id>`.

use serde::{Deserialize, Serialize};

use crate::kernel::context::Context;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameStore, StoreError};
use crate::kernel::text::capitalised;

/// How long a code can be used, in seconds.
pub const CODE_LIFE: u64 = 600;

/// Wrong codes an account may type within [`CODE_LIFE`] before it must wait.
pub const TRIES: u32 = 5;

/// The letters of a code: Crockford's base 32 (no I, L, O, U).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// What `link`, `unlink` and `whoami` ask.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LinkCommand {
    /// `link`: a code for this account.
    Issue,
    /// `link CODE`: this account joins the one that asked for the code.
    Redeem(String),
    /// `unlink`.
    Unlink,
    /// `whoami`.
    WhoAmI,
}

impl LinkCommand {
    /// The command's word, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            LinkCommand::Issue | LinkCommand::Redeem(_) => "link",
            LinkCommand::Unlink => "unlink",
            LinkCommand::WhoAmI => "whoami",
        }
    }
}

/// Reads `link [CODE]`, `unlink` and `whoami`; `None` for another word.
pub fn parse(word: &str, args: &[&str]) -> Option<Result<LinkCommand, String>> {
    Some(match word {
        "link" => match args {
            [] => Ok(LinkCommand::Issue),
            [code] => Ok(LinkCommand::Redeem((*code).to_string())),
            // `link ABCD EFGH`: a space for the dash.
            [a, b] if a.chars().count() == 4 && b.chars().count() == 4 => {
                Ok(LinkCommand::Redeem(format!("{a}{b}")))
            }
            _ => Err("`link` alone gives a code; `link CODE` uses one (`link ABCD-EFGH`)".into()),
        },
        "unlink" if args.is_empty() => Ok(LinkCommand::Unlink),
        "whoami" if args.is_empty() => Ok(LinkCommand::WhoAmI),
        "unlink" | "whoami" => Err(format!("`{word}` takes no words")),
        _ => return None,
    })
}

/// One account on one platform.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Account {
    /// The platform.
    pub platform: String,
    /// The user's id there.
    pub id: String,
    /// His name there, when the link was made.
    pub name: String,
}

impl Account {
    fn of(req: &Request) -> Account {
        Account {
            platform: req.platform.clone(),
            id: req.user.id.clone(),
            name: req.user.name.clone(),
        }
    }

    fn key(&self) -> String {
        format!("{}\u{1f}{}", self.platform, self.id)
    }

    /// `alice on Chat`: his name, and the platform's, capitalised.
    fn shown(&self) -> String {
        format!("{} on {}", self.name, capitalised(&self.platform))
    }
}

/// A code as kept.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct Code {
    by: Account,
    at: u64,
    #[serde(default)]
    used: bool,
}

/// Wrong codes typed lately by one account.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
struct Tries {
    since: u64,
    wrong: u32,
}

fn home() -> ChannelKey {
    ChannelKey::new("", "\u{1e}accounts")
}

fn read<T: for<'de> Deserialize<'de>>(
    store: &dyn GameStore,
    name: &str,
) -> Result<Option<(T, String)>, StoreError> {
    let Some(text) = store.note(&home(), name)? else {
        return Ok(None);
    };
    let value = serde_json::from_str(&text)
        .map_err(|e| StoreError::Corrupt(format!("the note {name} cannot be read: {e}")))?;
    Ok(Some((value, text)))
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The accounts linked with `platform`'s user `id` (his own first), or just his own.
pub fn accounts_of(store: &dyn GameStore, platform: &str, id: &str) -> Vec<Account> {
    let me = Account {
        platform: platform.to_string(),
        id: id.to_string(),
        name: String::new(),
    };
    let linked = store
        .note(&home(), &format!("account:{}", me.key()))
        .ok()
        .flatten()
        .and_then(|player| read::<Vec<Account>>(store, &format!("player:{player}")).ok())
        .flatten()
        .map(|(accounts, _)| accounts);
    match linked {
        Some(mut accounts) => {
            accounts.sort_by_key(|a| a.key() != me.key());
            accounts
        }
        None => vec![me],
    }
}

/// The player `platform`'s user `id` is linked into, if he is linked.
pub fn player_of(store: &dyn GameStore, platform: &str, id: &str) -> Option<String> {
    let me = Account {
        platform: platform.to_string(),
        id: id.to_string(),
        name: String::new(),
    };
    store
        .note(&home(), &format!("account:{}", me.key()))
        .ok()
        .flatten()
}

/// The linked players one of whose accounts is called `name` (any case): each player's
/// accounts.
pub fn named(store: &dyn GameStore, name: &str) -> Vec<Vec<Account>> {
    let Ok(Some((players, _))) = read::<Vec<String>>(store, &name_note(name)) else {
        return Vec::new();
    };
    players
        .iter()
        .filter_map(|p| {
            read::<Vec<Account>>(store, &format!("player:{p}"))
                .ok()
                .flatten()
        })
        .map(|(accounts, _)| accounts)
        .collect()
}

fn name_note(name: &str) -> String {
    format!("name:{}", name.trim().to_lowercase())
}

/// Adds (`on`) or takes out `player` from the name index of each of his `accounts`' names, by
/// compare-and-swap.
fn index_names(
    store: &dyn GameStore,
    player: &str,
    accounts: &[Account],
    on: bool,
) -> Result<(), StoreError> {
    let mut names: Vec<String> = accounts.iter().map(|a| name_note(&a.name)).collect();
    names.sort();
    names.dedup();
    for note in names.iter().filter(|n| *n != "name:") {
        for _ in 0..20 {
            let old = read::<Vec<String>>(store, note)?;
            let (mut players, text) = old.map_or((Vec::new(), None), |(p, t)| (p, Some(t)));
            let had = players.iter().any(|p| p == player);
            if had == on {
                break;
            }
            if on {
                players.push(player.to_string());
            } else {
                players.retain(|p| p != player);
            }
            let new = (!players.is_empty()).then(|| json(&players));
            if store.swap_note(&home(), note, text.as_deref(), new.as_deref())? {
                break;
            }
        }
    }
    Ok(())
}

/// How many times links have been made or undone (or a start found them possibly half-made):
/// what is worked out from the links (a community's shared ratings) is worked out again when
/// it changes.
pub fn generation(store: &dyn GameStore) -> u64 {
    store
        .note(&home(), GENERATION)
        .ok()
        .flatten()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Counts one more change of the links (see [`generation`]); called after a link is made or
/// undone, and at every start, since a stop may have come between a link and its count.
pub fn changed(store: &dyn GameStore) -> Result<(), StoreError> {
    for _ in 0..20 {
        let text = store.note(&home(), GENERATION)?;
        let next = text
            .as_deref()
            .and_then(|t| t.parse::<u64>().ok())
            .unwrap_or(0)
            + 1;
        if store.swap_note(
            &home(),
            GENERATION,
            text.as_deref(),
            Some(&next.to_string()),
        )? {
            return Ok(());
        }
    }
    Err(StoreError::Corrupt(
        "the links' count could not be changed".into(),
    ))
}

/// [`changed`], a failure logged: the link itself stands, and the next start counts it.
fn count_change(store: &dyn GameStore) {
    if let Err(e) = changed(store) {
        tracing::warn!("a change of links could not be counted ({e}); the next start counts it");
    }
}

/// The note counting the links' changes.
const GENERATION: &str = "generation";

/// Runs `link`, `unlink` or `whoami` for the requester.
pub fn run(core: &Context, req: &Request, command: LinkCommand) -> Replies {
    let done = match command {
        LinkCommand::Issue => issue(core, req),
        LinkCommand::Redeem(code) => redeem(core, req, &code),
        LinkCommand::Unlink => unlink(core, req),
        LinkCommand::WhoAmI => Ok(whoami(core, req)),
    };
    done.unwrap_or_else(|e| match e {
        Refusal::Said(text) => private(text),
        Refusal::Store(e) => private(format!(
            "The store is not available ({e}); nothing was changed. Try again in a moment."
        )),
    })
}

/// Why a link command did nothing.
enum Refusal {
    Said(String),
    Store(StoreError),
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Refusal {
        Refusal::Store(e)
    }
}

fn said(text: impl Into<String>) -> Refusal {
    Refusal::Said(text.into())
}

/// The platforms this deployment serves other than `mine`, sorted.
fn others(core: &Context, mine: &str) -> Vec<String> {
    let mut others: Vec<String> = core
        .surfaces()
        .iter()
        .map(|s| s.platform().to_string())
        .filter(|p| p != mine)
        .collect();
    others.sort();
    others
}

/// `link`: a fresh code for the requester, shown to him alone.
fn issue(core: &Context, req: &Request) -> Result<Replies, Refusal> {
    let store = core.base.as_ref();
    let me = Account::of(req);
    let others = others(core, &req.platform);
    if others.is_empty() {
        return Err(said(format!(
            "Linking joins your accounts on two chat platforms into one player, and this Muster \
             serves only {}.",
            capitalised(&req.platform)
        )));
    }
    if store
        .note(&home(), &format!("account:{}", me.key()))?
        .is_some()
    {
        let linked = accounts_of(store, &req.platform, &req.user.id);
        return Err(said(format!(
            "Your account is linked already: {}. `unlink` first to link another.",
            shown_all(&linked)
        )));
    }
    let code = fresh_code().ok_or_else(|| said("No code could be made just now; try again."))?;
    let now = core.clock.now();
    // A newer code replaces the one asked for before.
    let issued = format!("issued:{}", me.key());
    if let Some(old) = store.note(&home(), &issued)? {
        store.set_note(&home(), &format!("code:{old}"), None)?;
    }
    let kept = Code {
        by: me,
        at: now,
        used: false,
    };
    store.set_note(&home(), &format!("code:{code}"), Some(&json(&kept)))?;
    store.set_note(&home(), &issued, Some(&code))?;
    let shown = format!("{}-{}", &code[..4], &code[4..]);
    let say: Vec<String> = others
        .iter()
        .map(|p| {
            format!(
                "`{}link {shown}` on {}",
                core.prefix_in(p, ""),
                capitalised(p)
            )
        })
        .collect();
    let text = format!(
        "Your code is `{shown}`. Within 10 minutes, say {} as yourself to make your accounts \
         one player; the code works once. Nobody else needs to see it.",
        say.join(" or ")
    );
    if core.surface(&req.platform).private_replies() {
        return Ok(private(text));
    }
    // Where answers cannot be private, the code goes to a direct message.
    core.timers.post(Notice {
        platform: req.platform.clone(),
        target: Target::Direct(req.user.clone()),
        replies: vec![Reply::Text(text)],
        fallback: None,
        receipt: None,
    });
    Ok(private(
        "Your code is in a direct message from me: it is for your eyes only.".to_string(),
    ))
}

/// Eight random letters of [`ALPHABET`].
fn fresh_code() -> Option<String> {
    let mut bytes = [0u8; 5];
    getrandom::fill(&mut bytes).ok()?;
    let bits = bytes.iter().fold(0u64, |n, b| (n << 8) | u64::from(*b));
    Some(
        (0..8)
            .rev()
            .map(|i| char::from(ALPHABET[((bits >> (i * 5)) & 31) as usize]))
            .collect(),
    )
}

/// A typed code in its kept form (`abcd-efgh` → `ABCDEFGH`, `O` read as `0`, `I` and `L` as
/// `1`), or `None` if it cannot be one.
fn normal(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | '`'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    (code.len() == 8 && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// What a refusal of `link CODE` tells the requester to do next.
const ASK: &str = "ask for a new one with `link` on your other platform";

/// `link CODE`: the requester's account joins the one that asked for the code.
fn redeem(core: &Context, req: &Request, typed: &str) -> Result<Replies, Refusal> {
    let store = core.base.as_ref();
    let me = Account::of(req);
    let now = core.clock.now();
    let Some(code) = normal(typed) else {
        return Err(said(format!(
            "`{typed}` is not a code: a code is eight letters and digits, such as `ABCD-EFGH`; \
             {ASK}."
        )));
    };
    let kept = spend_code(store, &me, now, &code, typed)?;
    check_redeemable(store, &me, &kept, now, typed)?;
    let accounts = vec![kept.by.clone(), me.clone()];
    let player = join(store, &accounts)?;
    store.set_note(&home(), &format!("issued:{}", kept.by.key()), None)?;
    count_change(store);
    if let Err(e) = index_names(store, &player, &accounts, true) {
        tracing::warn!("a linked player's names could not be indexed ({e}); `whoami` does it");
    }
    Ok(private(format!(
        "Linked: {} and {} are one player now. `whoami` shows your accounts; `unlink` parts them.",
        kept.by.shown(),
        me.shown()
    )))
}

/// The code `code` found and marked used, counting a wrong one against `me`.
fn spend_code(
    store: &dyn GameStore,
    me: &Account,
    now: u64,
    code: &str,
    typed: &str,
) -> Result<Code, Refusal> {
    let tries_name = format!("tries:{}", me.key());
    let tries = read::<Tries>(store, &tries_name)?
        .map(|(t, _)| t)
        .filter(|t| now < t.since + CODE_LIFE)
        .unwrap_or(Tries {
            since: now,
            wrong: 0,
        });
    if tries.wrong >= TRIES {
        let wait = (tries.since + CODE_LIFE).saturating_sub(now).div_ceil(60);
        return Err(said(format!(
            "Too many wrong codes: try again in {wait} minute{}.",
            if wait == 1 { "" } else { "s" }
        )));
    }
    let name = format!("code:{code}");
    let Some((kept, text)) = read::<Code>(store, &name)? else {
        let wrong = Tries {
            wrong: tries.wrong + 1,
            ..tries
        };
        store.set_note(&home(), &tries_name, Some(&json(&wrong)))?;
        return Err(said(format!(
            "There is no code `{typed}`: check it, or {ASK} ({} wrong code{} left for now).",
            TRIES - wrong.wrong,
            if TRIES - wrong.wrong == 1 { "" } else { "s" }
        )));
    };
    if kept.used {
        return Err(said(format!("That code has been used already; {ASK}.")));
    }
    // Typed, the code is spent whatever comes of it: others may have seen it.
    let spent = Code {
        used: true,
        ..kept.clone()
    };
    if !store.swap_note(&home(), &name, Some(&text), Some(&json(&spent)))? {
        return Err(said(format!("That code has been used already; {ASK}.")));
    }
    Ok(kept)
}

/// Refuses a spent code that has expired, was made on `me`'s own platform, or joins an
/// account linked already.
fn check_redeemable(
    store: &dyn GameStore,
    me: &Account,
    kept: &Code,
    now: u64,
    typed: &str,
) -> Result<(), Refusal> {
    if now >= kept.at + CODE_LIFE {
        return Err(said(format!(
            "That code has expired (a code lasts 10 minutes); {ASK}."
        )));
    }
    if kept.by.platform == me.platform {
        return Err(said(format!(
            "That code was made here on {}: say `link {typed}` on your other platform. It is \
             spent now; {ASK}.",
            capitalised(&me.platform)
        )));
    }
    for account in [me, &kept.by] {
        if store
            .note(&home(), &format!("account:{}", account.key()))?
            .is_some()
        {
            let linked = accounts_of(store, &account.platform, &account.id);
            return Err(said(format!(
                "{} is linked already: {}. `unlink` there first.",
                account.shown(),
                shown_all(&linked)
            )));
        }
    }
    Ok(())
}

/// A new player made of `accounts`, each account taken for it; its id.
fn join(store: &dyn GameStore, accounts: &[Account]) -> Result<String, Refusal> {
    let player = fresh_code()
        .map(|c| format!("p{}", c.to_ascii_lowercase()))
        .ok_or_else(|| said("The link could not be made just now; try again."))?;
    // The player first: a stop before the accounts name it leaves nothing linked. Each account
    // is taken by compare-and-swap, so that two links made at once cannot both take one.
    store.set_note(&home(), &format!("player:{player}"), Some(&json(&accounts)))?;
    let mut taken: Vec<&Account> = Vec::new();
    for account in accounts {
        let name = format!("account:{}", account.key());
        if !store.swap_note(&home(), &name, None, Some(&player))? {
            for undo in taken {
                store.set_note(&home(), &format!("account:{}", undo.key()), None)?;
            }
            store.set_note(&home(), &format!("player:{player}"), None)?;
            return Err(said(format!(
                "{} was linked by another code just now; `whoami` shows how.",
                account.shown()
            )));
        }
        taken.push(account);
    }
    Ok(player)
}

/// `unlink`: the requester's accounts are separate again.
fn unlink(core: &Context, req: &Request) -> Result<Replies, Refusal> {
    let store = core.base.as_ref();
    let me = Account::of(req);
    let Some(player) = store.note(&home(), &format!("account:{}", me.key()))? else {
        return Err(said(
            "Your account is not linked with another; `link` gives a code to link it.",
        ));
    };
    let accounts = accounts_of(store, &req.platform, &req.user.id);
    for account in &accounts {
        store.set_note(&home(), &format!("account:{}", account.key()), None)?;
    }
    store.set_note(&home(), &format!("player:{player}"), None)?;
    count_change(store);
    // A name left behind leads to no player: `named` passes it over.
    if let Err(e) = index_names(store, &player, &accounts, false) {
        tracing::warn!("an unlinked player's names could not be taken out of the index: {e}");
    }
    Ok(private(format!(
        "Unlinked: {} are separate players again.",
        shown_all(&accounts)
    )))
}

/// `whoami`: the requester's account, and those linked with it (whose names are indexed again,
/// should a stop have come before).
fn whoami(core: &Context, req: &Request) -> Replies {
    let store = core.base.as_ref();
    let accounts = accounts_of(store, &req.platform, &req.user.id);
    if accounts.len() > 1
        && let Some(player) = player_of(store, &req.platform, &req.user.id)
        && let Err(e) = index_names(store, &player, &accounts, true)
    {
        tracing::warn!("a linked player's names could not be indexed: {e}");
    }
    let me = Account::of(req);
    let mut text = format!("You are {} (id `{}`).", me.shown(), me.id);
    let others: Vec<String> = accounts
        .iter()
        .filter(|a| a.key() != me.key())
        .map(|a| format!("{} (id `{}`)", a.shown(), a.id))
        .collect();
    if others.is_empty() {
        text.push_str(" Not linked with an account on another platform; `link` gives a code.");
    } else {
        text.push_str(&format!(" Linked with {}.", others.join(" and ")));
    }
    private(text)
}

/// Each account shown, joined with `and`.
fn shown_all(accounts: &[Account]) -> String {
    accounts
        .iter()
        .map(Account::shown)
        .collect::<Vec<_>>()
        .join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_of_the_alphabet_and_read_back_forgivingly() {
        let code = fresh_code().unwrap();
        assert_eq!(code.len(), 8);
        assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        assert_ne!(code, fresh_code().unwrap(), "40 random bits each");
        assert_eq!(normal("abcd-efgh").as_deref(), Some("ABCDEFGH"));
        assert_eq!(normal("0Il1 2345").as_deref(), Some("01112345"));
        assert_eq!(normal("ABCD-EFG"), None);
        assert_eq!(normal("ABCD-EFGU"), None, "no U in the alphabet");
    }

    #[test]
    fn the_words_are_read() {
        assert_eq!(parse("link", &[]), Some(Ok(LinkCommand::Issue)));
        assert_eq!(
            parse("link", &["ABCD-EFGH"]),
            Some(Ok(LinkCommand::Redeem("ABCD-EFGH".into())))
        );
        assert_eq!(
            parse("link", &["ABCD", "EFGH"]),
            Some(Ok(LinkCommand::Redeem("ABCDEFGH".into())))
        );
        assert!(matches!(parse("link", &["a", "b", "c"]), Some(Err(_))));
        assert_eq!(parse("whoami", &[]), Some(Ok(LinkCommand::WhoAmI)));
        assert!(matches!(parse("unlink", &["x"]), Some(Err(_))));
        assert_eq!(parse("board", &[]), None);
    }
}

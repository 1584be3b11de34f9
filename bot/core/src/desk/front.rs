//! The front desk itself: [`Core`], the one type adapters hold. It owns every entry point —
//! a request ([`Core::handle`], [`Core::handle_message`], [`Core::command_in`],
//! [`Core::handle_once`], [`Core::handle_unmet`]), the scheduler's ([`Core::fire_due`] and the
//! rest of `upkeep`), the bot as a player (`bot_player`) and what the pages and an adapter's
//! completion ask (`asks`) — and is over one [`Context`], which it hands to the capabilities.
//! Their follow-ups plug into it ([`super::follow`]); the desk names none of them.
//!
//! Everything the context holds (the store, the clock, the surfaces, the communities, the web's
//! address) is read through the desk, which dereferences to it.

use std::ops::Deref;
use std::sync::Arc;

use crate::kernel::clock::Clock;
use crate::kernel::context::Context;
use crate::kernel::outbox::TimePolicy;
use crate::kernel::store::{GameStore, Staged};
use crate::kernel::surface::Surface;

/// The front desk, shared by every adapter.
pub struct Core {
    cx: Context,
}

impl Deref for Core {
    type Target = Context;

    fn deref(&self) -> &Context {
        &self.cx
    }
}

impl Core {
    /// A desk over `store`, with `prefix` for text commands (`!`), on the system's clock.
    pub fn new(store: Arc<dyn GameStore>, prefix: &str) -> Core {
        Core {
            cx: Context::new(store, prefix),
        }
    }

    /// A desk over `store`, with `prefix` for text commands, reading the time from `clock`.
    pub fn with_clock(store: Arc<dyn GameStore>, prefix: &str, clock: Arc<dyn Clock>) -> Core {
        Core {
            cx: Context::with_clock(store, prefix, clock),
        }
    }

    /// This desk keeping time by `policy` (default controls, vacation allowance).
    pub fn with_time_policy(self, policy: TimePolicy) -> Core {
        Core {
            cx: self.cx.with_time_policy(policy),
        }
    }

    /// A desk like this one with another command prefix (a room's own), sharing everything
    /// else.
    pub fn with_prefix(&self, prefix: &str) -> Core {
        Core {
            cx: self.cx.with_prefix(prefix),
        }
    }

    /// This desk with `surface` (see [`Context::add_surface`]).
    pub fn with_surface(self, surface: Arc<dyn Surface>) -> Core {
        Core {
            cx: self.cx.with_surface(surface),
        }
    }

    /// A scratch desk for one request, working over `staged`.
    pub(crate) fn staged_over(&self, staged: &Arc<Staged>) -> Core {
        Core {
            cx: self.cx.staged_over(staged),
        }
    }

    /// The context the desk hands to the capabilities.
    pub fn context(&self) -> &Context {
        &self.cx
    }
}

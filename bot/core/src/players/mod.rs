//! Players' settings: each player's own choices, kept per platform — how and when he is reminded
//! and his vacation ([`profile`]), and how he likes his boards drawn ([`appearance`]), which
//! styles every board the core sends; and his accounts on other platforms ([`links`]).

pub mod appearance;
pub mod links;
pub mod profile;

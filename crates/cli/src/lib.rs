//! `chaff-cli`: the `chaff` command, and the parts of it the research harness (`chaff-lab`)
//! shares, so that each flag is defined once: the flags that configure methods and outputs
//! ([`flags`]), inputs, progress and exit status ([`common`]), and the crawl command
//! ([`crawl`]).
//!
//! What it must not know: how methods learn or extract (the `chaff` facade does), data sets
//! and evaluation (the research harness does).

/// A command-line choice mirroring a library enum variant for variant: the `clap` value
/// enum (each variant's doc comment is its help) and its conversion, declared once.
macro_rules! value_enum {
    ($(#[$m:meta])* $vis:vis enum $name:ident => $lib:path {
        $($(#[$vm:meta])* $v:ident,)*
    }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
        $vis enum $name { $($(#[$vm])* $v,)* }

        impl From<$name> for $lib {
            fn from(a: $name) -> $lib {
                match a { $($name::$v => <$lib>::$v,)* }
            }
        }
    };
}

pub mod common;
pub mod crawl;
pub mod fetch;
pub mod flags;

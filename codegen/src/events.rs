//! The event log's opt-in ([`crate::Options::events`]): each model's table as an associated function of its struct.

use sit_runtime::events::{Read, Site, Table, Watch, WatchKind};
use std::fmt::Write as _;

/// `impl NAME { pub fn event_table() -> Table }` for the model `name` as the root.
pub(crate) fn table_impl(name: &str, t: &Table) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "\nimpl {name} {{\n    \
         /// The event log of this model as the root: wrap an instance with\n    \
         /// `sit_runtime::events::Logged::new({name}::new(), {name}::event_table())`.\n    \
         pub fn event_table() -> ::sit_runtime::events::Table {{\n        \
         ::sit_runtime::events::Table {{\n            watches: vec![\n"
    );
    for w in &t.watches {
        let _ = writeln!(s, "                {},", watch(w));
    }
    s.push_str("            ],\n            sites: vec![\n");
    for site in &t.sites {
        let _ = writeln!(s, "                {},", site_code(site));
    }
    let _ = write!(
        s,
        "            ],\n            whys: {},\n        }}\n    }}\n}}\n",
        strings(&t.whys)
    );
    s
}

fn strings(xs: &[String]) -> String {
    let items: Vec<String> = xs.iter().map(|x| format!("{x:?}.into()")).collect();
    format!("vec![{}]", items.join(", "))
}

fn opt(x: &Option<String>) -> String {
    match x {
        Some(x) => format!("Some({x:?}.into())"),
        None => "None".into(),
    }
}

fn watch(w: &Watch) -> String {
    let kind = match w.kind {
        WatchKind::Flag => "Flag",
        WatchKind::Cond => "Cond",
        WatchKind::Event => "Event",
        WatchKind::Mode => "Mode",
        WatchKind::On => "On",
        WatchKind::Reset => "Reset",
        WatchKind::Newton => "Newton",
    };
    let reads: Vec<String> = w.reads.iter().map(read).collect();
    format!(
        "::sit_runtime::events::Watch {{ name: {:?}.into(), kind: ::sit_runtime::events::WatchKind::{kind}, \
         why: {}, reads: vec![{}], states: {}, decl: {:?}, within: {} }}",
        w.name,
        opt(&w.why),
        reads.join(", "),
        strings(&w.states),
        w.decl,
        strings(&w.within)
    )
}

fn read(r: &Read) -> String {
    format!(
        "::sit_runtime::events::Read {{ name: {:?}.into(), why: {}, order: {} }}",
        r.name,
        opt(&r.why),
        r.order
    )
}

fn site_code(site: &Site) -> String {
    let reads: Vec<String> = (site.reads.iter())
        .map(|r| {
            format!(
                "::sit_runtime::events::GuardRead {{ name: {:?}.into(), copy: {:?}.into() }}",
                r.name, r.copy
            )
        })
        .collect();
    format!(
        "::sit_runtime::events::Site {{ location: {:?}.into(), text: {:?}.into(), guards: {}, \
         reads: vec![{}] }}",
        site.location,
        site.text,
        strings(&site.guards),
        reads.join(", ")
    )
}

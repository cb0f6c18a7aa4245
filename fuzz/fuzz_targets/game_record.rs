//! A game record, as `strategikon replay` and the server's store read it: its rule set
//! replays it, checking every recorded state hash, and the replayed game answers questions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strategikon_fuzz::{registry, within};
use tabletop::{Record, Side, Viewer};

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<Record>(data) else { return };
    let Some(rules) = registry().get(&record.ruleset) else { return };
    let Some(Ok(game)) = within(2.0, || rules.replay(&record)) else { return };
    let _ = within(1.0, || {
        let _ = game.view_text(Viewer::Umpire);
        let _ = game.controls(Side::Blue);
        let _ = game.log();
        let _ = game.summary();
    });
});

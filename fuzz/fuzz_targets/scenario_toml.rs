//! A scenario file, as uploaded: each rule set checks it and, if it is good, starts a game
//! and answers a side's first questions (its menus, its view, its roster).
#![no_main]

use libfuzzer_sys::fuzz_target;
use strategikon_fuzz::{registry, text, within};
use tabletop::{Side, Source, Viewer};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    for rules in registry().all() {
        let source = Source::new("upload.toml", text);
        let _ = within(1.0, || rules.validate(&source));
        let Some(Ok(game)) = within(1.0, || rules.new_game(source.clone(), 1)) else { continue };
        let _ = within(1.0, || {
            let _ = game.controls(Side::Red);
            let _ = game.view_text(Viewer::Side(Side::Blue));
            let _ = game.roster(Viewer::Spectator);
            let _ = game.scene(Viewer::Spectator);
        });
    }
});

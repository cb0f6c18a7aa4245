//! The battle report: one self-contained HTML file with the narrated log (every roll with its
//! rule ID), the table drawn at the start, at the start of every turn and at the end, a
//! summary of losses and morale, and the game record.

use crate::play::Watch;
use std::fmt::Write as _;
use tabletop::host::HostedGame;
use tabletop::render::{Scene, to_svg};
use tabletop::rules::{LogLine, Summary};
use tabletop::{Record, Side, Viewer};

/// One stretch of the battle: the table as it stood when it began, then what happened.
struct Chapter {
    title: String,
    commands: usize,
    svg: Option<String>,
    lines: Vec<LogLine>,
}

/// Watches a battle: prints the log as it happens (if asked) and gathers the report.
pub struct Reporter {
    echo: bool,
    boards: bool,
    viewer: Viewer,
    chapters: Vec<Chapter>,
    last_turn: Option<u32>,
    turns_known: bool,
    pieces_start: [usize; 2],
    first_title: String,
}

/// How many pieces of each side a scene draws.
pub fn pieces(scene: &Scene) -> [usize; 2] {
    Side::BOTH.map(|s| scene.pieces.iter().filter(|p| p.side == Some(s)).count())
}

/// The scene as SVG for inlining in HTML: without an XML declaration, and with its element
/// IDs made unique to this board so several boards can share one page.
fn inline_svg(scene: &Scene, board: usize) -> String {
    let svg = to_svg(scene);
    let svg = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg.as_str(),
    };
    svg.replace("stk-", &format!("stk{board}-"))
}

impl Reporter {
    /// A reporter that prints the log if `echo` and draws boards if `boards`, as `viewer` sees
    /// the table (a side sees its own hidden orders only).
    pub fn new(echo: bool, boards: bool, viewer: Viewer) -> Reporter {
        Reporter {
            echo,
            boards,
            viewer,
            chapters: Vec::new(),
            last_turn: None,
            turns_known: false,
            pieces_start: [0, 0],
            first_title: String::new(),
        }
    }

    fn board(&self, game: &dyn HostedGame) -> Option<String> {
        self.boards.then(|| inline_svg(&game.scene(self.viewer), self.chapters.len()))
    }

    fn print(&self, lines: &[LogLine]) {
        if self.echo {
            for l in lines {
                println!("{}", l.text);
            }
        }
    }

    /// Writes the report for the game as it stands at the end.
    pub fn finish(mut self, game: &dyn HostedGame, meta: &Meta) -> String {
        let end_scene = game.scene(self.viewer);
        let pieces_end = pieces(&end_scene);
        let n = self.chapters.len();
        self.chapters.push(Chapter {
            title: "The end of the battle".into(),
            commands: game.command_count(),
            svg: self.boards.then(|| inline_svg(&end_scene, n)),
            lines: vec![],
        });
        html(&self, game, meta, pieces_end)
    }
}

impl Watch for Reporter {
    fn started(&mut self, game: &dyn HostedGame) {
        let lines = game.log();
        self.print(&lines);
        self.last_turn = game.turn();
        self.turns_known = self.last_turn.is_some();
        let scene = game.scene(self.viewer);
        self.pieces_start = pieces(&scene);
        self.first_title = scene.title;
        let title = match self.last_turn {
            Some(t) => format!("Deployment (turn {t})"),
            None => "Deployment".into(),
        };
        let svg = self.board(game);
        self.chapters.push(Chapter { title, commands: 0, svg, lines });
    }

    fn after(&mut self, game: &dyn HostedGame, lines: &[LogLine]) {
        self.print(lines);
        if let Some(c) = self.chapters.last_mut() {
            c.lines.extend_from_slice(lines);
        }
        if !self.boards || !self.turns_known {
            return;
        }
        let turn = game.turn();
        if turn != self.last_turn {
            self.last_turn = turn;
            let title = match turn {
                Some(t) => format!("Turn {t}"),
                None => "After the last turn".into(),
            };
            let svg = self.board(game);
            self.chapters.push(Chapter {
                title,
                commands: game.command_count(),
                svg,
                lines: vec![],
            });
        }
    }
}

/// What the report says about how the battle was set up and ended.
pub struct Meta {
    /// The scenario's file.
    pub scenario: String,
    /// The bots, red first, described.
    pub bots: [String; 2],
    /// The bots as the user named them, red first.
    pub specs: [String; 2],
    /// The seed.
    pub seed: u64,
    /// The result line.
    pub result: String,
    /// The record, embedded for replay.
    pub record: Record,
}

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn log_line(out: &mut String, line: &LogLine) {
    let prefix: String = line.rules.iter().map(|r| format!("[{r}]")).collect();
    match line.text.strip_prefix(&prefix) {
        Some(rest) if !prefix.is_empty() => {
            let _ =
                writeln!(out, "<li><span class=\"rule\">{}</span>{}</li>", esc(&prefix), esc(rest));
        }
        _ => {
            let _ = writeln!(out, "<li>{}</li>", esc(&line.text));
        }
    }
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{x:.0}") } else { format!("{x:.2}") }
}

fn summary_table(out: &mut String, summary: &Summary, start: [usize; 2], end: [usize; 2]) {
    let mut names: Vec<String> = Vec::new();
    for s in &summary.sides {
        for (name, _) in s.figures() {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    out.push_str("<table class=\"summary\"><tr><th></th><th>red</th><th>blue</th></tr>\n");
    for name in &names {
        let cell = |side: Side| {
            summary
                .side(side)
                .and_then(|s| s.figures().into_iter().find(|(n, _)| n == name))
                .map(|(_, v)| fmt_num(v))
                .unwrap_or_else(|| "–".into())
        };
        let _ = writeln!(
            out,
            "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
            esc(&name.replace('_', " ")),
            cell(Side::Red),
            cell(Side::Blue)
        );
    }
    let _ = writeln!(
        out,
        "<tr><th>pieces on the table, start → end</th><td>{} → {}</td><td>{} → {}</td></tr>",
        start[0], end[0], start[1], end[1]
    );
    out.push_str("</table>\n");
    if summary.is_empty() {
        out.push_str(
            "<p class=\"note\">This rule set does not yet count losses or army morale for \
             reports; the pieces drawn on the table are counted instead.</p>\n",
        );
    }
}

const STYLE: &str = "body{font-family:Georgia,'DejaVu Serif',serif;max-width:1100px;margin:2em auto;\
padding:0 1em;color:#222;background:#fbf8f0}h1{margin-bottom:.2em}.meta{color:#555}\
table.summary{border-collapse:collapse;margin:1em 0}table.summary th,table.summary td{border:1px solid #bbb;\
padding:.3em .8em;text-align:left}.board svg{max-width:100%;height:auto;border:1px solid #ccc;background:#fff}\
ol.log{font-family:'DejaVu Sans Mono',monospace;font-size:.85em;line-height:1.4}\
.rule{color:#7a2e0e;font-weight:bold;margin-right:.4em}.note{color:#666;font-style:italic}\
nav a{margin-right:.8em}section{margin-top:2em;border-top:2px solid #d8cfb8}";

fn html(r: &Reporter, game: &dyn HostedGame, meta: &Meta, pieces_end: [usize; 2]) -> String {
    let mut out = String::new();
    let title = format!("{} — battle report", meta.record.scenario_name);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <style>{STYLE}</style></head><body>\n",
        esc(&title)
    );
    let _ = writeln!(out, "<h1>Battle report: {}</h1>", esc(&meta.scenario));
    if !r.first_title.is_empty() {
        let _ = writeln!(out, "<p><i>{}</i></p>", esc(&r.first_title));
    }
    let _ = writeln!(
        out,
        "<p class=\"meta\">Rule set <b>{} {}</b> · seed {} · red: {} · blue: {} · {} commands{}</p>",
        esc(&meta.record.ruleset),
        esc(&meta.record.version),
        meta.seed,
        esc(&meta.bots[0]),
        esc(&meta.bots[1]),
        game.command_count(),
        game.turn().map(|t| format!(" · turn {t}")).unwrap_or_default()
    );
    let _ = writeln!(out, "<p><b>{}</b></p>", esc(&meta.result));
    let _ = writeln!(
        out,
        "<p class=\"meta\">Play it again: <code>strategikon battle {} --red {} --blue {} --seed {}</code></p>",
        esc(&meta.scenario),
        esc(&meta.specs[0]),
        esc(&meta.specs[1]),
        meta.seed
    );
    out.push_str("<h2>Losses and morale</h2>\n");
    summary_table(&mut out, &game.summary(), r.pieces_start, pieces_end);
    out.push_str("<nav>");
    for (i, c) in r.chapters.iter().enumerate() {
        let _ = write!(out, "<a href=\"#ch{i}\">{}</a>", esc(&c.title));
    }
    out.push_str("</nav>\n");
    if !r.turns_known {
        out.push_str(
            "<p class=\"note\">This rule set does not tell its turns: the table is drawn at the \
             start and at the end only.</p>\n",
        );
    }
    for (i, c) in r.chapters.iter().enumerate() {
        let _ = writeln!(
            out,
            "<section id=\"ch{i}\"><h2>{}</h2><p class=\"meta\">after {} commands</p>",
            esc(&c.title),
            c.commands
        );
        if let Some(svg) = &c.svg {
            let _ = writeln!(out, "<div class=\"board\">{svg}</div>");
        }
        if !c.lines.is_empty() {
            out.push_str("<ol class=\"log\">\n");
            for l in &c.lines {
                log_line(&mut out, l);
            }
            out.push_str("</ol>\n");
        }
        out.push_str("</section>\n");
    }
    let record = serde_json::to_string(&meta.record).unwrap_or_default().replace('<', "\\u003c");
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"record\">{record}</script>\n</body></html>"
    );
    out
}

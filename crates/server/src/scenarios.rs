//! The ready-to-play scenarios, `scenarios/<ruleset>/<name>.toml`: embedded in the binary so
//! that the server stands alone, or read from a folder.

use rust_embed::RustEmbed;
use std::path::Path;

#[derive(RustEmbed)]
#[folder = "../../scenarios/"]
struct Embedded;

/// One ready scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadyScenario {
    /// The rule set's ID (the folder it lives in).
    pub ruleset: String,
    /// Its name: the file name without `.toml`.
    pub name: String,
    /// The first line of its leading comment, for menus.
    pub about: String,
    /// The file's text.
    pub text: String,
}

impl ReadyScenario {
    /// The name its diagnostics and records give it: `scenarios/<ruleset>/<name>.toml`.
    pub fn file_name(&self) -> String {
        format!("scenarios/{}/{}.toml", self.ruleset, self.name)
    }
}

/// The ready scenarios, ordered by rule set and name.
#[derive(Clone, Debug, Default)]
pub struct Scenarios {
    list: Vec<ReadyScenario>,
}

impl Scenarios {
    /// The scenarios built into the binary (the repository's `scenarios/` folder).
    pub fn embedded() -> Scenarios {
        let mut list = Vec::new();
        for path in Embedded::iter() {
            if let Some(file) = Embedded::get(&path)
                && let Ok(text) = std::str::from_utf8(&file.data)
                && let Some(s) = ready(&path, text)
            {
                list.push(s);
            }
        }
        Scenarios::from_list(list)
    }

    /// The scenarios in `dir/<ruleset>/<name>.toml`.
    pub fn from_dir(dir: &Path) -> std::io::Result<Scenarios> {
        let mut list = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if !entry.file_type()?.is_dir() {
                continue;
            }
            let ruleset = entry.file_name().to_string_lossy().into_owned();
            for file in std::fs::read_dir(entry.path())? {
                let file = file?;
                let name = file.file_name().to_string_lossy().into_owned();
                if !file.file_type()?.is_file() || !name.ends_with(".toml") {
                    continue;
                }
                let text = std::fs::read_to_string(file.path())?;
                if let Some(s) = ready(&format!("{ruleset}/{name}"), &text) {
                    list.push(s);
                }
            }
        }
        Ok(Scenarios::from_list(list))
    }

    fn from_list(mut list: Vec<ReadyScenario>) -> Scenarios {
        list.sort_by(|a, b| (&a.ruleset, &a.name).cmp(&(&b.ruleset, &b.name)));
        Scenarios { list }
    }

    /// The scenarios of one rule set.
    pub fn of(&self, ruleset: &str) -> impl Iterator<Item = &ReadyScenario> {
        self.list.iter().filter(move |s| s.ruleset == ruleset)
    }

    /// The scenario `name` of `ruleset`.
    pub fn get(&self, ruleset: &str, name: &str) -> Option<&ReadyScenario> {
        self.of(ruleset).find(|s| s.name == name)
    }

    /// Every scenario.
    pub fn all(&self) -> &[ReadyScenario] {
        &self.list
    }
}

/// A scenario at `<ruleset>/<name>.toml`; anything else (referee questions, READMEs, deeper
/// folders) is not one.
fn ready(path: &str, text: &str) -> Option<ReadyScenario> {
    let (ruleset, file) = path.split_once('/')?;
    let name = file.strip_suffix(".toml")?;
    if name.contains('/') || name.is_empty() {
        return None;
    }
    let about = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix('#'))
        .map(|l| l.trim().to_string())
        .unwrap_or_default();
    Some(ReadyScenario {
        ruleset: ruleset.to_string(),
        name: name.to_string(),
        about,
        text: text.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_scenarios_are_embedded() {
        let s = Scenarios::embedded();
        let open = s.get("othw", "open_field").expect("othw/open_field is embedded");
        assert!(open.text.contains("ruleset = \"othw\""));
        assert_eq!(open.file_name(), "scenarios/othw/open_field.toml");
        assert!(open.about.starts_with("Open field"), "{}", open.about);
        assert!(s.get("movement", "ford").is_some());
        assert!(s.get("wrg1969", "the_hill").is_some());
        // Referee questions and READMEs are not scenarios.
        assert!(s.all().iter().all(|x| !x.name.contains('/')));
        let on_disk =
            Scenarios::from_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"))
                .unwrap();
        assert_eq!(on_disk.all(), s.all());
    }
}

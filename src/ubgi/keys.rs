//! The engine's settable keys, as announced in the handshake.

use crate::quoted::Quoted;

/// A key as the handshake lists it.
pub struct Key {
    pub name: &'static str,
    /// The `key` line after the name: type, default and range.
    pub spec: &'static str,
}

impl Key {
    pub fn line(&self) -> String {
        format!("key {} {}", self.name, self.spec)
    }
}

pub const KEYS: [Key; 5] = [
    Key {
        name: "engine.ply",
        spec: "int default 1 min 1 max 4",
    },
    Key {
        name: "engine.cubeful",
        spec: "bool default true",
    },
    Key {
        name: "engine.prune",
        spec: "int default 4 min 0 max 64",
    },
    Key {
        name: "engine.preselect",
        spec: "enum default network values pubeval network",
    },
    Key {
        name: "game.variant",
        spec: "enum default backgammon values backgammon",
    },
];

/// The keys' present values.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Root-inclusive: 1 = the static evaluation (gnubg's 0-ply).
    pub ply: u8,
    /// Cubeful checker play (the cube state from the Match ID), or cubeless
    /// money equity.
    pub cubeful: bool,
    /// Replies pre-selected inside the search tree (0 = the network sees
    /// every reply): see `Searcher::with_prune`. Unset, the pre-selector's
    /// own width, so that `set engine.preselect pubeval` alone keeps the 8
    /// PubEval was measured with rather than the network's 4.
    pub prune: Option<usize>,
    /// What pre-selects them: see `Searcher::with_preselector`.
    pub preselect: crate::search::Preselector,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ply: 1,
            cubeful: true,
            prune: None,
            preselect: crate::search::DEFAULT_PRESELECTOR,
        }
    }
}

impl Settings {
    /// The replies kept inside the tree: `engine.prune` where set, else
    /// the pre-selector's own width.
    pub fn prune(&self) -> usize {
        self.preselect.keep(self.prune)
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "engine.ply" => {
                self.ply = value
                    .parse::<u8>()
                    .ok()
                    .filter(|p| (1..=4).contains(p))
                    .ok_or_else(|| format!("engine.ply {}: an integer 1 to 4", Quoted(value)))?;
            }
            "engine.cubeful" => {
                self.cubeful = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(format!("engine.cubeful {}: true or false", Quoted(value))),
                };
            }
            "engine.prune" => {
                self.prune = Some(
                    value
                        .parse::<usize>()
                        .ok()
                        .filter(|k| *k <= 64)
                        .ok_or_else(|| {
                            format!("engine.prune {}: an integer 0 to 64", Quoted(value))
                        })?,
                );
            }
            "engine.preselect" => {
                self.preselect = value
                    .parse()
                    .map_err(|why| format!("engine.preselect {why}"))?;
            }
            "game.variant" => {
                if value != "backgammon" {
                    return Err(format!(
                        "game.variant {}: only backgammon here",
                        Quoted(value)
                    ));
                }
            }
            _ => return Err(format!("unknown key {key}")),
        }
        Ok(())
    }

    pub fn get(&self, key: &str) -> Result<String, String> {
        match key {
            "engine.ply" => Ok(self.ply.to_string()),
            "engine.cubeful" => Ok(self.cubeful.to_string()),
            "engine.prune" => Ok(self.prune().to_string()),
            "engine.preselect" => Ok(self.preselect.to_string()),
            "game.variant" => Ok("backgammon".into()),
            _ => Err(format!("unknown key {key}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The handshake's defaults are literals; each must be what `get`
    /// answers before any `set`, or a driver would be told one default and
    /// searched with another.
    #[test]
    fn every_announced_default_is_the_settings_own() {
        let settings = Settings::default();
        for key in KEYS {
            let announced = key
                .spec
                .split_whitespace()
                .skip_while(|w| *w != "default")
                .nth(1)
                .expect("a default in every spec");
            assert_eq!(settings.get(key.name).unwrap(), announced, "{}", key.name);
        }
    }
}

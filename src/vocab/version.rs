//! Harness releases: a harness's rules can change from one release to the next, so where they
//! did, a hook is read by the rules of the release the user runs (`harnessVersions`,
//! `--harness-version`), by default the newest release hookrt follows.

use crate::vocab::Dialect;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;

/// A release number, `major.minor.patch` (missing parts are 0; a `-pre`/`+build` tail is
/// ignored, so a pre-release counts as its release).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    pub const fn new(major: u32, minor: u32, patch: u32) -> Self {
        Version { major, minor, patch }
    }

    /// Parses `1`, `1.2`, `1.2.3`, `v1.2.3`, `1.2.3-rc.1`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let core = t.split(['-', '+']).next()?;
        let mut parts = core.split('.');
        let mut next = |required: bool| match parts.next() {
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse::<u32>().ok(),
            None if !required => Some(0),
            _ => None,
        };
        let v = Version { major: next(true)?, minor: next(false)?, patch: next(false)? };
        parts.next().is_none().then_some(v)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// One rule of a harness that changed: from which release it holds, and what it is (the
/// harness page's "changed in" table is made of these).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Change {
    pub(crate) since: Version,
    pub(crate) what: &'static str,
}

/// What hookrt knows of a harness's releases.
#[derive(Debug)]
pub(crate) struct Releases {
    /// The newest release whose rules hookrt follows: the default.
    pub(crate) newest: Version,
    /// The release the kit records and the recordings replay.
    pub(crate) recorded: Version,
    /// Rules that changed, oldest first.
    pub(crate) changes: &'static [Change],
}

impl Releases {
    /// The changes a file read by `version`'s rules goes without.
    pub(crate) fn not_applied(&self, version: Version) -> impl Iterator<Item = &'static Change> {
        self.changes.iter().filter(move |c| c.since > version)
    }

    /// The harness page's "Changed in" table (markdown), one row per change.
    #[cfg(test)]
    pub(crate) fn table(&self) -> String {
        let mut t = format!(
            "Rules follow {} unless `harnessVersions` / `--harness-version` names another release; the kit records {}.\n\n| from | what changed |\n|---|---|\n",
            self.newest, self.recorded
        );
        for c in self.changes {
            t.push_str(&format!("| {} | {} |\n", c.since, c.what.split_whitespace().collect::<Vec<_>>().join(" ")));
        }
        t
    }
}

/// The release of each harness whose rules hold, where the host named one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HarnessVersions(pub Vec<(Dialect, Version)>);

impl HarnessVersions {
    /// The named release of `d`, if any.
    pub fn of(&self, d: Dialect) -> Option<Version> {
        self.0.iter().rev().find(|(h, _)| *h == d).map(|(_, v)| *v)
    }

    /// Reads `harness=version` (`--harness-version hermes=0.19.0`).
    pub fn parse_pair(text: &str) -> Result<(Dialect, Version), String> {
        let (name, version) = text.split_once('=').ok_or_else(|| format!("{text}: expected <harness>=<version>"))?;
        let d = Dialect::parse(name.trim()).ok_or_else(|| format!("{text}: unknown harness {}", name.trim()))?;
        let v = Version::parse(version).ok_or_else(|| format!("{text}: {version} is not a release number"))?;
        Ok((d, v))
    }
}

impl<'de> Deserialize<'de> for HarnessVersions {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let raw = BTreeMap::<String, String>::deserialize(de)?;
        let mut out = Vec::new();
        for (name, version) in raw {
            out.push(Self::parse_pair(&format!("{name}={version}")).map_err(serde::de::Error::custom)?);
        }
        Ok(HarnessVersions(out))
    }
}

impl schemars::JsonSchema for HarnessVersions {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HarnessVersions".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        BTreeMap::<String, String>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_and_order() {
        assert_eq!(Version::parse("0.20.1"), Some(Version::new(0, 20, 1)));
        assert_eq!(Version::parse("v1.2"), Some(Version::new(1, 2, 0)));
        assert_eq!(Version::parse("2.1.0-rc.3"), Some(Version::new(2, 1, 0)));
        for bad in ["", "x", "1..2", "1.2.3.4", "1.-2", "=1"] {
            assert_eq!(Version::parse(bad), None, "{bad}");
        }
        assert!(Version::new(0, 19, 0) < Version::new(0, 20, 1));
        assert!(Version::new(0, 20, 10) > Version::new(0, 20, 9));
        assert_eq!(Version::new(0, 21, 0).to_string(), "0.21.0");
    }

    #[test]
    fn a_pair_names_a_known_harness_and_a_release() {
        assert_eq!(HarnessVersions::parse_pair("hermes=0.19.0"), Ok((Dialect::Hermes, Version::new(0, 19, 0))));
        assert!(HarnessVersions::parse_pair("hermes").unwrap_err().contains("expected"));
        assert!(HarnessVersions::parse_pair("nope=1.0").unwrap_err().contains("unknown harness"));
        assert!(HarnessVersions::parse_pair("hermes=latest").unwrap_err().contains("not a release"));
    }
}

//! `toml` blocks: they parse, and their dependencies on workspace crates resolve.
//!
//! A dependency on a workspace crate resolves when it names a package of the workspace
//! and either `path` leads to that package's folder (relative to a crate next to the
//! checkout, which is called `sit/`, or to the block's own `file=`), or `git` is the
//! workspace's `repository` with an optional `rev` that is a commit of this repository; a
//! `version` must match the package's, and every feature must be one of the package's.
//! A bare version (`sit-runtime = "0.1"`) does not resolve: the crates are not published.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A workspace package: its folder and features.
struct Package {
    dir: PathBuf,
    version: String,
    features: Vec<String>,
}

/// The workspace's packages by name, and its `repository`.
pub struct Workspace {
    root: PathBuf,
    packages: BTreeMap<String, Package>,
    repository: String,
}

fn table(path: &Path) -> toml::Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl Workspace {
    /// Reads the workspace at `root`.
    pub fn read(root: &Path) -> Workspace {
        let manifest = table(&root.join("Cargo.toml"));
        let ws = &manifest["workspace"];
        let version = ws["package"]["version"].as_str().unwrap().to_string();
        let repository = ws["package"]["repository"].as_str().unwrap().to_string();
        let mut packages = BTreeMap::new();
        for member in ws["members"].as_array().unwrap() {
            let dir = root.join(member.as_str().unwrap());
            let m = table(&dir.join("Cargo.toml"));
            let name = m["package"]["name"].as_str().unwrap().to_string();
            let features = m
                .get("features")
                .and_then(|f| f.as_table())
                .map(|f| f.keys().cloned().collect())
                .unwrap_or_default();
            let version = m["package"]["version"]
                .as_str()
                .map_or(version.clone(), String::from);
            packages.insert(
                name,
                Package {
                    dir,
                    version,
                    features,
                },
            );
        }
        Workspace {
            root: root.to_path_buf(),
            packages,
            repository,
        }
    }

    /// Problems with a `toml` block whose file would be at `manifest` (`None`: a crate
    /// next to the checkout).
    pub fn check(&self, code: &str, manifest: Option<&Path>) -> Vec<String> {
        let doc: toml::Table = match toml::from_str(code) {
            Ok(t) => t,
            Err(e) => return vec![format!("not valid TOML: {e}")],
        };
        let mut problems = Vec::new();
        for section in ["dependencies", "build-dependencies", "dev-dependencies"] {
            let Some(deps) = doc.get(section).and_then(|d| d.as_table()) else {
                continue;
            };
            for (name, spec) in deps {
                let package_name = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
                if let Some(pkg) = self.packages.get(package_name) {
                    for p in self.dependency(pkg, spec, manifest) {
                        problems.push(format!("[{section}] {name}: {p}"));
                    }
                }
            }
        }
        problems
    }

    fn dependency(
        &self,
        pkg: &Package,
        spec: &toml::Value,
        manifest: Option<&Path>,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        let Some(spec) = spec.as_table() else {
            return vec![
                "a bare version does not resolve (the crates are not published): use `git` or `path`"
                    .into(),
            ];
        };
        if let Some(req) = spec.get("version").and_then(|v| v.as_str()) {
            let matches = req
                .trim_start_matches(['^', '='])
                .split('.')
                .zip(pkg.version.split('.'))
                .all(|(a, b)| a == b);
            if !matches {
                problems.push(format!("version `{req}` does not match {}", pkg.version));
            }
        }
        for f in spec
            .get("features")
            .and_then(|f| f.as_array())
            .into_iter()
            .flatten()
        {
            let f = f.as_str().unwrap_or_default();
            if !pkg.features.iter().any(|x| x == f) {
                problems.push(format!(
                    "no feature `{f}` (features: {})",
                    pkg.features.join(", ")
                ));
            }
        }
        match (spec.get("path"), spec.get("git")) {
            (Some(path), None) => {
                let path = Path::new(path.as_str().unwrap_or_default());
                // A crate next to the checkout `sit/`, or where the block is written.
                let base = match manifest {
                    Some(m) => m.parent().unwrap().to_path_buf(),
                    None => self.root.join("../your-crate"),
                };
                let target = if manifest.is_some() {
                    base.join(path)
                } else {
                    // The checkout is `sit/` in the docs; here it is the repository root.
                    let rel: PathBuf = path.components().collect();
                    match rel.strip_prefix("../sit") {
                        Ok(rest) => self.root.join(rest),
                        Err(_) => {
                            problems.push(format!(
                                "path `{}` is not inside a checkout `../sit/`",
                                path.display()
                            ));
                            return problems;
                        }
                    }
                };
                let same = match (target.canonicalize(), pkg.dir.canonicalize()) {
                    (Ok(a), Ok(b)) => a == b,
                    _ => false,
                };
                if !same {
                    problems.push(format!(
                        "path `{}` does not lead to `{}`",
                        path.display(),
                        pkg.dir
                            .strip_prefix(&self.root)
                            .unwrap_or(&pkg.dir)
                            .display()
                    ));
                }
            }
            (None, Some(git)) => {
                let git = git.as_str().unwrap_or_default();
                if git != self.repository {
                    problems.push(format!(
                        "git `{git}` is not the workspace's repository `{}`",
                        self.repository
                    ));
                }
                if let Some(rev) = spec.get("rev").and_then(|r| r.as_str()) {
                    let ok = std::process::Command::new("git")
                        .args(["rev-parse", "--verify", "--quiet"])
                        .arg(format!("{rev}^{{commit}}"))
                        .current_dir(&self.root)
                        .output()
                        .is_ok_and(|o| o.status.success());
                    if !ok {
                        problems.push(format!("rev `{rev}` is not a commit of this repository"));
                    }
                }
            }
            _ => problems.push(
                "needs exactly one of `git` and `path` (the crates are not published)".into(),
            ),
        }
        problems
    }
}

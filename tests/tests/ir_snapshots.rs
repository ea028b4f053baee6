//! Snapshots of the checked IR of every example model (`Program::dump`).

use sit_tests::repo_root;

#[test]
fn ir_of_every_example() {
    let dir = repo_root().join("examples/models");
    let mut files: Vec<_> = walk(&dir);
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let out = sit_middle::check_file(&f).expect("readable");
        assert!(!out.has_errors(), "{}", out.render());
        let dump = out.program.expect("checked").dump();
        let name = f
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace(['/', '\\'], "__")
            .trim_end_matches(".sit")
            .to_string();
        insta::assert_snapshot!(format!("ir__{name}"), dump);
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("examples/models exists") {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "sit") {
            out.push(p);
        }
    }
    out
}

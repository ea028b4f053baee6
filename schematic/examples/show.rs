//! Print a schematic's matrices and generated model (a development aid).
fn main() {
    let path = std::env::args().nth(1).expect("a .sch path");
    let (a, report) = sit_schematic::analyse_file(&path).expect("readable");
    eprint!("{}", report.render());
    if let Some(a) = a {
        print!("{}", a.matrices().to_text());
        print!("{}", a.to_sit(None).text);
        let out = sit_driver::check_file(&path).expect("readable");
        eprint!("{}", out.render());
    }
}

//! A small random network of parts (issue 46): a connector, four components and a
//! ladder of resistors and capacitors joined by `connect`, so that the bit-identity
//! properties cover the flattening of parts and connection sets.

use std::fmt::Write as _;

/// The connector and the components the networks are built from.
const COMPONENTS: &str = "connector NetPin {
    real v;
    flow real i;
}

model NetR {
    param R = 1;
    port p: NetPin;
    port n: NetPin;
    equation p.v - n.v = R * p.i;
    equation p.i + n.i = 0;
}

model NetC {
    param C = 1;
    port p: NetPin;
    port n: NetPin;
    real v = 0;
    equation v = p.v - n.v;
    equation p.i + n.i = 0;
    equation C * der(v) = p.i;
}

model NetSource {
    param V = 1;
    port p: NetPin;
    port n: NetPin;
    equation p.v - n.v = V;
    equation p.i + n.i = 0;
}

model NetGround {
    port p: NetPin;
    equation p.v = 0;
}

";

/// `text` with, for one seed in four (from a random stream of its own), a network of
/// parts: a source and a ground, then 1 to 4 sections, each a resistor in series to a
/// new node and a capacitor from it to ground, sometimes a resistor beside the
/// capacitor, connected in a random order; integrated by euler or rk4.
pub(crate) fn with_network(seed: u64, text: String) -> String {
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x6e65_7477);
    if rng.u8(..4) != 0 {
        return text;
    }
    let method = if rng.bool() { "rk4" } else { "euler" };
    let mut m = String::from("model Network {\n");
    let _ = writeln!(m, "    method {method};");
    let _ = writeln!(
        m,
        "    part src: NetSource(V = {:.3});",
        2.0 * rng.f64() - 1.0
    );
    m.push_str("    part gnd: NetGround;\n");
    let mut connects = vec!["src.n, gnd.p".to_string()];
    let mut node = "src.p".to_string();
    for k in 0..rng.usize(1..=4) {
        let _ = writeln!(m, "    part r{k}: NetR(R = {:.3});", 0.5 + 10.0 * rng.f64());
        let _ = writeln!(m, "    part c{k}: NetC(C = {:.3});", 0.1 + rng.f64());
        connects.push(format!("{node}, r{k}.p"));
        connects.push(format!("r{k}.n, c{k}.p"));
        connects.push(format!("c{k}.n, gnd.p"));
        if rng.bool() {
            let _ = writeln!(m, "    part s{k}: NetR(R = {:.3});", 0.5 + 10.0 * rng.f64());
            connects.push(format!("c{k}.p, s{k}.p"));
            connects.push(format!("s{k}.n, gnd.p"));
        }
        node = format!("r{k}.n");
    }
    rng.shuffle(&mut connects);
    for c in connects {
        // Either side first: a connection has no direction.
        let c = match c.split_once(", ") {
            Some((a, b)) if rng.bool() => format!("{b}, {a}"),
            _ => c,
        };
        let _ = writeln!(m, "    connect({c});");
    }
    m.push_str("}\n\n");
    let at = text.find('\n').map_or(0, |i| i + 1);
    let mut text = text;
    text.insert_str(at, &format!("{COMPONENTS}{m}"));
    text
}

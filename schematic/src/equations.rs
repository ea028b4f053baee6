//! The structural-matrix assembly (digest §5) written out as a readable `.sit` model.
//!
//! For inertia i, elastic/dissipative element j, and the path from j's pole p to i:
//! the kinematic gain K = w_p · Π (u for a gear crossed input→output going from the
//! element to the inertia, 1/u for output→input), the torque gain G = K′ · η^A with K′
//! = K (power-consistent) or K without w_p (as printed), and A the incidence sign. Then
//! `J_i dω_i/dt = Σ A_M M + Σ_j A_ij G_ij (M_y,j + M_d,j)`, `dM_y,j/dt = c_j r_j`,
//! `M_d,j = μ_j r_j` with the deformation rate `r_j = −Σ_i A_ij K_ij ω_i`. Clutches
//! (switching friction) are written by [`crate::clutch`].

use crate::ast::{Form, Kind, Schematic};
use crate::search::{Crossing, Link};
use sit_parser::Span;
use sit_parser::source::SourceFile;
use std::fmt::Write as _;

/// Text copied from the `.sch` file into the generated model, for mapping spans back.
#[derive(Debug, Clone, Copy)]
pub struct Segment {
    /// Byte offset in the generated text.
    pub generated: usize,
    /// Where the same text is in the `.sch` file.
    pub source: Span,
}

/// A generated model with the map of copied text.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The `.sit` text.
    pub text: String,
    /// Copied segments, in order.
    pub segments: Vec<Segment>,
}

/// The name of inertia `J`'s angular velocity in the model.
pub fn speed(name: &str) -> String {
    format!("w_{name}")
}

struct Out<'a> {
    text: String,
    segments: Vec<Segment>,
    file: &'a SourceFile,
}

impl Out<'_> {
    fn copy(&mut self, text: &str, span: Span) {
        self.segments.push(Segment {
            generated: self.text.len(),
            source: span,
        });
        self.text.push_str(text);
    }

    fn at(&self, span: Span) -> String {
        format!(
            "{}:{}",
            self.file.display_name(),
            self.file.line(span.start)
        )
    }
}

/// A product of factors over a product of divisors, as `.sit` text.
fn product(num: &[String], den: &[String]) -> String {
    let mut s = if num.is_empty() {
        "1".to_string()
    } else {
        num.join(" * ")
    };
    for d in den {
        s.push_str(" / ");
        s.push_str(d);
    }
    s
}

/// The kinematic gain K of a link (`with_weight`), or the torque gain G.
fn gain(s: &Schematic, link: &Link, weight: Option<&str>, eta: bool) -> (Vec<String>, Vec<String>) {
    let mut num = Vec::new();
    let mut den = Vec::new();
    if let Some(w) = weight.filter(|w| w.parse::<f64>() != Ok(1.0)) {
        num.push(w.to_string());
    }
    for (g, crossing) in &link.gears {
        let name = &s.elements[*g].name;
        match crossing {
            Crossing::InToOut => num.push(format!("u_{name}")),
            Crossing::OutToIn => den.push(format!("u_{name}")),
        }
    }
    if eta {
        for (g, _) in &link.gears {
            let e = format!("eta_{}", s.elements[*g].name);
            if link.sign > 0 {
                num.push(e);
            } else {
                den.push(e);
            }
        }
    }
    (num, den)
}

/// The deformation rate of element `j` as `.sit` text: `−Σ A K ω`.
pub fn rate(s: &Schematic, links: &[Link], weights: &[Vec<String>], j: usize) -> String {
    let mut out = String::new();
    for l in links_of(links, j) {
        let (num, den) = kinematic_gain(s, l, weights);
        let term = scaled(&num, &den, &speed(&s.elements[l.inertia].name));
        push_term(&mut out, term, l.sign < 0);
    }
    if out.is_empty() { "0".into() } else { out }
}

/// The moment carried by element `j` in the moment balances: `My_j + Md0_j`, `My_j`,
/// `Md0_j` or a clutch's `M_j`, where `Md0_j` is the dissipative moment at the speeds the
/// balances start from (see [`emit`]).
fn moment(s: &Schematic, j: usize) -> String {
    let n = &s.elements[j].name;
    match s.elements[j].kind {
        Kind::SpringDamper => format!("(My_{n} + Md0_{n})"),
        Kind::Spring => format!("My_{n}"),
        Kind::Clutch => format!("M_{n}"),
        _ => format!("Md0_{n}"),
    }
}

/// The links of element `j` (the search records them element by element, in order).
pub(crate) fn links_of(links: &[Link], j: usize) -> &[Link] {
    let start = links.partition_point(|l| l.element < j);
    let end = links.partition_point(|l| l.element <= j);
    &links[start..end]
}

/// Append `t` to a sum, with its sign.
pub(crate) fn push_term(terms: &mut String, t: String, plus: bool) {
    if terms.is_empty() {
        if !plus {
            terms.push('-');
        }
    } else {
        terms.push_str(if plus { " + " } else { " - " });
    }
    terms.push_str(&t);
}

/// `G · (moment of the link's element)` and whether it adds (A = +1) to the inertia's
/// balance.
pub(crate) fn torque_term(
    s: &Schematic,
    l: &Link,
    weights: &[Vec<String>],
    form: Form,
) -> (String, bool) {
    let (num, den) = torque_gain(s, l, weights, form);
    let m = moment(s, l.element);
    (scaled(&num, &den, &m), l.sign > 0)
}

/// The factors of a link's torque gain G.
pub(crate) fn torque_gain(
    s: &Schematic,
    l: &Link,
    weights: &[Vec<String>],
    form: Form,
) -> (Vec<String>, Vec<String>) {
    let w = match form {
        Form::PowerConsistent => Some(weights[l.element][l.pole].as_str()),
        Form::Printed => None,
    };
    gain(s, l, w, true)
}

/// The factors of a link's kinematic gain K.
pub(crate) fn kinematic_gain(
    s: &Schematic,
    l: &Link,
    weights: &[Vec<String>],
) -> (Vec<String>, Vec<String>) {
    gain(s, l, Some(&weights[l.element][l.pole]), false)
}

/// `num · x / den` as `.sit` text.
pub(crate) fn scaled(num: &[String], den: &[String], x: &str) -> String {
    if num.is_empty() && den.is_empty() {
        x.to_string()
    } else if num.is_empty() {
        format!("{x}{}", product(&[], den).trim_start_matches('1'))
    } else {
        format!(
            "{} * {x}{}",
            num.join(" * "),
            product(&[], den).trim_start_matches('1')
        )
    }
}

/// Write the model. `weights[j][p]` is the weight text of element j's pole p.
pub fn emit(
    s: &Schematic,
    links: &[Link],
    weights: &[Vec<String>],
    form: Form,
    file: &SourceFile,
) -> Generated {
    let mut o = Out {
        text: String::new(),
        segments: Vec::new(),
        file,
    };
    for line in &s.doc {
        let _ = writeln!(
            o.text,
            "///{}{line}",
            if line.is_empty() { "" } else { " " }
        );
    }
    if !s.doc.is_empty() {
        o.text.push_str("///\n");
    }
    let _ = writeln!(
        o.text,
        "/// Generated by sit-schematic from `{}` ({} torque form).",
        file.display_name(),
        match form {
            Form::PowerConsistent => "power-consistent",
            Form::Printed => "as-printed",
        }
    );
    let _ = writeln!(o.text, "model {} {{", s.name);
    o.text.push_str("    // Parameters of the elements.\n");
    for el in &s.elements {
        let prefix: &[(&str, String)] = &match el.kind {
            Kind::Inertia => vec![("J", el.name.clone())],
            Kind::Spring => vec![("c", format!("c_{}", el.name))],
            Kind::Damper => vec![("mu", format!("mu_{}", el.name))],
            Kind::SpringDamper => vec![
                ("c", format!("c_{}", el.name)),
                ("mu", format!("mu_{}", el.name)),
            ],
            Kind::Gear => vec![
                ("u", format!("u_{}", el.name)),
                ("eta", format!("eta_{}", el.name)),
            ],
            Kind::Clutch => vec![("Mf", format!("Mf_{}", el.name))],
            Kind::Limiter => vec![],
        };
        for line in &el.doc {
            let _ = writeln!(
                o.text,
                "    ///{}{line}",
                if line.is_empty() { "" } else { " " }
            );
        }
        for (key, pname) in prefix {
            let _ = write!(o.text, "    param {pname} [{}] = ", param_unit(key));
            match el.params.iter().find(|p| p.name == *key) {
                Some(p) => o.copy(&p.value, p.value_span),
                None => o.text.push_str(el.param(key).unwrap_or("0")),
            }
            let _ = writeln!(
                o.text,
                "; // {} {}, {}",
                el.kind.keyword(),
                el.name,
                o.at(el.span)
            );
        }
    }
    for v in &s.verbatim {
        o.text.push_str("    ");
        o.copy(&v.text, v.span);
        let _ = writeln!(o.text, " // {}", o.at(v.span));
    }
    o.text.push_str(
        "\n    // Phase coordinates: angular velocities (rad/s) and element moments (N·m).\n",
    );
    for el in s.elements.iter().filter(|e| e.kind == Kind::Inertia) {
        let _ = write!(o.text, "    output real {} [rad/s] = ", speed(&el.name));
        match el.params.iter().find(|p| p.name == "w0") {
            Some(p) => o.copy(&p.value, p.value_span),
            None => o.text.push('0'),
        }
        let _ = writeln!(o.text, "; // {}", o.at(el.span));
    }
    let mut by_element: Vec<Vec<&Link>> = vec![Vec::new(); s.elements.len()];
    for l in links {
        by_element[l.element].push(l);
    }
    let mut declared_f = vec![false; s.elements.len()];
    for (j, el) in s.elements.iter().enumerate() {
        if el.kind != Kind::Clutch {
            continue;
        }
        for l in &by_element[j] {
            if !declared_f[l.inertia] {
                declared_f[l.inertia] = true;
                let _ = writeln!(
                    o.text,
                    "    real F_{0} [N*m]; // moment on {0} from everything but its clutches",
                    s.elements[l.inertia].name
                );
            }
        }
        let n = &el.name;
        let _ = writeln!(
            o.text,
            "    output real M_{n} [N*m]; // friction moment of clutch {n}, {}",
            o.at(el.span)
        );
        let _ = writeln!(o.text, "    output flag stuck_{n};");
        let _ = writeln!(
            o.text,
            "    real s_{n} [rad/s], s1_{n} [rad/s], Mst_{n} [N*m], P_{n} [N*m*s]; // slip speed before and after the step, stick moment, lock impulse"
        );
    }
    for el in s.elements.iter().filter(|e| e.kind.is_compliant()) {
        let n = &el.name;
        let mut names = Vec::new();
        if el.kind.is_elastic() {
            names.push(format!("My_{n} [N*m]"));
        }
        if el.kind.is_dissipative() {
            names.push(format!("Md_{n} [N*m]"));
        }
        let _ = writeln!(
            o.text,
            "    output real {}; // {}",
            names.join(", "),
            o.at(el.span)
        );
        let _ = writeln!(o.text, "    real r_{n} [rad/s]; // deformation rate of {n}");
        if el.kind.is_dissipative() {
            let _ = writeln!(
                o.text,
                "    real Md0_{n} [N*m]; // dissipative moment of {n} at the speeds the balances start from"
            );
        }
    }
    for a in &s.actions {
        for line in &a.doc {
            let _ = writeln!(
                o.text,
                "    ///{}{line}",
                if line.is_empty() { "" } else { " " }
            );
        }
        let _ = writeln!(
            o.text,
            "    output real {} [N*m]; // {}",
            a.name,
            o.at(a.span)
        );
    }

    o.text
        .push_str("\n    // External actions (matrix of external actions).\n");
    for a in &s.actions {
        let _ = write!(o.text, "    {} = ", a.name);
        o.copy(&a.value, a.value_span);
        let _ = writeln!(
            o.text,
            "; // on {}{}, {}",
            if a.sign < 0 { "-" } else { "+" },
            a.target,
            o.at(a.span)
        );
    }
    // The balances read the dissipative moments at the speeds they start from, computed
    // above them, so that every method (whose stages evaluate the rules in the order
    // written) reads them from the speeds of its stage; `Md` itself is computed after the
    // balances, from the new speeds, as the elastic part is. Under `euler` `Md0` equals
    // the `Md` of the step before (the initial pass computes both from `w0`).
    if s.elements.iter().any(|e| e.kind.is_dissipative()) {
        o.text
            .push_str("\n    // Dissipative moments at the speeds the balances start from.\n");
        for (j, el) in s.elements.iter().enumerate() {
            if el.kind.is_dissipative() {
                let n = &el.name;
                let _ = writeln!(
                    o.text,
                    "    Md0_{n} = mu_{n} * ({}); // {}",
                    rate(s, links, weights, j),
                    o.at(el.span)
                );
            }
        }
    }
    let clutches: Vec<usize> = (0..s.elements.len())
        .filter(|&j| s.elements[j].kind == Kind::Clutch)
        .collect();
    let is_clutch: Vec<bool> = s.elements.iter().map(|e| e.kind == Kind::Clutch).collect();
    // Links and actions by inertia, so that writing the model is linear in its size.
    let mut at_inertia: Vec<Vec<&Link>> = vec![Vec::new(); s.elements.len()];
    for l in links {
        at_inertia[l.inertia].push(l);
    }
    let index: std::collections::HashMap<&str, usize> = (s.elements.iter().enumerate())
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let mut acting: Vec<Vec<&crate::ast::Action>> = vec![Vec::new(); s.elements.len()];
    for a in &s.actions {
        if let Some(&i) = index.get(a.target.as_str()) {
            acting[i].push(a);
        }
    }
    let mut touched: Vec<usize> = Vec::new();
    let mut is_touched = vec![false; s.elements.len()];
    for l in links.iter().filter(|l| is_clutch[l.element]) {
        if !is_touched[l.inertia] {
            is_touched[l.inertia] = true;
            touched.push(l.inertia);
        }
    }
    // The moment on each inertia from actions and springs and dampers: its whole
    // balance, or the part a clutch's stick moment must balance (`F_J`).
    let mut rest = vec![String::new(); s.elements.len()];
    for (i, el) in s.elements.iter().enumerate() {
        if el.kind != Kind::Inertia {
            continue;
        }
        let mut terms = String::new();
        for a in &acting[i] {
            push_term(&mut terms, a.name.clone(), a.sign > 0);
        }
        for l in at_inertia[i].iter().filter(|l| !is_clutch[l.element]) {
            let (t, plus) = torque_term(s, l, weights, form);
            push_term(&mut terms, t, plus);
        }
        rest[i] = if terms.is_empty() { "0".into() } else { terms };
    }
    if !clutches.is_empty() {
        o.text.push_str(
            "\n    // Clutches: the moment on each inertia without them, then stick or slip.\n",
        );
        for &i in &touched {
            let _ = writeln!(o.text, "    F_{} = {};", s.elements[i].name, rest[i]);
        }
        for &j in &clutches {
            let at = o.at(s.elements[j].span);
            crate::clutch::slip(&mut o.text, s, links, weights, form, j, &at);
        }
    }
    o.text.push_str(
        "\n    // Moment balance of each inertia: J dw/dt = sum of actions and element moments.\n",
    );
    for (i, el) in s.elements.iter().enumerate() {
        if el.kind != Kind::Inertia {
            continue;
        }
        let mut terms = if is_touched[i] {
            format!("F_{}", el.name)
        } else {
            rest[i].clone()
        };
        for l in at_inertia[i].iter().filter(|l| is_clutch[l.element]) {
            let (t, plus) = torque_term(s, l, weights, form);
            push_term(&mut terms, t, plus);
        }
        let _ = writeln!(
            o.text,
            "    {} = integral(({terms}) / {}); // {}",
            speed(&el.name),
            el.name,
            o.at(el.span)
        );
    }
    for &j in &clutches {
        crate::clutch::lock(&mut o.text, s, links, weights, form, j);
    }
    o.text.push_str(
        "\n    // Elements: deformation rate r = -(A∘K)ᵀw from the new speeds (semi-implicit Euler),\n    \
         // elastic moments in rate form, dissipative moments algebraic.\n",
    );
    for (j, el) in s.elements.iter().enumerate() {
        if !el.kind.is_compliant() {
            continue;
        }
        let n = &el.name;
        let _ = writeln!(
            o.text,
            "    r_{n} = {}; // {}",
            rate(s, links, weights, j),
            o.at(el.span)
        );
        if el.kind.is_dissipative() {
            let _ = writeln!(o.text, "    Md_{n} = mu_{n} * r_{n};");
        }
        if el.kind.is_elastic() {
            let _ = writeln!(o.text, "    My_{n} = integral(c_{n} * r_{n});");
        }
    }
    o.text.push_str("}\n");
    Generated {
        text: o.text,
        segments: o.segments,
    }
}

/// The unit of an element's parameter `key` in the generated model (issue 30): inertias
/// in kg·m², stiffnesses in N·m/rad, damping in N·m·s/rad, friction moments in N·m;
/// ratios and efficiencies are plain numbers.
fn param_unit(key: &str) -> &'static str {
    match key {
        "J" => "kg*m^2",
        "c" => "N*m/rad",
        "mu" => "N*m*s/rad",
        "Mf" => "N*m",
        _ => "1",
    }
}

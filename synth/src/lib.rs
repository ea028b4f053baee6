//! Generators of valid `.sit` models: random ones (seeded, reproducible) for
//! property tests and fuzzing, random ones with units consistent by construction
//! ([`random_file_with_units`]), and large regular ones for compile-time benchmarks.
#![deny(missing_docs)]

use std::fmt::Write as _;

mod array;
mod method;
mod network;
mod phase;
mod substep;
mod synthetic;
mod table;
mod units;

pub use synthetic::{chain, heat, heat_decay, heat2, synthetic};
pub use units::{random_file_with_units, with_mismatched_unit};

/// How large a random model is.
#[derive(Debug, Clone, Copy)]
pub struct Size {
    /// Number of models in the file (the last one instantiates some of the others).
    pub models: usize,
    /// Real states per model.
    pub reals: usize,
    /// Rules per model (δ and σ, some in blocks).
    pub rules: usize,
}

impl Default for Size {
    fn default() -> Size {
        Size {
            models: 3,
            reals: 5,
            rules: 12,
        }
    }
}

struct Gen {
    rng: fastrand::Rng,
    /// Draws for modes only, so that adding them left every other draw as it was.
    modes: fastrand::Rng,
    /// Draws for `prev` only, likewise.
    prevs: fastrand::Rng,
    /// Draws for `step(sub);` only, likewise.
    steps: fastrand::Rng,
    /// The equations' draws (`Gen::equations`).
    eqs: fastrand::Rng,
    /// Draws for the constraint among states only (`Gen::equations`), likewise.
    cons: fastrand::Rng,
    /// The states of the model being written that have a continuous rule (`integral`,
    /// `lag`): a state has one (E0477), a later draw of one for it is a plain rule.
    integrated: Vec<String>,
    out: String,
}

/// What one generated model declares (for its parent and its own rules).
struct Decls {
    name: String,
    params: Vec<String>,
    inputs: Vec<String>,
    reals: Vec<String>,
    outputs: Vec<String>,
    flags: Vec<String>,
    conds: Vec<String>,
    events: Vec<String>,
    /// (instance, model index) of submodels.
    subs: Vec<(String, usize)>,
    /// Output modes with their states.
    modes: Vec<(String, Vec<String>)>,
    /// The cells of its output array `ar` (0: it has no arrays).
    cells: usize,
    /// The cells of `ar` in each submodel of `subs` (0: none): its model's, or the
    /// size its instance binds (`sub s0: M1(an = 4)`).
    sub_sizes: Vec<usize>,
}

/// A random valid `.sit` file for `seed`: several models, the last of which
/// holds instances of earlier ones, exercising params (free and derived),
/// inputs, states, flags, preds, situations, events (and the logical outputs of
/// submodels: flags, events, conditions), δ rules with every procedure,
/// `otherwise`, blocks, σ rules, equations (solved into rules, `der` among them),
/// switching, reset, submodels stepped among the rules,
/// instantaneous phases and sub-steps,
/// integrated by `euler` or (where the rules split for it) `rk4` and the other methods,
/// one file in ten beginning with a chain-shaped model of 8 to 13 states under `rodas4`,
/// `rodas5p` or `radau5` (its iteration matrix a band or sparse), one in five with a stiff spring whose factorisation swaps
/// rows. The same seed always gives the same text.
pub fn random_file(seed: u64, size: Size) -> String {
    let mut g = Gen {
        rng: fastrand::Rng::with_seed(seed),
        modes: fastrand::Rng::with_seed(seed ^ 0x6d6f_6465),
        prevs: fastrand::Rng::with_seed(seed ^ 0x7072_6576),
        steps: fastrand::Rng::with_seed(seed ^ 0x7374_6570),
        eqs: fastrand::Rng::with_seed(seed ^ 0x6571_6e73),
        cons: fastrand::Rng::with_seed(seed ^ 0x636f_6e73),
        integrated: Vec::new(),
        out: String::new(),
    };
    let _ = writeln!(g.out, "// Random model, seed {seed}.");
    let mut models: Vec<Decls> = Vec::new();
    for i in 0..size.models.max(1) {
        let d = g.model(i, size, &models, seed);
        models.push(d);
    }
    let text = break_loops(g.out);
    let text = method::with_methods(seed, text, models.len());
    let text = method::with_chain(seed, text);
    let text = method::with_spring(seed, text);
    network::with_network(seed, text)
}

/// `text` with each algebraic loop (E0476) broken where the checker reports it: the
/// variable read before its rule is read through `prev` there, as a modeller who
/// meant the delay writes it (random rules read random variables, so loops are
/// common). Bounded: a text still looping after that is returned as it is.
fn break_loops(mut text: String) -> String {
    for _ in 0..256 {
        let out = sit_middle::check_source("random.sit", &text);
        let Some(d) = out.diagnostics.iter().find(|d| d.code == "E0476") else {
            return text;
        };
        // "algebraic loop: `a` reads `b`, …": `b` is read before its rule at `d.span`.
        let Some(var) = d.message.split('`').nth(3) else {
            return text;
        };
        let (start, end) = (d.span.start, d.span.end.min(text.len()));
        let marked = mark_reads(&text[start..end], var);
        if marked == text[start..end] {
            return text;
        }
        text.replace_range(start..end, &marked);
    }
    text
}

/// `rule` with every read of the name `var` written `prev(var)`: whole words, not a
/// submodel's member (`s.var`) or instance (`var.x`), not an assignment's target.
fn mark_reads(rule: &str, var: &str) -> String {
    let bytes = rule.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(rule.len() + 16);
    let mut i = 0;
    while i < rule.len() {
        let rest = &rule[i..];
        let before_ok =
            (i == 0 || !(word(bytes[i - 1]) || bytes[i - 1] == b'.')) && !out.ends_with("prev(");
        if before_ok && rest.starts_with(var) {
            let after = &rest[var.len()..];
            let next = after.bytes().next();
            let tail = after.trim_start();
            let assigned = tail.starts_with('=') && !tail.starts_with("==");
            if !next.is_some_and(|c| word(c) || c == b'.' || c == b'(') && !assigned {
                out.push_str(&format!("prev({var})"));
                i += var.len();
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

impl Gen {
    /// In one model in two, equations (issue 46) among the rules: two unknowns
    /// written in the reverse of the order that computes them (the checker sorts
    /// them), one solved by inverting a product and a difference, and in one model of
    /// those in two each a linear loop of two (solved by substitution) and a state
    /// given by its rate, `der(za)` (in one of those in two tied to a second state by
    /// a constraint, which the index reduction solves). They read params, inputs,
    /// `time` and literals only (always known), from their own random stream, so the
    /// rest of the file is what the seed gave before.
    fn equations(&mut self, d: &Decls, body: &mut String) {
        if self.eqs.bool() {
            return;
        }
        let mut known: Vec<String> = d.params.clone();
        known.extend(d.inputs.iter().cloned());
        known.push("time".into());
        let atom = |g: &mut fastrand::Rng| -> String {
            match g.u8(..3) {
                0 => format!("{}", g.i32(-5..6)),
                _ => known[g.usize(..known.len())].clone(),
            }
        };
        let k = self.eqs.i32(1..5);
        let (a, b, c) = (
            atom(&mut self.eqs),
            atom(&mut self.eqs),
            atom(&mut self.eqs),
        );
        let _ = writeln!(body, "    real ya;");
        let _ = writeln!(body, "    output real yb;");
        let _ = writeln!(body, "    equation yb = ya * {c};");
        let _ = writeln!(body, "    equation {k} * ya - {a} = {b};");
        if self.eqs.bool() {
            // A loop of two, linear: solved by substitution.
            let d = atom(&mut self.eqs);
            let _ = writeln!(body, "    output real yc, yd;");
            let _ = writeln!(body, "    equation yc = ya + yd * 0.5;");
            let _ = writeln!(body, "    equation yd = yc * 0.25 - {d};");
        }
        if self.eqs.bool() {
            // Not linear in its unknown: Newton's iteration (slope 1 + cos(ye)/2 ≥ 1/2,
            // so it converges from any start).
            let a = atom(&mut self.eqs);
            let _ = writeln!(body, "    output real ye;");
            let _ = writeln!(body, "    equation ye + 0.5 * sin(ye) = {a};");
        }
        if self.eqs.bool() {
            let init = self.eqs.i32(-3..4);
            let rate = atom(&mut self.eqs);
            let _ = writeln!(body, "    output real za = {init};");
            if self.cons.bool() {
                // In one of those in two, a second state tied to it, `zb = r·za` (a
                // gear between two integrators), with the force `zf` between them: a
                // constraint among states, which the checker's index reduction
                // computes `zb` from (`zf = r·rate / (1 + r²)`).
                let r = self.cons.i32(2..5);
                let _ = writeln!(body, "    output real zb, zf;");
                let _ = writeln!(body, "    equation der(za) = {rate} - za - {r} * zf;");
                let _ = writeln!(body, "    equation der(zb) = zf - zb;");
                let _ = writeln!(body, "    equation zb = {r} * za;");
            } else {
                let _ = writeln!(body, "    equation der(za) = {rate} - za;");
            }
        }
    }

    fn pick<'a>(&mut self, xs: &'a [String]) -> &'a str {
        &xs[self.rng.usize(..xs.len())]
    }

    fn num(&mut self) -> String {
        let v = match self.rng.u8(..4) {
            0 => self.rng.i32(-5..6) as f64,
            1 => (self.rng.f64() * 4.0 - 2.0) * 10f64.powi(self.rng.i32(-3..3)),
            2 => self.rng.f64(),
            _ => 0.5 + self.rng.f64(),
        };
        let s = format!("{v:?}");
        if s.starts_with('-') {
            format!("({s})")
        } else {
            s
        }
    }

    fn model(&mut self, index: usize, size: Size, earlier: &[Decls], seed: u64) -> Decls {
        let mut d = Decls {
            name: format!("M{index}"),
            params: Vec::new(),
            inputs: Vec::new(),
            reals: Vec::new(),
            outputs: Vec::new(),
            flags: Vec::new(),
            conds: Vec::new(),
            events: Vec::new(),
            subs: Vec::new(),
            modes: Vec::new(),
            cells: 0,
            sub_sizes: Vec::new(),
        };
        let mut body = String::new();
        let _ = writeln!(body, "/// Generated model {index}.\nmodel {} {{", d.name);
        // Params: a few free, one derived.
        for p in 0..self.rng.usize(1..4) {
            let name = format!("p{p}");
            let v = self.num();
            let _ = writeln!(body, "    param {name} = {v};");
            d.params.push(name);
        }
        let derived = "pd".to_string();
        let a = self.pick(&d.params).to_string();
        let _ = writeln!(body, "    param {derived} = {a} * 2 + 1;");
        d.params.push(derived);
        // Inputs with defaults.
        for i in 0..self.rng.usize(0..3) {
            let name = format!("u{i}");
            let v = self.num();
            let _ = writeln!(body, "    input real {name} = {v};");
            d.inputs.push(name);
        }
        let _ = writeln!(body, "    input flag en = true;");
        // States.
        for r in 0..size.reals.max(1) {
            let name = format!("x{r}");
            let out = if r < 2 { "output " } else { "" };
            let init = if self.rng.bool() {
                self.pick(&d.params).to_string()
            } else {
                self.num()
            };
            let _ = writeln!(body, "    {out}real {name} = {init};");
            if r < 2 {
                d.outputs.push(name.clone());
            }
            d.reals.push(name);
        }
        for f in 0..self.rng.usize(1..3) {
            let name = format!("q{f}");
            let _ = writeln!(body, "    output flag {name} = {};", self.rng.bool());
            d.flags.push(name);
        }
        self.declare_mode(&mut d, &mut body);
        // Submodels of earlier models.
        if !earlier.is_empty() {
            for s in 0..self.rng.usize(1..3) {
                let mi = self.rng.usize(..earlier.len());
                let child = &earlier[mi];
                let inst = format!("s{s}");
                let mut binds = Vec::new();
                if let Some(p) = child.params.first() {
                    binds.push(format!("{p} = {}", self.num()));
                }
                for u in &child.inputs {
                    if self.rng.bool() {
                        let x = self.pick(&d.reals).to_string();
                        binds.push(format!("{u} = {x} * 0.5"));
                    }
                }
                let off = if self.rng.u8(..5) == 0 { " off" } else { "" };
                // The size of an array model bound by the instance, one time in two
                // (its own copy of the model, issue 49), from a generator of its own.
                let mut sizes =
                    fastrand::Rng::with_seed(seed ^ 0x7369_7a65 ^ (index * 8 + s) as u64);
                let mut size = child.cells;
                if size > 0 && sizes.bool() {
                    size = sizes.usize(2..6);
                    binds.push(format!("an = {size}"));
                }
                let _ = writeln!(
                    body,
                    "    sub {inst}: {}({}){off};",
                    child.name,
                    binds.join(", ")
                );
                d.subs.push((inst, mi));
                d.sub_sizes.push(size);
            }
        }
        // Conditions over reals, flags and submodel outputs.
        for c in 0..self.rng.usize(1..4) {
            let name = format!("c{c}");
            let e = self.cmp(&d, earlier);
            let kw = if c % 2 == 0 { "pred" } else { "situation" };
            // The first is an output, which parents read (inlined through the submodel).
            let out = if c == 0 { "output " } else { "" };
            let _ = writeln!(body, "    {out}{kw} {name} = {e};");
            d.conds.push(name);
        }
        let ev = "e0".to_string();
        let e = self.logic(&d, earlier, 1);
        let _ = writeln!(body, "    output event {ev} = {e};");
        d.events.push(ev);
        self.phase(&d, earlier, seed.wrapping_add(index as u64), &mut body);
        self.substeps(&d, earlier, seed.wrapping_add(index as u64), &mut body);
        // Rules, with the steps of one submodel in three placed among them.
        let mut placed: Vec<(usize, String)> = Vec::new();
        for (inst, _) in &d.subs {
            if self.steps.u8(..3) == 0 {
                placed.push((self.steps.usize(..=size.rules), inst.clone()));
            }
        }
        let place = |at: usize, body: &mut String| {
            for (_, inst) in placed.iter().filter(|(p, _)| *p == at) {
                let _ = writeln!(body, "    step({inst});");
            }
        };
        let mut otherwise_done: Vec<String> = Vec::new();
        let mut mem_used = false;
        self.integrated.clear();
        for i in 0..size.rules {
            place(i, &mut body);
            let line = self.rule(&d, earlier, &mut otherwise_done, &mut mem_used, 1);
            body.push_str(&line);
        }
        place(size.rules, &mut body);
        self.equations(&d, &mut body);
        self.transitions(&d, &mut body);
        // Otherwise rules close some guarded targets.
        for t in otherwise_done {
            let v = self.real_expr(&d, earlier, 1);
            let _ = writeln!(body, "    {t} = {v} otherwise;");
        }
        self.tables(&d, earlier, seed.wrapping_add(index as u64), &mut body);
        d.cells = self.arrays(&d, seed.wrapping_add(index as u64), &mut body);
        self.sub_cells(&d, seed.wrapping_add(index as u64), &mut body);
        let _ = writeln!(body, "}}\n");
        self.out.push_str(&body);
        d
    }

    fn atom(&mut self, d: &Decls, earlier: &[Decls]) -> String {
        let k = self.rng.u8(..10);
        match k {
            0 | 1 => self.num(),
            2 => self.pick(&d.params).to_string(),
            3 if !d.inputs.is_empty() => self.pick(&d.inputs).to_string(),
            4 if !d.subs.is_empty() => {
                let (inst, mi) = d.subs[self.rng.usize(..d.subs.len())].clone();
                let o = self.pick(&earlier[mi].outputs).to_string();
                format!("{inst}.{o}")
            }
            5 => ["time", "dt"][self.rng.usize(..2)].to_string(),
            _ => {
                let x = self.pick(&d.reals).to_string();
                // One read in eight written as the step's start value.
                if self.prevs.u8(..8) == 0 {
                    format!("prev({x})")
                } else {
                    x
                }
            }
        }
    }

    fn real_expr(&mut self, d: &Decls, earlier: &[Decls], depth: u32) -> String {
        if depth > 3 || self.rng.u8(..3) == 0 {
            return self.atom(d, earlier);
        }
        let a = self.real_expr(d, earlier, depth + 1);
        let b = self.real_expr(d, earlier, depth + 1);
        match self.rng.u8(..12) {
            0 => format!("({a} + {b})"),
            1 => format!("({a} - {b})"),
            2 => format!("({a} * {b})"),
            3 => format!("({a} / {b})"),
            4 => format!("-{a}"),
            5 => format!("sin({a})"),
            6 => format!("min({a}, {b})"),
            7 => format!("limit({a}, -1, 1)"),
            8 => format!("relay({a}, {b})"),
            9 => format!("deadzone({a}, 0.1)"),
            10 => format!("sqrt(abs({a}))"),
            _ => format!("atan2({a}, {b})"),
        }
    }

    fn cmp(&mut self, d: &Decls, earlier: &[Decls]) -> String {
        let a = self.real_expr(d, earlier, 2);
        let b = self.atom(d, earlier);
        let op = ["<", "<=", ">", ">=", "==", "!="][self.rng.usize(..6)];
        if self.rng.u8(..4) == 0 {
            format!("{b} < {a} <= {b} + 1")
        } else {
            format!("{a} {op} {b}")
        }
    }

    fn logic(&mut self, d: &Decls, earlier: &[Decls], depth: u32) -> String {
        if depth > 2 || self.rng.bool() {
            let leaf = self.logic_leaf(d, earlier);
            return self.mode_read(d, earlier).unwrap_or(leaf);
        }
        let a = self.logic(d, earlier, depth + 1);
        let b = self.logic(d, earlier, depth + 1);
        match self.rng.u8(..3) {
            0 => format!("({a} & {b})"),
            1 => format!("({a} | {b})"),
            _ => format!("!({a})"),
        }
    }

    /// A mode of the model (2 or 3 states), in two models out of three.
    fn declare_mode(&mut self, d: &mut Decls, body: &mut String) {
        if self.modes.u8(..3) == 0 {
            return;
        }
        let states: Vec<String> = (0..self.modes.usize(2..4))
            .map(|k| format!("a{k}"))
            .collect();
        let _ = writeln!(body, "    output mode m0 {{ {} }}", states.join(", "));
        d.modes.push(("m0".into(), states));
    }

    /// Sometimes (one leaf in five) a comparison of a mode, the model's own or a
    /// submodel's, with one of its states.
    fn mode_read(&mut self, d: &Decls, earlier: &[Decls]) -> Option<String> {
        if self.modes.u8(..5) != 0 {
            return None;
        }
        let mut seen: Vec<(String, &[String])> = d
            .modes
            .iter()
            .map(|(m, s)| (m.clone(), s.as_slice()))
            .collect();
        for (inst, mi) in &d.subs {
            for (m, s) in &earlier[*mi].modes {
                seen.push((format!("{inst}.{m}"), s.as_slice()));
            }
        }
        if seen.is_empty() {
            return None;
        }
        let (mode, states) = &seen[self.modes.usize(..seen.len())];
        let state = &states[self.modes.usize(..states.len())];
        let op = if self.modes.bool() { "==" } else { "!=" };
        Some(format!("{mode} {op} {state}"))
    }

    /// Transitions of the model's mode: each from a state to another, under a guard
    /// on a real state, some with rules of their own.
    fn transitions(&mut self, d: &Decls, body: &mut String) {
        let Some((mode, states)) = d.modes.first() else {
            return;
        };
        for _ in 0..self.modes.usize(1..5) {
            let n = states.len();
            let from = self.modes.usize(..n);
            let to = (from + self.modes.usize(1..n)) % n;
            let x = &d.reals[self.modes.usize(..d.reals.len())];
            let bound = format!("{:?}", self.modes.f64() * 2.0 - 1.0);
            let guard = match self.modes.u8(..3) {
                0 => String::new(),
                1 => format!(" when {x} > {bound}"),
                _ => format!(" when time >= {}", self.modes.u8(..4)),
            };
            let head = format!("    {mode}: {} -> {}{guard}", states[from], states[to]);
            if self.modes.bool() {
                let _ = writeln!(body, "{head};");
                continue;
            }
            let y = &d.reals[self.modes.usize(..d.reals.len())];
            let f = &d.flags[self.modes.usize(..d.flags.len())];
            let _ = writeln!(
                body,
                "{head} {{
        {y} = {bound};
        when always => !{f};
    }}"
            );
        }
    }

    fn logic_leaf(&mut self, d: &Decls, earlier: &[Decls]) -> String {
        {
            match self.rng.u8(..8) {
                0 => self.cmp(d, earlier),
                1 if !d.conds.is_empty() => self.pick(&d.conds).to_string(),
                2 if !d.events.is_empty() => self.pick(&d.events).to_string(),
                3 if !d.subs.is_empty() => {
                    let (inst, _) = d.subs[self.rng.usize(..d.subs.len())].clone();
                    format!("{inst}.on")
                }
                4 => "en".to_string(),
                5 => "always".to_string(),
                // A submodel's logical output: a flag, its event or its output condition.
                6 if !d.subs.is_empty() => {
                    let (inst, mi) = d.subs[self.rng.usize(..d.subs.len())].clone();
                    let child = &earlier[mi];
                    let mut outs: Vec<String> = child.flags.clone();
                    outs.extend(child.events.iter().cloned());
                    outs.extend(child.conds.first().cloned());
                    let o = self.pick(&outs).to_string();
                    format!("{inst}.{o}")
                }
                _ => {
                    let f = self.pick(&d.flags).to_string();
                    // One read in eight of a flag written as its value at the step's start
                    // (a hidden flag copy: issue 53, item 1).
                    if self.prevs.u8(..8) == 0 {
                        format!("prev({f})")
                    } else {
                        f
                    }
                }
            }
        }
    }

    fn rule(
        &mut self,
        d: &Decls,
        earlier: &[Decls],
        otherwise: &mut Vec<String>,
        mem_used: &mut bool,
        depth: usize,
    ) -> String {
        let pad = "    ".repeat(depth);
        let target = self.pick(&d.reals).to_string();
        let draw = self.rng.u8(..12);
        // A second continuous rule for a state would be E0477: a plain rule instead.
        let integrated = self.integrated.contains(&target);
        if draw <= 2 && !integrated {
            self.integrated.push(target.clone());
        }
        match draw {
            0..=2 if integrated => {
                let x = self.real_expr(d, earlier, 2);
                format!("{pad}{target} = {x};\n")
            }
            0 => {
                let x = self.real_expr(d, earlier, 2);
                format!("{pad}{target} = integral({x});\n")
            }
            1 => {
                let x = self.real_expr(d, earlier, 2);
                format!("{pad}{target} = integral({x}, -10, 10);\n")
            }
            2 => {
                let x = self.real_expr(d, earlier, 2);
                format!("{pad}{target} = lag({x}, 0.5, 2);\n")
            }
            3 if !*mem_used => {
                *mem_used = true;
                let x = self.atom(d, earlier);
                format!("{pad}{target} = deriv({x});\n")
            }
            4 => {
                let x = self.real_expr(d, earlier, 2);
                format!("{pad}{target} = hysteresis({x}, -0.5, 0.5, 3);\n")
            }
            5 => {
                let c = self.logic(d, earlier, 1);
                let x = self.real_expr(d, earlier, 1);
                if !otherwise.contains(&target) && self.rng.bool() {
                    otherwise.push(target.clone());
                }
                format!("{pad}{target} = {x} when {c};\n")
            }
            6 => {
                let c = self.logic(d, earlier, 1);
                let mut actions = Vec::new();
                let f = self.pick(&d.flags).to_string();
                actions.push(if self.rng.bool() { f } else { format!("!{f}") });
                if !d.subs.is_empty() && self.rng.bool() {
                    let (inst, _) = d.subs[self.rng.usize(..d.subs.len())].clone();
                    actions.push(match self.rng.u8(..3) {
                        0 => format!("{inst}.on"),
                        1 => format!("!{inst}.on"),
                        _ => format!("reset({inst})"),
                    });
                }
                format!("{pad}when {c} => {};\n", actions.join(", "))
            }
            7 if depth < 3 => {
                let c = self.logic(d, earlier, 1);
                let mut s = format!("{pad}when {c} {{\n");
                for _ in 0..self.rng.usize(1..4) {
                    s.push_str(&self.rule(d, earlier, otherwise, mem_used, depth + 1));
                }
                s.push_str(&format!("{pad}}}\n"));
                s
            }
            8 => {
                let c = self.logic(d, earlier, 1);
                format!("{pad}{target} = timer({c});\n")
            }
            _ => {
                let x = self.real_expr(d, earlier, 1);
                format!("{pad}{target} = {x};\n")
            }
        }
    }
}

#[cfg(test)]
mod tests;

//! The syntax tree of a `.sit` file, as written, with spans.

use crate::source::Span;

/// A name with where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// One parsed file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct File {
    /// `import "...";` declarations in order.
    pub imports: Vec<Import>,
    /// Models in order.
    pub models: Vec<Model>,
    /// `connector Name { … }` declarations in order.
    pub connectors: Vec<Connector>,
    /// `#[allow(…)]` attributes, in order.
    pub allows: Vec<Allow>,
}

/// `#[allow(CODE, …, reason = "…")]` before a model, a declaration or a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Allow {
    /// The warning codes allowed.
    pub codes: Vec<Name>,
    /// Why (required; empty only in a file with errors).
    pub reason: String,
    /// The attribute.
    pub span: Span,
    /// What it stands before: the warnings located inside are allowed.
    pub scope: Span,
}

/// `import "path";`
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    /// The path as written (escapes resolved).
    pub path: String,
    /// The string literal.
    pub span: Span,
}

/// `model Name { ... }`
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Doc lines.
    pub doc: Vec<String>,
    /// The model's name.
    pub name: Name,
    /// Declarations in order.
    pub decls: Vec<Decl>,
    /// Rules in order.
    pub rules: Vec<Rule>,
    /// The names of `method NAME;` declarations, in order (at most one is valid).
    pub methods: Vec<Name>,
    /// `substeps N when C limit L;` declarations, in order (at most one is valid).
    pub substeps: Vec<SubstepSpec>,
    /// The options of each `method` declaration (`rtol 1e-8 atol 1e-10`), parallel to
    /// `methods`.
    pub method_options: Vec<Vec<MethodOption>>,
    /// `port name: Connector;` declarations in order: the model is a component.
    pub ports: Vec<Port>,
    /// `part name: Model(bindings);` declarations in order (flattened into the model).
    pub parts: Vec<Part>,
    /// `connect(a.p, b.n);` statements in order.
    pub connects: Vec<Connect>,
    /// Array declarations (`real T[N] [K];`) in order, expanded into one declaration
    /// per cell by the checker (`sit_check::check::arrays`).
    pub arrays: Vec<ArrayDecl>,
}

/// `real T[N, M] [K] = init;`: an array of variables, one per cell, named `T[3]`
/// (`T[3][4]` in two dimensions), indices from 1 to the size.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayDecl {
    /// Doc lines (of the declaration statement).
    pub doc: Vec<String>,
    /// What each cell is.
    pub kind: DeclKind,
    /// `output` given.
    pub output: bool,
    /// The array's name.
    pub name: Name,
    /// The size in each dimension, constant whole-number expressions.
    pub dims: Vec<Expr>,
    /// `[unit]` after the sizes, if given: every cell's unit.
    pub unit: Option<UnitText>,
    /// `= init`, if given.
    pub init: Option<ArrayInit>,
    /// How many scalar declarations of the model came before it: its cells are
    /// declared at that place.
    pub at: usize,
}

/// The initial value (or a param's value) of an array's cells.
#[derive(Debug, Clone, PartialEq)]
pub enum ArrayInit {
    /// `= expr`: every cell the same value.
    Each(Expr),
    /// `= [a, b, c]`: one value per cell, in order (1-D arrays).
    List(Vec<Expr>, Span),
    /// `= [expr for i in 1:N]` (`, j in 1:M` in two dimensions): a value per cell,
    /// the loop variables standing for its indices.
    Comprehension(Box<Generator>),
}

/// `expr for i in a:b, j in c:d`: a value for each combination of the loop variables
/// (a comprehension's cells, a reduction's terms).
#[derive(Debug, Clone, PartialEq)]
pub struct Generator {
    /// The value, in which the loop variables are read.
    pub body: Expr,
    /// The loop variables and their ranges, outermost first.
    pub ranges: Vec<LoopRange>,
    /// The whole generator (brackets or call included).
    pub span: Span,
}

/// `i in a:b`: a loop variable taking the whole numbers from `a` to `b`, both
/// included (none when `b < a`).
#[derive(Debug, Clone, PartialEq)]
pub struct LoopRange {
    /// The loop variable.
    pub var: Name,
    /// The first value, a constant whole-number expression.
    pub from: Expr,
    /// The last value, a constant whole-number expression.
    pub to: Expr,
    /// From the variable to the end of `b`.
    pub span: Span,
}

/// `for i in a:b { rules }` (`for i in a:b, j in c:d { … }` nests): the rules
/// written once for each value of the loop variables, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct ForRule {
    /// The loop variables and their ranges, outermost first.
    pub ranges: Vec<LoopRange>,
    /// The rules of the body.
    pub rules: Vec<Rule>,
    /// From `for` to the last range's end.
    pub span: Span,
}

/// `connector Name { real v [V]; flow real i [A]; }`: what a port carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Connector {
    /// Doc lines.
    pub doc: Vec<String>,
    /// The connector's name.
    pub name: Name,
    /// Its variables, in order.
    pub fields: Vec<ConnectorField>,
}

/// One variable of a connector: a potential (equal across a connection) or a flow
/// (summing to zero across a connection).
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectorField {
    /// `flow` written.
    pub flow: bool,
    /// The name.
    pub name: Name,
    /// `[unit]`, if given.
    pub unit: Option<UnitText>,
}

/// `port name: Connector;` in a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// Doc lines.
    pub doc: Vec<String>,
    /// The port's name.
    pub name: Name,
    /// The connector's name.
    pub connector: Name,
}

/// `part name: Model(bindings);`: an acausal component instance, flattened into the
/// model that declares it.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Doc lines.
    pub doc: Vec<String>,
    /// The instance's name.
    pub name: Name,
    /// The component model's name.
    pub model: Name,
    /// `param = expr` bindings.
    pub bindings: Vec<(Name, Expr)>,
    /// The whole declaration.
    pub span: Span,
}

/// `connect(a, b);`: two ports joined (each `part.port` or a port of the model).
#[derive(Debug, Clone, PartialEq)]
pub struct Connect {
    /// The first port's path.
    pub a: Vec<Name>,
    /// The second port's path.
    pub b: Vec<Name>,
    /// The whole statement.
    pub span: Span,
}

/// `substeps count (when cond)? limit n;`: the model divides its step into `count`
/// sub-steps while `cond` holds (see `sit_middle::ir::Substeps`).
#[derive(Debug, Clone, PartialEq)]
pub struct SubstepSpec {
    /// The number of sub-steps, evaluated at the start of each step.
    pub count: Expr,
    /// The condition under which the step is divided (always, if absent).
    pub when: Option<Expr>,
    /// The most sub-steps, a whole number literal.
    pub limit: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// An option of a `method` declaration: a name and a number (`rtol 1e-8`).
#[derive(Debug, Clone, PartialEq)]
pub struct MethodOption {
    /// The option's name.
    pub name: Name,
    /// Its value.
    pub value: f64,
    /// The number's source.
    pub span: Span,
}

/// The kinds of variable declarations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclKind {
    /// `param`
    Param,
    /// `input real`
    InputReal,
    /// `input flag`
    InputFlag,
    /// `real`
    Real,
    /// `flag`
    Flag,
    /// `pred`
    Pred,
    /// `situation`
    Situation,
    /// `event`
    Event,
}

impl DeclKind {
    /// How the kind is written in source.
    pub fn describe(self) -> &'static str {
        match self {
            DeclKind::Param => "param",
            DeclKind::InputReal => "real input",
            DeclKind::InputFlag => "flag input",
            DeclKind::Real => "real state",
            DeclKind::Flag => "flag",
            DeclKind::Pred => "pred",
            DeclKind::Situation => "situation",
            DeclKind::Event => "event",
        }
    }
}

/// A declaration of one name.
#[derive(Debug, Clone, PartialEq)]
pub enum Decl {
    /// A variable, pred, situation or event.
    Var {
        /// Doc lines (of the declaration statement).
        doc: Vec<String>,
        /// What it is.
        kind: DeclKind,
        /// `output` given.
        output: bool,
        /// The name.
        name: Name,
        /// `[unit]` after the name, if given (issue 30; checked by `sit_middle::units`).
        unit: Option<UnitText>,
        /// `= expr`, if given.
        value: Option<Expr>,
    },
    /// `sub name: Model(bindings) [off];`
    Sub {
        /// Doc lines.
        doc: Vec<String>,
        /// Instance name.
        name: Name,
        /// Model name.
        model: Name,
        /// `name = expr` bindings.
        bindings: Vec<(Name, Expr)>,
        /// Declared `off`.
        off: bool,
        /// Declared with `phase` instead of `sub`: how it is run.
        phase: Option<Box<PhaseSpec>>,
    },
    /// `output? mode name { state, state, ... }`: the first state is the initial one.
    Mode {
        /// Doc lines.
        doc: Vec<String>,
        /// `output` given.
        output: bool,
        /// The mode's name.
        name: Name,
        /// Its states, in order (at least one).
        states: Vec<Name>,
    },
    /// `table name(args) = grids -> values beyond;` or `table name(args) from "file.csv" beyond;`
    Table(Box<TableDecl>),
}

/// The unit written in brackets after a declared name (`real v [m/s];`): the tokens
/// between the brackets, parsed and checked by `sit_middle::units`.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitText {
    /// The tokens' texts between `[` and `]`, joined by one space where the source
    /// separates them (by white space or a comment).
    pub text: String,
    /// Where that text is (from just after `[` to just before `]`).
    pub span: Span,
    /// For each token: its byte offset in `text` and in the source file, to show a
    /// position in `text` in the source.
    pub pieces: Vec<(usize, usize)>,
}

impl UnitText {
    /// The byte offset in the source of byte `at` of [`UnitText::text`].
    pub fn source_offset(&self, at: usize) -> usize {
        match self.pieces.iter().rev().find(|(t, _)| *t <= at) {
            Some((t, src)) => src + (at - t),
            None => self.span.start,
        }
    }
}

/// A lookup table declaration (see `sit_middle::ir::LookupTable`).
#[derive(Debug, Clone, PartialEq)]
pub struct TableDecl {
    /// Doc lines.
    pub doc: Vec<String>,
    /// The table's name.
    pub name: Name,
    /// The argument names as written (one or two; they name the grids in messages).
    pub args: Vec<Name>,
    /// `[unit]` after each argument's name, if given (parallel to `args`; issue 30).
    pub arg_units: Vec<Option<UnitText>>,
    /// `[unit]` of the values, after the arguments' `)`, if given (issue 30).
    pub unit: Option<UnitText>,
    /// Where the numbers come from.
    pub data: TableData,
    /// `clamp` or `extrapolate` as written (checked later), `None` if missing.
    pub beyond: Option<Name>,
}

/// The numbers of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum TableData {
    /// `= [g, …], [g, …] -> [[v, …], …]`: the grids (one list per argument), then the
    /// values: one list in 1-D, a list of rows (one per point of the first grid) in 2-D.
    Inline {
        /// One list of grid points per argument.
        grids: Vec<NumList>,
        /// The values, as written.
        values: Values,
    },
    /// `from "file.csv"`: read at build time, the path relative to the `.sit` file.
    File {
        /// The path as written.
        path: String,
        /// The string literal.
        span: Span,
    },
}

/// The values of an inline table.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// `[v, …]` (1-D).
    Flat(NumList),
    /// `[[v, …], …]` (2-D), with the span of the outer brackets.
    Rows(Vec<NumList>, Span),
}

/// `[x, …]`: numbers (literals, possibly negated), with the brackets' span.
#[derive(Debug, Clone, PartialEq)]
pub struct NumList {
    /// The items as written.
    pub items: Vec<Expr>,
    /// From `[` to `]`.
    pub span: Span,
}

/// What `phase name: Model(bindings) step h limit n until cond;` adds to a submodel
/// declaration (see `sit_middle::ir::Phase`).
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseSpec {
    /// The phase's own step, a positive number literal.
    pub step: Expr,
    /// The most steps, a positive whole number literal.
    pub limit: Expr,
    /// The condition, in the parent's scope, that ends the phase.
    pub until: Expr,
}

/// A rule of a model body.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// `target = value [when guard | otherwise];`
    Assign {
        /// The assigned name.
        target: Name,
        /// `[i, j]` after the target (a cell of an array), empty for a scalar; the
        /// checker expands it before anything else reads the rule.
        index: Vec<Expr>,
        /// The right-hand side.
        value: Expr,
        /// The guard.
        guard: Guard,
        /// The whole rule.
        span: Span,
    },
    /// `when cond => actions;`
    Sigma {
        /// The situation.
        cond: Expr,
        /// The actions.
        actions: Vec<Action>,
        /// The whole rule.
        span: Span,
    },
    /// `when cond { rules }`
    Block {
        /// The guard.
        cond: Expr,
        /// The rules inside.
        rules: Vec<Rule>,
        /// From `when` to `{`.
        span: Span,
    },
    /// `equation lhs = rhs;`: a relation that holds at every step, solved by the checker
    /// for the one unknown it determines (`sit_middle::check::equations`).
    Equation {
        /// The left side.
        lhs: Expr,
        /// The right side.
        rhs: Expr,
        /// The whole statement.
        span: Span,
    },
    /// `step(sub);`: the submodel `sub` steps here, among the rules, instead of before
    /// them.
    Step {
        /// The submodel.
        sub: Name,
        /// The whole statement.
        span: Span,
    },
    /// `mode: from -> to [when cond] (; | { rules })`.
    Transition {
        /// The mode.
        mode: Name,
        /// The state it leaves.
        from: Name,
        /// The state it enters.
        to: Name,
        /// The guard, if written.
        guard: Option<Expr>,
        /// The rules run when it fires (empty for `;`).
        rules: Vec<Rule>,
        /// From the mode's name to the guard's end.
        span: Span,
    },
    /// `for i in a:b { rules }`, expanded by the checker into its rules for each value.
    For(Box<ForRule>),
}

/// The guard of a δ rule.
#[derive(Debug, Clone, PartialEq)]
pub enum Guard {
    /// Unconditional.
    None,
    /// `when cond`.
    When(Expr),
    /// `otherwise` (the span of the keyword).
    Otherwise(Span),
}

/// A σ action.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// `path` (value true) or `!path` (value false).
    Set {
        /// The flag or `sub.on`.
        path: Vec<Name>,
        /// `hot[i]`: the indices of a cell of a flag array (expanded by the checker into
        /// the cell's name); empty otherwise.
        index: Vec<Expr>,
        /// The value assigned.
        value: bool,
        /// The whole action.
        span: Span,
    },
    /// `reset(name)`.
    Reset {
        /// The submodel.
        sub: Name,
        /// The whole action.
        span: Span,
    },
    /// `run(name)`: run the instantaneous phase `name` to its end.
    Run {
        /// The phase.
        phase: Name,
        /// The whole action.
        span: Span,
    },
}

/// An expression with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Binary operators as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `|`
    Or,
    /// `&`
    And,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `^`
    Pow,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "|",
            BinOp::And => "&",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Pow => "^",
        }
    }
}

/// Expression forms.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A real literal (the text is kept for messages).
    Num(f64),
    /// A real literal with its unit, `2 [m/s]` (issue 30): the number alone at run time,
    /// the unit read only by `sit_middle::units`.
    Quantity(f64, UnitText),
    /// `true`, `false`, `always`.
    Bool(bool),
    /// `a`, `a.b`.
    Path(Vec<Name>),
    /// `f(args)`.
    Call(Name, Vec<Expr>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `!e`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a < b`, or a chain `a <= b < c` (each link compares neighbours).
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    /// `( e )`.
    Paren(Box<Expr>),
    /// `T[i - 1]`, `T[i, j]`, `rod.T[2]`: a cell of an array, the path's last name (of
    /// this model, or of a submodel or part the names before it lead to); expanded by
    /// the checker into the cell's name (`rod.T[2]` a path to the variable `T[2]`).
    Index(Vec<Name>, Vec<Expr>),
    /// `sum(e for i in a:b)` (also `prod`, `min`, `max`): the procedure's name and
    /// the terms (expanded by the checker into a tree of operations).
    Reduce(Name, Box<Generator>),
}

/// Comparison operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl CmpOp {
    /// Whether `a OP b` holds, with IEEE comparisons (false when either is NaN, but for
    /// `!=`): the one meaning every evaluator of a comparison uses.
    #[inline]
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        }
    }
}

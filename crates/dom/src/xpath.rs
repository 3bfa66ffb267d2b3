//! XPath 1.0 expressions over the arena document: the subset wrapper-induction methods such as
//! FOREST (Oita & Senellart) generate and people write by hand, e.g.
//! `//div[@class='post' and contains(@id,'entry')]/p[2]`, `/html/body/div[3]//*[@id='main']`,
//! `//td[position()=2 or @class='x']/text()`.
//!
//! # Supported grammar
//!
//! ```text
//! expr        = or
//! or          = and ( "or" and )*
//! and         = equality ( "and" equality )*
//! equality    = relational ( ( "=" | "!=" ) relational )*
//! relational  = additive ( ( "<" | "<=" | ">" | ">=" ) additive )*
//! additive    = multiplic ( ( "+" | "-" ) multiplic )*
//! multiplic   = unary ( ( "*" | "div" | "mod" ) unary )*
//! unary       = "-"* union
//! union       = path ( "|" path )*                     (operands must be node-sets)
//! path        = location-path | filter [ ( "/" | "//" ) relative-path ]
//! filter      = primary predicate*
//! primary     = "(" expr ")" | literal | number | function "(" [ expr ( "," expr )* ] ")"
//! location-path = "/" [ relative-path ] | "//" relative-path | relative-path
//! relative-path = step ( ( "/" | "//" ) step )*
//! step        = "." | ".." | [ axis "::" | "@" ] node-test predicate*
//! axis        = child | descendant | descendant-or-self | self | parent | attribute
//!             | following-sibling | preceding-sibling | following | preceding
//!             | ancestor | ancestor-or-self
//! node-test   = name | "*" | "text()" | "node()" | "comment()" | "processing-instruction()"
//! predicate   = "[" expr "]"
//! literal     = '...' | "..."
//! number      = digits [ "." digits? ] | "." digits
//! ```
//!
//! Functions: `position`, `last`, `count`, `not`, `true`, `false`, `boolean`, `number`,
//! `string`, `concat`, `contains`, `starts-with`, `substring-before`, `substring-after`,
//! `substring`, `string-length`, `normalize-space`, `translate`, `name`, `local-name`, `sum`,
//! `floor`, `ceiling`, `round`. Values, conversions and comparisons follow XPath 1.0
//! (a node-set compares true when some node's string-value does; `[3]` means
//! `[position()=3]`; positions on reverse axes count in reverse document order).
//!
//! Names: element names compare ASCII case-insensitively on HTML elements (so `//DIV` finds
//! `<div>`) and exactly on SVG/MathML elements; the same holds for attribute names. Not
//! supported (a parse error naming the byte): variables (`$x`), namespace prefixes (`svg:rect`),
//! the `namespace` axis and the functions `id`, `lang`, `namespace-uri`.
//!
//! # Evaluation
//!
//! Expressions are evaluated with the document root as context node. A step maps the whole
//! context node-set at once, in time roughly linear in the document: descendant ranges come
//! from the pre-order numbering (`n+1..subtree_end(n)`), and without predicates, nested
//! contexts are skipped and sibling/ancestor walks stop at nodes already visited. Results are
//! kept sorted in document order without duplicates. Nothing recurses over the document; the
//! parser recurses over the expression, with nesting capped at [`MAX_DEPTH`].
//!
//! Attributes are not nodes of the arena: within evaluation they are (element, index) pairs
//! ordered after their element and before its children. [`XPath::select`] reports them as
//! their owning elements; [`XPath::select_values`] gives their values.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::document::{Document, ElementNs, NodeId, NodeKind};
use crate::select::near;

/// How deeply parentheses, predicates and function arguments may nest. Parsing and
/// evaluation recurse once per level; an unoptimised build needs about 10 KiB of stack per
/// level, so this keeps the worst case near 1 MiB. Real expressions nest a handful of levels.
pub const MAX_DEPTH: usize = 100;

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/// A parse error: where in the expression parsing stopped and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid XPath {}: {reason} at byte {offset}{}", shorten(.expr), near(.expr, *.offset))]
pub struct XPathError {
    /// The expression as given.
    pub expr: String,
    /// Byte offset into `expr` where parsing failed.
    pub offset: usize,
    /// What was wrong there.
    pub reason: String,
}

fn shorten(expr: &str) -> String {
    if expr.len() <= 120 {
        format!("{expr:?}")
    } else {
        let head: String = expr.chars().take(100).collect();
        format!("{head:?}… ({} bytes)", expr.len())
    }
}

/// A compiled XPath expression: parse once, evaluate against any number of documents.
#[derive(Clone, Debug)]
pub struct XPath {
    source: Box<str>,
    expr: Expr,
}

impl XPath {
    /// Parses an expression. Errors name the byte offset where parsing stopped.
    pub fn parse(expr: &str) -> Result<XPath, XPathError> {
        let toks = lex(expr)?;
        let mut p = Parser {
            src: expr,
            toks,
            pos: 0,
            depth: 0,
        };
        let e = p.expr()?;
        if p.peek() != &Tok::Eof {
            return p.err_here("unexpected token after the expression");
        }
        Ok(XPath {
            source: expr.into(),
            expr: e,
        })
    }

    /// The text the expression was parsed from.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The nodes the expression selects from the document root, in document order without
    /// duplicates. Attributes are reported as their owning elements. An expression that gives
    /// a string, number or boolean selects nothing, and so does one whose evaluation goes over
    /// its work budget ([`XPath::try_select`] tells that case apart).
    pub fn select(&self, doc: &Document) -> Vec<NodeId> {
        self.select_from(doc, NodeId::ROOT)
    }

    /// Like [`XPath::select`] with `context` as the context node (relative paths start
    /// there; absolute ones still start at the root).
    pub fn select_from(&self, doc: &Document, context: NodeId) -> Vec<NodeId> {
        self.try_select_from(doc, context).unwrap_or_default()
    }

    /// [`XPath::select`], or an error when the evaluation went over its work budget
    /// ([`work_budget`]): an expression from an untrusted profile cannot take time beyond
    /// linear in the document.
    pub fn try_select(&self, doc: &Document) -> Result<Vec<NodeId>, XPathBudgetError> {
        self.try_select_from(doc, NodeId::ROOT)
    }

    /// [`XPath::select_from`], or an error when the evaluation went over its work budget.
    pub fn try_select_from(
        &self,
        doc: &Document,
        context: NodeId,
    ) -> Result<Vec<NodeId>, XPathBudgetError> {
        if context.index() >= doc.len() {
            return Ok(Vec::new());
        }
        Ok(match self.eval(doc, context)? {
            Value::Nodes(ns) => {
                let mut out: Vec<NodeId> = ns.into_iter().map(|n| NodeId(n.id)).collect();
                out.dedup();
                out
            }
            _ => Vec::new(),
        })
    }

    /// The string-values of the selected nodes, in document order (one per attribute, text
    /// node or element), so `//a/@href` and `//p/text()` give what they name. An expression
    /// that gives a string, number or boolean yields that one value as a string; one whose
    /// evaluation goes over its work budget yields nothing ([`XPath::try_select_values`]).
    pub fn select_values(&self, doc: &Document) -> Vec<String> {
        self.try_select_values(doc).unwrap_or_default()
    }

    /// [`XPath::select_values`], or an error when the evaluation went over its work budget.
    pub fn try_select_values(&self, doc: &Document) -> Result<Vec<String>, XPathBudgetError> {
        Ok(match self.eval(doc, NodeId::ROOT)? {
            Value::Nodes(ns) => ns.into_iter().map(|n| string_value(doc, n)).collect(),
            v => vec![to_string(doc, &v)],
        })
    }

    fn eval(&self, doc: &Document, context: NodeId) -> Result<Value, XPathBudgetError> {
        let limit = work_budget(doc.len());
        let ev = Eval {
            doc,
            work: std::cell::Cell::new(0),
            limit,
        };
        let v = ev.eval(
            &self.expr,
            Ctx {
                node: XNode::node(context.0),
                pos: 1,
                size: 1,
            },
        );
        if ev.over() {
            return Err(XPathBudgetError {
                expr: shorten(&self.source),
                limit,
            });
        }
        Ok(v)
    }
}

/// The most work an evaluation may do on a document of `nodes` nodes, in node visits (and
/// string bytes / 64): linear in the document, and generous for real expressions, which visit
/// each node a few times per step. Predicates holding paths over the whole document (`//*[.
/// = //*]`) multiply the work by the document's size per level; such an expression stops here
/// instead of running for hours.
pub fn work_budget(nodes: usize) -> u64 {
    1_000_000 + 256 * nodes as u64
}

/// An evaluation that went over its work budget ([`work_budget`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("the XPath {expr} went over its evaluation budget of {limit} node visits")]
pub struct XPathBudgetError {
    /// The expression, shortened.
    pub expr: String,
    /// The budget it went over.
    pub limit: u64,
}

impl FromStr for XPath {
    type Err = XPathError;

    fn from_str(s: &str) -> Result<XPath, XPathError> {
        XPath::parse(s)
    }
}

/// The canonical form: abbreviations where XPath has them (`p`, `@id`, `.`, `..`, `//`), full
/// axis names elsewhere, single spaces around operators, parentheses only where needed.
/// Parsing it gives an equivalent expression with the same canonical form.
impl fmt::Display for XPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, &self.expr, 0)
    }
}

// ---------------------------------------------------------------------------------------------
// Syntax tree
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    Child,
    Descendant,
    DescendantOrSelf,
    Itself,
    Parent,
    Attribute,
    FollowingSibling,
    PrecedingSibling,
    Following,
    Preceding,
    Ancestor,
    AncestorOrSelf,
}

const AXES: &[(&str, Axis)] = &[
    ("child", Axis::Child),
    ("descendant", Axis::Descendant),
    ("descendant-or-self", Axis::DescendantOrSelf),
    ("self", Axis::Itself),
    ("parent", Axis::Parent),
    ("attribute", Axis::Attribute),
    ("following-sibling", Axis::FollowingSibling),
    ("preceding-sibling", Axis::PrecedingSibling),
    ("following", Axis::Following),
    ("preceding", Axis::Preceding),
    ("ancestor", Axis::Ancestor),
    ("ancestor-or-self", Axis::AncestorOrSelf),
];

impl Axis {
    fn name(self) -> &'static str {
        AXES.iter()
            .find(|(_, a)| *a == self)
            .map_or("child", |(n, _)| n)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum NodeTest {
    Name(Box<str>),
    Any,
    Text,
    Node,
    Comment,
    Pi,
}

#[derive(Clone, Debug)]
struct Step {
    axis: Axis,
    test: NodeTest,
    preds: Vec<Expr>,
}

impl Step {
    fn dos() -> Step {
        Step {
            axis: Axis::DescendantOrSelf,
            test: NodeTest::Node,
            preds: Vec::new(),
        }
    }

    fn is_dos_abbrev(&self) -> bool {
        self.axis == Axis::DescendantOrSelf && self.test == NodeTest::Node && self.preds.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    fn is_equality(self) -> bool {
        matches!(self, CmpOp::Eq | CmpOp::Ne)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl ArOp {
    fn as_str(self) -> &'static str {
        match self {
            ArOp::Add => "+",
            ArOp::Sub => "-",
            ArOp::Mul => "*",
            ArOp::Div => "div",
            ArOp::Mod => "mod",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    Position,
    Last,
    Count,
    Not,
    True,
    False,
    Boolean,
    Number,
    String,
    Concat,
    Contains,
    StartsWith,
    SubstringBefore,
    SubstringAfter,
    Substring,
    StringLength,
    NormalizeSpace,
    Translate,
    Name,
    LocalName,
    Sum,
    Floor,
    Ceiling,
    Round,
}

/// Name, function, minimum and maximum arity, whether the first argument must be a node-set.
const FUNCS: &[(&str, Func, usize, usize, bool)] = &[
    ("position", Func::Position, 0, 0, false),
    ("last", Func::Last, 0, 0, false),
    ("count", Func::Count, 1, 1, true),
    ("not", Func::Not, 1, 1, false),
    ("true", Func::True, 0, 0, false),
    ("false", Func::False, 0, 0, false),
    ("boolean", Func::Boolean, 1, 1, false),
    ("number", Func::Number, 0, 1, false),
    ("string", Func::String, 0, 1, false),
    ("concat", Func::Concat, 2, usize::MAX, false),
    ("contains", Func::Contains, 2, 2, false),
    ("starts-with", Func::StartsWith, 2, 2, false),
    ("substring-before", Func::SubstringBefore, 2, 2, false),
    ("substring-after", Func::SubstringAfter, 2, 2, false),
    ("substring", Func::Substring, 2, 3, false),
    ("string-length", Func::StringLength, 0, 1, false),
    ("normalize-space", Func::NormalizeSpace, 0, 1, false),
    ("translate", Func::Translate, 3, 3, false),
    ("name", Func::Name, 0, 1, true),
    ("local-name", Func::LocalName, 0, 1, true),
    ("sum", Func::Sum, 1, 1, true),
    ("floor", Func::Floor, 1, 1, false),
    ("ceiling", Func::Ceiling, 1, 1, false),
    ("round", Func::Round, 1, 1, false),
];

impl Func {
    fn name(self) -> &'static str {
        FUNCS
            .iter()
            .find(|f| f.1 == self)
            .map_or("position", |f| f.0)
    }
}

#[derive(Clone, Debug)]
enum Expr {
    Or(Vec<Expr>),
    And(Vec<Expr>),
    /// A chain of comparisons of one precedence level, folded left to right.
    Cmp(Box<Expr>, Vec<(CmpOp, Expr)>),
    Arith(Box<Expr>, Vec<(ArOp, Expr)>),
    Neg(Box<Expr>),
    Union(Vec<Expr>),
    Path {
        absolute: bool,
        steps: Vec<Step>,
    },
    Filter {
        primary: Box<Expr>,
        preds: Vec<Expr>,
        steps: Vec<Step>,
    },
    Literal(Box<str>),
    Number(f64),
    Call(Func, Vec<Expr>),
}

impl Expr {
    /// Whether the expression's value is statically a node-set.
    fn is_nodeset(&self) -> bool {
        matches!(
            self,
            Expr::Union(_) | Expr::Path { .. } | Expr::Filter { .. }
        )
    }

    /// Display precedence: the lower, the looser it binds.
    fn prec(&self) -> u8 {
        match self {
            Expr::Or(_) => 1,
            Expr::And(_) => 2,
            Expr::Cmp(_, rest) => {
                if rest.first().is_some_and(|(op, _)| op.is_equality()) {
                    3
                } else {
                    4
                }
            }
            Expr::Arith(_, rest) => {
                if rest
                    .first()
                    .is_some_and(|(op, _)| matches!(op, ArOp::Add | ArOp::Sub))
                {
                    5
                } else {
                    6
                }
            }
            Expr::Neg(_) => 7,
            Expr::Union(_) => 8,
            _ => 9,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Slash,
    DSlash,
    Dot,
    DDot,
    At,
    LBrack,
    RBrack,
    LParen,
    RParen,
    Pipe,
    Comma,
    ColonColon,
    Cmp(CmpOp),
    Plus,
    Minus,
    /// `*` as a name test.
    Star,
    /// `*`, `div`, `mod` as operators.
    Mul(ArOp),
    And,
    Or,
    Num(f64),
    Lit(Box<str>),
    Name(Box<str>),
    Eof,
}

impl Tok {
    /// Whether, after this token, `*` and `and`/`or`/`div`/`mod` are operators (XPath 1.0
    /// section 3.7's disambiguation rule).
    fn operand_ends(&self) -> bool {
        matches!(
            self,
            Tok::RBrack
                | Tok::RParen
                | Tok::Dot
                | Tok::DDot
                | Tok::Star
                | Tok::Num(_)
                | Tok::Lit(_)
                | Tok::Name(_)
        )
    }
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || (c as u32) >= 0x80
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == '-' || c == '.'
}

fn is_xml_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn lex_err<T>(src: &str, offset: usize, reason: impl Into<String>) -> Result<T, XPathError> {
    Err(XPathError {
        expr: src.to_owned(),
        offset,
        reason: reason.into(),
    })
}

fn lex(src: &str) -> Result<Vec<(Tok, usize)>, XPathError> {
    let b = src.as_bytes();
    let mut toks: Vec<(Tok, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = src[i..].chars().next().unwrap_or(' ');
        if is_xml_ws(c) {
            i += 1;
            continue;
        }
        let start = i;
        let after_operand = toks.last().is_some_and(|(t, _)| t.operand_ends());
        let next = b.get(i + 1).copied();
        let tok = match c {
            '/' if next == Some(b'/') => {
                i += 2;
                Tok::DSlash
            }
            '/' => {
                i += 1;
                Tok::Slash
            }
            '.' if next == Some(b'.') => {
                i += 2;
                Tok::DDot
            }
            '.' if next.is_some_and(|n| n.is_ascii_digit()) => lex_number(src, &mut i),
            '.' => {
                i += 1;
                Tok::Dot
            }
            '0'..='9' => lex_number(src, &mut i),
            '@' => {
                i += 1;
                Tok::At
            }
            '[' => {
                i += 1;
                Tok::LBrack
            }
            ']' => {
                i += 1;
                Tok::RBrack
            }
            '(' => {
                i += 1;
                Tok::LParen
            }
            ')' => {
                i += 1;
                Tok::RParen
            }
            '|' => {
                i += 1;
                Tok::Pipe
            }
            ',' => {
                i += 1;
                Tok::Comma
            }
            ':' if next == Some(b':') => {
                i += 2;
                Tok::ColonColon
            }
            ':' => return lex_err(src, i, "namespace prefixes are not supported"),
            '=' => {
                i += 1;
                Tok::Cmp(CmpOp::Eq)
            }
            '!' if next == Some(b'=') => {
                i += 2;
                Tok::Cmp(CmpOp::Ne)
            }
            '!' => return lex_err(src, i, "expected '!='"),
            '<' if next == Some(b'=') => {
                i += 2;
                Tok::Cmp(CmpOp::Le)
            }
            '<' => {
                i += 1;
                Tok::Cmp(CmpOp::Lt)
            }
            '>' if next == Some(b'=') => {
                i += 2;
                Tok::Cmp(CmpOp::Ge)
            }
            '>' => {
                i += 1;
                Tok::Cmp(CmpOp::Gt)
            }
            '+' => {
                i += 1;
                Tok::Plus
            }
            '-' => {
                i += 1;
                Tok::Minus
            }
            '*' => {
                i += 1;
                if after_operand {
                    Tok::Mul(ArOp::Mul)
                } else {
                    Tok::Star
                }
            }
            '\'' | '"' => {
                let close = src[i + 1..].find(c);
                match close {
                    Some(len) => {
                        let lit = &src[i + 1..i + 1 + len];
                        i += len + 2;
                        Tok::Lit(lit.into())
                    }
                    None => return lex_err(src, i, "unterminated string literal"),
                }
            }
            '$' => return lex_err(src, i, "variables are not supported"),
            c if is_name_start(c) => {
                let len = src[i..]
                    .find(|ch: char| !is_name_char(ch))
                    .unwrap_or(src.len() - i);
                let name = &src[i..i + len];
                i += len;
                // A prefixed name `p:local` or `p:*` (but not the axis separator `::`).
                if b.get(i) == Some(&b':') && b.get(i + 1) != Some(&b':') {
                    return lex_err(src, start, "namespace prefixes are not supported");
                }
                if after_operand {
                    match name {
                        "and" => Tok::And,
                        "or" => Tok::Or,
                        "div" => Tok::Mul(ArOp::Div),
                        "mod" => Tok::Mul(ArOp::Mod),
                        _ => Tok::Name(name.into()),
                    }
                } else {
                    Tok::Name(name.into())
                }
            }
            _ => return lex_err(src, i, format!("unexpected character {c:?}")),
        };
        toks.push((tok, start));
    }
    toks.push((Tok::Eof, src.len()));
    Ok(toks)
}

fn lex_number(src: &str, i: &mut usize) -> Tok {
    let rest = &src[*i..];
    let len = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    // At most one dot: `1.2.3` lexes as `1.2` followed by `.3`.
    let mut end = len;
    if let Some(first) = rest[..len].find('.')
        && let Some(second) = rest[first + 1..len].find('.')
    {
        end = first + 1 + second;
    }
    let text = &rest[..end];
    *i += end;
    Tok::Num(text.parse::<f64>().unwrap_or(f64::NAN))
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

type PResult<T> = Result<T, XPathError>;

struct Parser<'s> {
    src: &'s str,
    toks: Vec<(Tok, usize)>,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map_or(&Tok::Eof, |t| &t.0)
    }

    fn peek_at(&self, k: usize) -> &Tok {
        self.toks.get(self.pos + k).map_or(&Tok::Eof, |t| &t.0)
    }

    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(self.src.len(), |t| t.1)
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn err_at<T>(&self, offset: usize, reason: impl Into<String>) -> PResult<T> {
        lex_err(self.src, offset, reason)
    }

    fn err_here<T>(&self, reason: impl Into<String>) -> PResult<T> {
        let reason = reason.into();
        let reason = if self.peek() == &Tok::Eof {
            format!("{reason} (unexpected end)")
        } else {
            reason
        };
        self.err_at(self.offset(), reason)
    }

    fn expect(&mut self, t: Tok, what: &str) -> PResult<()> {
        if *self.peek() == t {
            self.bump();
            Ok(())
        } else {
            self.err_here(format!("expected {what}"))
        }
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err_here(format!("expression nested deeper than {MAX_DEPTH}"));
        }
        let e = self.binary(0);
        self.depth -= 1;
        e
    }

    /// Binary operators by precedence climbing: chains of one level are collected into one
    /// n-ary node in a loop, so recursion grows with nesting, never with the chain's length.
    fn binary(&mut self, min_level: u8) -> PResult<Expr> {
        let mut lhs = self.unary_expr()?;
        loop {
            let (level, op) = match *self.peek() {
                Tok::Or => (1, BinOp::Or),
                Tok::And => (2, BinOp::And),
                Tok::Cmp(op) if op.is_equality() => (3, BinOp::Cmp(op)),
                Tok::Cmp(op) => (4, BinOp::Cmp(op)),
                Tok::Plus => (5, BinOp::Arith(ArOp::Add)),
                Tok::Minus => (5, BinOp::Arith(ArOp::Sub)),
                Tok::Mul(op) => (6, BinOp::Arith(op)),
                _ => return Ok(lhs),
            };
            if level < min_level {
                return Ok(lhs);
            }
            self.bump();
            let rhs = self.binary(level + 1)?;
            lhs = combine(lhs, level, op, rhs);
        }
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let mut minus = 0usize;
        while self.peek() == &Tok::Minus {
            self.bump();
            minus += 1;
        }
        let e = self.union_expr()?;
        Ok(match minus {
            0 => e,
            m if m % 2 == 1 => Expr::Neg(Box::new(e)),
            _ => Expr::Call(Func::Number, vec![e]),
        })
    }

    fn union_expr(&mut self) -> PResult<Expr> {
        let at = self.offset();
        let first = self.path_expr()?;
        if self.peek() != &Tok::Pipe {
            return Ok(first);
        }
        if !first.is_nodeset() {
            return self.err_at(at, "'|' needs node-sets on both sides");
        }
        let mut v = vec![first];
        while self.peek() == &Tok::Pipe {
            self.bump();
            let at = self.offset();
            let e = self.path_expr()?;
            if !e.is_nodeset() {
                return self.err_at(at, "'|' needs node-sets on both sides");
            }
            v.push(e);
        }
        Ok(Expr::Union(v))
    }

    fn path_expr(&mut self) -> PResult<Expr> {
        let is_filter = match self.peek() {
            Tok::LParen | Tok::Lit(_) | Tok::Num(_) => true,
            Tok::Name(n) => {
                self.peek_at(1) == &Tok::LParen
                    && !matches!(&**n, "node" | "text" | "comment" | "processing-instruction")
            }
            _ => false,
        };
        if !is_filter {
            return self.location_path();
        }
        let at = self.offset();
        let primary = self.primary()?;
        let mut preds = Vec::new();
        while self.peek() == &Tok::LBrack {
            preds.push(self.predicate()?);
        }
        let mut steps = Vec::new();
        match self.peek() {
            Tok::Slash => {
                self.bump();
                self.relative_path(&mut steps)?;
            }
            Tok::DSlash => {
                self.bump();
                steps.push(Step::dos());
                self.relative_path(&mut steps)?;
            }
            _ => {}
        }
        if preds.is_empty() && steps.is_empty() {
            return Ok(primary);
        }
        if !primary.is_nodeset() {
            return self.err_at(
                at,
                "predicates and paths can only follow an expression that gives a node-set",
            );
        }
        Ok(Expr::Filter {
            primary: Box::new(primary),
            preds,
            steps,
        })
    }

    fn primary(&mut self) -> PResult<Expr> {
        let at = self.offset();
        match self.bump() {
            Tok::LParen => {
                let e = self.expr()?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Lit(s) => Ok(Expr::Literal(s)),
            Tok::Num(n) => Ok(Expr::Number(n)),
            Tok::Name(name) => {
                let Some(&(_, func, min, max, nodeset)) = FUNCS.iter().find(|f| *f.0 == *name)
                else {
                    let why = if matches!(&*name, "id" | "lang" | "namespace-uri") {
                        format!("function '{name}' is not supported")
                    } else {
                        format!("unknown function '{name}'")
                    };
                    return self.err_at(at, why);
                };
                self.expect(Tok::LParen, "'('")?;
                let mut args = Vec::new();
                if self.peek() != &Tok::RParen {
                    loop {
                        let arg_at = self.offset();
                        let arg = self.expr()?;
                        if nodeset && args.is_empty() && !arg.is_nodeset() {
                            return self.err_at(
                                arg_at,
                                format!("the argument of {name}() must be a node-set"),
                            );
                        }
                        args.push(arg);
                        if self.peek() == &Tok::Comma {
                            self.bump();
                        } else {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen, "',' or ')'")?;
                if args.len() < min || args.len() > max {
                    let want = if min == max {
                        format!("{min}")
                    } else if max == usize::MAX {
                        format!("at least {min}")
                    } else {
                        format!("{min} to {max}")
                    };
                    return self.err_at(
                        at,
                        format!("{name}() takes {want} argument(s), got {}", args.len()),
                    );
                }
                Ok(Expr::Call(func, args))
            }
            _ => self.err_at(at, "expected an expression"),
        }
    }

    fn predicate(&mut self) -> PResult<Expr> {
        self.expect(Tok::LBrack, "'['")?;
        let e = self.expr()?;
        self.expect(Tok::RBrack, "']'")?;
        Ok(e)
    }

    fn location_path(&mut self) -> PResult<Expr> {
        let mut steps = Vec::new();
        let absolute = match self.peek() {
            Tok::Slash => {
                self.bump();
                if self.starts_step() {
                    self.relative_path(&mut steps)?;
                }
                true
            }
            Tok::DSlash => {
                self.bump();
                steps.push(Step::dos());
                self.relative_path(&mut steps)?;
                true
            }
            _ => {
                if !self.starts_step() {
                    return self.err_here("expected an expression");
                }
                self.relative_path(&mut steps)?;
                false
            }
        };
        Ok(Expr::Path { absolute, steps })
    }

    fn starts_step(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Dot | Tok::DDot | Tok::At | Tok::Star | Tok::Name(_)
        )
    }

    fn relative_path(&mut self, steps: &mut Vec<Step>) -> PResult<()> {
        loop {
            steps.push(self.step()?);
            match self.peek() {
                Tok::Slash => {
                    self.bump();
                }
                Tok::DSlash => {
                    self.bump();
                    steps.push(Step::dos());
                }
                _ => return Ok(()),
            }
        }
    }

    fn step(&mut self) -> PResult<Step> {
        let at = self.offset();
        let abbrev = match self.peek() {
            Tok::Dot => Some(Axis::Itself),
            Tok::DDot => Some(Axis::Parent),
            _ => None,
        };
        if let Some(axis) = abbrev {
            self.bump();
            if self.peek() == &Tok::LBrack {
                return self.err_here(format!(
                    "predicates cannot follow '.' or '..'; write {}::node()[...]",
                    axis.name()
                ));
            }
            return Ok(Step {
                axis,
                test: NodeTest::Node,
                preds: Vec::new(),
            });
        }
        let axis = match self.peek().clone() {
            Tok::At => {
                self.bump();
                Axis::Attribute
            }
            Tok::Name(n) if self.peek_at(1) == &Tok::ColonColon => {
                let Some(&(_, axis)) = AXES.iter().find(|(a, _)| *a == &*n) else {
                    let why = if &*n == "namespace" {
                        "the namespace axis is not supported".to_owned()
                    } else {
                        format!("unknown axis '{n}'")
                    };
                    return self.err_at(at, why);
                };
                self.bump();
                self.bump();
                axis
            }
            _ => Axis::Child,
        };
        let test = match self.bump() {
            Tok::Star => NodeTest::Any,
            Tok::Name(n) if self.peek() == &Tok::LParen => {
                let test = match &*n {
                    "node" => NodeTest::Node,
                    "text" => NodeTest::Text,
                    "comment" => NodeTest::Comment,
                    "processing-instruction" => NodeTest::Pi,
                    _ => {
                        return self.err_at(
                            self.toks.get(self.pos - 1).map_or(at, |t| t.1),
                            format!("'{n}()' is not a node test"),
                        );
                    }
                };
                self.bump();
                self.expect(Tok::RParen, "')'")?;
                test
            }
            Tok::Name(n) => NodeTest::Name(n),
            _ => {
                self.pos = self.pos.saturating_sub(1);
                return self.err_here("expected a node test (a name, '*', text(), node(), ...)");
            }
        };
        let mut preds = Vec::new();
        while self.peek() == &Tok::LBrack {
            preds.push(self.predicate()?);
        }
        Ok(Step { axis, test, preds })
    }
}

#[derive(Clone, Copy)]
enum BinOp {
    Or,
    And,
    Cmp(CmpOp),
    Arith(ArOp),
}

/// `lhs op rhs` at precedence `level`, appended to `lhs` when it is a chain of that level
/// (all binary operators associate to the left).
fn combine(lhs: Expr, level: u8, op: BinOp, rhs: Expr) -> Expr {
    let same = lhs.prec() == level;
    match (op, lhs) {
        (BinOp::Or, Expr::Or(mut v)) | (BinOp::And, Expr::And(mut v)) => {
            v.push(rhs);
            if matches!(op, BinOp::Or) {
                Expr::Or(v)
            } else {
                Expr::And(v)
            }
        }
        (BinOp::Or, l) => Expr::Or(vec![l, rhs]),
        (BinOp::And, l) => Expr::And(vec![l, rhs]),
        (BinOp::Cmp(op), Expr::Cmp(first, mut rest)) if same => {
            rest.push((op, rhs));
            Expr::Cmp(first, rest)
        }
        (BinOp::Cmp(op), l) => Expr::Cmp(Box::new(l), vec![(op, rhs)]),
        (BinOp::Arith(op), Expr::Arith(first, mut rest)) if same => {
            rest.push((op, rhs));
            Expr::Arith(first, rest)
        }
        (BinOp::Arith(op), l) => Expr::Arith(Box::new(l), vec![(op, rhs)]),
    }
}

// ---------------------------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------------------------

fn write_expr(f: &mut fmt::Formatter<'_>, e: &Expr, min_prec: u8) -> fmt::Result {
    let paren = e.prec() < min_prec;
    if paren {
        f.write_str("(")?;
    }
    let p = e.prec();
    match e {
        Expr::Or(v) | Expr::And(v) | Expr::Union(v) => {
            let sep = match e {
                Expr::Or(_) => " or ",
                Expr::And(_) => " and ",
                _ => " | ",
            };
            for (i, x) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                write_expr(f, x, if i == 0 { p } else { p + 1 })?;
            }
        }
        Expr::Cmp(first, rest) => {
            write_expr(f, first, p)?;
            for (op, x) in rest {
                write!(f, " {} ", op.as_str())?;
                write_expr(f, x, p + 1)?;
            }
        }
        Expr::Arith(first, rest) => {
            write_expr(f, first, p)?;
            for (op, x) in rest {
                write!(f, " {} ", op.as_str())?;
                write_expr(f, x, p + 1)?;
            }
        }
        Expr::Neg(x) => {
            f.write_str("-")?;
            write_expr(f, x, p + 1)?;
        }
        Expr::Path { absolute, steps } => {
            if *absolute {
                f.write_str("/")?;
            }
            write_steps(f, steps, *absolute)?;
        }
        Expr::Filter {
            primary,
            preds,
            steps,
        } => {
            let bare = matches!(**primary, Expr::Call(..));
            if bare {
                write_expr(f, primary, 0)?;
            } else {
                f.write_str("(")?;
                write_expr(f, primary, 0)?;
                f.write_str(")")?;
            }
            write_preds(f, preds)?;
            if !steps.is_empty() {
                f.write_str("/")?;
                write_steps(f, steps, true)?;
            }
        }
        Expr::Literal(s) => {
            if s.contains('\'') {
                write!(f, "\"{s}\"")?;
            } else {
                write!(f, "'{s}'")?;
            }
        }
        Expr::Number(n) => {
            if n.is_finite() {
                f.write_str(&number_to_string(*n))?;
            } else if n.is_nan() {
                f.write_str("(0 div 0)")?;
            } else if *n > 0.0 {
                f.write_str("(1 div 0)")?;
            } else {
                f.write_str("(-1 div 0)")?;
            }
        }
        Expr::Call(func, args) => {
            write!(f, "{}(", func.name())?;
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write_expr(f, a, 0)?;
            }
            f.write_str(")")?;
        }
    }
    if paren {
        f.write_str(")")?;
    }
    Ok(())
}

/// Writes steps separated by `/`; `after_slash` says a `/` was just written (or the steps
/// follow one), so a leading `descendant-or-self::node()` may be written as `//`.
fn write_steps(f: &mut fmt::Formatter<'_>, steps: &[Step], after_slash: bool) -> fmt::Result {
    let mut suppress_sep = true;
    for (i, s) in steps.iter().enumerate() {
        if !suppress_sep {
            f.write_str("/")?;
        }
        suppress_sep = false;
        if s.is_dos_abbrev() && i + 1 < steps.len() && (i > 0 || after_slash) {
            f.write_str("/")?;
            suppress_sep = true;
            continue;
        }
        match (s.axis, &s.test, s.preds.is_empty()) {
            (Axis::Itself, NodeTest::Node, true) => f.write_str(".")?,
            (Axis::Parent, NodeTest::Node, true) => f.write_str("..")?,
            (axis, test, _) => {
                match axis {
                    Axis::Child => {}
                    Axis::Attribute => f.write_str("@")?,
                    a => write!(f, "{}::", a.name())?,
                }
                match test {
                    NodeTest::Name(n) => f.write_str(n)?,
                    NodeTest::Any => f.write_str("*")?,
                    NodeTest::Text => f.write_str("text()")?,
                    NodeTest::Node => f.write_str("node()")?,
                    NodeTest::Comment => f.write_str("comment()")?,
                    NodeTest::Pi => f.write_str("processing-instruction()")?,
                }
                write_preds(f, &s.preds)?;
            }
        }
    }
    Ok(())
}

fn write_preds(f: &mut fmt::Formatter<'_>, preds: &[Expr]) -> fmt::Result {
    for p in preds {
        f.write_str("[")?;
        write_expr(f, p, 0)?;
        f.write_str("]")?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/// A node of the XPath data model: an arena node (`attr == 0`) or attribute `attr - 1` of
/// element `id`. The derived order is document order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct XNode {
    id: u32,
    attr: u32,
}

impl XNode {
    fn node(id: u32) -> XNode {
        XNode { id, attr: 0 }
    }

    fn is_attr(self) -> bool {
        self.attr != 0
    }
}

#[derive(Clone, Debug)]
enum Value {
    /// Sorted in document order, no duplicates.
    Nodes(Vec<XNode>),
    Str(String),
    Num(f64),
    Bool(bool),
}

#[derive(Clone, Copy)]
struct Ctx {
    node: XNode,
    pos: usize,
    size: usize,
}

fn string_value(doc: &Document, n: XNode) -> String {
    let id = NodeId(n.id);
    if n.is_attr() {
        return doc
            .attrs(id)
            .get(n.attr as usize - 1)
            .map_or(String::new(), |a| a.value.to_string());
    }
    match doc.kind(id) {
        NodeKind::Document | NodeKind::Element => doc.subtree_text(id),
        NodeKind::Text | NodeKind::Comment | NodeKind::ProcessingInstruction => {
            doc.text(id).to_owned()
        }
        NodeKind::Doctype => String::new(),
    }
}

fn to_string(doc: &Document, v: &Value) -> String {
    match v {
        Value::Nodes(ns) => ns.first().map_or(String::new(), |&n| string_value(doc, n)),
        Value::Str(s) => s.clone(),
        Value::Num(n) => number_to_string(*n),
        Value::Bool(b) => if *b { "true" } else { "false" }.to_owned(),
    }
}

fn to_number(doc: &Document, v: &Value) -> f64 {
    match v {
        Value::Num(n) => *n,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Str(s) => str_to_number(s),
        Value::Nodes(_) => str_to_number(&to_string(doc, v)),
    }
}

fn to_bool(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Num(n) => *n != 0.0 && !n.is_nan(),
        Value::Str(s) => !s.is_empty(),
        Value::Nodes(ns) => !ns.is_empty(),
    }
}

/// XPath's `number()` of a string: optional whitespace, an optional minus, digits with an
/// optional fraction, optional whitespace; anything else is NaN.
fn str_to_number(s: &str) -> f64 {
    let t = s.trim_matches(is_xml_ws);
    let body = t.strip_prefix('-').unwrap_or(t);
    let digits = body.bytes().filter(u8::is_ascii_digit).count();
    let dots = body.bytes().filter(|&b| b == b'.').count();
    if digits == 0 || dots > 1 || digits + dots != body.len() {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_owned()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else if n == 0.0 {
        "0".to_owned()
    } else {
        format!("{n}")
    }
}

fn normalize_space(s: &str) -> String {
    s.split(is_xml_ws)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn xpath_round(n: f64) -> f64 {
    if !n.is_finite() || n == 0.0 {
        n
    } else if (-0.5..0.0).contains(&n) {
        -0.0
    } else {
        (n + 0.5).floor()
    }
}

fn cmp_atoms(op: CmpOp, a: &Atom, b: &Atom) -> bool {
    if op.is_equality() {
        let eq = match (a, b) {
            (Atom::Bool(x), y) | (y, Atom::Bool(x)) => *x == y.to_bool(),
            (Atom::Num(x), y) | (y, Atom::Num(x)) => *x == y.to_num(),
            (Atom::Str(x), Atom::Str(y)) => x == y,
        };
        return if op == CmpOp::Eq { eq } else { !eq };
    }
    cmp_nums(op, a.to_num(), b.to_num())
}

fn cmp_nums(op: CmpOp, x: f64, y: f64) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        o => o,
    }
}

/// A non-node-set value, borrowed for comparisons.
enum Atom<'a> {
    Str(&'a str),
    Num(f64),
    Bool(bool),
}

impl Atom<'_> {
    fn to_num(&self) -> f64 {
        match self {
            Atom::Str(s) => str_to_number(s),
            Atom::Num(n) => *n,
            Atom::Bool(b) => f64::from(u8::from(*b)),
        }
    }

    fn to_bool(&self) -> bool {
        match self {
            Atom::Str(s) => !s.is_empty(),
            Atom::Num(n) => *n != 0.0 && !n.is_nan(),
            Atom::Bool(b) => *b,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

struct Eval<'d> {
    doc: &'d Document,
    /// Work done so far (node visits and string bytes / 64), and the most allowed.
    work: std::cell::Cell<u64>,
    limit: u64,
}

impl Eval<'_> {
    /// Counts `n` units of work; false once the budget is spent (results from then on are
    /// meaningless, and the caller reports the overrun).
    fn charge(&self, n: usize) -> bool {
        let w = self.work.get().saturating_add(n as u64);
        self.work.set(w);
        w <= self.limit
    }

    fn over(&self) -> bool {
        self.work.get() > self.limit
    }

    fn eval(&self, e: &Expr, ctx: Ctx) -> Value {
        let doc = self.doc;
        match e {
            Expr::Or(v) => Value::Bool(v.iter().any(|x| to_bool(&self.eval(x, ctx)))),
            Expr::And(v) => Value::Bool(v.iter().all(|x| to_bool(&self.eval(x, ctx)))),
            Expr::Cmp(first, rest) => {
                let mut acc = self.eval(first, ctx);
                for (op, x) in rest {
                    let rhs = self.eval(x, ctx);
                    acc = Value::Bool(self.compare(*op, &acc, &rhs));
                }
                acc
            }
            Expr::Arith(first, rest) => {
                let mut acc = to_number(doc, &self.eval(first, ctx));
                for (op, x) in rest {
                    let y = to_number(doc, &self.eval(x, ctx));
                    acc = match op {
                        ArOp::Add => acc + y,
                        ArOp::Sub => acc - y,
                        ArOp::Mul => acc * y,
                        ArOp::Div => acc / y,
                        ArOp::Mod => acc % y,
                    };
                }
                Value::Num(acc)
            }
            Expr::Neg(x) => Value::Num(-to_number(doc, &self.eval(x, ctx))),
            Expr::Union(v) => {
                let mut out = Vec::new();
                for x in v {
                    if let Value::Nodes(ns) = self.eval(x, ctx) {
                        out.extend(ns);
                    }
                }
                out.sort_unstable();
                out.dedup();
                Value::Nodes(out)
            }
            Expr::Path { absolute, steps } => {
                let start = if *absolute {
                    XNode::node(NodeId::ROOT.0)
                } else {
                    ctx.node
                };
                Value::Nodes(self.steps(vec![start], steps))
            }
            Expr::Filter {
                primary,
                preds,
                steps,
            } => {
                let Value::Nodes(mut ns) = self.eval(primary, ctx) else {
                    return Value::Nodes(Vec::new());
                };
                for p in preds {
                    ns = self.filter(ns, p);
                }
                Value::Nodes(self.steps(ns, steps))
            }
            Expr::Literal(s) => Value::Str(s.to_string()),
            Expr::Number(n) => Value::Num(*n),
            Expr::Call(f, args) => self.call(*f, args, ctx),
        }
    }

    fn compare(&self, op: CmpOp, a: &Value, b: &Value) -> bool {
        let doc = self.doc;
        match (a, b) {
            (Value::Nodes(x), Value::Nodes(y)) => {
                let xs: Vec<String> = x.iter().map(|&n| string_value(doc, n)).collect();
                let ys: Vec<String> = y.iter().map(|&n| string_value(doc, n)).collect();
                let bytes: usize = xs.iter().chain(&ys).map(String::len).sum();
                if !self.charge(x.len() + y.len() + bytes / 64) {
                    return false;
                }
                match op {
                    CmpOp::Eq => {
                        let set: HashSet<&str> = ys.iter().map(String::as_str).collect();
                        xs.iter().any(|s| set.contains(s.as_str()))
                    }
                    CmpOp::Ne => {
                        let xset: HashSet<&str> = xs.iter().map(String::as_str).collect();
                        let yset: HashSet<&str> = ys.iter().map(String::as_str).collect();
                        match (xset.len(), yset.len()) {
                            (0, _) | (_, 0) => false,
                            (1, 1) => xset != yset,
                            _ => true,
                        }
                    }
                    _ => {
                        let nums = |v: &[String]| -> Vec<f64> {
                            v.iter()
                                .map(|s| str_to_number(s))
                                .filter(|n| !n.is_nan())
                                .collect()
                        };
                        let (xn, yn) = (nums(&xs), nums(&ys));
                        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
                        let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                        if xn.is_empty() || yn.is_empty() {
                            return false;
                        }
                        match op {
                            CmpOp::Lt | CmpOp::Le => cmp_nums(op, min(&xn), max(&yn)),
                            _ => cmp_nums(op, max(&xn), min(&yn)),
                        }
                    }
                }
            }
            (Value::Nodes(x), other) => self.nodes_vs_atom(op, x, other),
            (other, Value::Nodes(y)) => self.nodes_vs_atom(flip(op), y, other),
            (x, y) => cmp_atoms(op, &atom(x), &atom(y)),
        }
    }

    /// `nodes op other` for a non-node-set `other`.
    fn nodes_vs_atom(&self, op: CmpOp, nodes: &[XNode], other: &Value) -> bool {
        if let Value::Bool(b) = other {
            return cmp_atoms(op, &Atom::Bool(!nodes.is_empty()), &Atom::Bool(*b));
        }
        let other = atom(other);
        nodes.iter().any(|&n| {
            let s = string_value(self.doc, n);
            cmp_atoms(op, &Atom::Str(&s), &other)
        })
    }

    fn call(&self, f: Func, args: &[Expr], ctx: Ctx) -> Value {
        let doc = self.doc;
        let arg = |i: usize| -> Value {
            args.get(i)
                .map_or(Value::Nodes(vec![ctx.node]), |a| self.eval(a, ctx))
        };
        let s = |i: usize| to_string(doc, &arg(i));
        let n = |i: usize| to_number(doc, &arg(i));
        match f {
            Func::Position => Value::Num(ctx.pos as f64),
            Func::Last => Value::Num(ctx.size as f64),
            Func::Count => match arg(0) {
                Value::Nodes(ns) => Value::Num(ns.len() as f64),
                _ => Value::Num(f64::NAN),
            },
            Func::Not => Value::Bool(!to_bool(&arg(0))),
            Func::True => Value::Bool(true),
            Func::False => Value::Bool(false),
            Func::Boolean => Value::Bool(to_bool(&arg(0))),
            Func::Number => Value::Num(n(0)),
            Func::String => Value::Str(s(0)),
            Func::Concat => Value::Str((0..args.len()).map(s).collect()),
            Func::Contains => Value::Bool(s(0).contains(&s(1))),
            Func::StartsWith => Value::Bool(s(0).starts_with(&s(1))),
            Func::SubstringBefore => {
                let (a, b) = (s(0), s(1));
                Value::Str(a.find(&b).map_or(String::new(), |i| a[..i].to_owned()))
            }
            Func::SubstringAfter => {
                let (a, b) = (s(0), s(1));
                Value::Str(
                    a.find(&b)
                        .map_or(String::new(), |i| a[i + b.len()..].to_owned()),
                )
            }
            Func::Substring => {
                let a = s(0);
                let start = xpath_round(n(1));
                let end = if args.len() > 2 {
                    start + xpath_round(n(2))
                } else {
                    f64::INFINITY
                };
                Value::Str(
                    a.chars()
                        .enumerate()
                        .filter(|&(i, _)| {
                            let p = (i + 1) as f64;
                            p >= start && p < end
                        })
                        .map(|(_, c)| c)
                        .collect(),
                )
            }
            Func::StringLength => Value::Num(s(0).chars().count() as f64),
            Func::NormalizeSpace => Value::Str(normalize_space(&s(0))),
            Func::Translate => {
                let (a, from, to) = (s(0), s(1), s(2));
                let from: Vec<char> = from.chars().collect();
                let to: Vec<char> = to.chars().collect();
                Value::Str(
                    a.chars()
                        .filter_map(|c| match from.iter().position(|&x| x == c) {
                            Some(i) => to.get(i).copied(),
                            None => Some(c),
                        })
                        .collect(),
                )
            }
            Func::Name | Func::LocalName => match arg(0) {
                Value::Nodes(ns) => Value::Str(ns.first().map_or(String::new(), |&x| {
                    if x.is_attr() {
                        doc.attrs(NodeId(x.id))
                            .get(x.attr as usize - 1)
                            .map_or(String::new(), |a| a.name.to_string())
                    } else if doc.is_element(NodeId(x.id)) {
                        doc.tag(NodeId(x.id)).to_owned()
                    } else {
                        String::new()
                    }
                })),
                _ => Value::Str(String::new()),
            },
            Func::Sum => match arg(0) {
                Value::Nodes(ns) => Value::Num(
                    ns.iter()
                        .map(|&x| str_to_number(&string_value(doc, x)))
                        .sum(),
                ),
                _ => Value::Num(f64::NAN),
            },
            Func::Floor => Value::Num(n(0).floor()),
            Func::Ceiling => Value::Num(n(0).ceil()),
            Func::Round => Value::Num(xpath_round(n(0))),
        }
    }

    /// Keeps the nodes (in their given order, which gives their positions) for which the
    /// predicate holds.
    fn filter(&self, nodes: Vec<XNode>, pred: &Expr) -> Vec<XNode> {
        if let Expr::Number(k) = pred {
            let k = *k;
            if k.fract() == 0.0 && k >= 1.0 && k <= nodes.len() as f64 {
                return vec![nodes[k as usize - 1]];
            }
            return Vec::new();
        }
        let size = nodes.len();
        let mut out = Vec::new();
        for (i, &node) in nodes.iter().enumerate() {
            if !self.charge(1) {
                return Vec::new();
            }
            let ctx = Ctx {
                node,
                pos: i + 1,
                size,
            };
            let keep = match self.eval(pred, ctx) {
                Value::Num(k) => k == (i + 1) as f64,
                v => to_bool(&v),
            };
            if keep {
                out.push(node);
            }
        }
        out
    }

    /// Applies location steps to a context node-set (sorted, no duplicates); the result is
    /// sorted without duplicates.
    fn steps(&self, mut cur: Vec<XNode>, steps: &[Step]) -> Vec<XNode> {
        for step in steps {
            if cur.is_empty() || !self.charge(cur.len()) {
                break;
            }
            let mut out = Vec::new();
            if step.preds.is_empty() {
                self.axis_union(&cur, step, &mut out);
            } else {
                let mut cand = Vec::new();
                for &c in &cur {
                    cand.clear();
                    self.axis_from(c, step, &mut cand);
                    let mut kept = std::mem::take(&mut cand);
                    for p in &step.preds {
                        kept = self.filter(kept, p);
                    }
                    out.extend_from_slice(&kept);
                    cand = kept;
                }
            }
            out.sort_unstable();
            out.dedup();
            if !self.charge(out.len()) {
                return Vec::new();
            }
            cur = out;
        }
        cur
    }

    fn test(&self, n: XNode, axis: Axis, test: &NodeTest) -> bool {
        let doc = self.doc;
        let id = NodeId(n.id);
        if n.is_attr() {
            // Attribute nodes are only ever reached by the attribute axis or by self-like
            // axes from an attribute, where they are the principal node type.
            let Some(a) = doc.attrs(id).get(n.attr as usize - 1) else {
                return false;
            };
            return match test {
                NodeTest::Node => true,
                // `*` and names test the principal node type, which is attribute only on
                // the attribute axis (`@id/self::*` is empty, `@id/self::node()` is not).
                NodeTest::Any => axis == Axis::Attribute,
                NodeTest::Name(name) => {
                    axis == Axis::Attribute && name_eq(doc.namespace(id), &a.name, name)
                }
                _ => false,
            };
        }
        match test {
            NodeTest::Node => true,
            NodeTest::Text => doc.kind(id) == NodeKind::Text,
            NodeTest::Comment => doc.kind(id) == NodeKind::Comment,
            NodeTest::Pi => doc.kind(id) == NodeKind::ProcessingInstruction,
            NodeTest::Any => doc.is_element(id),
            NodeTest::Name(name) => {
                doc.is_element(id) && name_eq(doc.namespace(id), doc.tag(id), name)
            }
        }
    }

    fn attrs_of(&self, c: XNode, step: &Step, out: &mut Vec<XNode>) {
        if c.is_attr() {
            return;
        }
        let id = NodeId(c.id);
        let ns = self.doc.namespace(id);
        for (i, a) in self.doc.attrs(id).iter().enumerate() {
            let ok = match &step.test {
                NodeTest::Node | NodeTest::Any => true,
                NodeTest::Name(name) => name_eq(ns, &a.name, name),
                _ => false,
            };
            if ok {
                out.push(XNode {
                    id: c.id,
                    attr: i as u32 + 1,
                });
            }
        }
    }

    /// The nodes of `step`'s axis from `c` that pass its node test, in axis order.
    fn axis_from(&self, c: XNode, step: &Step, out: &mut Vec<XNode>) {
        let doc = self.doc;
        let id = NodeId(c.id);
        let push = |n: XNode, out: &mut Vec<XNode>| {
            if self.test(n, step.axis, &step.test) {
                out.push(n);
            }
        };
        match step.axis {
            Axis::Attribute => self.attrs_of(c, step, out),
            Axis::Itself => push(c, out),
            Axis::Child => {
                if !c.is_attr() {
                    for ch in doc.children(id) {
                        push(XNode::node(ch.0), out);
                    }
                }
            }
            Axis::Descendant | Axis::DescendantOrSelf => {
                if step.axis == Axis::DescendantOrSelf {
                    push(c, out);
                }
                if !c.is_attr() {
                    for d in doc.descendants(id) {
                        push(XNode::node(d.0), out);
                    }
                }
            }
            Axis::Parent => {
                if c.is_attr() {
                    push(XNode::node(c.id), out);
                } else if let Some(p) = doc.parent(id) {
                    push(XNode::node(p.0), out);
                }
            }
            Axis::Ancestor | Axis::AncestorOrSelf => {
                if step.axis == Axis::AncestorOrSelf {
                    push(c, out);
                }
                if c.is_attr() {
                    push(XNode::node(c.id), out);
                }
                for a in doc.ancestors(id) {
                    push(XNode::node(a.0), out);
                }
            }
            Axis::FollowingSibling => {
                if !c.is_attr() {
                    let mut s = doc.next_sibling(id);
                    while let Some(x) = s {
                        push(XNode::node(x.0), out);
                        s = doc.next_sibling(x);
                    }
                }
            }
            Axis::PrecedingSibling => {
                if !c.is_attr()
                    && let Some(p) = doc.parent(id)
                {
                    let start = out.len();
                    for x in doc.children(p).take_while(|&x| x != id) {
                        push(XNode::node(x.0), out);
                    }
                    out[start..].reverse();
                }
            }
            Axis::Following => {
                let from = if c.is_attr() {
                    c.id + 1
                } else {
                    doc.subtree_end(id).0
                };
                for x in from..doc.len() as u32 {
                    push(XNode::node(x), out);
                }
            }
            Axis::Preceding => {
                // Nodes before `c` (or before an attribute's element) that are not ancestors.
                for x in (0..c.id).rev() {
                    if doc.subtree_end(NodeId(x)).0 <= c.id {
                        push(XNode::node(x), out);
                    }
                }
            }
        }
    }

    /// The union over all context nodes of a predicate-free step, visiting each node of the
    /// document a bounded number of times. `out` need not be sorted.
    fn axis_union(&self, cur: &[XNode], step: &Step, out: &mut Vec<XNode>) {
        let doc = self.doc;
        let single = cur.len() == 1;
        match step.axis {
            Axis::Descendant | Axis::DescendantOrSelf => {
                let mut covered_end = 0u32;
                for &c in cur {
                    if c.is_attr() {
                        if step.axis == Axis::DescendantOrSelf
                            && self.test(c, step.axis, &step.test)
                        {
                            out.push(c);
                        }
                        continue;
                    }
                    if c.id < covered_end {
                        continue;
                    }
                    covered_end = doc.subtree_end(NodeId(c.id)).0;
                    self.axis_from(c, step, out);
                }
            }
            Axis::Following => {
                if let Some(from) = cur
                    .iter()
                    .map(|&c| {
                        if c.is_attr() {
                            c.id + 1
                        } else {
                            doc.subtree_end(NodeId(c.id)).0
                        }
                    })
                    .min()
                {
                    for x in from..doc.len() as u32 {
                        if self.test(XNode::node(x), step.axis, &step.test) {
                            out.push(XNode::node(x));
                        }
                    }
                }
            }
            Axis::Preceding => {
                if let Some(&last) = cur.last() {
                    self.axis_from(last, step, out);
                }
            }
            Axis::Ancestor | Axis::AncestorOrSelf | Axis::FollowingSibling if !single => {
                let mut seen: HashSet<u32> = HashSet::new();
                for &c in cur {
                    if step.axis == Axis::AncestorOrSelf && self.test(c, step.axis, &step.test) {
                        out.push(c);
                    }
                    let mut next = match step.axis {
                        Axis::FollowingSibling => {
                            if c.is_attr() {
                                None
                            } else {
                                doc.next_sibling(NodeId(c.id))
                            }
                        }
                        _ if c.is_attr() => Some(NodeId(c.id)),
                        _ => doc.parent(NodeId(c.id)),
                    };
                    while let Some(x) = next {
                        if !seen.insert(x.0) {
                            break;
                        }
                        let xn = XNode::node(x.0);
                        if self.test(xn, step.axis, &step.test) {
                            out.push(xn);
                        }
                        next = match step.axis {
                            Axis::FollowingSibling => doc.next_sibling(x),
                            _ => doc.parent(x),
                        };
                    }
                }
            }
            Axis::PrecedingSibling if !single => {
                let mut seen: HashSet<u32> = HashSet::new();
                for &c in cur.iter().rev() {
                    if c.is_attr() {
                        continue;
                    }
                    let id = NodeId(c.id);
                    let Some(p) = doc.parent(id) else { continue };
                    for x in doc.children(p).take_while(|&x| x != id) {
                        if !seen.insert(x.0) {
                            break;
                        }
                        let xn = XNode::node(x.0);
                        if self.test(xn, step.axis, &step.test) {
                            out.push(xn);
                        }
                    }
                }
            }
            _ => {
                for &c in cur {
                    self.axis_from(c, step, out);
                }
            }
        }
    }
}

fn name_eq(ns: ElementNs, actual: &str, wanted: &str) -> bool {
    if ns == ElementNs::Html {
        actual.eq_ignore_ascii_case(wanted)
    } else {
        actual == wanted
    }
}

fn atom(v: &Value) -> Atom<'_> {
    match v {
        Value::Str(s) => Atom::Str(s),
        Value::Num(n) => Atom::Num(*n),
        Value::Bool(b) => Atom::Bool(*b),
        Value::Nodes(_) => Atom::Bool(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xpath_numbers_parse_strictly() {
        assert_eq!(str_to_number(" 12 "), 12.0);
        assert_eq!(str_to_number("-1.5"), -1.5);
        assert_eq!(str_to_number(".5"), 0.5);
        for bad in [
            "", "-", ".", "1e3", "inf", "NaN", "1.2.3", "+1", "0x10", "1 2",
        ] {
            assert!(str_to_number(bad).is_nan(), "{bad:?}");
        }
    }

    #[test]
    fn xpath_number_strings() {
        assert_eq!(number_to_string(3.0), "3");
        assert_eq!(number_to_string(-0.0), "0");
        assert_eq!(number_to_string(0.5), "0.5");
        assert_eq!(number_to_string(f64::NAN), "NaN");
        assert_eq!(number_to_string(f64::NEG_INFINITY), "-Infinity");
    }

    #[test]
    fn xpath_operator_names_disambiguate() {
        let toks: Vec<Tok> = lex("div div div")
            .unwrap()
            .into_iter()
            .map(|t| t.0)
            .collect();
        assert_eq!(
            toks,
            [
                Tok::Name("div".into()),
                Tok::Mul(ArOp::Div),
                Tok::Name("div".into()),
                Tok::Eof
            ]
        );
        let toks: Vec<Tok> = lex("* * *").unwrap().into_iter().map(|t| t.0).collect();
        assert_eq!(toks, [Tok::Star, Tok::Mul(ArOp::Mul), Tok::Star, Tok::Eof]);
    }
}

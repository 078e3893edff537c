//! Parser for picasso shader assembly: tokens → a syntax tree whose every node has a span.
//!
//! Grammar (one statement per line, after any number of `label:` prefixes; devkitPro picasso
//! `Manual.md` is the reference, extensions are marked):
//!
//! ```text
//! statement := directive | instruction
//! instruction := MNEMONIC [operand {"," operand}]
//! operand := ["-" | "!"] NAME ["[" index "]"] ["." SWIZZLE]     register, alias, label, proc
//!          | cond                                              cmp.x && !cmp.y
//!          | INT                                               setemit slot, raw NUM (ext.)
//!          | NAME NAME {NAME}                                  setemit flags: prim inv
//! index := INT | IDXREG | IDXREG ("+"|"-") INT                 IDXREG = a0 a1 a2 lcnt (+ a0.x a0.y aL)
//! cond := flag [("&&"|"&"|"||"|"|") flag]    flag := {"!"} "cmp" "." ("x"|"y")
//! ```
//!
//! Directives are listed in [`Directive`].

use super::lexer::{Tok, Token};
use super::Span;

/// An identifier and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The text.
    pub name: String,
    /// Where it starts.
    pub span: Span,
}

/// One statement (a line may hold labels and one statement).
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// Where the statement starts.
    pub span: Span,
    /// What it is.
    pub kind: StmtKind,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `name:`
    Label(Ident),
    /// `.directive ...`
    Directive(Directive),
    /// `mnemonic operands`
    Instr(Instr),
}

/// An instruction as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    /// The mnemonic.
    pub mnemonic: Ident,
    /// The comma-separated operands.
    pub operands: Vec<Operand>,
}

/// One operand and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    /// Where it starts.
    pub span: Span,
    /// What it is.
    pub kind: OperandKind,
}

/// The kinds of operand.
#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind {
    /// A register, alias or name reference.
    Reg(RegOperand),
    /// A condition on cmp.x / cmp.y.
    Cond(CondExpr),
    /// An integer.
    Int(i64),
    /// Several bare words (setemit flags).
    Words(Vec<Ident>),
}

/// `[-|!]name[index].swizzle`
#[derive(Clone, Debug, PartialEq)]
pub struct RegOperand {
    /// Written with a leading `-` (negate).
    pub neg: bool,
    /// Written with a leading `!` (invert a bool test).
    pub not: bool,
    /// Register or alias name.
    pub name: Ident,
    /// `[...]`
    pub index: Option<Index>,
    /// Text after the `.`.
    pub swizzle: Option<Ident>,
}

/// What is inside `[...]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Index {
    /// Where the `[` is.
    pub span: Span,
    /// Index register (`a0`, `a1`, `a2`, `lcnt`, ...), if any.
    pub reg: Option<Ident>,
    /// Constant offset.
    pub offset: i64,
}

/// A flag of a condition: `[!]cmp.x`.
#[derive(Clone, Debug, PartialEq)]
pub struct CondFlag {
    /// Where it starts.
    pub span: Span,
    /// Negated (an odd number of `!`).
    pub negated: bool,
    /// true = cmp.y, false = cmp.x.
    pub is_y: bool,
}

/// How two flags combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondJoin {
    /// `&&` or `&`
    And,
    /// `||` or `|`
    Or,
}

/// A condition expression.
#[derive(Clone, Debug, PartialEq)]
pub struct CondExpr {
    /// First flag.
    pub first: CondFlag,
    /// Optional second flag and how it joins.
    pub second: Option<(CondJoin, CondFlag)>,
}

/// A number literal with its sign, kept as text (a float or an integer, by context).
#[derive(Clone, Debug, PartialEq)]
pub struct Num {
    /// The literal including a leading `-` if written.
    pub text: String,
    /// Where it starts.
    pub span: Span,
}

/// Uniform kinds (`.fvec`, `.ivec`, `.bool`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformKind {
    /// `.fvec`: c registers.
    Float,
    /// `.ivec`: i registers.
    Int,
    /// `.bool`: b registers.
    Bool,
}

/// A `.gsh` argument.
#[derive(Clone, Debug, PartialEq)]
pub enum GshArg {
    /// A register (`c0`).
    Reg(RegOperand),
    /// A count.
    Int(i64, Span),
}

/// The directives.
#[derive(Clone, Debug, PartialEq)]
pub enum Directive {
    /// `.proc name`
    Proc(Ident),
    /// `.else`
    Else,
    /// `.end`
    End,
    /// `.alias name register`
    Alias {
        /// New name.
        name: Ident,
        /// What it stands for (may carry a swizzle and `-`).
        target: RegOperand,
    },
    /// `.fvec a, b[4]` / `.ivec` / `.bool`
    Uniforms {
        /// Which bank.
        kind: UniformKind,
        /// Names with optional array sizes.
        items: Vec<(Ident, Option<(i64, Span)>)>,
    },
    /// `.constf name(x, y, z, w)` / `.consti`
    Const {
        /// Float (`.constf`) or int (`.consti`).
        kind: UniformKind,
        /// Name.
        name: Ident,
        /// The four values.
        values: Vec<Num>,
    },
    /// `.constfa name[size]` (size optional): starts a constant array.
    ConstfaOpen {
        /// Name.
        name: Ident,
        /// Declared size.
        size: Option<(i64, Span)>,
    },
    /// `.constfa (x, y, z, w)`: one element of the open constant array.
    ConstfaItem(Vec<Num>),
    /// `.setf reg(x, y, z, w)` / `.seti`
    Set {
        /// Float or int.
        kind: UniformKind,
        /// Register or alias.
        reg: RegOperand,
        /// The four values.
        values: Vec<Num>,
    },
    /// `.setb reg value`
    Setb {
        /// Register or alias.
        reg: RegOperand,
        /// `true` `false` `on` `off` `1` `0`.
        value: Ident,
    },
    /// `.in name [register]`
    In {
        /// Name.
        name: Ident,
        /// Explicit input register.
        reg: Option<RegOperand>,
    },
    /// `.out name|- semantic[.mask] [register]`
    Out {
        /// Alias name (`None` for `-`).
        name: Option<Ident>,
        /// Semantic name (`position`, `color`, ...) or `7`.
        semantic: Ident,
        /// Mask after the semantic.
        mask: Option<Ident>,
        /// Explicit output register.
        reg: Option<RegOperand>,
    },
    /// `.entry name`
    Entry(Ident),
    /// `.nodvle`
    Nodvle,
    /// `.gsh [mode args...]`
    Gsh {
        /// Mode name (`point`, `variable`, `fixed`, ...).
        mode: Option<Ident>,
        /// Remaining arguments.
        args: Vec<GshArg>,
    },
    /// `.word value` (pica-cosim extension): one raw instruction word.
    Word(u32),
    /// `.noautonop` (pica-cosim extension): `.end`/`.else` never insert padding NOPs in this
    /// file (picasso's `--no-nop`).
    NoAutoNop,
}

/// A syntax error and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where.
    pub span: Span,
    /// What.
    pub message: String,
}

type PResult<T> = Result<T, ParseError>;

fn perr<T>(span: Span, message: impl Into<String>) -> PResult<T> {
    Err(ParseError {
        span,
        message: message.into(),
    })
}

/// Parses a token stream (from [`super::lexer::lex`]) into statements.
pub fn parse(tokens: &[Token]) -> PResult<Vec<Stmt>> {
    let mut stmts = Vec::new();
    for line in tokens.split(|t| t.tok == Tok::Newline) {
        let mut c = Cursor { toks: line, pos: 0 };
        // Labels: `name:` (any number).
        while let (Some(Tok::Ident(name)), Some(Tok::Punct(':'))) = (c.peek(0), c.peek(1)) {
            let span = c.span();
            stmts.push(Stmt {
                span,
                kind: StmtKind::Label(Ident {
                    name: name.clone(),
                    span,
                }),
            });
            c.pos += 2;
        }
        if c.at_end() {
            continue;
        }
        let span = c.span();
        let kind = if c.eat('.') {
            StmtKind::Directive(directive(&mut c)?)
        } else {
            let mnemonic = c.ident("an instruction or directive")?;
            let mut operands = Vec::new();
            if !c.at_end() {
                loop {
                    operands.push(operand(&mut c)?);
                    if !c.eat(',') {
                        break;
                    }
                }
            }
            StmtKind::Instr(Instr { mnemonic, operands })
        };
        if let Some(t) = c.toks.get(c.pos) {
            return perr(t.span, format!("unexpected {}", describe(&t.tok)));
        }
        stmts.push(Stmt { span, kind });
    }
    Ok(stmts)
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Number(s) => format!("number {s}"),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::Newline => "end of line".into(),
    }
}

struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Span of the next token, or just past the last one at the end of the line.
    fn span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.span,
            None => self.toks.last().map_or(Span::new(1, 1), |t| {
                let len = match &t.tok {
                    Tok::Ident(s) | Tok::Number(s) => s.chars().count() as u32,
                    _ => 1,
                };
                Span::new(t.span.line, t.span.col + len)
            }),
        }
    }

    fn is(&self, c: char) -> bool {
        self.peek(0) == Some(&Tok::Punct(c))
    }

    fn eat(&mut self, c: char) -> bool {
        if self.is(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> PResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.unexpected(&format!("'{c}'"))
        }
    }

    fn unexpected<T>(&self, wanted: &str) -> PResult<T> {
        let found = self
            .peek(0)
            .map_or_else(|| "end of line".to_string(), describe);
        perr(self.span(), format!("expected {wanted}, found {found}"))
    }

    fn ident(&mut self, wanted: &str) -> PResult<Ident> {
        match self.peek(0) {
            Some(Tok::Ident(name)) => {
                let id = Ident {
                    name: name.clone(),
                    span: self.span(),
                };
                self.pos += 1;
                Ok(id)
            }
            _ => self.unexpected(wanted),
        }
    }

    fn int(&mut self, wanted: &str) -> PResult<(i64, Span)> {
        let span = self.span();
        let neg = self.eat('-');
        match self.peek(0) {
            Some(Tok::Number(text)) => {
                let v = parse_int(text).ok_or_else(|| ParseError {
                    span,
                    message: format!("not an integer: {text}"),
                })?;
                self.pos += 1;
                Ok((if neg { -v } else { v }, span))
            }
            _ => self.unexpected(wanted),
        }
    }

    fn num(&mut self) -> PResult<Num> {
        let span = self.span();
        let mut text = String::new();
        if self.eat('-') {
            text.push('-');
        } else {
            self.eat('+');
        }
        if self.eat('.') {
            text.push_str("0.");
        }
        match self.peek(0) {
            Some(Tok::Number(n)) => {
                text.push_str(n);
                self.pos += 1;
            }
            Some(Tok::Ident(n)) if is_special_float(n) => {
                text.push_str(n);
                self.pos += 1;
            }
            _ => return self.unexpected("a number"),
        }
        Ok(Num { text, span })
    }

    /// `(a, b, c, d)`
    fn four_nums(&mut self) -> PResult<Vec<Num>> {
        self.expect('(')?;
        let mut v = Vec::new();
        loop {
            v.push(self.num()?);
            if !self.eat(',') {
                break;
            }
        }
        if v.len() != 4 {
            return perr(
                v.first().map_or(self.span(), |n| n.span),
                format!("expected 4 values, found {}", v.len()),
            );
        }
        self.expect(')')?;
        Ok(v)
    }
}

fn is_special_float(s: &str) -> bool {
    matches!(s.to_ascii_lowercase().as_str(), "inf" | "infinity" | "nan")
}

/// Integer literal: decimal or 0x hex.
pub fn parse_int(text: &str) -> Option<i64> {
    if let Some(h) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()
    } else {
        text.parse().ok()
    }
}

fn reg_operand(c: &mut Cursor<'_>) -> PResult<RegOperand> {
    let neg = c.eat('-');
    let not = !neg && c.eat('!');
    let name = c.ident("a register or name")?;
    let index = if c.is('[') {
        let span = c.span();
        c.pos += 1;
        let mut reg = None;
        let mut offset = 0;
        if let Some(Tok::Ident(_)) = c.peek(0) {
            let mut r = c.ident("an index register")?;
            // a0.x / a0.y (pica-cosim extension; picasso writes a0 / a1).
            if c.is('.') {
                c.pos += 1;
                let comp = c.ident("x or y")?;
                r.name = format!("{}.{}", r.name, comp.name);
            }
            reg = Some(r);
            if c.is('+') || c.is('-') {
                let neg = c.eat('-');
                if !neg {
                    c.pos += 1;
                }
                let (v, _) = c.int("an offset")?;
                offset = if neg { -v } else { v };
            }
        } else {
            offset = c.int("an index")?.0;
        }
        c.expect(']')?;
        Some(Index { span, reg, offset })
    } else {
        None
    };
    let swizzle = if c.eat('.') {
        Some(c.ident("a swizzle or mask")?)
    } else {
        None
    };
    Ok(RegOperand {
        neg,
        not,
        name,
        index,
        swizzle,
    })
}

fn cond_flag(c: &mut Cursor<'_>) -> PResult<CondFlag> {
    let span = c.span();
    let mut negated = false;
    while c.eat('!') {
        negated = !negated;
    }
    let name = c.ident("cmp.x or cmp.y")?;
    if !name.name.eq_ignore_ascii_case("cmp") {
        return perr(
            name.span,
            format!("expected cmp.x or cmp.y, found '{}'", name.name),
        );
    }
    c.expect('.')?;
    let comp = c.ident("x or y")?;
    let is_y = match comp.name.to_ascii_lowercase().as_str() {
        "x" => false,
        "y" => true,
        _ => return perr(comp.span, format!("expected x or y, found '{}'", comp.name)),
    };
    Ok(CondFlag {
        span,
        negated,
        is_y,
    })
}

fn is_cond_start(c: &Cursor<'_>) -> bool {
    let mut k = 0;
    while c.peek(k) == Some(&Tok::Punct('!')) {
        k += 1;
    }
    matches!(c.peek(k), Some(Tok::Ident(s)) if s.eq_ignore_ascii_case("cmp"))
        && c.peek(k + 1) == Some(&Tok::Punct('.'))
}

fn operand(c: &mut Cursor<'_>) -> PResult<Operand> {
    let span = c.span();
    if is_cond_start(c) {
        let first = cond_flag(c)?;
        let second = if c.is('&') || c.is('|') {
            let join = if c.is('&') {
                CondJoin::And
            } else {
                CondJoin::Or
            };
            let sym = if join == CondJoin::And { '&' } else { '|' };
            c.pos += 1;
            c.eat(sym);
            Some((join, cond_flag(c)?))
        } else {
            None
        };
        return Ok(Operand {
            span,
            kind: OperandKind::Cond(CondExpr { first, second }),
        });
    }
    if matches!(c.peek(0), Some(Tok::Number(_)))
        || (c.is('-') && matches!(c.peek(1), Some(Tok::Number(_))))
    {
        let (v, _) = c.int("an integer")?;
        return Ok(Operand {
            span,
            kind: OperandKind::Int(v),
        });
    }
    if let (Some(Tok::Ident(_)), Some(Tok::Ident(_))) = (c.peek(0), c.peek(1)) {
        let mut words = Vec::new();
        while let Some(Tok::Ident(_)) = c.peek(0) {
            words.push(c.ident("a word")?);
        }
        return Ok(Operand {
            span,
            kind: OperandKind::Words(words),
        });
    }
    Ok(Operand {
        span,
        kind: OperandKind::Reg(reg_operand(c)?),
    })
}

fn directive(c: &mut Cursor<'_>) -> PResult<Directive> {
    let name = c.ident("a directive name")?;
    let d = match name.name.to_ascii_lowercase().as_str() {
        "proc" => Directive::Proc(c.ident("a procedure name")?),
        "else" => Directive::Else,
        "end" => Directive::End,
        "alias" => {
            let name = c.ident("an alias name")?;
            Directive::Alias {
                name,
                target: reg_operand(c)?,
            }
        }
        k @ ("fvec" | "ivec" | "bool") => {
            let kind = match k {
                "fvec" => UniformKind::Float,
                "ivec" => UniformKind::Int,
                _ => UniformKind::Bool,
            };
            let mut items = Vec::new();
            loop {
                let n = c.ident("a uniform name")?;
                let size = if c.eat('[') {
                    let s = c.int("an array size")?;
                    c.expect(']')?;
                    Some(s)
                } else {
                    None
                };
                items.push((n, size));
                if !c.eat(',') {
                    break;
                }
            }
            Directive::Uniforms { kind, items }
        }
        k @ ("constf" | "consti") => {
            let name = c.ident("a constant name")?;
            Directive::Const {
                kind: if k == "constf" {
                    UniformKind::Float
                } else {
                    UniformKind::Int
                },
                name,
                values: c.four_nums()?,
            }
        }
        "constfa" => {
            if c.is('(') {
                Directive::ConstfaItem(c.four_nums()?)
            } else {
                let name = c.ident("an array name")?;
                c.expect('[')?;
                let size = if c.is(']') {
                    None
                } else {
                    Some(c.int("an array size")?)
                };
                c.expect(']')?;
                Directive::ConstfaOpen { name, size }
            }
        }
        k @ ("setf" | "seti") => {
            let reg = reg_operand(c)?;
            Directive::Set {
                kind: if k == "setf" {
                    UniformKind::Float
                } else {
                    UniformKind::Int
                },
                reg,
                values: c.four_nums()?,
            }
        }
        "setb" => {
            let reg = reg_operand(c)?;
            let span = c.span();
            let value = match c.peek(0) {
                Some(Tok::Ident(s) | Tok::Number(s)) => Ident {
                    name: s.clone(),
                    span,
                },
                _ => return c.unexpected("true, false, on, off, 1 or 0"),
            };
            c.pos += 1;
            Directive::Setb { reg, value }
        }
        "in" => {
            let name = c.ident("an input name")?;
            let reg = if c.at_end() {
                None
            } else {
                Some(reg_operand(c)?)
            };
            Directive::In { name, reg }
        }
        "out" => {
            let name = if c.eat('-') {
                None
            } else {
                Some(c.ident("an output name or -")?)
            };
            let span = c.span();
            let semantic = match c.peek(0) {
                Some(Tok::Ident(s) | Tok::Number(s)) => Ident {
                    name: s.clone(),
                    span,
                },
                _ => return c.unexpected("an output semantic"),
            };
            c.pos += 1;
            let mask = if c.eat('.') {
                Some(c.ident("an output mask")?)
            } else {
                None
            };
            let reg = if c.at_end() {
                None
            } else {
                Some(reg_operand(c)?)
            };
            Directive::Out {
                name,
                semantic,
                mask,
                reg,
            }
        }
        "entry" => Directive::Entry(c.ident("a procedure name")?),
        "nodvle" => Directive::Nodvle,
        "gsh" => {
            let mode = if c.at_end() {
                None
            } else {
                Some(c.ident("a geometry shader mode")?)
            };
            let mut args = Vec::new();
            while !c.at_end() {
                if let Some(Tok::Number(_)) = c.peek(0) {
                    let (v, s) = c.int("a count")?;
                    args.push(GshArg::Int(v, s));
                } else {
                    args.push(GshArg::Reg(reg_operand(c)?));
                }
            }
            Directive::Gsh { mode, args }
        }
        "word" => {
            let (v, span) = c.int("a 32-bit word")?;
            let w = u32::try_from(v).map_err(|_| ParseError {
                span,
                message: format!("{v} does not fit in 32 bits"),
            })?;
            Directive::Word(w)
        }
        "noautonop" => Directive::NoAutoNop,
        other => return perr(name.span, format!("unknown directive .{other}")),
    };
    Ok(d)
}

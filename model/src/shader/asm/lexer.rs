//! Lexer for picasso shader assembly: source text → tokens with line and column.
//!
//! Picasso's rules (devkitPro picasso `Manual.md`, "Basic concepts"): `;` starts a comment that
//! runs to the end of the line; identifiers follow C rules (picasso also allows `$`); statements
//! end at the end of a line. Lines starting with `#` are C-preprocessor line markers
//! (`# 12 "file.pica"`), which picasso honours for its error positions; we skip them (the
//! positions we report are always in the file we were given).

use super::Span;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// An identifier: `[A-Za-z_$][A-Za-z0-9_$]*`.
    Ident(String),
    /// A number literal, as written (integers in decimal or `0x` hex, floats with `.`/exponent).
    Number(String),
    /// A single punctuation character: `. , ( ) [ ] + - ! : & |`.
    Punct(char),
    /// End of a line (statement separator).
    Newline,
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Where it starts (1-based line and column).
    pub span: Span,
}

/// A character the lexer does not accept, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Where.
    pub span: Span,
    /// The character.
    pub ch: char,
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Splits `src` into tokens. Every line ends with a [`Tok::Newline`] (also the last one).
pub fn lex(src: &str) -> Result<Vec<Token>, LexError> {
    let mut out = Vec::new();
    for (li, line) in src.lines().enumerate() {
        let line_no = li as u32 + 1;
        let chars: Vec<char> = line.chars().collect();
        let first = chars.iter().position(|c| !c.is_whitespace());
        if first.is_some_and(|i| chars[i] == '#') {
            // Preprocessor line marker: ignored.
            out.push(Token {
                tok: Tok::Newline,
                span: Span::new(line_no, chars.len() as u32 + 1),
            });
            continue;
        }
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let span = Span::new(line_no, i as u32 + 1);
            if c == ';' {
                break;
            }
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if ident_start(c) {
                let start = i;
                while i < chars.len() && ident_char(chars[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(chars[start..i].iter().collect()),
                    span,
                });
                continue;
            }
            if c.is_ascii_digit() {
                let start = i;
                i = number_end(&chars, i);
                out.push(Token {
                    tok: Tok::Number(chars[start..i].iter().collect()),
                    span,
                });
                continue;
            }
            if ".,()[]+-!:&|".contains(c) {
                out.push(Token {
                    tok: Tok::Punct(c),
                    span,
                });
                i += 1;
                continue;
            }
            return Err(LexError { span, ch: c });
        }
        out.push(Token {
            tok: Tok::Newline,
            span: Span::new(line_no, chars.len() as u32 + 1),
        });
    }
    Ok(out)
}

/// The end of a number literal starting at `i` (a digit): hex `0x...`, or decimal digits with an
/// optional fraction and exponent. A `.` is part of the number only when a digit follows it or
/// it ends the literal (`1.`), so `r0.x`-style tokens never reach here.
fn number_end(chars: &[char], mut i: usize) -> usize {
    let at = |k: usize| chars.get(k).copied().unwrap_or('\0');
    if at(i) == '0' && matches!(at(i + 1), 'x' | 'X') && at(i + 2).is_ascii_hexdigit() {
        i += 2;
        while at(i).is_ascii_hexdigit() {
            i += 1;
        }
        return i;
    }
    while at(i).is_ascii_digit() {
        i += 1;
    }
    if at(i) == '.' && !ident_start(at(i + 1)) {
        i += 1;
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    if matches!(at(i), 'e' | 'E')
        && (at(i + 1).is_ascii_digit()
            || (matches!(at(i + 1), '+' | '-') && at(i + 2).is_ascii_digit()))
    {
        i += 2;
        while at(i).is_ascii_digit() {
            i += 1;
        }
    }
    // A trailing `f` (C float suffix, `1.0f`) is accepted as part of the literal.
    if matches!(at(i), 'f' | 'F') && !ident_char(at(i + 1)) {
        i += 1;
    }
    i
}

//! The little XML that GNU Backgammon's match equity files use, read into a
//! tree of elements.
//!
//! The files are plain: a prolog (`<?xml ...?>`, a `<!DOCTYPE>`), comments,
//! nested elements with quoted attributes, and text made of numbers and
//! names. This reader handles exactly that, plus CDATA sections and the
//! predefined and numeric character references, and rejects anything else
//! with an error that says where (line numbers count from 1). No crate is
//! needed for it, and a broken file can never panic.

use crate::error::{Error, Result};

/// One element: its name, its attributes in document order, its child
/// elements, and all its own text (outside the children) concatenated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Element {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub text: String,
}

impl Element {
    /// The value of an attribute, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    /// The children with this name.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |child| child.name == name)
    }

    /// The one child with this name, or an error if there is none or more than one.
    pub fn only_child<'a>(&'a self, name: &'a str) -> Result<&'a Element> {
        let mut found = self.children_named(name);
        match (found.next(), found.next()) {
            (Some(child), None) => Ok(child),
            (None, _) => Err(Error::new(format!("<{}> has no <{name}>", self.name))),
            (Some(_), Some(_)) => Err(Error::new(format!("<{}> has more than one <{name}>", self.name))),
        }
    }
}

/// How deep elements may nest. gnubg's tables nest four deep; the reader
/// recurses once a level, so a limit keeps a hostile file (say 200,000
/// `<a>`s) from overflowing the stack, which aborts the process.
const MAX_DEPTH: usize = 64;

/// Parses a whole document and returns its root element.
pub(super) fn parse(input: &str) -> Result<Element> {
    let mut reader = Reader { input, pos: 0, depth: 0 };
    reader.skip_misc()?;
    if !reader.rest().starts_with('<') {
        return Err(reader.error("expected an element (this is not XML)"));
    }
    let root = reader.element()?;
    reader.skip_misc()?;
    if reader.pos < input.len() {
        return Err(reader.error("content after the root element"));
    }
    Ok(root)
}

struct Reader<'a> {
    input: &'a str,
    pos: usize,
    /// Elements open around the reader's position.
    depth: usize,
}

impl<'a> Reader<'a> {
    fn rest(&self) -> &'a str {
        &self.input[self.pos..]
    }

    fn error(&self, what: &str) -> Error {
        let line = 1 + self.input[..self.pos].matches('\n').count();
        Error::new(format!("XML line {line}: {what}"))
    }

    fn skip_whitespace(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// Consumes everything up to and including `end`.
    fn skip_past(&mut self, end: &str, what: &str) -> Result<&'a str> {
        match self.rest().find(end) {
            Some(at) => {
                let skipped = &self.rest()[..at];
                self.pos += at + end.len();
                Ok(skipped)
            }
            None => Err(self.error(&format!("unterminated {what}"))),
        }
    }

    /// Whitespace, comments, processing instructions and the DOCTYPE, which
    /// may come before and after the root element.
    fn skip_misc(&mut self) -> Result<()> {
        loop {
            self.skip_whitespace();
            let rest = self.rest();
            if rest.starts_with("<!--") {
                self.skip_past("-->", "comment")?;
            } else if rest.starts_with("<?") {
                self.skip_past("?>", "processing instruction")?;
            } else if rest.starts_with("<!DOCTYPE") {
                self.skip_doctype()?;
            } else {
                return Ok(());
            }
        }
    }

    /// A DOCTYPE, with its internal subset in brackets if it has one.
    fn skip_doctype(&mut self) -> Result<()> {
        let mut in_subset = false;
        let mut quote = None;
        for (offset, c) in self.rest().char_indices() {
            match (quote, c) {
                (Some(q), _) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '[') => in_subset = true,
                (None, ']') => in_subset = false,
                (None, '>') if !in_subset => {
                    self.pos += offset + 1;
                    return Ok(());
                }
                _ => {}
            }
        }
        Err(self.error("unterminated <!DOCTYPE>"))
    }

    fn name(&mut self) -> Result<String> {
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|&(_, c)| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
            .map_or(rest.len(), |(at, _)| at);
        if len == 0 {
            return Err(self.error("expected a name"));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    fn expect(&mut self, token: &str) -> Result<()> {
        if self.rest().starts_with(token) {
            self.pos += token.len();
            Ok(())
        } else {
            Err(self.error(&format!("expected `{token}`")))
        }
    }

    /// An element, from its `<` to the end of its end tag.
    fn element(&mut self) -> Result<Element> {
        if self.depth == MAX_DEPTH {
            return Err(self.error(&format!("elements nest more than {MAX_DEPTH} deep")));
        }
        self.depth += 1;
        let element = self.element_body();
        self.depth -= 1;
        element
    }

    fn element_body(&mut self) -> Result<Element> {
        self.expect("<")?;
        let name = self.name()?;
        let attributes = self.attributes()?;
        let mut element = Element { name, attributes, children: Vec::new(), text: String::new() };
        if self.rest().starts_with("/>") {
            self.pos += 2;
            return Ok(element);
        }
        self.expect(">")?;
        self.content(&mut element)?;
        Ok(element)
    }

    fn attributes(&mut self) -> Result<Vec<(String, String)>> {
        let mut attributes: Vec<(String, String)> = Vec::new();
        loop {
            self.skip_whitespace();
            if self.rest().starts_with('>') || self.rest().starts_with("/>") {
                return Ok(attributes);
            }
            let key = self.name()?;
            self.skip_whitespace();
            self.expect("=")?;
            self.skip_whitespace();
            let quote = match self.rest().chars().next() {
                Some(q @ ('"' | '\'')) => q,
                _ => return Err(self.error(&format!("attribute `{key}` needs a quoted value"))),
            };
            self.pos += 1;
            let raw = self.skip_past(&quote.to_string(), "attribute value")?;
            if raw.contains('<') {
                return Err(self.error(&format!("`<` in the value of attribute `{key}`")));
            }
            let value = self.unescape(raw)?;
            if attributes.iter().any(|(k, _)| *k == key) {
                return Err(self.error(&format!("attribute `{key}` given twice")));
            }
            attributes.push((key, value));
        }
    }

    /// Children and text up to the matching end tag, which it consumes.
    fn content(&mut self, element: &mut Element) -> Result<()> {
        loop {
            let rest = self.rest();
            let Some(at) = rest.find('<') else {
                return Err(self.error(&format!("<{}> is never closed", element.name)));
            };
            let text = self.unescape(&rest[..at])?;
            element.text.push_str(&text);
            self.pos += at;
            let rest = self.rest();
            if rest.starts_with("</") {
                self.pos += 2;
                let name = self.name()?;
                if name != element.name {
                    return Err(self.error(&format!("</{name}> closes <{}>", element.name)));
                }
                self.skip_whitespace();
                return self.expect(">");
            } else if rest.starts_with("<!--") {
                self.skip_past("-->", "comment")?;
            } else if rest.starts_with("<![CDATA[") {
                self.pos += "<![CDATA[".len();
                let data = self.skip_past("]]>", "CDATA section")?;
                element.text.push_str(data);
            } else if rest.starts_with("<?") {
                self.skip_past("?>", "processing instruction")?;
            } else {
                element.children.push(self.element()?);
            }
        }
    }

    /// Replaces character references in text or an attribute value.
    fn unescape(&self, raw: &str) -> Result<String> {
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(at) = rest.find('&') {
            out.push_str(&rest[..at]);
            rest = &rest[at + 1..];
            let Some(end) = rest.find(';') else {
                return Err(self.error("`&` without a closing `;`"));
            };
            out.push(self.reference(&rest[..end])?);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    fn reference(&self, name: &str) -> Result<char> {
        let numeric = |digits: &str, radix| u32::from_str_radix(digits, radix).ok().and_then(char::from_u32);
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => numeric(hex, 16),
                None => name.strip_prefix('#').and_then(|dec| numeric(dec, 10)),
            },
        };
        c.ok_or_else(|| self.error(&format!("unknown character reference `&{name};`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_elements_attributes_text_and_references() {
        let doc = r#"<?xml version = "1.0"?>
            <!DOCTYPE met PUBLIC "-//x//EN" "met.dtd">
            <!-- a comment -->
            <met a='1'><info><name>A &amp; B &#65;&#x42;</name></info><row b="x &lt; y"/></met>
            <!-- trailing comment -->"#;
        let root = parse(doc).unwrap();
        assert_eq!(root.name, "met");
        assert_eq!(root.attribute("a"), Some("1"));
        assert_eq!(root.only_child("info").unwrap().only_child("name").unwrap().text, "A & B AB");
        assert_eq!(root.only_child("row").unwrap().attribute("b"), Some("x < y"));
    }

    #[test]
    fn rejects_malformed_documents() {
        for (doc, wanted) in [
            ("not xml at all", "not XML"),
            ("<met><info></met>", "</met> closes <info>"),
            ("<met>", "never closed"),
            ("<met a=1></met>", "quoted value"),
            ("<met a='1' a='2'></met>", "given twice"),
            ("<met>&nbsp;</met>", "unknown character reference"),
            ("<met></met><met></met>", "after the root"),
            ("<!-- open", "unterminated comment"),
            ("", "not XML"),
        ] {
            let err = parse(doc).unwrap_err().to_string();
            assert!(err.contains(wanted), "{doc:?}: {err}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        // Issue 24: 200,000 nested elements overflowed the stack (an abort,
        // which no caller can catch) in the recursive reader.
        let deep = format!("<met>{}", "<a>".repeat(200_000));
        let err = parse(&deep).unwrap_err().to_string();
        assert!(err.contains("nest more than 64 deep"), "{err}");
        let ok = format!("{}{}", "<a>".repeat(64), "</a>".repeat(64));
        assert_eq!(parse(&ok).unwrap().name, "a");
        let too_deep = format!("{}{}", "<a>".repeat(65), "</a>".repeat(65));
        assert!(parse(&too_deep).is_err());
    }

    #[test]
    fn reports_the_line() {
        let err = parse("<met>\n<a>\n</b>\n</met>").unwrap_err().to_string();
        assert!(err.starts_with("XML line 3:"), "{err}");
    }
}

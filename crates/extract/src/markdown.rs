//! Markdown rendering of the kept part of a page.
//!
//! An iterative pre-order walk (open elements on an explicit stack) drives a small line
//! writer that knows about block breaks, line prefixes (block quotes, list continuation) and
//! inline wrappers whose content may turn out empty (a link whose text was all removed
//! leaves nothing behind, not `[](url)`).

use chaff_core::Labels;
use chaff_dom::text::{is_hidden, is_non_rendered};
use chaff_dom::{Document, NodeId, NodeKind, TextView};

use crate::kept_segment_text;

/// Renders the kept part of the page's body as Markdown.
pub fn markdown(doc: &Document, view: &TextView, labels: &Labels) -> String {
    let root = doc.body().unwrap_or(NodeId::ROOT);
    let mut w = Writer::default();
    let end = doc.subtree_end(root).0;
    let mut open: Vec<(u32, Close)> = Vec::new();
    let mut i = root.0;
    while i < end {
        while let Some(&(e, _)) = open.last() {
            if e > i {
                break;
            }
            if let Some((_, close)) = open.pop() {
                w.close(close);
            }
        }
        let id = NodeId(i);
        match doc.kind(id) {
            NodeKind::Element => {
                let tag = doc.tag(id);
                if labels.is_removed(id) || is_non_rendered(tag) || is_hidden(doc, id) {
                    i = doc.subtree_end(id).0;
                    continue;
                }
                let close = w.open(doc, id, tag);
                open.push((doc.subtree_end(id).0, close));
            }
            NodeKind::Text => {
                if let Some(t) = kept_segment_text(view, labels, id) {
                    // Segments are trimmed; the node's own edge whitespace separates it from
                    // its inline neighbours.
                    let raw = doc.text(id);
                    if raw.starts_with(|c: char| c.is_ascii_whitespace()) {
                        w.space();
                    }
                    w.text(&t);
                    if raw.ends_with(|c: char| c.is_ascii_whitespace()) {
                        w.space();
                    }
                } else if !labels.is_removed(id)
                    && view.segment_of(id).is_none()
                    && !doc.text(id).is_empty()
                {
                    w.space();
                }
            }
            _ => {}
        }
        i += 1;
    }
    while let Some((_, close)) = open.pop() {
        w.close(close);
    }
    w.finish()
}

#[derive(Clone, Copy, Debug)]
enum Close {
    Nothing,
    Block,
    Heading,
    Line,
    List,
    Quote,
    Pre,
    /// Inline wrapper: the marker to close with, and where the opening marker starts (to
    /// take it back if nothing was written inside).
    Inline {
        marker: &'static str,
        start: usize,
        content_at: usize,
    },
    Link {
        start: usize,
        content_at: usize,
        href_at: usize,
    },
    Table,
    Row,
    Cell,
}

#[derive(Default)]
struct Writer {
    out: String,
    /// Line prefixes: "> " for quotes, indentation for list items.
    prefixes: Vec<String>,
    /// Newlines owed before the next content (1 = new line, 2 = blank line).
    owed: u8,
    pending_space: bool,
    /// Lists: (ordered, next number).
    lists: Vec<(bool, u32)>,
    pre: u32,
    /// Links' targets, kept aside until the link closes.
    hrefs: Vec<String>,
    /// Table: cells in the current row, whether it is the first row, whether it had headers.
    row_cells: u32,
    row_is_first: bool,
    row_has_th: bool,
    table_depth: u32,
    /// A block quote was just opened and nothing written in it yet.
    quote_opened: bool,
}

impl Writer {
    fn block(&mut self, n: u8) {
        // Right after a quote opens, its "> " is already written at the start of a line:
        // any further break would be an empty quoted line.
        if self.quote_opened {
            return;
        }
        if !self.out.is_empty() {
            self.owed = self.owed.max(n);
        }
        self.pending_space = false;
    }

    fn flush_owed(&mut self) {
        if self.owed == 0 {
            return;
        }
        for k in 0..self.owed {
            self.out.push('\n');
            let prefix: String = self.prefixes.concat();
            if k + 1 < self.owed {
                self.out.push_str(prefix.trim_end());
            } else {
                self.out.push_str(&prefix);
            }
        }
        self.owed = 0;
        self.pending_space = false;
        self.quote_opened = false;
    }

    fn at_line_start(&self) -> bool {
        let prefix: String = self.prefixes.concat();
        self.out.is_empty()
            || self.out.ends_with('\n')
            || (!prefix.is_empty() && self.out.ends_with(&prefix))
    }

    fn raw(&mut self, s: &str) {
        self.quote_opened = false;
        self.flush_owed();
        if self.pending_space && !self.at_line_start() {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.out.push_str(s);
    }

    fn space(&mut self) {
        self.pending_space = true;
    }

    fn text(&mut self, s: &str) {
        self.quote_opened = false;
        if self.pre > 0 {
            self.flush_owed();
            self.out.push_str(s);
            return;
        }
        self.flush_owed();
        if self.pending_space && !self.at_line_start() {
            self.out.push(' ');
        }
        self.pending_space = false;
        let line_start = self.at_line_start();
        escape_md(s, line_start, &mut self.out);
    }

    fn open(&mut self, doc: &Document, id: NodeId, tag: &str) -> Close {
        match tag {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.block(2);
                let level = tag.as_bytes()[1] - b'0';
                self.raw(&format!("{} ", "#".repeat(level as usize)));
                Close::Heading
            }
            "p" | "div" | "section" | "article" | "main" | "header" | "footer" | "aside"
            | "nav" | "figure" | "figcaption" | "address" | "details" | "summary" | "dl"
            | "center" | "form" | "fieldset" => {
                self.block(2);
                Close::Block
            }
            "dt" | "dd" => {
                self.block(1);
                Close::Line
            }
            "br" => {
                self.owed = self.owed.max(1);
                Close::Nothing
            }
            "hr" => {
                self.block(2);
                self.raw("---");
                self.block(2);
                Close::Nothing
            }
            "ul" | "ol" | "menu" => {
                self.block(if self.lists.is_empty() { 2 } else { 1 });
                let start = doc
                    .attr(id, "start")
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(1);
                self.lists.push((tag == "ol", start));
                Close::List
            }
            "li" => {
                self.block(1);
                let depth = self.lists.len().max(1);
                let marker = match self.lists.last_mut() {
                    Some((true, n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "- ".to_string(),
                };
                self.flush_owed();
                if !self.at_line_start() {
                    self.out.push('\n');
                }
                self.out.push_str(&"  ".repeat(depth - 1));
                self.out.push_str(&marker);
                self.prefixes.push("  ".repeat(depth));
                Close::Line
            }
            "blockquote" => {
                self.block(2);
                self.flush_owed();
                if !self.at_line_start() {
                    self.out.push('\n');
                    self.out.push_str(&self.prefixes.concat());
                }
                self.prefixes.push("> ".into());
                self.out.push_str("> ");
                self.quote_opened = true;
                Close::Quote
            }
            "pre" => {
                self.block(2);
                self.raw("```\n");
                self.pre += 1;
                Close::Pre
            }
            "code" | "kbd" | "samp" | "tt" if self.pre == 0 => self.inline("`"),
            "strong" | "b" => self.inline("**"),
            "em" | "i" => self.inline("*"),
            "a" => {
                let href = doc.attr(id, "href").unwrap_or("").trim();
                if href.is_empty()
                    || href.starts_with('#')
                    || href.to_ascii_lowercase().starts_with("javascript:")
                {
                    return Close::Nothing;
                }
                self.flush_owed();
                if self.pending_space && !self.at_line_start() {
                    self.out.push(' ');
                }
                self.pending_space = false;
                let start = self.out.len();
                self.out.push('[');
                self.hrefs.push(href.to_string());
                Close::Link {
                    start,
                    content_at: self.out.len(),
                    href_at: self.hrefs.len() - 1,
                }
            }
            "img" => {
                let src = doc.attr(id, "src").unwrap_or("").trim();
                if !src.is_empty() {
                    let alt = doc
                        .attr(id, "alt")
                        .unwrap_or("")
                        .trim()
                        .replace(['[', ']'], "");
                    self.raw(&format!("![{alt}]({src})"));
                }
                Close::Nothing
            }
            "table" => {
                self.block(2);
                self.table_depth += 1;
                self.row_is_first = true;
                Close::Table
            }
            "tr" if self.table_depth > 0 => {
                self.block(1);
                self.raw("|");
                self.row_cells = 0;
                self.row_has_th = false;
                Close::Row
            }
            "td" | "th" if self.table_depth > 0 => {
                self.row_cells += 1;
                self.row_has_th |= tag == "th";
                self.out.push(' ');
                Close::Cell
            }
            _ => Close::Nothing,
        }
    }

    fn inline(&mut self, marker: &'static str) -> Close {
        self.flush_owed();
        if self.pending_space && !self.at_line_start() {
            self.out.push(' ');
        }
        self.pending_space = false;
        let start = self.out.len();
        self.out.push_str(marker);
        Close::Inline {
            marker,
            start,
            content_at: self.out.len(),
        }
    }

    fn close(&mut self, close: Close) {
        match close {
            Close::Nothing => {}
            Close::Block | Close::Heading => self.block(2),
            Close::Line => {
                self.prefixes.pop();
                self.block(1);
            }
            Close::List => {
                self.lists.pop();
                self.block(if self.lists.is_empty() { 2 } else { 1 });
            }
            Close::Quote => {
                self.prefixes.pop();
                self.block(2);
            }
            Close::Pre => {
                self.pre = self.pre.saturating_sub(1);
                if !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
                self.out.push_str("```");
                self.block(2);
            }
            Close::Inline {
                marker,
                start,
                content_at,
            } => {
                if self.out.len() == content_at {
                    self.out.truncate(start);
                } else {
                    let trimmed = self.out.trim_end().len();
                    let tail = self.out.split_off(trimmed);
                    self.out.push_str(marker);
                    if !tail.is_empty() {
                        self.pending_space = true;
                    }
                }
            }
            Close::Link {
                start,
                content_at,
                href_at,
            } => {
                let href = self.hrefs.get(href_at).cloned().unwrap_or_default();
                self.hrefs.truncate(href_at);
                if self.out.len() == content_at || self.out[content_at..].trim().is_empty() {
                    self.out.truncate(start);
                } else {
                    let trimmed = self.out.trim_end().len();
                    self.out.truncate(trimmed);
                    self.out.push_str("](");
                    self.out
                        .push_str(&href.replace(' ', "%20").replace(')', "%29"));
                    self.out.push(')');
                }
            }
            Close::Table => {
                self.table_depth = self.table_depth.saturating_sub(1);
                self.block(2);
            }
            Close::Row => {
                if self.row_is_first {
                    let cells = self.row_cells.max(1);
                    self.out.push('\n');
                    self.out.push_str(&self.prefixes.concat());
                    self.out.push('|');
                    for _ in 0..cells {
                        self.out.push_str(" --- |");
                    }
                    self.row_is_first = false;
                }
                self.block(1);
            }
            Close::Cell => {
                let trimmed = self.out.trim_end().len();
                self.out.truncate(trimmed);
                self.out.push_str(" |");
                self.pending_space = false;
            }
        }
    }

    fn finish(mut self) -> String {
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        let start = self.out.len() - self.out.trim_start().len();
        self.out.drain(..start);
        self.out
    }
}

/// Escapes characters Markdown would read as formatting.
fn escape_md(s: &str, line_start: bool, out: &mut String) {
    if line_start {
        let t = s.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if t.starts_with(['#', '>', '-', '+', '=', '|'])
            || (digits > 0 && t[digits..].starts_with(['.', ')']))
        {
            out.push('\\');
        }
    }
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '`' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
}

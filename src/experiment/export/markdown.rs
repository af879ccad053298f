//! Markdown reports built from blocks: a title, headings, paragraphs, tables and lists.

use std::path::Path;

use super::{ExportError, write_text};

/// A Markdown document under construction. Blocks are separated by one blank line.
#[derive(Clone, Debug)]
pub struct Document {
    text: String,
}

impl Document {
    /// A document with a level-one `title`.
    pub(crate) fn new(title: &str) -> Document {
        Document {
            text: format!("# {title}\n"),
        }
    }

    /// A document without a title: its first block starts it.
    // Only Quarto's sweep report starts without a title.
    #[cfg(feature = "quarto")]
    pub(crate) fn untitled() -> Document {
        Document {
            text: String::new(),
        }
    }

    /// Starts a new block (after a blank line, unless it is the first).
    fn block(&mut self) -> &mut String {
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        &mut self.text
    }

    /// A level-two heading.
    pub(crate) fn heading(&mut self, text: &str) -> &mut Document {
        let block = self.block();
        block.push_str("## ");
        block.push_str(text);
        block.push('\n');
        self
    }

    /// A paragraph (or any text block written as is, such as an image link).
    pub(crate) fn paragraph(&mut self, text: &str) -> &mut Document {
        let block = self.block();
        block.push_str(text);
        block.push('\n');
        self
    }

    /// A table with `header` and one line per row (cells written as given).
    pub(crate) fn table(
        &mut self,
        header: &[&str],
        rows: impl IntoIterator<Item = Vec<String>>,
    ) -> &mut Document {
        let block = self.block();
        block.push_str(&format!("| {} |\n", header.join(" | ")));
        block.push_str(&format!("|{}\n", "---|".repeat(header.len())));
        for row in rows {
            block.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        self
    }

    /// A bulleted list.
    pub(crate) fn bullets(&mut self, items: impl IntoIterator<Item = String>) -> &mut Document {
        let block = self.block();
        for item in items {
            block.push_str(&format!("- {item}\n"));
        }
        self
    }

    /// The document as text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Writes the document to `path`, whole.
    ///
    /// # Errors
    /// [`ExportError::Io`] when the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), ExportError> {
        write_text(path, &self.text)
    }
}

/// A rendered report: the document, and its one-line summary, which the command line prints
/// too.
#[derive(Clone, Debug)]
pub struct Report {
    /// The whole document.
    pub document: Document,
    /// Its one-line verdict.
    pub summary: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_follows_a_paragraph_after_one_blank_line() {
        let mut doc = Document::new("Results");
        doc.paragraph("All agree.")
            .table(&["k", "boards"], [vec!["2".to_string(), "10".to_string()]]);
        assert_eq!(
            doc.text(),
            "# Results\n\nAll agree.\n\n| k | boards |\n|---|---|\n| 2 | 10 |\n"
        );
    }

    #[test]
    fn blocks_are_separated_by_one_blank_line() {
        let mut doc = Document::new("T");
        doc.heading("H")
            .bullets(["a".to_string(), "b".to_string()])
            .paragraph("None.");
        assert_eq!(doc.text(), "# T\n\n## H\n\n- a\n- b\n\nNone.\n");
    }
}

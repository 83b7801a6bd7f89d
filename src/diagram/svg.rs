//! A minimal SVG writer: elements appended as text, attribute values escaped, so every
//! picture is one self-contained file that needs no library or font file to make.

use std::fmt::Write;

/// Escapes text for an XML attribute value or text node.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            // XML 1.0 forbids most control characters even escaped; drop them.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => {}
            c => s.push(c),
        }
    }
    s
}

/// An SVG document being written.
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// Numbers in attributes: two decimals at most, so files stay small and stable.
pub fn num(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

impl Svg {
    /// An empty picture of this size in pixels.
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    /// Appends an element: `tag` with attributes (values escaped here) and no content.
    pub fn el(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.open(tag, attrs);
        self.body.truncate(self.body.len() - 2);
        self.body.push_str("/>\n");
    }

    /// Opens an element that [`Svg::close`] ends.
    pub fn open(&mut self, tag: &str, attrs: &[(&str, String)]) {
        let _ = write!(self.body, "<{tag}");
        for (k, v) in attrs {
            let _ = write!(self.body, " {k}=\"{}\"", escape(v));
        }
        self.body.push_str(">\n");
    }

    /// Ends the element `tag`.
    pub fn close(&mut self, tag: &str) {
        let _ = writeln!(self.body, "</{tag}>");
    }

    /// A rectangle.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        self.el(
            "rect",
            &[
                ("x", num(x)),
                ("y", num(y)),
                ("width", num(w)),
                ("height", num(h)),
                ("style", style.to_string()),
            ],
        );
    }

    /// A circle.
    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, style: &str) {
        self.el(
            "circle",
            &[
                ("cx", num(cx)),
                ("cy", num(cy)),
                ("r", num(r)),
                ("style", style.to_string()),
            ],
        );
    }

    /// A straight line.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &str) {
        self.el(
            "line",
            &[
                ("x1", num(a.0)),
                ("y1", num(a.1)),
                ("x2", num(b.0)),
                ("y2", num(b.1)),
                ("style", style.to_string()),
            ],
        );
    }

    /// A polyline or polygon through `points`.
    pub fn poly(&mut self, closed: bool, points: &[(f64, f64)], style: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
            .collect();
        let tag = if closed { "polygon" } else { "polyline" };
        self.el(
            tag,
            &[("points", pts.join(" ")), ("style", style.to_string())],
        );
    }

    /// Text centred on (x, y) in a generic sans-serif font.
    pub fn text(&mut self, x: f64, y: f64, size: f64, style: &str, text: &str) {
        self.text_anchored(x, y, size, "middle", style, text);
    }

    /// Text at (x, y) with an explicit anchor (`start`, `middle`, `end`).
    pub fn text_anchored(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        anchor: &str,
        style: &str,
        text: &str,
    ) {
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" font-family=\"DejaVu Sans, Verdana, sans-serif\" \
             text-anchor=\"{anchor}\" dominant-baseline=\"central\" style=\"{}\">{}</text>",
            num(x),
            num(y),
            num(size),
            escape(style),
            escape(text)
        );
    }

    /// Appends raw SVG produced by this module's callers (already escaped).
    pub fn raw(&mut self, svg: &str) {
        self.body.push_str(svg);
    }

    /// The elements written so far, to be put into another picture with [`Svg::raw`].
    pub fn into_body(self) -> String {
        self.body
    }

    /// The whole document.
    pub fn finish(self) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\">\n{}</svg>\n",
            self.body,
            w = num(self.width),
            h = num(self.height)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_and_text_are_escaped() {
        let mut s = Svg::new(10.0, 10.0);
        s.el("rect", &[("id", "a\"<&>".to_string())]);
        s.text(1.0, 2.0, 3.0, "", "x<y & \u{1}z");
        let out = s.finish();
        assert!(out.contains("id=\"a&quot;&lt;&amp;&gt;\"/>"), "{out}");
        assert!(out.contains(">x&lt;y &amp; z</text>"), "{out}");
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
    }
}

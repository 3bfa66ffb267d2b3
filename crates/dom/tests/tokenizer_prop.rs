//! Property tests: on HTML-like soup built from nasty fragments, on random bytes and on
//! arbitrary strings, both tokenizers build the same document, and nothing panics or hangs.

mod common;

use proptest::prelude::*;
use proptest::test_runner::Config;

/// Fixed fragments that exercise the tokenizer's corners.
const FRAGMENTS: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "<!",
    "<!-",
    "<!--",
    "-->",
    "--!>",
    "-",
    "--",
    "<!-->",
    "<!--->",
    "<!---->",
    "<!-- c -->",
    "<!-- a -- b -->",
    "<!--<!--",
    "--!",
    "<?",
    "<?x?>",
    "</ ",
    "</>",
    "<!x>",
    "<!DOCTYPE html>",
    "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">",
    "<!DOCTYPE html SYSTEM 'about:legacy-compat'>",
    "<!DOCTYPE",
    "<!DOCTYPE>",
    "<!DOCTYPEx y>",
    "<!DOCTYPE html PUBLIC 'a' 'b'>",
    "<!DOCTYPE html PUBLIC \"",
    "<!doctype html bogus>",
    "&",
    "&amp;",
    "&amp",
    "&AMP",
    "&ampx",
    "&amp=",
    "&lt",
    "&gt;",
    "&nbsp;",
    "&notit;",
    "&notin;",
    "&not",
    "&acE;",
    "&#",
    "&#x",
    "&#;",
    "&#x0;",
    "&#0;",
    "&#128;",
    "&#x80;",
    "&#x9F;",
    "&#10;",
    "&#10",
    "&#x0a",
    "&#13;",
    "&#xD800;",
    "&#x10FFFF;",
    "&#x110000;",
    "&#99999999999;",
    "&#x1F4A9",
    "&foo;",
    "&foo",
    "&;",
    "&#65",
    "&#X41;",
    "&NewLine;",
    "&Tab;",
    "<script>",
    "</script>",
    "</SCRIPT >",
    "</script",
    "<script><!--",
    "<!--<script>",
    "</script x>",
    "<style>",
    "</style>",
    "<textarea>",
    "</textarea>",
    "<title>",
    "</title>",
    "<xmp>",
    "</xmp>",
    "<iframe>",
    "</iframe>",
    "<noscript>",
    "</noscript>",
    "<noembed>",
    "<noframes>",
    "<plaintext>",
    "<pre>",
    "</pre>",
    "<listing>",
    "<svg>",
    "</svg>",
    "<math>",
    "<mi>",
    "<foreignObject>",
    "<desc>",
    "<![CDATA[",
    "]]>",
    "]]",
    "]",
    "<![CDATA[x]]>",
    "<table>",
    "<tr>",
    "<td>",
    "</table>",
    "<select>",
    "<option>",
    "<frameset>",
    "<frame>",
    "</frameset>",
    "<html>",
    "</html>",
    "<head>",
    "</head>",
    "<body>",
    "</body>",
    "<template>",
    "</template>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<p>",
    "</p>",
    "<a href=x>",
    "</a>",
    "<br/>",
    "<img src='a&amp;b'>",
    "<meta charset=utf-8>",
    "<input value=\"&ampx\">",
    "<div id=a ID=b class=c CLASS=d>",
    "<DIV CLASS=X>",
    "<p \0>",
    "<a =b>",
    "<a b= c>",
    "<a b='c'd>",
    "<a b=\"c\"/>",
    "<a\nb\n=\n'c'>",
    "<a b=&notit>",
    "<a b='&#10x'>",
    "\r\n",
    "\r",
    "\n",
    "\n\n",
    "\0",
    "\t",
    "\x0c",
    " ",
    "  ",
    "\u{feff}",
    "\u{e9}",
    "\u{1F600}",
    "\u{fffd}",
    "x",
    "text",
    "a b",
    "Z",
    "ab\ncd",
];

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(FRAGMENTS).prop_map(str::to_owned),
        1 => "[a-zA-Z \\n\\r&;#<>/=\"'!-]{0,12}",
        1 => ("[a-zA-Z][a-zA-Z0-9:-]{0,6}", "( [a-zA-Z:=\"'&;/-]{1,6}(=[a-z\"'&;#0-9 ]{0,6})?){0,3}", "[ /]{0,2}")
            .prop_map(|(n, a, e)| format!("<{n}{a}{e}>")),
        1 => "[a-zA-Z]{1,8}".prop_map(|n| format!("</{n}>")),
        1 => "[a-zA-Z0-9]{1,10};?".prop_map(|n| format!("&{n}")),
    ]
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..48).prop_map(|v| v.concat())
}

/// Text-heavy input after a context whose insertion mode treats whitespace, line breaks or a
/// leading LF specially: this is where token boundaries and lines are observable.
fn text_in_context() -> impl Strategy<Value = String> {
    const CONTEXTS: &[&str] = &[
        "",
        "<html>",
        "<head>",
        "<frameset>",
        "<frameset></frameset>",
        "<body></body>",
        "<body></body></html>",
        "<table>",
        "<table><tr>",
        "<colgroup>",
        "<pre>",
        "<listing>",
        "<textarea>",
        "<title>",
        "<script>",
        "<style>",
        "<plaintext>",
        "<select>",
        "<svg>",
        "<svg><![CDATA[",
        "<template>",
        "<noscript>",
        "<head><noscript>",
        "<!DOCTYPE html>",
    ];
    const TEXT: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\n",
        "\n\n",
        "\r",
        "\r\n",
        "\r\r\n",
        "\x0c",
        "\0",
        "x",
        "ab",
        "&amp;",
        "&amp",
        "&amp ",
        "&ampx",
        "&notit;",
        "&nbsp;",
        "&#32;",
        "&#10;",
        "&#10",
        "&#x20",
        "&#",
        "&#x",
        "&foo ",
        "&foo;",
        "&",
        "< ",
        "<\n",
        "<1",
        "</ ",
        "</>",
        "</\n",
        "<!--x-->",
        "\u{e9}",
        "]]>",
        "</x>",
        "-",
        "--",
        "<!--",
        "-->",
        "<s",
        "</script>",
        "</textarea>",
        "</title>",
    ];
    (
        prop::sample::select(CONTEXTS),
        prop::collection::vec(prop::sample::select(TEXT), 0..24),
    )
        .prop_map(|(c, t)| format!("{c}{}", t.concat()))
}

fn check(html: &str) -> Result<(), TestCaseError> {
    match common::difference(html) {
        None => Ok(()),
        Some(d) => Err(TestCaseError::fail(d)),
    }
}

proptest! {
    #![proptest_config(Config { cases: 6000, ..Config::default() })]
    #[test]
    fn fragment_soup_parses_identically(html in soup()) {
        check(&html)?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 6000, ..Config::default() })]
    #[test]
    fn text_in_every_context_parses_identically(html in text_in_context()) {
        check(&html)?;
    }
}

proptest! {
    #![proptest_config(Config { cases: 1500, ..Config::default() })]
    #[test]
    fn random_bytes_parse_identically(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn html_ish_bytes_parse_identically(
        bytes in prop::collection::vec(prop::sample::select(b"<>/!-&#;=\"' \n\r\0ab?[]xX9".to_vec()), 0..400)
    ) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn arbitrary_strings_parse_identically(s in any::<String>()) {
        check(&s)?;
    }
}

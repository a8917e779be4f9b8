// A small XML 1.0 well-formedness checker for the JUnit report: enough to prove that CI parsers will
// read it (balanced tags, quoted and unique attributes, valid references, no forbidden characters),
// without adding a parser dependency. It decodes references so tests can compare values as a CI tool
// would see them. Not a validating parser: no DTD, no namespaces.
export interface XmlElement { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

const INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const NAME = /^[A-Za-z_:][\w.:-]*/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: number): string {
  return raw.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new Error(`unterminated reference at ${where}: ${whole}`);
    if (ref in PREDEFINED) return PREDEFINED[ref];
    const m = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
    if (!m) throw new Error(`unknown entity &${ref}; at ${where}`);
    const char = String.fromCodePoint(parseInt(m[1] ?? m[2], m[1] ? 16 : 10));
    if (INVALID.test(char)) throw new Error(`reference to a forbidden character at ${where}`);
    return char;
  });
}

export function parseXml(src: string): XmlElement {
  const bad = INVALID.exec(src);
  if (bad) throw new Error(`forbidden character U+${bad[0].codePointAt(0)!.toString(16)} at ${bad.index}`);
  let i = 0;
  const fail = (why: string): never => { throw new Error(`${why} at ${i}: ${JSON.stringify(src.slice(i, i + 40))}`); };
  const ws = () => { while (/\s/.test(src[i] ?? '')) i++; };
  const misc = () => {
    for (;;) {
      ws();
      if (src.startsWith('<!--', i)) { const end = src.indexOf('-->', i); if (end < 0) fail('unterminated comment'); i = end + 3; } else return;
    }
  };
  const name = () => { const m = NAME.exec(src.slice(i)); if (!m) fail('expected a name'); i += m![0].length; return m![0]; };

  function element(): XmlElement {
    if (src[i] !== '<') fail('expected <');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      ws();
      if (src.startsWith('/>', i)) { i += 2; return el; }
      if (src[i] === '>') { i++; break; }
      if (i === before) fail('expected whitespace before an attribute');
      const key = name();
      ws(); if (src[i] !== '=') fail('expected ='); i++; ws();
      const quote = src[i];
      if (quote !== '"' && quote !== "'") fail('unquoted attribute value');
      const end = src.indexOf(quote, i + 1);
      if (end < 0) fail('unterminated attribute value');
      const raw = src.slice(i + 1, end);
      if (raw.includes('<')) fail('< in an attribute value');
      if (key in el.attrs) fail(`duplicate attribute ${key}`);
      // Attribute-value normalisation: literal whitespace becomes a space; references are kept.
      el.attrs[key] = decode(raw.replace(/[\t\n\r]/g, ' '), i);
      i = end + 1;
    }
    for (;;) {
      const lt = src.indexOf('<', i);
      if (lt < 0) fail(`unclosed <${el.name}>`);
      const text = src.slice(i, lt);
      if (text.includes(']]>')) fail(']]> in text');
      el.text += decode(text, i);
      i = lt;
      if (src.startsWith('</', i)) {
        i += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        ws(); if (src[i] !== '>') fail('expected >'); i++;
        return el;
      }
      if (src.startsWith('<!--', i)) { const end = src.indexOf('-->', i); if (end < 0) fail('unterminated comment'); i = end + 3; continue; }
      if (src.startsWith('<![CDATA[', i)) { const end = src.indexOf(']]>', i); if (end < 0) fail('unterminated CDATA'); el.text += src.slice(i + 9, end); i = end + 3; continue; }
      el.children.push(element());
    }
  }

  if (src.startsWith('<?xml', i)) { const end = src.indexOf('?>', i); if (end < 0) fail('unterminated declaration'); i = end + 2; }
  misc();
  const root = element();
  misc();
  if (i !== src.length) fail('content after the root element');
  return root;
}

/** Every element named `name` in the tree, depth first. */
export function all(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => all(c, name))];
}

/**
 * Writes the DOCX fixtures of test/fixtures/docx/: a real Word document made with the `docx`
 * package (title and author in docProps/core.xml, headings, bulleted and numbered lists, a table
 * with a header row, a link), the same document cut short (corrupt), and it password-encrypted
 * the way Word does (ECMA-376 agile encryption, by `officecrypto-tool`).
 * Run: `node scripts/make-docx-fixtures.ts`
 */
import { writeFileSync } from "node:fs";
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from "docx";
import officeCrypto from "officecrypto-tool";

const out = (name: string) => new URL(`../test/fixtures/docx/${name}`, import.meta.url);

const heading = (text: string, level: (typeof HeadingLevel)[keyof typeof HeadingLevel]) =>
  new Paragraph({ text, heading: level });
const para = (text: string) => new Paragraph({ children: [new TextRun(text)] });
const bullet = (text: string) => new Paragraph({ text, bullet: { level: 0 } });
const step = (text: string) => new Paragraph({ text, numbering: { reference: "steps", level: 0 } });
const cell = (text: string) => new TableCell({ children: [para(text)] });
// Word marks only header rows (`<w:tblHeader/>`); `tableHeader: false` would write `w:val="off"`.
const row = (cells: string[], header = false) =>
  new TableRow({ ...(header && { tableHeader: true }), children: cells.map(cell) });

const doc = new Document({
  title: "Cirrus Site Handbook",
  creator: "Ada Brook",
  description: "How a field site is surveyed",
  numbering: {
    config: [
      {
        reference: "steps",
        levels: [{ level: 0, format: LevelFormat.DECIMAL, text: "%1.", alignment: AlignmentType.START }],
      },
    ],
  },
  sections: [
    {
      children: [
        heading("Cirrus Site Handbook", HeadingLevel.HEADING_1),
        para("This handbook explains how a river site is surveyed. Alpha marker: handbook-intro-one."),
        heading("Equipment", HeadingLevel.HEADING_2),
        bullet("Depth gauge"),
        bullet("Flow meter"),
        bullet("Waterproof notebook"),
        heading("Survey steps", HeadingLevel.HEADING_2),
        step("Mark the site on the map"),
        step("Measure the depth at three points"),
        step("Record the flow rate"),
        heading("Measurements", HeadingLevel.HEADING_2),
        new Table({
          rows: [
            row(["Site", "Depth (m)", "Flow (m³/s)"], true),
            row(["North bank", "1.2", "0.8"]),
            row(["South bank", "2.5", "1.9"]),
          ],
        }),
        heading("Further reading", HeadingLevel.HEADING_3),
        new Paragraph({
          children: [
            new TextRun("The survey method is described in "),
            new ExternalHyperlink({
              link: "https://example.com/survey-guide",
              children: [new TextRun({ text: "the survey guide", style: "Hyperlink" })],
            }),
            new TextRun(". Omega marker: handbook-closing-final."),
          ],
        }),
      ],
    },
  ],
});

const bytes = await Packer.toBuffer(doc);
writeFileSync(out("handbook.docx"), bytes);
// Cut short: the local headers stay, the central directory at the end is gone.
writeFileSync(out("corrupt.docx"), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
writeFileSync(out("encrypted.docx"), await officeCrypto.encrypt(bytes, { password: "cirrus-fixture" }));
console.log(`wrote handbook.docx (${bytes.length} bytes), corrupt.docx and encrypted.docx`);

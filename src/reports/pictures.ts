// Puts pictures (the Overview's charts) on a sheet of exceljs's streaming writer, which on its own can only
// add a tiled background. It adds what Excel expects of a picture: the PNG under xl/media, a drawing part
// anchoring it to a cell, the sheet's relationship to the drawing, the <drawing> element at its place in
// the sheet's XML, and the drawing's content type. This leans on exceljs 4.4's stream writer internals
// (named below); the report tests read the pictures back and have LibreOffice open the file, so a change
// there shows.
import type ExcelJS from 'exceljs';
import type { Picture } from './charts';

const EMU_PER_PIXEL = 9525;
const DRAWING_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
const DRAWING_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.drawing+xml';

export interface PlacedPicture extends Picture {
  /** 0-based column and row of the cell the picture's top-left corner sits in. */
  col: number;
  row: number;
}

// The internals of exceljs's stream writer this file relies on.
interface ZipLike {
  append(source: string | Buffer, data: { name: string }): unknown;
}
interface WorkbookInternals {
  zip: ZipLike;
  addImage(image: { buffer: Buffer; extension: 'png' }): number;
  getImage(id: number): { name: string };
}
interface SheetInternals {
  id: number;
  _sheetRelsWriter: { addRelationship(rel: { Type: string; Target: string }): string };
  _writeRowBreaks(): void;
  _write(text: string): void;
}

const drawingParts = new WeakMap<object, string[]>();

/** Call before `sheet.commit()`, at most once per sheet. */
export function addPictures(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  sheet: ExcelJS.Worksheet,
  pictures: PlacedPicture[],
): void {
  if (pictures.length === 0) return;
  const book = workbook as unknown as WorkbookInternals;
  const internals = sheet as unknown as SheetInternals;

  const parts = registerDrawingParts(book);
  const drawingName = `drawing${parts.length + 1}`;
  parts.push(`/xl/drawings/${drawingName}.xml`);

  const imageRels: string[] = [];
  const anchors = pictures.map((picture, i) => {
    const imageName = book.getImage(book.addImage({ buffer: picture.png, extension: 'png' })).name;
    const relId = `rId${i + 1}`;
    imageRels.push(`<Relationship Id="${relId}" Type="${IMAGE_REL}" Target="../media/${imageName}"/>`);
    return anchorXml(picture, i + 2, relId);
  });
  book.zip.append(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"' +
      ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"' +
      ' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
      `${anchors.join('')}</xdr:wsDr>`,
    { name: `xl/drawings/${drawingName}.xml` },
  );
  book.zip.append(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `${imageRels.join('')}</Relationships>`,
    { name: `xl/drawings/_rels/${drawingName}.xml.rels` },
  );

  const drawingRelId = internals._sheetRelsWriter.addRelationship({
    Type: DRAWING_REL,
    Target: `../drawings/${drawingName}.xml`,
  });
  // <drawing> belongs after <rowBreaks> (and before <legacyDrawing>) in a worksheet's XML; exceljs writes
  // rowBreaks next-to-last when the sheet is committed.
  const writeRowBreaks = internals._writeRowBreaks.bind(internals);
  internals._writeRowBreaks = () => {
    writeRowBreaks();
    internals._write(`<drawing r:id="${drawingRelId}"/>`);
  };
}

/** The stream writer lists no drawings in [Content_Types].xml; add ours as it writes that file. */
function registerDrawingParts(book: WorkbookInternals): string[] {
  const existing = drawingParts.get(book);
  if (existing) return existing;
  const parts: string[] = [];
  drawingParts.set(book, parts);
  const append = book.zip.append.bind(book.zip);
  book.zip.append = (source, data) => {
    if (data.name === '[Content_Types].xml' && typeof source === 'string') {
      const overrides = parts
        .map((part) => `<Override PartName="${part}" ContentType="${DRAWING_CONTENT_TYPE}"/>`)
        .join('');
      return append(source.replace('</Types>', `${overrides}</Types>`), data);
    }
    return append(source, data);
  };
  return parts;
}

function anchorXml(picture: PlacedPicture, shapeId: number, relId: string): string {
  const cx = picture.width * EMU_PER_PIXEL;
  const cy = picture.height * EMU_PER_PIXEL;
  return (
    '<xdr:oneCellAnchor>' +
    `<xdr:from><xdr:col>${picture.col}</xdr:col><xdr:colOff>0</xdr:colOff>` +
    `<xdr:row>${picture.row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
    `<xdr:ext cx="${cx}" cy="${cy}"/>` +
    '<xdr:pic><xdr:nvPicPr>' +
    `<xdr:cNvPr id="${shapeId}" name="Chart ${shapeId - 1}" descr="${xmlAttr(picture.description)}"/>` +
    '<xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>' +
    `<xdr:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
    `<xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>` +
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic>' +
    '<xdr:clientData/></xdr:oneCellAnchor>'
  );
}

function xmlAttr(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 cannot carry these at all
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
  );
}

/**
 * Every file the page and the command open, through one importer list: the input formats of
 * `src/formats/` and, added here (sessions are this layer's), session files and the HTML reports
 * that embed one. Both hosts call parseOpenedFile, so a file opens the same way in each.
 */
import { IMPORTERS, parseInputFile } from '../formats/detect.ts';
import { opensWithJsonFormat, type ImportedInput, type Importer } from '../formats/importer.ts';
import { importSessionText, looksLikeHtml, SESSION_FORMAT } from './session-file.ts';
import type { Session } from './types.ts';

/** What an opened file holds: an input of src/formats, or a stored session. */
export type OpenedInput = ImportedInput | { kind: 'session'; session: Session };

/** Session files (`agentblame-session`) and exported reports (HTML with the session embedded), docs/formats.md. */
export const sessionImporter: Importer<OpenedInput> = {
  label: 'agentblame-session (JSON) or a report exported by agentblame (HTML)',
  jsonFormat: SESSION_FORMAT,
  sniff: (text) => opensWithJsonFormat(text, SESSION_FORMAT) || looksLikeHtml(text),
  import: (text) => ({ kind: 'session', session: importSessionText(text) }),
};

/**
 * The importer list of the page and the command, in the order they are tried. Sessions first: a
 * report is HTML that quotes its definition, and the pipeline importer would take any text
 * saying `export default` for a definition.
 */
export const OPENED_IMPORTERS: readonly Importer<OpenedInput>[] = [sessionImporter, ...IMPORTERS];

/** Detects the format of an opened file and reads it; throws FormatError naming the problem. */
export function parseOpenedFile(text: string, fileName?: string): OpenedInput {
  return parseInputFile(text, fileName, OPENED_IMPORTERS);
}
